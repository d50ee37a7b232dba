import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { openTestDatabase } from "@/tests/support/database";
import { RECORD_SOURCES, resolveCompanies, type JsonRecord } from "../records";
import { openEdgarSource } from "./source";
import { reextractEdgar, syncEdgar } from "./sync";

/**
 * The sync reads periodic reports into the instrument ledger: Marathon
 * Digital's real 10-Q (June 2023) and 10-K (December 2023), as EDGAR served
 * them (fixtures/edgar, SOURCES.md), behind a filing index made for this test
 * (the recordings have no submissions file for Marathon): the two accessions,
 * forms and primary documents as recorded, each filing day as the report's
 * signature states it. The ledger follows the 2026 convertible notes and the
 * warrant total from one report to the next, in one row each, with both states
 * kept; the ATM programs the reports state have no prospectus on file here.
 */
const SHARED = path.resolve(process.cwd(), "..", "shared", "fixtures", "edgar");
const OWN = path.resolve(process.cwd(), "fixtures", "edgar", "Archives", "edgar", "data", "1507605");
const UA = "Dilution Data Tests ops@example.com";
const AS_OF = new Date("2024-03-01T00:00:00Z");
const REPORTS = [
  { accession: "0001493152-23-027174", form: "10-Q", filed: "2023-08-08", period: "2023-06-30", document: "form10-q.htm" },
  { accession: "0001628280-24-007680", form: "10-K", filed: "2024-02-28", period: "2023-12-31", document: "mara-20231231.htm" },
];

let db: Database;
let folder: string;
beforeAll(async () => {
  db = await openTestDatabase();
  folder = await mkdtemp(path.join(os.tmpdir(), "edgar-periodic-"));
  await copyFile(path.join(SHARED, "company_tickers.json"), path.join(folder, "company_tickers.json"));
  await mkdir(path.join(folder, "submissions"));
  const newestFirst = [...REPORTS].reverse();
  await writeFile(
    path.join(folder, "submissions", "CIK0001507605.json"),
    JSON.stringify({
      cik: "1507605",
      name: "MARATHON DIGITAL HOLDINGS, INC.",
      sic: "6199",
      sicDescription: "Finance Services",
      tickers: ["MARA"],
      exchanges: ["Nasdaq"],
      filings: {
        recent: {
          accessionNumber: newestFirst.map((r) => r.accession),
          filingDate: newestFirst.map((r) => r.filed),
          reportDate: newestFirst.map((r) => r.period),
          form: newestFirst.map((r) => r.form),
          fileNumber: newestFirst.map(() => "001-36555"),
          items: newestFirst.map(() => ""),
          primaryDocument: newestFirst.map((r) => r.document),
        },
        files: [],
      },
    }),
  );
  for (const r of REPORTS) {
    const dir = path.join(folder, "Archives", "edgar", "data", "1507605", r.accession.replace(/-/g, ""));
    await mkdir(dir, { recursive: true });
    await copyFile(path.join(OWN, r.accession.replace(/-/g, ""), r.document), path.join(dir, r.document));
  }
});
afterAll(async () => {
  await db?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});
beforeEach(async () => {
  await db.prisma.$executeRawUnsafe(`TRUNCATE "companies", "edgar_companies", "edgar_filing_facts", "edgar_filings", "data_loads" CASCADE`);
});

async function sync() {
  const source = openEdgarSource({ source: folder, userAgent: UA });
  try {
    return await syncEdgar(db.prisma, source, { tickers: ["MARA"], now: AS_OF, since: "2023-01-01" });
  } finally {
    await source.close();
  }
}

async function instruments(knownOn?: string): Promise<JsonRecord[]> {
  const companies = await resolveCompanies(db.prisma, ["MARA"]);
  return RECORD_SOURCES["dilution-data"](db.prisma, {
    companies,
    offset: 0,
    limit: 100,
    asOf: AS_OF,
    includeSource: true,
    knownOn: knownOn ? new Date(`${knownOn}T00:00:00Z`) : undefined,
  });
}

