import { describe, expect, it } from "vitest";
import { eightKItems, emptyEightKTerms, readEightKTerms } from "./eight-k-terms";
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

describe("readEightKTerms: small caps' note deals as their 8-Ks tell them", () => {
  it("reads a consummated purchase agreement, a note's maturity 'payable on' a day or defined as the Maturity Date, interest it 'provides for', and takes no conversion price, note total or commitment-share fee for something else", () => {
    const mast = readEightKTerms(
      k(
        "Item 1.01 Entry Into a Material Definitive Agreement.",
        "On November 2, 2021, we consummated a Securities Purchase Agreement with Example Hill Fund, L.P. (“Example Hill”), whereby we issued to Example Hill a convertible promissory note in the principal amount of $810,000 and issued to Example Hill a common stock purchase warrant to purchase 28,065,000 shares of our common stock. As a condition to the purchase, we issued to Example Hill 10,855,047 shares (the “Commitment Shares”) of our common stock. The principal amount of the Convertible Note and all interest accrued thereon is payable on October 29, 2022. The Convertible Note provides for interest at the rate of 12% per annum, payable at maturity, and is convertible into shares of our common stock at a price of $0.0125 per share.",
      ),
    );
    expect(mast.terms).toMatchObject({ agreement_kind: "convertible_note", agreement_date: "2021-11-02", price_per_share: null, equity_line: null });
    expect(mast.terms.convertible_notes).toEqual([expect.objectContaining({ principal: 810_000, conversion_price: 0.0125, maturity: "2022-10-29", interest_rate: 12 })]);

    const facility = readEightKTerms(
      k(
        "Item 1.01 Entry into a Material Definitive Agreement.",
        "On March 8, 2023, the Company entered into a securities purchase agreement with YA Example, Ltd. Pursuant to the Securities Purchase Agreement, the Company agreed to issue and sell convertible debentures in the principal amount of up to $11.2 million. On March 8, 2023, the Company issued and sold a Convertible Debenture in the principal amount of $5 million for a purchase price of $4.5 million. The parties further agreed that the Company will issue and sell a second Convertible Debenture in the principal amount of $6.2 million. The Promissory Note is to be repaid in one installment on September 15, 2023 (the “Maturity Date”).",
      ),
    );
    expect(facility.terms.convertible_notes.map((n) => n.principal)).toEqual([5_000_000, 6_200_000]);
    expect(facility.terms.convertible_notes[0]!.maturity).toBe("2023-09-15");

    const paid = readEightKTerms(k("Item 1.01 Entry into a Material Definitive Agreement.", "On November 30, 2021, the Company entered into a Securities Purchase Agreement with an accredited investor for a Convertible Promissory Note. The Closing occurred on December 3, 2021, upon the Company receiving the purchase price of $250,000."));
    expect(paid.terms.price_per_share).toBeNull();
  });

  it("names the lender a purchase agreement is made with, by its legal name beside a short name or a state of formation, and the price a note was sold for", () => {
    const ema = readEightKTerms(
      k(
        "Item 1.01 Entry into a Material Definitive Agreement.",
        "On January 17, 2018 we entered into a Securities Purchase Agreement (“SPA”) with EMA Example, LLC, a Delaware limited liability company (“Purchaser”), pursuant to which we issued and sold to the Purchaser a convertible promissory note in the principal amount of $165,000 (the “Note”).",
      ),
    );
    expect(ema.terms.purchasers).toEqual(["EMA Example, LLC"]);
    const mast = readEightKTerms(
      k(
        "Item 1.01 Entry into a Material Definitive Agreement.",
        "On November 2, 2021, we consummated a Securities Purchase Agreement with Example Hill Fund, L. P. (“Example Hill”), whereby we issued to Example Hill a convertible promissory note in the principal amount of $810,000. In consideration of the Convertible Note and Warrant we received $729,000, less $10,800 retained by Example Hill in reimbursement of its legal fees.",
      ),
    );
    expect(mast.terms).toMatchObject({ purchasers: ["Example Hill Fund, L. P."], gross_proceeds: 729_000 });
    const debenture = readEightKTerms(
      k(
        "Item 1.01 Entry into a Material Definitive Agreement.",
        "On March 8, 2023, upon signing the Securities Purchase Agreement, the Company issued and sold to the Investor a Convertible Debenture in the principal amount of $5 million for a purchase price of $4.5 million. The Company will issue and sell a second Convertible Debenture in the principal amount of $6.2 million for a purchase price of $5.58 million.",
      ),
    );
    expect(debenture.terms.gross_proceeds).toBe(4_500_000);
  });

  it("takes a note sold under an equity line's agreement as the 8-K's own agreement, dated the day it was sold", () => {
    const under = readEightKTerms(
      k(
        "Item 1.01 Entry into a Material Definitive Agreement.",
        "On March 8, 2023, we issued and sold a convertible promissory note with an aggregate principal amount of $4.5 million (the “Promissory Note”) in a private placement to Example Fund under the Standby Equity Purchase Agreement dated as of January 24, 2023 between us and Example Fund. The holder may convert the Promissory Note into shares of our Common Stock at a conversion price of $0.50 (the “Conversion Price”).",
      ),
    );
    expect(under.terms).toMatchObject({ agreement_kind: "convertible_note", agreement_date: "2023-03-08" });
    expect(under.terms.convertible_notes).toEqual([expect.objectContaining({ principal: 4_500_000, conversion_price: 0.5 })]);
  });

  it("reads a note financing told under Item 2.03 alone, warrants 'allowing' the buyer 'to purchase' shares, and an equity line drawn by put notices", () => {
    const loan = readEightKTerms(
      k(
        "Item 2.03 Creation of a Direct Financial Obligation.",
        "On February 5, 2023 (the “Issuance Date”), the Company entered into a Securities Purchase Agreement (the “Purchase Agreement”) and issued and sold to Example Hill, a Promissory Note in the principal amount of $619,000.00. Also pursuant to the Purchase Agreement, the Company issued (a) common stock purchase warrants (the “First Warrants”), allowing Example Hill to purchase an aggregate of 6,900,000 shares of the Company’s common stock and (b) common stock purchase warrants (the “Second Warrants”), allowing Example Hill to purchase an aggregate of 7,000,000 shares of the Company’s common stock.",
      ),
    );
    expect(loan.terms).toMatchObject({ agreement_kind: "securities_purchase", agreement_date: "2023-02-05" });
    expect(loan.terms.warrants.map((w) => w.shares)).toEqual([6_900_000, 7_000_000]);
    const puts = readEightKTerms(
      k(
        "Item 1.01 Entry Into A Material Definitive Agreement.",
        "On June 28, 2018, we executed a new Securities Purchase Agreement (the “SPA”) with Example Investments, LLC (“Example”). Under the SPA, Example has agreed to purchase up to $15,000,000 worth of our common stock over the next twenty-four (24) months. Sales of common stock to Example under the SPA shall be initiated from time to time by our issuance of individual Put Notices to Example.",
      ),
    );
    expect(puts.terms.agreement_kind).toBe("equity_line");
    expect(puts.terms.equity_line).toMatchObject({ counterparty: "Example Investments, LLC", commitment: 15_000_000 });
  });

  it("counts no shares sold from shares exchanged for warrants or issued in exchange for a note", () => {
    const swap = readEightKTerms(
      k(
        "Item 3.02 Unregistered Sales of Equity Securities.",
        "On January 10, 2025, the Company entered into exchange agreements with Example Capital IV, L.P. (the “Holder”), pursuant to which the Holder agreed to exchange 3,500,000 shares of the Company's common stock for one or more pre-funded warrants to purchase up to 3,500,000 shares of Common Stock.",
      ),
    );
    expect(swap.terms.common_shares).toBeNull();
    const exchanged = readEightKTerms(k("Item 3.02 Unregistered Sales of Equity Securities.", "On January 23, 2023, a new note was issued in the principal amount of $0.5 million. The new note was exchanged concurrently for approximately 2.5 million newly issued shares of common stock."));
    expect(exchanged.terms.common_shares).toBeNull();
  });
});

