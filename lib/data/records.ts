/**
 * The records of the data endpoints: for each endpoint of the catalog, the
 * page query and the serializer the API pipeline calls.
 *
 * - One query per page (the dilution rating adds the rating-input loader for
 *   the companies of that page only). Queries filter on company_id and order
 *   on the (company_id, date) indexes.
 * - Ordering is total and stable (date desc, ticker, id), so walking the
 *   pages returns every record exactly once. Each source returns at most
 *   `limit + 1` records: the caller tells `has_more` from the extra one.
 * - Records are plain JSON: `ticker` first, snake_case names, money and
 *   prices in dollars (numbers), ownership in percent, dates "YYYY-MM-DD".
 *   A value the filings do not state is null (never 0).
 * - With `includeSource`, each record ends with `source`: the SEC filing it
 *   came from, or a note that it is sample or imported data; a rating lists
 *   every filing its inputs came from in `sources`.
 */
import type { EndpointName } from "@/lib/catalog";
import type { Prisma, PrismaClient } from "@/lib/db";
import { INSTRUMENT_RATING_COLUMNS, loadRatingInputs, REGISTRATION_RATING_COLUMNS } from "./rating-inputs";
import { computeDilutionRating, ratingSources } from "@/lib/ratings/engine";
import type { DilutionRating } from "@/lib/ratings/types";
import { ACCESSION_LENGTH, IMPORTED_SOURCE, SAMPLE_SOURCE, SOURCE_COLUMNS, sourceJson, sourceRef, type SourceColumns, type SourceJson } from "./evidence";
import {
  BABY_SHELF_FORM_PATTERN,
  BABY_SHELF_FRACTION_DENOMINATOR,
  BABY_SHELF_FRACTION_NUMERATOR,
  BABY_SHELF_PUBLIC_FLOAT_LIMIT_CENTS,
} from "@/lib/ratings/thresholds";
import { bpsToPercent, centsToDollars, clampText, countToNumber, isoDate, jsonTextBytes, microsToDollars, utcDayStart } from "./units";
import {
  DEFICIENCY_STATUSES,
  INSTRUMENT_TYPES,
  MAX_STATUS_UPDATES,
  MAX_TICKER_LENGTH,
  OFFERING_TYPES,
  RISK_LEVELS,
  SERVED_TEXT_BYTES,
} from "./import-schema";

export interface ResolvedCompany {
  id: string;
  ticker: string;
  isSample: boolean;
}

export interface RecordQuery {
  /** Already resolved from the requested tickers (unknown tickers are simply absent). */
  companies: ResolvedCompany[];
  /** (page - 1) * limit */
  offset: number;
  /** Page size; a source returns at most limit + 1 records so the caller can tell has_more. */
  limit: number;
  /** Inclusive, UTC midnight; only for endpoints with supportsDateRange. */
  dateFrom?: Date;
  /** Inclusive, UTC midnight. */
  dateTo?: Date;
  /** Registrations only: effective and not expired at asOf. */
  effectiveOnly?: boolean;
  /** "Now" for computed values (ratings, expired shelves). */
  asOf: Date;
  /** `include=source`: add each record's evidence. */
  includeSource?: boolean;
}

export type JsonRecord = Record<
  string,
  string | number | boolean | null | JsonRecord[] | Record<string, unknown> | SourceJson[]
>;

export type RecordSource = (prisma: PrismaClient, q: RecordQuery) => Promise<JsonRecord[]>;

// ───────────────────────────── record shapes ─────────────────────────────
// Type aliases (not interfaces) so they are assignable to JsonRecord.

/** /v1/registrations */
export type RegistrationRecord = {
  ticker: string;
  accession_number: string;
  form_type: string;
  file_number: string;
  filed_date: string;
  effective_date: string | null;
  expiration_date: string | null;
  is_effective: boolean;
  is_expired: boolean;
  is_atm: boolean;
  /** null when the filings do not state it (an automatic shelf has no registered maximum). */
  offering_amount: number | null;
  amount_remaining_atm: number | null;
  /** null when the public float is unknown. */
  over_baby_shelf: boolean | null;
  public_float: number | null;
  baby_shelf_capacity: number | null;
};

