/**
 * Loads the facts the ratings engine needs for many companies at once.
 *
 * One SQL statement per chunk of companies, whatever their number (ids are
 * chunked only past CHUNK_SIZE to stay under the bind-parameter limit): a row
 * per company, its facts gathered by one correlated subquery per kind — the
 * latest financial report that states cash, the latest that states going
 * concern, registrations, offerings, instruments, deficiencies, the latest
 * float snapshot, reverse splits, the latest close, the latest offering
 * price, the Reg SHO threshold list — into one JSON document. (A Prisma query
 * costs about a millisecond of CPU however small its answer: a dozen of them
 * cost a rating far more than the engine does.) Each kind's columns are named
 * once, in a FieldSpec: they make both the SQL and the decoder that gives
 * back what Prisma would (bigints travel as text, dates as YYYY-MM-DD, back to
 * bigint and UTC-midnight Date). Rows are mapped to the engine's plain input
 * types; facts dated after asOf are left out, so a rating can be recomputed
 * as of any past day.
 */
import { Prisma, type PrismaClient } from "@/lib/db";
import { offeringWindowStart } from "@/lib/ratings/engine";
import { addMonths, isoDay, utcDayStart } from "@/lib/utils/dates";
import { BABY_SHELF_SALES_WINDOW_MONTHS } from "@/lib/ratings/thresholds";
import type { RatingInputs, SourceRef } from "@/lib/ratings/types";
import { withSourceRef } from "./evidence";

/**
 * A Reg SHO threshold list older than this many days does not tell the
 * as-of day's status (lists are daily; weekends and holidays have none).
 */
export const REG_SHO_LIST_MAX_AGE_DAYS = 5;

// ───────────────────────────── columns ─────────────────────────────

/** A column's type as Prisma returns it ("?": nullable). The column is the key in snake_case. */
type FieldType = "text" | "text?" | "date" | "date?" | "bigint" | "bigint?" | "int" | "bool" | "bool?";
type FieldSpec = Readonly<Record<string, FieldType>>;
type BaseValue<T> = T extends "text" ? string : T extends "date" ? Date : T extends "bigint" ? bigint : T extends "int" ? number : T extends "bool" ? boolean : never;
type FieldValue<T extends FieldType> = T extends `${infer Base}?` ? BaseValue<Base> | null : BaseValue<T>;
type Decoded<S extends FieldSpec> = { -readonly [K in keyof S]: FieldValue<S[K]> };
/** A Prisma select of the spec's columns. */
type SelectOf<S extends FieldSpec> = { -readonly [K in keyof S]: true };

function selectOf<S extends FieldSpec>(spec: S): SelectOf<S> {
  return Object.fromEntries(Object.keys(spec).map((key) => [key, true])) as SelectOf<S>;
}

const SOURCE_FIELDS = { sourceAccession: "text?", sourceForm: "text?", sourceFiledAt: "date?", sourceUrl: "text?" } as const satisfies FieldSpec;

const REGISTRATION_FIELDS = {
  formType: "text",
  filedAt: "date",
  effectiveAt: "date?",
  expiresAt: "date?",
  offeringAmountCents: "bigint?",
  isAtm: "bool",
  atmRemainingCents: "bigint?",
  babyShelfCapacityCents: "bigint?",
  babyShelfSoldCents: "bigint?",
  babyShelfAsOf: "date?",
  atmRemainingAsOf: "date?",
  atmSoldCents: "bigint?",
  overBabyShelf: "bool?",
  publicFloatCents: "bigint?",
  isEffective: "bool",
  fileNumber: "text",
  accessionNumber: "text",
  effectiveAccession: "text?",
  effectiveFiledAt: "date?",
  effectiveUrl: "text?",
  ...SOURCE_FIELDS,
} as const satisfies FieldSpec;

/** What the ratings read of a registration; /v1/registrations serializes these and a few more (index.ts). */
export const REGISTRATION_RATING_COLUMNS = { companyId: true, ...selectOf(REGISTRATION_FIELDS) } satisfies Prisma.RegistrationSelect;

const INSTRUMENT_FIELDS = {
  instrumentType: "text",
  name: "text",
  issuedAt: "date",
  expiresAt: "date?",
  sharesUnderlying: "bigint?",
  exercisePriceMicros: "bigint?",
  remainingCents: "bigint?",
  conversionPriceMicros: "bigint?",
  preFunded: "bool",
  status: "text",
  asOf: "date?",
  reportedTotal: "bool",
  ...SOURCE_FIELDS,
} as const satisfies FieldSpec;