describe("readEightKTerms: terms of notes the company already had", () => {
  it("takes no rate or maturity from outstanding notes the proceeds will repay", () => {
    const reading = readEightKTerms(
      k(
        "Item 1.01 Entry into a Material Definitive Agreement.",
        "On May 5, 2025, the Company entered into a Securities Purchase Agreement with Alpha Capital Anstalt (the “Purchaser”), pursuant to which the Company sold a senior secured convertible note in the principal amount of $2,000,000 (the “Note”), convertible at $1.25 per share.",
        "The Company will use the proceeds to repay the Company’s outstanding 12% Senior Convertible Notes due April 15, 2025.",
      ),
    );
    expect(reading.terms.convertible_notes).toEqual([expect.objectContaining({ principal: 2_000_000, conversion_price: 1.25, interest_rate: null, maturity: null })]);
  });
});

describe("readEightKTerms: an earlier sale's agreement", () => {
  it("takes no agreement date from the agreement warrants were originally issued under", () => {
    const reading = readEightKTerms(
      k(
        "Item 3.02 Unregistered Sales of Equity Securities.",
        "On March 3, 2025, the Company issued 400,000 shares of common stock upon the cash exercise of warrants originally issued under the Securities Purchase Agreement dated June 1, 2021.",
      ),
    );
    expect(reading.terms.agreement_date).toBeNull();
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
    // an agreement to exercise is no exercise: nothing is closed
    expect(reading.terms.closings).toEqual([]);
    expectEvidenceComplete(reading);
  });
});

