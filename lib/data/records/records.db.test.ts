import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINT_NAMES, type EndpointName } from "@/lib/catalog";
import type { Database } from "@/lib/db";
import { loadRatingInputs } from "./rating-inputs";
import { computeDilutionRating } from "@/lib/ratings/engine";
import { openTestDatabase } from "@/tests/support/database";
import { API_RECORD_FIELDS, EVIDENCE_FIELDS } from "./schemas";
import { RECORD_SOURCES, resolveCompanies, spreadTickers, type JsonRecord, type RecordQuery } from "@/lib/data/records";
import { isoDay } from "@/lib/utils/dates";
import { bpsToPercent, centsToDollars, microsToDollars } from "../units";

const day = (s: string) => new Date(`${s}T00:00:00Z`);
const AS_OF = new Date("2025-06-15T12:00:00Z");

let db: Database;
let AAA: { id: string; ticker: string; isSample: boolean };
let BBB: { id: string; ticker: string; isSample: boolean };
let CCC: { id: string; ticker: string; isSample: boolean };
let ZZZ: { id: string; ticker: string; isSample: boolean };

beforeAll(async () => {
  db = await openTestDatabase();
  const p = db.prisma;
  const company = async (ticker: string) =>
    p.company.create({ data: { ticker, name: `${ticker} Corp`, exchange: "NASDAQ" }, select: { id: true, ticker: true, isSample: true } });
  AAA = await company("AAA");
  BBB = await company("BBB");
  CCC = await company("CCC"); // exists, no facts
  ZZZ = await company("ZZZ"); // has facts, never requested in the record queries

  await p.financialReport.create({
    data: {
      companyId: AAA.id,
      periodEnd: day("2025-03-31"),
      filedAt: day("2025-05-10"),
      cashCents: 4_000_000_00n,
      quarterlyBurnCents: 1_500_000_00n,
    },
  });

  const reg = (data: {
    companyId: string;
    accessionNumber: string;
    formType: string;
    filedAt: string;
    effectiveAt?: string;
    expiresAt?: string;
    offeringAmountCents: bigint;
    isAtm?: boolean;
    atmRemainingCents?: bigint;
    overBabyShelf?: boolean;
    publicFloatCents?: bigint;
    isEffective?: boolean;
  }) =>
    p.registration.create({
      data: {
        ...data,
        fileNumber: `333-${data.accessionNumber.slice(-6)}`,
        filedAt: day(data.filedAt),
        effectiveAt: data.effectiveAt ? day(data.effectiveAt) : null,
        expiresAt: data.expiresAt ? day(data.expiresAt) : null,
      },
    });
  await reg({
    companyId: AAA.id,
    accessionNumber: "0000000001-25-000001",
    formType: "S-3",
    filedAt: "2025-03-01",
    effectiveAt: "2025-03-15",
    expiresAt: "2028-03-15",
    offeringAmountCents: 123_456_789n,
    overBabyShelf: false,
    publicFloatCents: 4_500_000_005n, // $45,000,000.05 at filing; the baby-shelf room uses the latest float (the snapshot's)
    isEffective: true,
  });
  await reg({
    companyId: AAA.id,
    accessionNumber: "0000000001-25-000002",
    formType: "424B5",
    filedAt: "2025-03-01",
    effectiveAt: "2025-03-01",
    offeringAmountCents: 10_000_000_00n,
    isAtm: true,
    atmRemainingCents: 5_000_000_50n,
    publicFloatCents: 4_500_000_005n,
    isEffective: true,
  });
  await reg({
    companyId: AAA.id,
    accessionNumber: "0000000001-22-000003",
    formType: "S-3",
    filedAt: "2022-01-10",
    effectiveAt: "2022-01-20",
    expiresAt: "2025-01-10", // expired
    offeringAmountCents: 50_000_000_00n,
    isEffective: true,
  });
  await reg({
    companyId: AAA.id,
    accessionNumber: "0000000001-25-000004",
    formType: "S-1",
    filedAt: "2025-06-01",
    offeringAmountCents: 20_000_000_00n,
    publicFloatCents: 1_000_000_00n,
    isEffective: false, // not effective
  });
  await reg({
    companyId: BBB.id,
    accessionNumber: "0000000002-25-000005",
    formType: "S-3",
    filedAt: "2025-03-01",
    effectiveAt: "2025-03-10",
    expiresAt: "2025-06-15", // expires on the as-of day: expired
    offeringAmountCents: 100_000_000_00n,
    overBabyShelf: true,
    publicFloatCents: 200_000_000_00n,
    isEffective: true,
  });
  await reg({
    companyId: BBB.id,
    accessionNumber: "0000000002-24-000006",
    formType: "F-3",
    filedAt: "2024-12-31",
    effectiveAt: "2025-01-05",
    expiresAt: "2025-06-16", // still valid the day after asOf
    offeringAmountCents: 30_000_000_00n,
    isEffective: true,
  });
  await reg({
    companyId: BBB.id,
    accessionNumber: "0000000002-25-000007",
    formType: "S-3",
    filedAt: "2025-06-10",
    effectiveAt: "2025-07-01", // flagged effective, effective date not reached
    offeringAmountCents: 30_000_000_00n,
    isEffective: true,
  });
  await reg({
    companyId: ZZZ.id,
    accessionNumber: "0000000009-25-000008",
    formType: "S-3",
    filedAt: "2025-03-01",
    offeringAmountCents: 1n,
    isEffective: true,
  });

  await p.complianceDeficiency.createMany({
    data: [
      {
        companyId: AAA.id,
        deficiency: "minimum_bid_price",
        status: "active",
        risk: "High",
        noticeDate: day("2025-04-01"),
        deadline: day("2025-09-29"),
        statusUpdates: [
          { date: "2025-04-01", text: "Notice received: bid price below $1.00 for 30 days." },
          { date: "2025-05-20", text: "Company plans a reverse split." },
        ],
      },
      {
        companyId: AAA.id,
        deficiency: "stockholders_equity",
        status: "resolved",
        risk: "Low",
        noticeDate: day("2024-05-01"),
        deadline: day("2024-10-28"),
        resolvedAt: day("2024-10-01"),
      },
      { companyId: BBB.id, deficiency: "", status: "active", risk: "Medium", noticeDate: day("2025-04-01") },
      { companyId: BBB.id, deficiency: "periodic_filing", status: "active", risk: "Medium", noticeDate: day("2025-04-02") },
      { companyId: ZZZ.id, deficiency: "minimum_bid_price", status: "active", risk: "High", noticeDate: day("2025-04-01") },
    ],
  });

  await p.reverseSplit.createMany({
    data: [
      {
        companyId: AAA.id,
        effectiveDate: day("2024-07-16"),
        oldShares: 10,
        quotes: { ratio: "a 1-for-10 reverse stock split", effective_date: "effective July 16, 2024", stray: "not a field of the record" },
        sourceAccession: "0000000001-25-000009",
        sourceForm: "424B5",
        sourceFiledAt: day("2025-03-01"),
        sourceUrl: "https://www.sec.gov/Archives/edgar/data/1/000000000125000009/0000000001-25-000009-index.htm",
      },
      { companyId: AAA.id, effectiveDate: day("2023-10-31"), oldShares: 15 },
      { companyId: BBB.id, effectiveDate: day("2025-05-06"), oldShares: 9, newShares: 2 },
    ],
  });

  await p.floatSnapshot.createMany({
    data: [
      {
        companyId: AAA.id,
        asOf: day("2025-06-01"),
        floatShares: 12_345_678n,
        outstandingShares: 20_000_000n,
        priceMicros: 1_234_500n,
        marketCapCents: 2_469_000_001n,
        insiderOwnershipBps: 1234,
        institutionalOwnershipBps: 567,
      },
      { companyId: AAA.id, asOf: day("2025-03-01"), floatShares: 10_000_000n, outstandingShares: 18_000_000n },
      {
        companyId: BBB.id,
        asOf: day("2025-06-01"),
        floatShares: 50_000_000n,
        outstandingShares: 60_000_000n,
        priceMicros: 4_000_000n,
        marketCapCents: 24_000_000_000n,
        insiderOwnershipBps: 10_000,
        institutionalOwnershipBps: 1,
      },
      { companyId: ZZZ.id, asOf: day("2025-06-01"), floatShares: 1n, outstandingShares: 1n },
    ],
  });

  await p.dilutionInstrument.createMany({
    data: [
      {
        companyId: AAA.id,
        instrumentType: "warrant",
        name: "February 2025 common warrants",
        issuedAt: day("2025-02-01"),
        expiresAt: day("2030-02-01"),
        sharesUnderlying: 5_000_000n,
        exercisePriceMicros: 1_500_000n,
        registered: true,
        exercisableAt: day("2025-08-01"),
      },
      {
        companyId: AAA.id,
        instrumentType: "convertible_note",
        name: "8% senior convertible note",
        issuedAt: day("2024-08-01"),
        sharesUnderlying: 3_000_000n,
        exercisePriceMicros: 2_000_001n,
        principalCents: 5_000_000_00n,
        remainingCents: 2_500_000_25n,
        conversionPriceMicros: 2_000_001n,
        asOf: day("2025-03-31"),
        statedSharesUnderlying: 30_000_000n,
        statedPriceMicros: 200_000n,
        splitAdjustment: "1-for-10",
        antiDilution: "full_ratchet",
        holders: ["Example Capital Master Fund Ltd.", "Second Street Partners LP"],
        placementAgent: "Example Securities & Co., LLC",
        quotes: {
          holders: "a note purchase agreement with Example Capital Master Fund Ltd. and Second Street Partners LP (the “Purchasers”)",
          placement_agent: "Example Securities & Co., LLC acted as the exclusive placement agent",
          stray: "not a field of the record",
        },
        sourceAccession: "0000000001-24-000801",
        sourceForm: "8-K",
        sourceFiledAt: day("2024-08-02"),
        sourceUrl: "https://www.sec.gov/Archives/edgar/data/1/000000000124000801/0000000001-24-000801-index.htm",
        xbrlCheck: { verdict: "disagrees", used: "text", value: 2.5, accession: "0000000001-25-000099", note: "the text states $2.00; XBRL tags $2.50" },
      },
      {
        companyId: BBB.id,
        instrumentType: "warrant",
        name: "Pre-funded warrants",
        issuedAt: day("2025-02-01"),
        sharesUnderlying: 1_000_000n,
        exercisePriceMicros: 100n,
        preFunded: true,
        registered: false,
        // as an older import or a hand edit may have left them: more than five, one too long, one not a name
        holders: ["A Fund", 7, "B Fund", "C".repeat(150), "D Fund", "E Fund", "F Fund"],
        placementAgent: "P".repeat(150),
      },
      { companyId: ZZZ.id, instrumentType: "warrant", name: "Z", issuedAt: day("2025-02-01"), sharesUnderlying: 1n },
    ],
  });

  await p.offering.createMany({
    data: [
      {
        companyId: AAA.id,
        accessionNumber: "0000000001-25-100001",
        offeringDate: day("2025-05-01"),
        offeringType: "public_offering",
        formType: "424B4",
        shares: 4_000_000n,
        priceMicros: 1_250_000n,
        amountCents: 5_000_000_00n,
        warrantsIssued: 4_000_000n,
        warrantPriceMicros: 1_500_000n,
        underwriter: "Example Securities",
        agentRole: "underwriter",
        netProceedsCents: 4_650_000_00n,
        feeBps: 700,
        overallotmentShares: 600_000n,
        anticipatedAmountCents: 6_000_000_00n,
        revisedAmountCents: 5_750_000_00n,
      },
      {
        companyId: AAA.id,
        accessionNumber: "0000000001-25-100002",
        offeringDate: day("2025-05-01"),
        offeringType: "atm",
        amountCents: 123_456_789n,
      },
      {
        companyId: BBB.id,
        accessionNumber: "0000000002-25-100003",
        offeringDate: day("2025-01-15"),
        offeringType: "pipe",
        formType: "8-K",
        shares: 2_000_000n,
        priceMicros: 999_999n,
        amountCents: 1_999_998_00n,
      },
      {
        companyId: AAA.id,
        accessionNumber: "0000000001-23-100004",
        offeringDate: day("2023-01-01"),
        offeringType: "registered_direct",
        amountCents: 1_000_000_00n,
      },
      {
        companyId: ZZZ.id,
        accessionNumber: "0000000009-25-100005",
        offeringDate: day("2025-03-01"),
        offeringType: "pipe",
        amountCents: 1n,
      },
    ],
  });
});
afterAll(() => db?.close());

