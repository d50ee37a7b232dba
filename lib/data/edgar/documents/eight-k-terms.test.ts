import { describe, expect, it } from "vitest";
import { eightKItems, readEightKTerms } from "./eight-k-terms";
import { inspectAny, type EightKInspection } from "./inspect";
import { htmlToText } from "./plain-text";
import { readSubmission } from "./submission";

/**
 * Constructed 8-K texts: every company, firm, number and sentence below is
 * made up, in the wordings small-cap 8-Ks use for these agreements (one
 * paragraph per line, as blocksText gives a primary document's text).
 */
const cover = "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 8-K\nCURRENT REPORT\nExample Therapeutics, Inc.\n(Exact name of registrant as specified in its charter)";
const k = (...paragraphs: string[]) => [cover, ...paragraphs].join("\n");

/** Every non-null field of the terms has a quote, each within 250 bytes. */
function expectEvidenceComplete(reading: ReturnType<typeof readEightKTerms>) {
  const { terms, evidence } = reading;
  for (const [field, value] of Object.entries(terms)) {
    if (value === null) continue;
    if (Array.isArray(value)) {
      value.forEach((entry, i) => {
        if (typeof entry === "string") expect(evidence[`${field}[${i}]`], `${field}[${i}]`).toBeTruthy();
        else for (const [key, v] of Object.entries(entry as object)) if (v !== null && typeof v !== "boolean") expect(evidence[`${field}[${i}].${key}`], `${field}[${i}].${key}`).toBeTruthy();
      });
    } else if (typeof value === "object") {
      for (const [key, v] of Object.entries(value)) if (v !== null) expect(evidence[`${field}.${key}`], `${field}.${key}`).toBeTruthy();
    } else expect(evidence[field], field).toBeTruthy();
  }
  for (const quote of Object.values(evidence)) expect(Buffer.byteLength(quote, "utf8")).toBeLessThanOrEqual(250);
}

const REGISTERED_DIRECT = k(
  "Item 1.01 Entry into a Material Definitive Agreement.",
  "On March 3, 2025, Example Therapeutics, Inc. (the “Company”) entered into a securities purchase agreement (the “Purchase Agreement”) with certain institutional investors (the “Purchasers”), pursuant to which the Company agreed to issue and sell, in a registered direct offering, an aggregate of 1,200,000 shares (the “Shares”) of the Company’s common stock, par value $0.0001 per share (the “Common Stock”), and pre-funded warrants to purchase up to 800,000 shares of Common Stock (the “Pre-Funded Warrants”). The offering price per Share is $2.50 and the offering price per Pre-Funded Warrant is $2.4999.",
  "The Pre-Funded Warrants have an exercise price of $0.0001 per share, are immediately exercisable and may be exercised at any time until exercised in full.",
  "In a concurrent private placement, the Company also agreed to issue to the Purchasers unregistered warrants to purchase up to 2,000,000 shares of Common Stock (the “Common Warrants”). The Common Warrants will have an exercise price of $2.75 per share, will be exercisable immediately upon issuance and will expire five years from the date of issuance. The exercise price of the Common Warrants is subject to adjustment in the event of stock splits, stock dividends, recapitalizations and similar events.",
  "The gross proceeds to the Company from the offering are expected to be approximately $5.0 million, before deducting placement agent fees and other offering expenses. The Company intends to use the net proceeds for working capital.",
  "The Shares and the Pre-Funded Warrants are being offered pursuant to the Company’s shelf registration statement on Form S-3 (File No. 333-999999), which was declared effective by the Securities and Exchange Commission on May 1, 2024, and a prospectus supplement thereto.",
  "Pursuant to a placement agency agreement dated March 3, 2025, the Company engaged Example Securities & Co., LLC to act as its exclusive placement agent in connection with the offering. The Company agreed to pay the placement agent a cash fee of 7.0% of the gross proceeds and to issue to the placement agent or its designees warrants to purchase up to 5.0% of the aggregate number of Shares and Pre-Funded Warrants sold in the offering (the “Placement Agent Warrants”).",
  "Item 3.02 Unregistered Sales of Equity Securities.",
  "The information contained above in Item 1.01 is incorporated by reference into this Item 3.02. The Common Warrants were offered in reliance on the exemption from registration provided by Section 4(a)(2) of the Securities Act of 1933, as amended.",
  "Item 9.01 Financial Statements and Exhibits.",
  "4.1 Form of Common Warrant. 10.1 Form of Securities Purchase Agreement.",
);