/** What the ratings read of a warrant or convertible; /v1/dilution-data serializes these and a few more. */
export const INSTRUMENT_RATING_COLUMNS = { companyId: true, ...selectOf(INSTRUMENT_FIELDS) } satisfies Prisma.DilutionInstrumentSelect;

/** What the ratings read of a priced offering. */
const OFFERING_FIELDS = {
  offeringDate: "date",
  offeringType: "text",
  amountCents: "bigint?",
  shares: "bigint?",
  priceMicros: "bigint?",
  formType: "text?",
  fileNumber: "text?",
  ...SOURCE_FIELDS,
} as const satisfies FieldSpec;

const FINANCIALS_FIELDS = {
  periodEnd: "date",
  cashCents: "bigint?",
  quarterlyBurnCents: "bigint?",
  debtCents: "bigint?",
  regSho: "bool?",
  goingConcern: "bool?",
  goingConcernAccession: "text?",
  ...SOURCE_FIELDS,
} as const satisfies FieldSpec;

const GOING_CONCERN_FIELDS = { periodEnd: "date", goingConcern: "bool?", goingConcernAccession: "text?", ...SOURCE_FIELDS } as const satisfies FieldSpec;

const DEFICIENCY_FIELDS = {
  deficiency: "text",
  status: "text",
  noticeDate: "date",
  deadline: "date?",
  resolvedAt: "date?",
  ...SOURCE_FIELDS,
} as const satisfies FieldSpec;

const FLOAT_FIELDS = {
  asOf: "date",
  floatShares: "bigint?",
  outstandingShares: "bigint",
  priceMicros: "bigint?",
  marketCapCents: "bigint?",
  publicFloatCents: "bigint?",
  publicFloatAsOf: "date?",
  ...SOURCE_FIELDS,
} as const satisfies FieldSpec;

const SPLIT_FIELDS = { effectiveDate: "date", oldShares: "int", newShares: "int", ...SOURCE_FIELDS } as const satisfies FieldSpec;

const OFFERING_PRICE_FIELDS = { offeringDate: "date", priceMicros: "bigint?", ...SOURCE_FIELDS } as const satisfies FieldSpec;

const CLOSE_FIELDS = { date: "date", closeMicros: "bigint" } as const satisfies FieldSpec;

/** The row as a JSON array of its columns, in the spec's order (bigints as text: JSON numbers stop being exact at 2^53). */
function jsonRow(alias: string, spec: FieldSpec): Prisma.Sql {
  const columns = Object.entries(spec).map(([key, type]) => {
    const column = `${alias}.${key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`;
    return type.startsWith("bigint") ? `${column}::text` : column;
  });
  return Prisma.raw(`json_build_array(${columns.join(", ")})`);
}

/** Turns jsonRow's arrays back into what Prisma would have returned for the same select. */
function decoder<S extends FieldSpec>(spec: S): (row: unknown[]) => Decoded<S> {
  const fields = Object.entries(spec).map(([key, type]) => [key, type.replace("?", "")] as const);
  return (row) => {
    const out: Record<string, unknown> = {};
    fields.forEach(([key, type], i) => {
      const value = row[i];
      out[key] = value === null || value === undefined ? null : type === "date" ? new Date(`${value as string}T00:00:00Z`) : type === "bigint" ? BigInt(value as string) : value;
    });
    return out as Decoded<S>;
  };
}

// Typed as Prisma's answer for the same columns: a column typed differently in the spec fails to compile.
const decodeRegistration: (row: unknown[]) => Omit<Prisma.RegistrationGetPayload<{ select: typeof REGISTRATION_RATING_COLUMNS }>, "companyId"> =
  decoder(REGISTRATION_FIELDS);
const decodeInstrument: (row: unknown[]) => Omit<Prisma.DilutionInstrumentGetPayload<{ select: typeof INSTRUMENT_RATING_COLUMNS }>, "companyId"> =
  decoder(INSTRUMENT_FIELDS);
const decodeOffering: (row: unknown[]) => Prisma.OfferingGetPayload<{ select: SelectOf<typeof OFFERING_FIELDS> }> = decoder(OFFERING_FIELDS);
const decodeFinancials: (row: unknown[]) => Prisma.FinancialReportGetPayload<{ select: SelectOf<typeof FINANCIALS_FIELDS> }> = decoder(FINANCIALS_FIELDS);
const decodeGoingConcern: (row: unknown[]) => Prisma.FinancialReportGetPayload<{ select: SelectOf<typeof GOING_CONCERN_FIELDS> }> =
  decoder(GOING_CONCERN_FIELDS);
