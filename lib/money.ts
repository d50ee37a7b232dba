import { z } from "zod";

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
 * What an amount on a page is, which decides how it is shown:
 * - "balance": what an organization holds;
 * - "amount": a charge, a ledger line, a spend, a refund — what moved;
 * - "price": a price per GB, set by an operator to the nano-dollar;
 * - "typed": an amount a person entered (a cap, a threshold), shown back.
 */
export type MoneyUse = "balance" | "amount" | "price" | "typed";

/**
 * The one way money is shown to a person, on every page, in every email and
 * in every error message's words. Prices and typed amounts are exact (they
 * were set to that figure: "$8.00", "$0.00001"). Balances and amounts: whole
 * cents as they are ("$20.00"); otherwise the magnitude is cut towards zero,
 * never rounded up, to four decimals ("$19.9999" for $19.999954049), or below
 * a cent to three significant digits ("$0.0000459" for $0.000045951), and the
 * sign is put in front — so a debit reads as the same digits as the spend it
 * is ("-$0.0000901" and "$0.0000901"), a small amount never reads as $0.00,
 * and a balance never looks larger than it is. Thousands are grouped. The
 * exact figure is formatExactMoney, one hover away (components/ui/money.tsx
 * puts it in the title); exports, the API's headers and error details carry
 * the exact figure.
 */
export function formatMoney(nanos: bigint, use: MoneyUse = "amount"): string {
  if (use === "price" || use === "typed" || nanos % NANOS_PER_CENT === 0n) return formatDollars(nanos, { grouping: true });
  const negative = nanos < 0n;
  const abs = negative ? -nanos : nanos;
  const decimals = abs >= NANOS_PER_CENT ? 4 : Math.min(9, 12 - abs.toString().length);
  const unit = 10n ** BigInt(9 - decimals);
  const cut = (abs / unit) * unit;
  const text = formatDollars(cut, { grouping: true, minDecimals: abs >= NANOS_PER_CENT ? decimals : 2 });
  return negative ? `-${text}` : text;
}

/** The exact figure behind formatMoney, to the last nano-dollar ("$19.999954049", "$1,234.50"). */
export function formatExactMoney(nanos: bigint): string {
  return formatDollars(nanos, { grouping: true });
}

/**
 * An amount in a CSV export: the exact figure with all nine decimals, no "$"
 * and no grouping ("19.999954049", "-0.000045951"), so the columns add up
 * to the nano-dollar in a spreadsheet.
 */
export function formatExportDollars(nanos: bigint): string {
  return formatDollars(nanos, { minDecimals: 9 }).replace("$", "");
}

/** An amount as a form field holds it: exact, without "$" or grouping ("19.5", "0.000045951", "20"). */
export function dollarsInputValue(nanos: bigint): string {
  return formatDollars(nanos, { minDecimals: 0 }).replace("$", "");
}

/**
 * Whole cents (what Stripe charges: top-ups, auto-recharges, refunds) by the
 * one rule of formatMoney ("$1,250.00"); with trimZeroCents a whole-dollar
 * amount drops its ".00", for a button or a heading ("$20", "$20.50").
 */
export function formatCents(cents: number, options: { trimZeroCents?: boolean } = {}): string {
  const text = formatMoney(centsToNanos(cents));
  return options.trimZeroCents ? text.replace(/\.00$/, "") : text;
}

/** Whole cents as a form field holds a dollar amount: two decimals, without "$" or grouping ("25.00", "1234.50"). */
export function centsInputValue(cents: number): string {
  return formatDollars(centsToNanos(cents)).replace("$", "");
}

/** Price per GB as a JSON number of dollars (for `price_per_gb_dollars`). */
export function nanosToDollarNumber(nanos: bigint): number {
  return Number(nanos) / 1e9;
}

// ─────────────────────── amounts a person types ───────────────────────

/**
 * The most any dollar amount a person types may be: $1,000,000,000 (an
 * admin's credit adjustment, the CLI's credits:add; caps, thresholds and
 * prices have lower bounds of their own). Far above any real figure, and far
 * below where a balance of 64-bit nano-dollars ends ($9,223,372,036.85), so a
 * typed amount is refused with a message instead of reaching the database as
 * a number it cannot hold.
 */
export const MAX_TYPED_NANOS = 1_000_000_000n * NANOS_PER_DOLLAR;

export interface TypedDollarsRule {
  /** The smallest amount allowed, inclusive (default 1 nano-dollar: more than $0). */
  min?: bigint;
  /** The largest, inclusive (default, and at most, MAX_TYPED_NANOS). */
  max?: bigint;
  /** Decimals allowed (default 9: every nano-dollar). */
  decimals?: number;
  /** The field's name, which starts each message ("Daily cap: …"). */
  label?: string;
  /** A form's own words for a refusal, in place of the reader's (the label is not added to them). */
  messages?: Partial<Record<"format" | "decimals" | "above" | "below", string>>;
}

export type TypedDollars = { ok: true; nanos: bigint } | { ok: false; message: string };

/** "25", "$1,000.50", "-3", " 0.25 ": digits, thousands commas where they belong, a leading $ and minus. */
const TYPED_DOLLARS = /^(-)?\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/;

/**
 * A dollar amount as a person typed it, in nanos exactly, within the rule's
 * bounds; otherwise the message they read. Every amount typed into a form or
 * the CLI is read here, so each has a bound and no typo reaches the ledger
 * as a fault.
 */
export function readTypedDollars(input: string, rule: TypedDollarsRule = {}): TypedDollars {
  const { min = 1n, decimals = 9, label } = rule;
  const max = rule.max !== undefined && rule.max < MAX_TYPED_NANOS ? rule.max : MAX_TYPED_NANOS;
  const say = (problem: keyof NonNullable<TypedDollarsRule["messages"]>, text: string) => {
    const message = rule.messages?.[problem] ?? (label ? `${label}: ${text}` : `${text.charAt(0).toUpperCase()}${text.slice(1)}`);
    return { ok: false as const, message };
  };
  const text = input.trim();
  const match = text.length <= 40 ? TYPED_DOLLARS.exec(text) : null;
  if (!match) return say("format", `enter an amount in dollars, like 25 or 0.50.`);
  const [, sign, whole, fraction = ""] = match;
  if (fraction.length > decimals) return say("decimals", decimals === 2 ? "amounts are in dollars and cents: at most two decimals." : `at most ${decimals} decimals.`);
  const magnitude = BigInt(whole!.replaceAll(",", "")) * NANOS_PER_DOLLAR + BigInt(fraction.padEnd(9, "0"));
  const nanos = sign ? -magnitude : magnitude;
  const dollars = (value: bigint) => formatDollars(value, { grouping: true });
  if (nanos > max) return say("above", `at most ${dollars(max)}.`);
  if (nanos < min) return say("below", min === 1n ? "enter an amount above zero." : min === 0n ? "the amount cannot be negative." : `at least ${dollars(min)}.`);
  return { ok: true, nanos };
}

/** readTypedDollars as a zod schema: a string in, nanos out, the message as the issue. */
export function typedDollarsSchema(rule: TypedDollarsRule = {}) {
  return z.string({ error: rule.label ? `${rule.label}: enter an amount in dollars.` : "Enter an amount in dollars." }).transform((text, ctx) => {
    const read = readTypedDollars(text, rule);
    if (read.ok) return read.nanos;
    ctx.addIssue({ code: "custom", message: read.message });
    return z.NEVER;
  });
}