describe("readEightKTerms: registered direct with pre-funded and private common warrants", () => {
  const reading = readEightKTerms(REGISTERED_DIRECT);
  const { terms, evidence } = reading;

  it("reads the agreement, the shares, the price and the proceeds", () => {
    expect(terms).toMatchObject({
      agreement_date: "2025-03-03",
      agreement_kind: "securities_purchase",
      common_shares: 1_200_000,
      price_per_share: 2.5,
      gross_proceeds: 5_000_000,
      placement_agent: "Example Securities & Co., LLC",
      agent_role: "placement_agent",
      anti_dilution: "customary",
      registered: true,
      inducement: null,
      purchasers: null,
      convertible_notes: [],
      equity_line: null,
    });
    expect(evidence.common_shares).toContain("1,200,000 shares");
    expect(evidence.gross_proceeds).toContain("$5.0 million");
    expect(evidence.registered).toContain("shelf registration statement");
  });

  it("reads each warrant with its own price, term and exercisability", () => {
    expect(terms.warrants).toEqual([
      { shares: 800_000, exercise_price: 0.0001, term_years: null, expiry: null, exercisable: "immediately", pre_funded: true, series: null, inducement: false, existing: false },
      { shares: 2_000_000, exercise_price: 2.75, term_years: 5, expiry: null, exercisable: "immediately", pre_funded: false, series: null, inducement: false, existing: false },
    ]);
    expect(evidence["warrants[1].exercise_price"]).toContain("$2.75");
    expect(evidence["warrants[1].term_years"]).toContain("five years");
  });

  it("records no agent warrants for a percentage, and quotes every value", () => {
    expect(terms.agent_warrants).toEqual([]);
    expectEvidenceComplete(reading);
  });

  it("reads the same from htmlToText's one line", () => {
    const html = REGISTERED_DIRECT.split("\n").map((p) => `<p>${p}</p>`).join("");
    const oneLine = readEightKTerms(htmlToText(html));
    expect(oneLine.terms).toEqual(terms);
  });
});