/** /v1/nasdaq-compliance */
export type ComplianceRecord = {
  ticker: string;
  deficiency: string;
  status: string;
  risk_level: string;
  notice_date: string;
  deadline: string | null;
  resolved_date: string | null;
  status_updates: { date: string; text: string }[];
};

/** /v1/float-outstanding (market_cap_final is absent when unknown) */
export type FloatRecord = {
  ticker: string;
  as_of: string;
  /** null when unknown (EDGAR states the public float in dollars; shares need a price). */
  float: number | null;
  outstanding: number;
  price: number | null;
  market_cap_final?: number;
  insider_ownership_pct: number | null;
  institutional_ownership_pct: number | null;
};

/** /v1/dilution-data */
export type DilutionDataRecord = {
  ticker: string;
  instrument_type: string;
  name: string;
  issued_date: string;
  expiration_date: string | null;
  shares_underlying: number;
  exercise_price: number | null;
  principal_amount: number | null;
  remaining_amount: number | null;
};

/** /v1/offerings */
export type OfferingRecord = {
  ticker: string;
  offering_date: string;
  offering_type: string;
  form_type: string | null;
  shares: number | null;
  price: number | null;
  /** null when the filing does not state it. */
  amount: number | null;
  warrants_issued: number | null;
  warrant_exercise_price: number | null;
  underwriter: string | null;
  accession_number: string;
};

// ───────────────────────────── field names ─────────────────────────────

/**
 * The names of T's fields, each in the order its serializer writes them: a
 * list that misses one or names one T does not have does not compile.
 * (Order and duplicates are checked against real records by records.db.test.ts.)
 */
function fieldNames<T>() {
  return <const L extends readonly (keyof T & string)[]>(
    names: L & ([Exclude<keyof T, L[number]>] extends [never] ? unknown : { missing: Exclude<keyof T, L[number]> }),
  ): L => names;
}

/** Each endpoint's record fields, in record order (the evidence field aside): what `fields=` may name. */
export const RECORD_FIELDS = {
  "dilution-rating": fieldNames<DilutionRating>()([
    "ticker",
    "offering_ability",
    "offering_ability_desc",
    "dilution",
    "dilution_desc",
    "offering_frequency",
    "offering_frequency_desc",
    "cash_need",
    "cash_need_desc",
    "nasdaq_compliance",
    "nasdaq_compliance_desc",
    "overall_offering_risk",
    "regsho",
    "estimated_cash",
    "cash_burn",
    "cash_remaining_months",
  ]),
  "dilution-data": fieldNames<DilutionDataRecord>()([
    "ticker",
    "instrument_type",
    "name",
    "issued_date",
    "expiration_date",
    "shares_underlying",
    "exercise_price",
    "principal_amount",
    "remaining_amount",
  ]),
  registrations: fieldNames<RegistrationRecord>()([
    "ticker",
    "accession_number",
    "form_type",
    "file_number",
    "filed_date",
    "effective_date",
    "expiration_date",
    "is_effective",
    "is_expired",
    "is_atm",
    "offering_amount",
    "amount_remaining_atm",
    "over_baby_shelf",
    "public_float",
    "baby_shelf_capacity",
  ]),
  "nasdaq-compliance": fieldNames<ComplianceRecord>()([
    "ticker",
    "deficiency",
    "status",
    "risk_level",
    "notice_date",
    "deadline",
    "resolved_date",
    "status_updates",
  ]),
  "float-outstanding": fieldNames<FloatRecord>()([
    "ticker",
    "as_of",
    "float",
    "outstanding",
    "price",
    "market_cap_final",
    "insider_ownership_pct",
    "institutional_ownership_pct",
  ]),
  offerings: fieldNames<OfferingRecord>()([
    "ticker",
    "offering_date",
    "offering_type",
    "form_type",
    "shares",
    "price",
    "amount",
    "warrants_issued",
    "warrant_exercise_price",
    "underwriter",
    "accession_number",
  ]),
} as const satisfies Record<EndpointName, readonly string[]>;

/** The field `includeSource` appends to each record: a rating lists every filing, other records name one. */
export const EVIDENCE_FIELDS = {
  "dilution-rating": "sources",
  "dilution-data": "source",
  registrations: "source",
  "nasdaq-compliance": "source",
  "float-outstanding": "source",
  offerings: "source",
} as const satisfies Record<EndpointName, "source" | "sources">;

