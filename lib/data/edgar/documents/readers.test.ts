import { describe, expect, it } from "vitest";
import { blocksText, htmlBlocks } from "./html";
import { feeExhibitCents, readFeeExhibit } from "./fee-table";
import { readInlineXbrl } from "./inline-xbrl";
import { coverIdentity, inspectAny, inspectText } from "./inspect";
import { FilingFormatError, readSubmission } from "./submission";
import { labelledValues, documentLines, parseCount, parseDollars, quoteAround } from "./text";

/** A full submission in EDGAR's shape around the given documents. */
function submission(form: string, documents: { type: string; filename: string; html: string }[], extraHeader = ""): string {
  const header = [
    "<SEC-DOCUMENT>0000000000-26-000001.txt : 20260105",
    "<SEC-HEADER>0000000000-26-000001.hdr.sgml : 20260105",
    "ACCESSION NUMBER:\t\t0000000000-26-000001",
    `CONFORMED SUBMISSION TYPE:\t${form}`,
    "PUBLIC DOCUMENT COUNT:\t\t1",
    extraHeader,
    "FILED AS OF DATE:\t\t20260105",
    "",
    "FILER:",
    "",
    "\tCOMPANY DATA:\t",
    "\t\tCOMPANY CONFORMED NAME:\t\t\tExample Therapeutics, Inc.",
    "\t\tCENTRAL INDEX KEY:\t\t\t0001234567",
    "",
    "\tFILING VALUES:",
    `\t\tFORM TYPE:\t\t${form}`,
    "\t\tSEC FILE NUMBER:\t333-270001",
    "</SEC-HEADER>",
  ].join("\n");
  const docs = documents.map((d, i) => `<DOCUMENT>\n<TYPE>${d.type}\n<SEQUENCE>${i + 1}\n<FILENAME>${d.filename}\n<TEXT>\n${d.html}\n</TEXT>\n</DOCUMENT>`).join("\n");
  return `${header}\n${docs}\n</SEC-DOCUMENT>\n`;
}

describe("HTML as the page shows it", () => {
  it("joins what inline tags split, drops zero-width characters and no-break spaces inside numbers, keeps cells apart", () => {
    const blocks = htmlBlocks(
      `<p>We are offering <b>1,</b>609,114&#8203; shares at $&nbsp;3.<span>61</span></p>` +
        `<table><tr><td>Offering price</td><td>$</td><td>3.6100</td><td></td><td>$</td><td>7,000,040.63</td></tr></table>`,
    );
    expect(blocks[0]).toEqual({ kind: "text", text: "We are offering 1,609,114 shares at $ 3.61" });
    expect(blocks[1]).toEqual({ kind: "table", rows: [["Offering price", "$", "3.6100", "", "$", "7,000,040.63"]], spans: [[1, 1, 1, 1, 1, 1]] });
    expect(blocksText(blocks)).toBe("We are offering 1,609,114 shares at $ 3.61\nOffering price $ 3.6100 $ 7,000,040.63");
  });

  it("leaves out what is never shown: the inline-XBRL header, display:none, scripts and styles", () => {
    const text = blocksText(
      htmlBlocks(
        `<html><head><title>x</title><style>p{}</style></head><body><ix:header><ix:hidden><ix:nonNumeric name="dei:DocumentType">10-K</ix:nonNumeric></ix:hidden></ix:header>` +
          `<div style="display: none">hidden text</div><script>var a = 1;</script><p>Shown</p></body></html>`,
      ),
    );
    expect(text).toBe("Shown");
  });

  it("reads a nested table as the text of its outer cell, and survives unclosed markup", () => {
    const blocks = htmlBlocks(`<table><tr><td>Label<table><tr><td>inner a</td><td>inner b</td></tr></table></td><td>value<tr><td>second`);
    expect(blocks).toEqual([{ kind: "table", rows: [["Label inner a inner b", "value"], ["second"]], spans: [[1, 1], [1]] }]);
  });

  it("refuses pathological nesting instead of slowing down with its square", () => {
    expect(() => htmlBlocks("<table><tr><td>".repeat(1000))).toThrow(/nested more than/);
  });
});

describe("text helpers", () => {
  it("parses counts grouped by threes only, and dollars", () => {
    expect(parseCount("1,609,114")).toBe(1609114);
    expect(parseCount("761,12")).toBeNull();
    expect(parseDollars("$7,000,040.63")).toBe(7000040.63);
    expect(parseDollars("$.01")).toBe(0.01);
    expect(parseDollars("$")).toBeNull();
  });

  it("quotes at most 200 characters around a match, cut at words", () => {
    const text = `${"word ".repeat(80)}the price is $3.61 per share ${"more ".repeat(80)}`;
    const start = text.indexOf("the price");
    const quote = quoteAround(text, start, start + 28);
    expect(quote.length).toBeLessThanOrEqual(200);
    expect(quote).toContain("the price is $3.61 per share");
    expect(text).toContain(quote);
  });

  it("pairs a summary's labels and values, in rows or in a heading paragraph and the next", () => {
    const lines = documentLines(htmlBlocks(`<table><tr><td>Shares offered</td><td>1,000 shares</td></tr></table><p>Securities offered</p><p>25,000,000 units, at $10.00 per unit.</p>`));
    expect(labelledValues(lines).map((p) => [p.label, p.value])).toEqual([
      ["Shares offered", "1,000 shares"],
      ["Securities offered", "25,000,000 units, at $10.00 per unit."],
    ]);
  });
});

