import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEffectItems, parseEffectNotice } from "./effect-notice";
import { classifyDeficiency, regainsCompliance } from "./eight-k";
import { feeExhibitCents } from "./fee-table";
import { parseFilingIndex, pickFeeExhibit, type FilingIndexEntry } from "./filing-index";
import { htmlToText } from "./plain-text";
import { isAtmOffering } from "./prospectus";
import { parseSecHeader } from "./submission";

/** Recorded real EDGAR files (see its README.md). */
const REAL = "/work/shared/fixtures/edgar";
const real = (name: string) => readFileSync(path.join(REAL, name), "utf8");

const FEE_EXHIBIT = real("ex-filing-fees-0001193125-25-155880.html");
const EFFECT_POS_AM = real("effect-0000038723-22-000117.xml");
const EFFECT_S1 = real("effect-2.xml");

describe("parseEffectNotice", () => {
  it("reads the shape with <submissionType> inside <effectiveData>", () => {
    expect(parseEffectNotice(EFFECT_POS_AM)).toEqual({
      fileNumber: "333-237642",
      form: "POS AM",
      effectiveDate: "2022-11-22",
      cik: "0000038723",
      entityName: "1st FRANKLIN FINANCIAL CORP",
    });
  });

  it("reads the shape with <form> and <finalEffectivenessDispTime>", () => {
    expect(parseEffectNotice(EFFECT_S1)).toEqual({
      fileNumber: "333-253868",
      form: "S-1",
      effectiveDate: "2022-01-11",
      cik: "0001848948",
      entityName: "10X Capital Venture Acquisition Corp. III",
    });
  });

  it("decodes entities and tolerates attributes and blank lines in tags", () => {
    const xml = EFFECT_S1.replace("10X Capital Venture Acquisition Corp. III", "Smith &amp; Sons&#8217; Co")
      .replace("<form>S-1</form>", '<form xml:space="preserve">\n  S-1/A \n</form>');
    expect(parseEffectNotice(xml)).toMatchObject({ form: "S-1/A", entityName: "Smith & Sons\u2019 Co" });
  });

  it("is null for other submissions and for notices without file number or date", () => {
    expect(parseEffectNotice(EFFECT_S1.replace("<submissionType>EFFECT</submissionType>", "<submissionType>S-1</submissionType>"))).toBeNull();
    expect(parseEffectNotice(EFFECT_S1.replace(/<fileNumber>.*<\/fileNumber>/, ""))).toBeNull();
    expect(parseEffectNotice(EFFECT_S1.replace(/<finalEffectivenessDispDate>.*<\/finalEffectivenessDispDate>/, ""))).toBeNull();
    expect(parseEffectNotice("<html><body>not xml</body></html>")).toBeNull();
    expect(parseEffectNotice("")).toBeNull();
  });
});

describe("parseEffectItems", () => {
  it("reads the items of every EFFECT row in Tesla's submissions", () => {
    const recent = (JSON.parse(real("submissions-CIK0001318605.json")) as { filings: { recent: { form: string[]; items: string[] } } })
      .filings.recent;
    const effects = recent.form.flatMap((form, i) => (form === "EFFECT" ? [recent.items[i] ?? ""] : []));
    expect(effects).toEqual(["S-4,,2019-05-10 16:00:00", "S-4,,2016-10-12 09:00:00"]);
    expect(effects.map(parseEffectItems)).toEqual([
      { form: "S-4", effectiveDate: "2019-05-10" },
      { form: "S-4", effectiveDate: "2016-10-12" },
    ]);
  });

  it("keeps forms with spaces, and gives null without a date", () => {
    expect(parseEffectItems("POS AM,,2024-07-01 16:00:00")).toEqual({ form: "POS AM", effectiveDate: "2024-07-01" });
    expect(parseEffectItems(",,2024-07-01")).toEqual({ form: null, effectiveDate: "2024-07-01" });
    expect(parseEffectItems("")).toBeNull();
    expect(parseEffectItems("2.02,9.01")).toBeNull();
  });
});