const decodeDeficiency: (row: unknown[]) => Prisma.ComplianceDeficiencyGetPayload<{ select: SelectOf<typeof DEFICIENCY_FIELDS> }> = decoder(DEFICIENCY_FIELDS);
const decodeFloat: (row: unknown[]) => Prisma.FloatSnapshotGetPayload<{ select: SelectOf<typeof FLOAT_FIELDS> }> = decoder(FLOAT_FIELDS);
const decodeSplit: (row: unknown[]) => Prisma.ReverseSplitGetPayload<{ select: SelectOf<typeof SPLIT_FIELDS> }> = decoder(SPLIT_FIELDS);
const decodeOfferingPrice: (row: unknown[]) => Prisma.OfferingGetPayload<{ select: SelectOf<typeof OFFERING_PRICE_FIELDS> }> = decoder(OFFERING_PRICE_FIELDS);
const decodeClose: (row: unknown[]) => Prisma.DailyPriceGetPayload<{ select: SelectOf<typeof CLOSE_FIELDS> }> = decoder(CLOSE_FIELDS);

/**
 * Offering types whose price is not a price the stock traded at: a warrant
 * exercise's is the exercise price, a convertible's the conversion price.
 */
const NOT_A_SHARE_PRICE = ["warrant_exercise", "convertible"];

/** Company ids per statement; PostgreSQL allows 65,535 bind parameters. */
export const CHUNK_SIZE = 10_000;

// ───────────────────────────── SQL ─────────────────────────────

/** A date bind parameter. */
const dateParam = (date: Date) => Prisma.sql`${isoDay(date)}::date`;

const companyIn = (ids: string[]) => Prisma.sql`c.id IN (${Prisma.join(ids.map((id) => Prisma.sql`${id}::uuid`))})`;

/** The company's rows of a table as a JSON array of jsonRow arrays (null when none). */
function allRows(table: string, alias: string, spec: FieldSpec, where: Prisma.Sql, orderBy: string): Prisma.Sql {
  return Prisma.sql`(SELECT json_agg(${jsonRow(alias, spec)} ORDER BY ${Prisma.raw(orderBy)}) FROM ${Prisma.raw(`${table} ${alias}`)} WHERE ${Prisma.raw(alias)}.company_id = c.id AND ${where})`;
}

/** The company's first row of a table in that order, as a jsonRow array (null when none): DISTINCT ON per company. */
function firstRow(table: string, alias: string, spec: FieldSpec, where: Prisma.Sql, orderBy: string): Prisma.Sql {
  return Prisma.sql`(SELECT ${jsonRow(alias, spec)} FROM ${Prisma.raw(`${table} ${alias}`)} WHERE ${Prisma.raw(alias)}.company_id = c.id AND ${where} ORDER BY ${Prisma.raw(orderBy)} LIMIT 1)`;
}

/**
 * All registrations filed by the day (expired ones explain "shelf expired on …") that can raise money for the
 * company: not a resale registration, nor a registration statement for one offering (those are offerings).
 */
const capacityRegistrations = (day: Date) =>
  allRows("registrations", "r", REGISTRATION_FIELDS, Prisma.sql`r.filed_at <= ${dateParam(day)} AND NOT r.is_resale AND r.is_shelf IS NOT FALSE`, "r.filed_at, r.id");

/** The latest float snapshot on or before the day. */
const latestFloat = (day: Date) => firstRow("float_snapshots", "s", FLOAT_FIELDS, Prisma.sql`s.as_of <= ${dateParam(day)}`, "s.as_of DESC");

/** What one company's document holds (each row a jsonRow array). */
interface RatingDocument {
  id: string;
  ticker: string;
  financials: unknown[] | null;
  goingConcern: unknown[] | null;
  registrations: unknown[][] | null;
  offerings: unknown[][] | null;
  instruments: unknown[][] | null;
  deficiencies: unknown[][] | null;
  float: unknown[] | null;
  splits: unknown[][] | null;
  close: unknown[] | null;
  offeringPrice: unknown[] | null;
  /** null: no threshold list covers the day. */
  regSho: boolean | null;
}

/**
 * Rating inputs per company id, computed as of `asOf`. Ids that match no
 * company are absent from the map.
 */
