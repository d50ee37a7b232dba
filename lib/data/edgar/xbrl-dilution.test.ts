import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { crossCheckConversionPrice, crossCheckWarrantTotal, parseXbrlDilution } from "./xbrl-dilution";

/** The XBRL company facts as SEC serves them (../shared/fixtures/edgar). */
const RECORDED = path.resolve(process.cwd(), "..", "shared", "fixtures", "edgar");
const recorded = async (cik: string) => readFile(path.join(RECORDED, `companyfacts-CIK${cik}.json`), "utf8");

/** A fact in EDGAR's companyfacts shape. */
interface F {
  start?: string;
  end: string;
  val: number | string;
  accn: string;
  fy: number;
  fp: string;
  form: string;
  filed: string;
  frame?: string;
}
const TENK_2023 = { accn: "0001234567-24-000011", fy: 2023, fp: "FY", form: "10-K", filed: "2024-02-28" };
const TENQ_2024 = { accn: "0001234567-24-000052", fy: 2024, fp: "Q1", form: "10-Q", filed: "2024-05-10" };
const TENKA_2023 = { accn: "0001234567-24-000077", fy: 2023, fp: "FY", form: "10-K/A", filed: "2024-06-20" };

/** Constructed company facts: { concept: { unit: facts } } under us-gaap. */
function companyFacts(gaap: Record<string, Record<string, F[]>>, extra: Record<string, unknown> = {}) {
  return {
    cik: 1234567,
    entityName: "Constructed Small Cap Inc.",
    facts: {
      dei: {
        EntityCommonStockSharesOutstanding: {
          label: "Entity Common Stock, Shares Outstanding",
          units: { shares: [{ end: "2024-02-20", val: 10_000_000, ...TENK_2023 }] },
        },
      },
      "us-gaap": Object.fromEntries(Object.entries(gaap).map(([concept, units]) => [concept, { label: concept, description: "…", units }])),
      ...extra,
    },
  };
}

const warrantsAt2023 = (val = 324_375, price = 25) =>
  companyFacts({
    ClassOfWarrantOrRightOutstanding: {
      shares: [
        { end: "2023-12-31", val, ...TENK_2023, frame: "CY2023Q4I" },
        { end: "2023-12-31", val, ...TENQ_2024 },
      ],
    },
    ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights1: {
      "USD/shares": [
        { end: "2023-12-31", val: price, ...TENK_2023, frame: "CY2023Q4I" },
        { end: "2023-12-31", val: price, ...TENQ_2024 },
      ],
    },
  });

