import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { isPostgres, openTestDatabase } from "@/tests/support/database";
import {
  formatImportError,
  importDataset,
  loadSampleData,
  CsvReader,
  importFileText,
  openImportFile,
  parseCsv,
  readAll,
  type ImportReport,
} from "@/lib/data/import";
import { IMPORT_KINDS, type ImportKind } from "./schema";
import { generateSampleDataset, SAMPLE_SHOWCASE } from "../sample";

const FIXTURES = path.join(process.cwd(), "tests", "fixtures", "import");
const fixture = (name: string) => readFile(path.join(FIXTURES, name), "utf8");
/** A file's records and problems as its source reads them. */
const readFile_ = async (name: string, text: string) => ({ format: (await importFileText(name, text)).format, ...(await readAll(await importFileText(name, text))) });

const TABLES: Record<ImportKind, string> = {
  companies: "companies",
  financial_reports: "financial_reports",
  registrations: "registrations",
  offerings: "offerings",
  dilution_instruments: "dilution_instruments",
  instrument_states: "instrument_states",
  compliance_deficiencies: "compliance_deficiencies",
  float_snapshots: "float_snapshots",
  reverse_splits: "reverse_splits",
  daily_prices: "daily_prices",
  reg_sho_thresholds: "reg_sho_thresholds",
};

let db: Database;

beforeAll(async () => {
  db = await openTestDatabase();
});

afterAll(async () => {
  await db?.close();
});

beforeEach(async () => {
  await db.prisma.$executeRawUnsafe(`TRUNCATE "companies" CASCADE`);
});

/** Every row of every data table, ids and timestamps included. */
async function snapshot() {
  const out: Record<string, unknown[]> = {};
  for (const table of Object.values(TABLES)) out[table] = await db.prisma.$queryRawUnsafe(`SELECT * FROM "${table}" ORDER BY 1, 2`);
  return out;
}

async function rowCounts() {
  const out: Record<string, number> = {};
  for (const table of Object.values(TABLES)) {
    const [row] = await db.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${table}"`);
    out[table] = row!.n;
  }
  return out;
}

function expectCounts(report: ImportReport, expected: Partial<Record<ImportKind, [created: number, updated: number, unchanged: number]>>) {
  expect(report.errors).toEqual([]);
  expect(report.ok).toBe(true);
  for (const kind of IMPORT_KINDS) {
    const [created, updated, unchanged] = expected[kind] ?? [0, 0, 0];
    expect(report.counts[kind], kind).toEqual({ received: created + updated + unchanged, created, updated, unchanged });
  }
}

const company = (ticker: string) => ({ ticker, name: `${ticker} Corp.`, exchange: "NASDAQ" });
const offering = (ticker: string, accession: string, amount: number | string = 100_000) => ({
  ticker,
  accession_number: accession,
  offering_date: "2026-03-02",
  offering_type: "pipe",
  amount_cents: amount,
});

