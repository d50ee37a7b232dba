import { formatExactMoney, formatMoney } from "@/lib/money";

/**
 * An amount as a person reads it (formatMoney: never rounded up), with the
 * exact figure as its title, one hover away. Every page shows money through
 * this, so a balance or a spend reads the same everywhere.
 */
export function Money({ nanos, className, testId }: { nanos: bigint; className?: string; testId?: string }) {
  return (
    <span className={className} title={formatExactMoney(nanos)} data-testid={testId} data-nanos={nanos.toString()}>
      {formatMoney(nanos)}
    </span>
  );
}