describe("readEightKTerms: PIPE with pre-funded warrants, series warrants and a named purchaser", () => {
  const text = k(
    "Item 1.01. Entry into a Material Definitive Agreement",
    "Securities Purchase Agreement",
    "On July 14, 2025, the Company entered into a Securities Purchase Agreement with Example Capital Master Fund Ltd. (the “Purchaser”), pursuant to which the Company agreed to sell to the Purchaser in a private placement (the “Private Placement”) (i) 500,000 shares of common stock, (ii) pre-funded warrants to purchase up to 1,500,000 shares of common stock (the “Pre-Funded Warrants”), (iii) Series A warrants to purchase up to 2,000,000 shares of common stock (the “Series A Warrants”) and (iv) Series B warrants to purchase up to 2,000,000 shares of common stock (the “Series B Warrants”), at a combined purchase price of $1.00 per share and accompanying Series A Warrant and Series B Warrant.",
    "The aggregate gross proceeds from the Private Placement are expected to be $2,000,000. Each Pre-Funded Warrant has an exercise price of $0.001 per share, and each Series A Warrant and Series B Warrant has an exercise price of $1.10 per share. The Series A Warrants will be exercisable beginning on the date of Stockholder Approval and will expire on the five-year anniversary of such date. The Series B Warrants will expire on January 15, 2027.",
    "If the Company issues shares of common stock at a price per share less than the exercise price then in effect, the exercise price of the Series A Warrants will be reduced to the price of such subsequent issuance, a full ratchet adjustment.",
    "The Company also agreed to issue to Example Partners LLC, as placement agent, warrants to purchase up to 100,000 shares of common stock at an exercise price of $1.25 per share.",
    "The Company agreed to file a registration statement providing for the resale of the shares of common stock issuable upon exercise of the warrants within 30 days.",
    "Item 3.02 Unregistered Sales of Equity Securities",
    "The securities described in Item 1.01 were offered and sold in reliance on Section 4(a)(2) of the Securities Act and Rule 506(b) of Regulation D.",
  );
  const reading = readEightKTerms(text);
  const { terms } = reading;

  it("reads each class of warrant, series and the named purchaser", () => {
    expect(terms).toMatchObject({ agreement_date: "2025-07-14", agreement_kind: "securities_purchase", common_shares: 500_000, price_per_share: 1, gross_proceeds: 2_000_000, registered: false, anti_dilution: "full_ratchet" });
    expect(terms.purchasers).toEqual(["Example Capital Master Fund Ltd."]);
    expect(terms.warrants.map((w) => [w.shares, w.pre_funded, w.series, w.exercise_price])).toEqual([
      [1_500_000, true, null, 0.001],
      [2_000_000, false, "A", 1.1],
      [2_000_000, false, "B", 1.1],
    ]);
    expect(terms.warrants[1]).toMatchObject({ term_years: 5, exercisable: "the date of Stockholder Approval" });
    expect(terms.warrants[2]).toMatchObject({ expiry: "2027-01-15" });
  });

  it("keeps the placement agent's counted warrants apart", () => {
    expect(terms.agent_warrants).toEqual([
      { shares: 100_000, exercise_price: 1.25, term_years: null, expiry: null, exercisable: null, pre_funded: false, series: null, inducement: false, existing: false },
    ]);
    expectEvidenceComplete(reading);
  });
});

describe("readEightKTerms: convertible notes", () => {
  it("reads a fixed conversion price, interest and maturity", () => {
    const reading = readEightKTerms(
      k(
        "Item 1.01 Entry into a Material Definitive Agreement.",
        "On September 2, 2025, the Company entered into a note purchase agreement with an accredited investor (the “Investor”), pursuant to which the Company issued a senior secured convertible promissory note in the aggregate principal amount of $3,300,000 (the “Note”) for a purchase price of $3,000,000.",
        "The Note bears interest at a rate of 8% per annum and matures on September 2, 2026. The Note is convertible into shares of common stock at a conversion price of $0.85 per share, subject to customary adjustments for stock splits and stock dividends. Upon an event of default, interest accrues at 18% per annum.",
        "Item 2.03 Creation of a Direct Financial Obligation.",
        "The information in Item 1.01 is incorporated herein.",
      ),
    );
    expect(reading.terms).toMatchObject({ agreement_kind: "convertible_note", agreement_date: "2025-09-02", common_shares: null, purchasers: null, anti_dilution: "customary" });
    expect(reading.terms.convertible_notes).toEqual([
      { principal: 3_300_000, conversion_price: 0.85, conversion_percent_of_market: null, conversion_discount_percent: null, maturity: "2026-09-02", interest_rate: 8 },
    ]);
    expectEvidenceComplete(reading);
  });

  it("leaves a price stated as a share of the VWAP null and records the percentage", () => {
    const reading = readEightKTerms(
      k(
        "Item 1.01 Entry into a Material Definitive Agreement",
        "On May 5, 2025, the Company entered into a securities purchase agreement with Example Lending LLC (the “Holder”) and issued to the Holder a convertible promissory note in the principal amount of $550,000.",
        "The note is convertible at a price equal to 80% of the lowest VWAP of the common stock during the ten trading days prior to conversion, and matures twelve months from the issuance date.",
      ),
    );
    expect(reading.terms.convertible_notes).toEqual([
      { principal: 550_000, conversion_price: null, conversion_percent_of_market: 80, conversion_discount_percent: null, maturity: "twelve months from the issuance date", interest_rate: null },
    ]);
    expect(reading.terms.purchasers).toEqual(["Example Lending LLC"]);
    expect(reading.terms.agreement_kind).toBe("convertible_note");
    expectEvidenceComplete(reading);
  });
});

