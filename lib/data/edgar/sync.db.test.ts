import { cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import { createWriteStream } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import yazl from "yazl";
import type { Database } from "@/lib/db";
import { openTestDatabase } from "@/tests/support/database";
import { startFakeEdgar } from "@/tools/edgar/fake-server";
import { runEdgarCommand } from "@/lib/cli/edgar";
import { importDataset } from "../import";
import { RECORD_SOURCES, resolveCompanies, type JsonRecord } from "../records";
import { storedDatasetVersion } from "../version";
import { openEdgarSource } from "./source";
import { syncEdgar, type SyncOptions } from "./sync";

/**
 * The EDGAR sync end to end, on the real recordings in ../shared/fixtures/edgar
 * (Tesla's filing index and XBRL facts, as SEC served them) and on the
 * constructed small cap in tests/fixtures/edgar-constructed (EDGAR's exact
 * shapes, made-up values: an S-3 with its EFFECT, an at-the-market 424B5
 * with fee exhibits, two Item 3.01 8-Ks, a public float under $75M).
 */
const RECORDED = path.resolve(process.cwd(), "..", "shared", "fixtures", "edgar");
const CONSTRUCTED = path.resolve(process.cwd(), "tests", "fixtures", "edgar-constructed");
const TSLA_CIK = "0001318605";
const UA = "Dilution Data Tests ops@example.com";
const day = (s: string) => new Date(`${s}T00:00:00Z`);

let db: Database;
let scratch: string;
/** EDGAR's layout built from the recordings: tickers file, Tesla's index and facts, the IFRS filer's facts. */
let recordedFolder: string;
/** The recordings plus the constructed company, for runs over both. */
let bothFolder: string;

beforeAll(async () => {
  db = await openTestDatabase();
  scratch = await mkdtemp(path.join(os.tmpdir(), "edgar-sync-"));
  recordedFolder = path.join(scratch, "recorded");
  await mkdir(path.join(recordedFolder, "submissions"), { recursive: true });
  await mkdir(path.join(recordedFolder, "companyfacts"), { recursive: true });
  await cp(path.join(RECORDED, "company_tickers.json"), path.join(recordedFolder, "company_tickers.json"));
  await cp(path.join(RECORDED, `submissions-CIK${TSLA_CIK}.json`), path.join(recordedFolder, "submissions", `CIK${TSLA_CIK}.json`));
  await cp(path.join(RECORDED, `companyfacts-CIK${TSLA_CIK}.json`), path.join(recordedFolder, "companyfacts", `CIK${TSLA_CIK}.json`));
  await cp(path.join(RECORDED, "companyfacts-CIK0001997711.json"), path.join(recordedFolder, "companyfacts", "CIK0001997711.json"));

  bothFolder = path.join(scratch, "both");
  await cp(CONSTRUCTED, bothFolder, { recursive: true });
  await cp(path.join(recordedFolder, "submissions", `CIK${TSLA_CIK}.json`), path.join(bothFolder, "submissions", `CIK${TSLA_CIK}.json`));
  await cp(path.join(recordedFolder, "companyfacts", `CIK${TSLA_CIK}.json`), path.join(bothFolder, "companyfacts", `CIK${TSLA_CIK}.json`));
});

afterAll(async () => {
  await db?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

beforeEach(async () => {
  await db.prisma.$executeRawUnsafe(`TRUNCATE "companies", "edgar_companies", "edgar_filing_facts", "edgar_filings", "data_loads", "reg_sho_list_days" CASCADE`);
});

async function sync(source: string, options: SyncOptions, extra: { maxPerSecond?: number; backoffMs?: number } = {}) {
  const edgar = openEdgarSource({ source, userAgent: UA, ...extra });
  try {
    return await syncEdgar(db.prisma, edgar, options);
  } finally {
    await edgar.close();
  }
}

/** The records of every data table, to show that a second run wrote nothing. */
async function dataSnapshot() {
  const tables = ["companies", "financial_reports", "registrations", "offerings", "compliance_deficiencies", "float_snapshots"];
  const out: Record<string, unknown> = {};
  for (const table of tables) out[table] = await db.prisma.$queryRawUnsafe(`SELECT * FROM "${table}" ORDER BY 1`);
  return out;
}

async function records(endpoint: keyof typeof RECORD_SOURCES, tickers: string[], asOf: Date, includeSource = false): Promise<JsonRecord[]> {
  const companies = await resolveCompanies(db.prisma, tickers);
  return RECORD_SOURCES[endpoint](db.prisma, { companies, offset: 0, limit: 100, asOf, includeSource });
}

describe("Tesla from the recordings (a folder in EDGAR's layout)", () => {
  it("gives the S-3ASR shelf, its ten takedowns, cash, shares, quarterly cash flow and a rating with evidence", async () => {
    const report = await sync(recordedFolder, { tickers: ["TSLA"], now: day("2026-11-23") });
    const tsla = report.tickers[0]!;
    expect(tsla.status).toBe("changed");
    expect(tsla.cik).toBe(TSLA_CIK);
    // The older page named in filings.files is not in the recordings: partial, not failed.
    expect(tsla.partial).toBe(true);
    expect(tsla.notes.join(" ")).toContain("CIK0001318605-submissions-001.json");
    expect(report.failed).toBe(0);

    const company = await db.prisma.company.findUniqueOrThrow({ where: { ticker: "TSLA" } });
    expect(company).toMatchObject({ name: "Tesla, Inc.", exchange: "Nasdaq", cik: TSLA_CIK, sic: "3711", isSample: false });

    const shelf = await db.prisma.registration.findFirstOrThrow({ where: { fileNumber: "333-231168" } });
    expect(shelf).toMatchObject({
      formType: "S-3ASR",
      accessionNumber: "0001193125-19-133592",
      filedAt: day("2019-05-02"),
      effectiveAt: day("2019-05-02"), // automatic: effective on filing
      expiresAt: day("2022-05-02"),
      offeringAmountCents: null, // an automatic shelf registers no maximum
      overBabyShelf: true,
      isEffective: true,
      sourceAccession: "0001193125-19-133592",
      sourceForm: "S-3ASR",
      sourceUrl: "https://www.sec.gov/Archives/edgar/data/1318605/000119312519133592/0001193125-19-133592-index.htm",
    });

    const takedowns = await db.prisma.offering.findMany({ where: { fileNumber: "333-231168" }, orderBy: { offeringDate: "asc" } });
    expect(takedowns).toHaveLength(10);
    expect(takedowns[0]!.offeringDate).toEqual(day("2019-05-02"));
    expect(takedowns.at(-1)!.offeringDate).toEqual(day("2020-12-08"));
    for (const t of takedowns) {
      expect(t).toMatchObject({ formType: "424B5", amountCents: null, sourceForm: "424B5" });
      expect(t.sourceAccession).toBe(t.accessionNumber);
    }

    const q3 = await db.prisma.financialReport.findFirstOrThrow({ where: { periodEnd: day("2022-09-30") } });
    expect(q3).toMatchObject({ cashCents: 19_532_000_000n * 100n, filedAt: day("2022-10-24"), sourceAccession: "0000950170-22-019867", sourceForm: "10-Q" });
    const q2 = await db.prisma.financialReport.findFirstOrThrow({ where: { periodEnd: day("2022-06-30") } });
    // Year-to-date durations differenced: H1 2022 less Q1 2022.
    expect(q2.operatingCashFlowCents).toBe((6_346_000_000n - 3_995_000_000n) * 100n);
    expect(q2.quarterlyBurnCents).toBe(0n); // Tesla generates cash

    const cover = await db.prisma.floatSnapshot.findFirstOrThrow({ where: { asOf: day("2022-10-18") } });
    expect(cover).toMatchObject({
      outstandingShares: 3_157_752_449n,
      floatShares: null, // EDGAR states the float in dollars; shares need a price
      publicFloatCents: 541_280_000_000n * 100n,
      publicFloatAsOf: day("2021-06-30"),
    });

    // The ratings were computed from these facts, and name their filings when asked.
    expect(tsla.rating?.ticker).toBe("TSLA");
    const [rating] = await records("dilution-rating", ["TSLA"], day("2021-01-15"), true);
    expect(rating!.offering_ability).toBe("High");
    expect(rating!.offering_ability_desc).toContain("S-3ASR 333-231168, effective 2019-05-02");
    const sources = rating!.sources as { accession_number: string; url: string }[];
    expect(sources.map((s) => s.accession_number)).toEqual(expect.arrayContaining(["0001193125-19-133592", "0001193125-20-312218"]));
    expect(sources.every((s) => s.url.startsWith("https://www.sec.gov/Archives/edgar/data/1318605/"))).toBe(true);
    // Without include=source there is no evidence field (customers pay per byte).
    const [plain] = await records("dilution-rating", ["TSLA"], day("2021-01-15"));
    expect(plain).not.toHaveProperty("sources");
  });

  it("a second run changes nothing, and says so", async () => {
    await sync(recordedFolder, { tickers: ["TSLA"] });
    const version = await storedDatasetVersion(db.prisma);
    const before = await dataSnapshot();
    const again = await sync(recordedFolder, { tickers: ["TSLA"] });
    expect(again.changed).toBe(0);
    expect(again.tickers[0]!.status).toBe("not_modified");
    expect(await dataSnapshot()).toEqual(before);
    expect(await storedDatasetVersion(db.prisma)).toBe(version);
  });

  it("one ticker's failure is reported, the others load, and the run is logged", async () => {
    const report = await sync(recordedFolder, { tickers: ["ABEO", "TSLA", "NOPEX"] });
    expect(report.tickers.map((t) => [t.ticker, t.status])).toEqual([
      ["ABEO", "failed"], // in the tickers file, but its filing index is not in the recordings
      ["TSLA", "changed"],
      ["NOPEX", "failed"],
    ]);
    expect(report.tickers[2]!.error).toContain("not in SEC's tickers file");
    const [load] = await db.prisma.dataLoad.findMany();
    expect(load).toMatchObject({ kind: "edgar", status: "applied", errorCount: 2 });
    expect((load!.errors as string[]).join(" ")).toContain("ABEO:");
    expect((load!.counts as Record<string, { created: number }>).offerings!.created).toBe(22);
  });

  it("a dry run reads and counts but writes nothing", async () => {
    const report = await sync(recordedFolder, { tickers: ["TSLA"], dryRun: true });
    expect(report.tickers[0]!.counts.offerings?.created).toBe(22);
    expect(await db.prisma.company.count()).toBe(0);
    expect(await db.prisma.dataLoad.count()).toBe(0);
    expect(await db.prisma.edgarCompany.count()).toBe(0);
  });

  it("reads the nightly bulk archives as they are (submissions.zip, companyfacts.zip), entry by entry", async () => {
    const bulk = path.join(scratch, "bulk");
    await mkdir(bulk, { recursive: true });
    await cp(path.join(recordedFolder, "company_tickers.json"), path.join(bulk, "company_tickers.json"));
    const zip = async (name: string, entries: [string, string][]) => {
      const archive = new yazl.ZipFile();
      for (const [entry, file] of entries) archive.addFile(file, entry);
      archive.end();
      await new Promise<void>((resolve, reject) => {
        archive.outputStream.pipe(createWriteStream(path.join(bulk, name))).on("close", resolve).on("error", reject);
      });
    };
    await zip("submissions.zip", [[`CIK${TSLA_CIK}.json`, path.join(recordedFolder, "submissions", `CIK${TSLA_CIK}.json`)]]);
    await zip("companyfacts.zip", [
      [`CIK${TSLA_CIK}.json`, path.join(recordedFolder, "companyfacts", `CIK${TSLA_CIK}.json`)],
      ["CIK0001997711.json", path.join(recordedFolder, "companyfacts", "CIK0001997711.json")],
    ]);
    const fromZip = await sync(bulk, { tickers: ["TSLA"] });
    const fromZipRows = await dataSnapshot();
    await db.prisma.$executeRawUnsafe(`TRUNCATE "companies", "edgar_companies", "edgar_filing_facts", "data_loads" CASCADE`);
    const fromFiles = await sync(recordedFolder, { tickers: ["TSLA"] });
    expect(fromZip.tickers[0]!.counts).toEqual(fromFiles.tickers[0]!.counts);
    // Rows without their generated ids and times, in a stable order.
    const strip = (tables: Record<string, unknown>) =>
      Object.fromEntries(
        Object.entries(tables).map(([table, rows]) => [
          table,
          (rows as Record<string, unknown>[])
            .map((row) => JSON.stringify(row, (key, value: unknown) => (["id", "company_id", "created_at", "updated_at"].includes(key) ? undefined : typeof value === "bigint" ? String(value) : value)))
            .sort(),
        ]),
      );
    expect(strip(fromZipRows)).toEqual(strip(await dataSnapshot()));
  });
});

describe("a constructed small cap (EDGAR's shapes): shelf, EFFECT, ATM, Item 3.01, baby shelf", () => {
  it("maps each filing with its evidence and rates from the facts", async () => {
    const report = await sync(CONSTRUCTED, { tickers: ["ZZBX"], since: "2024-01-01" });
    expect(report.tickers[0]).toMatchObject({ status: "changed", partial: false });

    const shelf = await db.prisma.registration.findFirstOrThrow({ where: { accessionNumber: "0001493152-24-024718" } });
    expect(shelf).toMatchObject({
      formType: "S-3",
      fileNumber: "333-280001",
      effectiveAt: day("2024-07-01"), // from the EFFECT notice, not its filing date
      expiresAt: day("2027-07-01"),
      offeringAmountCents: 100_000_000n * 100n, // the S-3's fee exhibit
      // The $52M public float (dated 2024-06-28) was first stated in the 10-K of 2025-03-05: at filing it was not on record.
      overBabyShelf: null,
      publicFloatCents: null,
      effectiveAccession: "9999999995-24-002113",
    });

    const atm = await db.prisma.offering.findUniqueOrThrow({ where: { accessionNumber: "0001493152-25-002731" } });
    expect(atm).toMatchObject({ offeringType: "atm", amountCents: 15_000_000n * 100n, fileNumber: "333-280001" });
    const program = await db.prisma.registration.findUniqueOrThrow({ where: { accessionNumber: "0001493152-25-002731" } });
    expect(program).toMatchObject({ isAtm: true, offeringAmountCents: 15_000_000n * 100n, effectiveAt: day("2025-01-20"), expiresAt: day("2027-07-01") });

    const deficiency = await db.prisma.complianceDeficiency.findFirstOrThrow();
    expect(deficiency).toMatchObject({
      deficiency: "minimum_bid_price",
      noticeDate: day("2025-03-10"),
      deadline: day("2025-09-08"),
      status: "resolved",
      resolvedAt: day("2025-09-15"),
      sourceAccession: "0001493152-25-010077",
    });

    const q2 = await db.prisma.financialReport.findFirstOrThrow({ where: { periodEnd: day("2025-06-30") } });
    expect(q2).toMatchObject({ operatingCashFlowCents: -7_000_000n * 100n, quarterlyBurnCents: 7_000_000n * 100n, debtCents: 2_000_000n * 100n });

    // While the deficiency was open, with the baby-shelf limit binding.
    const [rating] = await records("dilution-rating", ["ZZBX"], day("2025-06-01"), true);
    expect(rating!.nasdaq_compliance_desc).toContain("minimum bid price");
    expect(rating!.nasdaq_compliance_desc).toContain("deadline 2025-09-08");
    expect(rating!.offering_ability_desc).toContain("S-3 333-280001, effective 2024-07-01");
    // The cover page's public float ($52M < $75M) puts the shelf under the baby-shelf limit: ⅓ of it.
    expect(rating!.offering_ability_desc).toContain("baby-shelf limit");
    expect(rating!.offering_ability_desc).toContain("$52.0M public float");
    const [registration] = await records("registrations", ["ZZBX"], day("2025-06-01"), true);
    expect(registration!.source).toMatchObject({ type: "sec_filing", form: expect.stringMatching(/^(424B5|S-3)$/) });
    const shelfRecord = (await records("registrations", ["ZZBX"], day("2025-06-01"))).find((r) => r.accession_number === "0001493152-24-024718");
    // No float at filing; the company's baby-shelf room on the day is ⅓ of the cover page's $52M, nothing sold in the 12 months.
    expect(shelfRecord).toMatchObject({
      offering_amount: 100_000_000,
      over_baby_shelf: null,
      public_float: null,
      baby_shelf_capacity: 17_333_333.33,
      baby_shelf_sold_12m: 0,
      baby_shelf_as_of: "2025-06-01",
      baby_shelf_public_float: 52_000_000,
    });
  });

  it("prices and Reg SHO lists (operator imports) fill in what EDGAR does not hold", async () => {
    await sync(recordedFolder, { tickers: ["TSLA"] });
    const [before] = await records("float-outstanding", ["TSLA"], day("2022-11-01"));
    expect(before).toMatchObject({ as_of: "2022-10-18", float: null, price: null });
    expect(before).not.toHaveProperty("market_cap_final");

    const imported = await importDataset(db.prisma, {
      daily_prices: [
        { ticker: "TSLA", date: "2022-10-18", close: "222.04" },
        { ticker: "TSLA", date: "2021-06-30", close: "679.70" },
        { ticker: "ZZZZ", date: "2022-10-18", close: "1.00" }, // not listed here: skipped, not an error
      ],
      reg_sho_thresholds: [{ ticker: "TSLA", list_date: "2022-10-31" }],
    });
    expect(imported.ok).toBe(true);
    expect(imported.counts.daily_prices).toMatchObject({ received: 3, created: 2, skipped: 1 });

    const [after] = await records("float-outstanding", ["TSLA"], day("2022-11-01"));
    expect(after!.price).toBe(222.04);
    expect(after!.market_cap_final).toBe(701_147_353_775.96); // 3,157,752,449 × $222.04, to the cent
    expect(after!.float).toBe(Math.floor(541_280_000_000 / 679.7)); // public float ÷ the close on its own day
    const [onList] = await records("dilution-rating", ["TSLA"], day("2022-11-01"));
    expect(onList!.regsho).toBe(true);
    // A day no list covers: unknown, not false.
    const [unknown] = await records("dilution-rating", ["TSLA"], day("2022-12-15"));
    expect(unknown!.regsho).toBeNull();
  });
});

describe("--all", () => {
  it("syncs every company SEC lists on Nasdaq, NYSE or NYSE American, and no other", async () => {
    // company_tickers_exchange.json lists ZZBX and TSLA on Nasdaq and ZZOT on OTC.
    const report = await sync(bothFolder, { all: true, since: "2024-01-01" });
    expect(report.tickers.map((t) => [t.ticker, t.status]).sort()).toEqual([
      ["TSLA", "changed"],
      ["ZZBX", "changed"],
    ]);
    expect(await db.prisma.company.findMany({ select: { ticker: true, exchange: true }, orderBy: { ticker: "asc" } })).toEqual([
      { ticker: "TSLA", exchange: "Nasdaq" },
      { ticker: "ZZBX", exchange: "Nasdaq" },
    ]);
  });

  it("needs the tickers file with exchanges", async () => {
    await expect(sync(recordedFolder, { all: true })).rejects.toThrow(/company_tickers_exchange\.json/);
  });
});

describe("sample data and real data never mix silently", () => {
  it("refuses a ticker held by a sample company until the sample is removed", async () => {
    await db.prisma.company.create({ data: { ticker: "TSLA", name: "Sample Motors", exchange: "NASDAQ", isSample: true } });
    await db.prisma.company.create({ data: { ticker: "SMPL", name: "Sample Co", exchange: "NASDAQ", isSample: true } });
    const refused = await sync(recordedFolder, { tickers: ["TSLA"] });
    expect(refused.tickers[0]!.status).toBe("failed");
    expect(refused.tickers[0]!.error).toContain("sample company");

    const replaced = await sync(recordedFolder, { tickers: ["TSLA"], removeSample: true });
    expect(replaced.removedSample).toBe(2);
    expect(replaced.tickers[0]!.status).toBe("changed");
    expect(await db.prisma.company.count({ where: { isSample: true } })).toBe(0);
    expect(await db.prisma.dataLoad.count({ where: { kind: "remove-sample" } })).toBe(1);
  });

  it("sample records say they are sample data when asked for their source", async () => {
    const sample = await db.prisma.company.create({ data: { ticker: "SMPL", name: "Sample Co", exchange: "NASDAQ", isSample: true } });
    await db.prisma.offering.create({ data: { companyId: sample.id, accessionNumber: "0000000001-25-000001", offeringDate: day("2025-01-02"), offeringType: "pipe", amountCents: 100n } });
    const [offering] = await records("offerings", ["SMPL"], day("2025-06-01"), true);
    expect(offering!.source).toMatchObject({ type: "sample" });
    const [rating] = await records("dilution-rating", ["SMPL"], day("2025-06-01"), true);
    expect(rating!.sources).toEqual([expect.objectContaining({ type: "sample" })]);
  });
});

describe("online, against a local fake EDGAR", () => {
  it("sends the User-Agent, waits out a 429, keeps to 10 requests a second, and a second run only asks whether anything changed", async () => {
    const fake = await startFakeEdgar({ root: bothFolder });
    try {
      fake.failNext(/^\/submissions\/CIK0009990001\.json$/, 1, 429, 1);
      const first = await sync(fake.url, { tickers: ["TSLA", "ZZBX"], since: "2024-01-01" }, { backoffMs: 10 });
      expect(first.tickers.map((t) => t.status)).toEqual(["changed", "changed"]);
      const log = [...fake.requests];
      expect(log.every((r) => r.userAgent === UA)).toBe(true);
      const zzbx = log.filter((r) => r.path === "/submissions/CIK0009990001.json");
      expect(zzbx.map((r) => r.status)).toEqual([429, 200]);
      expect(zzbx[1]!.at - zzbx[0]!.at).toBeGreaterThanOrEqual(1_000);
      const times = log.map((r) => r.at).sort((a, b) => a - b);
      const busiest = Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + 1_000).length));
      expect(busiest).toBeLessThanOrEqual(10);
      expect(log.some((r) => r.path.startsWith("/Archives/edgar/data/9990001/"))).toBe(true);

      const before = await dataSnapshot();
      fake.requests.length = 0;
      const second = await sync(fake.url, { tickers: ["TSLA", "ZZBX"], since: "2024-01-01" }, { backoffMs: 10 });
      expect(second.changed).toBe(0);
      expect(second.tickers.map((t) => t.status)).toEqual(["not_modified", "not_modified"]);
      const conditional = fake.requests.filter((r) => /^\/(submissions|api\/xbrl)\//.test(r.path));
      expect(conditional).toHaveLength(4);
      expect(conditional.every((r) => r.ifNoneMatch !== null && r.status === 304)).toBe(true);
      expect(fake.requests.some((r) => r.path.startsWith("/Archives/"))).toBe(false);
      expect(await dataSnapshot()).toEqual(before);
    } finally {
      await fake.close();
    }
  });
});

describe("npm run data:edgar", () => {
  it("refuses to talk to SEC without EDGAR_USER_AGENT, with a clear message", async () => {
    const result = await runEdgarCommand(db.prisma, ["sync", "--tickers", "TSLA"], {});
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("EDGAR_USER_AGENT");
  });

  it("prints the report, and exits 1 when a ticker failed", async () => {
    const ok = await runEdgarCommand(db.prisma, ["sync", "--tickers", "TSLA", "--source", recordedFolder], {});
    expect(ok.exitCode).toBe(0);
    expect(ok.stdout).toMatch(/TSLA\s+0001318605\s+changed/);
    const failed = await runEdgarCommand(db.prisma, ["sync", "--tickers", "TSLA,ABEO", "--source", recordedFolder, "--json"], {});
    expect(failed.exitCode).toBe(1);
    const json = JSON.parse(failed.stdout) as { changed: number; tickers: { ticker: string; status: string }[] };
    expect(json.changed).toBe(0);
    expect(json.tickers).toEqual([expect.objectContaining({ ticker: "TSLA", status: "not_modified" }), expect.objectContaining({ ticker: "ABEO", status: "failed" })]);
  });

  it("rejects bad arguments with the usage", async () => {
    for (const args of [["sync"], ["sync", "--tickers", "TSLA", "--all"], ["sync", "--tickers", "TSLA", "--since", "2024-13-01"], ["sync", "--bogus"], ["pull"]]) {
      const result = await runEdgarCommand(db.prisma, args, {});
      expect(result.exitCode, args.join(" ")).toBe(2);
    }
  });

  it("data:remove-sample drops the sample companies and nothing else", async () => {
    await sync(recordedFolder, { tickers: ["TSLA"] });
    await db.prisma.company.create({ data: { ticker: "SMPL", name: "Sample Co", exchange: "NASDAQ", isSample: true } });
    const result = await runEdgarCommand(db.prisma, ["remove-sample"], {});
    expect(result.stdout).toContain("1 sample companies");
    expect((await db.prisma.company.findMany()).map((c) => c.ticker)).toEqual(["TSLA"]);
  });
});
