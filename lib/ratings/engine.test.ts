import { describe, expect, it } from "vitest";
import {
  babyShelfRoom,
  computeDilutionRating,
  computeOfferingCapacity,
  countOfferings,
  deficiencyName,
  estimateCash,
  overallOfferingRisk,
  rateCashNeed,
  rateDilution,
  rateNasdaqCompliance,
  rateOfferingAbility,
  rateOfferingFrequency,
  rateWarrantExercise,
  ratingSources,
  sharePriceForWarrants,
  warrantMoneyness,
} from "./engine";
import { MAX_RATING_DESC_BYTES } from "@/lib/data/records/schemas";
import { formatCompact, formatMoney, formatPercentTenths, formatShares, pluralize, roundDiv } from "./format";
import type {
  DeficiencyInput,
  FinancialsInput,
  FloatInput,
  InstrumentInput,
  OfferingInput,
  Rating,
  RatingInputs,
  RegistrationInput,
  ReverseSplitInput,
} from "./types";

// ───────────────────────────── fixtures ─────────────────────────────

/** Mid-afternoon UTC: date rules must use the calendar day, not the instant. */
const AS_OF = new Date("2025-06-15T14:30:00Z");
const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
const DOLLAR = 100n; // cents
const M = 1_000_000n;

function inputs(over: Partial<RatingInputs> = {}): RatingInputs {
  return { ticker: "TEST", asOf: AS_OF, registrations: [], offerings: [], instruments: [], deficiencies: [], ...over };
}

function financials(over: Partial<FinancialsInput> = {}): FinancialsInput {
  return {
    periodEnd: day("2025-06-15"),
    cashCents: 600_000n * DOLLAR,
    quarterlyBurnCents: 300_000n * DOLLAR,
    debtCents: 0n,
    regSho: false,
    ...over,
  };
}

function shelf(over: Partial<RegistrationInput> = {}): RegistrationInput {
  return {
    formType: "S-3",
    filedAt: day("2024-01-02"),
    effectiveAt: day("2024-01-15"),
    expiresAt: day("2027-01-15"),
    offeringAmountCents: 50n * M * DOLLAR,
    isAtm: false,
    atmRemainingCents: null,
    overBabyShelf: false,
    publicFloatCents: null,
    isEffective: true,
    ...over,
  };
}

function atm(over: Partial<RegistrationInput> = {}): RegistrationInput {
  return shelf({ formType: "S-3", isAtm: true, offeringAmountCents: 10n * M * DOLLAR, atmRemainingCents: 2n * M * DOLLAR, ...over });
}

/** 12M float and 16.2M outstanding at $1.00: public float $12M, market cap $16.2M. */
function float(over: Partial<FloatInput> = {}): FloatInput {
  return {
    asOf: day("2025-06-14"),
    floatShares: 12n * M,
    outstandingShares: 16_200_000n,
    priceMicros: 1_000_000n,
    marketCapCents: null,
    ...over,
  };
}

function instrument(over: Partial<InstrumentInput> = {}): InstrumentInput {
  return {
    instrumentType: "warrant",
    name: "Series A warrants",
    issuedAt: day("2024-03-01"),
    expiresAt: day("2029-03-01"),
    sharesUnderlying: 1n * M,
    exercisePriceMicros: 1_500_000n,
    remainingCents: null,
    ...over,
  };
}

function offering(offeringType: string, date = "2025-01-10"): OfferingInput {
  return { offeringDate: day(date), offeringType, amountCents: 1n * M * DOLLAR, shares: null };
}

function deficiency(over: Partial<DeficiencyInput> = {}): DeficiencyInput {
  return {
    deficiency: "minimum_bid_price",
    status: "active",
    noticeDate: day("2025-01-15"),
    deadline: day("2025-12-01"),
    resolvedAt: null,
    ...over,
  };
}

// ───────────────────────────── formatting ─────────────────────────────

describe("compact figures", () => {
  it.each([
    [410_000_000n, "$4.1M"],
    [85_000_000n, "$850K"],
    [850_000n, "$8.5K"],
    [95_000n, "$950"],
    [99_900n, "$999"],
    [99_960n, "$1.0K"],
    [0n, "$0"],
    [49n, "$0"],
    [99_996_000n, "$1.0M"], // $999,960 rounds up into the next unit
    [94_999_900n, "$950K"],
    [120_000_000_000n, "$1.2B"],
    [-120_000_000n, "-$1.2M"],
  ])("formatMoney(%s cents) = %s", (cents, text) => {
    expect(formatMoney(cents)).toBe(text);
  });

  it("formats share counts and percents", () => {
    expect(formatShares(16_200_000n)).toBe("16.2M");
    expect(formatShares(4_149_999n)).toBe("4.1M");
    expect(formatShares(4_150_000n)).toBe("4.2M");
    expect(formatShares(0n)).toBe("0");
    expect(formatCompact(1_000n)).toBe("1.0K");
    expect(formatPercentTenths(382n)).toBe("38.2%");
    expect(formatPercentTenths(5n)).toBe("0.5%");
  });

  it("rounds half away from zero and pluralizes", () => {
    expect(roundDiv(15n, 10n)).toBe(2n);
    expect(roundDiv(14n, 10n)).toBe(1n);
    expect(roundDiv(-15n, 10n)).toBe(-2n);
    expect(pluralize(1, "PIPE")).toBe("1 PIPE");
    expect(pluralize(0, "PIPE")).toBe("0 PIPEs");
    expect(pluralize(2, "ATM use")).toBe("2 ATM uses");
  });
});

// ───────────────────────────── cash need ─────────────────────────────

describe("cash need", () => {
  // $300K per quarter = $100K per month; period end = the as-of day, so no proration.
  it.each<[bigint, Rating, number]>([
    [590_000n, "High", 5.9],
    [594_000n, "High", 5.9], // 5.94 months prints 5.9
    [595_000n, "Medium", 6.0], // 5.95 prints 6.0, and the band follows the printed figure
    [600_000n, "Medium", 6.0],
    [1_790_000n, "Medium", 17.9],
    [1_800_000n, "Low", 18.0],
    [1_810_000n, "Low", 18.1],
  ])("$%s cash at $300K/quarter is %s (%s months)", (dollars, rating, months) => {
    const record = computeDilutionRating(inputs({ latestFinancials: financials({ cashCents: dollars * DOLLAR }) }));
    expect(record.cash_need).toBe(rating);
    expect(record.cash_remaining_months).toBe(months);
  });

  it("explains the runway in months and the burn per quarter", () => {
    const result = rateCashNeed(inputs({ latestFinancials: financials() }));
    expect(result.desc).toBe(
      "6.0 months of cash left at the current burn ($300K per quarter): $600K cash reported for the period ended 2025-06-15",
    );
  });

  it("prorates the quarterly burn over the days since the period end", () => {
    // $913,125 per quarter of 91.3125 days = $10,000 a day; 76 days from 2025-03-31 to 2025-06-15.
    const fin = financials({ periodEnd: day("2025-03-31"), cashCents: 2_000_000n * DOLLAR, quarterlyBurnCents: 913_125n * DOLLAR });
    const estimate = estimateCash(fin, AS_OF);
    expect(estimate.daysElapsed).toBe(76);
    expect(estimate.estimatedCashCents).toBe(1_240_000n * DOLLAR);
    const record = computeDilutionRating(inputs({ latestFinancials: fin }));
    expect(record.estimated_cash).toBe(1_240_000);
    expect(record.cash_burn).toBe(913_125);
    expect(record.cash_remaining_months).toBe(4.1); // 3 × 1.24M ÷ 913,125 = 4.07
    expect(record.cash_need).toBe("High");
    expect(record.cash_need_desc).toBe(
      "4.1 months of cash left at the current burn ($913K per quarter): estimated $1.2M now, from $2.0M reported for the period ended 2025-03-31",
    );
  });

  it("never estimates cash below zero", () => {
    const fin = financials({ periodEnd: day("2024-06-30"), cashCents: 500_000n * DOLLAR, quarterlyBurnCents: 1_200_000n * DOLLAR });
    const record = computeDilutionRating(inputs({ latestFinancials: fin }));
    expect(record.estimated_cash).toBe(0);
    expect(record.cash_remaining_months).toBe(0);
    expect(record.cash_need).toBe("High");
    expect(record.cash_need_desc).toBe(
      "0.0 months of cash left at the current burn ($1.2M per quarter): the $500K reported for the period ended 2024-06-30 is estimated spent",
    );
  });

  it("does not prorate when asOf is before the period end", () => {
    const estimate = estimateCash(financials({ periodEnd: day("2025-06-30") }), AS_OF);
    expect(estimate.daysElapsed).toBe(0);
    expect(estimate.estimatedCashCents).toBe(600_000n * DOLLAR);
  });

  it.each([0n, -250_000n * DOLLAR])("is Low with no runway figure when the burn is %s", (burn) => {
    const fin = financials({ periodEnd: day("2025-03-31"), cashCents: 12n * M * DOLLAR, quarterlyBurnCents: burn });
    const record = computeDilutionRating(inputs({ latestFinancials: fin }));
    expect(record.cash_need).toBe("Low");
    expect(record.cash_remaining_months).toBeNull();
    expect(record.cash_burn).toBe(0);
    expect(record.estimated_cash).toBe(12_000_000); // nothing burned, nothing added
    expect(record.cash_need_desc).toBe(
      "The company is not burning cash (no operating cash burn in the period ended 2025-03-31); $12.0M cash reported",
    );
  });

  it("says so when no financial report is on file", () => {
    const record = computeDilutionRating(inputs());
    expect(record.cash_need).toBe("Medium");
    expect(record.cash_need_desc).toBe("No financial report on file: cash position and burn unknown");
    // Unknown is null, never 0.
    expect(record.estimated_cash).toBeNull();
    expect(record.cash_burn).toBeNull();
    expect(record.cash_remaining_months).toBeNull();
    expect(record.regsho).toBeNull();
  });

  it("takes regsho from the latest financial report", () => {
    expect(computeDilutionRating(inputs({ latestFinancials: financials({ regSho: true }) })).regsho).toBe(true);
    expect(computeDilutionRating(inputs({ latestFinancials: financials({ regSho: false }) })).regsho).toBe(false);
  });
});