describe("readEightKTerms: equity lines", () => {
  it("reads a standby equity purchase agreement", () => {
    const reading = readEightKTerms(
      k(
        "Item 1.01 Entry into a Material Definitive Agreement.",
        "On April 10, 2025, the Company entered into a Standby Equity Purchase Agreement (the “SEPA”) with YA II PN, Ltd. (“Yorkville”), pursuant to which the Company has the right, but not the obligation, to sell to Yorkville up to $20,000,000 of shares of its common stock at any time during the 36 months following the date of the SEPA.",
        "Each advance will be purchased at a price equal to 97% of the lowest daily VWAP of the common stock during the three consecutive trading days following the advance notice. As consideration for Yorkville’s commitment, the Company issued to Yorkville 150,000 shares of common stock as a commitment fee.",
        "Item 3.02 Unregistered Sales of Equity Securities.",
        "The shares issuable under the SEPA will be issued in reliance on the exemption provided by Section 4(a)(2) of the Securities Act.",
      ),
    );
    expect(reading.terms).toMatchObject({
      agreement_kind: "equity_line",
      agreement_date: "2025-04-10",
      common_shares: null,
      gross_proceeds: null,
      registered: false,
      equity_line: { counterparty: "YA II PN, Ltd.", commitment: 20_000_000, commitment_shares_fee_or_null: 150_000, discount_percent: null, price_percent_of_market: 97 },
    });
    expectEvidenceComplete(reading);
  });

  it("reads a purchase agreement with the right, but not the obligation, to sell", () => {
    const reading = readEightKTerms(
      k(
        "Item 1.01 Entry into a Material Definitive Agreement",
        "On June 20, 2025, the Company entered into a purchase agreement (the “Purchase Agreement”) with Example Park Capital Fund, LLC (“Example Park”), which provides that, upon the terms and subject to the conditions set forth therein, the Company may sell to Example Park up to $15.0 million of shares of common stock, from time to time over the 24-month term of the Purchase Agreement.",
        "The Company has the right, but not the obligation, to direct Example Park to purchase shares on any business day. In consideration for entering into the Purchase Agreement, the Company issued 200,000 shares of common stock to Example Park as commitment shares.",
      ),
    );
    expect(reading.terms.agreement_kind).toBe("equity_line");
    expect(reading.terms.equity_line).toEqual({ counterparty: "Example Park Capital Fund, LLC", commitment: 15_000_000, commitment_shares_fee_or_null: 200_000, discount_percent: null, price_percent_of_market: null });
    expect(reading.terms.common_shares).toBeNull();
    expectEvidenceComplete(reading);
  });
});

describe("readEightKTerms: an underwritten public offering", () => {
  it("reads the underwriter, the shares, the public offering price and the representative's warrants", () => {
    const reading = readEightKTerms(
      k(
        "Item 1.01 Entry into a Material Definitive Agreement.",
        "On October 8, 2025, the Company entered into an underwriting agreement (the “Underwriting Agreement”) with Example Capital Markets, LLC, as representative of the several underwriters named therein (the “Representative”), relating to the public offering of 3,000,000 shares of the Company’s common stock at a public offering price of $4.00 per share. The underwriters have agreed to purchase the shares at a price of $3.72 per share. The Company granted the underwriters a 45-day option to purchase up to an additional 450,000 shares of common stock.",
        "The gross proceeds of the offering are expected to be $12.0 million. The offering is being made pursuant to the Company’s registration statement on Form S-1 (File No. 333-888888), which was declared effective on October 7, 2025.",
        "The Company also agreed to issue to the Representative warrants to purchase up to 150,000 shares of common stock (the “Representative’s Warrants”) at an exercise price of $5.00 per share. The Representative’s Warrants will be exercisable commencing 180 days after the commencement of sales in the offering and will expire five years thereafter.",
      ),
    );
    expect(reading.terms).toMatchObject({
      agreement_kind: "underwriting",
      common_shares: 3_000_000,
      price_per_share: 4,
      gross_proceeds: 12_000_000,
      placement_agent: "Example Capital Markets, LLC",
      agent_role: "underwriter",
      registered: true,
      warrants: [],
    });
    expect(reading.terms.agent_warrants).toEqual([
      { shares: 150_000, exercise_price: 5, term_years: 5, expiry: null, exercisable: "180 days after the commencement of sales in the offering", pre_funded: false, series: null, inducement: false, existing: false },
    ]);
    expectEvidenceComplete(reading);
  });
});