// ───────────────────────────── widths ─────────────────────────────
//
// What /estimate prices: the most bytes each field's value can take in the
// JSON the API sends, whatever the record holds. An estimate built from these
// and the record count is an upper bound of the bill that says nothing about
// the values (a rating of "Low" and one of "Medium" are estimated alike).
//
// - Enumerations: the longest member. Dates: "YYYY-MM-DD". Booleans: false.
// - Numbers from stored whole numbers (bigint columns of at most 2^63 − 1,
//   never negative on import): shares at most 19 digits; dollars from cents
//   or micro-dollars at most 17 significant digits and a point; percents from
//   basis points (0–10,000) at most "99.99". A computed number (estimated
//   cash, burn, months) is bounded by the widest finite JSON number,
//   "-0.0000012345678901234567" (25 bytes). records.test.ts checks each
//   bound over its whole range.
// - Free text: its documented maximum in bytes of JSON text (SERVED_TEXT_BYTES
//   in import-schema.ts, which imports enforce), and the serializers below
//   cut anything longer that an older import let in (`clampText`). A rating's
//   *_desc is at most MAX_RATING_DESC_BYTES, and its `sources` lists at most
//   MAX_RATING_SOURCES filings.

/** The longest a rating's *_desc text may be, in bytes of JSON text; a longer one is cut and ends with "…". */
export const MAX_RATING_DESC_BYTES = 400;
/** The most filings a rating's `sources` lists (the latest). */
export const MAX_RATING_SOURCES = 10;

const quoted = (bytes: number) => bytes + 2;
const longestOf = (values: readonly string[]) => quoted(Math.max(...values.map(jsonTextBytes)));
const orNull = (bytes: number) => Math.max(bytes, "null".length);
/** The width of a JSON object with fields of these widths. */
const objectWidth = (fields: Record<string, number>) => {
  const entries = Object.entries(fields);
  return 2 + entries.reduce((sum, [name, width]) => sum + quoted(jsonTextBytes(name)) + 1 + width, 0) + Math.max(0, entries.length - 1);
};
/** The width of a JSON array of at most `count` items of `item` bytes each. */
const arrayWidth = (count: number, item: number) => 2 + count * item + Math.max(0, count - 1);

/** Widths of value kinds, in bytes of JSON. */
export const VALUE_WIDTHS = {
  /** Upper-case letters, digits, "." and "-": the request names the ticker, so its own length may be used instead. */
  ticker: quoted(MAX_TICKER_LENGTH),
  date: quoted("YYYY-MM-DD".length),
  boolean: "false".length,
  /** A whole count from a bigint column of at most 2^63 − 1 (shares). */
  count: 19,
  /** Dollars from bigint cents or micro-dollars of at most 2^63 − 1. */
  dollars: 18,
  /** Percent from 0–10,000 basis points. */
  percent: 5,
  /** Any finite JSON number. */
  anyNumber: 25,
  rating: longestOf(RISK_LEVELS),
  ratingDesc: quoted(MAX_RATING_DESC_BYTES),
} as const;

const W = VALUE_WIDTHS;
const text = (key: keyof typeof SERVED_TEXT_BYTES) => quoted(SERVED_TEXT_BYTES[key]);

const SEC_FILING_WIDTH = objectWidth({
  type: longestOf(["sec_filing"]),
  accession_number: quoted(ACCESSION_LENGTH),
  form: text("formType"),
  filed_date: W.date,
  url: text("url"),
});
/** One `source`: a filing, or the note of sample or imported data. */
const jsonBytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).byteLength;
const SOURCE_WIDTH = Math.max(SEC_FILING_WIDTH, jsonBytes(SAMPLE_SOURCE), jsonBytes(IMPORTED_SOURCE));

const STATUS_UPDATE_WIDTH = objectWidth({ date: W.date, text: text("statusUpdateText") });