// ───────────────────────────── offering ability ─────────────────────────────

describe("offering ability", () => {
  it("is Low with no registration at all", () => {
    expect(rateOfferingAbility(inputs({ latestFloat: float() }))).toEqual({
      rating: "Low",
      desc: "No effective shelf registration",
    });
  });

  it("names the expired shelf (expiring on the as-of day counts as expired)", () => {
    const older = shelf({ expiresAt: day("2024-03-01") });
    const expired = shelf({ expiresAt: day("2025-03-01") });
    const today = shelf({ expiresAt: day("2025-06-15") });
    expect(rateOfferingAbility(inputs({ registrations: [older, expired], latestFloat: float() }))).toEqual({
      rating: "Low",
      desc: "No effective shelf registration: S-3 shelf expired on 2025-03-01",
    });
    expect(rateOfferingAbility(inputs({ registrations: [today], latestFloat: float() })).desc).toBe(
      "No effective shelf registration: S-3 shelf expired on 2025-06-15",
    );
    const tomorrow = shelf({ expiresAt: day("2025-06-16") });
    expect(computeOfferingCapacity(inputs({ registrations: [tomorrow] })).effectiveShelves).toHaveLength(1);
  });

  it("does not count a shelf that is filed but not yet effective", () => {
    const filed = shelf({ filedAt: day("2025-05-01"), effectiveAt: null, isEffective: false });
    expect(rateOfferingAbility(inputs({ registrations: [filed], latestFloat: float() }))).toEqual({
      rating: "Low",
      desc: "No effective shelf registration: S-3 filed on 2025-05-01 is not yet effective",
    });
  });

  it("does not count a shelf whose effective date is after asOf, nor one filed after asOf", () => {
    const later = shelf({ filedAt: day("2025-05-01"), effectiveAt: day("2025-06-20"), isEffective: true });
    const capacity = computeOfferingCapacity(inputs({ registrations: [later, shelf({ filedAt: day("2025-06-16") })] }));
    expect(capacity.effectiveShelves).toHaveLength(0);
    expect(capacity.raisableCents).toBe(0n);
    expect(capacity.pending).toEqual([later]);
  });

  it("caps an S-3 at 1/3 of a public float under $75M (cap binding)", () => {
    // Public float 12M × $1.00 = $12M → cap $4M, below the $50M shelf. Market cap $16.2M.
    const result = rateOfferingAbility(inputs({ registrations: [shelf()], latestFloat: float() }));
    expect(result.desc).toBe(
      "S-3 shelf effective, $4.0M raisable under the baby-shelf limit (1/3 of the $12.0M public float), 24.7% of the $16.2M market cap",
    );
    expect(result.rating).toBe("High");
    const capacity = computeOfferingCapacity(inputs({ registrations: [shelf()], latestFloat: float() }));
    expect(capacity).toMatchObject({ babyShelf: "applies", babyShelfBinding: true, raisableCents: 4n * M * DOLLAR });
  });

  it("counts the whole shelf when it is below the baby-shelf cap (cap not binding)", () => {
    const small = shelf({ offeringAmountCents: 3n * M * DOLLAR });
    const result = rateOfferingAbility(inputs({ registrations: [small], latestFloat: float() }));
    expect(result.desc).toBe("S-3 shelf effective, $3.0M raisable within the $4.0M baby-shelf limit, 18.5% of the $16.2M market cap");
    expect(result.rating).toBe("Medium");
  });

  it("applies no cap when the public float is $75M or more", () => {
    const at75 = float({ floatShares: 75n * M, outstandingShares: 100n * M });
    const result = rateOfferingAbility(inputs({ registrations: [shelf()], latestFloat: at75 }));
    expect(result.desc).toBe(
      "S-3 shelf effective, $50.0M raisable with no baby-shelf limit (public float $75.0M), 50.0% of the $100.0M market cap",
    );
    expect(result.rating).toBe("High");
    // One share less and the cap applies: ⅓ of $74,999,999.
    const below = float({ floatShares: 75n * M - 1n, outstandingShares: 100n * M });
    const capacity = computeOfferingCapacity(inputs({ registrations: [shelf()], latestFloat: below }));
    expect(capacity.babyShelf).toBe("applies");
    expect(capacity.raisableCents).toBe(2_499_999_966n);
  });

  it("prefers the current public float over the filing's over-baby-shelf flag", () => {
    const flagged = shelf({ overBabyShelf: true, publicFloatCents: 90n * M * DOLLAR });
    const capacity = computeOfferingCapacity(inputs({ registrations: [flagged], latestFloat: float() }));
    expect(capacity.publicFloatSource).toBe("float_snapshot");
    expect(capacity.raisableCents).toBe(4n * M * DOLLAR);
  });

  it("falls back to the registration's public float, then to its flag, when there is no price", () => {
    const noPrice = float({ priceMicros: null });
    const withFigure = shelf({ publicFloatCents: 30n * M * DOLLAR });
    const capacity = computeOfferingCapacity(inputs({ registrations: [withFigure], latestFloat: noPrice }));
    expect(capacity).toMatchObject({ publicFloatSource: "registration", babyShelf: "applies", raisableCents: 10n * M * DOLLAR });

    const flagged = shelf({ overBabyShelf: true });
    const result = rateOfferingAbility(inputs({ registrations: [flagged], latestFloat: noPrice }));
    expect(result.desc).toBe("S-3 shelf effective, $50.0M raisable with no baby-shelf limit (public float over $75M at filing), market cap unknown");
    expect(result.rating).toBe("Medium");

    const unknown = rateOfferingAbility(inputs({ registrations: [shelf()] }));
    expect(unknown.desc).toBe(
      "S-3 shelf effective, $50.0M raisable (baby-shelf limit unknown: no public float figure), market cap unknown",
    );
  });

  it("does not cap an S-1 by the baby-shelf rule", () => {
    const s1 = shelf({ formType: "S-1", offeringAmountCents: 10n * M * DOLLAR });
    const result = rateOfferingAbility(inputs({ registrations: [s1], latestFloat: float() }));
    expect(result.desc).toBe("S-1 shelf effective, $10.0M raisable, 61.7% of the $16.2M market cap");
    expect(result.rating).toBe("High");
  });

  it("counts an ATM's remaining capacity, within the shelf rather than on top of it", () => {
    const big = float({ floatShares: 200n * M, outstandingShares: 250n * M, marketCapCents: 100n * M * DOLLAR });
    const both = rateOfferingAbility(inputs({ registrations: [shelf({ offeringAmountCents: 10n * M * DOLLAR }), atm()], latestFloat: big }));
    expect(both.desc).toBe(
      "S-3 shelf effective, $10.0M raisable with no baby-shelf limit (public float $200.0M), 10.0% of the $100.0M market cap; ATM with $2.0M remaining",
    );

    const onlyAtm = rateOfferingAbility(inputs({ registrations: [atm()], latestFloat: float() }));
    expect(onlyAtm.desc).toBe(
      "ATM program effective, $2.0M raisable within the $4.0M baby-shelf limit (at most: the 2024-01-02 ATM program's sales in the last 12 months (of $8.0M to date) not known), 12.3% of the $16.2M market cap; ATM with $2.0M remaining",
    );
    expect(onlyAtm.rating).toBe("Medium");
  });

  it("gives an exhausted ATM no capacity, and counts an unreported one at its full size", () => {
    const used = rateOfferingAbility(inputs({ registrations: [atm({ atmRemainingCents: 0n })], latestFloat: float() }));
    expect(used).toEqual({ rating: "Low", desc: "ATM program effective, nothing raisable now; ATM fully used ($0 remaining)" });

    const unreported = computeOfferingCapacity(inputs({ registrations: [atm({ atmRemainingCents: null, offeringAmountCents: 3n * M * DOLLAR })], latestFloat: float() }));
    expect(unreported).toMatchObject({ atmRemainingUnknown: true, raisableCents: 3n * M * DOLLAR });
  });

  it("ignores an expired ATM", () => {
    const capacity = computeOfferingCapacity(inputs({ registrations: [atm({ expiresAt: day("2025-01-01") })], latestFloat: float() }));
    expect(capacity.effectiveAtms).toHaveLength(0);
    expect(capacity.raisableCents).toBe(0n);
  });

  // Market cap $100M, float large enough that no cap applies.
  it.each<[bigint, Rating]>([
    [20_000_000n, "High"],
    [19_950_000n, "High"], // 19.95% prints 20.0%
    [19_940_000n, "Medium"],
    [5_000_000n, "Medium"],
    [4_940_000n, "Low"],
  ])("raisable $%s against a $100M market cap is %s", (dollars, rating) => {
    const big = float({ floatShares: 200n * M, outstandingShares: 250n * M, marketCapCents: 100n * M * DOLLAR });
    const result = rateOfferingAbility(inputs({ registrations: [shelf({ offeringAmountCents: dollars * DOLLAR })], latestFloat: big }));
    expect(result.rating).toBe(rating);
  });

  it("is Medium when there is capacity but no market cap to compare it with", () => {
    expect(rateOfferingAbility(inputs({ registrations: [shelf()] })).rating).toBe("Medium");
  });

  it("lists several effective shelves", () => {
    const result = rateOfferingAbility(
      inputs({
        registrations: [shelf({ offeringAmountCents: 1n * M * DOLLAR }), shelf({ formType: "S-1", offeringAmountCents: 2n * M * DOLLAR })],
        latestFloat: float(),
      }),
    );
    expect(result.desc).toBe("2 shelves effective (S-3, S-1), $3.0M raisable within the $4.0M baby-shelf limit, 18.5% of the $16.2M market cap");
  });
});