describe("parseSecHeader", () => {
  it("reads the real header of a small-cap 424B5", () => {
    expect(parseSecHeader(real("header-424B5-0001493152-23-020412.txt"))).toEqual({
      accessionNumber: "0001493152-23-020412",
      formType: "424B5",
      fileNumbers: ["333-256850"],
      filedDate: "2023-06-07",
      cik: "0000318306",
      companyName: "ABEONA THERAPEUTICS INC.",
      sic: "2834",
    });
  });

  it("reads the SGML form of the header too, padding the CIK", () => {
    const sgml = [
      "<SEC-HEADER>",
      "<ACCESSION-NUMBER>0001493152-25-002731",
      "<TYPE>424B5",
      "<FILING-DATE>20250120",
      "<FILER>",
      "<COMPANY-DATA>",
      "<CONFORMED-NAME>Constructed Biotech Example Inc.",
      "<CIK>9990001",
      "<ASSIGNED-SIC>2834",
      "<FILING-VALUES>",
      "<FILE-NUMBER>333-280001",
    ].join("\n");
    expect(parseSecHeader(sgml)).toEqual({
      accessionNumber: "0001493152-25-002731",
      formType: "424B5",
      fileNumbers: ["333-280001"],
      filedDate: "2025-01-20",
      cik: "0009990001",
      companyName: "Constructed Biotech Example Inc.",
      sic: "2834",
    });
  });

  it("lists every distinct file number and is empty for other text", () => {
    const two = "SEC FILE NUMBER:\t333-1\n\tSEC FILE NUMBER:\t333-2\nSEC FILE NUMBER:\t333-1\n";
    expect(parseSecHeader(two).fileNumbers).toEqual(["333-1", "333-2"]);
    expect(parseSecHeader("nothing here")).toEqual({
      accessionNumber: null,
      formType: null,
      fileNumbers: [],
      filedDate: null,
      cik: null,
      companyName: null,
      sic: null,
    });
  });
});

describe("htmlToText", () => {
  it("strips tags, decodes entities and collapses whitespace, keeping table cells apart", () => {
    const html = "<p>Smith&nbsp;&amp;&nbsp;Sons&#8217;<br/>stock&#x2019;s <b>bid</b>\n\n price &lt;$1&gt; &ldquo;q&rdquo;</p><table><tr><td>a</td><td>b</td></tr></table>";
    expect(htmlToText(html)).toBe("Smith & Sons\u2019 stock\u2019s bid price <$1> \u201cq\u201d a b");
    // Windows-1252 numeric references, as browsers show them
    expect(htmlToText("<p>the Company&#146;s &#147;Notes&#148;</p>")).toBe("the Company\u2019s \u201cNotes\u201d");
  });

  it("drops the hidden inline XBRL header, head, scripts and comments, keeping the visible facts", () => {
    const text = htmlToText(FEE_EXHIBIT);
    expect(text.startsWith("Exhibit 107 Calculation of Filing Fee Tables 424(b)(5) (Form Type) MicroStrategy Incorporated")).toBe(true);
    expect(text).toContain("Fees to Be Paid Equity 10.00% Series A Perpetual Stride Preferred Stock");
    expect(text).toContain("$4,200,000,000(1)");
    expect(text).not.toContain("EX-FILING FEES");
    expect(htmlToText("<head><title>t</title></head><script>x()</script><!-- c -->body")).toBe("body");
  });
});

describe("feeExhibitCents: an exhibit fetched on its own", () => {
  it("reads MicroStrategy's real Exhibit 107: $4,200,000,000 under a 424B5, with or without its inline XBRL", () => {
    expect(feeExhibitCents(FEE_EXHIBIT)).toBe(420_000_000_000n);
    const plain = FEE_EXHIBIT.replace(/<ix:header>[\s\S]*?<\/ix:header>/, "").replace(/<\/?ix:[^>]*>/g, "");
    expect(plain).not.toContain("ix:");
    expect(feeExhibitCents(plain)).toBe(420_000_000_000n);
  });

  it("is null where the exhibit states no amount (an automatic shelf deferring its fees)", () => {
    // Under Rule 457(r) the amounts and the fees are left out (paid as the shelf is used): every dollar fact becomes a footnote.
    const deferred = FEE_EXHIBIT.replace(/<ix:nonFraction name="ffd:(?:MaxAggtOfferingPric|TtlOfferingAmt|FeeAmt|TtlFeeAmt|NetFeeAmt)"[^>]*>[^<]*<\/ix:nonFraction>/g, "(2)");
    expect(feeExhibitCents(deferred)).toBeNull();
    expect(feeExhibitCents("<html><body>Exhibit 107 Rule 456(b) and 457(r)</body></html>")).toBeNull();
  });
});

