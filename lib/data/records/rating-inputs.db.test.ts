import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, PrismaClient } from "@/lib/db";
import { computeDilutionRating } from "@/lib/ratings/engine";
import { openTestDatabase } from "@/tests/support/database";
import { loadRatingInputs } from "./rating-inputs";

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

  const offering = (n: number, date: string, offeringType: string) => ({
    companyId: acmeId,
    accessionNumber: `0000000100-${n}-${suffix}`,
    offeringDate: day(date),
    offeringType,
    amountCents: 1n * M * DOLLAR,
  });
  await prisma.offering.createMany({
    data: [
      offering(1, "2024-07-01", "public_offering"),
      offering(2, "2025-01-10", "atm"),
      offering(3, "2025-03-01", "warrant_exercise"),
      offering(4, "2023-06-14", "pipe"), // one day before the window
      offering(5, "2025-06-16", "registered_direct"), // after asOf
      { ...offering(6, "2025-02-01", "best_efforts"), status: "pending" }, // announced, not sold
    ],
  });

  await prisma.dilutionInstrument.createMany({
    data: [
      { companyId: acmeId, instrumentType: "warrant", name: "Series A", issuedAt: day("2024-07-01"), expiresAt: day("2029-07-01"), sharesUnderlying: 3_100_000n, exercisePriceMicros: 1_500_000n },
      { companyId: acmeId, instrumentType: "convertible_note", name: "2025 Note", issuedAt: day("2025-01-10"), sharesUnderlying: 1n * M, principalCents: 1n * M * DOLLAR, remainingCents: 1n * M * DOLLAR },
      { companyId: acmeId, instrumentType: "warrant", name: "Old", issuedAt: day("2020-01-01"), expiresAt: day("2025-01-01"), sharesUnderlying: 9n * M },
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
    expect(acme.instruments.map((i) => i.name)).toEqual(["Series A", "2025 Note"]);
    expect(acme.deficiencies).toHaveLength(2);

    const rating = computeDilutionRating(acme);
    expect(rating).toEqual({
      ticker: acme.ticker,
      offering_ability: "High",
      offering_ability_desc:
        "S-3 shelf effective, $4.0M raisable under the baby-shelf limit (1/3 of the $12.0M public float), 24.7% of the $16.2M market cap; ATM with $2.0M remaining",
      dilution: "High",
      dilution_desc: "50.0% potential dilution: 4.1M shares from warrants and convertibles (3.1M Series A at $1.50; 1.0M 2025 Note), 4.0M raisable on the shelf, vs 16.2M outstanding",
      offering_frequency: "Medium",
      offering_frequency_desc: "1 offering, 1 ATM use, 0 PIPEs, 1 warrant exercise in the last 2 years",
      cash_need: "High",
      cash_need_desc:
        "4.1 months of cash left at the current burn ($913K per quarter): estimated $1.2M now, from $2.0M reported for the period ended 2025-03-31",
      nasdaq_compliance: "High",
      nasdaq_compliance_desc: "Active minimum bid price deficiency: notice 2025-01-15, deadline 2025-07-14 (29 days left)",
      overall_offering_risk: "High",
      regsho: true,
      estimated_cash: 1_240_000,
      cash_burn: 913_125,
      cash_remaining_months: 4.1,
    });
  });

  it("loads many companies at once with one query per table, and skips unknown ids", async () => {
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
    // One per table, and one for the Reg SHO threshold lists (none imported here, so no second).
    expect(queries).toBe(8);
    expect([...inputs.keys()].sort()).toEqual([acmeId, bareId].sort());

    const bare = inputs.get(bareId)!;
    expect(bare).toMatchObject({ registrations: [], offerings: [], instruments: [], deficiencies: [] });
    expect(bare.latestFinancials).toBeUndefined();
    expect(bare.latestFloat).toBeUndefined();
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
    });
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
    expect(rating.nasdaq_compliance_desc).toBe("Active minimum bid price deficiency: notice 2025-01-15, deadline 2025-07-14 (135 days left)");
  });

  it("uses no report filed after asOf, even for an earlier period", async () => {
    // The 2024-12-31 report was filed on 2025-02-15.
    const acme = (await loadRatingInputs(db.prisma, [acmeId], new Date("2025-02-14T23:00:00Z"))).get(acmeId)!;
    expect(acme.latestFinancials).toBeUndefined();
  });
});
