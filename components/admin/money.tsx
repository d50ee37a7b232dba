import { formatExactMoney, formatMoney, type MoneyUse } from "@/lib/money";
import { cn } from "@/lib/utils/cn";

/** An amount for operators: by the one money rule (formatMoney), negative in red, the exact dollars and nano-dollars as its title. */
export function Money({ nanos, use = "amount", className, testId }: { nanos: bigint; use?: MoneyUse; className?: string; testId?: string }) {
  return (
    <span
      className={cn("tabular-nums", nanos < 0n && "text-red-700", className)}
      title={`${formatExactMoney(nanos)} (${nanos.toLocaleString("en-US")} nano-dollars)`}
      data-testid={testId}
      data-nanos={nanos.toString()}
    >
      {formatMoney(nanos, use)}
    </span>
  );
}
