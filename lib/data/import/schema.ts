/**
 * The import format of the dilution data: one zod schema per record kind.
 *
 * - Field names are snake_case and equal the database column names, except
 *   that a record names its company by `ticker` instead of `company_id`.
 * - Money facts are whole cents in `*_cents`, per-share prices micro-dollars
 *   in `*_micros` (1 USD = 1,000,000), share counts whole shares, ownership
 *   basis points in `*_bps` (10,000 = 100 %). Every such number is accepted as
 *   a JSON number that is a safe integer, or as a string of digits (use a
 *   string beyond 2^53). They come out of the schemas as `bigint` (bps: number).
 * - Dates are "YYYY-MM-DD" and must be real calendar dates.
 * - Booleans are JSON booleans, or (for CSV) true/false, yes/no, 1/0, t/f.
 * - An absent field, `null` and (for optional text) an empty string are all
 *   "not given": the column becomes NULL or its default. A record replaces the
 *   stored row of the same natural key as a whole.
 * - Unknown fields are errors, so a misspelt column is never silently dropped.
 *
 * Natural keys (what an import upserts on), tables and columns: RECORD_KINDS.
 *
 * Evidence: every kind but companies takes `source_accession`, `source_form`,
 * `source_filed_at` and `source_url`, the SEC filing the record came from
 * (the EDGAR sync sets them; an import may). Companies take `cik`, `sic` and
 * `source_url`. A value the filings do not state is left out or null: it is
 * stored as unknown (NULL), never as 0.
 *
 * The two operator kinds hold facts EDGAR does not: `daily_prices` (closing
 * price in dollars, `close`, e.g. "12.3456") and `reg_sho_thresholds` (a
 * ticker on an exchange's Reg SHO threshold list that day). Their records
 * may name tickers this database does not list (an exchange's file names
 * them all): those are skipped and counted, not errors.
 */
import { z } from "zod";
import { isCalendarDate } from "@/lib/utils/dates";
import { jsonTextBytes } from "../units";

export const IMPORT_KINDS = [
  "companies",
  "financial_reports",
  "registrations",
  "offerings",
  "dilution_instruments",
  "instrument_states",
  "compliance_deficiencies",
  "float_snapshots",
  "reverse_splits",
  "daily_prices",
  "reg_sho_thresholds",
] as const;

/** Kinds whose records may name tickers this database does not list: those records are skipped. */
export const SKIP_UNKNOWN_TICKER_KINDS: ReadonlySet<ImportKind> = new Set(["daily_prices", "reg_sho_thresholds"]);

export type ImportKind = (typeof IMPORT_KINDS)[number];

export function isImportKind(value: string): value is ImportKind {
  return (IMPORT_KINDS as readonly string[]).includes(value);
}

/** public_offering is an underwritten (firm-commitment) offering; best_efforts, ipo and rights are read from prospectuses. */
export const OFFERING_TYPES = [
  "public_offering",
  "registered_direct",
  "pipe",
  "atm",
  "warrant_exercise",
  "convertible",
  "best_efforts",
  "ipo",
  "rights",
] as const;
export type OfferingType = (typeof OFFERING_TYPES)[number];

/** pending: a registration statement for one offering on file, not yet priced; withdrawn: its form RW. */
export const OFFERING_STATUSES = ["pending", "priced", "withdrawn"] as const;
export const AGENT_ROLES = ["underwriter", "placement_agent", "sales_agent", "selling_agent"] as const;

/** equity_line: a committed equity facility (a standby equity purchase agreement, an equity line of credit), the company's right to sell shares to one purchaser. */
export const INSTRUMENT_TYPES = ["warrant", "convertible_note", "convertible_preferred", "equity_line"] as const;
export type InstrumentType = (typeof INSTRUMENT_TYPES)[number];
/** Where an instrument stands: still outstanding, or ended by expiry, exercise or conversion (an ended instrument stays listed). */
export const INSTRUMENT_STATUSES = ["outstanding", "expired", "exercised", "converted", "redeemed"] as const;
export type InstrumentStatus = (typeof INSTRUMENT_STATUSES)[number];
/** Price protection as a filing states it: none, the customary adjustments (splits, dividends), a full ratchet, or a reset to a later market price. */
export const ANTI_DILUTION_KINDS = ["none", "customary", "full_ratchet", "reset"] as const;

export const DEFICIENCY_STATUSES = ["active", "resolved"] as const;
export const RISK_LEVELS = ["Low", "Medium", "High"] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

/** The one ticker rule, for imports and API parameters alike. */
export const MAX_TICKER_LENGTH = 10;
/** Letters, digits, "." and "-", with at least one letter or digit ("..." names nothing). */
export const TICKER_PATTERN = /^(?=.*[A-Z0-9])[A-Z0-9.-]{1,10}$/;
const INT64_MAX = 9223372036854775807n;

// ───────────────────────────── field helpers ─────────────────────────────

const isMissing = (v: unknown) => v === undefined || v === null;
const requiredOr = (what: string) => (issue: { input?: unknown }) =>
  isMissing(issue.input) ? "is required" : `must be ${what}`;

/** Optional text: blank means "not given". */
const blankToNull = (v: unknown) => (typeof v === "string" && v.trim() === "" ? null : v);

function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess(blankToNull, schema.nullish()).transform((v) => (v ?? null) as z.output<T> | null);
}

function withDefault<T extends z.ZodType>(schema: T, fallback: z.output<T>) {
  return z.preprocess(blankToNull, schema.nullish()).transform((v) => (v ?? fallback) as z.output<T>);
}