export async function loadRatingInputs(
  prisma: PrismaClient,
  companyIds: string[],
  asOf: Date,
): Promise<Map<string, RatingInputs>> {
  const ids = [...new Set(companyIds)];
  const result = new Map<string, RatingInputs>();
  for (let i = 0; i < ids.length; i += CHUNK_SIZE) {
    await loadChunk(prisma, ids.slice(i, i + CHUNK_SIZE), asOf, result);
  }
  return result;
}

async function loadChunk(
  prisma: PrismaClient,
  ids: string[],
  asOf: Date,
  into: Map<string, RatingInputs>,
): Promise<void> {
  if (ids.length === 0) return;
  const day = utcDayStart(asOf);
  const onDay = dateParam(day);
  // The Reg SHO list of the day: the latest imported in the last REG_SHO_LIST_MAX_AGE_DAYS (none: the status is not known from lists).
  const oldest = new Date(day.getTime() - REG_SHO_LIST_MAX_AGE_DAYS * 86_400_000);
  const rows = await prisma.$queryRaw<{ doc: string }[]>`
    SELECT json_build_object(
      'id', c.id,
      'ticker', c.ticker,
      'financials', ${
        // The latest report by period end that states cash, among those filed by asOf
        // (a report read from its text alone states going concern but no cash: it never blanks the cash of the one before).
        firstRow("financial_reports", "f", FINANCIALS_FIELDS, Prisma.sql`f.period_end <= ${onDay} AND f.filed_at <= ${onDay} AND f.cash_cents IS NOT NULL`, "f.period_end DESC")
      },
      'goingConcern', ${
        // The latest report by period end that states going concern either way, among those filed by asOf.
        firstRow("financial_reports", "g", GOING_CONCERN_FIELDS, Prisma.sql`g.period_end <= ${onDay} AND g.filed_at <= ${onDay} AND g.going_concern IS NOT NULL`, "g.period_end DESC")
      },
      'registrations', ${capacityRegistrations(day)},
      'offerings', ${
        // Priced offerings inside the frequency window only (it holds the baby-shelf limit's 12 months).
        allRows("offerings", "o", OFFERING_FIELDS, Prisma.sql`o.offering_date >= ${dateParam(offeringWindowStart(asOf))} AND o.offering_date <= ${onDay} AND o.status = 'priced'`, "o.offering_date, o.id")
      },
      'instruments', ${
        // Warrants and convertibles issued by asOf and not expired on it, in any ledger state (the engine reads the state's day).
        allRows("dilution_instruments", "i", INSTRUMENT_FIELDS, Prisma.sql`i.issued_at <= ${onDay} AND (i.expires_at IS NULL OR i.expires_at > ${onDay})`, "i.issued_at, i.id")
      },
      'deficiencies', ${
        // All deficiencies noticed by asOf: resolved ones feed the "last resolved" text.
        allRows("compliance_deficiencies", "d", DEFICIENCY_FIELDS, Prisma.sql`d.notice_date <= ${onDay}`, "d.notice_date, d.id")
      },
      'float', ${latestFloat(day)},
      'splits', ${
        // Every split by the day: the recent ones weigh on the rating, and all of them move an older offering price to today's basis.
        allRows("reverse_splits", "x", SPLIT_FIELDS, Prisma.sql`x.effective_date <= ${onDay}`, "x.effective_date")
      },
      'close', ${
        // The latest daily close on or before the day (from the primary key's index).
        firstRow("daily_prices", "p", CLOSE_FIELDS, Prisma.sql`p.date <= ${onDay}`, "p.date DESC")
      },
      'offeringPrice', ${
        // The latest priced offering that states a price per share: the warrants' price when no market price is on file.
        firstRow(
          "offerings",
          "q",
          OFFERING_PRICE_FIELDS,
          Prisma.sql`q.offering_date <= ${onDay} AND q.status = 'priced' AND q.price_micros > 0 AND q.offering_type NOT IN (${Prisma.join(NOT_A_SHARE_PRICE)})`,
          "q.offering_date DESC, q.id",
        )
      },
      'regSho', CASE WHEN l.list_date IS NULL THEN NULL
        ELSE EXISTS (SELECT 1 FROM reg_sho_thresholds t WHERE t.company_id = c.id AND t.list_date = l.list_date) END
    )::text AS doc
    FROM companies c
    LEFT JOIN (
      SELECT list_date FROM reg_sho_list_days WHERE list_date <= ${onDay} AND list_date > ${dateParam(oldest)} ORDER BY list_date DESC LIMIT 1
    ) l ON true
    WHERE ${companyIn(ids)}`;

  for (const { doc } of rows) {
    const c = JSON.parse(doc) as RatingDocument;
    const inputs: RatingInputs = {
      ticker: c.ticker,
      asOf,
      registrations: (c.registrations ?? []).map((row) => registrationInput(decodeRegistration(row))),
      offerings: (c.offerings ?? []).map((row) => withSourceRef(decodeOffering(row))),
      instruments: (c.instruments ?? []).map((row) => {
        const { asOf: statusAsOf, ...instrument } = decodeInstrument(row);
        return withSourceRef({ ...instrument, statusAsOf });
      }),
      deficiencies: (c.deficiencies ?? []).map((row) => withSourceRef(decodeDeficiency(row))),
      reverseSplits: (c.splits ?? []).map((row) => withSourceRef(decodeSplit(row))),
      goingConcernReport: null,
    };
    if (c.financials) {
      const { cashCents, ...row } = decodeFinancials(c.financials);
      if (cashCents !== null) inputs.latestFinancials = withSourceRef({ ...row, cashCents });
    }
    if (c.goingConcern) {
      const { goingConcern, ...row } = decodeGoingConcern(c.goingConcern);
      if (goingConcern !== null) inputs.goingConcernReport = withSourceRef({ ...row, goingConcern });
    }
    if (c.float) inputs.latestFloat = withSourceRef(decodeFloat(c.float));
    if (c.close) inputs.latestClose = decodeClose(c.close);
    if (c.offeringPrice) {
      const { offeringDate, priceMicros, ...row } = decodeOfferingPrice(c.offeringPrice);
      if (priceMicros !== null) inputs.latestOfferingPrice = withSourceRef({ ...row, offeringDate, priceMicros });
    }
    if (c.regSho !== null) inputs.regSho = c.regSho;
    into.set(c.id, inputs);
  }
}