describe("readEightKTerms: closings", () => {
  it("reads a note converted in full and warrants exercised in full, under any item, each with its sentence", () => {
    const conversion = "On June 3, 2025, the holder converted the entire outstanding principal balance and accrued interest of the 2024 Convertible Note into 2,345,678 shares of common stock.";
    const exercise = "On June 4, 2025, the holders of the Series A Warrants and the Series B Warrants exercised all of their warrants for cash.";
    const reading = readEightKTerms(
      k(
        "Item 3.02 Unregistered Sales of Equity Securities.",
        `${conversion} The shares were issued in reliance on Section 3(a)(9) of the Securities Act.`,
        "Item 8.01 Other Events.",
        exercise,
        "Item 9.01 Financial Statements and Exhibits.",
      ),
    );
    expect(reading.terms.closings).toEqual([
      { kind: "converted", instruments: ["2024 Convertible Note"], date: "2025-06-03", subsequent: false },
      { kind: "exercised", instruments: ["Series A Warrants", "Series B Warrants"], date: "2025-06-04", subsequent: false },
    ]);
    expect(reading.evidence["closings[0].kind"]).toBe(conversion);
    expect(reading.evidence["closings[1].instruments"]).toBe(exercise);
    expectEvidenceComplete(reading);
  });

  it("reads a note repaid in full as redeemed, and nothing from a partial or possible conversion", () => {
    const repaid = readEightKTerms(k("Item 1.01 Entry into a Material Definitive Agreement.", "On July 1, 2025, the Company repaid the Secured Bridge Note in full and the related security agreement was terminated."));
    expect(repaid.terms.closings).toEqual([{ kind: "redeemed", instruments: ["Secured Bridge Note"], date: "2025-07-01", subsequent: false }]);
    // repaid or settled in shares is a conversion
    const inShares = readEightKTerms(k("Item 3.02 Unregistered Sales of Equity Securities.", "On July 1, 2025, the 2023 Bridge Convertible Notes were repaid in full in shares of the Company’s Class A Common Stock."));
    expect(inShares.terms.closings).toEqual([{ kind: "converted", instruments: ["2023 Bridge Convertible Notes"], date: "2025-07-01", subsequent: false }]);
    const settledInShares = readEightKTerms(k("Item 3.02 Unregistered Sales of Equity Securities.", "On July 1, 2025, the Company settled the Secured Bridge Note in full by issuing 500,000 shares of common stock."));
    expect(settledInShares.terms.closings).toEqual([{ kind: "converted", instruments: ["Secured Bridge Note"], date: "2025-07-01", subsequent: false }]);
    const partial = readEightKTerms(
      k(
        "Item 3.02 Unregistered Sales of Equity Securities.",
        "On July 1, 2025, the holder converted $250,000 of the principal of the 2024 Convertible Note into 500,000 shares of common stock. The holder may convert the remaining principal at any time.",
      ),
    );
    expect(partial.terms.closings).toEqual([]);
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

/**
 * Wordings of real 8-Ks (fixtures/edgar/SOURCES.md's 8-K table, and others
 * of nlpaueb/edgar-crawler's recorded 8-Ks), each test named after the filing
 * its sentences come from. The rules they hold are the kind's, not the
 * filing's: the 8-K accuracy test (eight-k-accuracy.test.ts) scores the real
 * files themselves.
 */
describe("readEightKTerms: wordings of real 8-Ks", () => {
  const real = (...paragraphs: string[]) => paragraphs.join("\n");
  const checkboxCover =
    "Emerging growth company o\nIf an emerging growth company, indicate by check mark if the registrant has elected not to use the extended transition period for complying with any new or revised financial accounting standards provided pursuant to Section 13(a) of the Exchange Act. o";

  it("takes an item heading that opens a paragraph after the cover's last checkbox “o” (Marygold 0001171200-22-000105), not a reference in quotes (Astrotech 0000950123-10-095885)", () => {
    expect(eightKItems(real(checkboxCover, "Item 1.01. Entry into a Material Definitive Agreement.", "Underwriting Agreement", "Item 7.01. Regulation FD Disclosure.", "Item 9.01. Financial Statements and Exhibits."))).toEqual(["1.01", "7.01", "9.01"]);
    const astrotech = real(
      "Item 2.03 Creation of a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement of a Registrant",
      "The information described above under “Item 1.01 Entry into a Material Definitive Agreement” is incorporated herein by reference.",
      "Item 8.01 Other Events.",
    );
    expect(eightKItems(astrotech)).toEqual(["2.03", "8.01"]);
    // a paragraph that only continues a reference is still no heading
    expect(eightKItems(real("The information set forth under", "Item 1.01 above is incorporated herein by reference."))).toEqual([]);
  });

  it("reads the items of an 8-K filed before August 2004 as numbered then (Westell 0000914760-99-000229), and never an item number without its title", () => {
    expect(eightKItems(real("ITEM 5. OTHER EVENTS", "On December 13, 1999, Westell Technologies, Inc. (\"Westell\") released a Press Release.", "ITEM 7. Financial Statements and Exhibits."))).toEqual(["5", "7"]);
    expect(eightKItems(real("Item 5. Other Events.", "Private Placement"))).toEqual(["5"]);
    expect(eightKItems(real("As described in Item 5 of our annual report, the Company sold shares."))).toEqual([]);
  });

  it("reads an underwritten offering with the underwriter's warrants (Marygold 0001171200-22-000105)", () => {
    const { terms, evidence } = readEightKTerms(
      real(
        checkboxCover,
        "Item 1.01. Entry into a Material Definitive Agreement.",
        "Underwriting Agreement",
        "On March 9, 2022, The Marygold Companies, Inc. (the “Company”) entered into an underwriting agreement (the “Underwriting Agreement”) between the Company and Maxim Group LLC (the “Underwriter”), relating to the Company’s upsized underwritten public offering (the “Offering”) of 1,650,000 shares (the “Shares”) of the Company’s common stock, par value $0.001 per share (the “Common Stock”). The Offering was made pursuant to (i) the Company’s registration statement on Form S-1 (File No. 333-261522), previously filed with Securities Exchange Commission (SEC) and subsequently declared effective by the SEC on March 9, 2022.",
        "Pursuant to the Underwriting Agreement, the public offering price was $2.00 per Share, and the Underwriter purchased the Shares at a 7.0% discount to the public offering price. The Company granted the Underwriter the option to purchase, within 45 days from the date of the Underwriting Agreement, an additional 247,500 shares of Common Stock at the same price per share as the Shares (the “Over-Allotment Option”), which the Underwriter exercised in full on March 11, 2022. Maxim Group LLC acted as sole book-running manager for the Offering.",
        "In exchange for the Underwriter’s services, the Company agreed to (i) sell the Common Stock to the Underwriter at a purchase price of $1.86 per share of Common Stock, reflecting the underwriting discount of 7%, and (ii) issue the Underwriter (or its designees) the Warrants to purchase shares of Common Stock equal to 5.0% of the aggregate number of shares of Common Stock sold in the Offering, along with associated registration rights (the “Underwriter’s Warrants”).",
        "On March 14, 2022, the Offering closed resulting in the Company selling a total of 1,897,500 shares of common stock, including 247,500 shares sold pursuant to the full exercise of the Underwriter’s over-allotment option, for gross proceeds of $3,795,000, before deducting underwriting discounts, commissions, and other estimated offering expenses.",
        "Underwriter’s Warrants",
        "On March 14, 2022, pursuant to the Underwriting Agreement, the Company issued the Underwriter’s Warrants to purchase up to an aggregate of 82,500 shares of Common Stock. The Underwriter’s Warrants may be exercised beginning on September 14, 2022, which is the date that is 180 days after the commencement of sales of the Shares issued in connection with the Offering, and expire on March 14, 2027, which is five years from their initial issuance date. The initial exercise price of each Underwriter’s Warrant is $2.40 per share, which represents 120% of the public offering price.",
        "Item 7.01. Regulation FD Disclosure.",
      ),
    );
    expect(terms).toMatchObject({
      agreement_kind: "underwriting",
      agreement_date: "2022-03-09",
      common_shares: 1_650_000,
      price_per_share: 2,
      gross_proceeds: 3_795_000,
      placement_agent: "Maxim Group LLC",
      agent_role: "underwriter",
      registered: true,
      warrants: [],
    });
    expect(terms.agent_warrants).toEqual([
      { shares: 82_500, exercise_price: 2.4, term_years: 5, expiry: "2027-03-14", exercisable: "2022-09-14", pre_funded: false, series: null, inducement: false, existing: false },
    ]);
    expect(evidence["agent_warrants[0].exercisable"]).toContain("may be exercised beginning on September 14, 2022");
    expect(evidence["agent_warrants[0].exercise_price"]).toContain("each Underwriter’s Warrant is $2.40");
  });

  it("writes a warrant's first exercise day as a date when the text gives one, and keeps a condition as written", () => {
    const exercisable = (sentence: string) =>
      readEightKTerms(k("Item 1.01 Entry into a Material Definitive Agreement.", `On May 2, 2025, the Company entered into a securities purchase agreement with certain investors for the sale of 300,000 shares of common stock and warrants to purchase up to 300,000 shares of common stock. ${sentence}`)).terms.warrants[0]?.exercisable;
    expect(exercisable("The warrants will not be exercisable until November 2, 2025.")).toBe("2025-11-02");
    expect(exercisable("The warrants will be exercisable commencing on the six month anniversary of the issuance date.")).toBe("the six month anniversary of the issuance date");
    expect(exercisable("The warrants may be exercised beginning on the date of Stockholder Approval.")).toBe("the date of Stockholder Approval");
  });

  it("reads a sale told under Item 3.02 alone: a total purchase price is no price per share, the buyer it is sold to, the dated agreement, the item's own title (Nuance 0000950135-08-003855)", () => {
    const { terms, evidence } = readEightKTerms(
      real(
        "Item 2.01. Completion of Acquisition or Disposition of Assets.",
        "On May 20, 2008, Nuance Communications, Inc. (“Nuance”), acquired eScription, Inc. (“eScription”) pursuant to an Agreement and Plan of Merger (the “Merger Agreement”) dated April 7, 2008. The aggregate consideration consisted of (i) 1,294,844 shares of Nuance common stock and (ii) $340 million in cash.",
        "Item 3.02. Unregistered Sales of Equity Securities.",
        "On May 20, 2008, Nuance sold 5,760,369 shares of Nuance common stock for a purchase price of $100.0 million, and warrants to purchase 3,700,000 shares of Nuance common stock for a purchase price of $0.5 million, to Warburg Pincus Private Equity VIII, L.P. and certain of its affiliated entities (collectively “Warburg Pincus”) pursuant to the terms of a purchase agreement dated April 7, 2008 by and among Nuance and Warburg Pincus (the “Purchase Agreement”). The warrants have an exercise price of $20.00 per share and a term of four years.",
        "Item 9.01. Financial Statements and Exhibits",
      ),
    );
    expect(terms).toMatchObject({
      agreement_kind: "securities_purchase",
      agreement_date: "2008-04-07",
      common_shares: 5_760_369,
      price_per_share: null,
      gross_proceeds: null,
      purchasers: ["Warburg Pincus Private Equity VIII, L.P."],
      registered: false,
    });
    expect(terms.warrants).toEqual([{ shares: 3_700_000, exercise_price: 20, term_years: 4, expiry: null, exercisable: null, pre_funded: false, series: null, inducement: false, existing: false }]);
    expect(evidence.registered).toBe("Unregistered Sales of Equity Securities.");
  });

  it("never takes a total for a price per share, but keeps a price per share said after it", () => {
    const price = (sentence: string) => readEightKTerms(k("Item 3.02 Unregistered Sales of Equity Securities.", sentence)).terms.price_per_share;
    expect(price("On June 1, 2025, the Company sold 1,000,000 shares of common stock to an accredited investor for an aggregate purchase price of $1,500,000.")).toBeNull();
    expect(price("On June 1, 2025, the Company sold 1,000,000 shares of common stock to an accredited investor at a purchase price of $1.5 million.")).toBeNull();
    expect(price("On June 1, 2025, the Company sold 1,000,000 shares of common stock to an accredited investor for a purchase price of $1.50 per share.")).toBe(1.5);
  });

  const nuance2007 = real(
    "Item 1.01 Entry into a Material Definitive Agreement",
    "The information set forth in Items 2.03 and 3.02 hereof is incorporated by reference into this Item 1.01.",
    "Item 2.03 Creation of a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement of a Registrant",
    "As previously announced, on August 7, 2007, Nuance Communications, Inc. (“Nuance”) entered into a purchase agreement (the “Purchase Agreement”) with Citigroup Global Markets Inc. and Goldman, Sachs & Co. (the “Initial Purchasers”) to offer and sell $220 million aggregate principal amount of its 2.75% Senior Convertible Debentures due 2027 (the “Debentures”), plus up to an additional $30 million aggregate principal amount of the Debentures at the option of the Initial Purchasers to cover over-allotments, if any, in a private placement for resale to qualified institutional buyers pursuant to the exemptions from the registration requirements of the Securities Act of 1933, as amended (the “Act”), afforded by Section 4(2) of the Act and Rule 144A under the Act.",
    "On August 13, 2007, Nuance closed the sale of $250 million aggregate principal amount of the Debentures, including the exercise of the Initial Purchasers’ over-allotment option in full. In connection with the closing, on August 13, 2007, Nuance entered into an indenture (the “Indenture”) with U.S. Bank National Association, as trustee (the “Trustee”), governing the Debentures and issued a global note (the “Global Note”) in the aggregate principal amount of $250 million in the name of Cede & Co. as nominee for The Depository Trust Company.",
    "The material terms and conditions of the Indenture and the Debentures governed thereby are as follows:",
    "Maturity. August 15, 2027.",
    "Interest. The Debentures bear interest at a rate of 2.75% per year. Interest is payable in cash semiannually in arrears on February 15 and August 15 of each year, beginning on February 15, 2008.",
    "Conversion Rights. See description in Item 3.02 below.",
    "Item 3.02 Unregistered Sales of Equity Securities",
    "The information set forth in Item 2.03 hereof is incorporated by reference into this Item 3.02. As disclosed above, on August 13, 2007, Nuance issued and sold $250 million aggregate principal amount of the Debentures, including the exercise of the Initial Purchasers’ over-allotment option in full. The Debentures were sold pursuant to the Purchase Agreement in a private placement to the Initial Purchasers for resale to qualified institutional buyers pursuant to the exemptions from the registration requirements of the Securities Act afforded by Section 4(2) of the Securities Act and Rule 144A under the Securities Act.",
    "The Debentures are convertible at a holder’s option at an initial conversion rate of 51.3736 shares of common stock per $1,000 principal amount of Debentures (equivalent to a conversion price of approximately $19.47 per share), subject to adjustment.",
    "8. during the five consecutive business day period immediately following any five consecutive trading day period in which the trading price for $1,000 principal amount of the Debentures for each day during such five trading day period was less than 98% of the closing sale price of a share of common stock.",
    "Item 9.01 Financial Statements and Exhibits",
  );

  it("reads the items an Item 1.01 incorporates by reference, and one debenture, sold, with its terms, for its offer, option, global note and $1,000 denomination (Nuance 0000950135-07-005171)", () => {
    const { terms, evidence } = readEightKTerms(nuance2007);
    expect(terms).toMatchObject({
      agreement_kind: "convertible_note",
      agreement_date: "2007-08-07",
      purchasers: ["Citigroup Global Markets Inc.", "Goldman, Sachs & Co."],
      registered: false,
      placement_agent: null,
      common_shares: null,
    });
    expect(terms.convertible_notes).toEqual([
      { principal: 250_000_000, conversion_price: 19.47, conversion_percent_of_market: null, conversion_discount_percent: null, maturity: "2027-08-15", interest_rate: 2.75 },
    ]);
    expect(evidence["convertible_notes[0].principal"]).toContain("closed the sale of $250 million");
    expect(evidence["convertible_notes[0].maturity"]).toBe("Maturity. August 15, 2027.");
    expect(evidence.registered).toContain("Section 4(2)");
  });

  it("keeps the offered principal when no sale of it is told, and skips an over-allotment option (Nuance 0000950135-07-004847)", () => {
    const { terms } = readEightKTerms(
      real(
        "Item 1.01 Entry into a Material Definitive Agreement",
        "On August 7, 2007, Nuance Communications, Inc. (“Nuance”) entered into a purchase agreement by and among Citigroup Global Markets Inc. and Goldman, Sachs & Co. (the “Initial Purchasers”) and Nuance (the “Purchase Agreement”) to offer and sell $220 million aggregate principal amount of its 2.75% Convertible Debentures due 2027, plus up to an additional $30 million aggregate principal amount of such debentures at the option of the Initial Purchasers to cover over-allotments, if any, in a private placement to the Initial Purchasers for resale to qualified institutional buyers pursuant to the exemptions from the registration requirements of the Securities Act of 1933, as amended (the “Act”), afforded by Section 4(2) of the Act and Rule 144A under the Act.",
      ),
    );
    expect(terms.convertible_notes.map((n) => [n.principal, n.interest_rate])).toEqual([[220_000_000, 2.75]]);
    expect(terms.purchasers).toEqual(["Citigroup Global Markets Inc.", "Goldman, Sachs & Co."]);
  });

  it("reads no note from debentures the company had before: exchanged, or left outstanding (Nuance 0001193125-21-178760)", () => {
    const { terms } = readEightKTerms(
      real(
        "Item 3.02 Unregistered Sales of Equity Securities.",
        "On May 25, 2021, Nuance Communications, Inc. (the “Company”) entered into privately negotiated agreements with certain investors to exchange (i) an aggregate of 14.7 million shares of the Company’s common stock, par value $0.001 per share (“Common Stock”), and $4.0 million in cash for $354.8 million principal amount of its outstanding 1.00% senior convertible debentures due 2035 (the “1.00% Convertible Debentures”) held by such investors.",
        "Following the consummation of the Exchanges on May 28, 2021 and June 1, 2021, an aggregate of $219.5 million principal amount of 1.00% Convertible Debentures (after giving effect to $34.8 million to be surrendered on June 2, 2021 in connection with the Exchanges) and $162.5 million principal amount of 1.50% Convertible Debentures remain outstanding.",
        "The Exchanges were deemed to be exempt from registration under the Securities Act of 1933, as amended (the “Securities Act”), in reliance on Section 4(a)(2) of the Securities Act.",
      ),
    );
    expect(terms.convertible_notes).toEqual([]);
  });

  it("reads a note's rate from its name only for a note the items sell, and never an original issue discount as a rate", () => {
    const notes = (sentence: string) => readEightKTerms(k("Item 1.01 Entry into a Material Definitive Agreement.", sentence)).terms.convertible_notes;
    expect(notes("On June 1, 2025, the Company entered into a securities purchase agreement pursuant to which it issued and sold $1,100,000 aggregate principal amount of 12% Senior Secured Convertible Notes due June 1, 2026 (the “Notes”), convertible at $1.00 per share.")).toEqual([
      { principal: 1_100_000, conversion_price: 1, conversion_percent_of_market: null, conversion_discount_percent: null, maturity: "2026-06-01", interest_rate: 12 },
    ]);
    expect(notes("On June 1, 2025, the Company entered into a securities purchase agreement pursuant to which it issued and sold $1,100,000 aggregate principal amount of 10% Original Issue Discount Senior Secured Convertible Notes (the “Notes”), convertible at $1.00 per share.")[0]?.interest_rate).toBeNull();
  });

  it("reads a financing told under pre-2004 Item 5: the dated agreement (not the registration rights agreement beside it), purchasers among the company, debentures, warrants (Westell 0000914760-99-000090)", () => {
    const westell = real(
      "Item 5. Other Events.",
      "Private Placement",
      'On April 16, 1999, Westell Technologies, Inc. (the "Company") received a $20 million investment from funds affiliated with three investors (the "Buyers").',
      'Pursuant to the Securities Purchase Agreement dated as of April 14, 1999 among the Company, Castle Creek Technology Partner LLC, Marshall Capital Management, Inc. and Capital Venture International, which is attached as an exhibit to this Form 8-K (the "Securities Purchase Agreement"), the Company issued and sold an aggregate of $20 million aggregate principal amount of 6% Subordinated Convertible Debentures due April 15, 2004 (the "Convertible Debentures") and warrants to purchase 909,091 shares (subject to adjustment) of the Company\'s Class A Common Stock, $0.01 par value, (the "Warrants"). The offer and sale of these securities in the United States was completed pursuant to the exemption from registration provided by Regulation D under the Securities Act of 1933, as amended (the "Act"). In addition to the Convertible Debentures and Warrants, and in connection with the investment, the Company and the Buyers have entered into a Registration Rights Agreement, which agreement is attached as an exhibit to this Form 8-K (the "Registration Rights Agreement").',
      "The Convertible Debentures are convertible into the Company's Class A Common Stock, $0.01 par value. The conversion price will be the lower of (a) a periodically reset fixed price that is initially $6.372 per share, and which will reset on the 12 and 24-month anniversaries of April 16, 1999 to 105% of the initial price (provided the fixed price may not be less than $4.4604 per share), and (b) the floating market price of the Company's stock determined at time of conversion.",
      "The Warrants are exercisable at any time before 5:00 p.m. Central Standard Time on April 15, 2004. The exercise price for the Class A Common Stock underlying the Warrants is $8.9208 per share (subject to adjustment).",
      "Item 7. Financial Statements and Exhibits.",
      "99.1 Press Release issued April 16, 1999.",
    );
    const release =
      "WESTELL ISSUES $20 MILLION SUBORDINATED CONVERTIBLE DEBENTURES\nThe private placement was led by Castle Creek Technology Partners LLC and included Marshall Capital Management, Inc., an affiliate of Credit Suisse First Boston Corp., and Susequehanna Financial Group. Hambrecht & Quist served as the Company's placement agent on this transaction.\nIn connection with the financing, Westell issued five-year warrants for approximately 909,000 shares of Class A Common Stock at an exercise price equal to 140% of the initial conversion price of the debentures.";
    const { terms } = readEightKTerms(westell, release);
    expect(terms).toMatchObject({
      agreement_kind: "convertible_note",
      agreement_date: "1999-04-14",
      common_shares: null,
      gross_proceeds: null,
      purchasers: ["Castle Creek Technology Partner LLC", "Marshall Capital Management, Inc.", "Capital Venture International"],
      registered: false,
      anti_dilution: "reset",
      placement_agent: "Hambrecht & Quist",
      agent_role: "placement_agent",
    });
    expect(terms.convertible_notes).toEqual([
      { principal: 20_000_000, conversion_price: 6.372, conversion_percent_of_market: null, conversion_discount_percent: null, maturity: "2004-04-15", interest_rate: 6 },
    ]);
    // the release fills the term its items leave unstated; its rounded count adds no warrant and is no share sale
    expect(terms.warrants).toEqual([{ shares: 909_091, exercise_price: 8.9208, term_years: 5, expiry: "2004-04-15", exercisable: null, pre_funded: false, series: null, inducement: false, existing: false }]);
  });

  it("reads nothing from a pre-2004 Item 5 that tells a merger and a repricing of warrants sold before (Westell 0000914760-99-000229)", () => {
    const { terms } = readEightKTerms(
      real(
        "ITEM 5. OTHER EVENTS",
        'On December 13, 1999, Westell Technologies, Inc. ("Westell") released a Press Release, a copy of which is attached as Exhibit 99.1 to this Form 8-K and incorporated herein by reference, which announced the proposed merger of a subsidiary of Westell with and into Teltrend Inc. ("Teltrend").',
        "In connection with the Merger Agreement, Robert C. Penny III and Melvin J. Simon, who together currently hold voting power over 18,907,908 shares of Westell's Class B common stock, entered into a Voting Agreement with Teltrend.",
        "Also in connection with the proposed transaction, Westell executed letter agreements with the holders of its outstanding Subordinated Secured Convertible Debentures. Pursuant to these letter agreements, the holders of the debentures and related warrants waived certain rights which could arise in connection with the proposed transaction and Westell amended the exercise price of the warrants to $5.9208 per share.",
        "ITEM 7. Financial Statements and Exhibits.",
      ),
      "Under the terms of the agreement, each share of Teltrend common stock will be exchanged for 3.3 shares of Class A Westell common stock.",
    );
    expect(terms).toEqual({ ...emptyEightKTerms() });
  });

  it("reads no securities from a bank loan agreement (Astrotech 0000950123-10-095885)", () => {
    const { terms } = readEightKTerms(
      real(
        "Item 1.01 Entry into a Material Definitive Agreement;",
        "On October 21, 2010, Astrotech Space Operations, Inc. (“ASO”), a wholly-owned subsidiary of Astrotech Corporation (the “Company”) entered into a $10.0 million Loan Agreement (the “Loan Agreement”), with American Bank, N.A. (the “Lender”).",
        "The Loan Agreement includes a $7.0 million term loan note (the “Term Loan”) and a $3.0 million revolving credit note (the “Revolving Credit Facility”). ASO is required to make monthly principal and interest payments on the Term Loan to the Lender, with the remaining principal due on October 21, 2015.",
        "Item 2.03 Creation of a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement of a Registrant",
        "The information described above under “Item 1.01 Entry into a Material Definitive Agreement” is incorporated herein by reference.",
      ),
    );
    expect(terms).toEqual(emptyEightKTerms());
  });

  it("reads no financing from an agreement by which the company buys a business or its own shares (Nuance 0000950135-07-003944, 0001002517-16-000054)", () => {
    const acquisition = readEightKTerms(
      k(
        "Item 1.01 Entry into a Material Definitive Agreement",
        "On June 21, 2007, Nuance Communications, Inc. (“Nuance”) announced it had entered into a definitive Stock Purchase Agreement (the “Stock Purchase Agreement”) dated June 21, 2007, by and among AOL LLC (“AOL”), Tegic Communications, Inc. (“Tegic”) and Nuance, pursuant to which, among other things, Nuance agreed to purchase from AOL, a wholly owned subsidiary of Time Warner Inc., all of the outstanding shares of Tegic for an aggregate consideration of approximately $265 million in cash (the “Transaction”).",
      ),
    );
    expect(acquisition.terms).toEqual(emptyEightKTerms());
    const buyback = readEightKTerms(
      k(
        "Item 1.01 Entry into a Material Definitive Agreement.",
        "On March 9, 2016, Nuance Communications, Inc. (the “Company”) announced that it had entered into an agreement (the “Stock Purchase Agreement”) to repurchase 26,315,790 shares of common stock, $0.001 par value of the Company (the “Common Stock”) at a price of $19.00 per share (the “Repurchase”) from Icahn Partners LP, Icahn Partners Master Fund LP and High River Limited Partnership (collectively, the “Icahn Group”).",
      ),
    );
    expect(buyback.terms).toMatchObject({ agreement_kind: null, common_shares: null, price_per_share: null });
  });

  it("reads the financing's agreement, not the merger agreement told first in the same item (Nuance 0000950135-08-002486)", () => {
    const { terms } = readEightKTerms(
      k(
        "Item 1.01 Entry into a Material Definitive Agreement",
        "On April 8, 2008, Nuance Communications, Inc. (“Nuance”) announced it had entered into a definitive Agreement and Plan of Merger (the “Merger Agreement”) dated as of April 7, 2008 by and among Nuance, Easton Acquisition Corporation and eScription, Inc.",
        "On April 7, 2008, Nuance entered into a Purchase Agreement (the “Purchase Agreement”) by and among Nuance, Warburg Pincus Private Equity VIII, L.P. and certain of its affiliated entities (collectively “Warburg Pincus”) pursuant to which Warburg Pincus agreed to purchase, and Nuance agreed to sell, an aggregate of 5,760,369 shares of Nuance common stock for an aggregate purchase price of $100,000,005.84, and warrants to purchase an aggregate of 3,700,000 shares of Nuance common stock for an aggregate purchase price of $462,500.",
      ),
    );
    expect(terms).toMatchObject({ agreement_kind: "securities_purchase", agreement_date: "2008-04-07", common_shares: 5_760_369, price_per_share: null });
  });

  it("reads no share sale from the shares a note hedge's warrant transactions cover (SanDisk 0000950123-10-080629)", () => {
    const { terms } = readEightKTerms(
      k(
        "Item 3.02 Unregistered Sales of Equity Securities.",
        "Separately, the Registrant also has entered into privately negotiated warrant transactions with the Dealers or their respective affiliates to purchase, subject to customary anti-dilution adjustments, 19,093,100 shares of the Registrant’s common stock, with a strike price of $73.33 (the “Warrant Transactions”).",
      ),
    );
    expect(terms.common_shares).toBeNull();
  });
});