function text(max: number) {
  return z
    .string({ error: requiredOr("text") })
    .trim()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`);
}

/**
 * The most a text the API serves may take, in bytes of its JSON string
 * (`jsonTextBytes`; plain ASCII without quotes or backslashes: that many
 * characters). Imports refuse longer texts, so the cost estimate's bound on
 * a record (lib/data/records/schemas.ts, RECORD_WIDTHS) holds.
 */
export const SERVED_TEXT_BYTES = {
  accessionNumber: 40,
  formType: 20,
  fileNumber: 40,
  instrumentName: 200,
  /** A split ratio such as "1-for-10". */
  ratio: 20,
  /** The words of an XBRL cross-check: what the text and the tag say, and which was used. */
  xbrlNote: 400,
  underwriter: 200,
  /** A party to an instrument's issue: one of its holders, or its placement agent. */
  partyName: 100,
  deficiency: 100,
  statusUpdateText: 250,
  /** A filing's URL (evidence and EFFECT notices). */
  url: 300,
  /** The filing's words a value was read from: at most 200 characters, and a few more bytes for curly quotes and dashes. */
  quote: 250,
} as const;

/**
 * The API fields of each record kind whose value may carry the quote it was
 * read from (`quotes`: {"field": "quote"}); `include=source` shows them.
 */
export const QUOTED_FIELDS = {
  registrations: [
    "offering_amount",
    "is_resale",
    "is_shelf",
    "atm_agent",
    "atm_commission_percent",
    "deregistered_date",
    "amount_remaining_atm",
    "atm_sold_amount",
    "atm_sold_shares",
    "public_float",
    "baby_shelf_capacity",
    "baby_shelf_sold_12m",
  ],
  offerings: [
    "offering_type",
    "shares",
    "price",
    "amount",
    "warrants_issued",
    "warrant_exercise_price",
    "underwriter",
    "agent_role",
    "prefunded_warrants",
    "prefunded_warrant_price",
    "net_proceeds",
    "fee_percent",
    "overallotment_shares",
    "anticipated_amount",
    "revised_anticipated_amount",
  ],
  dilution_instruments: [
    "shares_underlying",
    "exercise_price",
    "expiration_date",
    "exercisable_date",
    "registered",
    "status",
    "conversion_price",
    "principal_amount",
    "remaining_amount",
    "anti_dilution",
    "holders",
    "placement_agent",
  ],
  instrument_states: ["shares_underlying", "price", "principal_amount", "remaining_amount", "expiration_date", "status"],
  financial_reports: ["going_concern"],
  float_snapshots: ["outstanding"],
  reverse_splits: ["ratio", "effective_date"],
} as const;

/** The most status updates a compliance deficiency holds. */
export const MAX_STATUS_UPDATES = 8;
/** The most holders a dilution instrument names (the first a filing names). */
export const MAX_HOLDERS = 5;

/** Text the API serves: at most `maxBytes` as JSON (see SERVED_TEXT_BYTES). */
function servedText(maxBytes: number) {
  return text(maxBytes).refine(
    (value) => jsonTextBytes(value) <= maxBytes,
    `must be at most ${maxBytes} bytes as JSON text (UTF-8; quotes, backslashes and control characters count as escaped)`,
  );
}

/** A whole number kept exactly: a safe-integer JSON number or a digit string. */
function wholeNumber(unit: string, { min = 0n, max = INT64_MAX }: { min?: bigint; max?: bigint } = {}) {
  const what = `a whole number of ${unit}`;
  return z.union([z.number(), z.string()], { error: requiredOr(what) }).transform((value, ctx) => {
    let n: bigint;
    if (typeof value === "number") {
      if (!Number.isSafeInteger(value)) {
        ctx.addIssue({
          code: "custom",
          message: Number.isInteger(value)
            ? `must be ${what}: ${value} is beyond 2^53, write it as a string of digits`
            : `must be ${what}, got ${value}`,
        });
        return z.NEVER;
      }
      n = BigInt(value);
    } else {
      const s = value.trim();
      if (!/^-?\d+$/.test(s)) {
        ctx.addIssue({ code: "custom", message: `must be ${what} (digits only), got ${JSON.stringify(value)}` });
        return z.NEVER;
      }
      n = BigInt(s);
    }
    if (n < min) {
      ctx.addIssue({ code: "custom", message: min === 0n ? "must not be negative" : `must be at least ${min}` });
      return z.NEVER;
    }
    if (n > max) {
      ctx.addIssue({ code: "custom", message: `must be at most ${max}` });
      return z.NEVER;
    }
    return n;
  });
}

const cents = () => wholeNumber("cents");

/** A price in dollars with at most 6 decimals ("12.34", 12.34) → micro-dollars, exactly. */
function dollarsAsMicros() {
  return z.union([z.number(), z.string()], { error: requiredOr("a price in dollars") }).transform((value, ctx) => {
    const s = String(value).trim().replace(/^\$/, "");
    const m = /^(\d{1,12})(?:\.(\d{1,6}))?$/.exec(s);
    if (!m) {
      ctx.addIssue({ code: "custom", message: `must be a price in dollars with at most 6 decimals, got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return BigInt(m[1]!) * 1_000_000n + BigInt((m[2] ?? "").padEnd(6, "0"));
  });
}
const micros = () => wholeNumber("micro-dollars");
const shares = () => wholeNumber("shares");
const bps = () => wholeNumber("basis points", { max: 10_000n }).transform((n) => Number(n));

const TRUE_WORDS = new Set(["true", "t", "yes", "y", "1"]);
const FALSE_WORDS = new Set(["false", "f", "no", "n", "0"]);
function boolean() {
  return z.union([z.boolean(), z.string(), z.number()], { error: requiredOr("true or false") }).transform((value, ctx) => {
    if (typeof value === "boolean") return value;
    const word = String(value).trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
    ctx.addIssue({ code: "custom", message: `must be true or false, got ${JSON.stringify(value)}` });
    return z.NEVER;
  });
}