describe("parseXbrlDilution", () => {
  it("one value per period end, evidenced by the filing that first reported it", () => {
    const facts = parseXbrlDilution(warrantsAt2023());
    expect(facts.warrants).toHaveLength(1);
    expect(facts.warrants[0]).toMatchObject({
      periodEnd: "2023-12-31",
      outstanding: 324_375,
      exercisePrice: 25,
      exercisePriceUnit: "USD/shares",
      accession: TENK_2023.accn,
      form: "10-K",
      filed: "2024-02-28",
      notes: [],
      outstandingFact: { concept: "us-gaap:ClassOfWarrantOrRightOutstanding", accessions: [TENK_2023.accn, TENQ_2024.accn], restated: null },
    });
    // Accepts the JSON text as well as the parsed object.
    expect(parseXbrlDilution(JSON.stringify(warrantsAt2023()))).toEqual(facts);
  });

  it("when the filings disagree, the latest filing's value is kept and the first report is said", () => {
    const facts = parseXbrlDilution(
      companyFacts({
        ClassOfWarrantOrRightOutstanding: {
          shares: [
            { end: "2023-12-31", val: 300_000, ...TENQ_2024 },
            { end: "2023-12-31", val: 324_375, ...TENK_2023 },
            { end: "2023-12-31", val: 310_000, ...TENKA_2023 },
          ],
        },
      }),
    );
    const row = facts.warrants[0]!;
    expect(row).toMatchObject({ outstanding: 310_000, exercisePrice: null, accession: TENKA_2023.accn, form: "10-K/A" });
    expect(row.outstandingFact!.restated).toEqual({ value: 324_375, accession: TENK_2023.accn, form: "10-K", filed: "2024-02-28" });
    expect(row.outstandingFact!.accessions).toEqual([TENK_2023.accn, TENQ_2024.accn, TENKA_2023.accn]);
    expect(row.notes).toEqual([
      `ClassOfWarrantOrRightOutstanding for 2023-12-31 was first reported as 324,375 (accn ${TENK_2023.accn}, 10-K filed 2024-02-28); ` +
        `the latest filing, accn ${TENKA_2023.accn} (10-K/A filed 2024-06-20), states 310,000: the latest is kept`,
    ]);
  });

  it("the shares called for stand in for the count only at a period end without ClassOfWarrantOrRightOutstanding", () => {
    const facts = parseXbrlDilution(
      companyFacts({
        ClassOfWarrantOrRightOutstanding: { shares: [{ end: "2023-12-31", val: 100, ...TENK_2023 }] },
        ClassOfWarrantOrRightNumberOfSecuritiesCalledByWarrantsOrRights: {
          shares: [
            { end: "2023-12-31", val: 200, ...TENK_2023 },
            { end: "2024-03-31", val: 250, ...TENQ_2024 },
          ],
        },
      }),
    );
    expect(facts.warrants.map((w) => [w.periodEnd, w.outstanding, w.outstandingFact!.concept])).toEqual([
      ["2023-12-31", 100, "us-gaap:ClassOfWarrantOrRightOutstanding"],
      ["2024-03-31", 250, "us-gaap:ClassOfWarrantOrRightNumberOfSecuritiesCalledByWarrantsOrRights"],
    ]);
    expect(facts.warrants[1]!.notes[0]).toMatch(/no ClassOfWarrantOrRightOutstanding for 2024-03-31/);
  });

  it("conversion prices and convertible notes; text values and malformed entries are skipped", () => {
    const facts = parseXbrlDilution(
      companyFacts({
        DebtInstrumentConvertibleConversionPrice1: {
          "USD/shares": [
            { end: "2023-12-31", val: 1.25, ...TENK_2023 },
            { end: "2024-03-31", val: 1.1, ...TENQ_2024 },
          ],
        },
        ConvertibleNotesPayableCurrent: {
          USD: [
            { end: "2023-12-31", val: 2_500_000, ...TENK_2023 },
            { end: "2023-12-31", val: 2_500_000, ...TENQ_2024 },
            { end: "2024-03-31", val: "n/a", ...TENQ_2024 },
            { val: 5, ...TENQ_2024 } as unknown as F,
          ],
        },
      }),
    );
    expect(facts.conversionPrices.map((c) => [c.periodEnd, c.conversionPrice, c.unit, c.accession])).toEqual([
      ["2023-12-31", 1.25, "USD/shares", TENK_2023.accn],
      ["2024-03-31", 1.1, "USD/shares", TENQ_2024.accn],
    ]);
    expect(facts.convertibleDebt).toHaveLength(1);
    expect(facts.convertibleDebt[0]).toMatchObject({
      periodEnd: "2023-12-31",
      concept: "us-gaap:ConvertibleNotesPayableCurrent",
      amountCents: 250_000_000n,
      accession: TENK_2023.accn,
    });
  });

  it("refuses what is not company facts", () => {
    expect(() => parseXbrlDilution("not json")).toThrow(/not JSON/);
    expect(() => parseXbrlDilution({ facts: 3 })).toThrow(/unexpected shape/);
    expect(parseXbrlDilution({ cik: 1, facts: {} })).toEqual({ warrants: [], conversionPrices: [], convertibleDebt: [], splitRatios: [], splitTexts: [] });
  });
});

