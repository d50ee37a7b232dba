/**
 * The records of the data endpoints: for each endpoint of the catalog, the
 * page query and the serializer the API pipeline calls.
 *
 * - One query per page (the dilution rating adds the rating-input loader for
 *   the companies of that page only, and the registrations the baby-shelf
 *   loader for the companies of their S-3/F-3 shelves and ATM programs). Queries filter on company_id and order
 *   on the (company_id, date) indexes.
 * - Ordering is total and stable (date desc, ticker, id), so walking the
 *   pages returns every record exactly once. Each source returns at most
 *   `limit + 1` records: the caller tells `has_more` from the extra one.
 * - Records are plain JSON: `ticker` first, snake_case names, money and
 *   prices in dollars (numbers), ownership in percent, dates "YYYY-MM-DD".
 *   A value the filings do not state is null (never 0). Each record's
 *   fields, in order, with their types and widths, are its schema in
 *   schemas.ts; a serializer returns that schema's type.
 * - With `includeSource`, each record ends with `source`: the SEC filing it
 *   came from, or a note that it is sample or imported data; a rating lists
 *   every filing its inputs came from in `sources`.
 */
import type { EndpointName } from "@/lib/catalog";
import type { Prisma, PrismaClient } from "@/lib/db";
import { INSTRUMENT_RATING_COLUMNS, loadBabyShelfInputs, loadRatingInputs, REGISTRATION_RATING_COLUMNS } from "./rating-inputs";
import { babyShelfRoom, computeDilutionRating, ratingSources, type BabyShelfRoom } from "@/lib/ratings/engine";
import type { DilutionRating } from "@/lib/ratings/types";
import { SOURCE_COLUMNS, sourceJson, sourceRef, type SourceColumns, type SourceJson } from "./evidence";
import {
  API_RECORD_FIELDS,
  EVIDENCE_FIELDS,
  EVIDENCE_WIDTHS,
  MAX_RATING_DESC_BYTES,
  MAX_RATING_SOURCES,
  objectWidth,
  quoted,
  RECORD_WIDTHS,
  type ComplianceRecord,
  type DilutionDataRecord,
  type DilutionRatingRecord,
  type FloatRecord,
  type OfferingApiRecord,
  type ReverseSplitApiRecord,
  type RegistrationApiRecord,
} from "./schemas";
import { BABY_SHELF_FORM_PATTERN } from "@/lib/ratings/thresholds";
import { isoDay, utcDayStart } from "@/lib/utils/dates";
import { bpsToPercent, centsToDollars, clampText, countToNumber, microsToDollars } from "../units";
import { MAX_HOLDERS, MAX_STATUS_UPDATES, MAX_TICKER_LENGTH, QUOTED_FIELDS, SERVED_TEXT_BYTES } from "../import/schema";
import { adjustPrice, adjustShares, isNoSplit, splitFactor, splitRatio, type SplitOnDay } from "@/lib/utils/splits";

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
  /** dilution-data only: the ledger as known on this day (each instrument's latest state filed by then), instead of today's. */
  knownOn?: Date;
  /** `include=source`: add each record's evidence. */
  includeSource?: boolean;
}

export type JsonRecord = Record<
  string,
  string | number | boolean | null | JsonRecord[] | Record<string, unknown> | SourceJson[]
>;

export type RecordSource = (prisma: PrismaClient, q: RecordQuery) => Promise<JsonRecord[]>;

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
  const names = options.fields ?? [...API_RECORD_FIELDS[endpoint], ...(options.includeSource ? [EVIDENCE_FIELDS[endpoint]] : [])];
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

/**
 * A serialized record, with its evidence at the end when the query asks for
 * it: the filing, and the quote of each value read from its text (`quoted`:
 * the fields this kind of record keeps quotes for). Queries read the quotes
 * column only with include=source: the other requests never pay for it.
 */