/** The years an import's dates may fall in: a date outside them is a typing error, not a filing's. */
const MIN_IMPORT_YEAR = 1900;
const MAX_IMPORT_YEAR = 2199;

/** True when "YYYY-MM-DD" names a real calendar day of the years an import accepts (1900–2199). */
export function isImportDate(value: string): boolean {
  if (!isCalendarDate(value)) return false;
  const year = Number(value.slice(0, 4));
  return year >= MIN_IMPORT_YEAR && year <= MAX_IMPORT_YEAR;
}

function date() {
  return z.string({ error: requiredOr('a date "YYYY-MM-DD"') }).transform((value, ctx) => {
    const s = value.trim();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) {
      ctx.addIssue({ code: "custom", message: `must be a date "YYYY-MM-DD", got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    if (!isImportDate(s)) {
      ctx.addIssue({ code: "custom", message: `is not a real calendar date: ${s}` });
      return z.NEVER;
    }
    return s;
  });
}

/** One of a fixed list of words, matched without regard to case. */
function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  const list = values.join(", ");
  return z.string({ error: requiredOr(`one of ${list}`) }).transform((value, ctx) => {
    const found = values.find((v) => v.toLowerCase() === value.trim().toLowerCase());
    if (found === undefined) {
      ctx.addIssue({ code: "custom", message: `must be one of ${list}, got ${JSON.stringify(value)}` });
      return z.NEVER;
    }
    return found as T[number];
  });
}

export const tickerSchema = z
  .string({ error: requiredOr("a ticker") })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9.-]{1,10}$/, "must be 1–10 characters: letters, digits, '.' or '-'")
  .regex(TICKER_PATTERN, "must contain at least one letter or digit");

const identifier = (max: number) =>
  servedText(max).regex(/^\S+$/, "must not contain spaces");

const statusUpdateSchema = z.strictObject({
  date: date(),
  text: servedText(SERVED_TEXT_BYTES.statusUpdateText),
});

/** A JSON value, or (from CSV, where a cell is text) the JSON text of one. */
function jsonOrItsText<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => {
    if (typeof v !== "string") return v;
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }, schema);
}

/** A JSON array of status updates; sorted oldest first. */
const statusUpdatesSchema = jsonOrItsText(
  z.array(statusUpdateSchema, { error: requiredOr('a JSON array of {"date","text"}') }).max(MAX_STATUS_UPDATES, `must have at most ${MAX_STATUS_UPDATES} entries`),
).transform((updates) => [...updates].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)));

/** Quotes by API field: a JSON object of {"field": "quote"}. */
function quotes(fields: readonly string[]) {
  return optional(
    jsonOrItsText(
      z.partialRecord(z.enum(fields as [string, ...string[]]), servedText(SERVED_TEXT_BYTES.quote), {
        error: requiredOr('a JSON object of {"field": "quote"}'),
      }),
    ),
  );
}

// ───────────────────────────── record schemas ─────────────────────────────

type Refinement = z.core.$RefinementCtx;
function issue(ctx: Refinement, field: string, message: string) {
  ctx.addIssue({ code: "custom", path: [field], message });
}

/** EDGAR's accession number: 0001193125-19-133592. */
const accession = () => text(20).regex(/^\d{10}-\d{2}-\d{6}$/, "must be an accession number like 0001193125-19-133592");

/** The SEC filing a record came from; all optional. */
const evidence = {
  source_accession: optional(accession()),
  source_form: optional(servedText(SERVED_TEXT_BYTES.formType)),
  source_filed_at: optional(date()),
  source_url: optional(servedText(SERVED_TEXT_BYTES.url).regex(/^https:\/\//, "must be an https URL")),
};

export const companySchema = z.strictObject({
  ticker: tickerSchema,
  name: text(200),
  exchange: text(50),
  sector: optional(text(100)),
  is_sample: withDefault(boolean(), false),
  cik: optional(text(10).regex(/^\d{10}$/, "must be 10 digits")),
  sic: optional(text(4).regex(/^\d{3,4}$/, "must be a 3- or 4-digit SIC code")),
  source_url: evidence.source_url,
});

export const financialReportSchema = z
  .strictObject({
    ticker: tickerSchema,
    period_end: date(),
    filed_at: date(),
    // null: a report read from its text alone (going concern), with no cash figure
    cash_cents: optional(cents()),
    quarterly_burn_cents: optional(cents()),
    operating_cash_flow_cents: optional(wholeNumber("cents", { min: -INT64_MAX })),
    debt_cents: optional(cents()),
    reg_sho: optional(boolean()),
    going_concern: optional(boolean()),
    going_concern_accession: optional(accession()),
    quotes: quotes(QUOTED_FIELDS.financial_reports),
    ...evidence,
  })
  .superRefine((r, ctx) => {
    if (r.filed_at < r.period_end) issue(ctx, "filed_at", `must not be before period_end (${r.period_end})`);
    // A report states its cash, or going concern (read from its text alone): one with neither says nothing.
    if (r.cash_cents == null && r.going_concern == null) issue(ctx, "cash_cents", "required unless going_concern is stated");
  });

export const registrationSchema = z
  .strictObject({
    ticker: tickerSchema,
    accession_number: identifier(SERVED_TEXT_BYTES.accessionNumber),
    form_type: servedText(SERVED_TEXT_BYTES.formType),
    file_number: servedText(SERVED_TEXT_BYTES.fileNumber),
    filed_at: date(),
    effective_at: optional(date()),
    expires_at: optional(date()),
    offering_amount_cents: optional(cents()),
    is_atm: withDefault(boolean(), false),
    atm_remaining_cents: optional(cents()),
    over_baby_shelf: optional(boolean()),
    public_float_cents: optional(cents()),
    is_effective: withDefault(boolean(), false),
    effective_accession: optional(accession()),
    effective_filed_at: optional(date()),
    effective_url: evidence.source_url,
    is_resale: withDefault(boolean(), false),
    is_shelf: optional(boolean()),
    atm_agent: optional(servedText(SERVED_TEXT_BYTES.underwriter)),
    atm_commission_bps: optional(bps()),
    deregistered_at: optional(date()),
    atm_remaining_as_of: optional(date()),
    atm_sold_cents: optional(cents()),
    atm_sold_shares: optional(shares()),
    atm_report_accession: optional(accession()),
    atm_report_url: evidence.source_url,
    baby_shelf_capacity_cents: optional(cents()),
    baby_shelf_sold_cents: optional(cents()),
    baby_shelf_as_of: optional(date()),
    quotes: quotes(QUOTED_FIELDS.registrations),
    ...evidence,
  })
  .superRefine((r, ctx) => {
    if (r.deregistered_at !== null && r.deregistered_at < r.filed_at)
      issue(ctx, "deregistered_at", `must not be before filed_at (${r.filed_at})`);
    if (r.effective_at !== null && r.effective_at < r.filed_at)
      issue(ctx, "effective_at", `must not be before filed_at (${r.filed_at})`);
    if (r.expires_at !== null && r.expires_at < r.filed_at)
      issue(ctx, "expires_at", `must not be before filed_at (${r.filed_at})`);
    if (r.is_effective && r.effective_at === null) issue(ctx, "effective_at", "is required when is_effective is true");
    if (r.atm_remaining_cents !== null) {
      if (!r.is_atm) issue(ctx, "atm_remaining_cents", "is only allowed when is_atm is true");
      else if (r.offering_amount_cents !== null && r.atm_remaining_cents > r.offering_amount_cents)
        issue(ctx, "atm_remaining_cents", "must not exceed offering_amount_cents");
    }
  });

export const offeringSchema = z
  .strictObject({
    ticker: tickerSchema,
    accession_number: identifier(SERVED_TEXT_BYTES.accessionNumber),
    offering_date: date(),
    offering_type: oneOf(OFFERING_TYPES),
    form_type: optional(servedText(SERVED_TEXT_BYTES.formType)),
    shares: optional(shares()),
    price_micros: optional(micros()),
    amount_cents: optional(cents()),
    warrants_issued: optional(shares()),
    warrant_price_micros: optional(micros()),
    underwriter: optional(servedText(SERVED_TEXT_BYTES.underwriter)),
    file_number: optional(text(40)),
    status: withDefault(oneOf(OFFERING_STATUSES), "priced"),
    prefunded_warrants: optional(shares()),
    prefunded_price_micros: optional(micros()),
    net_proceeds_cents: optional(cents()),
    fee_bps: optional(bps()),
    agent_role: optional(oneOf(AGENT_ROLES)),
    overallotment_shares: optional(shares()),
    anticipated_amount_cents: optional(cents()),
    revised_amount_cents: optional(cents()),
    withdrawn_at: optional(date()),
    quotes: quotes(QUOTED_FIELDS.offerings),
    ...evidence,
  })
  .superRefine((r, ctx) => {
    if (r.withdrawn_at !== null) {
      if (r.status !== "withdrawn") issue(ctx, "withdrawn_at", "is only allowed when status is withdrawn");
      else if (r.withdrawn_at < r.offering_date) issue(ctx, "withdrawn_at", `must not be before offering_date (${r.offering_date})`);
    }
  });

/** How a figure read from text compares with what the company tags in XBRL as of the same day (lib/data/edgar/xbrl-dilution.ts). */
export const XBRL_VERDICTS = ["agrees", "disagrees", "xbrl_only"] as const;
const xbrlCheckSchema = z.strictObject({
  verdict: oneOf(XBRL_VERDICTS),
  used: oneOf(["text", "xbrl"] as const),
  /** The tagged figure compared (a count, or a price in dollars); null when only a price or only a count was tagged and compared. */
  value: z.number().finite().nullable().default(null),
  accession: optional(accession()),
  note: servedText(SERVED_TEXT_BYTES.xbrlNote),
});
export type XbrlCheck = z.input<typeof xbrlCheckSchema>;

/** The holders a filing names: a JSON array of 1 to MAX_HOLDERS distinct names (from CSV, its JSON text). */
const holdersSchema = jsonOrItsText(
  z
    .array(servedText(SERVED_TEXT_BYTES.partyName), { error: requiredOr('a JSON array of names, e.g. ["Example Capital LP"]') })
    .min(1, "must name at least one holder (leave it empty when none is named)")
    .max(MAX_HOLDERS, `must have at most ${MAX_HOLDERS} names`)
    .refine((names) => new Set(names.map((n) => n.toLowerCase())).size === names.length, "must not name a holder twice"),
);

export const dilutionInstrumentSchema = z
  .strictObject({
    ticker: tickerSchema,
    instrument_type: oneOf(INSTRUMENT_TYPES),
    name: servedText(SERVED_TEXT_BYTES.instrumentName),
    issued_at: date(),
    expires_at: optional(date()),
    shares_underlying: optional(shares()),
    exercise_price_micros: optional(micros()),
    principal_cents: optional(cents()),
    remaining_cents: optional(cents()),
    registered: optional(boolean()),
    pre_funded: withDefault(boolean(), false),
    exercisable_at: optional(date()),
    status: withDefault(oneOf(INSTRUMENT_STATUSES), "outstanding"),
    as_of: optional(date()),
    conversion_price_micros: optional(micros()),
    stated_shares_underlying: optional(shares()),
    stated_price_micros: optional(micros()),
    split_adjustment: optional(text(40).regex(/^1-for-\d{1,9}$/, 'must be a ratio like "1-for-10"')),
    anti_dilution: optional(oneOf(ANTI_DILUTION_KINDS)),
    holders: optional(holdersSchema),
    placement_agent: optional(servedText(SERVED_TEXT_BYTES.partyName)),
    reported_total: withDefault(boolean(), false),
    xbrl_check: optional(jsonOrItsText(xbrlCheckSchema)),
    quotes: quotes(QUOTED_FIELDS.dilution_instruments),
    ...evidence,
  })
  .superRefine((r, ctx) => {
    if (r.expires_at !== null && r.expires_at < r.issued_at)
      issue(ctx, "expires_at", `must not be before issued_at (${r.issued_at})`);
    if (r.remaining_cents !== null && r.principal_cents !== null && r.remaining_cents > r.principal_cents)
      issue(ctx, "remaining_cents", "must not exceed principal_cents");
    if (r.as_of !== null && r.as_of < r.issued_at) issue(ctx, "as_of", `must not be before issued_at (${r.issued_at})`);
  });

/** One state of an instrument as a filing stated it (the ledger's history): figures as stated, the day it became known. */
export const instrumentStateSchema = z
  .strictObject({
    ticker: tickerSchema,
    instrument_type: oneOf(INSTRUMENT_TYPES),
    instrument_name: servedText(SERVED_TEXT_BYTES.instrumentName),
    known_at: date(),
    as_of: date(),
    status: withDefault(oneOf(INSTRUMENT_STATUSES), "outstanding"),
    shares_underlying: optional(shares()),
    price_micros: optional(micros()),
    principal_cents: optional(cents()),
    remaining_cents: optional(cents()),
    expires_at: optional(date()),
    quotes: quotes(QUOTED_FIELDS.instrument_states),
    ...evidence,
  })
  .superRefine((r, ctx) => {
    if (r.known_at < r.as_of) issue(ctx, "known_at", `must not be before as_of (${r.as_of}): a state is known once filed`);
  });

export const complianceDeficiencySchema = z
  .strictObject({
    ticker: tickerSchema,
    deficiency: z.preprocess(
      (v) => (v === null ? undefined : v),
      z
        .string({ error: "must be text" })
        .trim()
        .refine(
          (value) => jsonTextBytes(value) <= SERVED_TEXT_BYTES.deficiency,
          `must be at most ${SERVED_TEXT_BYTES.deficiency} bytes as JSON text (UTF-8; quotes, backslashes and control characters count as escaped)`,
        )
        .default(""),
    ),
    status: oneOf(DEFICIENCY_STATUSES),
    risk: oneOf(RISK_LEVELS),
    notice_date: date(),
    deadline: optional(date()),
    resolved_at: optional(date()),
    status_updates: withDefault(statusUpdatesSchema, []),
    ...evidence,
  })
  .superRefine((r, ctx) => {
    if (r.deadline !== null && r.deadline < r.notice_date)
      issue(ctx, "deadline", `must not be before notice_date (${r.notice_date})`);
    if (r.resolved_at !== null) {
      if (r.status !== "resolved") issue(ctx, "resolved_at", "is only allowed when status is resolved");
      else if (r.resolved_at < r.notice_date) issue(ctx, "resolved_at", `must not be before notice_date (${r.notice_date})`);
    }
  });

export const floatSnapshotSchema = z
  .strictObject({
    ticker: tickerSchema,
    as_of: date(),
    float_shares: optional(shares()),
    outstanding_shares: shares(),
    price_micros: optional(micros()),
    market_cap_cents: optional(cents()),
    insider_ownership_bps: optional(bps()),
    institutional_ownership_bps: optional(bps()),
    public_float_cents: optional(cents()),
    public_float_as_of: optional(date()),
    quotes: quotes(QUOTED_FIELDS.float_snapshots),
    ...evidence,
  })
  .superRefine((r, ctx) => {
    if (r.float_shares !== null && r.float_shares > r.outstanding_shares) issue(ctx, "float_shares", "must not exceed outstanding_shares");
    if ((r.public_float_cents === null) !== (r.public_float_as_of === null))
      issue(ctx, r.public_float_cents === null ? "public_float_cents" : "public_float_as_of", "public_float_cents and public_float_as_of go together");
  });

/** The most shares one new share may stand for (a 1-for-1,000,000 split is not one a filing states). */
const MAX_SPLIT_SHARES = 1_000_000n;

export const reverseSplitSchema = z
  .strictObject({
    ticker: tickerSchema,
    effective_date: date(),
    /** N old shares became new_shares (1 unless stated otherwise): "1-for-N". */
    old_shares: wholeNumber("shares", { min: 2n, max: MAX_SPLIT_SHARES }).transform(Number),
    new_shares: withDefault(wholeNumber("shares", { min: 1n, max: MAX_SPLIT_SHARES }).transform(Number), 1),
    quotes: quotes(QUOTED_FIELDS.reverse_splits),
    ...evidence,
  })
  .superRefine((r, ctx) => {
    if (r.new_shares >= r.old_shares) issue(ctx, "new_shares", "must be less than old_shares: a reverse split leaves fewer shares");
  });

export const dailyPriceSchema = z.strictObject({
  ticker: tickerSchema,
  date: date(),
  close: dollarsAsMicros().refine((micros) => micros > 0n, "must be more than 0"),
});

export const regShoThresholdSchema = z.strictObject({
  ticker: tickerSchema,
  list_date: date(),
});

/** The SQL type of a stored column (json_to_recordset reads the import's rows as these). */
export type ColumnType = "text" | "date" | "bigint" | "integer" | "boolean" | "jsonb";

type Field<S extends z.ZodType> = keyof z.output<S> & string;

interface KindSpec<S extends z.ZodType, P extends "companies" | null> {
  table: string;
  schema: S;
  /** The fields that identify a record: what an import upserts on. A child's ticker is its company_id. */
  key: readonly Field<S>[];
  /** A child kind names its company by `ticker` and stores it as company_id. */
  parent: P;
  /** Every field of the record with its column's SQL type (a child's ticker aside): a field missing here does not compile. */
  columns: Record<Exclude<Field<S>, P extends "companies" ? "ticker" : never>, ColumnType>;
  /** Field → column, where they differ. */
  rename?: Partial<Record<Field<S>, string>>;
}

const kind = <S extends z.ZodType, P extends "companies" | null>(spec: KindSpec<S, P>) => spec;

const EVIDENCE_COLUMNS = { source_accession: "text", source_form: "text", source_filed_at: "date", source_url: "text" } as const;

/**
 * Each record kind, declared once: its table, schema, natural key, parent and
 * columns. The importer's statements, its duplicate check and its removal of
 * filing rows a sync no longer gives are all derived from this table.
 */
export const RECORD_KINDS = {
  companies: kind({
    table: "companies",
    schema: companySchema,
    key: ["ticker"],
    parent: null,
    columns: { ticker: "text", name: "text", exchange: "text", sector: "text", is_sample: "boolean", cik: "text", sic: "text", source_url: "text" },
  }),
  financial_reports: kind({
    table: "financial_reports",
    schema: financialReportSchema,
    key: ["ticker", "period_end"],
    parent: "companies",
    columns: {
      period_end: "date",
      filed_at: "date",
      cash_cents: "bigint",
      quarterly_burn_cents: "bigint",
      operating_cash_flow_cents: "bigint",
      debt_cents: "bigint",
      reg_sho: "boolean",
      going_concern: "boolean",
      going_concern_accession: "text",
      quotes: "jsonb",
      ...EVIDENCE_COLUMNS,
    },
  }),
  registrations: kind({
    table: "registrations",
    schema: registrationSchema,
    key: ["accession_number"],
    parent: "companies",
    columns: {
      accession_number: "text",
      form_type: "text",
      file_number: "text",
      filed_at: "date",
      effective_at: "date",
      expires_at: "date",
      offering_amount_cents: "bigint",
      is_atm: "boolean",
      atm_remaining_cents: "bigint",
      over_baby_shelf: "boolean",
      public_float_cents: "bigint",
      is_effective: "boolean",
      effective_accession: "text",
      effective_filed_at: "date",
      effective_url: "text",
      is_resale: "boolean",
      is_shelf: "boolean",
      atm_agent: "text",
      atm_commission_bps: "integer",
      deregistered_at: "date",
      atm_remaining_as_of: "date",
      atm_sold_cents: "bigint",
      atm_sold_shares: "bigint",
      atm_report_accession: "text",
      atm_report_url: "text",
      baby_shelf_capacity_cents: "bigint",
      baby_shelf_sold_cents: "bigint",
      baby_shelf_as_of: "date",
      quotes: "jsonb",
      ...EVIDENCE_COLUMNS,
    },
  }),
  offerings: kind({
    table: "offerings",
    schema: offeringSchema,
    key: ["accession_number"],
    parent: "companies",
    columns: {
      accession_number: "text",
      offering_date: "date",
      offering_type: "text",
      form_type: "text",
      shares: "bigint",
      price_micros: "bigint",
      amount_cents: "bigint",
      warrants_issued: "bigint",
      warrant_price_micros: "bigint",
      underwriter: "text",
      file_number: "text",
      status: "text",
      prefunded_warrants: "bigint",
      prefunded_price_micros: "bigint",
      net_proceeds_cents: "bigint",
      fee_bps: "integer",
      agent_role: "text",
      overallotment_shares: "bigint",
      anticipated_amount_cents: "bigint",
      revised_amount_cents: "bigint",
      withdrawn_at: "date",
      quotes: "jsonb",
      ...EVIDENCE_COLUMNS,
    },
  }),
  dilution_instruments: kind({
    table: "dilution_instruments",
    schema: dilutionInstrumentSchema,
    key: ["ticker", "instrument_type", "name"],
    parent: "companies",
    columns: {
      instrument_type: "text",
      name: "text",
      issued_at: "date",
      expires_at: "date",
      shares_underlying: "bigint",
      exercise_price_micros: "bigint",
      principal_cents: "bigint",
      remaining_cents: "bigint",
      registered: "boolean",
      pre_funded: "boolean",
      exercisable_at: "date",
      status: "text",
      as_of: "date",
      conversion_price_micros: "bigint",
      stated_shares_underlying: "bigint",
      stated_price_micros: "bigint",
      split_adjustment: "text",
      anti_dilution: "text",
      holders: "jsonb",
      placement_agent: "text",
      reported_total: "boolean",
      xbrl_check: "jsonb",
      quotes: "jsonb",
      ...EVIDENCE_COLUMNS,
    },
  }),
  instrument_states: kind({
    table: "instrument_states",
    schema: instrumentStateSchema,
    key: ["ticker", "instrument_type", "instrument_name", "known_at", "as_of"],
    parent: "companies",
    columns: {
      instrument_type: "text",
      instrument_name: "text",
      known_at: "date",
      as_of: "date",
      status: "text",
      shares_underlying: "bigint",
      price_micros: "bigint",
      principal_cents: "bigint",
      remaining_cents: "bigint",
      expires_at: "date",
      quotes: "jsonb",
      ...EVIDENCE_COLUMNS,
    },
  }),
  compliance_deficiencies: kind({
    table: "compliance_deficiencies",
    schema: complianceDeficiencySchema,
    key: ["ticker", "deficiency", "notice_date"],
    parent: "companies",
    columns: {
      deficiency: "text",
      status: "text",
      risk: "text",
      notice_date: "date",
      deadline: "date",
      resolved_at: "date",
      status_updates: "jsonb",
      ...EVIDENCE_COLUMNS,
    },
  }),
  float_snapshots: kind({
    table: "float_snapshots",
    schema: floatSnapshotSchema,
    key: ["ticker", "as_of"],
    parent: "companies",
    columns: {
      as_of: "date",
      float_shares: "bigint",
      outstanding_shares: "bigint",
      price_micros: "bigint",
      market_cap_cents: "bigint",
      insider_ownership_bps: "integer",
      institutional_ownership_bps: "integer",
      public_float_cents: "bigint",
      public_float_as_of: "date",
      quotes: "jsonb",
      ...EVIDENCE_COLUMNS,
    },
  }),
  reverse_splits: kind({
    table: "reverse_splits",
    schema: reverseSplitSchema,
    key: ["ticker", "effective_date"],
    parent: "companies",
    columns: { effective_date: "date", old_shares: "integer", new_shares: "integer", quotes: "jsonb", ...EVIDENCE_COLUMNS },
  }),
  daily_prices: kind({
    table: "daily_prices",
    schema: dailyPriceSchema,
    key: ["ticker", "date"],
    parent: "companies",
    columns: { date: "date", close: "bigint" },
    rename: { close: "close_micros" },
  }),
  reg_sho_thresholds: kind({
    table: "reg_sho_thresholds",
    schema: regShoThresholdSchema,
    key: ["ticker", "list_date"],
    parent: "companies",
    columns: { list_date: "date" },
  }),
} as const satisfies { [K in ImportKind]: { table: string; schema: z.ZodType } };

/** A record after validation: bigints, normalised text, defaults applied. */
export type ValidRecord<K extends ImportKind> = z.output<(typeof RECORD_KINDS)[K]["schema"]>;

/** Every field name a record of each kind accepts (the CSV columns). */
export const IMPORT_FIELDS: { [K in ImportKind]: readonly string[] } = Object.fromEntries(
  IMPORT_KINDS.map((kind) => [kind, Object.keys(baseShape(RECORD_KINDS[kind].schema))]),
) as unknown as { [K in ImportKind]: readonly string[] };

function baseShape(schema: z.ZodType): Record<string, unknown> {
  // Schemas with cross-field checks are pipes (object → refinement); the
  // object's shape is on the way in.
  const s = schema as unknown as { shape?: Record<string, unknown>; in?: z.ZodType };
  if (s.shape) return s.shape;
  if (s.in) return baseShape(s.in);
  throw new Error("record schema without an object shape");
}

// ───────────────────────────── plain records ─────────────────────────────

/**
 * The records in their canonical JSON form (what the sample generator emits
 * and `scripts/data-generate.ts` writes): numbers are safe integers, absent
 * optional values are `null`. A string of digits is accepted wherever a
 * number is (`Whole`).
 */
export type Whole = number | string;
export type DateString = string;

export interface CompanyRecord {
  ticker: string;
  name: string;
  exchange: string;
  sector?: string | null;
  is_sample?: boolean;
  cik?: string | null;
  sic?: string | null;
  source_url?: string | null;
}

/** The SEC filing a record came from (see the file comment). */
export interface Evidence {
  source_accession?: string | null;
  source_form?: string | null;
  source_filed_at?: DateString | null;
  source_url?: string | null;
}

export interface FinancialReportRecord extends Evidence {
  ticker: string;
  period_end: DateString;
  filed_at: DateString;
  /** null (or absent) for a report read from its text alone: it then states going_concern. */
  cash_cents?: Whole | null;
  /** Net operating cash used per quarter; 0 when the company does not burn cash; null when unknown. */
  quarterly_burn_cents?: Whole | null;
  operating_cash_flow_cents?: Whole | null;
  debt_cents?: Whole | null;
  reg_sho?: boolean | null;
  going_concern?: boolean | null;
  going_concern_accession?: string | null;
  quotes?: Quotes<"financial_reports"> | null;
}

export interface RegistrationRecord extends Evidence {
  ticker: string;
  accession_number: string;
  form_type: string;
  file_number: string;
  filed_at: DateString;
  effective_at?: DateString | null;
  expires_at?: DateString | null;
  offering_amount_cents?: Whole | null;
  is_atm?: boolean;
  atm_remaining_cents?: Whole | null;
  over_baby_shelf?: boolean | null;
  public_float_cents?: Whole | null;
  is_effective?: boolean;
  effective_accession?: string | null;
  effective_filed_at?: DateString | null;
  effective_url?: string | null;
  is_resale?: boolean;
  is_shelf?: boolean | null;
  atm_agent?: string | null;
  atm_commission_bps?: number | null;
  deregistered_at?: DateString | null;
  atm_remaining_as_of?: DateString | null;
  atm_sold_cents?: Whole | null;
  atm_sold_shares?: Whole | null;
  atm_report_accession?: string | null;
  atm_report_url?: string | null;
  baby_shelf_capacity_cents?: Whole | null;
  baby_shelf_sold_cents?: Whole | null;
  baby_shelf_as_of?: DateString | null;
  quotes?: Quotes<"registrations"> | null;
}

/** The quote each value was read from, by API field. */
export type Quotes<K extends keyof typeof QUOTED_FIELDS> = Partial<Record<(typeof QUOTED_FIELDS)[K][number], string>>;

export interface OfferingRecord extends Evidence {
  ticker: string;
  accession_number: string;
  offering_date: DateString;
  offering_type: OfferingType;
  form_type?: string | null;
  shares?: Whole | null;
  price_micros?: Whole | null;
  amount_cents?: Whole | null;
  warrants_issued?: Whole | null;
  warrant_price_micros?: Whole | null;
  underwriter?: string | null;
  file_number?: string | null;
  status?: (typeof OFFERING_STATUSES)[number];
  prefunded_warrants?: Whole | null;
  prefunded_price_micros?: Whole | null;
  net_proceeds_cents?: Whole | null;
  fee_bps?: number | null;
  agent_role?: (typeof AGENT_ROLES)[number] | null;
  overallotment_shares?: Whole | null;
  anticipated_amount_cents?: Whole | null;
  revised_amount_cents?: Whole | null;
  withdrawn_at?: DateString | null;
  quotes?: Quotes<"offerings"> | null;
}

export interface DilutionInstrumentRecord extends Evidence {
  ticker: string;
  instrument_type: InstrumentType;
  name: string;
  issued_at: DateString;
  expires_at?: DateString | null;
  shares_underlying: Whole | null;
  exercise_price_micros?: Whole | null;
  principal_cents?: Whole | null;
  remaining_cents?: Whole | null;
  registered?: boolean | null;
  pre_funded?: boolean;
  exercisable_at?: DateString | null;
  status?: InstrumentStatus;
  as_of?: DateString | null;
  conversion_price_micros?: Whole | null;
  stated_shares_underlying?: Whole | null;
  stated_price_micros?: Whole | null;
  split_adjustment?: string | null;
  anti_dilution?: (typeof ANTI_DILUTION_KINDS)[number] | null;
  /** At most MAX_HOLDERS names, each at most SERVED_TEXT_BYTES.partyName. */
  holders?: string[] | null;
  placement_agent?: string | null;
  reported_total?: boolean;
  xbrl_check?: XbrlCheck | null;
  quotes?: Quotes<"dilution_instruments"> | null;
}

export interface InstrumentStateRecord extends Evidence {
  ticker: string;
  instrument_type: InstrumentType;
  instrument_name: string;
  known_at: DateString;
  as_of: DateString;
  status?: InstrumentStatus;
  shares_underlying?: Whole | null;
  price_micros?: Whole | null;
  principal_cents?: Whole | null;
  remaining_cents?: Whole | null;
  expires_at?: DateString | null;
  quotes?: Quotes<"instrument_states"> | null;
}

export interface StatusUpdate {
  date: DateString;
  text: string;
}

export interface ComplianceDeficiencyRecord extends Evidence {
  ticker: string;
  deficiency?: string;
  status: "active" | "resolved";
  risk: RiskLevel;
  notice_date: DateString;
  deadline?: DateString | null;
  resolved_at?: DateString | null;
  status_updates?: StatusUpdate[];
}

export interface FloatSnapshotRecord extends Evidence {
  ticker: string;
  as_of: DateString;
  float_shares?: Whole | null;
  outstanding_shares: Whole;
  price_micros?: Whole | null;
  market_cap_cents?: Whole | null;
  insider_ownership_bps?: number | null;
  institutional_ownership_bps?: number | null;
  public_float_cents?: Whole | null;
  public_float_as_of?: DateString | null;
  quotes?: Quotes<"float_snapshots"> | null;
}

export interface ReverseSplitRecord extends Evidence {
  ticker: string;
  effective_date: DateString;
  old_shares: Whole;
  new_shares?: Whole;
  quotes?: Quotes<"reverse_splits"> | null;
}

export interface DailyPriceRecord {
  ticker: string;
  date: DateString;
  /** Dollars, at most 6 decimals. */
  close: string | number;
}

export interface RegShoThresholdRecord {
  ticker: string;
  list_date: DateString;
}

export interface Dataset {
  companies: CompanyRecord[];
  financial_reports: FinancialReportRecord[];
  registrations: RegistrationRecord[];
  offerings: OfferingRecord[];
  dilution_instruments: DilutionInstrumentRecord[];
  instrument_states: InstrumentStateRecord[];
  compliance_deficiencies: ComplianceDeficiencyRecord[];
  float_snapshots: FloatSnapshotRecord[];
  reverse_splits: ReverseSplitRecord[];
  daily_prices: DailyPriceRecord[];
  reg_sho_thresholds: RegShoThresholdRecord[];
}

/** What an import accepts: any subset of kinds, records not yet validated. */
export type ImportInput = { readonly [K in ImportKind]?: readonly unknown[] };

export function emptyDataset(): Dataset {
  return {
    companies: [],
    financial_reports: [],
    registrations: [],
    offerings: [],
    dilution_instruments: [],
    instrument_states: [],
    compliance_deficiencies: [],
    float_snapshots: [],
    reverse_splits: [],
    daily_prices: [],
    reg_sho_thresholds: [],
  };
}

// The plain record types must be accepted by the schemas.
type Accepts<K extends ImportKind, R> = R extends z.input<(typeof RECORD_KINDS)[K]["schema"]> ? true : never;
const _typesAgree: [
  Accepts<"companies", CompanyRecord>,
  Accepts<"financial_reports", FinancialReportRecord>,
  Accepts<"registrations", RegistrationRecord>,
  Accepts<"offerings", OfferingRecord>,
  Accepts<"dilution_instruments", DilutionInstrumentRecord>,
  Accepts<"instrument_states", InstrumentStateRecord>,
  Accepts<"compliance_deficiencies", ComplianceDeficiencyRecord>,
  Accepts<"float_snapshots", FloatSnapshotRecord>,
  Accepts<"reverse_splits", ReverseSplitRecord>,
  Accepts<"daily_prices", DailyPriceRecord>,
  Accepts<"reg_sho_thresholds", RegShoThresholdRecord>,
] = [true, true, true, true, true, true, true, true, true, true, true];
void _typesAgree;