// ───────────────────────────── dilution ─────────────────────────────

describe("dilution", () => {
  it("adds warrants, convertibles and shelf shares at the current price, against shares outstanding", () => {
    const result = rateDilution(
      inputs({
        registrations: [shelf()],
        latestFloat: float({ priceMicros: 2_000_000n, floatShares: 6n * M }), // public float $12M → cap $4M → 2.0M shares
        instruments: [
          instrument({ sharesUnderlying: 3_100_000n }),
          instrument({ instrumentType: "convertible_note", name: "Note", sharesUnderlying: 1n * M, remainingCents: 500_000n * DOLLAR }),
          instrument({ name: "expired", expiresAt: day("2025-06-15"), sharesUnderlying: 9n * M }),
          instrument({ instrumentType: "convertible_note", name: "repaid", sharesUnderlying: 9n * M, remainingCents: 0n }),
          instrument({ name: "future", issuedAt: day("2025-06-16"), sharesUnderlying: 9n * M }),
        ],
      }),
    );
    // (4.1M + 2.0M) ÷ 16.2M = 37.65%
    expect(result.desc).toBe("37.7% potential dilution: 4.1M shares from warrants and convertibles (3.1M Series A warrants at $1.50; 1.0M Note at $1.50), 2.0M raisable on the shelf, vs 16.2M outstanding");
    expect(result.rating).toBe("High");
    expect(result.desc).toMatch(/^\d+\.\d%/);
  });

  it.each<[bigint, Rating, string]>([
    [3_000_000n, "High", "30.0%"],
    [2_995_000n, "High", "30.0%"], // 29.95% prints 30.0%
    [2_994_999n, "Medium", "29.9%"],
    [1_000_000n, "Medium", "10.0%"],
    [994_999n, "Low", "9.9%"],
    [0n, "Low", "0.0%"],
  ])("%s warrant shares on 10M outstanding is %s (%s)", (shares, rating, pct) => {
    const result = rateDilution(inputs({ instruments: [instrument({ sharesUnderlying: shares })], latestFloat: float({ outstandingShares: 10n * M }) }));
    expect(result.rating).toBe(rating);
    expect(result.desc.startsWith(`${pct} potential dilution: `)).toBe(true);
  });

  it("says when shelf capacity cannot be turned into shares for lack of a price", () => {
    const result = rateDilution(
      inputs({
        registrations: [shelf({ publicFloatCents: 12n * M * DOLLAR })],
        instruments: [instrument({ sharesUnderlying: 2n * M })],
        latestFloat: float({ priceMicros: null, outstandingShares: 10n * M }),
      }),
    );
    expect(result.desc).toBe(
      "20.0% potential dilution: 2.0M shares from warrants and convertibles (2.0M Series A warrants at $1.50), $4.0M of shelf capacity not counted (no share price), vs 10.0M outstanding",
    );
    expect(result.rating).toBe("Medium");
  });

  it("rates an unmeasurable overhang Medium and an empty record 0.0% Low when outstanding is unknown", () => {
    const unknown = rateDilution(inputs({ instruments: [instrument()] }));
    expect(unknown.rating).toBe("Medium");
    expect(unknown.desc).toBe(
      "Unknown potential dilution: 1.0M shares from warrants and convertibles (1.0M Series A warrants at $1.50), 0 raisable on the shelf, but shares outstanding are not on file",
    );
    expect(rateDilution(inputs())).toMatchObject({
      rating: "Low",
      desc: "0.0% potential dilution: no warrants, convertibles or offering capacity on file",
    });
  });
});

// ───────────────────────────── offering frequency ─────────────────────────────

describe("offering frequency", () => {
  it("counts each kind in the shape '3 offerings, 1 ATM use, 0 PIPEs in the last 2 years'", () => {
    const result = rateOfferingFrequency(
      inputs({
        offerings: [
          offering("public_offering"),
          offering("registered_direct"),
          offering("convertible"),
          offering("atm"),
          offering("something_else"),
        ],
      }),
    );
    expect(result.desc).toBe("3 offerings, 1 ATM use, 0 PIPEs, 0 warrant exercises in the last 2 years");
    expect(result.rating).toBe("High");
  });

  it("uses singular and plural forms", () => {
    const one = rateOfferingFrequency(inputs({ offerings: ["public_offering", "atm", "pipe", "warrant_exercise"].map((t) => offering(t)) }));
    expect(one.desc).toBe("1 offering, 1 ATM use, 1 PIPE, 1 warrant exercise in the last 2 years");
    const two = rateOfferingFrequency(
      inputs({ offerings: ["atm", "atm", "pipe", "pipe", "warrant_exercise", "warrant_exercise"].map((t) => offering(t)) }),
    );
    expect(two.desc).toBe("0 offerings, 2 ATM uses, 2 PIPEs, 2 warrant exercises in the last 2 years");
  });

  it("counts from the same day two years back through the as-of day", () => {
    const counts = countOfferings(
      [offering("pipe", "2023-06-15"), offering("pipe", "2023-06-14"), offering("pipe", "2025-06-15"), offering("pipe", "2025-06-16")],
      AS_OF,
    );
    expect(counts).toEqual({ offerings: 0, atmUses: 0, pipes: 2, warrantExercises: 0 });
  });

  it.each<[number, Rating]>([
    [0, "Low"],
    [1, "Low"],
    [2, "Medium"],
    [3, "Medium"],
    [4, "High"],
    [5, "High"],
  ])("%s events in two years is %s", (n, rating) => {
    const offerings = Array.from({ length: n }, () => offering("registered_direct"));
    expect(rateOfferingFrequency(inputs({ offerings })).rating).toBe(rating);
  });
});

// ───────────────────────────── listing compliance ─────────────────────────────

describe("listing compliance", () => {
  it("is Low with no deficiency", () => {
    expect(rateNasdaqCompliance(inputs())).toEqual({ rating: "Low", desc: "No active listing deficiency" });
  });

  it("does not count resolved deficiencies, but mentions the last one", () => {
    const result = rateNasdaqCompliance(
      inputs({
        deficiencies: [
          deficiency({ status: "resolved", noticeDate: day("2023-01-10"), resolvedAt: day("2023-05-01") }),
          deficiency({ deficiency: "stockholders_equity", status: "resolved", noticeDate: day("2024-01-10"), resolvedAt: day("2024-06-01") }),
        ],
      }),
    );
    expect(result).toEqual({
      rating: "Low",
      desc: "No active listing deficiency; the last one, stockholders' equity (notice 2024-01-10), was resolved on 2024-06-01",
    });
  });

  it("treats a deficiency resolved after asOf as active then, and ignores one noticed after asOf", () => {
    const laterResolved = deficiency({ status: "resolved", resolvedAt: day("2025-07-01"), deadline: day("2025-12-01") });
    expect(rateNasdaqCompliance(inputs({ deficiencies: [laterResolved] })).rating).toBe("Medium");
    const future = deficiency({ noticeDate: day("2025-06-16") });
    expect(rateNasdaqCompliance(inputs({ deficiencies: [future] })).rating).toBe("Low");
  });

  it.each<[string, Rating, string]>([
    ["2025-08-15", "Medium", "deadline 2025-08-15 (61 days left)"],
    ["2025-08-14", "High", "deadline 2025-08-14 (60 days left)"],
    ["2025-06-16", "High", "deadline 2025-06-16 (1 day left)"],
    ["2025-05-01", "High", "deadline 2025-05-01 passed 45 days ago"],
  ])("one active deficiency with deadline %s is %s", (deadline, rating, text) => {
    const result = rateNasdaqCompliance(inputs({ deficiencies: [deficiency({ deadline: day(deadline) })] }));
    expect(result).toEqual({ rating, desc: `Active minimum bid price deficiency: notice 2025-01-15, ${text}` });
  });

  it("is Medium for one active deficiency without a deadline", () => {
    const result = rateNasdaqCompliance(inputs({ deficiencies: [deficiency({ deficiency: "stockholders_equity", deadline: null })] }));
    expect(result).toEqual({ rating: "Medium", desc: "Active stockholders' equity deficiency: notice 2025-01-15, no deadline set" });
  });

  it("is High for several active deficiencies, most urgent first", () => {
    const result = rateNasdaqCompliance(
      inputs({
        deficiencies: [
          deficiency({ deficiency: "stockholders_equity", noticeDate: day("2025-02-01"), deadline: null }),
          deficiency({ deadline: day("2025-12-01") }),
          deficiency({ deficiency: "", noticeDate: day("2025-03-01"), status: "resolved" }),
        ],
      }),
    );
    expect(result).toEqual({
      rating: "High",
      desc:
        "2 active deficiencies: minimum bid price (notice 2025-01-15, deadline 2025-12-01 (169 days left)); " +
        "stockholders' equity (notice 2025-02-01, no deadline set)",
    });
  });

  it("names deficiencies in words", () => {
    expect(deficiencyName("minimum_bid_price")).toBe("minimum bid price");
    expect(deficiencyName("Stockholders Equity")).toBe("stockholders' equity");
    expect(deficiencyName("")).toBe("unspecified listing");
    expect(deficiencyName("majority_voting_rule")).toBe("majority voting rule");
  });
});

// ───────────────────────────── overall ─────────────────────────────