describe("a submission", () => {
  it("splits the SEC header and documents; graphics are listed, not parsed; the directory's CIK picks the filer", () => {
    const text = submission(
      "424B5",
      [
        { type: "424B5", filename: "p.htm", html: "<p>Prospectus</p>" },
        { type: "GRAPHIC", filename: "logo.jpg", html: "begin 644 logo.jpg\nM_]C_X``0" },
      ],
      "ITEM INFORMATION:\t\tRegulation FD Disclosure",
    );
    const filing = readSubmission(text);
    expect(filing.header).toMatchObject({ accession: "0000000000-26-000001", form: "424B5", filed: "2026-01-05", cik: 1234567, company: "Example Therapeutics, Inc.", fileNumber: "333-270001", items: ["Regulation FD Disclosure"] });
    expect(filing.documents.map((d) => [d.type, d.filename, d.blocks().length])).toEqual([
      ["424B5", "p.htm", 1],
      ["GRAPHIC", "logo.jpg", 0],
    ]);
    expect(filing.primary?.filename).toBe("p.htm");
  });

  it("says what is wrong with a file that is not a submission, or was cut short", () => {
    expect(() => readSubmission("hello, world")).toThrow(FilingFormatError);
    expect(() => readSubmission("hello, world")).toThrow(/not an EDGAR submission/);
    const whole = submission("424B5", [{ type: "424B5", filename: "p.htm", html: "<p>Prospectus</p>" }]);
    expect(() => readSubmission(whole.slice(0, whole.indexOf("</DOCUMENT>")))).toThrow(/truncated/);
  });

  it("reads a 1990s submission wrapped in a privacy-enhanced message, whose trailer follows </SEC-DOCUMENT>", () => {
    const whole = submission("8-K", [{ type: "8-K", filename: "k.txt", html: "Item 5. Other Events" }]);
    const wrapped = `-----BEGIN PRIVACY-ENHANCED MESSAGE-----\nProc-Type: 2001,MIC-CLEAR\n\n${whole}\n-----END PRIVACY-ENHANCED MESSAGE-----\n`;
    expect(readSubmission(wrapped).header.form).toBe("8-K");
    const cut = wrapped.slice(0, wrapped.indexOf("</SEC-DOCUMENT>"));
    expect(() => readSubmission(cut)).toThrow(/truncated/);
  });

  it("reads an old 8-K's cover without dei: facts: the name above 'Exact name of registrant', the file number at its label, never a phone number or EIN", () => {
    const cover = (rows: string) =>
      readSubmission(`<html><body><p>FORM 8-K</p><p>CURRENT REPORT</p>${rows}<p>Registrant's telephone number, including area code: (512) 485-9530</p></body></html>`);
    const table = cover(
      `<p>Example Therapeutics, Inc.</p><p>(Exact name of registrant as specified in its charter)</p><table><tr><td>Delaware</td><td>001-34426</td><td>91-1273737</td></tr><tr><td>(State of Incorporation)</td><td>(Commission File Number)</td><td>(IRS Employer Identification No.)</td></tr></table>`,
    );
    expect(coverIdentity(table)).toEqual({ company: "Example Therapeutics, Inc.", fileNumber: "001-34426" });
    const none = cover(`<p>Example Therapeutics, Inc.</p><table><tr><td>Delaware</td><td>91-1273737</td></tr><tr><td>(State)</td><td>(Commission File Number)</td></tr></table>`);
    expect(coverIdentity(none)).toEqual({ company: null, fileNumber: null });
  });

  it("reads a primary document served alone from its cover's dei: facts", () => {
    const filing = readSubmission(
      `<html><body><ix:header><ix:hidden><ix:nonNumeric name="dei:DocumentType" contextRef="c">10-Q</ix:nonNumeric><ix:nonNumeric name="dei:EntityCentralIndexKey" contextRef="c">0001677077</ix:nonNumeric></ix:hidden></ix:header><p><ix:nonNumeric name="dei:EntityRegistrantName" contextRef="c">Alzamend Neuro, Inc.</ix:nonNumeric></p></body></html>`,
    );
    expect(filing.header).toMatchObject({ form: "10-Q", cik: 1677077, company: "Alzamend Neuro, Inc." });
  });
});

describe("fee tables", () => {
  it("takes a row's largest dollar figure as its maximum aggregate offering price, whatever cells it is split across", () => {
    const table = readFeeExhibit(
      htmlBlocks(
        `<p>Calculation of Filing Fee Tables</p><table>` +
          `<tr><td>Security Type</td><td>Security Class Title</td><td>Amount Registered</td><td>Maximum Aggregate Offering Price</td><td>Fee</td></tr>` +
          `<tr><td>Fees to Be Paid</td><td>Equity</td><td>Common Stock</td><td>457</td><td>(o)</td><td>10,000,000</td><td>$</td><td>0.50</td><td>$</td><td>5,000,000</td><td>0.0001531</td><td>$</td><td>765.50</td></tr>` +
          `<tr><td>Total Offering Amounts</td><td>$</td><td>765,50</td></tr></table>`,
      ),
    );
    expect(table).toMatchObject({ kind: "exhibit_107", maxAggregateOffering: 5_000_000, registersEquity: true, onlyDebt: false });
  });

  it("reads a $1 carry-forward token or a $0.00 total deferred under Rule 457(r) as no size", () => {
    const placeholder = (total: string) =>
      readFeeExhibit(htmlBlocks(`<p>Calculation of Filing Fee Tables</p><table><tr><td>Security Type</td><td>Title</td><td>Rule</td></tr><tr><td>Fees to be Paid</td><td>Equity</td><td>Common Stock</td><td>457(r)</td></tr><tr><td>Total Offering Amounts:</td><td>${total}</td><td>$ 0.00</td></tr></table>`));
    expect(placeholder("$ 0.00").maxAggregateOffering).toBeNull();
    expect(placeholder("$1 (2)").maxAggregateOffering).toBeNull();
  });
});

