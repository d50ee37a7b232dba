import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { openTestDatabase } from "@/tests/support/database";
import { RECORD_SOURCES, resolveCompanies, type JsonRecord } from "../records";
import { openEdgarSource } from "./source";
import { reextractEdgar, syncEdgar } from "./sync";

/**
 * The sync reads prospectuses: Imunon's registered direct with warrants and
 * Alzamend's at-the-market supplement, from the real recordings in
 * ../shared/fixtures/edgar (their filing indexes and full .txt submissions, as
 * EDGAR served them), become offerings with their terms, warrants in
 * /v1/dilution-data and an ATM program; each submission is stored once, and
 * `reextract` reads it again without a source.
 */
const FIXTURES = path.resolve(process.cwd(), "..", "shared", "fixtures", "edgar");
const UA = "Dilution Data Tests ops@example.com";
const day = (s: string) => new Date(`${s}T00:00:00Z`);
const AS_OF = day("2026-04-20");

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db?.close();
});
beforeEach(async () => {
  await db.prisma.$executeRawUnsafe(`TRUNCATE "companies", "edgar_companies", "edgar_filing_facts", "edgar_filings", "data_loads" CASCADE`);
});

async function sync(tickers: string[]) {
  const source = openEdgarSource({ source: FIXTURES, userAgent: UA });
  try {
    return await syncEdgar(db.prisma, source, { tickers, now: AS_OF, since: "2023-01-01" });
  } finally {
    await source.close();
  }
}

async function records(endpoint: keyof typeof RECORD_SOURCES, ticker: string, includeSource = false): Promise<JsonRecord[]> {
  const companies = await resolveCompanies(db.prisma, [ticker]);
  return RECORD_SOURCES[endpoint](db.prisma, { companies, offset: 0, limit: 100, asOf: AS_OF, includeSource });
}