/** The widest each record field can be (see the section comment), in the record's field order. */
export const RECORD_WIDTHS = {
  "dilution-rating": {
    ticker: W.ticker,
    offering_ability: W.rating,
    offering_ability_desc: W.ratingDesc,
    dilution: W.rating,
    dilution_desc: W.ratingDesc,
    offering_frequency: W.rating,
    offering_frequency_desc: W.ratingDesc,
    cash_need: W.rating,
    cash_need_desc: W.ratingDesc,
    nasdaq_compliance: W.rating,
    nasdaq_compliance_desc: W.ratingDesc,
    overall_offering_risk: W.rating,
    regsho: orNull(W.boolean),
    estimated_cash: orNull(W.anyNumber),
    cash_burn: orNull(W.anyNumber),
    cash_remaining_months: orNull(W.anyNumber),
  },
  "dilution-data": {
    ticker: W.ticker,
    instrument_type: longestOf(INSTRUMENT_TYPES),
    name: text("instrumentName"),
    issued_date: W.date,
    expiration_date: orNull(W.date),
    shares_underlying: W.count,
    exercise_price: orNull(W.dollars),
    principal_amount: orNull(W.dollars),
    remaining_amount: orNull(W.dollars),
  },
  registrations: {
    ticker: W.ticker,
    accession_number: text("accessionNumber"),
    form_type: text("formType"),
    file_number: text("fileNumber"),
    filed_date: W.date,
    effective_date: orNull(W.date),
    expiration_date: orNull(W.date),
    is_effective: W.boolean,
    is_expired: W.boolean,
    is_atm: W.boolean,
    offering_amount: orNull(W.dollars),
    amount_remaining_atm: orNull(W.dollars),
    over_baby_shelf: orNull(W.boolean),
    public_float: orNull(W.dollars),
    baby_shelf_capacity: orNull(W.dollars),
  },
  "nasdaq-compliance": {
    ticker: W.ticker,
    deficiency: text("deficiency"),
    status: longestOf(DEFICIENCY_STATUSES),
    risk_level: longestOf(RISK_LEVELS),
    notice_date: W.date,
    deadline: orNull(W.date),
    resolved_date: orNull(W.date),
    status_updates: arrayWidth(MAX_STATUS_UPDATES, STATUS_UPDATE_WIDTH),
  },
  "float-outstanding": {
    ticker: W.ticker,
    as_of: W.date,
    float: orNull(W.count),
    outstanding: W.count,
    price: orNull(W.dollars),
    market_cap_final: W.dollars,
    insider_ownership_pct: orNull(W.percent),
    institutional_ownership_pct: orNull(W.percent),
  },
  offerings: {
    ticker: W.ticker,
    offering_date: W.date,
    offering_type: longestOf(OFFERING_TYPES),
    form_type: orNull(text("formType")),
    shares: orNull(W.count),
    price: orNull(W.dollars),
    amount: orNull(W.dollars),
    warrants_issued: orNull(W.count),
    warrant_exercise_price: orNull(W.dollars),
    underwriter: orNull(text("underwriter")),
    accession_number: text("accessionNumber"),
  },
} as const satisfies { [E in EndpointName]: Record<(typeof RECORD_FIELDS)[E][number], number> };

/** The widest `include=source` evidence of each endpoint's records. */
export const EVIDENCE_WIDTHS = {
  "dilution-rating": arrayWidth(MAX_RATING_SOURCES, SOURCE_WIDTH),
  "dilution-data": SOURCE_WIDTH,
  registrations: SOURCE_WIDTH,
  "nasdaq-compliance": SOURCE_WIDTH,
  "float-outstanding": SOURCE_WIDTH,
  offerings: SOURCE_WIDTH,
} as const satisfies Record<EndpointName, number>;

/**
 * The most bytes one record of this endpoint can take as JSON: these fields
 * (the record's own names, the evidence field among them), or every field
 * (and the evidence with `includeSource`). `tickerLength`: the longest
 * ticker the records can carry, when the request names them.
 */
export function maxRecordBytes(
  endpoint: EndpointName,
  options: { fields?: readonly string[]; includeSource?: boolean; tickerLength?: number },
): number {
  const widths: Record<string, number> = {
    ...RECORD_WIDTHS[endpoint],
    ...(options.tickerLength !== undefined ? { ticker: quoted(Math.min(options.tickerLength, MAX_TICKER_LENGTH)) } : {}),
    [EVIDENCE_FIELDS[endpoint]]: EVIDENCE_WIDTHS[endpoint],
  };
  const names = options.fields ?? [...RECORD_FIELDS[endpoint], ...(options.includeSource ? [EVIDENCE_FIELDS[endpoint]] : [])];
  return objectWidth(Object.fromEntries(names.map((name) => [name, widths[name] ?? 0])));
}