function query(overrides: Partial<RecordQuery> = {}): RecordQuery {
  return { companies: [AAA, BBB, CCC], offset: 0, limit: 100, asOf: AS_OF, ...overrides };
}

async function fetch(endpoint: EndpointName, overrides: Partial<RecordQuery> = {}): Promise<JsonRecord[]> {
  return RECORD_SOURCES[endpoint](db.prisma, query(overrides));
}

/** Walks the pages like a client: page 1, 2, … while the extra record says has_more. */
async function walk(endpoint: EndpointName, limit: number, overrides: Partial<RecordQuery> = {}): Promise<JsonRecord[]> {
  const all: JsonRecord[] = [];
  for (let page = 1; page < 100; page++) {
    const records = await fetch(endpoint, { ...overrides, offset: (page - 1) * limit, limit });
    expect(records.length).toBeLessThanOrEqual(limit + 1);
    all.push(...records.slice(0, limit));
    if (records.length <= limit) return all;
  }
  throw new Error("too many pages");
}

/** Every record's identity: what makes it unique within its endpoint. */
function identity(endpoint: EndpointName, r: JsonRecord): string {
  switch (endpoint) {
    case "registrations":
    case "offerings":
      return String(r.accession_number);
    case "nasdaq-compliance":
      return `${r.ticker}|${r.deficiency}|${r.notice_date}`;
    case "float-outstanding":
      return `${r.ticker}|${r.as_of}`;
    case "dilution-data":
      return `${r.ticker}|${r.instrument_type}|${r.name}`;
    case "dilution-rating":
      return String(r.ticker);
    case "reverse-splits":
      return `${r.ticker}|${r.effective_date}`;
  }
}