describe("JSON import", () => {
  it("imports every kind with exact values", async () => {
    const text = await fixture("small.json");
    expect((await readFile_("small.json", text)).errors).toEqual([]);
    const report = await importDataset(db.prisma, await importFileText("small.json", text));
    expectCounts(report, {
      companies: [2, 0, 0],
      financial_reports: [2, 0, 0],
      registrations: [2, 0, 0],
      offerings: [2, 0, 0],
      dilution_instruments: [2, 0, 0],
      compliance_deficiencies: [2, 0, 0],
      float_snapshots: [1, 0, 0],
    });

    const fixa = await db.prisma.company.findUniqueOrThrow({
      where: { ticker: "FIXA" }, // upper-cased on input
      include: { financials: true, registrations: true, offerings: true, instruments: true, deficiencies: true, floats: true },
    });
    expect(fixa).toMatchObject({ name: "Fixture Alpha Therapeutics Inc.", exchange: "NASDAQ", isSample: false });
    expect(fixa.financials[0]).toMatchObject({
      periodEnd: new Date("2026-06-30T00:00:00Z"),
      cashCents: 1_250_000_000n,
      quarterlyBurnCents: 450_000_000n,
      debtCents: 0n,
      regSho: false,
    });
    const atm = fixa.registrations.find((r) => r.isAtm)!;
    // The file does not state over_baby_shelf: it is stored as unknown, not as false.
    expect(atm).toMatchObject({ atmRemainingCents: 0n, offeringAmountCents: 1_300_000_000n, overBabyShelf: null, isEffective: true });
    const deal = fixa.offerings.find((o) => o.offeringType === "registered_direct")!;
    expect(deal).toMatchObject({ shares: 2_000_000n, priceMicros: 1_250_000n, amountCents: 250_000_000n, warrantPriceMicros: 1_400_000n });
    expect(fixa.offerings.find((o) => o.offeringType === "atm")).toMatchObject({ shares: null, priceMicros: null, underwriter: null });
    expect(fixa.deficiencies[0]!.statusUpdates).toEqual([{ date: "2026-07-01", text: "Received a Nasdaq deficiency letter (Listing Rule 5550(a)(2))." }]);
    expect(fixa.floats[0]).toMatchObject({ floatShares: 30_000_000n, marketCapCents: 3_060_000_000n, insiderOwnershipBps: 1176 });

    const fixb = await db.prisma.company.findUniqueOrThrow({ where: { ticker: "FIX.B" }, include: { financials: true, deficiencies: true, instruments: true } });
    expect(fixb.sector).toBeNull();
    expect(fixb.financials[0]!.cashCents).toBe(98_765_432_101_234_567n); // beyond 2^53, given as a digit string
    expect(fixb.deficiencies[0]).toMatchObject({ deficiency: "", status: "resolved", risk: "Low", statusUpdates: [], deadline: null });
    expect(fixb.instruments[0]).toMatchObject({ principalCents: 250_000_000n, remainingCents: 200_000_000n });
  });

  it("importing the same file twice changes nothing: counts and rows", async () => {
    const text = await fixture("small.json");
    await importDataset(db.prisma, await importFileText("small.json", text));
    const before = await snapshot();
    const again = await importDataset(db.prisma, await importFileText("small.json", text));
    expectCounts(again, {
      companies: [0, 0, 2],
      financial_reports: [0, 0, 2],
      registrations: [0, 0, 2],
      offerings: [0, 0, 2],
      dilution_instruments: [0, 0, 2],
      compliance_deficiencies: [0, 0, 2],
      float_snapshots: [0, 0, 1],
    });
    expect(await snapshot()).toEqual(before); // ids, values and updated_at alike
  });

  it("updates only the records that changed", async () => {
    const text = await fixture("small.json");
    await importDataset(db.prisma, await importFileText("small.json", text));
    const before = await db.prisma.company.findMany({ orderBy: { ticker: "asc" } });
    const changed = text
      .replace("Fixture Beta Mining Corp.", "Fixture Beta Mining Corporation")
      .replace('"reg_sho": false', '"reg_sho": true');
    const report = await importDataset(db.prisma, await importFileText("small.json", changed));
    expectCounts(report, {
      companies: [0, 1, 1],
      financial_reports: [0, 1, 1],
      registrations: [0, 0, 2],
      offerings: [0, 0, 2],
      dilution_instruments: [0, 0, 2],
      compliance_deficiencies: [0, 0, 2],
      float_snapshots: [0, 0, 1],
    });
    const after = await db.prisma.company.findMany({ orderBy: { ticker: "asc" } });
    const [beta, alpha] = [after.find((c) => c.ticker === "FIX.B")!, after.find((c) => c.ticker === "FIXA")!];
    expect(beta.name).toBe("Fixture Beta Mining Corporation");
    expect(beta.id).toBe(before.find((c) => c.ticker === "FIX.B")!.id);
    expect(beta.updatedAt.getTime()).toBeGreaterThanOrEqual(before.find((c) => c.ticker === "FIX.B")!.updatedAt.getTime());
    expect(alpha).toEqual(before.find((c) => c.ticker === "FIXA")); // untouched, updated_at included
  });

  it("accepts { kind, records } and reports the line where each bad record starts", async () => {
    await importDataset(db.prisma, { companies: [company("KRA")] });
    const text = [
      "{",
      '  "kind": "offerings",',
      '  "records": [',
      `    ${JSON.stringify(offering("KRA", "K-1"))},`,
      "    {",
      '      "ticker": "KRA", "accession_number": "K-2", "offering_date": "2026-03-02",',
      '      "offering_type": "pipe", "amount_cents": 1.5',
      "    },",
      `    ${JSON.stringify(offering("kra", "K-3"))}`,
      "  ]",
      "}",
    ].join("\n");
    const before = await snapshot();
    const report = await importDataset(db.prisma, await importFileText("deals.json", text));
    expect(report.ok).toBe(false);
    expect(report.errors).toEqual([
      expect.objectContaining({ line: 5, kind: "offerings", index: 1, field: "amount_cents", message: "must be a whole number of cents, got 1.5" }),
    ]);
    expect(report.errors.map(formatImportError)).toEqual(["line 5: amount_cents: must be a whole number of cents, got 1.5 (offerings[1])"]);
    expect(report.counts.offerings).toEqual({ received: 3, created: 0, updated: 0, unchanged: 0 });
    expect(await snapshot()).toEqual(before);

    const fixed = await importDataset(db.prisma, await importFileText("deals.json", text.replace("1.5", "150")));
    expectCounts(fixed, { offerings: [3, 0, 0] });
  });

  it("a file with one bad row among good ones writes nothing", async () => {
    const good = generateSampleDataset({ tickerCount: 12 });
    const bad = structuredClone(good);
    bad.float_snapshots[30]!.float_shares = Number(bad.float_snapshots[30]!.outstanding_shares) + 1;
    const text = JSON.stringify(bad, null, 2);
    const report = await importDataset(db.prisma, await importFileText("sample.json", text));
    expect(report.ok).toBe(false);
    expect(report.errors).toHaveLength(1);
    const [error] = report.errors;
    expect(error).toMatchObject({ kind: "float_snapshots", index: 30, field: "float_shares", message: "must not exceed outstanding_shares" });
    // The reported line is where that record starts.
    const lines = text.split("\n");
    expect(lines[error!.line! - 1]!.trim()).toBe("{");
    expect(lines[error!.line!]).toContain(`"ticker": "${bad.float_snapshots[30]!.ticker}"`);
    expect(lines[error!.line! + 1]).toContain(`"as_of": "${bad.float_snapshots[30]!.as_of}"`);
    expect(await rowCounts()).toEqual(Object.fromEntries(Object.values(TABLES).map((t) => [t, 0])));
  });

  it("reports every bad field of every bad record at once", async () => {
    const report = await importDataset(db.prisma, {
      companies: [company("GOOD"), { ticker: "bad ticker!", name: "", exchange: "NASDAQ", extra: 1 }, "not an object"],
      financial_reports: [
        { ticker: "GOOD", period_end: "2026-13-01", filed_at: "2026-02-29", cash_cents: "12e3", quarterly_burn_cents: -1 },
        { ticker: "GOOD", period_end: "2026-06-30", filed_at: "2026-08-01", cash_cents: 9_007_199_254_740_993, quarterly_burn_cents: 0 },
        { ticker: "GOOD", period_end: "2026-03-31", filed_at: "2026-03-01", cash_cents: 1, quarterly_burn_cents: 0 },
      ],
      compliance_deficiencies: [{ ticker: "GOOD", status: "open", risk: "severe", notice_date: "2026-01-01", status_updates: [{ date: "2026-1-2" }] }],
    });
    expect(report.ok).toBe(false);
    const shown = report.errors.map(formatImportError);
    expect(shown).toEqual(
      expect.arrayContaining([
        "companies[1]: ticker: must be 1–10 characters: letters, digits, '.' or '-'",
        "companies[1]: name: must not be empty",
        "companies[1]: extra: unknown field",
        "companies[2]: must be an object of fields",
        "financial_reports[0]: period_end: is not a real calendar date: 2026-13-01",
        "financial_reports[0]: filed_at: is not a real calendar date: 2026-02-29",
        'financial_reports[0]: cash_cents: must be a whole number of cents (digits only), got "12e3"',
        "financial_reports[0]: quarterly_burn_cents: must not be negative",
        "financial_reports[2]: filed_at: must not be before period_end (2026-03-31)",
        'compliance_deficiencies[0]: status: must be one of active, resolved, got "open"',
        'compliance_deficiencies[0]: risk: must be one of Low, Medium, High, got "severe"',
        'compliance_deficiencies[0]: status_updates[0].date: must be a date "YYYY-MM-DD", got "2026-1-2"',
        "compliance_deficiencies[0]: status_updates[0].text: is required",
      ]),
    );
    expect(shown.some((s) => s.startsWith("financial_reports[1]: cash_cents:") && s.includes("beyond 2^53"))).toBe(true);
    expect(await rowCounts()).toMatchObject({ companies: 0 });
  });

  it("rejects a ticker that is neither in the file nor in the database", async () => {
    const report = await importDataset(db.prisma, { companies: [company("AAA")], offerings: [offering("AAA", "A-1"), offering("ZZZ", "Z-1")] });
    expect(report.ok).toBe(false);
    expect(report.errors.map(formatImportError)).toEqual([
      "offerings[1]: ticker: unknown ticker ZZZ: not among this file's companies nor in the database",
    ]);
    expect(await rowCounts()).toMatchObject({ companies: 0, offerings: 0 });

    // Once the company is in the database, a file of offerings alone may name it.
    expectCounts(await importDataset(db.prisma, { companies: [company("ZZZ")] }), { companies: [1, 0, 0] });
    expectCounts(await importDataset(db.prisma, { offerings: [offering("zzz", "Z-1")] }), { offerings: [1, 0, 0] });
  });

  it("reports a bad company row once, not again for every record naming it", async () => {
    const report = await importDataset(db.prisma, {
      companies: [{ ticker: "BADCO", name: "Bad Co", exchange: "" }],
      offerings: [offering("BADCO", "B-1"), offering("BADCO", "B-2")],
    });
    expect(report.errors.map(formatImportError)).toEqual(["companies[0]: exchange: must not be empty"]);
  });

  it("rejects duplicate natural keys inside the file", async () => {
    const report = await importDataset(db.prisma, {
      companies: [company("DUP"), company("dup")],
      offerings: [offering("DUP", "X-1"), offering("DUP", "X-1", 5)],
      float_snapshots: [
        { ticker: "DUP", as_of: "2026-01-31", float_shares: 1, outstanding_shares: 2 },
        { ticker: "dup", as_of: "2026-01-31", float_shares: 1, outstanding_shares: 3 },
      ],
    });
    expect(report.ok).toBe(false);
    expect(report.errors.map(formatImportError)).toEqual([
      'companies[1]: ticker: duplicate record (ticker "DUP"): the same key is on companies[0]',
      'offerings[1]: accession_number: duplicate record (accession_number "X-1"): the same key is on offerings[0]',
      'float_snapshots[1]: ticker, as_of: duplicate record (ticker "DUP", as_of "2026-01-31"): the same key is on float_snapshots[0]',
    ]);
    expect(await rowCounts()).toMatchObject({ companies: 0 });
  });

  it("reports JSON syntax errors and unknown kinds with their lines", async () => {
    const brokenText = '{\n  "companies": [\n    {"ticker": "A", "name": "x" "exchange": "N"}\n  ]\n}';
    const broken = await readFile_("x.json", brokenText);
    expect(broken.errors.map(formatImportError)).toEqual(["line 3: invalid JSON: expected ',' or '}' after a property value (column 33)"]);
    const unknown = await readFile_("x.json", '{\n  "companies": [],\n  "ofrerings": []\n}');
    expect(unknown.errors.map(formatImportError)).toEqual([
      "line 3: ofrerings: unknown record kind; expected one of companies, financial_reports, registrations, offerings, dilution_instruments, instrument_states, compliance_deficiencies, float_snapshots, reverse_splits, daily_prices, reg_sho_thresholds",
    ]);
    expect((await readFile_("x.json", "[]")).errors[0]!.message).toMatch(/must be a JSON object/);
    const report = await importDataset(db.prisma, await importFileText("x.json", brokenText));
    expect(report.ok).toBe(false);
  });

  it("validates everything but writes nothing on a dry run", async () => {
    const report = await importDataset(db.prisma, await importFileText("small.json", await fixture("small.json")), { dryRun: true });
    expect(report).toMatchObject({ ok: true, dryRun: true });
    expect(report.counts.companies).toEqual({ received: 2, created: 2, updated: 0, unchanged: 0 });
    expect(await rowCounts()).toMatchObject({ companies: 0, offerings: 0 });
  });
});

  it("stores the terms a filing states with the quote of each, and refuses a quote for a field the record does not have", async () => {
    const pending = {
      ...offering("AAA", "0000000001-26-000011"),
      offering_type: "best_efforts",
      status: "pending",
      amount_cents: null,
      anticipated_amount_cents: 1_500_000_000,
      fee_bps: 700,
      agent_role: "placement_agent",
      quotes: { anticipated_amount: "Proposed Maximum Aggregate Offering Price $ 15,000,000", fee_percent: "a cash fee equal to 7.0% of the aggregate gross proceeds" },
    };
    const report = await importDataset(db.prisma, {
      companies: [company("AAA")],
      offerings: [pending],
      dilution_instruments: [
        { ticker: "AAA", instrument_type: "warrant", name: "Pre-funded", issued_at: "2026-03-02", shares_underlying: 10, pre_funded: "yes", registered: true, quotes: { registered: "pre-funded warrants offered hereby" } },
      ],
    });
    expect(report.errors).toEqual([]);
    const stored = await db.prisma.offering.findUniqueOrThrow({ where: { accessionNumber: "0000000001-26-000011" } });
    expect(stored).toMatchObject({ status: "pending", amountCents: null, anticipatedAmountCents: 1_500_000_000n, feeBps: 700, agentRole: "placement_agent" });
    expect(stored.quotes).toEqual(pending.quotes);
    expect(await db.prisma.dilutionInstrument.findFirstOrThrow()).toMatchObject({ preFunded: true, registered: true });

    const refused = await importDataset(db.prisma, {
      offerings: [
        { ...pending, quotes: { strike: "at $4.00" } },
        { ...offering("AAA", "0000000001-26-000012"), status: "priced", withdrawn_at: "2026-04-01" },
      ],
    });
    expect(refused.errors.map(formatImportError)).toEqual([
      expect.stringMatching(/^offerings\[0\]: quotes\.strike: /),
      "offerings[1]: withdrawn_at: is only allowed when status is withdrawn",
    ]);
  });

  it("stores an instrument's holders and placement agent with their quotes, and refuses more than five holders, a repeated or over-long name", async () => {
    const warrant = {
      ticker: "AAA",
      instrument_type: "warrant",
      name: "Common warrants",
      issued_at: "2026-03-02",
      shares_underlying: 1000,
      holders: ["Example Capital Master Fund Ltd.", "Second Street Partners LP"],
      placement_agent: "Example Securities & Co., LLC",
      quotes: {
        holders: "a securities purchase agreement with Example Capital Master Fund Ltd. and Second Street Partners LP (the “Purchasers”)",
        placement_agent: "Example Securities & Co., LLC acted as the exclusive placement agent",
      },
      source_accession: "0000000001-26-000009",
      source_form: "8-K",
      source_filed_at: "2026-03-03",
    };
    const unnamed = { ticker: "AAA", instrument_type: "warrant", name: "Pre-funded warrants", issued_at: "2026-03-02", shares_underlying: 10, holders: "", placement_agent: "" };
    expectCounts(await importDataset(db.prisma, { companies: [company("AAA")], dilution_instruments: [warrant, unnamed] }), { companies: [1, 0, 0], dilution_instruments: [2, 0, 0] });
    const stored = await db.prisma.dilutionInstrument.findMany({ orderBy: { name: "asc" }, select: { name: true, holders: true, placementAgent: true, quotes: true } });
    expect(stored).toEqual([
      { name: "Common warrants", holders: warrant.holders, placementAgent: warrant.placement_agent, quotes: warrant.quotes },
      { name: "Pre-funded warrants", holders: null, placementAgent: null, quotes: null },
    ]);
    // The same file again changes nothing; from CSV, the holders are the JSON text of the list.
    expectCounts(await importDataset(db.prisma, { companies: [company("AAA")], dilution_instruments: [warrant, unnamed] }), { companies: [0, 0, 1], dilution_instruments: [0, 0, 2] });
    const csvText = `ticker,instrument_type,name,issued_at,shares_underlying,holders,placement_agent\nAAA,warrant,Common warrants,2026-03-02,1000,"[""Example Capital Master Fund Ltd.""]",Example Securities & Co.\n`;
    expect((await readFile_("parties.dilution_instruments.csv", csvText)).errors).toEqual([]);
    expectCounts(await importDataset(db.prisma, await importFileText("parties.dilution_instruments.csv", csvText)), { dilution_instruments: [0, 1, 0] });
    expect(await db.prisma.dilutionInstrument.findFirstOrThrow({ where: { name: "Common warrants" } })).toMatchObject({ holders: ["Example Capital Master Fund Ltd."], placementAgent: "Example Securities & Co." });

    const six = ["A Fund", "B Fund", "C Fund", "D Fund", "E Fund", "F Fund"];
    const refused = await importDataset(db.prisma, {
      dilution_instruments: [
        { ...unnamed, name: "six", holders: six },
        { ...unnamed, name: "twice", holders: ["A Fund", "a fund"] },
        { ...unnamed, name: "long", holders: ["x".repeat(101)] },
        { ...unnamed, name: "empty", holders: [] },
        { ...unnamed, name: "agent", placement_agent: "y".repeat(101) },
        { ...unnamed, name: "quoted", quotes: { purchasers: "with A Fund" } },
      ],
    });
    expect(refused.errors.map(formatImportError)).toEqual([
      "dilution_instruments[0]: holders: must have at most 5 names",
      "dilution_instruments[1]: holders: must not name a holder twice",
      "dilution_instruments[2]: holders[0]: must be at most 100 characters",
      expect.stringMatching(/^dilution_instruments\[2\]: holders\[0\]: must be at most 100 bytes as JSON text/),
      "dilution_instruments[3]: holders: must name at least one holder (leave it empty when none is named)",
      "dilution_instruments[4]: placement_agent: must be at most 100 characters",
      expect.stringMatching(/^dilution_instruments\[4\]: placement_agent: must be at most 100 bytes as JSON text/),
      "dilution_instruments[5]: quotes.purchasers: unknown field",
    ]);
  });

  it("replacing one ticker's filing rows removes the ones the file no longer gives, and nothing else", async () => {
    const filed = (accession: string) => ({ source_accession: accession, source_form: "424B5", source_filed_at: "2026-03-02" });
    const warrant = (ticker: string, name: string) => ({
      ticker,
      instrument_type: "warrant",
      name,
      issued_at: "2026-03-02",
      shares_underlying: 1000,
      ...filed("0000000001-26-000009"),
    });
    await importDataset(db.prisma, {
      companies: [company("AAA"), company("BBB")],
      offerings: [
        { ...offering("AAA", "0000000001-26-000001"), ...filed("0000000001-26-000001") },
        { ...offering("AAA", "0000000001-26-000002"), ...filed("0000000001-26-000002") },
        offering("AAA", "0000000001-26-000003"), // imported by hand: no filing
        { ...offering("BBB", "0000000001-26-000004"), ...filed("0000000001-26-000004") },
      ],
      dilution_instruments: [warrant("AAA", "Series A"), warrant("AAA", "Series B"), warrant("BBB", "Series A")],
    });

    const report = await importDataset(
      db.prisma,
      {
        companies: [company("AAA")],
        offerings: [{ ...offering("AAA", "0000000001-26-000001"), ...filed("0000000001-26-000001") }],
        dilution_instruments: [warrant("AAA", " Series B ")],
      },
      { replaceFilingRowsOf: "AAA" },
    );

    expect(report.counts.offerings).toMatchObject({ received: 1, unchanged: 1, removed: 1 });
    expect(report.counts.dilution_instruments).toMatchObject({ received: 1, unchanged: 1, removed: 1 });
    const offerings = await db.prisma.$queryRawUnsafe<{ accession_number: string }[]>(`SELECT accession_number FROM "offerings" ORDER BY 1`);
    expect(offerings.map((o) => o.accession_number)).toEqual(["0000000001-26-000001", "0000000001-26-000003", "0000000001-26-000004"]);
    const warrants = await db.prisma.$queryRawUnsafe<{ name: string; ticker: string }[]>(
      `SELECT i.name, c.ticker FROM "dilution_instruments" i JOIN "companies" c ON c.id = i.company_id ORDER BY 2, 1`,
    );
    expect(warrants).toEqual([
      { name: "Series B", ticker: "AAA" },
      { name: "Series A", ticker: "BBB" },
    ]);
  });

