/**
 * Compact figures for text a trader reads: "$4.1M", "$850K", "16.2M",
 * "38.2%", "2025-03-01". All from bigint integers, rounded half away from
 * zero, so the same facts always print the same text.
 */

/** a ÷ b rounded half away from zero (b > 0). */
export function roundDiv(a: bigint, b: bigint): bigint {
  if (b <= 0n) throw new RangeError("divisor must be positive");
  const negative = a < 0n;
  const abs = negative ? -a : a;
  const q = (abs + b / 2n) / b;
  return negative ? -q : q;
}

const UNITS: ReadonlyArray<readonly [bigint, string]> = [
  [1_000_000_000_000n, "T"],
  [1_000_000_000n, "B"],
  [1_000_000n, "M"],
  [1_000n, "K"],
];

/**
 * A non-negative count in the largest unit where it rounds to at least 1.0:
 * 16_200_000 → "16.2M", 850_000 → "850K", 8_500 → "8.5K", 950 → "950",
 * 999 → "999", 999_960 → "1.0M". M, B and T keep one decimal; K keeps one
 * below 10K.
 */
export function formatCompact(value: bigint): string {
  if (value < 0n) return `-${formatCompact(-value)}`;
  for (const [unit, suffix] of UNITS) {
    const tenths = roundDiv(value * 10n, unit);
    // Below 1,000 the plain number is as short as it gets: 950, never "1.0K".
    if (suffix === "K" ? value < unit : tenths < 10n) continue;
    if (suffix === "K" && tenths >= 100n) return `${roundDiv(value, unit)}K`;
    return `${tenths / 10n}.${tenths % 10n}${suffix}`;
  }
  return value.toString();
}

/** Cents as compact dollars: "$4.1M", "$850K", "$950", "$0", "-$1.2M". */
export function formatMoney(cents: bigint): string {
  const dollars = roundDiv(cents, 100n);
  return dollars < 0n ? `-$${formatCompact(-dollars)}` : `$${formatCompact(dollars)}`;
}

/** A share count without the word: "16.2M", "850K", "0". */
export function formatShares(shares: bigint): string {
  return formatCompact(shares);
}

/** A price per share from micro-dollars, as written: "$3.482", "$0.0001", "$11.50" (at least two decimals, no trailing zeros beyond). */
export function formatPrice(micros: bigint): string {
  const negative = micros < 0n;
  const abs = negative ? -micros : micros;
  const fraction = (abs % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "").padEnd(2, "0");
  return `${negative ? "-" : ""}$${abs / 1_000_000n}.${fraction}`;
}

/** Tenths as "38.2" (one decimal always). */
export function formatTenths(tenths: bigint): string {
  const negative = tenths < 0n;
  const abs = negative ? -tenths : tenths;
  return `${negative ? "-" : ""}${abs / 10n}.${abs % 10n}`;
}

/** Tenths of a percent as "38.2%". */
export function formatPercentTenths(tenths: bigint): string {
  return `${formatTenths(tenths)}%`;
}

/** "1 offering", "0 PIPEs", "2 ATM uses". */
export function pluralize(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
