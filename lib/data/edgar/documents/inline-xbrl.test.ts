import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { blocksText, htmlBlocks } from "./html";
import { readInlineXbrl, type XbrlFact } from "./inline-xbrl";
import { applyFormat, scaleDecimal } from "./ixbrl-formats";
import { readPrimaryDocument, readSubmission } from "./submission";

const HEAD = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2020-02-12" xmlns:ixt-sec="http://www.sec.gov/inlineXBRL/transformation/2015-08-31" xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi" xmlns:us-gaap="http://fasb.org/us-gaap/2024" xmlns:abc="http://abc.example/20250930" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><body>`;
const HEADER = `<div style="display:none"><ix:header><ix:hidden>
  <ix:nonNumeric name="dei:AmendmentFlag" contextRef="d" format="ixt:fixed-false" id="h1">false</ix:nonNumeric>
  <ix:nonFraction name="us-gaap:ClassOfWarrantOrRightOutstanding" contextRef="i_A" unitRef="shares" decimals="INF" format="ixt:num-dot-decimal" id="h2">1,250,000</ix:nonFraction>
</ix:hidden><ix:resources>
  <xbrli:context id="d"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:startDate>2025-01-01</xbrli:startDate><xbrli:endDate>2025-09-30</xbrli:endDate></xbrli:period></xbrli:context>
  <xbrli:context id="i_A"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001</xbrli:identifier><xbrli:segment><xbrldi:explicitMember dimension="us-gaap:ClassOfWarrantOrRightAxis">abc:SeriesAWarrantsMember</xbrldi:explicitMember></xbrli:segment></xbrli:entity><xbrli:period><xbrli:instant>2025-09-30</xbrli:instant></xbrli:period></xbrli:context>
  <xbrli:context id="i_T"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001</xbrli:identifier><xbrli:segment><xbrldi:typedMember dimension="abc:TrancheAxis"><abc:TrancheDomain>2</abc:TrancheDomain></xbrldi:typedMember></xbrli:segment></xbrli:entity><xbrli:period><xbrli:forever/></xbrli:period></xbrli:context>
  <xbrli:unit id="shares"><xbrli:measure>xbrli:shares</xbrli:measure></xbrli:unit>
  <xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
  <xbrli:unit id="usdPerShare"><xbrli:divide><xbrli:unitNumerator><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unitNumerator><xbrli:unitDenominator><xbrli:measure>xbrli:shares</xbrli:measure></xbrli:unitDenominator></xbrli:divide></xbrli:unit>
</ix:resources></ix:header></div>`;

function read(body: string) {
  const reading = readInlineXbrl(`${HEAD}${HEADER}${body}</body></html>`);
  if (!reading.xbrl) throw new Error("no inline XBRL read");
  return reading;
}

function fact(facts: XbrlFact[], concept: string, contextRef?: string): XbrlFact {
  const found = facts.find((f) => f.concept === concept && (contextRef === undefined || f.contextRef === contextRef));
  if (!found) throw new Error(`no ${concept}`);
  return found;
}