describe("parseFilingIndex and pickFeeExhibit", () => {
  it("lists every item of a real index.json, sizes as numbers where given", () => {
    const entries = parseFilingIndex(real("filing-index-0001213900-24-004875.json"));
    expect(entries).toHaveLength(25);
    expect(entries[0]).toEqual({ name: "0001213900-24-004875-index-headers.html", type: "text.gif", size: null });
    expect(entries.find((e) => e.name.endsWith("-xbrl.zip"))).toEqual({
      name: "0001213900-24-004875-xbrl.zip",
      type: "compressed.gif",
      size: 101351,
    });
    expect(entries.map((e) => e.name)).toContain("ea191807-8k_datchat.htm");
  });

  it("finds no fee exhibit in that real 8-K folder (its exhibits are 1.1, 5.1 and 99.x)", () => {
    expect(pickFeeExhibit(parseFilingIndex(real("filing-index-0001213900-24-004875.json")))).toBeNull();
  });

  it("gives [] for anything not in the shape", () => {
    expect(parseFilingIndex("{not json")).toEqual([]);
    expect(parseFilingIndex("[]")).toEqual([]);
    expect(parseFilingIndex('{"directory":{"item":{}}}')).toEqual([]);
    expect(parseFilingIndex('{"directory":{"item":[{"size":"1"},{"name":"a.htm","size":7}]}}')).toEqual([
      { name: "a.htm", type: null, size: 7 },
    ]);
  });

  const named = (...names: string[]): FilingIndexEntry[] => names.map((name) => ({ name, type: "text.gif", size: 100 }));

  it.each([
    "ex-filingfees.htm",
    "ex107.htm",
    "d12345dex107.htm",
    "tm2412345d1_ex-filingfees.htm",
    "exhibit107.htm",
    "ea0123-ex107_abc.htm",
    "EX-107.HTML",
    "filingfeetable.htm",
  ])("recognises %s", (name) => {
    expect(pickFeeExhibit(named("form424b5.htm", name, "ex99-1.htm"))).toBe(name);
  });

  it("prefers the HTML rendering and never picks images, other exhibits or look-alike numbers", () => {
    expect(pickFeeExhibit(named("ex-filingfees_htm.xml", "ex107_001.jpg", "ex-filingfees.htm"))).toBe("ex-filingfees.htm");
    expect(pickFeeExhibit(named("ex107_001.jpg", "ex107.pdf"))).toBeNull();
    expect(pickFeeExhibit(named("ex10-7.htm", "ex1071.htm", "ex10_7.htm", "ex5-1.htm", "ex23-1.htm"))).toBeNull();
    expect(pickFeeExhibit([{ name: "d1.htm", type: "EX-FILING FEES", size: 1 }])).toBe("d1.htm");
    expect(pickFeeExhibit([])).toBeNull();
  });
});

describe("classifyDeficiency", () => {
  const item301 = (body: string) => `Item 3.01 Notice of Delisting or Failure to Satisfy a Continued Listing Rule or Standard; Transfer of Listing. ${body} Item 9.01 Financial Statements and Exhibits.`;

  it.each([
    ["the closing bid price of the Company’s common stock had been below the minimum $1.00 per share", "minimum_bid_price"],
    ["the Company did not meet the Bid Price Requirement set forth in Listing Rule 5550(a)(2)", "minimum_bid_price"],
    ["not in compliance with Nasdaq Listing Rule 5450 (a)(1)", "minimum_bid_price"],
    ["the NYSE American deemed the selling price low under Section 1003(f)(v) of the Company Guide", "minimum_bid_price"],
    ["the average closing price fell below the requirement of Section 802.01C of the NYSE Listed Company Manual", "minimum_bid_price"],
    ["the Company’s stockholders’ equity of $1.2 million was below the $2,500,000 required by Listing Rule 5550(b)(1)", "stockholders_equity"],
    ["the Company’s shareholders' equity fell below the requirement", "stockholders_equity"],
    ["non-compliance with Listing Rule 5450(b)(1)(A)", "stockholders_equity"],
    ["not in compliance with Section 1003(a)(iii) of the NYSE American Company Guide", "stockholders_equity"],
    ["the market value of listed securities was below $35 million as required by Listing Rule 5550(b)(2)", "market_value"],
    ["the Company’s Market Value of Publicly Held Shares was below $1,000,000", "market_value"],
    ["not in compliance with Listing Rule 5550(a)(5)", "market_value"],
    ["under Listing Rule 5450(b)(2)(A)", "market_value"],
    ["the Company has not yet filed its Annual Report on Form 10-K for the year ended December 31, 2024", "periodic_filing"],
    ["Listing Rule 5250(c)(1) requires listed companies to timely file all required periodic financial reports", "periodic_filing"],
    ["as a result of the Company’s Form 10-Q for the quarter ended June 30 not having been filed, the filing is delinquent", "periodic_filing"],
    ["the Company notified Nasdaq of its intention to transfer the listing of its common stock to the NYSE", "other"],
    ["the Company received a notice regarding the board’s audit committee composition under Rule 5605(c)(2)", "other"],
  ])("%s → %s", (body, kind) => {
    expect(classifyDeficiency(item301(body))).toBe(kind);
  });

  it("names the notice's own deficiency before the alternatives it mentions", () => {
    const equity =
      "the Company’s stockholders’ equity was below the minimum of $2,500,000 under Listing Rule 5550(b)(1). The Company also does not meet the alternatives of market value of listed securities or net income from continuing operations.";
    expect(classifyDeficiency(item301(equity))).toBe("stockholders_equity");
  });

  it("prefers the Item 3.01 section over the rest of the 8-K", () => {
    const text = `Item 2.02 Results of Operations. Stockholders’ equity was $3.1 million and the Company delinquent on nothing. ${item301(
      "the Company received a deficiency letter regarding the minimum bid price requirement.",
    )}`;
    expect(classifyDeficiency(text)).toBe("minimum_bid_price");
    expect(classifyDeficiency(text.replace(/Item 3\.01[\s\S]*$/, ""))).toBe("stockholders_equity");
  });

  it("reads the whole text when there is no Item 3.01 heading, and says other when nothing matches", () => {
    expect(classifyDeficiency("NASDAQ notified us that our MINIMUM BID PRICE was deficient")).toBe("minimum_bid_price");
    expect(classifyDeficiency("Quarterly results were announced.")).toBe("other");
    expect(classifyDeficiency("")).toBe("other");
  });
});

