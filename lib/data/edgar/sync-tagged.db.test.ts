import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { openTestDatabase } from "@/tests/support/database";
import { RECORD_SOURCES, resolveCompanies, type JsonRecord } from "../records";
import { TAGGED_WARRANT_ROWS, taggedTenQ } from "./documents/tagged-report.fixture";
import { openEdgarSource } from "./source";
import { syncEdgar } from "./sync";

/**
 * The sync reads a 10-Q's own inline XBRL into the instrument ledger: the
 * constructed small cap of ./documents/tagged-report.fixture.ts (CIK
 * 9990002, ticker TWEX, made up), whose notes tag each warrant series' count,
 * price and expiry on its member, behind a filing index made for this test.
 * Each series becomes one instrument of /v1/dilution-data, with the quote of
 * the table row that shows it.
 */
const SHARED = path.resolve(process.cwd(), "..", "shared", "fixtures", "edgar");
const UA = "Dilution Data Tests ops@example.com";
const AS_OF = new Date("2025-12-01T00:00:00Z");
const ACCESSION = "0009990002-25-000011";
const CIK = "9990002";

let db: Database;
let folder: string;
beforeAll(async () => {
  db = await openTestDatabase();
  folder = await mkdtemp(path.join(os.tmpdir(), "edgar-tagged-"));
  const tickers = JSON.parse(readFileSync(path.join(SHARED, "company_tickers.json"), "utf8")) as Record<string, unknown>;
  tickers["9999"] = { cik_str: Number(CIK), ticker: "TWEX", title: "Tagged Warrants Example Inc." };
  await writeFile(path.join(folder, "company_tickers.json"), JSON.stringify(tickers));
  await mkdir(path.join(folder, "submissions"));
  await writeFile(
    path.join(folder, "submissions", `CIK000${CIK}.json`),
    JSON.stringify({
      cik: CIK,
      name: "Tagged Warrants Example Inc.",
      sic: "2834",
      sicDescription: "Pharmaceutical Preparations",
      tickers: ["TWEX"],
      exchanges: ["Nasdaq"],
      filings: {
        recent: {
          accessionNumber: [ACCESSION],
          filingDate: ["2025-11-12"],
          reportDate: ["2025-09-30"],
          form: ["10-Q"],
          fileNumber: ["001-49999"],
          items: [""],
          primaryDocument: ["twex-20250930.htm"],
        },
        files: [],
      },
    }),
  );
  const dir = path.join(folder, "Archives", "edgar", "data", CIK, ACCESSION.replace(/-/g, ""));
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "twex-20250930.htm"), taggedTenQ(TAGGED_WARRANT_ROWS));
});
afterAll(async () => {
  await db?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

async function instruments(): Promise<JsonRecord[]> {
  const companies = await resolveCompanies(db.prisma, ["TWEX"]);
  return RECORD_SOURCES["dilution-data"](db.prisma, { companies, offset: 0, limit: 100, asOf: AS_OF, includeSource: true });
}

describe("a 10-Q's tagged warrant series, through the sync", () => {
  it("gives each series as one instrument with its count, price and expiry, and the row that shows it as the quote", async () => {
    const source = openEdgarSource({ source: folder, userAgent: UA });
    try {
      const report = await syncEdgar(db.prisma, source, { tickers: ["TWEX"], now: AS_OF, since: "2025-01-01" });
      expect(report.failed).toBe(0);
    } finally {
      await source.close();
    }
    const rows = await instruments();
    const series = rows.map((r) => ({
      name: r.name,
      shares: r.shares_underlying,
      price: r.exercise_price,
      expiry: r.expiration_date,
      pre_funded: r.pre_funded,
      as_of: r.as_of,
      quotes: (r.source as { quotes: Record<string, string> }).quotes,
    }));
    const row = (text: string) => ({ shares_underlying: text, exercise_price: text });
    expect(series.sort((a, b) => String(a.name).localeCompare(String(b.name)))).toEqual([
      { name: `Pre-funded warrants (reported 2025-09-30, 10-Q ${ACCESSION})`, shares: 250_000, price: 0.001, expiry: null, pre_funded: true, as_of: "2025-09-30", quotes: row("Pre-funded warrants 250,000 $0.001 None") },
      {
        name: `Series A warrants (reported 2025-09-30, 10-Q ${ACCESSION})`,
        shares: 1_500_000,
        price: 2.5,
        expiry: "2029-03-15",
        pre_funded: false,
        as_of: "2025-09-30",
        quotes: { ...row("Series A warrants 1,500,000 $2.50 March 15, 2029"), expiration_date: "Series A warrants 1,500,000 $2.50 March 15, 2029" },
      },
      {
        name: `Series B warrants (reported 2025-09-30, 10-Q ${ACCESSION})`,
        shares: 800_000,
        price: 4,
        // untagged, but its row shows it under "Expiration"
        expiry: "2030-06-01",
        pre_funded: false,
        as_of: "2025-09-30",
        quotes: { ...row("Series B warrants (1) 800,000 $4.00 (was $0.40) June 1, 2030"), expiration_date: "Series B warrants (1) 800,000 $4.00 (was $0.40) June 1, 2030" },
      },
    ]);
    for (const r of rows) expect((r.source as { accession_number: string }).accession_number).toBe(ACCESSION);
    // the range end, the scenario and the amount issued in the period are no instruments
    expect(rows.map((r) => r.shares_underlying)).not.toContain(1_600_000);
    expect(rows.map((r) => r.shares_underlying)).not.toContain(3_000_000);
  });
});