describe("inline XBRL: facts with their contexts, units and quotes", () => {
  it("reads a warrant series' count and price with its dimension member, scale, unit and the table row that shows it", () => {
    const { xbrl } = read(`<table><tr><td>Series</td><td>Shares</td><td>Exercise price</td></tr>
      <tr><td>Series A</td><td><ix:nonFraction name="us-gaap:ClassOfWarrantOrRightOutstanding" contextRef="i_A" unitRef="shares" decimals="-3" scale="3" format="ixt:num-dot-decimal">1,250</ix:nonFraction></td>
      <td>$<ix:nonFraction name="us-gaap:ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights1" contextRef="i_A" unitRef="usdPerShare" decimals="2" format="ixt:numdotdecimal">1.50</ix:nonFraction></td></tr></table>`);
    const count = xbrl!.facts.find((f) => f.concept === "us-gaap:ClassOfWarrantOrRightOutstanding" && !f.hidden)!;
    expect(count).toMatchObject({ value: 1_250_000, unit: "shares", decimals: "-3", scale: 3, hidden: false, quote: "Series A 1,250 $1.50" });
    expect(count.context).toEqual({ id: "i_A", entity: "0000000001", period: { instant: "2025-09-30" }, dimensions: [{ dimension: "us-gaap:ClassOfWarrantOrRightAxis", member: "abc:SeriesAWarrantsMember", typed: null }] });
    expect(fact(xbrl!.facts, "us-gaap:ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights1")).toMatchObject({ value: 1.5, unit: "USD/shares" });
    expect(xbrl!.units).toEqual(new Map([["shares", "shares"], ["usd", "USD"], ["usdPerShare", "USD/shares"]]));
  });

  it("quotes a fact in prose by its sentence, and a typed member and a forever period are kept", () => {
    const { xbrl } = read(`<p>The notes bear interest at 8%. The notes convert at $<ix:nonFraction name="us-gaap:DebtInstrumentConvertibleConversionPrice1" contextRef="i_T" unitRef="usdPerShare" decimals="2">0.75</ix:nonFraction> per share, subject to adjustment. They mature in 2027.</p>`);
    const price = fact(xbrl!.facts, "us-gaap:DebtInstrumentConvertibleConversionPrice1");
    expect(price.quote).toBe("The notes convert at $0.75 per share, subject to adjustment.");
    expect(price.context?.period).toEqual({ forever: true });
    expect(price.context?.dimensions).toEqual([{ dimension: "abc:TrancheAxis", member: null, typed: "2" }]);
  });

  it("applies sign, zero dashes and nil, and says why a value in an unknown format is not read", () => {
    const { xbrl } = read(`<p>Loss (<ix:nonFraction name="us-gaap:NetIncomeLoss" contextRef="d" unitRef="usd" sign="-" scale="6" decimals="-5" format="ixt:num-dot-decimal">2.4</ix:nonFraction>) million;
      issued <ix:nonFraction name="us-gaap:StockIssuedDuringPeriodSharesNewIssues" contextRef="d" unitRef="shares" format="ixt:fixed-zero">—</ix:nonFraction>;
      <ix:nonFraction name="us-gaap:PreferredStockValue" contextRef="d" unitRef="usd" xsi:nil="true"></ix:nonFraction>
      <ix:nonFraction name="us-gaap:Revenues" contextRef="d" unitRef="usd" format="ixt:num-roman">XII</ix:nonFraction>
      <ix:nonFraction name="us-gaap:Assets" contextRef="nowhere" unitRef="usd">5</ix:nonFraction></p>`);
    expect(fact(xbrl!.facts, "us-gaap:NetIncomeLoss").value).toBe(-2_400_000);
    expect(fact(xbrl!.facts, "us-gaap:StockIssuedDuringPeriodSharesNewIssues").value).toBe(0);
    expect(fact(xbrl!.facts, "us-gaap:PreferredStockValue")).toMatchObject({ nil: true, value: null, unread: null });
    expect(fact(xbrl!.facts, "us-gaap:Revenues")).toMatchObject({ value: null, unread: "format ixt:num-roman is not known", text: "XII" });
    expect(xbrl!.problems).toContain('us-gaap:Revenues "XII": format ixt:num-roman is not known');
    expect(xbrl!.problems).toContain("us-gaap:Assets: context nowhere is not defined");
  });

  it("follows continuation chains in any order, leaves ix:exclude out, and keeps nested facts", () => {
    const { xbrl, blocks } = read(`<div><ix:continuation id="c2">and expire in 2030.</ix:continuation></div>
      <p><ix:nonNumeric name="us-gaap:StockholdersEquityNoteDisclosureTextBlock" contextRef="d" continuedAt="c1">The Series A warrants
      (<ix:nonFraction name="us-gaap:ClassOfWarrantOrRightOutstanding" contextRef="i_A" unitRef="shares" format="ixt:num-dot-decimal">1,250,000</ix:nonFraction> shares)</ix:nonNumeric></p>
      <p><ix:exclude>Page 12</ix:exclude></p>
      <p><ix:continuation id="c1" continuedAt="c2">are exercisable at $1.50 <ix:exclude>[footnote 3]</ix:exclude></ix:continuation></p>`);
    const note = fact(xbrl!.facts, "us-gaap:StockholdersEquityNoteDisclosureTextBlock");
    expect(note.text).toBe("The Series A warrants (1,250,000 shares) are exercisable at $1.50 and expire in 2030.");
    const nested = xbrl!.facts.find((f) => f.concept === "us-gaap:ClassOfWarrantOrRightOutstanding" && !f.hidden)!;
    expect(nested).toMatchObject({ value: 1_250_000, parent: xbrl!.facts.indexOf(note) });
    // excluded text is still on the page
    expect(blocksText(blocks)).toContain("Page 12");
  });

  it("marks hidden facts, and quotes one where a visible element points at it with -sec-ix-hidden", () => {
    const { xbrl } = read(`<p>Warrants outstanding: <span style="-sec-ix-hidden:h2">1,250,000</span> at September 30, 2025.</p>`);
    const hidden = xbrl!.facts.filter((f) => f.hidden);
    expect(hidden.map((f) => f.concept)).toEqual(["dei:AmendmentFlag", "us-gaap:ClassOfWarrantOrRightOutstanding"]);
    expect(hidden[0]).toMatchObject({ value: false, quote: null });
    expect(hidden[1]).toMatchObject({ value: 1_250_000, quote: "Warrants outstanding: 1,250,000 at September 30, 2025." });
  });

  it("builds the same blocks as the plain HTML reader, and reads no XBRL in a plain page", () => {
    const html = `<html><body><p>One</p><table><tr><td>a</td><td>1</td></tr></table><div>Two <b>three</b></div></body></html>`;
    expect(readInlineXbrl(html)).toEqual({ blocks: htmlBlocks(html), xbrl: null });
  });
});