describe("CSV import", () => {
  it("imports companies and offerings files (quoted commas, quotes, line breaks, blank lines)", async () => {
    const companies = await readFile_("companies.csv", await fixture("companies.csv"));
    expect(companies.errors).toEqual([]);
    expect(companies.lines.companies).toEqual([2, 3, 5]); // CSVB's quoted name spans lines 3–4
    expectCounts(await importDataset(db.prisma, await importFileText("companies.csv", await fixture("companies.csv"))), { companies: [3, 0, 0] });

    const offerings = await readFile_("sample.offerings.csv", await fixture("sample.offerings.csv"));
    expect(offerings.format).toBe("csv");
    expect(offerings.lines.offerings).toEqual([2, 3, 5]);
    expectCounts(await importDataset(db.prisma, await importFileText("sample.offerings.csv", await fixture("sample.offerings.csv"))), { offerings: [3, 0, 0] });

    const stored = await db.prisma.company.findMany({ orderBy: { ticker: "asc" }, include: { offerings: true } });
    expect(stored.map((c) => [c.ticker, c.name, c.exchange, c.sector, c.isSample])).toEqual([
      ["CSVA", 'Comma, Quote "Q" & Co. Inc.', "NASDAQ", "Software", false],
      ["CSVB", "Multi-line\nName Holdings Inc.", "NYSE American", null, false],
      ["CSVC", "Plain Corp.", "NASDAQ", "Biotechnology", false],
    ]);
    expect(stored[0]!.offerings[0]).toMatchObject({ underwriter: "Kestrel & Co.", formType: "424B4", shares: 1_000_000n, amountCents: 250_000_000n });
    expect(stored[1]!.offerings[0]).toMatchObject({ underwriter: null, offeringType: "pipe" });
    expect(stored[2]!.offerings[0]).toMatchObject({ shares: 100_000n, formType: null });

    // Twice: nothing changes.
    const before = await snapshot();
    expectCounts(await importDataset(db.prisma, await importFileText("companies.csv", await fixture("companies.csv"))), { companies: [0, 0, 3] });
    expectCounts(await importDataset(db.prisma, await importFileText("sample.offerings.csv", await fixture("sample.offerings.csv"))), { offerings: [0, 0, 3] });
    expect(await snapshot()).toEqual(before);
  });

  it("takes the kind from a kind column", async () => {
    await importDataset(db.prisma, await importFileText("companies.csv", await fixture("companies.csv")));
    const text = await fixture("floats-with-kind-column.csv");
    expect(Object.keys((await readFile_("upload.csv", text)).input)).toEqual(["float_snapshots"]);
    expectCounts(await importDataset(db.prisma, await importFileText("upload.csv", text)), { float_snapshots: [2, 0, 0] });
  });

  it("reports each bad row with its physical line and writes nothing", async () => {
    await importDataset(db.prisma, await importFileText("companies.csv", await fixture("companies.csv")));
    const before = await snapshot();
    const report = await importDataset(db.prisma, await importFileText("bad.offerings.csv", await fixture("bad.offerings.csv")));
    expect(report.ok).toBe(false);
    expect(report.errors.map(formatImportError)).toEqual([
      "line 3: offering_date: is not a real calendar date: 2026-02-30",
      'line 4: offering_type: must be one of public_offering, registered_direct, pipe, atm, warrant_exercise, convertible, best_efforts, ipo, rights, got "bought_deal"',
      "line 4: amount_cents: must not be negative",
      "line 5: ticker: unknown ticker NOPE: not among this file's companies nor in the database",
    ]);
    expect(await snapshot()).toEqual(before); // the good row on line 2 was not written either
  });

  it("parses RFC 4180 edge cases", () => {
    const text = 'a,b,c\r\n"x, y","say ""hi""",\r\n"",plain,"multi\r\nline"\r\n\r\nlast,"",z';
    expect(parseCsv(text)).toEqual([
      { line: 1, fields: ["a", "b", "c"], problems: [] },
      { line: 2, fields: ["x, y", 'say "hi"', ""], problems: [] },
      { line: 3, fields: ["", "plain", "multi\r\nline"], problems: [] },
      { line: 6, fields: ["last", "", "z"], problems: [] },
    ]);
    // LF only, a final line end, lone CR line ends.
    expect(parseCsv("a,b\n1,2\n").map((r) => r.fields)).toEqual([["a", "b"], ["1", "2"]]);
    expect(parseCsv("a,b\r1,2\r3,4").map((r) => [r.line, r.fields])).toEqual([[1, ["a", "b"]], [2, ["1", "2"]], [3, ["3", "4"]]]);
    // Malformed quoting is reported for its column.
    expect(parseCsv('a,b\n1,"open\n2,3\n')[1]!.problems[0]!.message).toMatch(/unterminated quoted field \(the quote opened on line 2/);
    expect(parseCsv('a,b\n"x"y,2')[1]!.problems).toEqual([{ column: 0, message: expect.stringMatching(/text after the closing quote/) }]);
    expect(parseCsv('a,b\n1,2"3')[1]!.problems).toEqual([{ column: 1, message: expect.stringMatching(/a quote inside an unquoted field/) }]);
  });

  it("reports malformed rows, headers and unknown kinds by line", async () => {
    const file = async (text: string, name = "offerings.csv") => (await readFile_(name, text)).errors.map(formatImportError);
    expect(await file('ticker,accession_number\nA,"B\nC",x\nD,E,F')).toEqual([
      "line 2: has 3 fields but the header has 2",
      "line 4: has 3 fields but the header has 2",
    ]);
    expect(await file("ticker,amount,ticker\n")).toEqual([
      "line 1: amount: unknown column for offerings; expected: ticker, accession_number, offering_date, offering_type, form_type, shares, price_micros, amount_cents, warrants_issued, warrant_price_micros, underwriter, file_number, status, prefunded_warrants, prefunded_price_micros, net_proceeds_cents, fee_bps, agent_role, overallotment_shares, anticipated_amount_cents, revised_amount_cents, withdrawn_at, quotes, source_accession, source_form, source_filed_at, source_url",
      "line 1: ticker: column appears twice",
    ]);
    expect(await file('ticker,name\nA,"x"y', "companies.csv")).toEqual(["line 2: name: text after the closing quote; double a quote inside a quoted field"]);
    expect((await file("ticker,name\nA,b", "upload.csv"))[0]).toMatch(/^line 1: cannot tell the record kind/);
    expect((await file("kind,ticker\noffering,A", "upload.csv"))[0]).toMatch(/^line 2: kind: unknown record kind "offering"/);
    expect(await file("kind,ticker\ncompanies,A", "x.offerings.csv")).toEqual(["line 2: kind: the kind column says companies but the file name says offerings"]);
    expect(await file("")).toEqual(["line 1: the file is empty: expected a header row of column names"]);
    expect((await readFile_("financial-reports.csv", "ticker\n")).errors).toEqual([]);
  });

  it("a file wrong throughout: a header of two million columns is one clear error, and a million bad rows list the first thousand and count the rest (both answered a stack overflow)", async () => {
    const wide = await readFile_("companies.csv", `ticker,${Array.from({ length: 2_000_000 }, (_, i) => `c${i}`).join(",")}\nX\n`);
    expect(wide.errors.map(formatImportError)).toEqual([expect.stringMatching(/^line 1: a record longer than 1,048,576 characters starts here/)]);
    const wideButShort = await readFile_("companies.csv", `ticker,${Array.from({ length: 5_000 }, (_, i) => `c${i}`).join(",")}\nX\n`);
    expect(wideButShort.errors.map(formatImportError)).toEqual([expect.stringMatching(/^line 1: the header has more than 1,000 columns; a companies file has at most \d+: ticker, /)]);

    const rows = `ticker,name\n${"A,b,c\n".repeat(1_000_000)}`;
    const report = await importDataset(db.prisma, await importFileText("companies.csv", rows), { dryRun: true });
    expect(report.ok).toBe(false);
    expect(report.errors).toHaveLength(1000);
    expect(report.unlistedErrors).toBe(999_000);
    expect(formatImportError(report.errors[0]!)).toBe("line 2: has 3 fields but the header has 2");
  }, 120_000);

  it("reads a CRLF file with a byte-order mark like the LF one", async () => {
    const lf = await fixture("sample.offerings.csv");
    const crlf = await readFile_("sample.offerings.csv", `\uFEFF${lf.replace(/\n/g, "\r\n")}`);
    expect(crlf.errors).toEqual([]);
    expect(crlf.input).toEqual((await readFile_("sample.offerings.csv", lf)).input);
    expect(crlf.lines).toEqual({ offerings: [2, 3, 5] });
  });
});

describe("a file read as a stream", () => {
  it("a CSV cut anywhere reads as the whole text does (quoted line ends, doubled quotes and CRLF across chunk ends)", () => {
    const text = 'a,b,c\r\n"x, y","say ""hi""",\r\n"",plain,"multi\r\nline"\r\n\r\nlast,"",z\r\n';
    const whole = parseCsv(text);
    for (const size of [1, 2, 3, 5, 8]) {
      const reader = new CsvReader();
      const records = [];
      for (let at = 0; at < text.length; at += size) records.push(...reader.push(text.slice(at, at + size)));
      records.push(...reader.end());
      expect(records, `chunks of ${size}`).toEqual(whole);
    }
  });

  it("a JSON file may give its companies after the records naming them, and keeps each record's line across chunks", async () => {
    const text = JSON.stringify({ offerings: [offering("LATE", "L-1")], companies: [company("LATE")] }, null, 2);
    const bytes = new TextEncoder().encode(text);
    const inSevens = async function* () {
      for (let at = 0; at < bytes.length; at += 7) yield bytes.subarray(at, at + 7);
    };
    const read = await readAll(await openImportFile("late.json", inSevens));
    expect(read.errors).toEqual([]);
    expect(read.lines).toEqual({ companies: [12], offerings: [3] });
    expectCounts(await importDataset(db.prisma, await importFileText("late.json", text)), { companies: [1, 0, 0], offerings: [1, 0, 0] });
  });

  it("finds a duplicate key far from its first record (past the keys kept in memory), and writes nothing", async () => {
    // Prices of tickers this database does not list are skipped, not written: the keys are checked all the same.
    const day = (d: number) => new Date(Date.UTC(2001, 0, 1) + d * 86_400_000).toISOString().slice(0, 10);
    const rows = Array.from({ length: 110_000 }, (_, i) => `N${i % 110},${day(Math.floor(i / 110))},1.5`);
    rows.push(rows[7]!.replace(",1.5", ",2.5"));
    const report = await importDataset(db.prisma, await importFileText("daily-prices.csv", `ticker,date,close\n${rows.join("\n")}\n`), { dryRun: true });
    expect(report.ok).toBe(false);
    expect(report.errors.map(formatImportError)).toEqual([`line 110002: ticker, date: duplicate record (ticker "N7", date "${day(0)}"): the same key is on line 9`]);
  }, 120_000);
});

describe("sample dataset", () => {
  it("loads, and a second load is a no-op", async () => {
    const dataset = generateSampleDataset({ tickerCount: 240 });
    const first = await loadSampleData(db.prisma, { tickerCount: 240 });
    expectCounts(
      first,
      Object.fromEntries(IMPORT_KINDS.map((k) => [k, [dataset[k].length, 0, 0]])) as Record<ImportKind, [number, number, number]>,
    );
    expect(await rowCounts()).toEqual(Object.fromEntries(IMPORT_KINDS.map((k) => [TABLES[k], dataset[k].length])));
    const offerings = await db.prisma.offering.count({ where: { company: { ticker: SAMPLE_SHOWCASE.manyOfferings } } });
    expect(offerings).toBe(150);
    expect(await db.prisma.company.count({ where: { isSample: false } })).toBe(0);

    const before = await snapshot();
    const second = await loadSampleData(db.prisma, { tickerCount: 240 });
    expectCounts(
      second,
      Object.fromEntries(IMPORT_KINDS.map((k) => [k, [0, 0, dataset[k].length]])) as Record<ImportKind, [number, number, number]>,
    );
    expect(await snapshot()).toEqual(before);

    // The same data as an import file (as scripts/data-generate.ts writes it) is also unchanged.
    const text = JSON.stringify(dataset, null, 1);
    expect((await readFile_("sample.json", text)).lines.offerings).toHaveLength(dataset.offerings.length);
    const third = await importDataset(db.prisma, await importFileText("sample.json", text));
    expect(third.ok).toBe(true);
    expect(IMPORT_KINDS.every((k) => third.counts[k].unchanged === dataset[k].length)).toBe(true);
  });
});

describe.skipIf(isPostgres())("scripts/data-import.ts", () => {
  const run = promisify(execFile);
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "data-import-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const cli = async (...args: string[]) => {
    const env = { ...process.env, PGLITE_DIR: path.join(dir, "pglite"), DATABASE_URL: "" };
    try {
      const { stdout } = await run("npx", ["tsx", "scripts/data-import.ts", ...args], { env, cwd: process.cwd() });
      return { code: 0, stdout };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout + e.stderr };
    }
  };

  it("prints every bad row and exits 1; imports and exits 0", async () => {
    const bad = await cli(path.join(FIXTURES, "bad.offerings.csv"));
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("nothing was written");
    expect(bad.stdout).toContain("line 3: offering_date: is not a real calendar date: 2026-02-30");
    expect(bad.stdout).toContain("line 2: ticker: unknown ticker CSVA");

    const good = await cli(path.join(FIXTURES, "companies.csv"));
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/companies\s+3\s+3\s+0\s+0/);
    const again = await cli(path.join(FIXTURES, "companies.csv"), "--dry-run");
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/companies\s+3\s+0\s+0\s+3/);
  }, 60_000);
});