describe("split ratios: the direction only when unambiguous", () => {
  const RATIO = "StockholdersEquityNoteStockSplitConversionRatio1";
  const ratio = (val: number, more: Record<string, Record<string, F[]>> = {}) =>
    parseXbrlDilution(companyFacts({ [RATIO]: { pure: [{ end: "2023-11-15", val, ...TENK_2023 }] }, ...more })).splitRatios[0]!;

  it("a value below 1 whose reciprocal is whole is a 1-for-N reverse split", () => {
    expect(ratio(0.1)).toMatchObject({ direction: "reverse", reverseFactor: 10, ratio: "1-for-10", value: 0.1, concept: `us-gaap:${RATIO}` });
    expect(ratio(0.05)).toMatchObject({ direction: "reverse", ratio: "1-for-20" });
    expect(ratio(0.5)).toMatchObject({ direction: "reverse", ratio: "1-for-2" });
    // 1/N as tagged to a few decimals, when no other N rounds to it.
    expect(ratio(0.0333)).toMatchObject({ direction: "reverse", ratio: "1-for-30" });
    expect(ratio(0.333)).toMatchObject({ direction: "reverse", ratio: "1-for-3" });
  });

  it("anything else is ambiguous", () => {
    for (const val of [0.4, 0.33, 0.07, 1, 1.5]) expect(ratio(val)).toMatchObject({ direction: "ambiguous", reverseFactor: null, ratio: null });
    // 10 may be a 10-for-1 split or a 1-for-10 reverse split: never guessed.
    expect(ratio(10)).toMatchObject({ direction: "ambiguous", reverseFactor: null, ratio: null });
    expect(ratio(10).reason).toMatch(/10-for-1 split or a 1-for-10 reverse split/);
  });

  it("a value ≥ 1 is reverse only when a reverse-split text of the same filing (or the concept's name) says so", () => {
    const text = (val: string, accn = TENK_2023) => ({ StockholdersEquityReverseStockSplit: { "": [{ end: "2023-11-15", val, ...accn }] } });
    expect(ratio(10, text("On November 15, 2023 the Company effected a 1-for-10 reverse stock split."))).toMatchObject({
      direction: "reverse",
      ratio: "1-for-10",
    });
    // The text states another ratio: ambiguous.
    expect(ratio(10, text("a one-for-twenty reverse stock split"))).toMatchObject({ direction: "ambiguous", ratio: null });
    // A text from another filing says nothing about this one.
    expect(ratio(10, text("a 1-for-10 reverse stock split", TENQ_2024))).toMatchObject({ direction: "ambiguous" });
    // A concept named for reverse splits.
    const named = parseXbrlDilution(
      companyFacts({ StockholdersEquityReverseStockSplitConversionRatio: { pure: [{ end: "2023-11-15", val: 8, ...TENK_2023 }] } }),
    );
    expect(named.splitRatios[0]).toMatchObject({ direction: "reverse", ratio: "1-for-8" });
    expect(parseXbrlDilution(companyFacts(text("a 1-for-10 reverse stock split"))).splitTexts).toEqual([
      {
        concept: "us-gaap:StockholdersEquityReverseStockSplit",
        periodEnd: "2023-11-15",
        text: "a 1-for-10 reverse stock split",
        accession: TENK_2023.accn,
        form: "10-K",
        filed: "2024-02-28",
      },
    ]);
  });

  it("at one period end, the instant is preferred over durations", () => {
    const facts = parseXbrlDilution(
      companyFacts({
        [RATIO]: {
          pure: [
            { start: "2023-01-01", end: "2023-12-31", val: 0.1, ...TENK_2023 },
            { end: "2023-12-31", val: 0.05, ...TENK_2023 },
          ],
        },
      }),
    );
    expect(facts.splitRatios).toHaveLength(1);
    expect(facts.splitRatios[0]).toMatchObject({ periodStart: null, value: 0.05, ratio: "1-for-20" });
  });
});

