/**
 * Loads the facts the ratings engine needs for many companies at once.
 *
 * One query per table (companies, financial reports, registrations,
 * offerings, instruments, deficiencies, float snapshots, reverse splits, the
 * latest close, the latest offering price), each filtered with
 * `company_id IN (…)`, whatever the number of companies (ids are chunked
 * only past CHUNK_SIZE to stay under the bind-parameter limit). Rows are
 * mapped to the engine's plain input types; facts dated after asOf are left
 * out, so a rating can be recomputed as of any past day.
 */
import { Prisma, type PrismaClient } from "@/lib/db";
import { offeringWindowStart } from "@/lib/ratings/engine";
import { isoDay, utcDayStart } from "@/lib/utils/dates";
import type { RatingInputs, SourceRef } from "@/lib/ratings/types";
import { SOURCE_COLUMNS, withSourceRef } from "./evidence";

/**
 * A Reg SHO threshold list older than this many days does not tell the
 * as-of day's status (lists are daily; weekends and holidays have none).
 */
export const REG_SHO_LIST_MAX_AGE_DAYS = 5;

/** What the ratings read of a registration; /v1/registrations serializes these and a few more (index.ts). */
export const REGISTRATION_RATING_COLUMNS = {
  companyId: true,
  formType: true,
  filedAt: true,
  effectiveAt: true,
  expiresAt: true,
  offeringAmountCents: true,
  isAtm: true,
  atmRemainingCents: true,
  babyShelfCapacityCents: true,
  babyShelfAsOf: true,
  atmRemainingAsOf: true,
  atmSoldCents: true,
  overBabyShelf: true,
  publicFloatCents: true,
  isEffective: true,
  fileNumber: true,
  effectiveAccession: true,
  effectiveFiledAt: true,
  effectiveUrl: true,
  ...SOURCE_COLUMNS,
} satisfies Prisma.RegistrationSelect;

/** What the ratings read of a warrant or convertible; /v1/dilution-data serializes these and a few more. */
export const INSTRUMENT_RATING_COLUMNS = {
  companyId: true,
  instrumentType: true,
  name: true,
  issuedAt: true,
  expiresAt: true,
  sharesUnderlying: true,
  exercisePriceMicros: true,
  remainingCents: true,
  conversionPriceMicros: true,
  preFunded: true,
  status: true,
  asOf: true,
  reportedTotal: true,
  ...SOURCE_COLUMNS,
} satisfies Prisma.DilutionInstrumentSelect;

/**
 * Offering types whose price is not a price the stock traded at: a warrant
 * exercise's is the exercise price, a convertible's the conversion price.
 */
const NOT_A_SHARE_PRICE = ["warrant_exercise", "convertible"];

