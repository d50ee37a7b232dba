import { formatExactMoney, formatMoney, type MoneyUse } from "@/lib/money";

/**
 * An amount as a person reads it (formatMoney, by what it is: a balance, an
 * amount that moved, a price, a typed amount), with the exact figure as its
 * title, one hover away. Every page shows money through this, so the same
 * charge reads the same everywhere.
 */
export function Money({ nanos, use = "amount", className, testId }: { nanos: bigint; use?: MoneyUse; className?: string; testId?: string }) {
  return (
    <span className={className} title={formatExactMoney(nanos)} data-testid={testId} data-nanos={nanos.toString()}>
      {formatMoney(nanos, use)}
    </span>
  );
}