describe("recorded company facts", () => {
  it("an IFRS filer yields nothing", async () => {
    expect(parseXbrlDilution(await recorded("0001997711"))).toEqual({ warrants: [], conversionPrices: [], convertibleDebt: [], splitRatios: [], splitTexts: [] });
  });

  it("Tesla: the DOE warrants, the 2013 notes' conversion price, and the 2020 and 2022 splits (ambiguous as tagged)", async () => {
    const tsla = parseXbrlDilution(await recorded("0001318605"));
    const at = (end: string) => tsla.warrants.find((w) => w.periodEnd === end)!;
    // Tesla tags the shares its warrants call for, not ClassOfWarrantOrRightOutstanding.
    expect(at("2014-12-31")).toMatchObject({
      outstanding: 3_090_111,
      exercisePrice: 7.54,
      exercisePriceUnit: "USD/shares",
      accession: "0001564590-15-001031",
      form: "10-K",
      outstandingFact: { concept: "us-gaap:ClassOfWarrantOrRightNumberOfSecuritiesCalledByWarrantsOrRights" },
      exercisePriceFact: { concept: "us-gaap:ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights1" },
    });
    // Before 2014 the price is on the deprecated element, in the unit Tesla used then.
    expect(at("2012-03-31")).toMatchObject({
      outstanding: 3_090_111,
      exercisePrice: 7.54,
      exercisePriceUnit: "USD/shares_unit",
      exercisePriceFact: { concept: "us-gaap:ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights" },
    });

    expect(tsla.conversionPrices.map((c) => [c.periodEnd, c.conversionPrice])).toEqual([
      ["2013-06-30", 124.52],
      ["2013-09-30", 124.52],
      ["2013-12-31", 124.52],
      ["2014-03-31", 124.52],
    ]);
    // The 2013 year-end's current convertible debt, stated by four filings, evidenced by the first.
    expect(tsla.convertibleDebt.find((d) => d.periodEnd === "2013-12-31" && d.concept === "us-gaap:ConvertibleDebtCurrent")).toMatchObject({
      amountCents: 18_200_000n,
      accession: "0001193125-14-069681",
      form: "10-K",
      fact: { accessions: expect.arrayContaining(["0001193125-14-069681", "0001193125-14-403635"]) as unknown, restated: null },
    });

    // A 5-for-1 forward split tagged as 5: never read as a reverse split.
    const split2020 = tsla.splitRatios.find((s) => s.periodEnd === "2020-08-10")!;
    expect(split2020).toMatchObject({ value: 5, direction: "ambiguous", ratio: null, accession: "0001564590-20-047486", periodStart: null });
    expect(split2020.fact.accessions).toHaveLength(3);
    expect(tsla.splitRatios.find((s) => s.periodEnd === "2022-08-05")).toMatchObject({ value: 3, direction: "ambiguous" });
    expect(tsla.splitRatios.every((s) => s.direction === "ambiguous")).toBe(true);
    expect(tsla.splitTexts).toEqual([]);

    expect(crossCheckWarrantTotal({ shares: 3_090_111, price: 7.54, asOf: "2014-12-31" }, tsla)).toMatchObject({ verdict: "agrees", used: "text" });
    expect(crossCheckConversionPrice({ price: 124.52, asOf: "2013-12-31" }, tsla)).toMatchObject({ verdict: "agrees", used: "text" });
  });
});