describe("readEightKTerms: a warrant inducement", () => {
  it("records the existing warrants at their reduced price and the new warrants, as an inducement", () => {
    const reading = readEightKTerms(
      k(
        "Item 1.01 Entry into a Material Definitive Agreement.",
        "On November 12, 2025, the Company entered into an inducement letter agreement (the “Inducement Letter”) with a holder of certain of its existing warrants. Pursuant to the Inducement Letter, the holder agreed to exercise for cash existing warrants to purchase up to 1,000,000 shares of common stock (the “Existing Warrants”), originally issued in 2024 with an exercise price of $6.00 per share, at a reduced exercise price of $1.50 per share.",
        "In consideration for the immediate exercise of the Existing Warrants, the Company agreed to issue new unregistered warrants to purchase up to 2,000,000 shares of common stock (the “New Warrants”). The New Warrants will have an exercise price of $1.75 per share, will be immediately exercisable and will have a term of five years from the date of issuance.",
        "The Company expects to receive aggregate gross proceeds of approximately $1.5 million from the exercise of the Existing Warrants, before deducting placement agent fees.",
        "Item 3.02 Unregistered Sales of Equity Securities.",
        "The New Warrants were issued in a private placement in reliance on Section 4(a)(2) of the Securities Act.",
      ),
    );
    expect(reading.terms).toMatchObject({ inducement: true, agreement_kind: "other", agreement_date: "2025-11-12", gross_proceeds: 1_500_000, registered: false, common_shares: null });
    expect(reading.terms.warrants).toEqual([
      { shares: 1_000_000, exercise_price: 1.5, term_years: null, expiry: null, exercisable: null, pre_funded: false, series: null, inducement: true, existing: true },
      { shares: 2_000_000, exercise_price: 1.75, term_years: 5, expiry: null, exercisable: "immediately", pre_funded: false, series: null, inducement: true, existing: false },
    ]);
    expectEvidenceComplete(reading);
  });
});

describe("readEightKTerms: what is not a financing term", () => {
  it("reads nothing from an employment agreement", () => {
    const reading = readEightKTerms(
      k(
        "Item 1.01 Entry into a Material Definitive Agreement.",
        "On February 1, 2025, the Company entered into an employment agreement with Jane Example, its Chief Financial Officer, providing for an annual base salary of $400,000 and an option to purchase 250,000 shares of common stock at an exercise price of $3.00 per share, vesting over four years.",
        "Item 5.02 Departure of Directors or Certain Officers.",
        "The information in Item 1.01 is incorporated by reference.",
      ),
    );
    expect(reading.terms).toEqual(readEightKTerms("").terms);
    expect(reading.evidence).toEqual({});
  });

  it("reads nothing from a risk of future financing outside Items 1.01 and 3.02", () => {
    const reading = readEightKTerms(
      k(
        "Item 8.01 Other Events.",
        "The Company will need to raise additional capital, which may include the sale of up to 5,000,000 shares of common stock and warrants to purchase 5,000,000 shares at an exercise price of $1.00 per share in a private placement, and such financing may not be available on acceptable terms.",
      ),
    );
    expect(reading.terms).toEqual(readEightKTerms("").terms);
  });

  it("does not read a possible sale, or an agent's percentage warrants, as terms", () => {
    const reading = readEightKTerms(
      k(
        "Item 1.01 Entry into a Material Definitive Agreement.",
        "On August 4, 2025, the Company entered into a placement agency agreement with Example Placement Group LLC, pursuant to which Example Placement Group LLC will act as the Company’s exclusive placement agent for a proposed offering. The Company agreed to issue to the placement agent warrants to purchase a number of shares equal to 6.0% of the shares sold in the offering, at an exercise price equal to 125% of the offering price.",
        "If the Company completes an offering, it may receive gross proceeds of up to $10 million.",
      ),
    );
    expect(reading.terms).toMatchObject({ agreement_kind: "placement_agency", placement_agent: "Example Placement Group LLC", agent_role: "placement_agent", agent_warrants: [], warrants: [], gross_proceeds: null, price_per_share: null });
  });

  it("reads a reset only when the text states one", () => {
    const reading = readEightKTerms(
      k(
        "Item 1.01 Entry into a Material Definitive Agreement.",
        "On March 9, 2025, the Company entered into a securities purchase agreement with certain investors for the sale of 400,000 shares of common stock and warrants to purchase up to 400,000 shares of common stock. On the sixtieth day after issuance, the exercise price of the warrants will be reset to the lower of the then exercise price and 90% of the lowest VWAP during the five trading days before that date.",
      ),
    );
    expect(reading.terms.anti_dilution).toBe("reset");
    expect(reading.terms.warrants).toHaveLength(1);
    expect(reading.terms.warrants[0]!.exercise_price).toBeNull();
  });
});