function withSource<T extends object>(
  record: T,
  row: SourceColumns & { quotes?: Prisma.JsonValue },
  company: ResolvedCompany,
  q: RecordQuery,
  quotedFields?: readonly string[],
): JsonRecord {
  const json = record as unknown as JsonRecord;
  if (!q.includeSource) return json;
  const stored = quotedFields && row.quotes !== undefined ? { quotes: row.quotes, quotedFields } : undefined;
  return { ...json, source: sourceJson(sourceRef(row), company.isSample, stored) };
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
 * A registration the baby-shelf limit (General Instruction I.B.6) speaks of:
 * an S-3/F-3 shelf or an ATM program, not a resale registration.
 */
function underBabyShelfRule(r: { formType: string; isAtm: boolean; isResale: boolean }): boolean {
  return !r.isResale && (r.isAtm || BABY_SHELF_FORM_PATTERN.test(r.formType.trim()));
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
  isResale: true,
  isShelf: true,
  atmAgent: true,
  atmCommissionBps: true,
  deregisteredAt: true,
  atmRemainingAsOf: true,
  atmSoldCents: true,
  atmSoldShares: true,
  atmReportAccession: true,
  babyShelfCapacityCents: true,
  babyShelfSoldCents: true,
  babyShelfAsOf: true,
} satisfies Prisma.RegistrationSelect;

/**
 * A registration as /v1/registrations serves it. `room` is its company's
 * baby-shelf room on the as-of day (babyShelfRoom, lib/ratings/engine.ts): one
 * figure per company, shown on each of its S-3/F-3 shelves and ATM programs
 * while the limit applies; null elsewhere.
 */
export function serializeRegistration(
  ticker: string,
  r: Prisma.RegistrationGetPayload<{ select: typeof registrationSelect }>,
  asOf: Date,
  room: BabyShelfRoom | null = null,
): RegistrationApiRecord {
  const baby = room !== null && room.status === "applies" && underBabyShelfRule(r) ? room : null;
  const computed = baby?.basis === "computed" ? baby : null;
  return {
    ticker,
    accession_number: clampText(r.accessionNumber, SERVED_TEXT_BYTES.accessionNumber),
    form_type: clampText(r.formType, SERVED_TEXT_BYTES.formType),
    file_number: clampText(r.fileNumber, SERVED_TEXT_BYTES.fileNumber),
    filed_date: isoDay(r.filedAt),
    effective_date: isoDay(r.effectiveAt),
    expiration_date: isoDay(r.expiresAt),
    is_effective: r.isEffective,
    is_expired: isExpiredAt(r.expiresAt, asOf),
    is_atm: r.isAtm,
    offering_amount: centsToDollars(r.offeringAmountCents),
    amount_remaining_atm: r.isAtm ? centsToDollars(r.atmRemainingCents) : null,
    over_baby_shelf: r.overBabyShelf,
    public_float: centsToDollars(r.publicFloatCents),
    baby_shelf_capacity: centsToDollars(baby?.capacityCents ?? null),
    is_resale: r.isResale,
    is_shelf: r.isShelf,
    atm_agent: r.atmAgent === null ? null : clampText(r.atmAgent, SERVED_TEXT_BYTES.underwriter),
    atm_commission_percent: bpsToPercent(r.atmCommissionBps),
    deregistered_date: isoDay(r.deregisteredAt),
    amount_remaining_atm_as_of: r.isAtm ? isoDay(r.atmRemainingAsOf) : null,
    atm_sold_amount: r.isAtm ? centsToDollars(r.atmSoldCents) : null,
    atm_sold_shares: r.isAtm ? countToNumber(r.atmSoldShares) : null,
    atm_report_accession: r.isAtm && r.atmReportAccession !== null ? clampText(r.atmReportAccession, SERVED_TEXT_BYTES.accessionNumber) : null,
    baby_shelf_sold_12m: centsToDollars(baby?.soldCents ?? null),
    baby_shelf_as_of: isoDay(baby?.asOf ?? null),
    baby_shelf_public_float: centsToDollars(computed?.publicFloat?.cents ?? null),
    baby_shelf_public_float_as_of: isoDay(computed?.publicFloat?.asOf ?? null),
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
    select: { ...registrationSelect, quotes: q.includeSource === true },
    where,
    orderBy: [{ filedAt: "desc" }, { company: { ticker: "asc" } }, { id: "asc" }],
    ...pageArgs(q),
  });
  // The baby-shelf room of each company with an S-3/F-3 shelf or ATM program on the page, on the as-of day.
  const inputs = await loadBabyShelfInputs(prisma, rows.filter(underBabyShelfRule).map((r) => r.companyId), q.asOf);
  const rooms = new Map([...inputs].map(([id, companyInputs]) => [id, babyShelfRoom(companyInputs)]));
  /** A registration's stored baby-shelf quotes speak for the figures served only when they are its own filing's statement. */
  const notStated = QUOTED_FIELDS.registrations.filter((field) => field !== "baby_shelf_capacity" && field !== "baby_shelf_sold_12m");
  return rows.map((r) => {
    const company = companyOf(companies, r.companyId);
    const room = rooms.get(r.companyId) ?? null;
    const own = room?.basis === "stated" && room.statedBy?.accessionNumber === r.accessionNumber;
    return withSource(serializeRegistration(company.ticker, r, q.asOf, room), r, company, q, own ? QUOTED_FIELDS.registrations : notStated);
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
    notice_date: isoDay(d.noticeDate),
    deadline: isoDay(d.deadline),
    resolved_date: isoDay(d.resolvedAt),
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
    as_of: isoDay(f.asOf),
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
    select: { ...floatSelect, quotes: q.includeSource === true },
    where: { companyId: { in: [...companies.keys()] } },
    orderBy: [{ asOf: "desc" }, { company: { ticker: "asc" } }, { id: "asc" }],
    ...pageArgs(q),
  });
  return rows.map((f) => {
    const company = companyOf(companies, f.companyId);
    return withSource(serializeFloat(company.ticker, f), f, company, q, QUOTED_FIELDS.float_snapshots);
  });
}