function registrationInput({ effectiveAccession, effectiveFiledAt, effectiveUrl, ...row }: ReturnType<typeof decodeRegistration>) {
  return { ...withSourceRef(row), effectiveSource: effectiveSourceRef(effectiveAccession, effectiveFiledAt, effectiveUrl) };
}

/** What babyShelfRoom (lib/ratings/engine.ts) reads of a company. */
export type BabyShelfInputs = Pick<RatingInputs, "asOf" | "latestFloat" | "registrations" | "offerings">;

/**
 * The baby-shelf room's inputs per company id as of `asOf`, for
 * /v1/registrations: the registrations the ratings read, the priced
 * offerings taken down off a registration (they name its file number) in the
 * 12 months before the day, and the latest float snapshot. One statement
 * however many companies (chunked past CHUNK_SIZE).
 */
export async function loadBabyShelfInputs(prisma: PrismaClient, companyIds: string[], asOf: Date): Promise<Map<string, BabyShelfInputs>> {
  const ids = [...new Set(companyIds)];
  const day = utcDayStart(asOf);
  const result = new Map<string, BabyShelfInputs>();
  for (let i = 0; i < ids.length; i += CHUNK_SIZE) {
    const chunk = ids.slice(i, i + CHUNK_SIZE);
    const rows = await prisma.$queryRaw<{ doc: string }[]>`
      SELECT json_build_object(
        'id', c.id,
        'registrations', ${capacityRegistrations(day)},
        'offerings', ${allRows(
          "offerings",
          "o",
          OFFERING_FIELDS,
          Prisma.sql`o.offering_date > ${dateParam(addMonths(day, -BABY_SHELF_SALES_WINDOW_MONTHS))} AND o.offering_date <= ${dateParam(day)} AND o.status = 'priced' AND o.file_number IS NOT NULL`,
          "o.offering_date, o.id",
        )},
        'float', ${latestFloat(day)}
      )::text AS doc
      FROM companies c
      WHERE ${companyIn(chunk)}`;
    for (const id of chunk) result.set(id, { asOf, registrations: [], offerings: [] });
    for (const { doc } of rows) {
      const c = JSON.parse(doc) as Pick<RatingDocument, "id" | "registrations" | "offerings" | "float">;
      const target = result.get(c.id);
      if (!target) continue;
      target.registrations.push(...(c.registrations ?? []).map((row) => registrationInput(decodeRegistration(row))));
      target.offerings.push(...(c.offerings ?? []).map((row) => withSourceRef(decodeOffering(row))));
      if (c.float) target.latestFloat = withSourceRef(decodeFloat(c.float));
    }
  }
  return result;
}

function effectiveSourceRef(accession: string | null, filedAt: Date | null, url: string | null): SourceRef | null {
  return accession && filedAt && url ? { accession, form: "EFFECT", filedAt, url } : null;
}
