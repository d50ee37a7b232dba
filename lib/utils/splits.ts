/**
 * Reverse splits applied to a figure stated on one day, as of a later day.
 * One rule for the EDGAR ledger (lib/data/edgar/ledger.ts), the records it
 * serves (lib/data/records) and the ratings (an older offering's price): a
 * filing states counts and prices after every split that took effect by the
 * day it was filed, so a figure moves to a
 * later day's basis by the splits effective after its filing day and on or
 * before the later day. Counts are divided and prices multiplied by the
 * ratio, rounded to the nearest whole share or micro-dollar (halves up).
 */
export interface SplitOnDay {
  /** "YYYY-MM-DD" */
  effectiveDate: string;
  /** 1-for-N: N old shares become … */
  oldShares: bigint;
  /** … this many new shares (1 for a 1-for-N split). */
  newShares: bigint;
}

/** A ratio as a fraction: prices are multiplied by num/den, counts divided by it. */
export interface SplitFactor {
  num: bigint;
  den: bigint;
}

export const NO_SPLIT: SplitFactor = { num: 1n, den: 1n };

/** The splits effective after `after` (exclusive) and by `upTo` (inclusive), as one factor. */
export function splitFactor(splits: readonly SplitOnDay[], after: string, upTo: string): SplitFactor {
  let factor = NO_SPLIT;
  for (const split of splits) {
    if (split.effectiveDate > after && split.effectiveDate <= upTo) factor = { num: factor.num * split.oldShares, den: factor.den * split.newShares };
  }
  return factor;
}

function divRound(value: bigint, num: bigint, den: bigint): bigint {
  return (value * num * 2n + den) / (den * 2n);
}

export const adjustShares = (shares: bigint | null, f: SplitFactor): bigint | null => (shares === null ? null : divRound(shares, f.den, f.num));
export const adjustPrice = (price: bigint | null, f: SplitFactor): bigint | null => (price === null ? null : divRound(price, f.num, f.den));
export const isNoSplit = (f: SplitFactor) => f.num === f.den;

/** "1-for-N" when the factor is a whole N; null otherwise (a split that is not 1-for-N is not applied). */
export function splitRatio(f: SplitFactor): string | null {
  return f.num % f.den === 0n ? `1-for-${f.num / f.den}` : null;
}

/** "1-for-10" → 10 old shares to 1 new; "1-for-7.5" → 15 to 2, in whole shares (the integers a split is stored as). */
export function splitShares(ratio: string): { oldShares: string; newShares: string } | null {
  const m = /^(\d+(?:\.\d+)?)-for-(\d+(?:\.\d+)?)$/.exec(ratio);
  if (!m) return null;
  const places = Math.max(...[m[1]!, m[2]!].map((n) => n.split(".")[1]?.length ?? 0));
  const whole = (n: string) => BigInt(n.replace(".", "") + "0".repeat(places - (n.split(".")[1]?.length ?? 0)));
  let [newShares, oldShares] = [whole(m[1]!), whole(m[2]!)];
  const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
  const d = gcd(newShares, oldShares);
  [newShares, oldShares] = [newShares / d, oldShares / d];
  if (newShares === 0n || oldShares <= newShares) return null;
  return { oldShares: String(oldShares), newShares: String(newShares) };
}