// ───────────────────────────── helpers ─────────────────────────────

function checkPage(q: RecordQuery): void {
  if (!Number.isSafeInteger(q.offset) || q.offset < 0) throw new RangeError(`offset must be a whole number ≥ 0, got ${q.offset}`);
  if (!Number.isSafeInteger(q.limit) || q.limit < 1) throw new RangeError(`limit must be a whole number ≥ 1, got ${q.limit}`);
}

function companyMap(q: RecordQuery): Map<string, ResolvedCompany> {
  return new Map(q.companies.map((c) => [c.id, c]));
}

function companyOf(companies: Map<string, ResolvedCompany>, companyId: string): ResolvedCompany {
  const company = companies.get(companyId);
  if (company === undefined) throw new Error(`record of company ${companyId} outside the query`);
  return company;
}

/** A serialized record, with its evidence at the end when the query asks for it. */
function withSource<T extends object>(record: T, row: SourceColumns, company: ResolvedCompany, q: RecordQuery): JsonRecord {
  const json = record as unknown as JsonRecord;
  return q.includeSource ? { ...json, source: sourceJson(sourceRef(row), company.isSample) } : json;
}

/** Inclusive date filter, or undefined when the query has no range. */
function dateRange(q: RecordQuery): Prisma.DateTimeFilter | undefined {
  if (!q.dateFrom && !q.dateTo) return undefined;
  return {
    ...(q.dateFrom ? { gte: utcDayStart(q.dateFrom) } : {}),
    ...(q.dateTo ? { lte: utcDayStart(q.dateTo) } : {}),
  };
}

function pageArgs(q: RecordQuery) {
  return { skip: q.offset, take: q.limit + 1 };
}

/**
 * A registration has expired at asOf when its expiration date is on or
 * before the UTC day of asOf (the day it expires it can no longer be used),
 * the same rule as the ratings engine.
 */
function isExpiredAt(expiresAt: Date | null, asOf: Date): boolean {
  return expiresAt !== null && expiresAt.getTime() <= utcDayStart(asOf).getTime();
}

/**
 * ⅓ of the public float value (at filing) when the baby-shelf rule caps the
 * registration: an S-3/F-3 shelf or an ATM program of a company whose public
 * float is under $75M. Null when the cap does not apply or cannot be known.
 */
export function babyShelfCapacityCents(r: {
  formType: string;
  isAtm: boolean;
  overBabyShelf: boolean | null;
  publicFloatCents: bigint | null;
}): bigint | null {
  if (!r.isAtm && !BABY_SHELF_FORM_PATTERN.test(r.formType.trim())) return null;
  if (r.overBabyShelf || r.publicFloatCents === null) return null;
  if (r.publicFloatCents >= BABY_SHELF_PUBLIC_FLOAT_LIMIT_CENTS) return null;
  const floatCents = r.publicFloatCents < 0n ? 0n : r.publicFloatCents;
  return (floatCents * BABY_SHELF_FRACTION_NUMERATOR) / BABY_SHELF_FRACTION_DENOMINATOR;
}

/** status_updates as stored (JSON) → [{date, text}], dropping malformed entries, within their maxima. */
function statusUpdates(value: Prisma.JsonValue): { date: string; text: string }[] {
  if (!Array.isArray(value)) return [];
  const updates: { date: string; text: string }[] = [];
  for (const item of value) {
    if (item === null || typeof item !== "object" || Array.isArray(item)) continue;
    const { date, text } = item as Record<string, unknown>;
    if (typeof date !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(date) || typeof text !== "string") continue;
    updates.push({ date, text: clampText(text, SERVED_TEXT_BYTES.statusUpdateText) });
  }
  // Oldest first, as imported: the latest are kept.
  return updates.slice(-MAX_STATUS_UPDATES);
}

// ───────────────────────────── registrations ─────────────────────────────

const registrationSelect = {
  ...REGISTRATION_RATING_COLUMNS,
  id: true,
  accessionNumber: true,
} satisfies Prisma.RegistrationSelect;

