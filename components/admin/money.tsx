import { formatDollars } from "@/lib/money";
import { cn } from "@/lib/utils/cn";

/** An exact amount for operators: dollars to the last nano-dollar, and the nano-dollars themselves underneath. */
export function Money({ nanos, className, testId }: { nanos: bigint; className?: string; testId?: string }) {
  return (
    <span className={cn("inline-flex flex-col tabular-nums", nanos < 0n && "text-red-700", className)} data-testid={testId} data-nanos={nanos.toString()}>
      <span>{formatDollars(nanos, { grouping: true })}</span>
      <span className="text-[11px] font-normal text-zinc-500">{nanos.toLocaleString("en-US")} n$</span>
    </span>
  );
}