describe("overall offering risk", () => {
  // [cash need, offering ability, offering frequency, expected] with compliance Low.
  it.each<[Rating, Rating, Rating, Rating]>([
    ["Low", "Low", "Low", "Low"],
    ["Low", "Medium", "Low", "Low"],
    ["Low", "High", "Low", "Medium"],
    ["Low", "Low", "High", "Medium"],
    ["Medium", "Low", "Low", "Medium"],
    ["Medium", "High", "Medium", "Medium"],
    ["Medium", "High", "High", "High"],
    ["High", "Low", "Low", "Medium"],
    ["High", "Medium", "Low", "High"],
    ["High", "Low", "Medium", "High"],
    ["High", "High", "High", "High"],
  ])("cash need %s, ability %s, frequency %s → %s", (cashNeed, offeringAbility, offeringFrequency, expected) => {
    expect(overallOfferingRisk({ cashNeed, offeringAbility, offeringFrequency, nasdaqCompliance: "Low" })).toBe(expected);
    expect(overallOfferingRisk({ cashNeed, offeringAbility, offeringFrequency, nasdaqCompliance: "Low", recentReverseSplit: false })).toBe(expected);
    // One active deficiency (not urgent), or a recent reverse split alone: at least Medium, never more.
    const atLeastMedium = expected === "High" ? "High" : "Medium";
    expect(overallOfferingRisk({ cashNeed, offeringAbility, offeringFrequency, nasdaqCompliance: "Medium" })).toBe(atLeastMedium);
    expect(overallOfferingRisk({ cashNeed, offeringAbility, offeringFrequency, nasdaqCompliance: "Low", recentReverseSplit: true })).toBe(atLeastMedium);
  });

  it("raises the result one level for an active deficiency after a recent reverse split, once", () => {
    const base = { offeringAbility: "Low", offeringFrequency: "Low", recentReverseSplit: true } as const;
    expect(overallOfferingRisk({ ...base, cashNeed: "Low", nasdaqCompliance: "Medium" })).toBe("Medium");
    expect(overallOfferingRisk({ ...base, cashNeed: "Medium", nasdaqCompliance: "Medium" })).toBe("High");
    // An urgent deficiency and a split raise one level, not two.
    expect(overallOfferingRisk({ ...base, cashNeed: "Low", nasdaqCompliance: "High" })).toBe("Medium");
    expect(overallOfferingRisk({ ...base, cashNeed: "High", nasdaqCompliance: "High" })).toBe("High");
  });

  it("raises the result one level for an urgent listing deficiency", () => {
    const base = { offeringAbility: "Low", offeringFrequency: "Low", nasdaqCompliance: "High" } as const;
    expect(overallOfferingRisk({ ...base, cashNeed: "Low" })).toBe("Medium");
    expect(overallOfferingRisk({ ...base, cashNeed: "Medium" })).toBe("High");
    expect(overallOfferingRisk({ ...base, cashNeed: "High" })).toBe("High");
  });
});

// ───────────────────────────── the record ─────────────────────────────

describe("computeDilutionRating", () => {
  const SPEC_FIELDS = [
    "ticker",
    "offering_ability",
    "offering_ability_desc",
    "dilution",
    "dilution_desc",
    "offering_frequency",
    "offering_frequency_desc",
    "cash_need",
    "cash_need_desc",
    "nasdaq_compliance",
    "nasdaq_compliance_desc",
    "overall_offering_risk",
    "regsho",
    "estimated_cash",
    "cash_burn",
    "cash_remaining_months",
    "warrant_exercise",
    "warrant_exercise_desc",
    "going_concern",
  ];

  it("returns exactly the spec's fields, composed from the facts", () => {
    const record = computeDilutionRating(
      inputs({
        ticker: "ABCD",
        latestFinancials: financials({ periodEnd: day("2025-03-31"), cashCents: 2_000_000n * DOLLAR, quarterlyBurnCents: 913_125n * DOLLAR, regSho: true }),
        registrations: [shelf(), atm()],
        offerings: [offering("public_offering"), offering("atm"), offering("pipe", "2022-01-01")],
        instruments: [instrument({ sharesUnderlying: 4_100_000n })],
        deficiencies: [deficiency({ deadline: day("2025-07-14") })],
        latestFloat: float(),
      }),
    );
    expect(Object.keys(record).sort()).toEqual([...SPEC_FIELDS].sort());
    expect(record).toEqual({
      ticker: "ABCD",
      offering_ability: "High",
      offering_ability_desc:
        "S-3 shelf effective, $4.0M raisable under the baby-shelf limit (1/3 of the $12.0M public float; the 2024-01-02 ATM program's sales in the last 12 months (of $8.0M to date) not known), 24.7% of the $16.2M market cap; ATM with $2.0M remaining",
      dilution: "High",
      dilution_desc: "50.0% potential dilution: 4.1M shares from warrants and convertibles (4.1M Series A warrants at $1.50), 4.0M raisable on the shelf, vs 16.2M outstanding",
      offering_frequency: "Medium",
      offering_frequency_desc: "1 offering, 1 ATM use, 0 PIPEs, 0 warrant exercises in the last 2 years",
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
      // $1.00 is 66.7% of the $1.50 exercise price: near the money, half weight; 2.05M ÷ 16.2M = 12.65%.
      warrant_exercise: "Medium",
      warrant_exercise_desc:
        "12.7% of 16.2M outstanding in warrant shares weighted by moneyness (High from 20.0%, Medium from 5.0%): none in the money, 4.1M near the money at $1.50 (half weight); vs the float snapshot price $1.00 on 2025-06-14 (no close on file)",
      going_concern: null,
    });
    // The spec's fields come first, in the spec's order; the new ones after them.
    expect(Object.keys(record)).toEqual(SPEC_FIELDS);
  });

  it("rates a well-funded company with no shelf and no history Low across the board", () => {
    const record = computeDilutionRating(
      inputs({ latestFinancials: financials({ cashCents: 50n * M * DOLLAR }), latestFloat: float() }),
    );
    expect(record).toMatchObject({
      offering_ability: "Low",
      dilution: "Low",
      offering_frequency: "Low",
      cash_need: "Low",
      nasdaq_compliance: "Low",
      overall_offering_risk: "Low",
      cash_remaining_months: 500,
      warrant_exercise: "Low",
      warrant_exercise_desc: "No warrants on file",
      going_concern: null,
    });
    expect(JSON.parse(JSON.stringify(record))).toEqual(record); // plain JSON, no bigint
  });
});

// ───────────────────────────── facts from filings: unknowns and evidence ─────────────────────────────

describe("facts from SEC filings", () => {
  const source = (accession: string, form: string, filed: string) => ({
    accession,
    form,
    filedAt: day(filed),
    url: `https://www.sec.gov/Archives/edgar/data/1/${accession.replace(/-/g, "")}/${accession}-index.htm`,
  });

  it("an unreported burn leaves the runway unknown (Medium) and says so, citing the report", () => {
    const fin = financials({ periodEnd: day("2025-03-31"), quarterlyBurnCents: null, source: source("0000000001-25-000001", "10-Q", "2025-05-10") });
    const record = computeDilutionRating(inputs({ latestFinancials: fin }));
    expect(record.cash_need).toBe("Medium");
    expect(record.cash_burn).toBeNull();
    expect(record.cash_remaining_months).toBeNull();
    expect(record.estimated_cash).toBe(600_000);
    expect(record.cash_need_desc).toBe(
      "Operating cash flow not reported for the period ended 2025-03-31, so the burn and runway are unknown; $600K cash reported (10-Q filed 2025-05-10)",
    );
  });

  it("an effective automatic shelf (no registered maximum) makes offering ability High, named by its filing", () => {
    const wksi = shelf({
      formType: "S-3ASR",
      filedAt: day("2024-05-02"),
      effectiveAt: day("2024-05-02"),
      expiresAt: day("2027-05-02"),
      offeringAmountCents: null,
      overBabyShelf: true,
      fileNumber: "333-231168",
      source: source("0001193125-24-133592", "S-3ASR", "2024-05-02"),
    });
    const result = rateOfferingAbility(inputs({ registrations: [wksi] }));
    expect(result.rating).toBe("High");
    expect(result.desc).toBe("S-3ASR 333-231168, effective 2024-05-02: an automatic shelf has no registered maximum, so the amount it can raise is not capped");
  });

  it("a shelf whose size the filings do not state is at least Medium and says it was not counted", () => {
    const unsized = shelf({ offeringAmountCents: null });
    const result = rateOfferingAbility(inputs({ registrations: [unsized], latestFloat: float() }));
    expect(result.rating).toBe("Medium");
    expect(result.desc).toContain("amount raisable unknown");
    expect(result.desc).toContain("not stated in the filings");
  });

  it("without float shares, the cover page's public float decides the baby-shelf limit", () => {
    const cover = float({ floatShares: null, priceMicros: null, publicFloatCents: 52n * M * DOLLAR });
    const capacity = computeOfferingCapacity(inputs({ registrations: [shelf()], latestFloat: cover }));
    expect(capacity.babyShelf).toBe("applies");
    expect(capacity.publicFloatCents).toBe(52n * M * DOLLAR);
    expect(capacity.babyShelfCapCents).toBe((52n * M * DOLLAR) / 3n);
  });

  it("regsho: the threshold lists' answer wins; with none and no report flag it is null", () => {
    expect(computeDilutionRating(inputs({ latestFinancials: financials({ regSho: false }), regSho: true })).regsho).toBe(true);
    expect(computeDilutionRating(inputs({ latestFinancials: financials({ regSho: true }) })).regsho).toBe(true);
    expect(computeDilutionRating(inputs({ latestFinancials: financials({ regSho: null }) })).regsho).toBeNull();
  });

  it("a deficiency notice from a filing names it", () => {
    const notice: DeficiencyInput = {
      deficiency: "minimum_bid_price",
      status: "active",
      noticeDate: day("2025-03-10"),
      deadline: day("2025-09-08"),
      resolvedAt: null,
      source: source("0001493152-25-010077", "8-K", "2025-03-10"),
    };
    expect(rateNasdaqCompliance(inputs({ deficiencies: [notice] })).desc).toBe(
      "Active minimum bid price deficiency: notice 2025-03-10 (8-K 0001493152-25-010077), deadline 2025-09-08 (85 days left)",
    );
  });

  it("lists every filing the inputs came from once, latest first", () => {
    const tenQ = source("0000000001-25-000003", "10-Q", "2025-05-10");
    const s3 = source("0000000001-24-000001", "S-3", "2024-01-02");
    const effect = source("9999999995-24-000001", "EFFECT", "2024-01-15");
    const sources = ratingSources(
      inputs({
        latestFinancials: financials({ source: tenQ }),
        latestFloat: float({ source: tenQ }),
        registrations: [shelf({ source: s3, effectiveSource: effect })],
      }),
    );
    expect(sources.map((s) => s.accession)).toEqual([tenQ.accession, effect.accession, s3.accession]);
    expect(ratingSources(inputs())).toEqual([]);
  });
});