describe("readEightKTerms: the press release", () => {
  const items = k(
    "Item 1.01 Entry into a Material Definitive Agreement.",
    "On December 1, 2025, the Company entered into a securities purchase agreement with certain institutional investors for the issuance and sale of 2,000,000 shares of common stock and warrants to purchase up to 2,000,000 shares of common stock in a private placement.",
    "Item 7.01 Regulation FD Disclosure.",
    "On December 2, 2025, the Company issued a press release announcing the private placement. A copy of the press release is furnished as Exhibit 99.1.",
  );
  const release = [
    "Example Therapeutics Announces $3.0 Million Private Placement",
    "Example Therapeutics, Inc. today announced the pricing of a private placement of 2,000,000 shares of common stock and warrants to purchase up to 2,000,000 shares at a combined purchase price of $1.50 per share and accompanying warrant. The warrants have an exercise price of $1.65 per share. The aggregate gross proceeds are expected to be approximately $3.0 million. Example Securities & Co., LLC is acting as the exclusive placement agent for the offering.",
    "About Example Therapeutics",
    "Example Therapeutics, Inc. raised gross proceeds of $99 million in its 2021 initial public offering at $10.00 per share.",
  ].join("\n");

  it("fills what the items leave unstated from the release they point to", () => {
    const reading = readEightKTerms(items, release);
    expect(reading.terms).toMatchObject({ common_shares: 2_000_000, price_per_share: 1.5, gross_proceeds: 3_000_000, placement_agent: "Example Securities & Co., LLC", registered: false });
    expect(reading.terms.warrants).toHaveLength(1);
    expect(reading.terms.warrants[0]).toMatchObject({ shares: 2_000_000, exercise_price: 1.65 });
    expect(reading.evidence.common_shares).not.toContain("announced");
    expectEvidenceComplete(reading);
  });

  it("does not read a release no item points to", () => {
    const alone = readEightKTerms(items.replace(/Item 7\.01[^]*$/, ""), release);
    expect(alone.terms.price_per_share).toBeNull();
    expect(alone.terms.gross_proceeds).toBeNull();
  });
});

describe("eightKItems", () => {
  it("finds headings, not references to items", () => {
    expect(eightKItems(REGISTERED_DIRECT)).toEqual(["1.01", "3.02", "9.01"]);
    expect(eightKItems("ITEM 2.02 RESULTS OF OPERATIONS. See the information under Item 7.01 below. Item 7.01 Regulation FD Disclosure. Item 9.01 Exhibits.")).toEqual(["2.02", "7.01", "9.01"]);
  });
});

// ───────────────────────────── data:edgar inspect ─────────────────────────────