describe("fee tables: what is still registered, and a sentence for a table", () => {
  it("takes the total when it adds up the new securities and those carried forward from an earlier statement (still registered)", () => {
    const table = readFeeExhibit(
      htmlBlocks(
        `<p>Calculation of Filing Fee Tables</p><table>` +
          `<tr><td>Security Type</td><td>Security Class Title</td><td>Fee Rule</td><td>Maximum Aggregate Offering Price</td><td>Fee</td></tr>` +
          `<tr><td>Fees to Be Paid</td><td>Unallocated (Universal) Shelf</td><td>457(o)</td><td>$</td><td>40,000,000</td><td>$</td><td>6,124</td></tr>` +
          `<tr><td>Carry Forward Securities</td><td>Unallocated (Universal) Shelf</td><td>415(a)(6)</td><td>$</td><td>260,000,000</td><td>$</td><td>23,860</td></tr>` +
          `<tr><td>Total Offering Amounts</td><td>$</td><td>300,000,000</td><td>$</td><td>6,124</td></tr></table>`,
      ),
    );
    expect(table.maxAggregateOffering).toBe(300_000_000);
    expect(table.maxAggregateQuote).toContain("Total Offering Amounts");
  });

  it("reads an Exhibit 107 that is a sentence: a final prospectus's maximum aggregate offering price", () => {
    const exhibit = readFeeExhibit(htmlBlocks(`<p>Exhibit 107</p><p>The prospectus to which this Exhibit is attached is a final prospectus for the related offering. The maximum aggregate offering price for such offering is $9,720,000.00.</p>`));
    expect(exhibit).toMatchObject({ kind: "exhibit_107", maxAggregateOffering: 9_720_000 });
    expect(readFeeExhibit(htmlBlocks(`<p>Exhibit 107</p><p>Filing fees were paid with the registration statement.</p>`)).kind).toBe("none");
  });
});

describe("fee tables in inline XBRL", () => {
  const NS = `xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2020-02-12" xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi" xmlns:ffd="http://xbrl.sec.gov/ffd/2024"`;
  const header = `<div style="display:none"><ix:header><ix:resources><xbrli:context id="c"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0009990003</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:startDate>2025-07-01</xbrli:startDate><xbrli:endDate>2025-07-01</xbrli:endDate></xbrli:period></xbrli:context><xbrli:context id="c1"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0009990003</xbrli:identifier><xbrli:segment><xbrldi:typedMember dimension="ffd:OfferingAxis"><ffd:OfferingAxis.domain>1</ffd:OfferingAxis.domain></xbrldi:typedMember></xbrli:segment></xbrli:entity><xbrli:period><xbrli:startDate>2025-07-01</xbrli:startDate><xbrli:endDate>2025-07-01</xbrli:endDate></xbrli:period></xbrli:context><xbrli:unit id="USD"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit></ix:resources></ix:header></div>`;

  it("takes the tagged total and security type where the exhibit's text lays out no table the reader knows", () => {
    // a layout without the "Calculation of Filing Fee Tables" heading: only the tags say what it registers
    const html = `<html ${NS}><body>${header}<p>Exhibit 107</p><table><tr><td>Type</td><td>Amount</td></tr>` +
      `<tr><td><ix:nonNumeric name="ffd:OfferingSctyTp" contextRef="c1">Equity</ix:nonNumeric></td><td>$<ix:nonFraction name="ffd:MaxAggtOfferingPric" contextRef="c1" unitRef="USD" decimals="2" format="ixt:num-dot-decimal">25,000,000.00</ix:nonFraction></td></tr>` +
      `<tr><td>Total</td><td>$<ix:nonFraction name="ffd:TtlOfferingAmt" contextRef="c" unitRef="USD" decimals="2" format="ixt:num-dot-decimal">25,000,000.00</ix:nonFraction></td></tr></table></body></html>`;
    const { blocks, xbrl } = readInlineXbrl(html);
    expect(readFeeExhibit(blocks).kind).toBe("none");
    expect(readFeeExhibit(blocks, xbrl)).toMatchObject({ kind: "exhibit_107", maxAggregateOffering: 25_000_000, maxAggregateQuote: "Total $25,000,000.00", securityTypes: ["Equity"], registersEquity: true, onlyDebt: false });
    expect(feeExhibitCents(html)).toBe(2_500_000_000n);
  });

  it("keeps the table's text where it states the total (a tag that says otherwise does not win)", () => {
    const html = `<html ${NS}><body>${header}<p>Calculation of Filing Fee Tables</p><table>` +
      `<tr><td>Security Type</td><td>Security Class Title</td><td>Fee Rule</td><td>Maximum Aggregate Offering Price</td><td>Fee</td></tr>` +
      `<tr><td>Fees to Be Paid</td><td>Equity</td><td>Common Stock</td><td>457(o)</td><td>$</td><td>40,000,000</td><td>$</td><td>6,124</td></tr>` +
      `<tr><td>Total Offering Amounts</td><td>$</td><td><ix:nonFraction name="ffd:TtlOfferingAmt" contextRef="c" unitRef="USD" decimals="0" scale="3" format="ixt:num-dot-decimal">40,000,000</ix:nonFraction></td><td>$</td><td>6,124</td></tr></table></body></html>`;
    const { blocks, xbrl } = readInlineXbrl(html);
    expect(readFeeExhibit(blocks, xbrl).maxAggregateOffering).toBe(40_000_000);
  });
});