describe("inline XBRL transformations, old and new names", () => {
  const ixt = "http://www.xbrl.org/inlineXBRL/transformation/2015-02-26";
  const ixt4 = "http://www.xbrl.org/inlineXBRL/transformation/2020-02-12";
  const sec = "http://www.sec.gov/inlineXBRL/transformation/2015-08-31";
  it.each([
    ["ixt:numdotdecimal", ixt, "1,234,567.50", "1234567.5"],
    ["ixt:num-dot-decimal", ixt4, "1 234 567", "1234567"],
    ["ixt:numcommadecimal", ixt, "1.234,5", "1234.5"],
    ["ixt:zerodash", ixt, "—", "0"],
    ["ixt:fixed-zero", ixt4, "nil", "0"],
    ["ixt:booleantrue", ixt, "Yes", true],
    ["ixt:fixed-false", ixt4, "No", false],
    ["ixt:datemonthdayyearen", ixt, "December 31, 2029", "2029-12-31"],
    ["ixt:date-monthname-day-year-en", ixt4, "Sept. 30, 2025", "2025-09-30"],
    ["ixt:date-month-day-year", ixt4, "09/30/25", "2025-09-30"],
    ["ixt:datedaymonthyearen", ixt, "30 September 2025", "2025-09-30"],
    ["ixt:date-year-month-day", ixt4, "2025-09-30", "2025-09-30"],
    ["ixt:datemonthday", ixt, "12/31", "--12-31"],
    ["ixt:date-monthname-year-en", ixt4, "March 2028", "2028-03"],
    ["ixt-sec:numwordsen", sec, "twenty-five thousand", "25000"],
    ["ixt-sec:numwordsen", sec, "none", "0"],
    ["ixt-sec:duryear", sec, "2.5", "P2Y6M"],
    ["ixt-sec:durmonth", sec, "18", "P1Y6M"],
    ["ixt-sec:durwordsen", sec, "five years", "P5Y"],
    ["ixt-sec:durwordsen", sec, "364-day", "P364D"],
    ["ixt-sec:datequarterend", sec, "third quarter of 2025", "2025-09-30"],
    ["ixt-sec:boolballotbox", sec, "☒", true],
    ["ixt-sec:exchnameen", sec, "The Nasdaq Capital Market", "NASDAQ"],
    ["ixt-sec:stateprovnameen", sec, "Delaware", "DE"],
  ])("%s reads %j", (format, namespace, text, value) => {
    expect(applyFormat(format, namespace, text)).toEqual({ ok: true, value });
  });

  it("refuses text a format does not accept, and a date that is not on the calendar", () => {
    expect(applyFormat("ixt:num-dot-decimal", ixt4, "1.2.3").ok).toBe(false);
    expect(applyFormat("ixt:date-month-day-year", ixt4, "02/30/2025").ok).toBe(false);
    expect(applyFormat("ixt:zerodash", ixt, "5").ok).toBe(false);
    expect(applyFormat("foo:numdotdecimal", "http://example.com/not-a-registry", "5")).toEqual({ ok: false, reason: "format foo:numdotdecimal is not known" });
  });

  it("scales decimals exactly", () => {
    expect(scaleDecimal("1.1", 6)).toBe("1100000");
    expect(scaleDecimal("0.07", 3)).toBe("70");
    expect(scaleDecimal("1234", -2)).toBe("12.34");
    expect(scaleDecimal("5", -3)).toBe("0.005");
  });
});