describe("units", () => {
  it("converts cents, micros and basis points exactly", () => {
    expect(centsToDollars(123_456_789n)).toBe(1234567.89);
    expect(centsToDollars(5n)).toBe(0.05);
    expect(centsToDollars(-150n)).toBe(-1.5);
    expect(centsToDollars(0n)).toBe(0);
    expect(centsToDollars(null)).toBeNull();
    expect(centsToDollars(900_719_925_474_099_300n)).toBe(9007199254740993);
    expect(microsToDollars(1_234_500n)).toBe(1.2345);
    expect(microsToDollars(1n)).toBe(0.000001);
    expect(microsToDollars(null)).toBeNull();
    expect(bpsToPercent(1234)).toBe(12.34);
    expect(bpsToPercent(10_000)).toBe(100);
    expect(bpsToPercent(1)).toBe(0.01);
    expect(bpsToPercent(null)).toBeNull();
    expect(isoDay(day("2025-03-01"))).toBe("2025-03-01");
    expect(isoDay(null)).toBeNull();
  });
});

describe("every data endpoint", () => {
  it.each(ENDPOINT_NAMES.map((e) => [e]))("%s: no companies → [], a company without facts → nothing", async (endpoint) => {
    expect(await fetch(endpoint, { companies: [] })).toEqual([]);
    const none = await fetch(endpoint, { companies: [CCC] });
    if (endpoint === "dilution-rating") expect(none.map((r) => r.ticker)).toEqual(["CCC"]);
    else expect(none).toEqual([]);
  });

  it.each(ENDPOINT_NAMES.map((e) => [e]))("%s: ticker first, other companies' records never returned", async (endpoint) => {
    const records = await fetch(endpoint);
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) {
      expect(Object.keys(r)[0]).toBe("ticker");
      expect(["AAA", "BBB", "CCC"]).toContain(r.ticker);
    }
  });

  it.each(ENDPOINT_NAMES.map((e) => [e]))("%s: walking pages of 2 returns every record exactly once, in order", async (endpoint) => {
    const full = await fetch(endpoint);
    const walked = await walk(endpoint, 2);
    expect(walked).toEqual(full);
    const ids = walked.map((r) => identity(endpoint, r));
    expect(new Set(ids).size).toBe(ids.length);
    // and pages of 1 and 3 too
    expect(await walk(endpoint, 1)).toEqual(full);
    expect(await walk(endpoint, 3)).toEqual(full);
  });

  it.each(ENDPOINT_NAMES.map((e) => [e]))("%s: API_RECORD_FIELDS names exactly the fields its records hold, in their order", async (endpoint) => {
    const fields: readonly string[] = API_RECORD_FIELDS[endpoint];
    const evidence = EVIDENCE_FIELDS[endpoint];
    const plain = await fetch(endpoint);
    const sourced = await fetch(endpoint, { includeSource: true });
    expect(new Set(fields).size).toBe(fields.length);
    // Every listed field appears in some record (an optional one need not be in all) …
    expect(fields.filter((field) => plain.some((record) => field in record))).toEqual(fields);
    for (const [index, record] of plain.entries()) {
      // … and each record holds listed fields only, in the listed order.
      expect(Object.keys(record)).toEqual(fields.filter((field) => field in record));
      expect(Object.keys(sourced[index]!)).toEqual([...Object.keys(record), evidence]);
    }
  });

  it.each(ENDPOINT_NAMES.map((e) => [e]))("%s: returns at most limit + 1 records", async (endpoint) => {
    const records = await fetch(endpoint, { limit: 1 });
    expect(records).toHaveLength(2);
  });
});