describe("reading an offering of a kind the fixtures lack", () => {
  it("reads a final underwritten follow-on: type, terms, underwriter and over-allotment, each quoted", () => {
    const html = `
      <p>Filed Pursuant to Rule 424(b)(4)</p><p>4,000,000 Shares</p><p>Common Stock</p>
      <p>We are offering 4,000,000 shares of our common stock. Our common stock is listed on the Nasdaq Capital Market under the symbol “EXTX.”</p>
      <table><tr><td></td><td>Per Share</td><td>Total</td></tr>
      <tr><td>Public offering price</td><td>$</td><td>5.00</td><td>$</td><td>20,000,000</td></tr>
      <tr><td>Underwriting discounts and commissions(1)</td><td>$</td><td>0.35</td><td>$</td><td>1,400,000</td></tr>
      <tr><td>Proceeds, before expenses, to us</td><td>$</td><td>4.65</td><td>$</td><td>18,600,000</td></tr></table>
      <p>We have granted the underwriters an option for a period of 30 days to purchase up to 600,000 additional shares of common stock.</p>
      <p>Example Securities, LLC is acting as the sole book-running manager for this offering.</p>
      <p>TABLE OF CONTENTS</p><table><tr><td>The Offering</td><td>S-4</td></tr></table>
      <table><tr><td>Common stock offered by us</td><td>4,000,000 shares</td></tr>
      <tr><td>Common stock outstanding after this offering</td><td>14,000,000 shares</td></tr></table>
      <p>The number of shares outstanding after this offering is based on 10,000,000 shares of common stock outstanding as of September 30, 2025.</p>
      <p>Subject to the terms of the underwriting agreement, each of the underwriters has severally agreed to purchase from us the number of shares set forth opposite its name below.</p>
      <p>The underwriters will receive an underwriting discount equal to 7.0% of the gross proceeds of this offering.</p>`;
    const result = inspectText(submission("424B4", [{ type: "424B4", filename: "p.htm", html }]));
    expect(result).toMatchObject({
      offering_type: "underwritten_firm_commitment",
      common_shares_offered: 4_000_000,
      price_per_share: 5,
      gross_proceeds: 20_000_000,
      net_proceeds: 18_600_000,
      discount_or_fee_percent: 7,
      agent: "Example Securities, LLC",
      agent_role: "underwriter",
      overallotment_shares: 600_000,
      shares_outstanding_before: 10_000_000,
      shares_outstanding_after: 14_000_000,
      common_warrants_offered: null,
      fee_table_kind: "none",
    });
    for (const field of ["offering_type", "common_shares_offered", "price_per_share", "agent", "overallotment_shares"]) expect(result.evidence[field]).toBeTruthy();
  });

  it.each([
    ["Piper Sandler & Co. is acting as the sole book-running manager for this offering.", "Piper Sandler & Co."],
    ["Oppenheimer & Co. Inc. is acting as the representative of the underwriters.", "Oppenheimer & Co. Inc."],
    ["H.C. Wainwright & Co., LLC is acting as the sole book-running manager for this offering.", "H.C. Wainwright & Co., LLC"],
  ])("reads the firm's whole legal name: %s", (sentence, name) => {
    const html = `<p>We are offering 1,000,000 shares of our common stock.</p><p>${sentence}</p><p>Each of the underwriters has severally agreed to purchase from us the shares.</p>`;
    expect(inspectText(submission("424B5", [{ type: "424B5", filename: "p.htm", html }])).agent).toBe(name);
  });

  it("reads an at-the-market summary's share counts, never the public-float sentence, and an IPO by the absence of a market", () => {
    const atm = `
      <p>Pursuant to General Instruction I.B.6, the public float was $9,000,000, which was calculated based on 3,000,000 shares of our outstanding common stock held by non-affiliates.</p>
      <p>We have entered into an At The Market Sales Agreement with Example Securities, LLC relating to shares of our common stock having an aggregate offering price of up to $5,000,000 through Example Securities, LLC, as our sales agent.</p>
      <table><tr><td>Common stock outstanding prior to this offering</td><td>4,000,000 shares</td></tr></table>`;
    const atmResult = inspectText(submission("424B5", [{ type: "424B5", filename: "p.htm", html: atm }]));
    expect(atmResult).toMatchObject({ offering_type: "atm", atm_max_amount: 5_000_000, shares_outstanding_before: 4_000_000, common_shares_offered: null, agent_role: "sales_agent" });
    const noSummary = inspectText(submission("424B5", [{ type: "424B5", filename: "p.htm", html: atm.replace(/<table>.*<\/table>/, "") }]));
    expect(noSummary.shares_outstanding_before).toBeNull();

    const ipo = inspectText(submission("424B4", [{ type: "424B4", filename: "p.htm", html: "<p>2,000,000 Shares</p><p>Prior to this offering, there has been no public market for our common stock. We are offering 2,000,000 shares.</p>" }]));
    expect(ipo.offering_type).toBe("ipo");
  });

  it("reads the reverse splits a prospectus says its figures reflect, each ratio and date quoted", () => {
    const html = `<p>We have entered into an At The Market Sales Agreement with Example Securities, LLC relating to shares of our common stock having an aggregate offering price of up to $3,000,000 through Example Securities, LLC, as our sales agent.</p>
      <p>All share and per share amounts presented in this prospectus supplement have been retroactively adjusted to reflect the (i) 1-for-15 reverse split of the Company’s common stock effective October 31, 2023, (ii) 1-for-10 reverse split of the Company’s common stock effective July 16, 2024 and (iii) 1-for-9 reverse split of the Company’s common stock effective May 6, 2025.</p>
      <p>Our stockholders have authorized our board to effect a further reverse split at a ratio of up to 1-for-50, which we may effect at any time.</p>`;
    const result = inspectText(submission("424B5", [{ type: "424B5", filename: "p.htm", html }]));
    expect(result.reverse_splits).toEqual([
      { ratio: "1-for-15", effective_date: "2023-10-31" },
      { ratio: "1-for-10", effective_date: "2024-07-16" },
      { ratio: "1-for-9", effective_date: "2025-05-06" },
    ]);
    expect(result.evidence["reverse_splits[2].ratio"]).toContain("(iii) 1-for-9 reverse split of the Company’s common stock effective May 6, 2025.");
    expect(result.evidence["reverse_splits[0].effective_date"]).toContain("1-for-15 reverse split of the Company’s common stock effective October 31, 2023");
    const none = inspectText(submission("424B5", [{ type: "424B5", filename: "p.htm", html: html.replace(/<p>All share.*?<\/p>/s, "") }]));
    expect(none.reverse_splits).toEqual([]);
    expect(Object.keys(none.evidence).filter((k) => k.startsWith("reverse_splits"))).toEqual([]);
  });

  it("keeps a shelf registration statement 'other' when it carries an at-the-market prospectus too", () => {
    const html = `<p>$100,000,000</p><p>Common Stock, Preferred Stock, Warrants, Units</p>
      <p>We may offer and sell from time to time, in one or more offerings, up to $100,000,000 of the securities described in this prospectus.</p>
      <p>We have entered into an At The Market Sales Agreement with Example Securities, LLC for shares having an aggregate offering price of up to $20,000,000 through Example Securities, LLC, as our sales agent.</p>`;
    expect(inspectText(submission("S-3", [{ type: "S-3", filename: "s3.htm", html }])).offering_type).toBe("other");
  });

  it("reads a warrant's stated expiry date, and calls a note's pricing supplement not equity", () => {
    const warrants = `<p>We are offering 1,000,000 shares of common stock and warrants to purchase up to 1,000,000 shares of common stock through Example Securities, LLC, as placement agent. We are offering warrants to purchase 1,000,000 shares of our common stock.</p>
      <p>The warrants have an exercise price of $2.00 per share, are exercisable immediately and will expire on March 31, 2030.</p><p>The offering is being made on a reasonable best efforts basis.</p>`;
    expect(inspectText(submission("424B4", [{ type: "424B4", filename: "p.htm", html: warrants }]))).toMatchObject({ offering_type: "best_efforts", warrant_exercise_price: 2, warrant_expiry: "2030-03-31" });

    const note = `<p>Pricing Supplement No. 123</p><p>Market-Linked Securities Linked to the S&amp;P 500 Index due 2031</p>
      <p>The aggregate principal amount of the securities is $5,000,000. The securities will mature on June 30, 2031.</p>`;
    expect(inspectText(submission("424B2", [{ type: "424B2", filename: "p.htm", html: note }])).offering_type).toBe("not_equity");
  });

  it("reads the wordings small-cap covers use: a defined placement agent, a combined price, net proceeds, a heading above the firm", () => {
    const html = `<p>1,000,000 Shares of Common Stock</p><p>Common Warrants to Purchase up to 1,000,000 Shares of Common Stock</p>
      <p>We are offering 1,000,000 shares of our common stock together with common warrants on a reasonable best efforts basis.</p>
      <p>Example Wainwright &amp; Co., LLC, which we refer to as Wainwright or the placement agent, has agreed to act as our exclusive placement agent.</p>
      <table><tr><td></td><td>Per Share and Common Warrant</td><td>Total</td></tr>
      <tr><td>Combined public offering price</td><td>$</td><td>1.50</td><td>$</td><td>1,500,000</td></tr>
      <tr><td>Net proceeds to us, before expenses</td><td>$</td><td>1.395</td><td>$</td><td>1,395,000</td></tr></table>
      <p>Each common warrant will have an exercise price equal to $1.50 per share.</p>
      <p>Placement Agent</p><p>Example Wainwright &amp; Co., LLC</p>`;
    expect(inspectText(submission("424B4", [{ type: "424B4", filename: "p.htm", html }]))).toMatchObject({
      offering_type: "best_efforts",
      agent: "Example Wainwright & Co., LLC",
      agent_role: "placement_agent",
      price_per_share: 1.5,
      gross_proceeds: 1_500_000,
      net_proceeds: 1_395_000,
      common_warrants_offered: 1_000_000,
      warrant_exercise_price: 1.5,
    });
    const headingOnly = `<p>We are offering 500,000 shares of our common stock. Each of the underwriters has severally agreed to purchase the shares.</p><p>Sole Book-Running Manager</p><p>Example Capital Corp.</p>`;
    expect(inspectText(submission("424B4", [{ type: "424B4", filename: "p.htm", html: headingOnly }]))).toMatchObject({ agent: "Example Capital Corp.", agent_role: "underwriter" });
  });

  it("reads a registered direct whose offering sentence names its buyers after the securities, an agent defined in parentheses, and no date as a count", () => {
    const html = `<p>PROSPECTUS SUPPLEMENT</p><p>Example Therapeutics, Inc.</p><p>412,350 Shares of Common Stock</p>
      <p>Pursuant to this prospectus supplement, we are offering 412,350 shares of our common stock, $0.0001 par value per share, and pre-funded warrants to purchase up to 61,200 shares of common stock to certain institutional investors at an offering price of $2.17 per share.</p>
      <p>We have engaged Example Wainwright &amp; Co., LLC (the “placement agent”), as our exclusive placement agent in connection with this offering.</p>
      <table><tr><td>Other Currently Outstanding Warrants</td><td>On December 31, 2024, we issued warrants to purchase 5,118,402 shares.</td></tr></table>
      <p>The number of shares to be outstanding after the offering is based on 2,306,118 shares of common stock outstanding as of March 21, 2025.</p>
      <p>We have entered into securities purchase agreements directly with certain institutional investors.</p>`;
    expect(inspectText(submission("424B5", [{ type: "424B5", filename: "p.htm", html }]))).toMatchObject({
      offering_type: "registered_direct",
      common_shares_offered: 412_350,
      agent: "Example Wainwright & Co., LLC",
      agent_role: "placement_agent",
      shares_outstanding_before: 2_306_118,
    });
  });

  it("reads a placement agent named without a legal suffix only where the text says it is one, and the full legal name written elsewhere", () => {
    const engaged = `<p>We are offering 733,420 shares of our common stock to investors pursuant to this prospectus supplement and a securities purchase agreement with each investor.</p>
      <p>We have engaged Example Advisors (through its broker-dealer, Example Securities LLC) as our exclusive placement agent to use its reasonable best efforts.</p>
      <p>Sole Placement Agent</p><p>Example Advisors</p>`;
    expect(inspectText(submission("424B4", [{ type: "424B4", filename: "p.htm", html: engaged }]))).toMatchObject({ agent: "Example Advisors", agent_role: "placement_agent" });
    const underwritten = `<p>We are offering 1,000,000 shares. Each of the underwriters has severally agreed to purchase the shares.</p><p>Sole Book-Running Manager</p><p>Example Capital Partners</p>
      <p>We have agreed to issue to Example Capital Partners, LLC a unit purchase option.</p>`;
    expect(inspectText(submission("424B4", [{ type: "424B4", filename: "p.htm", html: underwritten }])).agent).toBe("Example Capital Partners, LLC");
    // a role heading above another heading or a table's label is no firm
    const headings = `<p>We are offering 6,875,000 shares. Each of the underwriters has severally agreed to purchase the shares.</p><p>Lead Book-Running Manager</p><p>Book-Running Manager</p><p>Underwriter</p><p>Number</p>`;
    expect(inspectText(submission("424B5", [{ type: "424B5", filename: "p.htm", html: headings }])).agent).toBeNull();
  });

  it("calls a registration statement of debt securities not equity from its prospectus's title after the facing page, and takes its size from there when it has no fee table", () => {
    const facing = Array.from({ length: 30 }, (_, i) => `<p>Facing page line ${i + 1}: if any of the securities being registered on this Form are to be offered on a delayed or continuous basis, check the box.</p>`).join("");
    const debt = `${facing}<p>SHORT FORM BASE SHELF PROSPECTUS</p><p>US$2,500,000,000</p><table><tr><td>Debt Securities</td><td>Debt Securities</td></tr></table>
      <p>We may from time to time offer and issue one or more series of unsecured debt securities.</p>`;
    expect(inspectText(submission("F-3/A", [{ type: "F-3/A", filename: "f3a.htm", html: debt }]))).toMatchObject({ offering_type: "not_equity", max_aggregate_offering: 2_500_000_000 });
    const universal = `${facing}<p>PROSPECTUS</p><p>$100,000,000</p><p>Common Stock</p><p>Preferred Stock</p><p>Debt Securities</p><p>Warrants</p>
      <p>We may offer and sell from time to time, in one or more offerings, up to $100,000,000 of the securities described in this prospectus.</p>`;
    expect(inspectText(submission("S-3", [{ type: "S-3", filename: "s3.htm", html: universal }])).offering_type).toBe("other");
  });

  it("reads a resale prospectus's title after the facing page, a fixed unit price, a discount written before its name, and a term to an anniversary", () => {
    const facing = Array.from({ length: 25 }, (_, i) => `<p>Facing page line ${i + 1}.</p>`).join("");
    const resale = `${facing}<p>PROSPECTUS</p><p>36,204,100 Shares of Common Stock</p><p>This prospectus relates to the offer and resale from time to time of up to 36,204,100 shares of common stock by the selling stockholders.</p>`;
    expect(inspectText(submission("S-3", [{ type: "S-3", filename: "s3.htm", html: resale }]))).toMatchObject({ offering_type: "other", common_shares_offered: 36_204_100 });
    const ipo = `<p>This is an initial public offering of units. Each Unit consists of one share of common stock and one warrant to purchase one share of our common stock at an exercise price equal to $____, exercisable until the fourth anniversary of the issuance date.</p>
      <table><tr><td>Units offered</td><td>We are offering 3,200,000 Units at a fixed price of $6.25 per Unit.</td></tr></table>
      <p>The underwriters will purchase the Units at the initial public offering price less a 8% underwriting discount.</p>`;
    expect(inspectText(submission("S-1/A", [{ type: "S-1/A", filename: "s1.htm", html: ipo }]))).toMatchObject({
      offering_type: "ipo",
      price_per_share: 6.25,
      discount_or_fee_percent: 8,
      warrant_term: "until the fourth anniversary of the issuance date",
      warrant_exercise_price: null,
    });
  });

  it("reads a pricing supplement's selling agents from a summary row, the first named leading, by the legal name it defines", () => {
    const html = `<p>Pricing Supplement</p><p>ExampleBank Finance LLC $---- Callable Income Notes</p>
      <p>(1) The underwriting discount is $0.15 per Note. ExampleBank Securities, Inc. (“EBS”), acting as principal, expects to purchase the Notes.</p>
      <table><tr><td>Selling Agents</td><td>EBS and Another Bank.</td></tr></table>`;
    expect(inspectText(submission("424B2", [{ type: "424B2", filename: "p.htm", html }]))).toMatchObject({ offering_type: "not_equity", agent: "ExampleBank Securities, Inc.", agent_role: "selling_agent" });
    const prose = `<p>Pricing Supplement</p><p>ExampleBank Finance LLC Accelerated Return Notes</p><p>Calculation Agent : ExampleBank Securities, Inc. (“EBS”), an affiliate of ExampleBank Finance.</p>
      <p>EBS and EBD, each a broker-dealer subsidiary, will participate as selling agent in the case of EBS and as dealer in the case of EBD in the distribution of the notes.</p>`;
    expect(inspectText(submission("424B2", [{ type: "424B2", filename: "p.htm", html: prose }]))).toMatchObject({ agent: "ExampleBank Securities, Inc.", agent_role: "selling_agent" });
  });

  it("takes one count for warrants and pre-funded warrants sold together privately as of neither kind", () => {
    const html = `<p>We are offering 733,420 shares of our common stock to investors pursuant to this prospectus supplement and a securities purchase agreement with each investor.</p>
      <p>In a concurrent private placement, we are also selling to the investors Series A warrants, and pre-funded warrants to purchase shares of common stock, and together with the Series A Warrants, the Unregistered Warrants, to purchase up to an aggregate of 5,118,402 shares of our common stock.</p>
      <p>We have engaged Example Securities, LLC as our exclusive placement agent.</p>`;
    expect(inspectText(submission("424B5", [{ type: "424B5", filename: "p.htm", html }])).private_placement_warrants).toEqual([{ pre_funded: null, shares: 5_118_402, exercise_price: null }]);
  });

  it("gives every privately sold warrant the one price a sentence states of each of them, and none when series have their own", () => {
    const paragraph = (price: string) => `<p>We are offering 412,350 shares of our common stock to certain institutional investors pursuant to a securities purchase agreement. We have engaged Example Securities, LLC as our exclusive placement agent.</p>
      <p>In a concurrent private placement, we are also selling to such investors Series C-1 warrants to purchase up to 204,500 shares of our common stock (the “Series C-1 Warrants”), and Series C-2 warrants to purchase up to 204,500 shares of our common stock (the “Series C-2 Warrants”, and with the Series C-1 Warrants, the “Warrants”). ${price}</p>`;
    const every = inspectText(submission("424B5", [{ type: "424B5", filename: "p.htm", html: paragraph("Each Warrant will be exercisable for one share of our common stock at an exercise price of $2.86 per share and will be exercisable immediately.") }]));
    expect(every.private_placement_warrants.map((w) => w.exercise_price)).toEqual([2.86, 2.86]);
    const one = inspectText(submission("424B5", [{ type: "424B5", filename: "p.htm", html: paragraph("The Series C-2 Warrants will have an exercise price of $2.86 per share.") }]));
    expect(one.private_placement_warrants.map((w) => w.exercise_price)).toEqual([null, null]);
  });

  it("reads an IPO's 'Initial public offering price' row, the first of several joint book-runners, and underwriters that agreed 'severally and not jointly'", () => {
    const ipo = `<p>6,820,000 Shares</p><p>This is an initial public offering of shares of common stock by Example Therapeutics Corporation.</p>
      <table><tr><td></td><td>Per Share</td><td>Total</td></tr><tr><td>Initial public offering price</td><td>$</td><td>11.00</td><td>$</td><td>75,020,000</td></tr></table>
      <p>J.P. Example Securities LLC, Leerink Example LLC, Piper Example &amp; Co. and William Example &amp; Company, L.L.C. are acting as joint book-running managers of the offering.</p>`;
    expect(inspectText(submission("424B4", [{ type: "424B4", filename: "p.htm", html: ipo }]))).toMatchObject({ offering_type: "ipo", price_per_share: 11, gross_proceeds: 75_020_000, agent: "J.P. Example Securities LLC", agent_role: "underwriter" });
    const followOn = `<p>Shares</p><p>Common Stock</p><p>We are offering for sale shares of our common stock.</p>
      <p>Subject to certain conditions, each underwriter has agreed, severally and not jointly, to purchase the number of shares of our common stock set forth next to its name.</p>`;
    expect(inspectText(submission("424B5", [{ type: "424B5", filename: "p.htm", html: followOn }])).offering_type).toBe("underwritten_firm_commitment");
    const bonds = `<p>$ % First Mortgage Bonds due 2034</p><p>We will sell the mortgage bonds to the underwriters listed below, for whom Example Capital Inc., Other Markets Corp. and Third Securities, Inc. are acting as representatives.</p>`;
    expect(inspectText(submission("424B5", [{ type: "424B5", filename: "p.htm", html: bonds }]))).toMatchObject({ offering_type: "not_equity", agent: "Example Capital Inc." });
  });

  it("reads a prospectus or registration statement served as its primary .htm: the form and file number from its first lines, the company from the facing page", () => {
    const supplement = `<html><body><p>Filed Pursuant to Rule 424(b)(5)</p><p>Registration No. 333-271045</p><p>PROSPECTUS SUPPLEMENT</p>
      <p>We are offering 412,350 shares of our common stock to certain institutional investors pursuant to a securities purchase agreement. We have engaged Example Securities, LLC as our exclusive placement agent.</p></body></html>`;
    expect(inspectText(supplement)).toMatchObject({ form: "424B5", file_number: "333-271045", offering_type: "registered_direct", common_shares_offered: 412_350 });
    const amendment = `<html><body><p>As filed with the Securities and Exchange Commission on June 30, 2021.</p><p>Registration Statement No. 333-260112</p>
      <p>UNITED STATES</p><p>SECURITIES AND EXCHANGE COMMISSION</p><p>Amendment No. 3 to:</p><p>FORM S-1</p><p>REGISTRATION STATEMENT</p><p>UNDER</p><p>THE SECURITIES ACT OF 1933</p>
      <p>EXAMPLE THERAPEUTICS, INC.</p><p>(Exact name of registrant as specified in its charter)</p></body></html>`;
    const read = inspectAny(readSubmission(amendment), { path: "/x/Archives/edgar/data/1900001/000190000123000001/s1a.htm" });
    expect(read).toMatchObject({ form: "S-1/A", file_number: "333-260112", company: "EXAMPLE THERAPEUTICS, INC.", accession: "0001900001-23-000001", cik: 1900001, primary_document: "s1a.htm" });
    // a 10-Q's note that mentions a prospectus supplement "filed pursuant to Rule 424(b)(5)" is still a 10-Q
    const quarterly = `<html><body><p>FORM 10-Q</p><p>For the quarterly period ended June 30, 2024</p><p>NOTES TO CONDENSED CONSOLIDATED FINANCIAL STATEMENTS</p>
      <p>Sales made under the ATM Offering Agreement are made pursuant to the prospectus supplement filed pursuant to Rule 424(b)(5), which registered for sale up to a total of $50.0 million of the Company’s common stock.</p></body></html>`;
    expect(readSubmission(quarterly).header.form).toBeNull();
  });

  it("reads a resale prospectus told as what the selling holders may sell, a supplement that offers without naming its kind, and an ATM supplement's own amount under a larger program", () => {
    const resale = `<p>As filed Pursuant to Rule 424(b)(3)</p><p>PROSPECTUS</p><p>EXAMPLE THERAPEUTICS, INC.</p><p>21,967,353 Shares</p><p>Common Stock</p><p>Offered by the Selling Securityholders</p>
      <p>The selling securityholders may offer and sell up to 21,967,353 shares in the aggregate of common stock identified above, from time to time in one or more offerings. We will not receive any proceeds from the sale of our common stock by the selling securityholders.</p>`;
    expect(inspectText(submission("424B3", [{ type: "424B3", filename: "p.htm", html: resale }]))).toMatchObject({ offering_type: "other", common_shares_offered: 21_967_353, agent: null });
    const plural = `<p>This prospectus supplement and the prospectus relate to the resale of 1,958,892 shares of common stock which are issuable upon the exercise of Warrants held by the selling stockholders identified below.</p>`;
    expect(inspectText(submission("424B3", [{ type: "424B3", filename: "p.htm", html: plural }]))).toMatchObject({ offering_type: "other", common_shares_offered: 1_958_892 });
    const untyped = `<p>Filed pursuant to Rule 424(b)(5)</p><p>PROSPECTUS SUPPLEMENT</p><p>1,040,000 Shares of Common Stock</p><p>Pre-Funded Warrants to Purchase</p><p>509,000 shares of Common Stock</p>
      <p>We are offering 1,040,000 shares of our common stock, par value $0.001 per share, and Pre-Funded Warrants to purchase 509,000 shares of our common stock (the “Pre-Funded Warrants”) pursuant to this prospectus supplement and accompanying prospectus. The Pre-Funded Warrants will be exercisable at an exercise price of $0.001 per share of common stock.</p>`;
    expect(inspectText(submission("424B5", [{ type: "424B5", filename: "p.htm", html: untyped }]))).toMatchObject({ offering_type: null, common_shares_offered: 1_040_000, prefunded_warrants_offered: 509_000, prefunded_exercise_price: 0.001 });
    const atm = `<p>We previously entered into a sales agreement with Example Securities, LLC, as sales agent, under which we may issue and sell shares of our common stock having an aggregate gross sales price of up to $50,000,000. We will be required to file another prospectus supplement in the event we want to offer more shares of our common stock under the Sales Agreement than the $4,100,000 in shares of common stock offered by this prospectus supplement. Sales will be made in an at the market offering as defined in Rule 415.</p>`;
    expect(inspectText(submission("424B5", [{ type: "424B5", filename: "p.htm", html: atm }]))).toMatchObject({ offering_type: "atm", atm_max_amount: 4_100_000 });
  });

  it("states nothing about an 8-K: its fields are null and its items are the header's", () => {
    const result = inspectText(submission("8-K", [{ type: "8-K", filename: "k.htm", html: "<p>Item 7.01 Regulation FD Disclosure.</p>" }], "ITEM INFORMATION:\t\tRegulation FD Disclosure"));
    expect(result.offering_type).toBeNull();
    expect(result.fee_table_kind).toBeNull();
    expect(result.header_items).toEqual(["Regulation FD Disclosure"]);
    expect(result.evidence).toEqual({});
  });
});