function submission(form: string, documents: { type: string; filename: string; html: string }[], headerExtra = ""): string {
  const docs = documents
    .map((d, i) => `<DOCUMENT>\n<TYPE>${d.type}\n<SEQUENCE>${i + 1}\n<FILENAME>${d.filename}\n<TEXT>\n<html><body>${d.html}</body></html>\n</TEXT>\n</DOCUMENT>`)
    .join("\n");
  return `<SEC-DOCUMENT>0009990001-25-000001.txt\n<SEC-HEADER>0009990001-25-000001.hdr.sgml\nACCESSION NUMBER:\t\t0009990001-25-000001\nCONFORMED SUBMISSION TYPE:\t${form}\nFILED AS OF DATE:\t\t20250304\n${headerExtra}\nFILER:\n\tCOMPANY DATA:\n\t\tCOMPANY CONFORMED NAME:\t\t\tExample Therapeutics, Inc.\n\t\tCENTRAL INDEX KEY:\t\t\t0009990001\n\tFILING VALUES:\n\t\tSEC FILE NUMBER:\t001-39999\n</SEC-HEADER>\n${docs}\n</SEC-DOCUMENT>\n`;
}

const asHtml = (text: string) => text.split("\n").map((p) => `<p>${p}</p>`).join("");

describe("inspectAny on an 8-K", () => {
  it("routes an 8-K submission to the 8-K reader, with its items, terms and evidence", () => {
    const filing = readSubmission(
      submission(
        "8-K",
        [
          { type: "8-K", filename: "k.htm", html: asHtml(REGISTERED_DIRECT) },
          { type: "EX-99.1", filename: "ex99-1.htm", html: "<p>Example Therapeutics announces a registered direct offering.</p>" },
        ],
        "ITEM INFORMATION:\t\tEntry into a Material Definitive Agreement\nITEM INFORMATION:\t\tUnregistered Sales of Equity Securities\nITEM INFORMATION:\t\tFinancial Statements and Exhibits",
      ),
    );
    const inspection = inspectAny(filing) as EightKInspection;
    expect(inspection).toMatchObject({
      accession: "0009990001-25-000001",
      form: "8-K",
      company: "Example Therapeutics, Inc.",
      items: ["1.01", "3.02", "9.01"],
      header_items: ["Entry into a Material Definitive Agreement", "Unregistered Sales of Equity Securities", "Financial Statements and Exhibits"],
      offering_type: null,
      common_shares: 1_200_000,
      price_per_share: 2.5,
      registered: true,
    });
    expect(inspection.warrants).toHaveLength(2);
    expect(inspection.evidence["warrants[1].exercise_price"]).toContain("$2.75");
  });

  it("knows an 8-K served alone by its cover, and leaves other forms to their readers", () => {
    const primary = readSubmission(`<html><body>${asHtml(REGISTERED_DIRECT)}</body></html>`);
    const inspection = inspectAny(primary, { path: "/x/Archives/edgar/data/9990001/000999000125000001/k.htm" }) as EightKInspection;
    expect(inspection).toMatchObject({ form: "8-K", accession: "0009990001-25-000001", primary_document: "k.htm", cik: 9990001, items: ["1.01", "3.02", "9.01"], common_shares: 1_200_000 });

    const prospectus = inspectAny(readSubmission(submission("424B5", [{ type: "424B5", filename: "p.htm", html: "<p>We are offering 100,000 shares of common stock.</p>" }])));
    expect(prospectus).not.toHaveProperty("items");
    expect(prospectus).not.toHaveProperty("warrants");
  });
});

describe("readEightKTerms: price protection as stated", () => {
  const item = (sentence: string) =>
    readEightKTerms(k("Item 1.01 Entry into a Material Definitive Agreement.", `On May 2, 2025, the Company entered into a securities purchase agreement with certain investors for the sale of 300,000 shares of common stock and warrants to purchase up to 300,000 shares of common stock. ${sentence}`)).terms.anti_dilution;

  it("reads customary, none and nothing", () => {
    expect(item("The warrants contain no anti-dilution protection other than customary adjustments for stock splits and stock dividends.")).toBe("customary");
    expect(item("The warrants do not contain any anti-dilution protection.")).toBe("none");
    expect(item("The warrants do not contain full ratchet anti-dilution provisions.")).toBeNull();
    expect(item("The warrants will be exercisable immediately.")).toBeNull();
  });
});