describe("registrations", () => {
  it("serializes every field, money in dollars", async () => {
    const records = await fetch("registrations");
    const shelf = records.find((r) => r.accession_number === "0000000001-25-000001");
    expect(shelf).toEqual({
      ticker: "AAA",
      accession_number: "0000000001-25-000001",
      form_type: "S-3",
      file_number: "333-000001",
      filed_date: "2025-03-01",
      effective_date: "2025-03-15",
      expiration_date: "2028-03-15",
      is_effective: true,
      is_expired: false,
      is_atm: false,
      offering_amount: 1234567.89,
      amount_remaining_atm: null,
      over_baby_shelf: false,
      public_float: 45000000.05,
      // The company's room on 2025-06-15: ⅓ of the latest public float (12,345,678 float shares × $1.2345 on 2025-06-01 =
      // $15,240,739.49, ⅓ $5,080,246.49) less what its ATM program, begun 2025-03-01, sold ($10M − $5,000,000.50 left).
      baby_shelf_capacity: 80246.99,
      is_resale: false,
      is_shelf: null,
      atm_agent: null,
      atm_commission_percent: null,
      deregistered_date: null,
      amount_remaining_atm_as_of: null,
      atm_sold_amount: null,
      atm_sold_shares: null,
      atm_report_accession: null,
      baby_shelf_sold_12m: 4999999.5,
      baby_shelf_as_of: "2025-06-15",
      baby_shelf_public_float: 15240739.49,
      baby_shelf_public_float_as_of: "2025-06-01",
    });
    // One figure per company: the ATM program shows the same room.
    const atm = records.find((r) => r.accession_number === "0000000001-25-000002")!;
    expect(atm).toMatchObject({ is_atm: true, amount_remaining_atm: 5000000.5, expiration_date: null, baby_shelf_capacity: 80246.99, baby_shelf_sold_12m: 4999999.5 });
    const bbb = records.find((r) => r.accession_number === "0000000002-25-000005")!;
    expect(bbb).toMatchObject({ over_baby_shelf: true, baby_shelf_capacity: null, is_expired: true, expiration_date: "2025-06-15" });
    // S-1: the baby-shelf cap does not limit it
    expect(records.find((r) => r.accession_number === "0000000001-25-000004")).toMatchObject({
      baby_shelf_capacity: null,
      is_effective: false,
      effective_date: null,
    });
  });

  it("gives the company's baby-shelf room on each S-3/F-3 shelf and ATM program: ⅓ of the latest float less the 12 months' sales, or a stated figure", async () => {
    const p = db.prisma;
    const ddd = await p.company.create({ data: { ticker: "DDD", name: "DDD Corp", exchange: "NASDAQ" }, select: { id: true, ticker: true, isSample: true } });
    const filed = (accession: string, date: string, form: string) => ({
      sourceAccession: accession,
      sourceForm: form,
      sourceFiledAt: day(date),
      sourceUrl: `https://www.sec.gov/Archives/edgar/data/4/${accession.replace(/-/g, "")}/${accession}-index.htm`,
    });
    const shelfRow = {
      companyId: ddd.id,
      accessionNumber: "0000000004-24-000001",
      formType: "S-3",
      fileNumber: "333-777001",
      filedAt: day("2024-01-02"),
      effectiveAt: day("2024-01-15"),
      expiresAt: day("2027-01-15"),
      offeringAmountCents: 50_000_000_00n,
      isEffective: true,
      // a statement of 2023: more than 12 months before the day, it no longer applies (nor its quote)
      babyShelfCapacityCents: 7_000_000_00n,
      babyShelfAsOf: day("2023-01-01"),
      quotes: { baby_shelf_capacity: "leaving $7,000,000 (stale)", offering_amount: "$50,000,000" },
      ...filed("0000000004-24-000001", "2024-01-02", "S-3"),
    };
    // An ATM program begun 2024-09-01 under the shelf: its 10-Q for 2025-03-31 reports $1M sold to date.
    const program = {
      companyId: ddd.id,
      accessionNumber: "0000000004-24-000002",
      formType: "424B5",
      fileNumber: "333-777001",
      filedAt: day("2024-09-01"),
      effectiveAt: day("2024-09-01"),
      expiresAt: day("2027-01-15"),
      offeringAmountCents: 10_000_000_00n,
      isAtm: true,
      atmRemainingCents: 9_000_000_00n,
      atmSoldCents: 1_000_000_00n,
      atmRemainingAsOf: day("2025-03-31"),
      isEffective: true,
      ...filed("0000000004-24-000002", "2024-09-01", "424B5"),
    };
    await p.registration.createMany({ data: [shelfRow, program] });
    await p.offering.createMany({
      data: [
        // a takedown 5 months before the day: $4M; one 13 months before: not counted; the ATM supplement: not a sale
        { companyId: ddd.id, accessionNumber: "0000000004-25-000003", offeringDate: day("2025-01-15"), offeringType: "public_offering", formType: "424B5", fileNumber: "333-777001", amountCents: 4_000_000_00n },
        { companyId: ddd.id, accessionNumber: "0000000004-24-000004", offeringDate: day("2024-05-15"), offeringType: "registered_direct", formType: "424B5", fileNumber: "333-777001", amountCents: 3_000_000_00n },
        { companyId: ddd.id, accessionNumber: "0000000004-24-000002", offeringDate: day("2024-09-01"), offeringType: "atm", formType: "424B5", fileNumber: "333-777001", amountCents: 10_000_000_00n },
      ],
    });
    // The cover page's public float: $30M for 2024-12-31.
    await p.floatSnapshot.create({ data: { companyId: ddd.id, asOf: day("2025-02-20"), outstandingShares: 10_000_000n, publicFloatCents: 30_000_000_00n, publicFloatAsOf: day("2024-12-31") } });

    const rows = await fetch("registrations", { companies: [ddd], includeSource: true });
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({
        baby_shelf_capacity: 5_000_000, // $10M − $4M − $1M
        baby_shelf_sold_12m: 5_000_000,
        baby_shelf_as_of: "2025-06-15",
        baby_shelf_public_float: 30_000_000,
        baby_shelf_public_float_as_of: "2024-12-31",
      });
    }
    const shelfQuotes = (rows.find((r) => r.form_type === "S-3")!.source as { quotes: Record<string, string> }).quotes;
    expect(shelfQuotes).toEqual({ offering_amount: "$50,000,000" });

    // A later supplement states its arithmetic for 2025-05-01: the stated figure wins, on every row, quoted on its own.
    await p.registration.create({
      data: {
        ...program,
        accessionNumber: "0000000004-25-000005",
        filedAt: day("2025-05-01"),
        effectiveAt: day("2025-05-01"),
        atmRemainingCents: 3_000_000_00n,
        atmSoldCents: null,
        atmRemainingAsOf: day("2025-05-01"),
        offeringAmountCents: 3_000_000_00n,
        babyShelfCapacityCents: 2_000_000_00n,
        babyShelfSoldCents: 1_500_000_00n,
        babyShelfAsOf: day("2025-05-01"),
        quotes: { baby_shelf_capacity: "leaving $2,000,000 that could be sold", baby_shelf_sold_12m: "we have sold $1,500,000" },
        ...filed("0000000004-25-000005", "2025-05-01", "424B5"),
      },
    });
    const stated = await fetch("registrations", { companies: [ddd], includeSource: true });
    expect(stated.map((r) => [r.accession_number, r.baby_shelf_capacity, r.baby_shelf_sold_12m, r.baby_shelf_as_of, r.baby_shelf_public_float])).toEqual([
      ["0000000004-25-000005", 2_000_000, 1_500_000, "2025-05-01", null],
      ["0000000004-24-000002", 2_000_000, 1_500_000, "2025-05-01", null],
      ["0000000004-24-000001", 2_000_000, 1_500_000, "2025-05-01", null],
    ]);
    expect((stated[0]!.source as { quotes: Record<string, string> }).quotes).toMatchObject({ baby_shelf_capacity: expect.stringContaining("$2,000,000") });
    expect((stated[2]!.source as { quotes: Record<string, string> }).quotes).not.toHaveProperty("baby_shelf_capacity");

    // Over $75M: no room is given.
    await p.floatSnapshot.create({ data: { companyId: ddd.id, asOf: day("2025-06-01"), outstandingShares: 10_000_000n, publicFloatCents: 80_000_000_00n, publicFloatAsOf: day("2025-06-01") } });
    const over = await fetch("registrations", { companies: [ddd] });
    expect(over.map((r) => r.baby_shelf_capacity)).toEqual([null, null, null]);
    await p.company.delete({ where: { id: ddd.id } });
  });

  it("orders by filed date desc, then ticker, then id", async () => {
    const records = await fetch("registrations");
    const aaaSameDay = await db.prisma.registration.findMany({
      where: { companyId: AAA.id, filedAt: day("2025-03-01") },
      select: { id: true, accessionNumber: true },
    });
    const byId = aaaSameDay.sort((a, b) => (a.id < b.id ? -1 : 1)).map((r) => r.accessionNumber);
    expect(records.map((r) => r.accession_number)).toEqual([
      "0000000002-25-000007", // 2025-06-10 BBB
      "0000000001-25-000004", // 2025-06-01 AAA
      ...byId, // 2025-03-01 AAA ×2 by id
      "0000000002-25-000005", // 2025-03-01 BBB
      "0000000002-24-000006", // 2024-12-31
      "0000000001-22-000003", // 2022-01-10
    ]);
  });

  it("filters by filed date, inclusive at both ends", async () => {
    const records = await fetch("registrations", { dateFrom: day("2025-03-01"), dateTo: day("2025-06-01") });
    expect(records.map((r) => r.filed_date)).toEqual(["2025-06-01", "2025-03-01", "2025-03-01", "2025-03-01"]);
    const from = await fetch("registrations", { dateFrom: day("2025-06-01") });
    expect(from.map((r) => r.filed_date)).toEqual(["2025-06-10", "2025-06-01"]);
    const to = await fetch("registrations", { dateTo: day("2024-12-31") });
    expect(to.map((r) => r.filed_date)).toEqual(["2024-12-31", "2022-01-10"]);
    expect(await walk("registrations", 2, { dateFrom: day("2025-03-01"), dateTo: day("2025-06-01") })).toEqual(records);
  });

  it("effectiveOnly keeps effective registrations not expired at asOf", async () => {
    const records = await fetch("registrations", { effectiveOnly: true });
    expect(records.map((r) => r.accession_number).sort()).toEqual([
      "0000000001-25-000001",
      "0000000001-25-000002",
      "0000000002-24-000006",
    ]);
    for (const r of records) expect(r).toMatchObject({ is_effective: true, is_expired: false });
    // a later asOf: the F-3 expiring 2025-06-16 is gone
    const later = await fetch("registrations", { effectiveOnly: true, asOf: new Date("2025-06-16T00:00:00Z") });
    expect(later.map((r) => r.accession_number).sort()).toEqual(["0000000001-25-000001", "0000000001-25-000002"]);
    // combined with a date range
    const ranged = await fetch("registrations", { effectiveOnly: true, dateTo: day("2025-01-01") });
    expect(ranged.map((r) => r.accession_number)).toEqual(["0000000002-24-000006"]);
  });
});

