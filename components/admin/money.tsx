import { formatExactMoney, formatMoney } from "@/lib/money";
import { cn } from "@/lib/utils/cn";

/** An amount for operators: shown by the one money rule (formatMoney), the exact dollars as its title and the nano-dollars underneath. */
export function Money({ nanos, className, testId }: { nanos: bigint; className?: string; testId?: string }) {
  return (
    <span className={cn("inline-flex flex-col tabular-nums", nanos < 0n && "text-red-700", className)} data-testid={testId} data-nanos={nanos.toString()}>
      <span title={formatExactMoney(nanos)}>{formatMoney(nanos)}</span>
      <span className="text-[11px] font-normal text-zinc-500">{nanos.toLocaleString("en-US")} n$</span>
    </span>
  );
}
