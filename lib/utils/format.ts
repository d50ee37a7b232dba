/**
 * Human-readable numbers for the pages. Always en-US, so the server's and the
 * browser's rendering agree (no hydration mismatch) whatever their locales.
 * Money is not formatted here: see formatDollars in lib/billing/money.ts.
 */
const COUNT = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const ONE_DECIMAL = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });
const NO_DECIMALS = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** "348,000"; bigints are formatted exactly. */
export function formatCount(n: number | bigint): string {
  return COUNT.format(n);
}

// SI units (1 KB = 1,000 bytes), like the per-GB price: a GB is 10^9 bytes.
const UNITS = ["KB", "MB", "GB", "TB", "PB"] as const;

/** "1 byte", "999 bytes", "2.9 KB", "1.2 GB". */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) throw new RangeError(`not a byte count: ${n}`);
  if (n < 1000) return `${formatCount(n)} ${Math.round(n) === 1 ? "byte" : "bytes"}`;
  let value = n;
  let unit = 0;
  for (value /= 1000; unit < UNITS.length - 1 && roundForDisplay(value) >= 1000; unit++) value /= 1000;
  const text = value < 100 ? ONE_DECIMAL.format(value) : NO_DECIMALS.format(value);
  return `${text} ${UNITS[unit]}`;
}

/** The value as it will print: one decimal below 100, none from 100. */
function roundForDisplay(value: number): number {
  return value < 100 ? Math.round(value * 10) / 10 : Math.round(value);
}

/** Rounds to `digits` significant digits: 348,068 → 348,000. */
export function roundSignificant(n: number, digits = 3): number {
  if (n === 0 || !Number.isFinite(n)) return n;
  const magnitude = Math.floor(Math.log10(Math.abs(n))) + 1 - digits;
  if (magnitude <= 0) return Math.round(n);
  const unit = 10 ** magnitude;
  return Math.round(n / unit) * unit;
}