describe("nasdaq-compliance", () => {
  it("serializes deficiency, status, risk level and status updates", async () => {
    const records = await fetch("nasdaq-compliance");
    expect(records[records.length - 1]).toEqual({
      ticker: "AAA",
      deficiency: "stockholders_equity",
      status: "resolved",
      risk_level: "Low",
      notice_date: "2024-05-01",
      deadline: "2024-10-28",
      resolved_date: "2024-10-01",
      status_updates: [],
    });
    expect(records.find((r) => r.ticker === "AAA" && r.deficiency === "minimum_bid_price")).toEqual({
      ticker: "AAA",
      deficiency: "minimum_bid_price",
      status: "active",
      risk_level: "High",
      notice_date: "2025-04-01",
      deadline: "2025-09-29",
      resolved_date: null,
      status_updates: [
        { date: "2025-04-01", text: "Notice received: bid price below $1.00 for 30 days." },
        { date: "2025-05-20", text: "Company plans a reverse split." },
      ],
    });
    const empty = records.find((r) => r.ticker === "BBB" && r.notice_date === "2025-04-01")!;
    expect(empty.deficiency).toBe("");
    expect(empty.deadline).toBeNull();
  });

  it("orders by notice date desc, then ticker", async () => {
    const records = await fetch("nasdaq-compliance");
    expect(records.map((r) => `${r.notice_date} ${r.ticker}`)).toEqual([
      "2025-04-02 BBB",
      "2025-04-01 AAA",
      "2025-04-01 BBB",
      "2024-05-01 AAA",
    ]);
  });

  it("filters by notice date, inclusive", async () => {
    const records = await fetch("nasdaq-compliance", { dateFrom: day("2025-04-01"), dateTo: day("2025-04-01") });
    expect(records.map((r) => `${r.notice_date} ${r.ticker}`)).toEqual(["2025-04-01 AAA", "2025-04-01 BBB"]);
    const wide = await fetch("nasdaq-compliance", { dateFrom: day("2024-05-01"), dateTo: day("2025-04-02") });
    expect(wide).toHaveLength(4);
    expect(await fetch("nasdaq-compliance", { dateFrom: day("2024-05-02"), dateTo: day("2025-03-31") })).toEqual([]);
  });
});

