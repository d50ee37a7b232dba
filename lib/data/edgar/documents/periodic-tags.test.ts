import { describe, expect, it } from "vitest";
import { readPrimaryDocument } from "./submission";
import { readPeriodicReport } from "./periodic-report";
import { memberWords, readTaggedPeriodic } from "./periodic-tags";
import { context, num, TAGGED_WARRANT_ROWS as ROWS, taggedTenQ as tenQ } from "./tagged-report.fixture";

const read = (html: string) => readPeriodicReport(readPrimaryDocument(html));

describe("a periodic report's tagged warrants", () => {
  it("gives one series per member with its count, price and expiry at the period end, and the tagged total", () => {
    const html = tenQ(ROWS);
    const filing = readPrimaryDocument(html);
    const tagged = readTaggedPeriodic(filing.primary!.inlineXbrl()!, filing.primary!.blocks(), "2025-09-30");
    expect(tagged.warrants).toEqual([
      { series: "Series A warrants", shares_outstanding: 1_500_000, exercise_price: 2.5, expiry: "2029-03-15", as_of: "2025-09-30" },
      { series: "Series B warrants", shares_outstanding: 800_000, exercise_price: 4, expiry: null, as_of: "2025-09-30" },
      { series: "Pre-funded warrants", shares_outstanding: 250_000, exercise_price: 0.001, expiry: null, as_of: "2025-09-30", pre_funded: true },
    ]);
    expect(tagged.warrants_total).toEqual({ shares_outstanding: 2_550_000, weighted_average_exercise_price: null, as_of: "2025-09-30" });
    expect(tagged.evidence["warrants[0].shares_outstanding"]).toBe("Series A warrants 1,500,000 $2.50 March 15, 2029");
    expect(tagged.evidence["warrants[1].exercise_price"]).toBe("Series B warrants (1) 800,000 $4.00 (was $0.40) June 1, 2030");
    expect(tagged.sources["warrants[1].exercise_price"]).toEqual({ from: "xbrl", concept: "tst:ClassOfWarrantOrRightExercisePriceAfterReverseStockSplit", context: "b" });
    expect(tagged.shares_outstanding).toEqual({ value: 12_345_678, as_of: "2025-11-10" });

    // the report: the same three series (the table read by its headings gives Series B the expiry its row shows and no tag does), the total, the cover
    const { report } = read(html);
    expect(report.period).toBe("2025-09-30");
    expect(report.warrants.map((w) => [w.shares_outstanding, w.exercise_price, w.expiry, w.pre_funded ?? false])).toEqual([
      [1_500_000, 2.5, "2029-03-15", false],
      [800_000, 4, "2030-06-01", false],
      [250_000, 0.001, null, true],
    ]);
    expect(report.warrants_total?.shares_outstanding).toBe(2_550_000);
  });

  it("takes no range end, scenario, amount issued or dollar balance as warrants outstanding", () => {
    const { report } = read(tenQ(ROWS));
    const counts = report.warrants.map((w) => w.shares_outstanding);
    expect(counts).not.toContain(1_600_000);
    expect(counts).not.toContain(3_000_000);
    expect(counts).not.toContain(412_000);
    expect(report.warrants.some((w) => /Series C/.test(w.series ?? ""))).toBe(false);
  });

  it("keeps what the text states where it differs from the tag, and says so", () => {
    // a filer's mis-scaled tag: the row shows 1,450,000, the tag says ten times that
    const misScaled = ROWS.replace(num("us-gaap:ClassOfWarrantOrRightOutstanding", "a", "shares", "1,500,000"), num("us-gaap:ClassOfWarrantOrRightOutstanding", "a", "shares", "1,450,000", ' scale="1"'));
    const { report, sources } = read(tenQ(misScaled));
    const at = report.warrants.findIndex((w) => w.expiry === "2029-03-15");
    expect(report.warrants[at]!.shares_outstanding).toBe(1_450_000);
    expect(report.warrants.map((w) => w.shares_outstanding)).not.toContain(14_500_000);
    expect(sources?.[`warrants[${at}].shares_outstanding`]).toEqual({ from: "text", concept: "us-gaap:ClassOfWarrantOrRightOutstanding", context: "a", note: "the text states 1450000; the tag 14500000" });
  });

  it("reads a series told in prose by its tags, its expiry from the paragraph and its holder from a generic member", () => {
    const html = tenQ("", `<p>In 2024 the Company issued warrants to Northwind Advisors, LLC for advisory services. The warrants entitle the holder to purchase up to ${num("us-gaap:ClassOfWarrantOrRightNumberOfSecuritiesCalledByWarrantsOrRights", "g", "shares", "63,000")} shares at $${num("us-gaap:ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights1", "g", "usdps", "48.37")} per share. The warrants may be exercised at any time through August 12, 2026.</p>`).replace(
      "</ix:resources>",
      `${context("g", "2025-09-30", [["us-gaap:StatementEquityComponentsAxis", "tst:CommonStockWarrantsMember"]])}</ix:resources>`,
    );
    const { report, evidence } = read(html);
    expect(report.warrants).toEqual([{ series: "Warrants issued to Northwind Advisors, LLC", shares_outstanding: 63_000, exercise_price: 48.37, expiry: "2026-08-12", as_of: "2025-09-30" }]);
    expect(evidence["warrants[0].expiry"]).toBe("The warrants may be exercised at any time through August 12, 2026.");
  });

  it("fills a convertible note's conversion price and maturity the text left unread from the tags on its member, never from tags that disagree", () => {
    const notes = (prices: string[]) =>
      `<p>On March 3, 2025, the Company issued $2,000,000 in aggregate principal amount of its 8% Convertible Notes due 2027 (the “2027 Notes”). As of September 30, 2025, $2,000,000 principal amount of the 2027 Notes remained outstanding.</p>` +
      `<table><tr><td>Terms of the 2027 Notes</td><td></td></tr>${prices.map((p, i) => `<tr><td>Conversion price per share (${i + 1})</td><td>$${num("us-gaap:DebtInstrumentConvertibleConversionPrice1", `n${i}`, "usdps", p)}</td></tr>`).join("")}` +
      `<tr><td>Maturity date</td><td><ix:nonNumeric name="us-gaap:DebtInstrumentMaturityDate" contextRef="n0" format="ixt:date-monthname-day-year-en">March 3, 2027</ix:nonNumeric></td></tr></table>`;
    const withContexts = (html: string) =>
      html.replace("</ix:resources>", `${context("n0", "2025-03-03", [["us-gaap:DebtInstrumentAxis", "tst:ConvertibleNotesDue2027Member"]])}${context("n1", "2025-06-30", [["us-gaap:DebtInstrumentAxis", "tst:ConvertibleNotesDue2027Member"]])}</ix:resources>`);
    const one = read(withContexts(tenQ("", notes(["0.50"]))));
    expect(one.report.convertibles).toEqual([{ kind: "note", name: "8% Convertible Notes due 2027", principal_or_stated_outstanding: null, conversion_price: 0.5, maturity: "2027-03-03", as_of: "2025-09-30" }]);
    expect(one.evidence["convertibles[0].conversion_price"]).toBe("Conversion price per share (1) $0.50");
    expect(one.sources?.["convertibles[0].maturity"]).toEqual({ from: "xbrl", concept: "us-gaap:DebtInstrumentMaturityDate", context: "n0" });
    // repriced in the period with no word on which applies: no price
    const two = read(withContexts(tenQ("", notes(["0.50", "0.35"]))));
    expect(two.report.convertibles[0]).toMatchObject({ conversion_price: null, maturity: "2027-03-03" });
  });

  it("names a series by its member's words when no row names it", () => {
    expect(memberWords("aeon:PublicWarrantsMember")).toBe("Public Warrants");
    expect(memberWords("tst:SeriesDWarrants2022Member")).toBe("Series D Warrants 2022");
    expect(memberWords("tst:PrefundedWarrantsMember")).toBe("Pre-funded Warrants");
  });
});