// ───────────────────────────── dilution-data ─────────────────────────────

const instrumentSelect = {
  ...INSTRUMENT_RATING_COLUMNS,
  id: true,
  principalCents: true,
  registered: true,
  preFunded: true,
  exercisableAt: true,
  status: true,
  asOf: true,
  conversionPriceMicros: true,
  statedSharesUnderlying: true,
  statedPriceMicros: true,
  splitAdjustment: true,
  antiDilution: true,
  holders: true,
  placementAgent: true,
  reportedTotal: true,
  xbrlCheck: true,
} satisfies Prisma.DilutionInstrumentSelect;

/** holders as stored (a JSON array of names) → at most MAX_HOLDERS names, each within its maximum; null when none. */
function servedHolders(stored: Prisma.JsonValue): string[] | null {
  if (!Array.isArray(stored)) return null;
  const names = stored.filter((name): name is string => typeof name === "string" && name.trim() !== "").slice(0, MAX_HOLDERS);
  return names.length ? names.map((name) => clampText(name, SERVED_TEXT_BYTES.partyName)) : null;
}

/** The stored cross-check as the API serves it (its note stays in the database and the sync's report). */
function servedXbrlCheck(stored: Prisma.JsonValue): DilutionDataRecord["xbrl_check"] {
  if (stored === null || typeof stored !== "object" || Array.isArray(stored)) return null;
  const { verdict, used, value, accession } = stored as Record<string, unknown>;
  if (typeof verdict !== "string" || typeof used !== "string") return null;
  return {
    verdict,
    used,
    xbrl_value: typeof value === "number" && Number.isFinite(value) ? value : null,
    xbrl_accession: typeof accession === "string" ? clampText(accession, SERVED_TEXT_BYTES.accessionNumber) : null,
  };
}

export function serializeInstrument(
  ticker: string,
  i: Prisma.DilutionInstrumentGetPayload<{ select: typeof instrumentSelect }>,
): DilutionDataRecord {
  return {
    ticker,
    instrument_type: i.instrumentType,
    name: clampText(i.name, SERVED_TEXT_BYTES.instrumentName),
    issued_date: isoDay(i.issuedAt),
    expiration_date: isoDay(i.expiresAt),
    shares_underlying: countToNumber(i.sharesUnderlying),
    exercise_price: microsToDollars(i.exercisePriceMicros),
    principal_amount: centsToDollars(i.principalCents),
    remaining_amount: centsToDollars(i.remainingCents),
    registered: i.registered,
    pre_funded: i.preFunded,
    exercisable_date: isoDay(i.exercisableAt),
    status: i.status,
    as_of: isoDay(i.asOf),
    conversion_price: microsToDollars(i.conversionPriceMicros),
    stated_shares_underlying: countToNumber(i.statedSharesUnderlying),
    stated_price: microsToDollars(i.statedPriceMicros),
    split_adjustment: i.splitAdjustment === null ? null : clampText(i.splitAdjustment, SERVED_TEXT_BYTES.ratio),
    anti_dilution: i.antiDilution,
    holders: servedHolders(i.holders),
    placement_agent: i.placementAgent === null ? null : clampText(i.placementAgent, SERVED_TEXT_BYTES.partyName),
    reported_total: i.reportedTotal,
    xbrl_check: servedXbrlCheck(i.xbrlCheck),
  };
}