describe("reverse-splits", () => {
  it("serializes each split as its ratio and date, latest first, with the filing's words under include=source", async () => {
    const records = await fetch("reverse-splits", { includeSource: true });
    expect(records.map((r) => [r.ticker, r.effective_date, r.ratio])).toEqual([
      ["BBB", "2025-05-06", "2-for-9"],
      ["AAA", "2024-07-16", "1-for-10"],
      ["AAA", "2023-10-31", "1-for-15"],
    ]);
    expect(records[1]).toEqual({
      ticker: "AAA",
      effective_date: "2024-07-16",
      ratio: "1-for-10",
      old_shares: 10,
      new_shares: 1,
      source: {
        type: "sec_filing",
        accession_number: "0000000001-25-000009",
        form: "424B5",
        filed_date: "2025-03-01",
        url: "https://www.sec.gov/Archives/edgar/data/1/000000000125000009/0000000001-25-000009-index.htm",
        quotes: { ratio: "a 1-for-10 reverse stock split", effective_date: "effective July 16, 2024" },
      },
    });
    expect((await fetch("reverse-splits", { dateFrom: day("2024-01-01"), dateTo: day("2024-12-31") })).map((r) => r.effective_date)).toEqual(["2024-07-16"]);
  });
});

describe("float-outstanding", () => {
  it("serializes shares, price, market cap and ownership percent", async () => {
    const records = await fetch("float-outstanding");
    expect(records[0]).toEqual({
      ticker: "AAA",
      as_of: "2025-06-01",
      float: 12_345_678,
      outstanding: 20_000_000,
      price: 1.2345,
      market_cap_final: 24690000.01,
      insider_ownership_pct: 12.34,
      institutional_ownership_pct: 5.67,
    });
    expect(records[1]).toMatchObject({ ticker: "BBB", insider_ownership_pct: 100, institutional_ownership_pct: 0.01 });
  });

  it("leaves market_cap_final out when it is unknown", async () => {
    const records = await fetch("float-outstanding");
    const old = records.find((r) => r.as_of === "2025-03-01")!;
    expect(old).toEqual({
      ticker: "AAA",
      as_of: "2025-03-01",
      float: 10_000_000,
      outstanding: 18_000_000,
      price: null,
      insider_ownership_pct: null,
      institutional_ownership_pct: null,
    });
    expect("market_cap_final" in old).toBe(false);
    expect(JSON.stringify(old)).not.toContain("market_cap_final");
  });

  it("orders by as-of desc, then ticker", async () => {
    const records = await fetch("float-outstanding");
    expect(records.map((r) => `${r.as_of} ${r.ticker}`)).toEqual(["2025-06-01 AAA", "2025-06-01 BBB", "2025-03-01 AAA"]);
  });
});