export function serializeRegistration(
  ticker: string,
  r: Prisma.RegistrationGetPayload<{ select: typeof registrationSelect }>,
  asOf: Date,
): RegistrationRecord {
  const capacity = babyShelfCapacityCents(r);
  return {
    ticker,
    accession_number: clampText(r.accessionNumber, SERVED_TEXT_BYTES.accessionNumber),
    form_type: clampText(r.formType, SERVED_TEXT_BYTES.formType),
    file_number: clampText(r.fileNumber, SERVED_TEXT_BYTES.fileNumber),
    filed_date: isoDate(r.filedAt),
    effective_date: isoDate(r.effectiveAt),
    expiration_date: isoDate(r.expiresAt),
    is_effective: r.isEffective,
    is_expired: isExpiredAt(r.expiresAt, asOf),
    is_atm: r.isAtm,
    offering_amount: centsToDollars(r.offeringAmountCents),
    amount_remaining_atm: r.isAtm ? centsToDollars(r.atmRemainingCents) : null,
    over_baby_shelf: r.overBabyShelf,
    public_float: centsToDollars(r.publicFloatCents),
    baby_shelf_capacity: centsToDollars(capacity),
  };
}

async function registrations(prisma: PrismaClient, q: RecordQuery): Promise<JsonRecord[]> {
  checkPage(q);
  if (q.companies.length === 0) return [];
  const companies = companyMap(q);
  const where: Prisma.RegistrationWhereInput = {
    companyId: { in: [...companies.keys()] },
    filedAt: dateRange(q),
  };
  if (q.effectiveOnly) {
    const day = utcDayStart(q.asOf);
    where.isEffective = true;
    where.AND = [
      { OR: [{ effectiveAt: null }, { effectiveAt: { lte: day } }] },
      { OR: [{ expiresAt: null }, { expiresAt: { gt: day } }] },
    ];
  }
  const rows = await prisma.registration.findMany({
    select: registrationSelect,
    where,
    orderBy: [{ filedAt: "desc" }, { company: { ticker: "asc" } }, { id: "asc" }],
    ...pageArgs(q),
  });
  return rows.map((r) => {
    const company = companyOf(companies, r.companyId);
    return withSource(serializeRegistration(company.ticker, r, q.asOf), r, company, q);
  });
}

// ───────────────────────────── nasdaq-compliance ─────────────────────────────

const deficiencySelect = {
  id: true,
  companyId: true,
  deficiency: true,
  status: true,
  risk: true,
  noticeDate: true,
  deadline: true,
  resolvedAt: true,
  statusUpdates: true,
  ...SOURCE_COLUMNS,
} satisfies Prisma.ComplianceDeficiencySelect;

export function serializeDeficiency(
  ticker: string,
  d: Prisma.ComplianceDeficiencyGetPayload<{ select: typeof deficiencySelect }>,
): ComplianceRecord {
  return {
    ticker,
    deficiency: clampText(d.deficiency, SERVED_TEXT_BYTES.deficiency),
    status: d.status,
    risk_level: d.risk,
    notice_date: isoDate(d.noticeDate),
    deadline: isoDate(d.deadline),
    resolved_date: isoDate(d.resolvedAt),
    status_updates: statusUpdates(d.statusUpdates),
  };
}

async function nasdaqCompliance(prisma: PrismaClient, q: RecordQuery): Promise<JsonRecord[]> {
  checkPage(q);
  if (q.companies.length === 0) return [];
  const companies = companyMap(q);
  const rows = await prisma.complianceDeficiency.findMany({
    select: deficiencySelect,
    where: { companyId: { in: [...companies.keys()] }, noticeDate: dateRange(q) },
    orderBy: [{ noticeDate: "desc" }, { company: { ticker: "asc" } }, { id: "asc" }],
    ...pageArgs(q),
  });
  return rows.map((d) => {
    const company = companyOf(companies, d.companyId);
    return withSource(serializeDeficiency(company.ticker, d), d, company, q);
  });
}

// ───────────────────────────── float-outstanding ─────────────────────────────

const floatSelect = {
  id: true,
  companyId: true,
  asOf: true,
  floatShares: true,
  outstandingShares: true,
  priceMicros: true,
  marketCapCents: true,
  insiderOwnershipBps: true,
  institutionalOwnershipBps: true,
  ...SOURCE_COLUMNS,
} satisfies Prisma.FloatSnapshotSelect;