// ───────────────────────────── every inline-XBRL fixture ─────────────────────────────

const FIXTURE_ROOTS = [join(process.cwd(), "fixtures/edgar/Archives"), join(process.cwd(), "../shared/fixtures/edgar/Archives")];

function files(dir: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out = out.concat(files(path));
    else if (/\.(?:htm|txt)$/.test(name)) out.push(path);
  }
  return out;
}

/** The HTML documents of a fixture: a primary .htm is one; a .txt submission holds one per <DOCUMENT>. */
function documentsOf(path: string): string[] {
  const text = readFileSync(path, "latin1");
  if (path.endsWith(".htm")) return [text];
  return text.split(/<DOCUMENT>/i).slice(1);
}

/** Counted by the simplest means, independent of the reader: opening tags in the raw markup. */
function simpleCounts(html: string) {
  const count = (pattern: RegExp) => (html.match(pattern) ?? []).length;
  return {
    facts: count(/<ix:non(?:Fraction|Numeric)[\s>]/gi),
    contexts: count(/<xbrli:context[\s>]/gi),
    units: count(/<xbrli:unit[\s>]/gi),
  };
}

const inlineFixtures = FIXTURE_ROOTS.flatMap(files).filter((path) => documentsOf(path).some((d) => /<ix:header/i.test(d)));

describe("inline XBRL in every fixture", () => {
  it("finds the inline-XBRL fixtures (periodic reports, 8-Ks, fee exhibits)", () => {
    expect(inlineFixtures.length).toBeGreaterThanOrEqual(12);
  });

  it.each(inlineFixtures.map((p) => [p.slice(p.indexOf("/Archives/") + 10), p]))("%s: counts agree with a simple count, every fact has a context and a read value or a reason, every shown fact a quote on the page", (_name, path) => {
    const text = readFileSync(path, "latin1");
    const filing = path.endsWith(".htm") ? readPrimaryDocument(text) : readSubmission(text);
    const read = filing.documents.map((d) => d.inlineXbrl()).filter((x) => x !== null);
    const expected = documentsOf(path).filter((d) => /<ix:header/i.test(d)).map(simpleCounts);
    expect(read.map((x) => ({ facts: x.facts.length, contexts: x.contexts.size, units: x.units.size }))).toEqual(expected);
    for (const [i, xbrl] of read.entries()) {
      const page = blocksText(filing.documents.filter((d) => d.inlineXbrl())[i]!.blocks()).replace(/\s+/g, "");
      expect(xbrl.problems).toEqual([]);
      for (const f of xbrl.facts) {
        expect(f.context, f.concept).not.toBeNull();
        if (!f.nil && f.text !== "") expect(f.value, `${f.concept} "${f.text}"`).not.toBeNull();
        if (!f.hidden) expect(f.quote, `${f.concept} "${f.text}"`).not.toBeNull();
        if (f.quote) expect(page.includes(f.quote.replace(/\s+/g, "")), f.quote).toBe(true);
      }
    }
  });
});