describe("dilution-data", () => {
  it("serializes instruments with dollars and share counts", async () => {
    // what an instrument the ledger has not followed or adjusted shows
    const LEDGER_DEFAULTS = {
      status: "outstanding",
      as_of: null,
      conversion_price: null,
      stated_shares_underlying: null,
      stated_price: null,
      split_adjustment: null,
      anti_dilution: null,
      holders: null,
      placement_agent: null,
      reported_total: false,
      xbrl_check: null,
    };
    const records = await fetch("dilution-data");
    expect(records).toEqual([
      {
        ticker: "AAA",
        instrument_type: "warrant",
        name: "February 2025 common warrants",
        issued_date: "2025-02-01",
        expiration_date: "2030-02-01",
        shares_underlying: 5_000_000,
        exercise_price: 1.5,
        principal_amount: null,
        remaining_amount: null,
        registered: true,
        pre_funded: false,
        exercisable_date: "2025-08-01",
        ...LEDGER_DEFAULTS,
      },
      {
        ticker: "BBB",
        instrument_type: "warrant",
        name: "Pre-funded warrants",
        issued_date: "2025-02-01",
        expiration_date: null,
        shares_underlying: 1_000_000,
        exercise_price: 0.0001,
        principal_amount: null,
        remaining_amount: null,
        registered: false,
        pre_funded: true,
        exercisable_date: null,
        ...LEDGER_DEFAULTS,
        holders: ["A Fund", "B Fund", `${"C".repeat(97)}…`, "D Fund", "E Fund"],
        placement_agent: `${"P".repeat(97)}…`,
      },
      {
        ticker: "AAA",
        instrument_type: "convertible_note",
        name: "8% senior convertible note",
        issued_date: "2024-08-01",
        expiration_date: null,
        shares_underlying: 3_000_000,
        exercise_price: 2.000001,
        principal_amount: 5_000_000,
        remaining_amount: 2500000.25,
        registered: null,
        pre_funded: false,
        exercisable_date: null,
        ...LEDGER_DEFAULTS,
        as_of: "2025-03-31",
        conversion_price: 2.000001,
        stated_shares_underlying: 30_000_000,
        stated_price: 0.2,
        split_adjustment: "1-for-10",
        anti_dilution: "full_ratchet",
        holders: ["Example Capital Master Fund Ltd.", "Second Street Partners LP"],
        placement_agent: "Example Securities & Co., LLC",
        xbrl_check: { verdict: "disagrees", used: "text", xbrl_value: 2.5, xbrl_accession: "0000000001-25-000099" },
      },
    ]);
  });

  it("quotes the holders and the placement agent under include=source, with the filing that names them", async () => {
    const records = await fetch("dilution-data", { includeSource: true });
    const note = records.find((r) => r.name === "8% senior convertible note")!;
    expect(note.source).toEqual({
      type: "sec_filing",
      accession_number: "0000000001-24-000801",
      form: "8-K",
      filed_date: "2024-08-02",
      url: "https://www.sec.gov/Archives/edgar/data/1/000000000124000801/0000000001-24-000801-index.htm",
      quotes: {
        holders: "a note purchase agreement with Example Capital Master Fund Ltd. and Second Street Partners LP (the “Purchasers”)",
        placement_agent: "Example Securities & Co., LLC acted as the exclusive placement agent",
      },
    });
  });
});

