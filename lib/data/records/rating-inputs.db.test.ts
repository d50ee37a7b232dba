import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, PrismaClient } from "@/lib/db";
import { babyShelfRoom, computeDilutionRating, computeOfferingCapacity } from "@/lib/ratings/engine";
import { openTestDatabase } from "@/tests/support/database";
import { loadBabyShelfInputs, loadRatingInputs } from "./rating-inputs";

const AS_OF = new Date("2025-06-15T14:30:00Z");
const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
const DOLLAR = 100n;
const M = 1_000_000n;

let db: Database;
let acmeId: string;
let bareId: string;

beforeAll(async () => {
  db = await openTestDatabase();
  const prisma = db.prisma;
  const suffix = Math.random().toString(36).slice(2, 8).toUpperCase();

  const acme = await prisma.company.create({
    data: { ticker: `ACME${suffix}`, name: "Acme Sample Corp", exchange: "NASDAQ", isSample: true },
  });
  acmeId = acme.id;
  const bare = await prisma.company.create({
    data: { ticker: `BARE${suffix}`, name: "Bare Sample Inc", exchange: "NASDAQ", isSample: true },
  });
  bareId = bare.id;

  await prisma.financialReport.createMany({
    data: [
      // Older report: must not be used.
      { companyId: acmeId, periodEnd: day("2024-12-31"), filedAt: day("2025-02-15"), cashCents: 9n * M * DOLLAR, quarterlyBurnCents: 1n * M * DOLLAR },
      // Latest report by asOf: $2.0M cash, $913,125 per quarter = $10K a day.
      {
        companyId: acmeId,
        periodEnd: day("2025-03-31"),
        filedAt: day("2025-05-10"),
        cashCents: 2n * M * DOLLAR,
        quarterlyBurnCents: 913_125n * DOLLAR,
        regSho: true,
        goingConcern: true,
        goingConcernAccession: "0000000009-25-000001",
        quotes: { going_concern: "These conditions raise substantial doubt about the Company's ability to continue as a going concern." },
      },
      // Filed after asOf: must not be used.
      { companyId: acmeId, periodEnd: day("2025-06-30"), filedAt: day("2025-08-10"), cashCents: 50n * M * DOLLAR, quarterlyBurnCents: 0n },
    ],
  });

  await prisma.registration.createMany({
    data: [
      {
        companyId: acmeId,
        accessionNumber: `0000000001-24-${suffix}`,
        formType: "S-3",
        fileNumber: "333-000001",
        filedAt: day("2024-01-02"),
        effectiveAt: day("2024-01-15"),
        expiresAt: day("2027-01-15"),
        offeringAmountCents: 50n * M * DOLLAR,
        isEffective: true,
      },
      {
        companyId: acmeId,
        accessionNumber: `0000000002-24-${suffix}`,
        formType: "S-3",
        fileNumber: "333-000001",
        filedAt: day("2024-02-01"),
        effectiveAt: day("2024-02-01"),
        expiresAt: day("2027-01-15"),
        offeringAmountCents: 10n * M * DOLLAR,
        isAtm: true,
        atmRemainingCents: 2n * M * DOLLAR,
        // The 10-Q states $7M sold (it also sold nothing more, and $1M went to fees): the stated sales count.
        atmSoldCents: 7n * M * DOLLAR,
        atmRemainingAsOf: day("2025-03-31"),
        isEffective: true,
      },
      {
        companyId: acmeId,
        accessionNumber: `0000000003-21-${suffix}`,
        formType: "S-3",
        fileNumber: "333-000000",
        filedAt: day("2021-01-02"),
        effectiveAt: day("2021-01-15"),
        expiresAt: day("2024-01-15"),
        offeringAmountCents: 20n * M * DOLLAR,
        isEffective: true,
      },
      // Not capacity: selling holders' shares, and an S-1 for one offering (an offering, not a shelf).
      {
        companyId: acmeId,
        accessionNumber: `0000000004-24-${suffix}`,
        formType: "S-1",
        fileNumber: "333-000004",
        filedAt: day("2024-03-01"),
        effectiveAt: day("2024-03-10"),
        expiresAt: day("2027-03-10"),
        offeringAmountCents: 90n * M * DOLLAR,
        isEffective: true,
        isResale: true,
      },
      {
        companyId: acmeId,
        accessionNumber: `0000000005-24-${suffix}`,
        formType: "S-1",
        fileNumber: "333-000005",
        filedAt: day("2024-04-01"),
        effectiveAt: day("2024-04-10"),
        expiresAt: day("2027-04-10"),
        offeringAmountCents: 80n * M * DOLLAR,
        isEffective: true,
        isShelf: false,
      },
    ],
  });

  const offering = (n: number, date: string, offeringType: string, priceMicros: bigint | null = null) => ({
    companyId: acmeId,
    accessionNumber: `0000000100-${n}-${suffix}`,
    offeringDate: day(date),
    offeringType,
    amountCents: 1n * M * DOLLAR,
    priceMicros,
  });
  await prisma.offering.createMany({
    data: [
      offering(1, "2024-07-01", "public_offering", 2_000_000n), // the latest offering price on 2025-06-15
      offering(2, "2025-01-10", "atm"),
      offering(3, "2025-03-01", "warrant_exercise", 1_500_000n), // an exercise price, not a share price
      offering(4, "2023-06-14", "pipe", 5_000_000n), // one day before the window
      offering(5, "2025-06-16", "registered_direct", 7_000_000n), // after asOf
      { ...offering(6, "2025-02-01", "best_efforts", 8_000_000n), status: "pending" }, // announced, not sold
    ],
  });

  await prisma.dilutionInstrument.createMany({
    data: [
      { companyId: acmeId, instrumentType: "warrant", name: "Series A", issuedAt: day("2024-07-01"), expiresAt: day("2029-07-01"), sharesUnderlying: 3_100_000n, exercisePriceMicros: 1_500_000n },
      {
        companyId: acmeId,
        instrumentType: "convertible_note",
        name: "2025 Note",
        issuedAt: day("2025-01-10"),
        sharesUnderlying: 1n * M,
        conversionPriceMicros: 1_000_000n,
        principalCents: 1n * M * DOLLAR,
        remainingCents: 1n * M * DOLLAR,
      },
      { companyId: acmeId, instrumentType: "warrant", name: "Old", issuedAt: day("2020-01-01"), expiresAt: day("2025-01-01"), sharesUnderlying: 9n * M },
      // The ledger's states: pre-funded (in the money whatever the price), exercised in full by 2025-05-01, a note with no fixed count.
      { companyId: acmeId, instrumentType: "warrant", name: "Pre-funded", issuedAt: day("2025-01-10"), sharesUnderlying: 500_000n, exercisePriceMicros: 100n, preFunded: true, status: "outstanding", asOf: day("2025-03-31") },
      { companyId: acmeId, instrumentType: "warrant", name: "Series B", issuedAt: day("2024-07-01"), expiresAt: day("2029-07-01"), sharesUnderlying: 2n * M, exercisePriceMicros: 400_000n, status: "exercised", asOf: day("2025-05-01") },
      { companyId: acmeId, instrumentType: "convertible_note", name: "Variable note", issuedAt: day("2025-02-01"), sharesUnderlying: null, principalCents: 500_000n * DOLLAR, remainingCents: 500_000n * DOLLAR },
    ],
  });

  await prisma.reverseSplit.createMany({
    data: [
      { companyId: acmeId, effectiveDate: day("2024-06-14"), oldShares: 10 }, // one day before the 12-month window
      { companyId: acmeId, effectiveDate: day("2024-09-01"), oldShares: 20 },
      { companyId: acmeId, effectiveDate: day("2025-06-20"), oldShares: 5 }, // after asOf
    ],
  });

  await prisma.dailyPrice.createMany({
    data: [
      { companyId: acmeId, date: day("2025-01-02"), closeMicros: 3_000_000n },
      { companyId: acmeId, date: day("2025-06-13"), closeMicros: 1_250_000n },
      { companyId: acmeId, date: day("2025-06-16"), closeMicros: 9_000_000n }, // after asOf
    ],
  });

  await prisma.complianceDeficiency.createMany({
    data: [
      { companyId: acmeId, deficiency: "minimum_bid_price", status: "active", risk: "High", noticeDate: day("2025-01-15"), deadline: day("2025-07-14") },
      { companyId: acmeId, deficiency: "stockholders_equity", status: "resolved", risk: "Low", noticeDate: day("2023-03-01"), resolvedAt: day("2023-09-01") },
    ],
  });

  await prisma.floatSnapshot.createMany({
    data: [
      { companyId: acmeId, asOf: day("2025-01-01"), floatShares: 1n * M, outstandingShares: 2n * M, priceMicros: 9_000_000n },
      { companyId: acmeId, asOf: day("2025-06-14"), floatShares: 12n * M, outstandingShares: 16_200_000n, priceMicros: 1_000_000n },
      { companyId: acmeId, asOf: day("2025-06-20"), floatShares: 99n * M, outstandingShares: 99n * M, priceMicros: 9_000_000n },
    ],
  });
});