describe("crossCheckWarrantTotal", () => {
  const text = { shares: 324_375, price: 25, asOf: "2023-12-31" };

  it("agrees within 0.5 %", () => {
    const check = crossCheckWarrantTotal(text, parseXbrlDilution(warrantsAt2023(325_000, 25.1)));
    expect(check).toMatchObject({ verdict: "agrees", used: "text" });
    expect(check.xbrl).toMatchObject({ outstanding: 325_000, exercisePrice: 25.1 });
    expect(check.note).toBe(
      "the report's text states 324,375 at $25.00 as of 2023-12-31; XBRL tags ClassOfWarrantOrRightOutstanding 325,000 and " +
        `ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights1 $25.10 (accn ${TENK_2023.accn}, 10-K filed 2024-02-28): they agree`,
    );
  });

  it("disagrees beyond it: the text is used and the note says both figures and why", () => {
    const check = crossCheckWarrantTotal(text, parseXbrlDilution(warrantsAt2023(300_000)));
    expect(check).toMatchObject({ verdict: "disagrees", used: "text", xbrl: { outstanding: 300_000 } });
    expect(check.note).toBe(
      "the report's text states 324,375 at $25.00 as of 2023-12-31; XBRL tags ClassOfWarrantOrRightOutstanding 300,000 and " +
        `ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights1 $25.00 (accn ${TENK_2023.accn}, 10-K filed 2024-02-28): ` +
        "the counts differ by 7.5 %; the text is used, its words are quoted (XBRL in company facts is the undimensioned, company-wide figure)",
    );
    const price = crossCheckWarrantTotal(text, parseXbrlDilution(warrantsAt2023(324_375, 2.5)));
    expect(price.verdict).toBe("disagrees");
    expect(price.note).toMatch(/the exercise prices differ \(\$25\.00 against \$2\.50\)/);
    // Only what both state is compared: the text's price alone against XBRL's.
    expect(crossCheckWarrantTotal({ shares: null, price: 25, asOf: "2023-12-31" }, parseXbrlDilution(warrantsAt2023(1)))).toMatchObject({
      verdict: "agrees",
    });
  });

  it("not tagged: no XBRL fact at the text's date, or none of what the text states", () => {
    const other = crossCheckWarrantTotal({ ...text, asOf: "2023-09-30" }, parseXbrlDilution(warrantsAt2023()));
    expect(other).toEqual({
      verdict: "not_tagged",
      used: "text",
      xbrl: null,
      note: "the report's text states 324,375 at $25.00 as of 2023-09-30; XBRL tags no warrant count or exercise price for 2023-09-30: the text is used",
    });
    const priceOnly = parseXbrlDilution(
      companyFacts({ ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights1: { "USD/shares": [{ end: "2023-12-31", val: 25, ...TENK_2023 }] } }),
    );
    expect(crossCheckWarrantTotal({ shares: 324_375, price: null, asOf: "2023-12-31" }, priceOnly)).toMatchObject({ verdict: "not_tagged", used: "text" });
    expect(crossCheckWarrantTotal(text, parseXbrlDilution(ifrsOnly()))).toMatchObject({ verdict: "not_tagged", xbrl: null });
  });

  it("the text states nothing and XBRL does: XBRL is used, and the note says so", () => {
    const check = crossCheckWarrantTotal({ shares: null, price: null, asOf: "2023-12-31T00:00:00Z" }, parseXbrlDilution(warrantsAt2023()));
    expect(check).toMatchObject({ verdict: "xbrl_only", used: "xbrl", xbrl: { outstanding: 324_375, exercisePrice: 25 } });
    expect(check.note).toMatch(/^the report's text states no warrant figure as of 2023-12-31; XBRL tags ClassOfWarrantOrRightOutstanding 324,375 .*: the XBRL figure is used, no text quotes it$/);
  });
});

describe("crossCheckConversionPrice", () => {
  const facts = parseXbrlDilution(
    companyFacts({ DebtInstrumentConvertibleConversionPrice1: { "USD/shares": [{ end: "2023-12-31", val: 1.25, ...TENK_2023 }] } }),
  );

  it("agrees, disagrees, not tagged, XBRL only", () => {
    expect(crossCheckConversionPrice({ price: 1.2512, asOf: "2023-12-31" }, facts)).toMatchObject({ verdict: "agrees", used: "text" });
    const differs = crossCheckConversionPrice({ price: 1.5, asOf: "2023-12-31" }, facts);
    expect(differs).toMatchObject({ verdict: "disagrees", used: "text", xbrl: { conversionPrice: 1.25 } });
    expect(differs.note).toMatch(
      new RegExp(
        `^the report's text states a conversion price of \\$1\\.50 as of 2023-12-31; XBRL tags DebtInstrumentConvertibleConversionPrice1 \\$1\\.25 \\(accn ${TENK_2023.accn}, 10-K filed 2024-02-28\\): the conversion prices differ by 16\\.7 %; the text is used`,
      ),
    );
    expect(crossCheckConversionPrice({ price: 1.25, asOf: "2024-03-31" }, facts)).toMatchObject({ verdict: "not_tagged", used: "text", xbrl: null });
    expect(crossCheckConversionPrice({ price: null, asOf: "2023-12-31" }, facts)).toMatchObject({ verdict: "xbrl_only", used: "xbrl" });
  });
});

/** Company facts with no us-gaap at all (an IFRS filer's shape). */
function ifrsOnly() {
  return { cik: 1, entityName: "IFRS Co", facts: { "ifrs-full": { CashAndCashEquivalents: { units: { USD: [{ end: "2023-12-31", val: 1, ...TENK_2023 }] } } } } };
}