describe("the facing page's Rule 415 box", () => {
  const facingPage = (box: string) =>
    submission("S-1", [
      {
        type: "S-1",
        filename: "s1.htm",
        html:
          `<p>FORM S-1 REGISTRATION STATEMENT UNDER THE SECURITIES ACT OF 1933</p>` +
          `<table><tr><td>If any of the securities being registered on this Form are to be offered on a delayed or continuous basis pursuant to Rule 415 under the Securities Act of 1933 check the following box:</td>` +
          `<td><font face="Wingdings">${box}</font></td></tr></table>` +
          `<p>We are offering 2,000,000 shares of common stock in a firm commitment underwritten offering.</p>`,
      },
    ]);

  it("reads a checked box (a shelf) and an empty one (one offering), the mark in the next cell, Wingdings included", () => {
    const checked = inspectText(facingPage("þ"));
    expect(checked.rule_415).toBe(true);
    expect(checked.evidence.rule_415).toMatch(/Rule 415 under the Securities Act of 1933 check the following box: þ$/);
    expect(inspectText(facingPage("☐")).rule_415).toBe(false);
    expect(inspectText(facingPage("¨")).rule_415).toBe(false);
  });

  it("says nothing when the mark is not a box", () => {
    const unread = inspectText(facingPage("See Note 1"));
    expect(unread.rule_415).toBeNull();
    expect(unread.evidence.rule_415).toBeUndefined();
  });
});