afterAll(() => db?.close());

describe("loadRatingInputs", () => {
  it("loads the facts of a company as of a day and rates them", async () => {
    const inputs = await loadRatingInputs(db.prisma, [acmeId], AS_OF);
    const acme = inputs.get(acmeId)!;
    expect(acme.latestFinancials?.periodEnd).toEqual(day("2025-03-31"));
    expect(acme.latestFloat?.asOf).toEqual(day("2025-06-14"));
    expect(acme.registrations).toHaveLength(3);
    expect(acme.offerings.map((o) => o.offeringType)).toEqual(["public_offering", "atm", "warrant_exercise"]);
    // Issue order (same-day ones by id); the exercised and the uncounted are loaded too: the engine decides.
    expect(acme.instruments.map((i) => i.name).sort()).toEqual(["2025 Note", "Pre-funded", "Series A", "Series B", "Variable note"]);
    expect(acme.deficiencies).toHaveLength(2);
    // The instrument ledger's columns, the going-concern statement, the ATM's reported figures, splits and prices.
    expect(acme.instruments.find((i) => i.name === "Series B")).toMatchObject({ status: "exercised", statusAsOf: day("2025-05-01"), preFunded: false });
    expect(acme.instruments.find((i) => i.name === "Pre-funded")).toMatchObject({ status: "outstanding", preFunded: true, sharesUnderlying: 500_000n });
    expect(acme.instruments.find((i) => i.name === "Variable note")).toMatchObject({ sharesUnderlying: null, statusAsOf: null });
    expect(acme.instruments.find((i) => i.name === "2025 Note")).toMatchObject({ conversionPriceMicros: 1_000_000n, exercisePriceMicros: null });
    expect(acme.latestFinancials).toMatchObject({ goingConcern: true, goingConcernAccession: "0000000009-25-000001" });
    expect(acme.registrations.find((r) => r.isAtm)).toMatchObject({ atmSoldCents: 7n * M * DOLLAR, atmRemainingAsOf: day("2025-03-31") });
    // every split by the day (an older one moves an older offering price to today's basis); the engine takes the last 12 months' for the risk
    expect(acme.reverseSplits).toEqual([
      { effectiveDate: day("2024-06-14"), oldShares: 10, newShares: 1, source: null },
      { effectiveDate: day("2024-09-01"), oldShares: 20, newShares: 1, source: null },
    ]);
    expect(acme.latestClose).toEqual({ date: day("2025-06-13"), closeMicros: 1_250_000n });
    expect(acme.latestOfferingPrice).toEqual({ offeringDate: day("2024-07-01"), priceMicros: 2_000_000n, source: null });

    const rating = computeDilutionRating(acme);
    expect(rating).toEqual({
      ticker: acme.ticker,
      offering_ability: "High",
      offering_ability_desc:
        // The ATM program began 2024-02-01, before the 12 months: of its $7.0M sold to date, what fell in them is not known.
        "S-3 shelf effective, $4.0M raisable under the baby-shelf limit (1/3 of the $12.0M public float; the 2024-02-01 ATM program's sales in the last 12 months (of $7.0M to date) not known), 24.7% of the $16.2M market cap; shelf size net of $7.0M sold on its ATM; ATM with $2.0M remaining",
      dilution: "High",
      // Series B was exercised, the variable note has no fixed count: 3.1M + 1.0M + 0.5M + 4.0M on the shelf = 8.6M of 16.2M.
      dilution_desc:
        "53.1% potential dilution: 4.6M shares from warrants and convertibles (3.1M Series A at $1.50; 1.0M 2025 Note at $1.00; 1 more), plus 1 convertible with no fixed share count (not counted), 4.0M raisable on the shelf, vs 16.2M outstanding",
      offering_frequency: "Medium",
      offering_frequency_desc: "1 offering, 1 ATM use, 0 PIPEs, 1 warrant exercise in the last 2 years",
      cash_need: "High",
      cash_need_desc:
        "4.1 months of cash left at the current burn ($913K per quarter): estimated $1.2M now, from $2.0M reported for the period ended 2025-03-31; the report for the period ended 2025-03-31 (0000000009-25-000001) states substantial doubt about continuing as a going concern",
      nasdaq_compliance: "High",
      nasdaq_compliance_desc: "Active minimum bid price deficiency: notice 2025-01-15, deadline 2025-07-14 (29 days left); 1-for-20 reverse split effective 2024-09-01",
      overall_offering_risk: "High",
      regsho: true,
      estimated_cash: 1_240_000,
      cash_burn: 913_125,
      cash_remaining_months: 4.1,
      // 0.5M pre-funded in full + 3.1M at $1.50 (the $1.25 close is 83% of it) at half = 2.05M of 16.2M.
      warrant_exercise: "Medium",
      warrant_exercise_desc:
        "12.7% of 16.2M outstanding in warrant shares weighted by moneyness (High from 20.0%, Medium from 5.0%): 500K in the money (500K pre-funded), 3.1M near the money at $1.50 (half weight); vs last close $1.25 on 2025-06-13",
      going_concern: true,
    });
  });

  it("loads many companies at once in one statement, and skips unknown ids", async () => {
    let queries = 0;
    const counted = db.prisma.$extends({
      query: {
        $allOperations({ args, query }) {
          queries += 1;
          return query(args);
        },
      },
    }) as unknown as PrismaClient;
    const missing = "00000000-0000-4000-8000-000000000000";
    const inputs = await loadRatingInputs(counted, [acmeId, bareId, missing, acmeId], AS_OF);
    // One round trip: every table's facts (and the Reg SHO list of the day) come in one document per company.
    expect(queries).toBe(1);
    expect([...inputs.keys()].sort()).toEqual([acmeId, bareId].sort());
    // The baby-shelf inputs too: one statement, an entry for every id asked for.
    queries = 0;
    expect([...(await loadBabyShelfInputs(counted, [acmeId, bareId, missing], AS_OF)).keys()]).toEqual([acmeId, bareId, missing]);
    expect(queries).toBe(1);

    const bare = inputs.get(bareId)!;
    expect(bare).toMatchObject({ registrations: [], offerings: [], instruments: [], deficiencies: [], reverseSplits: [] });
    expect(bare.latestFinancials).toBeUndefined();
    expect(bare.latestFloat).toBeUndefined();
    expect(bare.latestClose).toBeUndefined();
    expect(bare.latestOfferingPrice).toBeUndefined();
    const rating = computeDilutionRating(bare);
    expect(rating).toMatchObject({
      cash_need: "Medium",
      cash_need_desc: "No financial report on file: cash position and burn unknown",
      offering_ability: "Low",
      offering_ability_desc: "No effective shelf registration",
      dilution_desc: "0.0% potential dilution: no warrants, convertibles or offering capacity on file",
      offering_frequency_desc: "0 offerings, 0 ATM uses, 0 PIPEs, 0 warrant exercises in the last 2 years",
      nasdaq_compliance: "Low",
      cash_remaining_months: null,
      warrant_exercise: "Low",
      warrant_exercise_desc: "No warrants on file",
      going_concern: null,
    });
  });

  it("takes cash from the latest report that states it, and going concern from the latest that states it", async () => {
    const company = await db.prisma.company.create({ data: { ticker: `TXT${Math.random().toString(36).slice(2, 7).toUpperCase()}`, name: "Text Only Corp", exchange: "NASDAQ" } });
    await db.prisma.financialReport.createMany({
      data: [
        // XBRL: cash and burn, not read for going concern
        { companyId: company.id, periodEnd: day("2024-12-31"), filedAt: day("2025-02-10"), cashCents: 1_500_000n * DOLLAR, quarterlyBurnCents: 300_000n * DOLLAR, sourceAccession: "0000000007-25-000001", sourceForm: "10-Q", sourceFiledAt: day("2025-02-10"), sourceUrl: "https://www.sec.gov/x1" },
        // the 10-K read from its text alone: going concern, no cash
        { companyId: company.id, periodEnd: day("2025-03-31"), filedAt: day("2025-05-15"), cashCents: null, goingConcern: true, goingConcernAccession: "0000000007-25-000002", sourceAccession: "0000000007-25-000002", sourceForm: "10-K", sourceFiledAt: day("2025-05-15"), sourceUrl: "https://www.sec.gov/x2" },
      ],
    });
    const inputs = (await loadRatingInputs(db.prisma, [company.id], AS_OF)).get(company.id)!;
    expect(inputs.latestFinancials).toMatchObject({ periodEnd: day("2024-12-31"), cashCents: 1_500_000n * DOLLAR });
    expect(inputs.goingConcernReport).toMatchObject({ periodEnd: day("2025-03-31"), goingConcern: true, goingConcernAccession: "0000000007-25-000002", source: { accession: "0000000007-25-000002", form: "10-K" } });
    const rating = computeDilutionRating(inputs);
    // ~9.5 months of cash from the 10-Q (Medium), raised for the 10-K's doubt
    expect(rating).toMatchObject({ going_concern: true, cash_need: "High", cash_burn: 300_000 });
    expect(rating.estimated_cash).not.toBeNull();
    expect(rating.cash_need_desc).toContain("reported for the period ended 2024-12-31");
    expect(rating.cash_need_desc).toContain("the report for the period ended 2025-03-31 (0000000007-25-000002) states substantial doubt");
    // before the 10-K was filed: the 10-Q alone, no statement
    const earlier = (await loadRatingInputs(db.prisma, [company.id], day("2025-05-14"))).get(company.id)!;
    expect(earlier.goingConcernReport).toBeNull();
    expect(computeDilutionRating(earlier).going_concern).toBeNull();
  });

  it("loads what the baby-shelf room reads: registrations, the 12 months' takedowns off a registration, the latest float", async () => {
    const inputs = (await loadBabyShelfInputs(db.prisma, [acmeId, bareId], AS_OF)).get(acmeId)!;
    // the same registrations the ratings read, and no offering without a file number
    expect(inputs.registrations).toHaveLength(3);
    expect(inputs.offerings).toEqual([]);
    expect(inputs.latestFloat?.asOf).toEqual(day("2025-06-14"));
    const room = babyShelfRoom(inputs);
    expect(room).toMatchObject({ status: "applies", basis: "computed", capacityCents: null, thirdCents: 4n * M * DOLLAR, publicFloat: { cents: 12n * M * DOLLAR, asOf: day("2025-06-14"), source: "float_snapshot" } });
    expect(computeOfferingCapacity((await loadRatingInputs(db.prisma, [acmeId], AS_OF)).get(acmeId)!).babyShelfRoom).toEqual(room);
  });

  it("answers an empty list without querying", async () => {
    let queries = 0;
    const counted = db.prisma.$extends({
      query: {
        $allOperations({ args, query }) {
          queries += 1;
          return query(args);
        },
      },
    }) as unknown as PrismaClient;
    expect((await loadRatingInputs(counted, [], AS_OF)).size).toBe(0);
    expect(queries).toBe(0);
  });

  it("recomputes the rating as of an earlier day from the same rows", async () => {
    const earlier = new Date("2025-03-01T12:00:00Z");
    const acme = (await loadRatingInputs(db.prisma, [acmeId], earlier)).get(acmeId)!;
    expect(acme.latestFinancials?.periodEnd).toEqual(day("2024-12-31"));
    expect(acme.latestFloat?.asOf).toEqual(day("2025-01-01"));
    // Window 2023-03-01 … 2025-03-01, both days included.
    expect(acme.offerings.map((o) => o.offeringType)).toEqual(["pipe", "public_offering", "atm", "warrant_exercise"]);
    const rating = computeDilutionRating(acme);
    expect(rating.offering_frequency_desc).toBe("1 offering, 1 ATM use, 1 PIPE, 1 warrant exercise in the last 2 years");
    expect(rating.offering_frequency).toBe("High");
    expect(rating.nasdaq_compliance_desc).toBe(
      "Active minimum bid price deficiency: notice 2025-01-15, deadline 2025-07-14 (135 days left); reverse splits 1-for-10 effective 2024-06-14 and 1-for-20 effective 2024-09-01",
    );
    // The 2024-12-31 report was not read for going concern, and the 2025-01-02 close is the latest then. Series B's
    // exercise is stated for 2025-05-01, so on 2025-03-01 it still counts: all 5.6M warrant shares are in the money.
    expect(rating.going_concern).toBeNull();
    expect(acme.latestClose).toEqual({ date: day("2025-01-02"), closeMicros: 3_000_000n });
    expect(rating.warrant_exercise).toBe("High");
    expect(rating.warrant_exercise_desc).toBe(
      "280.0% of 2.0M outstanding in warrant shares weighted by moneyness (High from 20.0%, Medium from 5.0%): 5.6M in the money (5.1M at $0.40-$1.50, 500K pre-funded); vs last close $3.00 on 2025-01-02",
    );
  });

  it("takes the latest offering price for warrants when no market price is on file", async () => {
    // On 2024-12-31 there is no close yet, and the snapshot of that day has no price.
    await db.prisma.floatSnapshot.create({ data: { companyId: acmeId, asOf: day("2024-12-31"), floatShares: 1n * M, outstandingShares: 10n * M } });
    const acme = (await loadRatingInputs(db.prisma, [acmeId], day("2024-12-31"))).get(acmeId)!;
    expect(acme.latestClose).toBeUndefined();
    expect(acme.latestOfferingPrice).toEqual({ offeringDate: day("2024-07-01"), priceMicros: 2_000_000n, source: null });
    // "Old" (no exercise price on file) has not expired yet: half weight. 5.1M + 9.0M ÷ 2 = 9.6M of 10M.
    expect(computeDilutionRating(acme).warrant_exercise_desc).toBe(
      "96.0% of 10.0M outstanding in warrant shares weighted by moneyness (High from 20.0%, Medium from 5.0%): 5.1M in the money (5.1M at $0.40-$1.50), 9.0M at an exercise price not on file (half weight); vs the latest offering price $40.00 on 2024-07-01, split-adjusted from $2.00 (no market price on file)",
    );
  });

  it("uses no report filed after asOf, even for an earlier period", async () => {
    // The 2024-12-31 report was filed on 2025-02-15.
    const acme = (await loadRatingInputs(db.prisma, [acmeId], new Date("2025-02-14T23:00:00Z"))).get(acmeId)!;
    expect(acme.latestFinancials).toBeUndefined();
  });
});