export function serializeFloat(
  ticker: string,
  f: Prisma.FloatSnapshotGetPayload<{ select: typeof floatSelect }>,
): FloatRecord {
  return {
    ticker,
    as_of: isoDate(f.asOf),
    float: countToNumber(f.floatShares),
    outstanding: countToNumber(f.outstandingShares),
    price: microsToDollars(f.priceMicros),
    ...(f.marketCapCents !== null ? { market_cap_final: centsToDollars(f.marketCapCents) } : {}),
    insider_ownership_pct: bpsToPercent(f.insiderOwnershipBps),
    institutional_ownership_pct: bpsToPercent(f.institutionalOwnershipBps),
  };
}

async function floatOutstanding(prisma: PrismaClient, q: RecordQuery): Promise<JsonRecord[]> {
  checkPage(q);
  if (q.companies.length === 0) return [];
  const companies = companyMap(q);
  const rows = await prisma.floatSnapshot.findMany({
    select: floatSelect,
    where: { companyId: { in: [...companies.keys()] } },
    orderBy: [{ asOf: "desc" }, { company: { ticker: "asc" } }, { id: "asc" }],
    ...pageArgs(q),
  });
  return rows.map((f) => {
    const company = companyOf(companies, f.companyId);
    return withSource(serializeFloat(company.ticker, f), f, company, q);
  });
}

// ───────────────────────────── dilution-data ─────────────────────────────

const instrumentSelect = {
  ...INSTRUMENT_RATING_COLUMNS,
  id: true,
  principalCents: true,
} satisfies Prisma.DilutionInstrumentSelect;

export function serializeInstrument(
  ticker: string,
  i: Prisma.DilutionInstrumentGetPayload<{ select: typeof instrumentSelect }>,
): DilutionDataRecord {
  return {
    ticker,
    instrument_type: i.instrumentType,
    name: clampText(i.name, SERVED_TEXT_BYTES.instrumentName),
    issued_date: isoDate(i.issuedAt),
    expiration_date: isoDate(i.expiresAt),
    shares_underlying: countToNumber(i.sharesUnderlying),
    exercise_price: microsToDollars(i.exercisePriceMicros),
    principal_amount: centsToDollars(i.principalCents),
    remaining_amount: centsToDollars(i.remainingCents),
  };
}

async function dilutionData(prisma: PrismaClient, q: RecordQuery): Promise<JsonRecord[]> {
  checkPage(q);
  if (q.companies.length === 0) return [];
  const companies = companyMap(q);
  const rows = await prisma.dilutionInstrument.findMany({
    select: instrumentSelect,
    where: { companyId: { in: [...companies.keys()] } },
    orderBy: [{ issuedAt: "desc" }, { company: { ticker: "asc" } }, { id: "asc" }],
    ...pageArgs(q),
  });
  return rows.map((i) => {
    const company = companyOf(companies, i.companyId);
    return withSource(serializeInstrument(company.ticker, i), i, company, q);
  });
}

// ───────────────────────────── offerings ─────────────────────────────

const offeringSelect = {
  id: true,
  companyId: true,
  accessionNumber: true,
  offeringDate: true,
  offeringType: true,
  formType: true,
  shares: true,
  priceMicros: true,
  amountCents: true,
  warrantsIssued: true,
  warrantPriceMicros: true,
  underwriter: true,
  ...SOURCE_COLUMNS,
} satisfies Prisma.OfferingSelect;

export function serializeOffering(
  ticker: string,
  o: Prisma.OfferingGetPayload<{ select: typeof offeringSelect }>,
): OfferingRecord {
  return {
    ticker,
    offering_date: isoDate(o.offeringDate),
    offering_type: o.offeringType,
    form_type: o.formType === null ? null : clampText(o.formType, SERVED_TEXT_BYTES.formType),
    shares: countToNumber(o.shares),
    price: microsToDollars(o.priceMicros),
    amount: centsToDollars(o.amountCents),
    warrants_issued: countToNumber(o.warrantsIssued),
    warrant_exercise_price: microsToDollars(o.warrantPriceMicros),
    underwriter: o.underwriter === null ? null : clampText(o.underwriter, SERVED_TEXT_BYTES.underwriter),
    accession_number: clampText(o.accessionNumber, SERVED_TEXT_BYTES.accessionNumber),
  };
}