describe("prospectuses read by the sync", () => {
  it("gives Imunon's registered direct its terms, and its registered and pre-funded warrants", async () => {
    const report = await sync(["IMNN"]);
    expect(report.failed).toBe(0);

    const offerings = await records("offerings", "IMNN", true);
    const direct = offerings.find((o) => o.accession_number === "0001493152-25-029712");
    expect(direct).toMatchObject({
      offering_type: "registered_direct",
      shares: 330000,
      price: 3.61,
      amount: 7000040.63,
      warrants_issued: 1939114,
      warrant_exercise_price: 3.482,
      underwriter: "Maxim Group LLC",
      agent_role: "placement_agent",
      status: "priced",
      prefunded_warrants: 1609114,
      prefunded_warrant_price: 0.0001,
      net_proceeds: 6510026.52,
      fee_percent: 7,
    });
    // include=source: the filing, and the prospectus's own words behind each value
    const said = (direct!.source as { quotes: Record<string, string> }).quotes;
    expect(direct!.source).toMatchObject({ type: "sec_filing", accession_number: "0001493152-25-029712", form: "424B5", filed_date: "2025-12-31" });
    expect(said.amount).toContain("7,000,040.63");
    expect(said.price).toContain("3.61");
    expect(said.warrants_issued).toContain("1,939,114");
    expect(said.underwriter).toContain("Maxim Group LLC");
    expect(said.fee_percent).toContain("7.0%");

    const instruments = await records("dilution-data", "IMNN", true);
    const byName = (prefix: string) => instruments.find((i) => String(i.name).startsWith(prefix));
    expect(byName("Warrants of 2025-12-31")).toMatchObject({ shares_underlying: 1939114, exercise_price: 3.482, registered: true, pre_funded: false });
    expect(byName("Pre-funded warrants of 2025-12-31")).toMatchObject({ shares_underlying: 1609114, exercise_price: 0.0001, registered: true, pre_funded: true });
    expect((byName("Pre-funded warrants of 2025-12-31")!.source as { quotes: Record<string, string> }).quotes.shares_underlying).toContain("1,609,114");

    // The S-1s of 2010–2017 lapsed three years after they became effective: they are no capacity today.
    const shelves = await records("registrations", "IMNN");
    const old = shelves.filter((r) => r.form_type === "S-1" && String(r.filed_date) < "2018-01-01");
    expect(old.length).toBeGreaterThan(5);
    expect(old.filter((r) => r.is_effective === true && r.is_expired === false)).toEqual([]);

    const [rating] = await records("dilution-rating", "IMNN");
    expect(rating!.dilution_desc).not.toContain("no warrants");
    expect(rating!.dilution_desc).toContain("1.9M Warrants of 2025-12-31 (424B5 0001493152-25-029712) at $3.482");
  });

  it("gives Alzamend's $3,000,000 at-the-market program with its sales agent", async () => {
    await sync(["ALZN"]);
    const atm = (await records("offerings", "ALZN")).find((o) => o.accession_number === "0001214659-26-002941");
    expect(atm).toMatchObject({ offering_type: "atm", amount: 3000000, underwriter: "Ascendiant Capital Markets, LLC" });
    const program = (await records("registrations", "ALZN", true)).find((r) => r.is_atm === true);
    expect(program).toMatchObject({ file_number: "333-273610", offering_amount: 3000000, atm_agent: "Ascendiant Capital Markets, LLC", atm_commission_percent: 3 });
    expect((program!.source as { quotes: Record<string, string> }).quotes).toMatchObject({
      offering_amount: expect.stringContaining("3,000,000"),
      atm_agent: expect.stringContaining("Ascendiant"),
    });
    // No report states a sale yet: all of it remains, as of the supplement. The baby-shelf arithmetic is the supplement's own, quoted.
    expect(program).toMatchObject({
      amount_remaining_atm: 3000000,
      amount_remaining_atm_as_of: "2026-03-06",
      public_float: 9188860,
      baby_shelf_capacity: 3061933,
      baby_shelf_sold_12m: 1020,
      baby_shelf_as_of: "2026-03-06",
    });
    expect((program!.source as { quotes: Record<string, string> }).quotes).toMatchObject({
      baby_shelf_capacity: expect.stringContaining("leaving $3,061,933"),
      baby_shelf_sold_12m: expect.stringContaining("$1,020"),
      public_float: expect.stringContaining("$9,188,860"),
    });

    // The three reverse splits its ATM supplement recites (no 8-K of them is in the recordings), quoted from there.
    const splits = await records("reverse-splits", "ALZN", true);
    expect(splits.map((r) => [r.effective_date, r.ratio])).toEqual([
      ["2025-05-06", "1-for-9"],
      ["2024-07-16", "1-for-10"],
      ["2023-10-31", "1-for-15"],
    ]);
    for (const split of splits) {
      expect(split.source).toMatchObject({ accession_number: "0001214659-26-002941", form: "424B5", quotes: { ratio: expect.stringContaining(String(split.ratio)) } });
    }
  });

  it("stores each submission once; a second sync fetches nothing it has; reextract reads the stored filings with no source", async () => {
    const first = await sync(["IMNN", "ALZN"]);
    expect(await db.prisma.edgarFiling.count()).toBe(2);
    const stored = await db.prisma.edgarFiling.findUniqueOrThrow({ where: { accessionNumber: "0001493152-25-029712" } });
    expect(stored.bytes).toBe(524053);

    // (the folder has no XBRL facts for either, so both are mapped again: the same records, and the two submissions are not read twice)
    const again = await sync(["IMNN", "ALZN"]);
    expect(again.tickers.map((t) => t.status)).toEqual(["unchanged", "unchanged"]);
    expect(again.requests).toBe(first.requests - 2);

    // facts read by an older version of the readers are read again, from the stored submission
    await db.prisma.edgarFilingFacts.updateMany({ data: { facts: { reader: 0 } } });
    const before = await records("offerings", "IMNN");
    const rebuilt = await reextractEdgar(db.prisma, { now: AS_OF });
    expect(rebuilt.failed).toBe(0);
    expect(rebuilt.filingsRead).toBe(2);
    expect(await records("offerings", "IMNN")).toEqual(before);
    expect(rebuilt.tickers.map((t) => t.status)).toEqual(["unchanged", "unchanged"]);
  });
});
