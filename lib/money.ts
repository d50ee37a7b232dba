/**
 * Money is BigInt nano-dollars everywhere (1 USD = 10^9 nanos), so a single
 * small response is charged exactly. Dollar strings exist only at the edges.
 */
export const NANOS_PER_DOLLAR = 1_000_000_000n;
export const NANOS_PER_CENT = 10_000_000n;
/** A GB is 10^9 bytes, as in every price list. */
export const BYTES_PER_GB = 1_000_000_000n;

/** Charge for `bytes` at `pricePerGbNanos`: ceil(bytes × price / 10^9) nanos. */
export function chargeForBytes(bytes: number | bigint, pricePerGbNanos: bigint): bigint {
  const b = BigInt(bytes);
  if (b < 0n) throw new RangeError("bytes must not be negative");
  if (pricePerGbNanos < 0n) throw new RangeError("price must not be negative");
  return ceilDiv(b * pricePerGbNanos, BYTES_PER_GB);
}

/** ⌈a ÷ b⌉ for a ≥ 0 and b > 0: a charge is rounded up to the next nano-dollar, never down. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

export function centsToNanos(cents: number | bigint): bigint {
  return BigInt(cents) * NANOS_PER_CENT;
}

/**
 * Parses a decimal dollar amount ("12", "12.5", "$0.000115", "-3.20") into
 * nanos exactly. Rejects more than 9 decimals, exponents and anything else.
 */
export function parseDollars(input: string): bigint {
  const match = /^\s*(-)?\$?(\d{1,12})(?:\.(\d{1,9}))?\s*$/.exec(input);
  if (!match) throw new RangeError(`not a dollar amount: ${JSON.stringify(input)}`);
  const [, sign, whole, fraction = ""] = match;
  const nanos = BigInt(whole!) * NANOS_PER_DOLLAR + BigInt(fraction.padEnd(9, "0"));
  return sign ? -nanos : nanos;
}

export interface FormatDollarsOptions {
  /** Decimals always shown (default 2). */
  minDecimals?: number;
  /** Decimals shown at most; the rest is rounded half away from zero (default 9 = exact). */
  maxDecimals?: number;
  /** Thousands separators (default false: API strings are plain). */
  grouping?: boolean;
}

/**
 * Formats nanos as "$1,234.50" / "$0.000115". With the defaults the result is
 * exact: trailing zeros beyond two decimals are dropped, nothing is rounded.
 */
export function formatDollars(nanos: bigint, options: FormatDollarsOptions = {}): string {
  const { minDecimals = 2, maxDecimals = 9, grouping = false } = options;
  const negative = nanos < 0n;
  let abs = negative ? -nanos : nanos;
  if (maxDecimals < 9) {
    const unit = 10n ** BigInt(9 - maxDecimals);
    abs = ((abs + unit / 2n) / unit) * unit;
  }
  const whole = abs / NANOS_PER_DOLLAR;
  let fraction = (abs % NANOS_PER_DOLLAR).toString().padStart(9, "0").slice(0, maxDecimals);
  fraction = fraction.replace(/0+$/, "");
  if (fraction.length < minDecimals) fraction = fraction.padEnd(minDecimals, "0");
  const wholeText = grouping ? whole.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",") : whole.toString();
  const text = `$${wholeText}${fraction ? `.${fraction}` : ""}`;
  return negative && abs !== 0n ? `-${text}` : text;
}

/**
 * A short dollar figure that is never more than the true amount, for a
 * person to read at a glance: whole cents as they are ("$20.00"); otherwise
 * cut towards minus infinity to four decimals ("$19.9992" for
 * $19.999253008), or below a cent to two significant digits ("$0.0000088"),
 * so a small amount never reads as $0.00. Show the exact amount
 * (formatDollars) beside it, e.g. in a title.
 */
export function formatDollarsShort(nanos: bigint, options: { grouping?: boolean } = {}): string {
  if (nanos % NANOS_PER_CENT === 0n) return formatDollars(nanos, { grouping: options.grouping });
  const abs = nanos < 0n ? -nanos : nanos;
  const decimals = abs >= NANOS_PER_CENT ? 4 : Math.min(9, 11 - abs.toString().length);
  const unit = 10n ** BigInt(9 - decimals);
  const floored = nanos >= 0n ? (nanos / unit) * unit : -ceilDiv(-nanos, unit) * unit;
  return formatDollars(floored, { grouping: options.grouping, minDecimals: decimals });
}

/** Price per GB as a JSON number of dollars (for `price_per_gb_dollars`). */
export function nanosToDollarNumber(nanos: bigint): number {
  return Number(nanos) / 1e9;
}
