import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { computeDilutionRating } from "@/lib/ratings/engine";
import { openTestDatabase } from "@/tests/support/database";
import { importDataset } from "../import";
import { validateRecords } from "../import/validate";
import { loadRatingInputs } from "../records/rating-inputs";
import type { CompanyFacts } from "./facts";
import type { Filing } from "./filings";
import { mapCompany, PERIODIC_READER_VERSION, type DocumentFacts } from "./map";
import { periodicReading, testFiling } from "./periodic-reading.fixture";

/**
 * Going concern from a periodic report's text when the XBRL facts give no
 * financial report of its period (a filer without XBRL facts for it, an IFRS
 * filer): mapCompany makes the period's financial report from the periodic
 * report itself, the import takes it with its cash unknown, and the rating
 * raises cash need for it without losing the cash of the report before.
 */
const DOUBT = "These conditions raise substantial doubt about the Company's ability to continue as a going concern within one year after the date that the financial statements are issued.";

const filing = (form: string, accessionNumber: string, filedAt: string, reportDate: string | null) => testFiling(form, accessionNumber, filedAt, null, "", reportDate);

function periodic(form: string, period: string | null, going_concern: boolean | null): DocumentFacts {
  const evidence: Record<string, string> = going_concern === null ? {} : { going_concern: going_concern ? DOUBT : "The financial statements have been prepared assuming the Company will continue as a going concern." };
  return { periodic: { ...periodicReading(period, { form, company: "Test Co", going_concern }, evidence), reader: PERIODIC_READER_VERSION } };
}

function map(ticker: string, filings: Filing[], documents: Record<string, DocumentFacts>, facts: CompanyFacts | null = null) {
  return mapCompany({
    ticker,
    exchange: "Nasdaq",
    today: "2025-06-15",
    index: { cik: "0000000001", name: "Test Co", sic: null, sicDescription: null, tickers: [ticker], exchanges: ["Nasdaq"], filings, olderPages: [] },
    facts,
    xbrl: null,
    documents: new Map(Object.entries(documents)),
  });
}

const tenK = filing("10-K", "0000000001-25-000010", "2025-04-15", "2024-12-31");
/** XBRL facts of the quarter before (2024-09-30): cash and burn, nothing for 2024-12-31. */
const priorQuarter = {
  reports: [
    {
      periodEnd: "2024-09-30",
      filedAt: "2024-11-12",
      cashCents: 150_000_000n,
      operatingCashFlowCents: -45_000_000n,
      debtCents: null,
      evidence: { accession: "0000000001-24-000020", form: "10-Q", filedAt: "2024-11-12" },
    },
  ],
  shares: [],
} as unknown as CompanyFacts;