// ───────────────────────────── the instrument ledger ─────────────────────────────

describe("instruments the ledger says ended, or without a fixed count", () => {
  const out10M = float({ outstandingShares: 10n * M });

  it("does not count an expired, exercised or converted instrument in dilution", () => {
    const result = rateDilution(
      inputs({
        latestFloat: out10M,
        instruments: [
          instrument({ sharesUnderlying: 1n * M }),
          instrument({ name: "exercised", status: "exercised", statusAsOf: day("2025-05-01"), sharesUnderlying: 5n * M }),
          instrument({ name: "expired", status: "expired", statusAsOf: null, sharesUnderlying: 5n * M }),
          instrument({ instrumentType: "convertible_note", name: "converted", status: "converted", statusAsOf: day("2025-06-15"), sharesUnderlying: 5n * M, remainingCents: null }),
        ],
      }),
    );
    expect(result.instrumentShares).toBe(1n * M);
    expect(result.desc).toBe("10.0% potential dilution: 1.0M shares from warrants and convertibles (1.0M Series A warrants at $1.50), 0 raisable on the shelf, vs 10.0M outstanding");
  });

  it("does not count a note or preferred stock the ledger says was redeemed, nor any status but outstanding", () => {
    const result = rateDilution(
      inputs({
        latestFloat: out10M,
        instruments: [
          instrument({ sharesUnderlying: 1n * M }),
          instrument({ instrumentType: "convertible_note", name: "repaid", status: "redeemed", statusAsOf: day("2025-06-15"), sharesUnderlying: 5n * M, remainingCents: 0n }),
          instrument({ instrumentType: "convertible_preferred", name: "redeemed preferred", status: "redeemed", statusAsOf: day("2025-06-15"), sharesUnderlying: 5n * M, remainingCents: null }),
          instrument({ name: "a status the ledger may add later", status: "cancelled", statusAsOf: day("2025-06-15"), sharesUnderlying: 5n * M }),
        ],
      }),
    );
    expect(result.instrumentShares).toBe(1n * M);
  });

  it("counts a report's warrant total once: the warrants issued by its day are in it, later ones are added", () => {
    const total = instrument({ name: "Warrants outstanding in total", reportedTotal: true, issuedAt: day("2025-03-31"), statusAsOf: day("2025-03-31"), expiresAt: null, sharesUnderlying: 3n * M });
    const coveredByIt = instrument({ name: "Warrants of 2025-01-10", issuedAt: day("2025-01-10"), sharesUnderlying: 1n * M });
    const issuedSince = instrument({ name: "Warrants of 2025-05-02", issuedAt: day("2025-05-02"), sharesUnderlying: 2n * M });
    const note = instrument({ instrumentType: "convertible_note", name: "note", issuedAt: day("2025-01-10"), sharesUnderlying: 1n * M, remainingCents: 100n * DOLLAR });
    const all = inputs({ latestFloat: out10M, instruments: [total, coveredByIt, issuedSince, note] });
    expect(rateDilution(all).instrumentShares).toBe(6n * M);
    expect(rateWarrantExercise(all).desc).toContain("5.0M");
    // without a total, every warrant counts
    expect(rateDilution(inputs({ latestFloat: out10M, instruments: [coveredByIt, issuedSince] })).instrumentShares).toBe(3n * M);
  });

  it("still counts an instrument on days before the day its end is stated for", () => {
    const exercised = instrument({ status: "exercised", statusAsOf: day("2025-06-16"), sharesUnderlying: 2n * M });
    expect(rateDilution(inputs({ latestFloat: out10M, instruments: [exercised] })).instrumentShares).toBe(2n * M);
    expect(rateDilution(inputs({ latestFloat: out10M, instruments: [exercised], asOf: new Date("2025-06-16T09:00:00Z") })).instrumentShares).toBe(0n);
  });

  it("does not count a convertible without a fixed share count, and says how many there are", () => {
    const result = rateDilution(
      inputs({
        latestFloat: out10M,
        instruments: [
          instrument({ sharesUnderlying: 1n * M }),
          instrument({ instrumentType: "convertible_note", name: "Variable note", sharesUnderlying: null, exercisePriceMicros: null, remainingCents: 2n * M * DOLLAR }),
          instrument({ instrumentType: "convertible_preferred", name: "Series X", sharesUnderlying: null, exercisePriceMicros: null, remainingCents: null }),
        ],
      }),
    );
    expect(result.instrumentShares).toBe(1n * M);
    expect(result.rating).toBe("Medium");
    expect(result.desc).toBe(
      "10.0% potential dilution: 1.0M shares from warrants and convertibles (1.0M Series A warrants at $1.50), plus 2 convertibles with no fixed share count (not counted), 0 raisable on the shelf, vs 10.0M outstanding",
    );
    // A repaid one is gone, fixed count or not.
    const repaid = instrument({ instrumentType: "convertible_note", name: "Repaid", sharesUnderlying: null, remainingCents: 0n });
    expect(rateDilution(inputs({ latestFloat: out10M, instruments: [repaid] })).desc).toBe(
      "0.0% potential dilution: 0 shares from warrants and convertibles, 0 raisable on the shelf, vs 10.0M outstanding",
    );
  });

  it("names a convertible by its conversion price", () => {
    const note = instrument({ instrumentType: "convertible_note", name: "2025 Note", exercisePriceMicros: null, conversionPriceMicros: 2_250_000n, remainingCents: 1n * M * DOLLAR });
    expect(rateDilution(inputs({ latestFloat: out10M, instruments: [note] })).desc).toContain("(1.0M 2025 Note at $2.25)");
  });
});

// ───────────────────────────── warrant exercise ─────────────────────────────

