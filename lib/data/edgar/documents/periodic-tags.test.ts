import { describe, expect, it } from "vitest";
import { readPrimaryDocument } from "./submission";
import { readPeriodicReport } from "./periodic-report";
import { memberWords, readTaggedPeriodic } from "./periodic-tags";

/**
 * A small 10-Q in inline XBRL, written for these tests (no real filer): a
 * warrant table by series, each row's count and price tagged on its member,
 * and the traps a real one has (a range end, a scenario, counts issued in the
 * period, a dollar balance, a price before the split).
 */
const NS = `xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2020-02-12" xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi" xmlns:us-gaap="http://fasb.org/us-gaap/2024" xmlns:srt="http://fasb.org/srt/2024" xmlns:dei="http://xbrl.sec.gov/dei/2024" xmlns:tst="http://test.example/20250930"`;

function context(id: string, period: string, members: [string, string][] = []): string {
  const segment = members.length ? `<xbrli:segment>${members.map(([d, m]) => `<xbrldi:explicitMember dimension="${d}">${m}</xbrldi:explicitMember>`).join("")}</xbrli:segment>` : "";
  const when = period.includes("/") ? `<xbrli:startDate>${period.split("/")[0]}</xbrli:startDate><xbrli:endDate>${period.split("/")[1]}</xbrli:endDate>` : `<xbrli:instant>${period}</xbrli:instant>`;
  return `<xbrli:context id="${id}"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0009990002</xbrli:identifier>${segment}</xbrli:entity><xbrli:period>${when}</xbrli:period></xbrli:context>`;
}

const AXIS = "us-gaap:ClassOfWarrantOrRightAxis";
const num = (name: string, ctx: string, unit: string, text: string, extra = "") => `<ix:nonFraction name="${name}" contextRef="${ctx}" unitRef="${unit}" decimals="INF" format="ixt:num-dot-decimal"${extra}>${text}</ix:nonFraction>`;

function tenQ(body: string, prose = ""): string {
  return `<?xml version="1.0" encoding="utf-8"?><html ${NS}><head><title>tst-20250930</title></head><body>
<div style="display:none"><ix:header><ix:resources>
${context("d", "2025-01-01/2025-09-30")}
${context("e", "2025-09-30")}
${context("cover", "2025-11-10")}
${context("a", "2025-09-30", [[AXIS, "tst:SeriesAWarrantsMember"]])}
${context("b", "2025-09-30", [[AXIS, "tst:SeriesBWarrantsMember"]])}
${context("p", "2025-09-30", [[AXIS, "tst:PreFundedWarrantsMember"]])}
${context("bmax", "2025-09-30", [[AXIS, "tst:SeriesBWarrantsMember"], ["srt:RangeAxis", "srt:MaximumMember"]])}
${context("bissued", "2025-01-01/2025-09-30", [[AXIS, "tst:SeriesBWarrantsMember"]])}
${context("c", "2025-09-30", [[AXIS, "tst:SeriesCWarrantsMember"]])}
${context("cscenario", "2025-09-30", [[AXIS, "tst:SeriesCWarrantsMember"], ["srt:StatementScenarioAxis", "tst:IfShareholdersApproveMember"]])}
<xbrli:unit id="shares"><xbrli:measure>xbrli:shares</xbrli:measure></xbrli:unit>
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
<xbrli:unit id="usdps"><xbrli:divide><xbrli:unitNumerator><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unitNumerator><xbrli:unitDenominator><xbrli:measure>xbrli:shares</xbrli:measure></xbrli:unitDenominator></xbrli:divide></xbrli:unit>
</ix:resources></ix:header></div>
<p>UNITED STATES SECURITIES AND EXCHANGE COMMISSION</p><p>FORM <ix:nonNumeric name="dei:DocumentType" contextRef="d">10-Q</ix:nonNumeric></p>
<p>For the quarterly period ended <ix:nonNumeric name="dei:DocumentPeriodEndDate" contextRef="d" format="ixt:date-monthname-day-year-en">September 30, 2025</ix:nonNumeric></p>
<p><ix:nonNumeric name="dei:EntityRegistrantName" contextRef="d">Tagged Warrants Example Inc.</ix:nonNumeric></p>
<p>As of November 10, 2025, the registrant had ${num("dei:EntityCommonStockSharesOutstanding", "cover", "shares", "12,345,678")} shares of common stock outstanding.</p>
<p>NOTE 7 — WARRANTS</p>${prose}
<table><tr><td>Series</td><td>Warrants outstanding</td><td>Exercise price</td><td>Expiration</td></tr>${body}</table>
</body></html>`;
}

const ROWS = `
<tr><td>Series A warrants</td><td>${num("us-gaap:ClassOfWarrantOrRightOutstanding", "a", "shares", "1,500,000")}</td><td>$${num("us-gaap:ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights1", "a", "usdps", "2.50")}</td><td><ix:nonNumeric name="us-gaap:WarrantsAndRightsOutstandingMaturityDate" contextRef="a" format="ixt:date-monthname-day-year-en">March 15, 2029</ix:nonNumeric></td></tr>
<tr><td>Series B warrants (1)</td><td>${num("us-gaap:ClassOfWarrantOrRightOutstanding", "b", "shares", "800,000")}</td><td>$${num("tst:ClassOfWarrantOrRightExercisePriceAfterReverseStockSplit", "b", "usdps", "4.00")} (was $${num("tst:ClassOfWarrantOrRightExercisePriceBeforeReverseStockSplit", "b", "usdps", "0.40")})</td><td>June 1, 2030</td></tr>
<tr><td>Pre-funded warrants</td><td>${num("tst:NumberOfWarrantsOutstanding", "p", "shares", "250,000")}</td><td>$${num("us-gaap:ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights1", "p", "usdps", "0.001")}</td><td>None</td></tr>
<tr><td>Series B, at most, if the price resets</td><td>${num("us-gaap:ClassOfWarrantOrRightOutstanding", "bmax", "shares", "1,600,000")}</td><td></td><td></td></tr>
<tr><td>Series B issued in the period</td><td>${num("tst:ClassOfWarrantOrRightNumberOfWarrantsIssued", "bissued", "shares", "800,000")}</td><td></td><td></td></tr>
<tr><td>Series C issuable on approval</td><td>${num("us-gaap:ClassOfWarrantOrRightOutstanding", "cscenario", "shares", "3,000,000")}</td><td></td><td></td></tr>
<tr><td>Warrant liability, ending balance</td><td>$ ${num("us-gaap:DerivativeLiabilities", "e", "usd", "412,000")}</td><td></td><td></td></tr>
<tr><td>Total</td><td>${num("us-gaap:ClassOfWarrantOrRightOutstanding", "e", "shares", "2,550,000")}</td><td></td><td></td></tr>`;

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

    // the report: the same three series (the text reader reads the table's first row by its expiry), the total, the cover
    const { report } = read(html);
    expect(report.period).toBe("2025-09-30");
    expect(report.warrants.map((w) => [w.shares_outstanding, w.exercise_price, w.expiry, w.pre_funded ?? false])).toEqual([
      [1_500_000, 2.5, "2029-03-15", false],
      [800_000, 4, null, false],
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

  it("names a series by its member's words when no row names it", () => {
    expect(memberWords("aeon:PublicWarrantsMember")).toBe("Public Warrants");
    expect(memberWords("tst:SeriesDWarrants2022Member")).toBe("Series D Warrants 2022");
    expect(memberWords("tst:PrefundedWarrantsMember")).toBe("Pre-funded Warrants");
  });
});