async function offerings(prisma: PrismaClient, q: RecordQuery): Promise<JsonRecord[]> {
  checkPage(q);
  if (q.companies.length === 0) return [];
  const companies = companyMap(q);
  const rows = await prisma.offering.findMany({
    select: offeringSelect,
    where: { companyId: { in: [...companies.keys()] }, offeringDate: dateRange(q) },
    orderBy: [{ offeringDate: "desc" }, { company: { ticker: "asc" } }, { id: "asc" }],
    ...pageArgs(q),
  });
  return rows.map((o) => {
    const company = companyOf(companies, o.companyId);
    return withSource(serializeOffering(company.ticker, o), o, company, q);
  });
}

// ───────────────────────────── dilution-rating ─────────────────────────────

/** The rating with each *_desc within MAX_RATING_DESC_BYTES. */
function withinDescBound(rating: DilutionRating): JsonRecord {
  const clamp = (desc: string) => clampText(desc, MAX_RATING_DESC_BYTES);
  return {
    ...rating,
    offering_ability_desc: clamp(rating.offering_ability_desc),
    dilution_desc: clamp(rating.dilution_desc),
    offering_frequency_desc: clamp(rating.offering_frequency_desc),
    cash_need_desc: clamp(rating.cash_need_desc),
    nasdaq_compliance_desc: clamp(rating.nasdaq_compliance_desc),
  };
}

function byTicker(a: { ticker: string }, b: { ticker: string }): number {
  return a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0;
}

/**
 * One rating per requested company, ordered by ticker, computed at asOf. The
 * page is a slice of the company list; rating inputs are loaded for that
 * slice only. A company deleted since it was resolved (absent from the
 * loader's map) is left out.
 */
async function dilutionRating(prisma: PrismaClient, q: RecordQuery): Promise<JsonRecord[]> {
  checkPage(q);
  const unique = [...new Map(q.companies.map((c) => [c.id, c])).values()].sort(byTicker);
  const slice = unique.slice(q.offset, q.offset + q.limit + 1);
  if (slice.length === 0) return [];
  const inputs = await loadRatingInputs(
    prisma,
    slice.map((c) => c.id),
    q.asOf,
  );
  const records: JsonRecord[] = [];
  for (const c of slice) {
    const loaded = inputs.get(c.id);
    if (!loaded) continue;
    // The record's ticker is the one the company was resolved with.
    const rating: JsonRecord = withinDescBound(computeDilutionRating({ ...loaded, ticker: c.ticker, asOf: q.asOf }));
    if (q.includeSource) {
      const sources = ratingSources(loaded).slice(0, MAX_RATING_SOURCES);
      rating.sources = sources.length ? sources.map((ref) => sourceJson(ref, false)) : [sourceJson(null, c.isSample)];
    }
    records.push(rating);
  }
  return records;
}

// ───────────────────────────── the catalog's sources ─────────────────────────────

export const RECORD_SOURCES: Record<EndpointName, RecordSource> = {
  "dilution-rating": dilutionRating,
  "dilution-data": dilutionData,
  registrations,
  "nasdaq-compliance": nasdaqCompliance,
  "float-outstanding": floatOutstanding,
  offerings,
};

// ───────────────────────────── tickers ─────────────────────────────

/** The companies of these tickers that exist, ordered by ticker (one query). */
export async function resolveCompanies(
  prisma: PrismaClient,
  tickers: string[],
): Promise<ResolvedCompany[]> {
  const unique = [...new Set(tickers)];
  if (unique.length === 0) return [];
  const rows = await prisma.company.findMany({
    select: { id: true, ticker: true, isSample: true },
    where: { ticker: { in: unique } },
  });
  return rows.sort(byTicker);
}

/**
 * n tickers spread evenly over the ticker-ordered list of companies (the
 * first of each of n equal buckets), for cost estimates. Deterministic for
 * the same companies; fewer than n when fewer companies exist. One query.
 */
export async function sampleTickers(prisma: PrismaClient, n: number): Promise<string[]> {
  if (!Number.isSafeInteger(n) || n < 1) return [];
  const rows = await prisma.$queryRaw<{ ticker: string }[]>`
    SELECT min(ticker COLLATE "C") AS ticker
    FROM (SELECT ticker, ntile(${n}::int) OVER (ORDER BY ticker COLLATE "C") AS bucket FROM companies) AS buckets
    GROUP BY bucket
    ORDER BY bucket`;
  return rows.map((r) => r.ticker);
}