describe("warrant exercise", () => {
  /** 10M outstanding, no snapshot price: the close decides. */
  const out10M = float({ outstandingShares: 10n * M, priceMicros: null });
  const close = (price: bigint, date = "2025-06-13") => ({ latestClose: { date: day(date), closeMicros: price } });

  it("is Low with no warrants on file, and says so", () => {
    expect(rateWarrantExercise(inputs({ latestFloat: out10M }))).toMatchObject({ rating: "Low", desc: "No warrants on file", pctTenths: 0n });
    // Convertibles are not warrants.
    const note = instrument({ instrumentType: "convertible_note", name: "Note", remainingCents: 1n * M * DOLLAR });
    expect(rateWarrantExercise(inputs({ latestFloat: out10M, instruments: [note] })).desc).toBe("No warrants on file");
  });

  it("does not count an expired or exercised warrant, nor one without a fixed count", () => {
    const ended = [
      instrument({ name: "exercised", status: "exercised", statusAsOf: day("2025-06-01"), exercisePriceMicros: 10_000n }),
      instrument({ name: "expired", expiresAt: day("2025-06-15"), exercisePriceMicros: 10_000n }),
      instrument({ name: "later", issuedAt: day("2025-06-16"), exercisePriceMicros: 10_000n }),
    ];
    expect(rateWarrantExercise(inputs({ latestFloat: out10M, ...close(1_000_000n), instruments: ended }))).toMatchObject({
      rating: "Low",
      desc: "No outstanding warrants (2 warrants on file expired or exercised)",
    });
    const unfixed = instrument({ name: "unfixed", sharesUnderlying: null });
    expect(rateWarrantExercise(inputs({ latestFloat: out10M, ...close(1_000_000n), instruments: [unfixed] }))).toMatchObject({
      rating: "Low",
      desc: "No warrant shares to count: 1 warrant with no fixed share count (not counted)",
    });
  });

  it("explains in-the-money and pre-funded warrant shares against the last close", () => {
    const result = rateWarrantExercise(
      inputs({
        latestFloat: float({ outstandingShares: 3_200_000n }),
        latestClose: { date: day("2025-04-17"), closeMicros: 4_100_000n },
        instruments: [
          instrument({ sharesUnderlying: 1_900_000n, exercisePriceMicros: 3_480_000n }),
          instrument({ name: "Pre-funded", preFunded: true, sharesUnderlying: 200_000n, exercisePriceMicros: 100n, expiresAt: null }),
        ],
      }),
    );
    expect(result.rating).toBe("High");
    expect(result.desc).toBe(
      "65.6% of 3.2M outstanding in warrant shares weighted by moneyness (High from 20.0%, Medium from 5.0%): 2.1M in the money (1.9M at $3.48, 200K pre-funded); vs last close $4.10 on 2025-04-17",
    );
  });

  // 10M outstanding, all warrants in the money ($1.00 strike, $1.00 close).
  it.each<[bigint, Rating, string]>([
    [2_000_000n, "High", "20.0%"],
    [1_995_000n, "High", "20.0%"], // 19.95% prints 20.0%
    [1_994_999n, "Medium", "19.9%"],
    [500_000n, "Medium", "5.0%"],
    [494_999n, "Low", "4.9%"],
  ])("%s in-the-money warrant shares on 10M outstanding is %s (%s)", (shares, rating, pct) => {
    const result = rateWarrantExercise(
      inputs({ latestFloat: out10M, ...close(1_000_000n), instruments: [instrument({ sharesUnderlying: shares, exercisePriceMicros: 1_000_000n })] }),
    );
    expect(result.rating).toBe(rating);
    expect(result.desc.startsWith(`${pct} of 10.0M outstanding in warrant shares`)).toBe(true);
  });

  it("weighs warrants by moneyness: at the price in full, at half the price half, below half a tenth", () => {
    const w = (strike: bigint) => instrument({ sharesUnderlying: 4n * M, exercisePriceMicros: strike });
    expect(warrantMoneyness(w(1_000_000n), 1_000_000n)).toBe("in_the_money");
    expect(warrantMoneyness(w(1_000_001n), 1_000_000n)).toBe("near_the_money");
    expect(warrantMoneyness(w(2_000_000n), 1_000_000n)).toBe("near_the_money"); // price exactly 50% of the strike
    expect(warrantMoneyness(w(2_000_001n), 1_000_000n)).toBe("far_out_of_the_money");
    expect(warrantMoneyness(w(2_000_001n), null)).toBe("unknown");
    expect(warrantMoneyness(instrument({ preFunded: true, exercisePriceMicros: 100_000_000n }), 1n)).toBe("in_the_money");

    const at = (strike: bigint) => rateWarrantExercise(inputs({ latestFloat: out10M, ...close(1_000_000n), instruments: [w(strike)] }));
    expect(at(1_000_000n)).toMatchObject({ rating: "High", pctTenths: 400n }); // 4M of 10M
    expect(at(2_000_000n)).toMatchObject({ rating: "High", pctTenths: 200n }); // half of 4M
    expect(at(2_000_001n)).toMatchObject({ rating: "Low", pctTenths: 40n }); // a tenth of 4M
    expect(at(2_000_001n).desc).toBe(
      "4.0% of 10.0M outstanding in warrant shares weighted by moneyness (High from 20.0%, Medium from 5.0%): none in the money, 4.0M far out of the money at $2.000001 (1/10 weight); vs last close $1.00 on 2025-06-13",
    );

    const mixed = rateWarrantExercise(
      inputs({
        latestFloat: out10M,
        ...close(1_000_000n),
        instruments: [w(500_000n), w(800_000n), w(1_500_000n), w(3_000_000n), w(5_000_000n), instrument({ name: "no price", sharesUnderlying: 1n * M, exercisePriceMicros: null })],
      }),
    );
    // 8M × 1 + 4M × ½ + 8M × 1/10 + 1M × ½ = 11.3M → 113.0%
    expect(mixed.pctTenths).toBe(1130n);
    expect(mixed.desc).toBe(
      "113.0% of 10.0M outstanding in warrant shares weighted by moneyness (High from 20.0%, Medium from 5.0%): 8.0M in the money (8.0M at $0.50-$0.80), 4.0M near the money at $1.50 (half weight), 8.0M far out of the money at $3.00-$5.00 (1/10 weight), 1.0M at an exercise price not on file (half weight); vs last close $1.00 on 2025-06-13",
    );
    expect(new TextEncoder().encode(JSON.stringify(mixed.desc)).byteLength).toBeLessThanOrEqual(MAX_RATING_DESC_BYTES + 2);
  });

  it("takes the last close, else the float snapshot's price, else the latest offering price, and says which", () => {
    const warrant = instrument({ sharesUnderlying: 1n * M, exercisePriceMicros: 1_000_000n });
    const snapshot = float({ outstandingShares: 10n * M, priceMicros: 1_200_000n, asOf: day("2025-06-10") });
    const offered = { latestOfferingPrice: { offeringDate: day("2025-03-03"), priceMicros: 900_000n } };
    const rate = (over: Partial<RatingInputs>) => rateWarrantExercise(inputs({ instruments: [warrant], ...over }));

    const all = rate({ latestFloat: snapshot, ...close(1_100_000n), ...offered });
    expect(all.price).toEqual({ kind: "close", priceMicros: 1_100_000n, date: day("2025-06-13") });
    expect(all.desc).toMatch(/; vs last close \$1\.10 on 2025-06-13$/);

    const noClose = rate({ latestFloat: snapshot, ...offered });
    expect(noClose.price).toEqual({ kind: "float_snapshot", priceMicros: 1_200_000n, date: day("2025-06-10") });
    expect(noClose.desc).toMatch(/; vs the float snapshot price \$1\.20 on 2025-06-10 \(no close on file\)$/);

    const noMarket = rate({ latestFloat: { ...snapshot, priceMicros: null }, ...offered });
    expect(noMarket.price).toEqual({ kind: "offering", priceMicros: 900_000n, date: day("2025-03-03") });
    expect(noMarket.desc).toMatch(/near the money at \$1\.00 \(half weight\); vs the latest offering price \$0\.90 on 2025-03-03 \(no market price on file\)$/);

    const none = rate({ latestFloat: { ...snapshot, priceMicros: null } });
    expect(none.price).toBeNull();
    expect(none.desc).toBe(
      "5.0% of 10.0M outstanding in warrant shares weighted by moneyness (High from 20.0%, Medium from 5.0%): none in the money, 1.0M not comparable to a price (half weight); no share price on file (no close, float snapshot or offering price)",
    );
    expect(none.rating).toBe("Medium");

    // A price dated after the as-of day is not known then.
    expect(sharePriceForWarrants(inputs({ latestClose: { date: day("2025-06-16"), closeMicros: 1n } }))).toBeNull();
  });

  it("rates warrants Medium when shares outstanding are unknown", () => {
    const result = rateWarrantExercise(inputs({ ...close(2_000_000n), instruments: [instrument()] }));
    expect(result).toMatchObject({ rating: "Medium", pctTenths: null });
    expect(result.desc).toBe(
      "Unknown share of outstanding (shares outstanding not on file), warrant shares: 1.0M in the money (1.0M at $1.50); vs last close $2.00 on 2025-06-13",
    );
  });
});

// ───────────────────────────── going concern ─────────────────────────────

describe("going concern", () => {
  const doubt = { goingConcern: true, goingConcernAccession: "0000000001-25-000009" } as const;

  it("raises cash need one level, at least to Medium, and says so with the report's period end", () => {
    // Not burning cash: Low → Medium.
    const low = rateCashNeed(inputs({ latestFinancials: financials({ periodEnd: day("2025-03-31"), quarterlyBurnCents: 0n, ...doubt }) }));
    expect(low.rating).toBe("Medium");
    expect(low.desc).toBe(
      "The company is not burning cash (no operating cash burn in the period ended 2025-03-31); $600K cash reported; the report for the period ended 2025-03-31 (0000000001-25-000009) states substantial doubt about continuing as a going concern: raised from Low",
    );
    // 12.0 months: Medium → High.
    const medium = rateCashNeed(inputs({ latestFinancials: financials({ cashCents: 1_200_000n * DOLLAR, goingConcern: true }) }));
    expect(medium.rating).toBe("High");
    expect(medium.desc).toBe(
      "12.0 months of cash left at the current burn ($300K per quarter): $1.2M cash reported for the period ended 2025-06-15; the report for the period ended 2025-06-15 states substantial doubt about continuing as a going concern: raised from Medium",
    );
    // 6.0 months is Medium without, High with.
    expect(rateCashNeed(inputs({ latestFinancials: financials() })).rating).toBe("Medium");
    expect(rateCashNeed(inputs({ latestFinancials: financials({ goingConcern: true }) })).rating).toBe("High");
    // Already High: stays High, still said.
    const high = rateCashNeed(inputs({ latestFinancials: financials({ cashCents: 100_000n * DOLLAR, goingConcern: true }) }));
    expect(high.rating).toBe("High");
    expect(high.desc).toMatch(/states substantial doubt about continuing as a going concern$/);
    // Burn unknown (Medium): High.
    expect(rateCashNeed(inputs({ latestFinancials: financials({ quarterlyBurnCents: null, goingConcern: true }) })).rating).toBe("High");
  });

  it("leaves cash need alone when the report states no doubt or was not read for it", () => {
    for (const goingConcern of [false, null, undefined]) {
      const result = rateCashNeed(inputs({ latestFinancials: financials({ cashCents: 1_200_000n * DOLLAR, goingConcern }) }));
      expect(result.rating).toBe("Medium");
      expect(result.desc).not.toContain("going concern");
    }
  });

  it("is the record's going_concern: true, false, or null when no report states it", () => {
    const record = (over: Partial<RatingInputs>) => computeDilutionRating(inputs(over));
    expect(record({ latestFinancials: financials({ goingConcern: true }) }).going_concern).toBe(true);
    expect(record({ latestFinancials: financials({ goingConcern: false }) }).going_concern).toBe(false);
    expect(record({ latestFinancials: financials({ goingConcern: null }) }).going_concern).toBeNull();
    expect(record({ latestFinancials: financials() }).going_concern).toBeNull();
    expect(record({}).going_concern).toBeNull();
    // Through cash need it reaches the overall rating: Medium cash need without a shelf is Medium, High cash need too; with a shelf it is High.
    expect(record({ latestFinancials: financials({ cashCents: 1_200_000n * DOLLAR, goingConcern: true }), offerings: [offering("public_offering"), offering("pipe")] }).overall_offering_risk).toBe("High");
    expect(record({ latestFinancials: financials({ cashCents: 1_200_000n * DOLLAR }), offerings: [offering("public_offering"), offering("pipe")] }).overall_offering_risk).toBe("Medium");
  });
});