async function dilutionData(prisma: PrismaClient, q: RecordQuery): Promise<JsonRecord[]> {
  checkPage(q);
  if (q.companies.length === 0) return [];
  const companies = companyMap(q);
  // a later day than today is today: no split or filing of tomorrow is known
  if (q.knownOn) return dilutionDataKnownOn(prisma, q, companies, utcDayStart(q.knownOn < q.asOf ? q.knownOn : q.asOf));
  const rows = await prisma.dilutionInstrument.findMany({
    select: { ...instrumentSelect, quotes: q.includeSource === true },
    where: { companyId: { in: [...companies.keys()] } },
    orderBy: [{ issuedAt: "desc" }, { company: { ticker: "asc" } }, { id: "asc" }],
    ...pageArgs(q),
  });
  return rows.map((i) => {
    const company = companyOf(companies, i.companyId);
    return withSource(serializeInstrument(company.ticker, i), i, company, q, QUOTED_FIELDS.dilution_instruments);
  });
}

type InstrumentRow = Prisma.DilutionInstrumentGetPayload<{ select: typeof instrumentSelect }> & { quotes?: Prisma.JsonValue };

/**
 * `as_of`: the ledger as it was known on a past day. Each instrument's latest
 * state filed on or before that day (instrument_states), moved to that day's
 * share basis by the reverse splits effective by then (lib/data/splits.ts);
 * an instrument whose first state was filed later is left out. An instrument
 * without history (imported or sample data) is served as it is once issued.
 * A company has tens of instruments, so the page is cut here.
 */
async function dilutionDataKnownOn(prisma: PrismaClient, q: RecordQuery, companies: Map<string, ResolvedCompany>, day: Date): Promise<JsonRecord[]> {
  const ids = [...companies.keys()];
  const [rows, states, followed, splitRows] = await Promise.all([
    prisma.dilutionInstrument.findMany({
      select: { ...instrumentSelect, quotes: q.includeSource === true },
      where: { companyId: { in: ids }, issuedAt: { lte: day } },
      orderBy: [{ issuedAt: "desc" }, { company: { ticker: "asc" } }, { id: "asc" }],
    }),
    prisma.instrumentState.findMany({ where: { companyId: { in: ids }, knownAt: { lte: day } }, orderBy: [{ knownAt: "asc" }, { asOf: "asc" }] }),
    prisma.instrumentState.groupBy({ by: ["companyId", "instrumentType", "instrumentName"], where: { companyId: { in: ids } } }),
    prisma.reverseSplit.findMany({ where: { companyId: { in: ids }, effectiveDate: { lte: day } }, select: { companyId: true, effectiveDate: true, oldShares: true, newShares: true } }),
  ]);
  const keyOf = (companyId: string, type: string, name: string) => `${companyId}\u0000${type}\u0000${name}`;
  const known = new Map<string, typeof states>();
  for (const s of states) {
    const key = keyOf(s.companyId, s.instrumentType, s.instrumentName);
    const list = known.get(key);
    if (list) list.push(s);
    else known.set(key, [s]);
  }
  const hasHistory = new Set(followed.map((f) => keyOf(f.companyId, f.instrumentType, f.instrumentName)));
  const splitsByCompany = new Map<string, SplitOnDay[]>();
  for (const s of splitRows) {
    const list = splitsByCompany.get(s.companyId) ?? [];
    list.push({ effectiveDate: isoDay(s.effectiveDate), oldShares: BigInt(s.oldShares), newShares: BigInt(s.newShares) });
    splitsByCompany.set(s.companyId, list);
  }
  const splitsOf = (companyId: string): SplitOnDay[] => splitsByCompany.get(companyId) ?? [];
  const dayText = isoDay(day);

  const records: JsonRecord[] = [];
  for (const row of rows as InstrumentRow[]) {
    const company = companyOf(companies, row.companyId);
    const key = keyOf(row.companyId, row.instrumentType, row.name);
    const history = known.get(key);
    if (!history) {
      if (!hasHistory.has(key)) records.push(withSource(serializeInstrument(company.ticker, row), row, company, q, QUOTED_FIELDS.dilution_instruments));
      continue;
    }
    const latest = history.at(-1)!;
    const factor = splitFactor(splitsOf(row.companyId), isoDay(latest.knownAt), dayText);
    const adjusted = !isNoSplit(factor) && splitRatio(factor) !== null;
    const shares = adjusted ? adjustShares(latest.sharesUnderlying, factor) : latest.sharesUnderlying;
    const price = adjusted ? adjustPrice(latest.priceMicros, factor) : latest.priceMicros;
    const convertible = row.instrumentType === "convertible_note" || row.instrumentType === "convertible_preferred";
    const expires = [...history].reverse().find((s) => s.expiresAt !== null)?.expiresAt ?? null;
    const expired = row.instrumentType === "warrant" && latest.status === "outstanding" && expires !== null && expires < day;
    const record = {
      ...serializeInstrument(company.ticker, row),
      expiration_date: isoDay(expires),
      shares_underlying: countToNumber(shares),
      exercise_price: microsToDollars(price),
      principal_amount: centsToDollars(history.find((s) => s.principalCents !== null)?.principalCents ?? null),
      remaining_amount: centsToDollars(latest.remainingCents),
      status: expired ? "expired" : latest.status,
      as_of: isoDay(latest.asOf),
      conversion_price: convertible ? microsToDollars(price) : null,
      stated_shares_underlying: adjusted ? countToNumber(latest.sharesUnderlying) : null,
      stated_price: adjusted ? microsToDollars(latest.priceMicros) : null,
      split_adjustment: adjusted ? splitRatio(factor) : null,
      // the cross-check speaks of the latest state, not of this day's
      xbrl_check: null,
    } satisfies DilutionDataRecord;
    records.push(withSource(record, { ...latest, quotes: stateQuotesAsRecord(latest.quotes, convertible) }, company, q, QUOTED_FIELDS.dilution_instruments));
  }
  return records.slice(q.offset, q.offset + q.limit + 1);
}