/** Company ids per round of queries; PostgreSQL allows 65,535 bind parameters. */
export const CHUNK_SIZE = 10_000;

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
  const inIds = { in: ids };

  const [companies, financials, registrations, offerings, instruments, deficiencies, floats, splits, closes, offeringPrices, regSho] = await Promise.all([
    prisma.company.findMany({ where: { id: inIds }, select: { id: true, ticker: true } }),
    // The latest report per company by period end, among those filed by asOf.
    prisma.financialReport.findMany({
      where: { companyId: inIds, periodEnd: { lte: day }, filedAt: { lte: day } },
      orderBy: [{ companyId: "asc" }, { periodEnd: "desc" }],
      distinct: ["companyId"],
      select: {
        companyId: true,
        periodEnd: true,
        cashCents: true,
        quarterlyBurnCents: true,
        debtCents: true,
        regSho: true,
        goingConcern: true,
        goingConcernAccession: true,
        ...SOURCE_COLUMNS,
      },
    }),
    // All registrations filed by asOf (expired ones explain "shelf expired on …") that can raise money for the
    // company: not a resale registration, nor a registration statement for one offering (those are offerings).
    prisma.registration.findMany({
      where: { companyId: inIds, filedAt: { lte: day }, isResale: false, OR: [{ isShelf: null }, { isShelf: true }] },
      orderBy: [{ companyId: "asc" }, { filedAt: "asc" }, { id: "asc" }],
      select: REGISTRATION_RATING_COLUMNS,
    }),
    // Offerings inside the frequency window only.
    prisma.offering.findMany({
      where: { companyId: inIds, offeringDate: { gte: offeringWindowStart(asOf), lte: day }, status: "priced" },
      orderBy: [{ companyId: "asc" }, { offeringDate: "asc" }, { id: "asc" }],
      select: { companyId: true, offeringDate: true, offeringType: true, amountCents: true, shares: true, ...SOURCE_COLUMNS },
    }),
    // Warrants and convertibles issued by asOf and not expired on it, in any ledger state (the engine reads the state's day).
    prisma.dilutionInstrument.findMany({
      where: {
        companyId: inIds,
        issuedAt: { lte: day },
        OR: [{ expiresAt: null }, { expiresAt: { gt: day } }],
      },
      orderBy: [{ companyId: "asc" }, { issuedAt: "asc" }, { id: "asc" }],
      select: INSTRUMENT_RATING_COLUMNS,
    }),
    // All deficiencies noticed by asOf: resolved ones feed the "last resolved" text.
    prisma.complianceDeficiency.findMany({
      where: { companyId: inIds, noticeDate: { lte: day } },
      orderBy: [{ companyId: "asc" }, { noticeDate: "asc" }, { id: "asc" }],
      select: { companyId: true, deficiency: true, status: true, noticeDate: true, deadline: true, resolvedAt: true, ...SOURCE_COLUMNS },
    }),
    // The latest float snapshot per company on or before asOf.
    prisma.floatSnapshot.findMany({
      where: { companyId: inIds, asOf: { lte: day } },
      orderBy: [{ companyId: "asc" }, { asOf: "desc" }],
      distinct: ["companyId"],
      select: {
        companyId: true,
        asOf: true,
        floatShares: true,
        outstandingShares: true,
        priceMicros: true,
        marketCapCents: true,
        publicFloatCents: true,
        ...SOURCE_COLUMNS,
      },
    }),
    // Reverse splits of the lookback window (they weigh on the overall rating).
    prisma.reverseSplit.findMany({
      // every split by the day: the recent ones weigh on the rating, and all of them move an older offering price to today's basis
      where: { companyId: inIds, effectiveDate: { lte: day } },
      orderBy: [{ companyId: "asc" }, { effectiveDate: "asc" }],
      select: { companyId: true, effectiveDate: true, oldShares: true, newShares: true, ...SOURCE_COLUMNS },
    }),
    latestCloses(prisma, ids, day),
    // The latest priced offering that states a price per share: the warrants' price when no market price is on file.
    prisma.offering.findMany({
      where: {
        companyId: inIds,
        offeringDate: { lte: day },
        status: "priced",
        priceMicros: { gt: 0 },
        offeringType: { notIn: NOT_A_SHARE_PRICE },
      },
      orderBy: [{ companyId: "asc" }, { offeringDate: "desc" }, { id: "asc" }],
      distinct: ["companyId"],
      select: { companyId: true, offeringDate: true, priceMicros: true, ...SOURCE_COLUMNS },
    }),
    regShoOn(prisma, ids, day),
  ]);

  const chunk = new Map<string, RatingInputs>();
  for (const c of companies) {
    chunk.set(c.id, {
      ticker: c.ticker,
      asOf,
      registrations: [],
      offerings: [],
      instruments: [],
      deficiencies: [],
      reverseSplits: [],
    });
  }

  for (const { companyId, ...row } of financials) {
    const target = chunk.get(companyId);
    if (target && !target.latestFinancials) target.latestFinancials = withSourceRef(row);
  }
  for (const { companyId, ...row } of floats) {
    const target = chunk.get(companyId);
    if (target && !target.latestFloat) target.latestFloat = withSourceRef(row);
  }
  for (const { companyId, effectiveAccession, effectiveFiledAt, effectiveUrl, ...row } of registrations) {
    chunk.get(companyId)?.registrations.push({ ...withSourceRef(row), effectiveSource: effectiveSourceRef(effectiveAccession, effectiveFiledAt, effectiveUrl) });
  }
  for (const { companyId, ...row } of offerings) chunk.get(companyId)?.offerings.push(withSourceRef(row));
  for (const { companyId, asOf: statusAsOf, ...row } of instruments) chunk.get(companyId)?.instruments.push(withSourceRef({ ...row, statusAsOf }));
  for (const { companyId, ...row } of splits) chunk.get(companyId)?.reverseSplits?.push(withSourceRef(row));
  for (const { companyId, date, closeMicros } of closes) {
    const target = chunk.get(companyId);
    if (target) target.latestClose = { date, closeMicros };
  }
  for (const { companyId, offeringDate, priceMicros, ...row } of offeringPrices) {
    const target = chunk.get(companyId);
    if (target && priceMicros !== null && !target.latestOfferingPrice) {
      target.latestOfferingPrice = withSourceRef({ ...row, offeringDate, priceMicros });
    }
  }
  for (const { companyId, ...row } of deficiencies) chunk.get(companyId)?.deficiencies.push(withSourceRef(row));
  if (regSho) {
    for (const [id, inputs] of chunk) inputs.regSho = regSho.listed.has(id);
  }

  for (const [id, value] of chunk) into.set(id, value);
}

/** The latest daily close on or before the day, per company (DISTINCT ON: one row each, from the primary key's index). */
async function latestCloses(prisma: PrismaClient, ids: string[], day: Date): Promise<{ companyId: string; date: Date; closeMicros: bigint }[]> {
  const rows = await prisma.$queryRaw<{ company_key: string; day: string; close_micros: bigint | number | string }[]>`
    SELECT DISTINCT ON (p.company_id) p.company_id::text AS company_key, to_char(p.date, 'YYYY-MM-DD') AS day, p.close_micros
    FROM daily_prices p
    WHERE p.company_id IN (${Prisma.join(ids.map((id) => Prisma.sql`${id}::uuid`))}) AND p.date <= ${isoDay(day)}::date
    ORDER BY p.company_id, p.date DESC`;
  return rows.map((r) => ({ companyId: r.company_key, date: new Date(`${r.day}T00:00:00Z`), closeMicros: BigInt(r.close_micros) }));
}

function effectiveSourceRef(accession: string | null, filedAt: Date | null, url: string | null): SourceRef | null {
  return accession && filedAt && url ? { accession, form: "EFFECT", filedAt, url } : null;
}

/**
 * Reg SHO status on the as-of day from the imported threshold lists: null
 * when no list of the last REG_SHO_LIST_MAX_AGE_DAYS days was imported (the
 * ratings then use the report's flag, or say unknown); otherwise the
 * companies on the latest such list.
 */
async function regShoOn(prisma: PrismaClient, ids: string[], day: Date): Promise<{ listed: Set<string> } | null> {
  const oldest = new Date(day.getTime() - REG_SHO_LIST_MAX_AGE_DAYS * 86_400_000);
  const list = await prisma.regShoListDay.findFirst({
    where: { listDate: { lte: day, gt: oldest } },
    orderBy: { listDate: "desc" },
    select: { listDate: true },
  });
  if (!list) return null;
  const rows = await prisma.regShoThreshold.findMany({
    where: { companyId: { in: ids }, listDate: list.listDate },
    select: { companyId: true },
  });
  return { listed: new Set(rows.map((r) => r.companyId)) };
}