describe("going concern from a report read from its text alone", () => {
  const src = (accession: string, form: string, filed: string) => ({ accession, form, filedAt: day(filed), url: `https://example.test/${accession}` });
  // The 10-Q for 2024-12-31 has XBRL cash; the 10-K for 2025-03-31 was read from its text only: going concern, no cash.
  const cash = financials({ periodEnd: day("2024-12-31"), cashCents: 1_500_000n * DOLLAR, goingConcern: null, source: src("0000000001-25-000001", "10-Q", "2025-02-10") });
  const textOnly = { periodEnd: day("2025-03-31"), goingConcern: true, goingConcernAccession: "0000000001-25-000002", source: src("0000000001-25-000002", "10-K", "2025-05-15") };

  it("keeps the cash of the report before it, and raises cash need for the doubt it states", () => {
    const without = rateCashNeed(inputs({ latestFinancials: cash, goingConcernReport: null }));
    const withDoubt = rateCashNeed(inputs({ latestFinancials: cash, goingConcernReport: textOnly }));
    expect(without.rating).toBe("Medium");
    expect(withDoubt).toMatchObject({ rating: "High", estimatedCashCents: without.estimatedCashCents, quarterlyBurnCents: without.quarterlyBurnCents, monthsTenths: without.monthsTenths });
    expect(withDoubt.desc).toBe(
      `${without.desc}; the report for the period ended 2025-03-31 (0000000001-25-000002) states substantial doubt about continuing as a going concern: raised from Medium`,
    );
    const record = computeDilutionRating(inputs({ latestFinancials: cash, goingConcernReport: textOnly }));
    expect(record).toMatchObject({ going_concern: true, cash_need: "High", estimated_cash: Number(without.estimatedCashCents) / 100 });
    // both reports are the rating's sources
    expect(ratingSources(inputs({ latestFinancials: cash, goingConcernReport: textOnly })).map((r) => r.accession)).toEqual(["0000000001-25-000002", "0000000001-25-000001"]);
  });

  it("with no report that states cash: cash unknown (Medium), raised by the doubt", () => {
    const result = rateCashNeed(inputs({ goingConcernReport: textOnly }));
    expect(result).toEqual({
      rating: "High",
      desc: "No cash figure on file (the report for the period ended 2025-03-31 states none): cash position and burn unknown; the report for the period ended 2025-03-31 (0000000001-25-000002) states substantial doubt about continuing as a going concern: raised from Medium",
      estimatedCashCents: null,
      quarterlyBurnCents: null,
      monthsTenths: null,
    });
    expect(computeDilutionRating(inputs({ goingConcernReport: textOnly })).estimated_cash).toBeNull();
  });

  it("is the latest statement either way: a later report stating no doubt lifts an earlier one's", () => {
    const lifted = inputs({ latestFinancials: { ...cash, goingConcern: true, goingConcernAccession: "0000000001-25-000001" }, goingConcernReport: { ...textOnly, goingConcern: false } });
    expect(computeDilutionRating(lifted).going_concern).toBe(false);
    expect(rateCashNeed(lifted).rating).toBe("Medium");
    // null: no report states it either way, whatever the cash report's own field (the loader sets it so)
    expect(computeDilutionRating(inputs({ latestFinancials: cash, goingConcernReport: null })).going_concern).toBeNull();
  });
});

// ───────────────────────────── remaining capacity ─────────────────────────────

describe("the baby-shelf limit a filing states", () => {
  it("wins over one third of the float: it has the prior 12 months' sales taken off", () => {
    const base = { latestFloat: float({ outstandingShares: 10n * M, floatShares: null, publicFloatCents: 9_000_000n * DOLLAR }), registrations: [shelf({ offeringAmountCents: 50_000_000n * DOLLAR, overBabyShelf: false })] };
    expect(computeOfferingCapacity(inputs(base)).babyShelfCapCents).toBe(3_000_000n * DOLLAR);
    const statedOn = (asOf: string) =>
      inputs({ ...base, registrations: [shelf({ offeringAmountCents: 50_000_000n * DOLLAR, overBabyShelf: false, babyShelfCapacityCents: 1_200_000n * DOLLAR, babyShelfAsOf: day(asOf) })] });
    expect(computeOfferingCapacity(statedOn("2025-05-01"))).toMatchObject({ babyShelf: "applies", babyShelfCapCents: 1_200_000n * DOLLAR });
    // a year on, or stated for a later day, it says nothing of the rating's day: one third of the float again
    expect(computeOfferingCapacity(statedOn("2024-06-15")).babyShelfCapCents).toBe(3_000_000n * DOLLAR);
    expect(computeOfferingCapacity(statedOn("2025-07-01")).babyShelfCapCents).toBe(3_000_000n * DOLLAR);
  });
});

describe("the baby-shelf limit computed from the last 12 months' sales", () => {
  // AS_OF 2025-06-15. A $30M public float (the cover page's, for 2024-12-31): one third is $10M.
  const cover = float({ floatShares: null, priceMicros: null, marketCapCents: 40n * M * DOLLAR, publicFloatCents: 30n * M * DOLLAR, publicFloatAsOf: day("2024-12-31") });
  const s3 = shelf({ fileNumber: "333-000001" });
  /** An ATM program under the shelf, begun 2024-09-01, whose 10-Q for 2025-03-31 reports $1M sold to date. */
  const program = atm({ fileNumber: "333-000001", filedAt: day("2024-09-01"), effectiveAt: day("2024-09-01"), atmRemainingCents: 9n * M * DOLLAR, atmSoldCents: 1n * M * DOLLAR, atmRemainingAsOf: day("2025-03-31") });
  const takedown = (date: string, over: Partial<OfferingInput> = {}): OfferingInput => ({
    offeringDate: day(date),
    offeringType: "public_offering",
    formType: "424B5",
    fileNumber: "333-000001",
    amountCents: 4n * M * DOLLAR,
    shares: null,
    ...over,
  });
  /** The ATM supplement itself: an offering of the program's size, not a sale. */
  const supplement: OfferingInput = { offeringDate: day("2024-09-01"), offeringType: "atm", formType: "424B5", fileNumber: "333-000001", amountCents: 10n * M * DOLLAR, shares: null };
  const room = (over: Partial<RatingInputs>) => babyShelfRoom(inputs({ latestFloat: cover, registrations: [s3, program], offerings: [takedown("2025-01-15"), supplement], ...over }));

  it("is one third of the float less a takedown 5 months ago and the ATM's sales: $10M − $4M − $1M = $5M", () => {
    expect(room({})).toEqual({
      status: "applies",
      capacityCents: 5n * M * DOLLAR,
      basis: "computed",
      statedBy: null,
      asOf: day("2025-06-15"),
      publicFloat: { cents: 30n * M * DOLLAR, asOf: day("2024-12-31"), source: "float_snapshot" },
      thirdCents: 10n * M * DOLLAR,
      soldCents: 5n * M * DOLLAR,
      takedownsCents: 4n * M * DOLLAR,
      atmSoldCents: 1n * M * DOLLAR,
      uncounted: [],
    });
    const rating = rateOfferingAbility(inputs({ latestFloat: cover, registrations: [s3, program], offerings: [takedown("2025-01-15"), supplement] }));
    expect(rating.desc).toBe(
      "S-3 shelf effective, $5.0M raisable under the baby-shelf limit (1/3 of the $30.0M public float less $5.0M sold in the last 12 months), 12.5% of the $40.0M market cap; shelf size net of $1.0M sold on its ATM; ATM with $9.0M remaining",
    );
  });

  it("does not subtract a sale 13 months ago, nor one on the same day a year before; one a day later it does", () => {
    expect(room({ offerings: [takedown("2025-01-15"), takedown("2024-05-15", { amountCents: 3n * M * DOLLAR }), supplement] }).capacityCents).toBe(5n * M * DOLLAR);
    expect(room({ offerings: [takedown("2025-01-15"), takedown("2024-06-15", { amountCents: 3n * M * DOLLAR })] }).capacityCents).toBe(5n * M * DOLLAR);
    expect(room({ offerings: [takedown("2025-01-15"), takedown("2024-06-16", { amountCents: 3n * M * DOLLAR })] }).capacityCents).toBe(2n * M * DOLLAR);
    // nor one after the as-of day
    expect(room({ offerings: [takedown("2025-06-16")] }).capacityCents).toBe(9n * M * DOLLAR);
  });

  it("counts only takedowns off the company's S-3/F-3 shelves, by amount or shares × price, and no ATM supplement", () => {
    const pipe = takedown("2025-02-01", { offeringType: "pipe", fileNumber: null });
    const s1 = takedown("2025-02-01", { fileNumber: "333-000009" });
    expect(room({ registrations: [s3, program, shelf({ formType: "S-1", fileNumber: "333-000009" })], offerings: [pipe, s1, supplement] }).capacityCents).toBe(9n * M * DOLLAR);
    const priced = takedown("2025-02-01", { amountCents: null, shares: 1n * M, priceMicros: 2_500_000n });
    expect(room({ offerings: [priced] }).takedownsCents).toBe(2_500_000n * DOLLAR);
  });

  it("is never below zero", () => {
    expect(room({ offerings: [takedown("2025-01-15", { amountCents: 12n * M * DOLLAR })] })).toMatchObject({ capacityCents: 0n, soldCents: 13n * M * DOLLAR });
    const capacity = computeOfferingCapacity(inputs({ latestFloat: cover, registrations: [s3, program], offerings: [takedown("2025-01-15", { amountCents: 12n * M * DOLLAR })] }));
    expect(capacity).toMatchObject({ babyShelfCapCents: 0n, raisableCents: 0n });
    expect(rateOfferingAbility(inputs({ latestFloat: cover, registrations: [s3], offerings: [takedown("2025-01-15", { amountCents: 12n * M * DOLLAR })] })).desc).toBe(
      "S-3 shelf effective, nothing raisable now: the baby-shelf limit is used up (1/3 of the $30.0M public float less $12.0M sold in the last 12 months)",
    );
  });

  it("a figure a filing states for a day in the 12 months still wins", () => {
    const stated = { ...s3, babyShelfCapacityCents: 2n * M * DOLLAR, babyShelfSoldCents: 1_500_000n * DOLLAR, babyShelfAsOf: day("2025-05-01") };
    expect(room({ registrations: [stated, program] })).toMatchObject({ status: "applies", basis: "stated", statedBy: stated, capacityCents: 2n * M * DOLLAR, soldCents: 1_500_000n * DOLLAR, asOf: day("2025-05-01") });
    expect(rateOfferingAbility(inputs({ latestFloat: cover, registrations: [stated] })).desc).toContain("under the baby-shelf limit ($2.0M left as a filing states it on 2025-05-01)");
    // one stated a year before says nothing of today: computed again
    expect(room({ registrations: [{ ...stated, babyShelfAsOf: day("2024-06-15") }, program] })).toMatchObject({ basis: "computed", capacityCents: 5n * M * DOLLAR });
  });

  it("a stated figure loses what was sold after the day it is stated for", () => {
    const stated = { ...s3, babyShelfCapacityCents: 2n * M * DOLLAR, babyShelfSoldCents: 1_500_000n * DOLLAR, babyShelfAsOf: day("2025-05-01") };
    const later = takedown("2025-05-20", { amountCents: 1_500_000n * DOLLAR });
    expect(room({ registrations: [stated, program], offerings: [takedown("2025-01-15"), later] })).toMatchObject({
      basis: "stated",
      capacityCents: 500_000n * DOLLAR,
      soldCents: 3n * M * DOLLAR,
      takedownsCents: 1_500_000n * DOLLAR,
      asOf: day("2025-06-15"),
    });
    // more sold since than the statement left: nothing
    expect(room({ registrations: [stated, program], offerings: [takedown("2025-05-20", { amountCents: 5n * M * DOLLAR })] }).capacityCents).toBe(0n);
  });

  it("does not count two ATM programs of one size twice: one may be the other filed again, so the room is unknown", () => {
    const again = { ...program, filedAt: day("2025-02-01"), effectiveAt: day("2025-02-01"), atmSoldCents: 2n * M * DOLLAR, atmRemainingCents: 8n * M * DOLLAR, atmRemainingAsOf: day("2025-03-31") };
    const twice = room({ registrations: [s3, program, again] });
    expect(twice).toMatchObject({ capacityCents: null, soldCents: null });
    expect(twice.uncounted).toHaveLength(2);
  });

  it("as of a past day, a program whose only report is later has sales by that day that are not known", () => {
    const reportedLater = { ...program, atmRemainingAsOf: day("2025-09-30") };
    expect(room({ registrations: [s3, reportedLater] })).toMatchObject({ capacityCents: null, uncounted: ["the 2024-09-01 ATM program's sales by 2025-06-15"] });
  });

  it("gives no capacity when the float is $75M or more, or unknown", () => {
    expect(room({ latestFloat: { ...cover, publicFloatCents: 75n * M * DOLLAR } })).toMatchObject({ status: "not_applicable", capacityCents: null });
    expect(room({ latestFloat: undefined })).toMatchObject({ status: "unknown", capacityCents: null });
  });

  it("cannot count an ATM program begun before the 12 months (its sales to date include earlier ones), nor a takedown with no amount: unknown, and the rating takes the most the rule allows", () => {
    const older = { ...program, filedAt: day("2024-03-01") };
    const unknown = room({ registrations: [s3, older] });
    expect(unknown).toMatchObject({ capacityCents: null, soldCents: null, takedownsCents: 4n * M * DOLLAR, atmSoldCents: 0n, uncounted: ["the 2024-03-01 ATM program's sales in the last 12 months (of $1.0M to date)"] });
    expect(computeOfferingCapacity(inputs({ latestFloat: cover, registrations: [s3, older], offerings: [takedown("2025-01-15")] })).babyShelfCapCents).toBe(6n * M * DOLLAR);
    // … unless its report is for a day before the 12 months: then none of its reported sales are in them
    expect(room({ registrations: [s3, { ...older, atmRemainingAsOf: day("2024-06-15") }] }).capacityCents).toBe(6n * M * DOLLAR);
    expect(room({ offerings: [takedown("2025-01-15", { amountCents: null })] })).toMatchObject({ capacityCents: null, uncounted: ["the 2025-01-15 takedown's amount"] });
  });
});