/** A state's quotes (its `price` is the exercise or conversion price) under the instrument record's fields. */
function stateQuotesAsRecord(quotes: Prisma.JsonValue, convertible: boolean): Prisma.JsonValue {
  if (quotes === null || typeof quotes !== "object" || Array.isArray(quotes)) return null;
  const { price, ...rest } = quotes as Record<string, Prisma.JsonValue>;
  return price === undefined ? rest : { ...rest, exercise_price: price, ...(convertible ? { conversion_price: price } : {}) };
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
  status: true,
  agentRole: true,
  prefundedWarrants: true,
  prefundedPriceMicros: true,
  netProceedsCents: true,
  feeBps: true,
  overallotmentShares: true,
  anticipatedAmountCents: true,
  revisedAmountCents: true,
  withdrawnAt: true,
  ...SOURCE_COLUMNS,
} satisfies Prisma.OfferingSelect;

export function serializeOffering(
  ticker: string,
  o: Prisma.OfferingGetPayload<{ select: typeof offeringSelect }>,
): OfferingApiRecord {
  return {
    ticker,
    offering_date: isoDay(o.offeringDate),
    offering_type: o.offeringType,
    form_type: o.formType === null ? null : clampText(o.formType, SERVED_TEXT_BYTES.formType),
    shares: countToNumber(o.shares),
    price: microsToDollars(o.priceMicros),
    amount: centsToDollars(o.amountCents),
    warrants_issued: countToNumber(o.warrantsIssued),
    warrant_exercise_price: microsToDollars(o.warrantPriceMicros),
    underwriter: o.underwriter === null ? null : clampText(o.underwriter, SERVED_TEXT_BYTES.underwriter),
    accession_number: clampText(o.accessionNumber, SERVED_TEXT_BYTES.accessionNumber),
    status: o.status,
    agent_role: o.agentRole,
    prefunded_warrants: countToNumber(o.prefundedWarrants),
    prefunded_warrant_price: microsToDollars(o.prefundedPriceMicros),
    net_proceeds: centsToDollars(o.netProceedsCents),
    fee_percent: bpsToPercent(o.feeBps),
    overallotment_shares: countToNumber(o.overallotmentShares),
    anticipated_amount: centsToDollars(o.anticipatedAmountCents),
    revised_anticipated_amount: centsToDollars(o.revisedAmountCents),
    withdrawn_date: isoDay(o.withdrawnAt),
  };
}