describe("warrants of a concurrent private placement", () => {
  const prospectus = (paragraph: string) =>
    submission("424B5", [
      {
        type: "424B5",
        filename: "p.htm",
        html:
          `<p>PROSPECTUS SUPPLEMENT</p><p>We are offering 1,000,000 shares of our common stock directly to an institutional investor pursuant to a securities purchase agreement. ` +
          `We have engaged Example Securities LLC as our exclusive placement agent.</p><p>${paragraph}</p>`,
      },
    ]);

  it("reads each warrant the placement sells with its price, pre-funded ones told apart, and none of them as offered", () => {
    const read = inspectText(
      prospectus(
        "In the concurrent private placement, we are also selling to the investor warrants to purchase up to 1,000,000 shares of common stock and pre-funded warrants to purchase up to 250,000 shares. " +
          "The pre-funded warrants have an exercise price of $0.001 per pre-funded warrant share. The warrants have an exercise price of $1.25 per share and expire five years from issuance.",
      ),
    );
    expect(read.private_placement_warrants).toEqual([
      { pre_funded: false, shares: 1_000_000, exercise_price: 1.25 },
      { pre_funded: true, shares: 250_000, exercise_price: 0.001 },
    ]);
    expect(read.evidence["private_placement_warrants[1].exercise_price"]).toContain("$0.001 per pre-funded warrant share");
    expect(read.common_warrants_offered).toBeNull();
    expect(read.prefunded_warrants_offered).toBeNull();
  });

  it("does not read a private placement the company did before", () => {
    const read = inspectText(prospectus("In a concurrent private placement in March 2023, we issued warrants to purchase up to 400,000 shares at an exercise price of $5.00 per share."));
    expect(read.private_placement_warrants).toEqual([]);
  });
});