describe("periodic reports read by the sync", () => {
  it("gives Marathon's convertible notes and warrant total as of the 10-K, one row each, with the 10-Q's state kept", async () => {
    const report = await sync();
    expect(report.failed).toBe(0);
    const rows = await instruments();
    const notes = rows.filter((r) => r.instrument_type === "convertible_note");
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      name: "1.0% Convertible Senior Notes due 2026 (reported 2023-06-30, 10-Q 0001493152-23-027174)",
      principal_amount: 747500000,
      remaining_amount: 330707000,
      conversion_price: 76.17,
      expiration_date: "2026-12-01",
      status: "outstanding",
      as_of: "2023-12-31",
    });
    const source = notes[0]!.source as { accession_number: string; quotes: Record<string, string> };
    expect(source.accession_number).toBe("0001628280-24-007680");
    expect(source.quotes.remaining_amount).toMatch(/330,707/);
    expect(source.quotes.conversion_price).toMatch(/76\.17/);

    const totals = rows.filter((r) => r.reported_total === true);
    expect(totals).toHaveLength(1);
    expect(totals[0]).toMatchObject({ shares_underlying: 324375, exercise_price: 25, as_of: "2023-12-31", status: "outstanding" });

    const history = await db.prisma.instrumentState.findMany({ where: { instrumentName: String(notes[0]!.name) }, orderBy: { knownAt: "asc" } });
    expect(history.map((s) => [s.knownAt.toISOString().slice(0, 10), s.remainingCents])).toEqual([
      ["2023-08-08", 74_750_000_000n],
      ["2024-02-28", 33_070_700_000n],
    ]);
  });

  it("takes shares outstanding from the 10-K's cover (no XBRL facts here), and rates the warrants against them", async () => {
    const report = await sync();
    const companies = await resolveCompanies(db.prisma, ["MARA"]);
    const float = await RECORD_SOURCES["float-outstanding"](db.prisma, { companies, offset: 0, limit: 10, asOf: AS_OF, includeSource: true });
    expect(float[0]).toMatchObject({ as_of: "2024-02-21", outstanding: 267639590 });
    expect((float[0]!.source as { quotes: Record<string, string> }).quotes.outstanding).toMatch(/267,639,590/);
    const rating = report.tickers[0]!.rating!;
    expect(rating.warrant_exercise).toBe("Low");
    expect(rating.warrant_exercise_desc).toContain("324K");
  });

  it("as_of answers with what was known that day: the 10-Q's state between the two reports, nothing before the first", async () => {
    await sync();
    const between = await instruments("2023-11-15");
    const note = between.find((r) => r.instrument_type === "convertible_note")!;
    expect(note).toMatchObject({ remaining_amount: 747500000, principal_amount: 747500000, as_of: "2023-06-30", conversion_price: 76.17, xbrl_check: null });
    expect((note.source as { accession_number: string }).accession_number).toBe("0001493152-23-027174");
    expect(between.find((r) => r.reported_total === true)).toMatchObject({ shares_underlying: 324375, as_of: "2023-06-30" });
    expect(await instruments("2023-08-07")).toEqual([]);
    // today's answer is the 10-K's
    expect((await instruments("2024-03-01")).find((r) => r.instrument_type === "convertible_note")).toMatchObject({ remaining_amount: 330707000, as_of: "2023-12-31" });
  });

  it("a second sync and a reextract from the stored reports change nothing", async () => {
    await sync();
    const before = await instruments();
    const again = await sync();
    expect(again.changed).toBe(0);
    const stored = await db.prisma.edgarFiling.count({ where: { cik: "0001507605" } });
    expect(stored).toBe(2);
    const rebuilt = await reextractEdgar(db.prisma, { tickers: ["MARA"], now: AS_OF });
    expect(rebuilt.failed).toBe(0);
    expect(rebuilt.changed).toBe(0);
    expect(await instruments()).toEqual(before);
  });
});