async function offerings(prisma: PrismaClient, q: RecordQuery): Promise<JsonRecord[]> {
  checkPage(q);
  if (q.companies.length === 0) return [];
  const companies = companyMap(q);
  const rows = await prisma.offering.findMany({
    select: { ...offeringSelect, quotes: q.includeSource === true },
    where: { companyId: { in: [...companies.keys()] }, offeringDate: dateRange(q) },
    orderBy: [{ offeringDate: "desc" }, { company: { ticker: "asc" } }, { id: "asc" }],
    ...pageArgs(q),
  });
  return rows.map((o) => {
    const company = companyOf(companies, o.companyId);
    return withSource(serializeOffering(company.ticker, o), o, company, q, QUOTED_FIELDS.offerings);
  });
}

// ───────────────────────────── dilution-rating ─────────────────────────────

/** The rating with each *_desc within MAX_RATING_DESC_BYTES. */
function withinDescBound(rating: DilutionRating): DilutionRatingRecord {
  const clamp = (desc: string) => clampText(desc, MAX_RATING_DESC_BYTES);
  return {
    ...rating,
    offering_ability_desc: clamp(rating.offering_ability_desc),
    dilution_desc: clamp(rating.dilution_desc),
    offering_frequency_desc: clamp(rating.offering_frequency_desc),
    cash_need_desc: clamp(rating.cash_need_desc),
    nasdaq_compliance_desc: clamp(rating.nasdaq_compliance_desc),
    warrant_exercise_desc: clamp(rating.warrant_exercise_desc),
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

// ───────────────────────────── reverse-splits ─────────────────────────────

const reverseSplitSelect = {
  id: true,
  companyId: true,
  effectiveDate: true,
  oldShares: true,
  newShares: true,
  ...SOURCE_COLUMNS,
} satisfies Prisma.ReverseSplitSelect;

function serializeReverseSplit(ticker: string, r: Prisma.ReverseSplitGetPayload<{ select: typeof reverseSplitSelect }>): ReverseSplitApiRecord {
  return {
    ticker,
    effective_date: isoDay(r.effectiveDate),
    ratio: `${r.newShares}-for-${r.oldShares}`,
    old_shares: r.oldShares,
    new_shares: r.newShares,
  };
}

async function reverseSplits(prisma: PrismaClient, q: RecordQuery): Promise<JsonRecord[]> {
  checkPage(q);
  if (q.companies.length === 0) return [];
  const companies = companyMap(q);
  const rows = await prisma.reverseSplit.findMany({
    select: { ...reverseSplitSelect, quotes: q.includeSource === true },
    where: { companyId: { in: [...companies.keys()] }, effectiveDate: dateRange(q) },
    orderBy: [{ effectiveDate: "desc" }, { company: { ticker: "asc" } }, { id: "asc" }],
    ...pageArgs(q),
  });
  return rows.map((r) => {
    const company = companyOf(companies, r.companyId);
    return withSource(serializeReverseSplit(company.ticker, r), r, company, q, QUOTED_FIELDS.reverse_splits);
  });
}

// ───────────────────────────── the catalog's sources ─────────────────────────────

export const RECORD_SOURCES: Record<EndpointName, RecordSource> = {
  "dilution-rating": dilutionRating,
  "dilution-data": dilutionData,
  registrations,
  "nasdaq-compliance": nasdaqCompliance,
  "float-outstanding": floatOutstanding,
  offerings,
  "reverse-splits": reverseSplits,
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
export async function spreadTickers(prisma: PrismaClient, n: number): Promise<string[]> {
  if (!Number.isSafeInteger(n) || n < 1) return [];
  const rows = await prisma.$queryRaw<{ ticker: string }[]>`
    SELECT min(ticker COLLATE "C") AS ticker
    FROM (SELECT ticker, ntile(${n}::int) OVER (ORDER BY ticker COLLATE "C") AS bucket FROM companies) AS buckets
    GROUP BY bucket
    ORDER BY bucket`;
  return rows.map((r) => r.ticker);
}
