/**
 * Unit conversions from the stored integers to the JSON the API returns.
 *
 * Stored: company money in bigint cents, per-share prices in bigint
 * micro-dollars (1 USD = 10^6), ownership in integer basis points, plain dates
 * as Dates at 00:00 UTC. Returned: dollars and percents as JSON numbers,
 * dates as "YYYY-MM-DD".
 *
 * The number is built from the exact decimal text of the integer ratio
 * ("1234567.89"), so it is the nearest double to the exact value whatever
 * its size: 123456789n cents → 1234567.89, never 1234567.8900000001.
 */

function scaledToNumber(value: bigint, decimals: number): number {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals);
  return Number(`${negative ? "-" : ""}${whole}.${fraction}`);
}

/** Cents → dollars: 123456789n → 1234567.89. */
export function centsToDollars(cents: bigint): number;
export function centsToDollars(cents: bigint | null): number | null;
export function centsToDollars(cents: bigint | null): number | null {
  return cents === null ? null : scaledToNumber(cents, 2);
}

/** Micro-dollars → dollars: 1_234_500n → 1.2345. */
export function microsToDollars(micros: bigint): number;
export function microsToDollars(micros: bigint | null): number | null;
export function microsToDollars(micros: bigint | null): number | null {
  return micros === null ? null : scaledToNumber(micros, 6);
}

/** Basis points → percent with 2 decimals: 1234 → 12.34, 10000 → 100. */
export function bpsToPercent(bps: number): number;
export function bpsToPercent(bps: number | null): number | null;
export function bpsToPercent(bps: number | null): number | null {
  if (bps === null) return null;
  if (!Number.isSafeInteger(bps)) throw new RangeError(`basis points must be an integer, got ${bps}`);
  return scaledToNumber(BigInt(bps), 2);
}

/** A share count (or other whole count) as a JSON number; exact below 2^53. */
export function countToNumber(count: bigint): number;
export function countToNumber(count: bigint | null): number | null;
export function countToNumber(count: bigint | null): number | null {
  return count === null ? null : Number(count);
}

const encoder = new TextEncoder();

/** The bytes a text takes inside a JSON string as the API sends it: UTF-8, with its escapes, without the quotes. */
export function jsonTextBytes(value: string): number {
  return encoder.encode(JSON.stringify(value)).byteLength - 2;
}

/**
 * A text cut to at most `maxBytes` of JSON text (`jsonTextBytes`), ending
 * with "…" when cut, never inside a character.
 */
export function clampText(value: string, maxBytes: number): string {
  if (jsonTextBytes(value) <= maxBytes) return value;
  const room = maxBytes - jsonTextBytes("…");
  let used = 0;
  let kept = "";
  for (const char of value) {
    const bytes = jsonTextBytes(char);
    if (used + bytes > room) break;
    used += bytes;
    kept += char;
  }
  return `${kept}…`;
}
