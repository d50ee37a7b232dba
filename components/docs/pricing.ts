import { formatMoney, NANOS_PER_DOLLAR } from "@/lib/money";
import { formatCount, roundSignificant } from "@/lib/utils/format";

/** "$8.00 / GB" */
export function pricePerGbText(nanos: bigint): string {
  return `${formatMoney(nanos, "price")} / GB`;
}

/** "≈ 348,000 such requests per $1", from a cost in nano-dollars. */
export function requestsPerDollarText(costNanos: bigint): string {
  if (costNanos <= 0n) return "Free";
  const count = NANOS_PER_DOLLAR / costNanos;
  if (count < 1n) return `Less than one such request per $1`;
  return `≈ ${formatCount(roundSignificant(Number(count)))} such requests per $1`;
}