describe("offerings", () => {
  it("serializes offerings, ordered by date desc, ticker, id", async () => {
    const records = await fetch("offerings");
    const sameDay = await db.prisma.offering.findMany({
      where: { companyId: AAA.id, offeringDate: day("2025-05-01") },
      select: { id: true, accessionNumber: true },
    });
    const byId = sameDay.sort((a, b) => (a.id < b.id ? -1 : 1)).map((o) => o.accessionNumber);
    expect(records.map((r) => r.accession_number)).toEqual([...byId, "0000000002-25-100003", "0000000001-23-100004"]);
    expect(records.find((r) => r.accession_number === "0000000001-25-100001")).toEqual({
      ticker: "AAA",
      offering_date: "2025-05-01",
      offering_type: "public_offering",
      form_type: "424B4",
      shares: 4_000_000,
      price: 1.25,
      amount: 5_000_000,
      warrants_issued: 4_000_000,
      warrant_exercise_price: 1.5,
      underwriter: "Example Securities",
      accession_number: "0000000001-25-100001",
      status: "priced",
      agent_role: "underwriter",
      prefunded_warrants: null,
      prefunded_warrant_price: null,
      net_proceeds: 4_650_000,
      fee_percent: 7,
      overallotment_shares: 600_000,
      anticipated_amount: 6_000_000,
      revised_anticipated_amount: 5_750_000,
      withdrawn_date: null,
    });
    expect(records.find((r) => r.accession_number === "0000000001-25-100002")).toEqual({
      ticker: "AAA",
      offering_date: "2025-05-01",
      offering_type: "atm",
      form_type: null,
      shares: null,
      price: null,
      amount: 1234567.89,
      warrants_issued: null,
      warrant_exercise_price: null,
      underwriter: null,
      accession_number: "0000000001-25-100002",
      status: "priced",
      agent_role: null,
      prefunded_warrants: null,
      prefunded_warrant_price: null,
      net_proceeds: null,
      fee_percent: null,
      overallotment_shares: null,
      anticipated_amount: null,
      revised_anticipated_amount: null,
      withdrawn_date: null,
    });
    expect(records.find((r) => r.accession_number === "0000000002-25-100003")).toMatchObject({ price: 0.999999, amount: 1999998 });
  });

  it("filters by offering date, inclusive", async () => {
    const records = await fetch("offerings", { dateFrom: day("2025-01-15"), dateTo: day("2025-05-01") });
    expect(records.map((r) => r.offering_date)).toEqual(["2025-05-01", "2025-05-01", "2025-01-15"]);
    expect(await fetch("offerings", { dateFrom: day("2025-05-02") })).toEqual([]);
    expect((await fetch("offerings", { dateTo: day("2023-01-01") })).map((r) => r.accession_number)).toEqual([
      "0000000001-23-100004",
    ]);
  });
});

describe("dilution-rating", () => {
  const SPEC_FIELDS: Record<string, string> = {
    ticker: "string",
    offering_ability: "rating",
    offering_ability_desc: "string",
    dilution: "rating",
    dilution_desc: "string",
    offering_frequency: "rating",
    offering_frequency_desc: "string",
    cash_need: "rating",
    cash_need_desc: "string",
    nasdaq_compliance: "rating",
    nasdaq_compliance_desc: "string",
    overall_offering_risk: "rating",
    regsho: "boolean|null",
    estimated_cash: "number|null",
    cash_burn: "number|null",
    cash_remaining_months: "number|null",
    warrant_exercise: "rating",
    warrant_exercise_desc: "string",
    going_concern: "boolean|null",
  };

  it("returns one engine rating per requested company, by ticker", async () => {
    const records = await fetch("dilution-rating", { companies: [CCC, AAA, BBB, AAA] });
    expect(records.map((r) => r.ticker)).toEqual(["AAA", "BBB", "CCC"]);
    const inputs = await loadRatingInputs(db.prisma, [AAA.id, BBB.id, CCC.id], AS_OF);
    for (const [i, c] of [AAA, BBB, CCC].entries()) {
      const loaded = inputs.get(c.id);
      expect(loaded).toBeDefined();
      expect(records[i]).toEqual(computeDilutionRating({ ...loaded!, ticker: c.ticker }));
    }
    for (const r of records) {
      expect(Object.keys(r).sort()).toEqual(Object.keys(SPEC_FIELDS).sort());
      for (const [field, type] of Object.entries(SPEC_FIELDS)) {
        const value = r[field];
        if (type === "rating") expect(["Low", "Medium", "High"]).toContain(value);
        else if (type === "number|null") expect(value === null || typeof value === "number").toBe(true);
        else if (type === "boolean|null") expect(value === null || typeof value === "boolean").toBe(true);
        else expect(typeof value).toBe(type);
      }
    }
  });

  it("pages over the companies: limit + 1 per page", async () => {
    expect((await fetch("dilution-rating", { limit: 2 })).map((r) => r.ticker)).toEqual(["AAA", "BBB", "CCC"]);
    expect((await fetch("dilution-rating", { limit: 2, offset: 2 })).map((r) => r.ticker)).toEqual(["CCC"]);
    expect(await fetch("dilution-rating", { limit: 2, offset: 4 })).toEqual([]);
  });
});

describe("tickers", () => {
  it("resolveCompanies returns the known tickers, once each, by ticker", async () => {
    expect(await resolveCompanies(db.prisma, ["BBB", "NOPE", "AAA", "AAA"])).toEqual([AAA, BBB]);
    expect(await resolveCompanies(db.prisma, [])).toEqual([]);
    expect(await resolveCompanies(db.prisma, ["NOPE"])).toEqual([]);
  });

  it("spreadTickers spreads n tickers over the ordered list, deterministically", async () => {
    expect(await spreadTickers(db.prisma, 2)).toEqual(["AAA", "CCC"]);
    expect(await spreadTickers(db.prisma, 1)).toEqual(["AAA"]);
    expect(await spreadTickers(db.prisma, 4)).toEqual(["AAA", "BBB", "CCC", "ZZZ"]);
    expect(await spreadTickers(db.prisma, 10)).toEqual(["AAA", "BBB", "CCC", "ZZZ"]);
    expect(await spreadTickers(db.prisma, 0)).toEqual([]);
    expect(await spreadTickers(db.prisma, 2)).toEqual(await spreadTickers(db.prisma, 2));
  });
});
