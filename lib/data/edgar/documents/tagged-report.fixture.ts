/**
 * A small 10-Q in inline XBRL, constructed for the tests (no real filer: CIK
 * 9990002, "Tagged Warrants Example Inc."): a
 * warrant table by series, each row's count and price tagged on its member,
 * and the traps a real one has (a range end, a scenario, counts issued in the
 * period, a dollar balance, a price before the split).
 */
const NS = `xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2020-02-12" xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi" xmlns:us-gaap="http://fasb.org/us-gaap/2024" xmlns:srt="http://fasb.org/srt/2024" xmlns:dei="http://xbrl.sec.gov/dei/2024" xmlns:tst="http://test.example/20250930"`;

export function context(id: string, period: string, members: [string, string][] = []): string {
  const segment = members.length ? `<xbrli:segment>${members.map(([d, m]) => `<xbrldi:explicitMember dimension="${d}">${m}</xbrldi:explicitMember>`).join("")}</xbrli:segment>` : "";
  const when = period.includes("/") ? `<xbrli:startDate>${period.split("/")[0]}</xbrli:startDate><xbrli:endDate>${period.split("/")[1]}</xbrli:endDate>` : `<xbrli:instant>${period}</xbrli:instant>`;
  return `<xbrli:context id="${id}"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0009990002</xbrli:identifier>${segment}</xbrli:entity><xbrli:period>${when}</xbrli:period></xbrli:context>`;
}

const AXIS = "us-gaap:ClassOfWarrantOrRightAxis";
export const num = (name: string, ctx: string, unit: string, text: string, extra = "") => `<ix:nonFraction name="${name}" contextRef="${ctx}" unitRef="${unit}" decimals="INF" format="ixt:num-dot-decimal"${extra}>${text}</ix:nonFraction>`;

export function taggedTenQ(body: string, prose = ""): string {
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

export const TAGGED_WARRANT_ROWS = `
<tr><td>Series A warrants</td><td>${num("us-gaap:ClassOfWarrantOrRightOutstanding", "a", "shares", "1,500,000")}</td><td>$${num("us-gaap:ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights1", "a", "usdps", "2.50")}</td><td><ix:nonNumeric name="us-gaap:WarrantsAndRightsOutstandingMaturityDate" contextRef="a" format="ixt:date-monthname-day-year-en">March 15, 2029</ix:nonNumeric></td></tr>
<tr><td>Series B warrants (1)</td><td>${num("us-gaap:ClassOfWarrantOrRightOutstanding", "b", "shares", "800,000")}</td><td>$${num("tst:ClassOfWarrantOrRightExercisePriceAfterReverseStockSplit", "b", "usdps", "4.00")} (was $${num("tst:ClassOfWarrantOrRightExercisePriceBeforeReverseStockSplit", "b", "usdps", "0.40")})</td><td>June 1, 2030</td></tr>
<tr><td>Pre-funded warrants</td><td>${num("tst:NumberOfWarrantsOutstanding", "p", "shares", "250,000")}</td><td>$${num("us-gaap:ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights1", "p", "usdps", "0.001")}</td><td>None</td></tr>
<tr><td>Series B, at most, if the price resets</td><td>${num("us-gaap:ClassOfWarrantOrRightOutstanding", "bmax", "shares", "1,600,000")}</td><td></td><td></td></tr>
<tr><td>Series B issued in the period</td><td>${num("tst:ClassOfWarrantOrRightNumberOfWarrantsIssued", "bissued", "shares", "800,000")}</td><td></td><td></td></tr>
<tr><td>Series C issuable on approval</td><td>${num("us-gaap:ClassOfWarrantOrRightOutstanding", "cscenario", "shares", "3,000,000")}</td><td></td><td></td></tr>
<tr><td>Warrant liability, ending balance</td><td>$ ${num("us-gaap:DerivativeLiabilities", "e", "usd", "412,000")}</td><td></td><td></td></tr>
<tr><td>Total</td><td>${num("us-gaap:ClassOfWarrantOrRightOutstanding", "e", "shares", "2,550,000")}</td><td></td><td></td></tr>`;