describe("remaining shelf and ATM capacity", () => {
  const big = float({ floatShares: 200n * M, outstandingShares: 250n * M, marketCapCents: 100n * M * DOLLAR });

  it("counts an ATM at its remaining amount, and at its full size when the remaining is stated for a later day", () => {
    const stated = atm({ atmRemainingCents: 2n * M * DOLLAR, atmRemainingAsOf: day("2025-03-31") });
    expect(computeOfferingCapacity(inputs({ registrations: [stated], latestFloat: big }))).toMatchObject({ atmRemainingCents: 2n * M * DOLLAR, atmRemainingUnknown: false });
    const later = atm({ atmRemainingCents: 2n * M * DOLLAR, atmRemainingAsOf: day("2025-06-30") });
    expect(computeOfferingCapacity(inputs({ registrations: [later], latestFloat: big }))).toMatchObject({ atmRemainingCents: 10n * M * DOLLAR, atmRemainingUnknown: true });
  });

  it("takes what an ATM sold off a shelf (same file number) off the shelf's size", () => {
    const s3 = shelf({ offeringAmountCents: 50n * M * DOLLAR, fileNumber: "333-000001" });
    // $10M program, $2M left: $8M sold.
    const program = atm({ fileNumber: "333-000001" });
    const capacity = computeOfferingCapacity(inputs({ registrations: [s3, program], latestFloat: big }));
    expect(capacity).toMatchObject({ shelfSoldOnAtmsCents: 8n * M * DOLLAR, raisableCents: 42n * M * DOLLAR });
    expect(rateOfferingAbility(inputs({ registrations: [s3, program], latestFloat: big })).desc).toBe(
      "S-3 shelf effective, $42.0M raisable with no baby-shelf limit (public float $200.0M), 42.0% of the $100.0M market cap; shelf size net of $8.0M sold on its ATM; ATM with $2.0M remaining",
    );
    // A stated sales figure wins over size − remaining.
    const reported = atm({ fileNumber: "333-000001", atmSoldCents: 5n * M * DOLLAR });
    expect(computeOfferingCapacity(inputs({ registrations: [s3, reported], latestFloat: big })).raisableCents).toBe(45n * M * DOLLAR);
    // Another shelf's ATM, or one without a file number, takes nothing off.
    expect(computeOfferingCapacity(inputs({ registrations: [s3, atm({ fileNumber: "333-999999" })], latestFloat: big })).raisableCents).toBe(50n * M * DOLLAR);
    expect(computeOfferingCapacity(inputs({ registrations: [s3, atm()], latestFloat: big })).raisableCents).toBe(50n * M * DOLLAR);
  });
});

// ───────────────────────────── reverse splits ─────────────────────────────

describe("reverse splits", () => {
  const split = (date: string, oldShares = 20): ReverseSplitInput => ({ effectiveDate: day(date), oldShares, newShares: 1 });

  it("names the reverse splits of the last 12 months in nasdaq_compliance_desc, both ends included", () => {
    expect(rateNasdaqCompliance(inputs({ reverseSplits: [split("2024-06-15")] })).desc).toBe(
      "No active listing deficiency; 1-for-20 reverse split effective 2024-06-15",
    );
    expect(rateNasdaqCompliance(inputs({ reverseSplits: [split("2024-06-14"), split("2025-06-16")] })).desc).toBe("No active listing deficiency");
    expect(rateNasdaqCompliance(inputs({ reverseSplits: [split("2025-06-15", 10), split("2024-09-01")], deficiencies: [deficiency({ deadline: null })] }))).toEqual({
      rating: "Medium",
      desc: "Active minimum bid price deficiency: notice 2025-01-15, no deadline set; reverse splits 1-for-20 effective 2024-09-01 and 1-for-10 effective 2025-06-15",
    });
  });

  it("weighs on overall_offering_risk: alone at least Medium, with an active deficiency one level up", () => {
    const calm = { latestFinancials: financials({ cashCents: 50n * M * DOLLAR }), latestFloat: float() };
    expect(computeDilutionRating(inputs(calm)).overall_offering_risk).toBe("Low");
    expect(computeDilutionRating(inputs({ ...calm, reverseSplits: [split("2024-06-15")] })).overall_offering_risk).toBe("Medium");
    expect(computeDilutionRating(inputs({ ...calm, reverseSplits: [split("2024-06-14")] })).overall_offering_risk).toBe("Low");
    expect(computeDilutionRating(inputs({ ...calm, deficiencies: [deficiency({ deadline: null })] })).overall_offering_risk).toBe("Medium");
    // Medium cash need (12 months): Medium, and High after a split with an active deficiency.
    const funded = { latestFinancials: financials({ cashCents: 1_200_000n * DOLLAR }), latestFloat: float() };
    expect(computeDilutionRating(inputs({ ...funded, deficiencies: [deficiency({ deadline: null })] })).overall_offering_risk).toBe("Medium");
    expect(computeDilutionRating(inputs({ ...funded, deficiencies: [deficiency({ deadline: null })], reverseSplits: [split("2025-01-01")] })).overall_offering_risk).toBe("High");
  });

  it("lists a recent split's filing among the sources, and not an ended instrument's", () => {
    const src = (accession: string, filed: string) => ({ accession, form: "8-K", filedAt: day(filed), url: `https://example.test/${accession}` });
    const sources = ratingSources(
      inputs({
        reverseSplits: [{ ...split("2025-01-01"), source: src("0000000001-25-000001", "2024-12-20") }, { ...split("2023-01-01"), source: src("0000000001-23-000001", "2022-12-20") }],
        instruments: [
          instrument({ source: src("0000000001-24-000002", "2024-03-01") }),
          instrument({ name: "gone", status: "exercised", statusAsOf: day("2025-01-01"), source: src("0000000001-24-000003", "2024-03-02") }),
        ],
      }),
    );
    expect(sources.map((s) => s.accession)).toEqual(["0000000001-25-000001", "0000000001-24-000002"]);
  });
});