describe("inline XBRL facts checked by hand", () => {
  const primary = (path: string) => readPrimaryDocument(readFileSync(join(process.cwd(), "fixtures/edgar/Archives/edgar/data", path), "latin1")).primary!.inlineXbrl()!.facts;

  it("Marathon's 10-Q: the Series A preferred's conversion price on its class member, the notes' conversion price, and the cover's share count", () => {
    const facts = primary("1507605/000149315223027174/form10-q.htm");
    const preferred = fact(facts, "us-gaap:PreferredStockConvertibleConversionPrice");
    expect(preferred).toMatchObject({ value: 14.52, unit: "USD/shares", hidden: false });
    expect(preferred.context?.period).toEqual({ instant: "2023-06-08" });
    expect(preferred.context?.dimensions.map((d) => d.member)).toEqual(["us-gaap:SeriesAPreferredStockMember", "MARA:SecuritiesPurchaseAgreementMember"]);
    expect(preferred.quote).toContain("at an initial conversion price of $14.52 per share");
    expect(fact(facts, "us-gaap:DebtInstrumentConvertibleConversionPrice1")).toMatchObject({ value: 76.17 });
    expect(fact(facts, "dei:EntityCommonStockSharesOutstanding")).toMatchObject({ value: 174_266_313, unit: "shares", context: { period: { instant: "2023-08-04" } } });
    // a 10-Q that repeats its statements in a display:none copy: those copies are hidden, not quoted from
    expect(facts.filter((f) => f.concept === "us-gaap:SharesOutstanding" && f.hidden).length).toBeGreaterThan(0);
  });

  it("Riot's 10-K: the XMS warrants' price on its equity-component member, quoted from its sentence", () => {
    const facts = primary("1167419/000155837024001550/riot-20231231x10k.htm");
    const price = fact(facts, "us-gaap:ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights1");
    expect(price).toMatchObject({ value: 48.37, unit: "USD/shares", context: { period: { instant: "2023-12-31" } } });
    expect(price.context?.dimensions).toEqual([{ dimension: "us-gaap:StatementEquityComponentsAxis", member: "riot:CommonStockWarrantsMember", typed: null }]);
    expect(price.quote).toBe("The warrants entitle XMS to purchase up to 63,000 shares of the Company’s common stock at a purchase price of $48.37 per share.");
    expect(fact(facts, "dei:EntityCommonStockSharesOutstanding").value).toBe(253_538_213);
  });

  it("Palantir's and Ford's covers: one share count per class, each on its class member", () => {
    const pltr = primary("1321655/000132165523000090/pltr-20230630.htm").filter((f) => f.concept === "dei:EntityCommonStockSharesOutstanding");
    expect(pltr.map((f) => [f.context?.dimensions[0]?.member, f.value])).toEqual([
      ["us-gaap:CommonClassAMember", 2_047_249_237],
      ["us-gaap:CommonClassBMember", 103_571_141],
      ["pltr:CommonClassFMember", 1_005_000],
    ]);
    const ford = primary("37996/000003799623000050/f-20230630.htm").filter((f) => f.concept === "dei:EntityCommonStockSharesOutstanding");
    expect(ford.map((f) => f.value)).toEqual([3_931_373_526, 70_852_076]);
    expect(ford[0]!.quote).toBe("As of July 24, 2023, Ford had outstanding 3,931,373,526 shares of Common Stock and 70,852,076 shares of Class B Stock.");
  });
});