describe("regainsCompliance", () => {
  it.each([
    "On September 11, 2025, the Company received a letter from Nasdaq confirming that the Company has regained compliance with Listing Rule 5550(a)(2).",
    "The Company has regained compliance with the minimum bid price requirement.",
    "Nasdaq notified the Company that it regained compliance.",
    "The Company received a letter stating that it is now in compliance with the Nasdaq listing requirements.",
    "Nasdaq informed the Company that the matter is now closed.",
    "On May 2, 2025, Nasdaq notified the Company that it had regained compliance with Listing Rule 5550(a)(2).",
    "The Company has until May 1 to regain compliance. On April 2 the Company received notice it had regained compliance.",
    "The Company\u2019s stockholders\u2019 equity rose and Nasdaq confirmed the Company has regained compliance.",
  ])("fires on: %s", (text) => {
    expect(regainsCompliance(text)).toBe(true);
  });

  it.each([
    "The Company has 180 calendar days, or until September 8, 2025, to regain compliance.",
    "In order to regain compliance, the closing bid price must be at least $1.00 for 10 consecutive business days.",
    "The Company intends to monitor the bid price and consider options to regain compliance.",
    "If at any time before September 8, 2025, the closing bid price is at least $1.00 per share for a minimum of 10 consecutive business days, Nasdaq will provide written confirmation that the Company has regained compliance and the matter will be closed.",
    "The Company has not regained compliance with the rule.",
    "There can be no assurance that the Company will have regained compliance by the deadline.",
    "The Company would be deemed to have regained compliance upon such a showing.",
    "Nasdaq may confirm in May that the Company has regained compliance.",
    "The Company is not in compliance with Listing Rule 5550(a)(2).",
    "",
  ])("does not fire on: %s", (text) => {
    expect(regainsCompliance(text)).toBe(false);
  });
});

describe("isAtmOffering", () => {
  it.each([
    "Sales of our common stock, if any, may be made in sales deemed to be an \u201cat the market offering\u201d as defined in Rule 415(a)(4) under the Securities Act.",
    "sales deemed to be \u201cat-the-market\u201d offerings as defined in Rule 415(a)(4)",
    "We have entered into an Equity Distribution Agreement with Example Securities LLC.",
    "We have entered into a sales agreement with Example Capital Markets LLC, as sales agent.",
    "We entered into an Open Market Sale Agreement\u2120 with Jefferies LLC, acting as sales agent.",
    "We entered into an ATM Sales Agreement under which the Sales Agent may sell shares.",
  ])("fires on: %s", (text) => {
    expect(isAtmOffering(text)).toBe(true);
  });

  it.each([
    "We are offering 5,000,000 shares of common stock in a firm commitment underwritten offering. The public offering price was determined by negotiation with the underwriters, taking into account the market price of our common stock. The last reported sale price on Nasdaq was $2.10 per share.",
    "We entered into a securities purchase agreement with certain institutional investors in a registered direct offering; H.C. Example acted as exclusive placement agent.",
    "We entered into a sales agreement for the disposition of our manufacturing facility.",
    "",
  ])("does not fire on: %s", (text) => {
    expect(isAtmOffering(text)).toBe(false);
  });
});