describe("going concern without XBRL facts of the period", () => {
  it("makes the 10-K's period a financial report of its own: going concern and its quote, the 10-K its source, cash unknown", () => {
    const { dataset, notes } = map("TEST", [tenK], { [tenK.accessionNumber]: periodic("10-K", "2024-12-31", true) });
    expect(notes).toContain("no XBRL company facts: cash, burn and shares unknown");
    expect(dataset.financial_reports).toEqual([
      {
        ticker: "TEST",
        period_end: "2024-12-31",
        filed_at: "2025-04-15",
        cash_cents: null,
        quarterly_burn_cents: null,
        operating_cash_flow_cents: null,
        debt_cents: null,
        reg_sho: null,
        going_concern: true,
        going_concern_accession: tenK.accessionNumber,
        quotes: { going_concern: DOUBT },
        source_accession: tenK.accessionNumber,
        source_form: "10-K",
        source_filed_at: "2025-04-15",
        source_url: "https://www.sec.gov/Archives/edgar/data/1/000000000125000010/0000000001-25-000010-index.htm",
      },
    ]);
    expect(validateRecords(dataset).errors).toEqual([]);
    // A report that states neither its cash nor going concern says nothing: the import refuses it.
    const empty = { ...dataset, financial_reports: [{ ticker: "TEST", period_end: "2024-12-31", filed_at: "2025-04-15" }] };
    expect(JSON.stringify(validateRecords(empty).errors)).toContain("required unless going_concern is stated");
  });

  it("puts it on the XBRL report when the period has one, and adds one only for a period that has none", () => {
    const q3 = filing("10-Q", "0000000001-24-000020", "2024-11-12", "2024-09-30");
    const { dataset } = map("TEST", [q3, tenK], { [q3.accessionNumber]: periodic("10-Q", "2024-09-30", false), [tenK.accessionNumber]: periodic("10-K", "2024-12-31", true) }, priorQuarter);
    expect(dataset.financial_reports.map((f) => [f.period_end, f.cash_cents, f.going_concern, f.source_accession])).toEqual([
      ["2024-09-30", "150000000", false, q3.accessionNumber],
      ["2024-12-31", null, true, tenK.accessionNumber],
    ]);
    expect(validateRecords(dataset).errors).toEqual([]);
  });

  it("an IFRS filer's 20-F too; nothing from a report that states neither, or whose period ends after it was filed", () => {
    const twentyF = filing("20-F", "0000000001-25-000030", "2025-04-30", null);
    expect(map("TEST", [twentyF], { [twentyF.accessionNumber]: periodic("20-F", "2024-12-31", true) }).dataset.financial_reports).toEqual([
      expect.objectContaining({ period_end: "2024-12-31", going_concern: true, source_form: "20-F", cash_cents: null }),
    ]);
    expect(map("TEST", [tenK], { [tenK.accessionNumber]: periodic("10-K", "2024-12-31", null) }).dataset.financial_reports).toEqual([]);
    expect(map("TEST", [tenK], { [tenK.accessionNumber]: periodic("10-K", "2025-12-31", true) }).dataset.financial_reports).toEqual([]);
    // A report stating no doubt is recorded too (it lifts an earlier one's), without a quote.
    expect(map("TEST", [tenK], { [tenK.accessionNumber]: periodic("10-K", "2024-12-31", false) }).dataset.financial_reports).toEqual([
      expect.objectContaining({ going_concern: false, quotes: null }),
    ]);
  });
});

describe("the import and the rating take it", () => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db?.close());

  it("stores it with cash unknown; the rating keeps the prior report's cash and raises cash need for the doubt", async () => {
    const q3 = filing("10-Q", "0000000001-24-000020", "2024-11-12", "2024-09-30");
    const ticker = `GC${Math.random().toString(36).slice(2, 7).toUpperCase()}`;
    const { dataset } = map(ticker, [q3, tenK], { [q3.accessionNumber]: periodic("10-Q", "2024-09-30", null), [tenK.accessionNumber]: periodic("10-K", "2024-12-31", true) }, priorQuarter);
    const report = await importDataset(db.prisma, dataset);
    expect(report.errors).toEqual([]);
    const company = await db.prisma.company.findUniqueOrThrow({ where: { ticker } });
    const stored = await db.prisma.financialReport.findMany({ where: { companyId: company.id }, orderBy: { periodEnd: "asc" } });
    expect(stored.map((f) => [f.cashCents, f.goingConcern])).toEqual([
      [150_000_000n, null],
      [null, true],
    ]);

    const inputs = (await loadRatingInputs(db.prisma, [company.id], new Date("2025-06-15T12:00:00Z"))).get(company.id)!;
    const rating = computeDilutionRating(inputs);
    // $1.5M at the 2024-09-30 burn of $450K a quarter, 258 days on: about $224K, 1.5 months (High either way); the doubt is the 10-K's.
    expect(rating.going_concern).toBe(true);
    expect(rating.cash_burn).toBe(450_000);
    expect(rating.estimated_cash).not.toBeNull();
    expect(rating.cash_need).toBe("High");
    expect(rating.cash_need_desc).toContain("reported for the period ended 2024-09-30");
    expect(rating.cash_need_desc).toContain(`the report for the period ended 2024-12-31 (${tenK.accessionNumber}) states substantial doubt`);
  });
});
