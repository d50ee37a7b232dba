import { describe, expect, it } from "vitest";
import { inspectAny, type PeriodicInspection } from "./inspect";
import { scorePeriodicInspections } from "./periodic-score";
import { readSubmission } from "./submission";
import type { GroundTruth } from "./score";

/**
 * The periodic-report reader on constructed documents of each kind it reads
 * (real reports are scored in periodic-accuracy.test.ts): a primary `.htm`
 * with no SEC header and no `dei:` facts, so form and period come from the
 * cover's words.
 */
function report(body: string, { form = "10-Q", period = "June 30, 2025", statements = true } = {}): string {
  const kind = form === "10-Q" ? "quarterly period" : "fiscal year";
  return (
    `<html><body><p>UNITED STATES SECURITIES AND EXCHANGE COMMISSION</p><p>FORM ${form}</p>` +
    `<p>For the ${kind} ended ${period}</p><p>Commission File Number: 001-40001</p>` +
    `<p>EXAMPLE BIOTECH, INC.</p><p>(Exact name of registrant as specified in its charter)</p>` +
    `<p>As of August 1, 2025, there were 12,345,678 shares of the registrant’s common stock, par value $0.0001 per share, outstanding.</p>` +
    (statements ? "<p>NOTES TO CONDENSED CONSOLIDATED FINANCIAL STATEMENTS</p>" : "") +
    `${body}</body></html>`
  );
}

function read(html: string): PeriodicInspection {
  const inspection = inspectAny(readSubmission(html));
  if (!("going_concern" in inspection)) throw new Error("not read as a periodic report");
  return inspection;
}

describe("periodic reports: the cover", () => {
  it("takes form, company, file number, period and shares outstanding from the cover's words", () => {
    const result = read(report(""));
    expect(result).toMatchObject({ form: "10-Q", company: "EXAMPLE BIOTECH, INC.", file_number: "001-40001", period: "2025-06-30" });
    expect(result.shares_outstanding).toEqual({ value: 12345678, as_of: "2025-08-01" });
    expect(result.evidence["shares_outstanding.value"]).toContain("12,345,678 shares");
  });

  it("reads a count given on the line below its date (“… as of December 31, 2025:” / “84,439,732 common shares”)", () => {
    const html = report("", { form: "20-F", period: "December 31, 2025" }).replace(
      /<p>As of August 1, 2025[^<]*<\/p>/,
      "<p>Indicate the number of outstanding shares of each of the issuer's classes of capital or common stock as of December 31, 2025:</p><p>84,439,732 common shares</p>",
    );
    expect(read(html).shares_outstanding).toEqual({ value: 84439732, as_of: "2025-12-31" });
  });
});

describe("periodic reports: the cover's count in its other shapes", () => {
  const cover = (shape: string) => read(report("").replace(/<p>As of August 1, 2025[^<]*<\/p>/, shape)).shares_outstanding;

  it("reads a count in millions or billions, and skips the market value held by non-affiliates", () => {
    expect(cover("<p>The aggregate market value of the common stock held by non-affiliates as of December 31, 2024 was $1.1 billion. The number of shares of common stock outstanding as of August 1, 2025 was 2.5 billion.</p>")).toEqual({
      value: 2500000000,
      as_of: "2025-08-01",
    });
    expect(cover("<p>As of August 1, 2025, there were 5,893 million shares of the registrant’s Class A stock outstanding.</p>")).toEqual({ value: 5893000000, as_of: "2025-08-01" });
  });

  it("reads the cover's table: a heading row with or without its date, then the class's row", () => {
    expect(cover("<table><tr><td>Class</td><td>Shares Outstanding</td><td>Date</td></tr><tr><td>Common stock, $1.00 par value</td><td>826,691,529</td><td>August 1, 2025</td></tr></table>")).toEqual({
      value: 826691529,
      as_of: "2025-08-01",
    });
    expect(cover("<table><tr><td>Class</td><td>Outstanding as of August 1, 2025</td></tr><tr><td>$0.25 Par Value</td><td>4,324,344,812</td></tr></table>")).toEqual({ value: 4324344812, as_of: "2025-08-01" });
  });
});

describe("periodic reports: going concern", () => {
  const doubt = "<p>The Company has incurred recurring losses. These conditions raise substantial doubt about the Company’s ability to continue as a going concern.</p>";
  const risk = "<p>If we cannot raise capital, our auditors could raise substantial doubt about our ability to continue as a going concern.</p>";

  it("is true, with the sentence, when the report concludes there is substantial doubt", () => {
    const result = read(report(doubt));
    expect(result.going_concern).toBe(true);
    expect(result.evidence.going_concern).toContain("These conditions raise substantial doubt about the Company’s ability to continue as a going concern.");
  });

  it("is false for a report with financial statements that only says doubt could arise, null when there are no statements to judge by", () => {
    expect(read(report(risk)).going_concern).toBe(false);
    expect(read(report(risk, { statements: false })).going_concern).toBeNull();
  });

  it("does not take accounting guidance that describes the evaluation for a conclusion", () => {
    expect(read(report("<p>ASU 2014-15 requires management to determine whether substantial doubt exists regarding the entity’s ability to continue as a going concern.</p>")).going_concern).toBe(false);
  });

  it("takes IFRS wording (significant doubt, a material uncertainty) as doubt, and doubt alleviated by plans as none", () => {
    expect(read(report("<p>These factors indicate that a material uncertainty exists that casts significant doubt on the Company's ability to continue as a going concern.</p>")).going_concern).toBe(true);
    expect(read(report("<p>Management’s plans have alleviated the substantial doubt about the Company’s ability to continue as a going concern.</p>")).going_concern).toBe(false);
  });
});

describe("periodic reports: warrants", () => {
  const activity = (heading: string) =>
    `<p>A summary of warrant activity is as follows ${heading}:</p>` +
    "<table><tr><td></td><td>Number of Warrants</td><td>Weighted Average Exercise Price</td></tr>" +
    "<tr><td>Outstanding as of December 31, 2024</td><td>1,500</td><td>$</td><td>4.00</td></tr>" +
    "<tr><td>Exercised</td><td>(250</td><td>)</td><td>$</td><td>3.00</td></tr>" +
    "<tr><td>Outstanding as of June 30, 2025</td><td>1,250</td><td>$</td><td>4.20</td></tr></table>";

  it("multiplies a warrant table's counts “in thousands” out, never its prices", () => {
    const result = read(report(activity("(in thousands, except per share data)")));
    expect(result.warrants_total).toEqual({ shares_outstanding: 1250000, weighted_average_exercise_price: 4.2, as_of: "2025-06-30" });
    expect(result.evidence["warrants_total.shares_outstanding"]).toBe("Outstanding as of June 30, 2025 1,250 $ 4.20");
  });

  it("reads warrants counted among the anti-dilutive securities, for the period end's column", () => {
    const html = report(
      "<p>The following potentially dilutive securities were excluded from the computation of diluted net loss per share because their effect would be anti-dilutive:</p>" +
        "<table><tr><td></td><td>June 30, 2025</td><td>June 30, 2024</td></tr><tr><td>Stock options</td><td>120,000</td><td>90,000</td></tr>" +
        "<tr><td>Common stock warrants</td><td>2,450,000</td><td>1,000,000</td></tr></table>",
    );
    expect(read(html).warrants_total).toEqual({ shares_outstanding: 2450000, weighted_average_exercise_price: null, as_of: "2025-06-30" });
    expect(read(html.replace("June 30, 2025</td><td>June 30, 2024", "June 30, 2024</td><td>June 30, 2023")).warrants_total).toBeNull();
  });

  it("leaves counts as written when the table excepts shares from its thousands", () => {
    expect(read(report(activity("(in thousands, except share and per share data)"))).warrants_total?.shares_outstanding).toBe(1250);
  });

  it("reads a table of warrants outstanding by expiry as one series per row, in thousands too", () => {
    const html = report(
      "<p>On March 1, 2024, the Company granted 900 common share purchase warrants. Each warrant is exercisable at $2.50 per share until March 1, 2029.</p>" +
        "<p>The warrants outstanding as of June 30, 2025 (in thousands) are as follows:</p>" +
        "<table><tr><td>Expiry Date</td><td>Exercise Price</td><td>Number of Warrants Outstanding</td></tr>" +
        "<tr><td>March 1, 2029</td><td>$</td><td>2.50</td><td>800</td></tr>" +
        "<tr><td>October 15, 2030</td><td>$</td><td>1.10</td><td>2,000</td></tr>" +
        "<tr><td></td><td></td><td>2,800</td></tr></table>",
    );
    const result = read(html);
    expect(result.warrants).toEqual([
      { series: "March 1, 2024 warrants", shares_outstanding: 800000, exercise_price: 2.5, expiry: "2029-03-01", as_of: "2025-06-30" },
      { series: "warrants expiring October 15, 2030", shares_outstanding: 2000000, exercise_price: 1.1, expiry: "2030-10-15", as_of: "2025-06-30" },
    ]);
    expect(result.evidence["warrants[1].expiry"]).toBe("October 15, 2030 $ 1.10 2,000");
  });

  it("does not take a warrant liability's dollar balance for a count of warrants", () => {
    const html = report(
      "<p>The change in the fair value of the warrant liability is as follows:</p>" +
        "<table><tr><td></td><td>Warrant liability</td><td>Exercise price inputs</td></tr>" +
        "<tr><td>Balance, June 30, 2025</td><td>$</td><td>150,318,473</td></tr></table>",
    );
    expect(read(html).warrants_total).toBeNull();
  });
});

describe("periodic reports: an ATM agent named only in the exhibit index", () => {
  const notes = (exhibit: string) =>
    report(
      "<p>2024 ATM Offering</p><p>In March 2024, the Company entered into an ATM sales agreement under which it could offer and sell up to $80.0 million in shares of the Company’s common stock.</p>" +
        "<p>During the year ended December 31, 2024, the Company received gross proceeds of $20.0 million from the sale of 4,000,000 shares of its common stock under its 2024 ATM Offering.</p>" +
        `<table><tr><td>10.4</td><td>Master Purchase and Sales Agreement, dated as of March 2, 2024, by and between Example Biotech, Inc. and Supplier Co.</td></tr><tr><td>10.5</td><td>${exhibit}</td></tr></table>`,
      { form: "10-K", period: "December 31, 2024" },
    );

  it("takes the first sales agent the exhibit index names for a sales agreement dated in the month the program began", () => {
    const result = read(notes("Sales Agreement, dated as of March 28, 2024, by and among Example Biotech, Inc. and its sales agents, First Agent & Co., Second Securities, LLC."));
    expect(result.atm_programs[0]?.agent).toBe("First Agent & Co.");
    expect(result.evidence["atm_programs[0].agent"]).toContain("First Agent & Co.");
  });

  it("leaves the agent unknown when the agreement names none, or is dated in another month", () => {
    expect(read(notes("Sales Agreement, dated as of March 28, 2024, by and among Example Biotech, Inc. and the Sales Agents.")).atm_programs[0]?.agent).toBeNull();
    expect(read(notes("Sales Agreement, dated as of June 3, 2024, by and among Example Biotech, Inc. and Other Agent LLC.")).atm_programs[0]?.agent).toBeNull();
  });
});

describe("periodic reports: warrants told in prose", () => {
  it("reads warrants a report defines by name, with the last day to exercise them and their state at the period end", () => {
    const result = read(
      report(
        "<p>Under the supply agreement we granted Example Partner warrants to purchase 500,000 shares of our common stock (the “Partner Warrants”).</p>" +
          "<p>Holders may exercise them in whole or in part through December 31, 2027, at a price equal to 110% of the trailing average closing price.</p>" +
          "<p>The Partner Warrants are carried as a liability; their fair value as of June 30, 2025 was $120,000.</p>",
      ),
    );
    expect(result.warrants).toEqual([{ series: "Partner Warrants", shares_outstanding: 500000, exercise_price: null, expiry: "2027-12-31", as_of: "2025-06-30" }]);
  });

  it("reads the warrants of units sold after the period end as a subsequent series, with no expiry when only a term is given", () => {
    const html = report(
      "<p>On January 29, 2026, the Company issued 3,180,000 Units at $0.20 per unit for proceeds of $636,000. Each unit is comprised of one common share and one-half of one common share purchase warrant, with each whole warrant entitling the holder to purchase one additional common share at a price of $0.25 for five years.</p>" +
        "<p>On April 24, 2025, the Company issued 1,000,000 units at $0.15 per unit. Each unit consists of one common share and one common share purchase warrant at an exercise price of $0.20 per share until April 24, 2027.</p>",
      { form: "20-F", period: "November 30, 2025" },
    );
    expect(read(html).warrants).toEqual([{ series: "January 29, 2026 unit warrants", shares_outstanding: 1590000, exercise_price: 0.25, expiry: null, as_of: "2026-01-29", subsequent: true }]);
  });
});

describe("periodic reports: reverse splits", () => {
  it("lists a split that took effect with its ratio and date, marking one after the period end", () => {
    const result = read(
      report(
        "<p>On March 3, 2025, the Company effected a 1-for-20 reverse stock split of its common stock.</p>" +
          "<p>After the quarter, a further one-for-eight reverse stock split became effective on July 14, 2025.</p>",
      ),
    );
    expect(result.reverse_splits).toEqual([
      { ratio: "1-for-20", effective_date: "2025-03-03" },
      { ratio: "1-for-8", effective_date: "2025-07-14", subsequent: true },
    ]);
    expect(result.evidence["reverse_splits[0].ratio"]).toBe("On March 3, 2025, the Company effected a 1-for-20 reverse stock split of its common stock.");
  });

  it("lists each split of a sentence that recites several, each with its own date, and leaves out one without a date", () => {
    const result = read(
      report(
        "<p>All share and per share amounts have been retroactively adjusted to reflect the 1-for-15 reverse stock split effective October 31, 2022, the one (1)-for-ten (10) reverse stock split effective July 16, 2024 and the 1:9 reverse stock split effective May 6, 2025.</p>" +
          "<p>All share amounts also reflect a 1-for-4 reverse split the Company effected before its initial public offering.</p>",
      ),
    );
    expect(result.reverse_splits).toEqual([
      { ratio: "1-for-15", effective_date: "2022-10-31" },
      { ratio: "1-for-10", effective_date: "2024-07-16" },
      { ratio: "1-for-9", effective_date: "2025-05-06" },
    ]);
    expect(result.evidence["reverse_splits[2].effective_date"]).toContain("the 1:9 reverse stock split effective May 6, 2025.");
  });

  it("does not list a split that was only authorized or proposed", () => {
    const result = read(
      report(
        "<p>On May 20, 2025, the stockholders approved a proposal to authorize the Board to effect a reverse stock split at a ratio of up to 1-for-50.</p>" +
          "<p>If implemented, the 1-for-10 reverse stock split would become effective on September 1, 2025.</p>",
      ),
    );
    expect(result.reverse_splits).toEqual([]);
  });
});

describe("periodic reports: at-the-market programs", () => {
  const atm =
    "<p>On May 1, 2024, the Company entered into an At-The-Market Sales Agreement with Example Securities, LLC, as sales agent, under which the Company may sell shares of its common stock having an aggregate offering price of up to $50.0 million. " +
    "During the six months ended June 30, 2025, the Company sold 2,500,000 shares under the sales agreement for gross proceeds of $7.5 million. " +
    "As of June 30, 2025, the Company has sold 4,000,000 shares under the sales agreement.</p>";

  it("reads the agent, the size, the sales of the period and to date, each with its quote", () => {
    const result = read(report(atm));
    expect(result.atm_programs).toEqual([
      {
        agent: "Example Securities, LLC",
        max_amount: 50000000,
        shares_sold_in_period: 2500000,
        gross_sold_in_period: 7500000,
        shares_sold_to_date: 4000000,
        gross_sold_to_date: null,
        remaining: null,
        as_of: "2025-06-30",
        in_period_label: "six months ended June 30, 2025",
      },
    ]);
    expect(result.evidence["atm_programs[0].gross_sold_in_period"]).toContain("gross proceeds of $7.5 million");
  });

  it("reads the capacity left as of the period end, not as of a later day", () => {
    const left = read(report(`${atm}<p>As of June 30, 2025, approximately $42.5 million of common stock remained available for sale under the sales agreement.</p>`));
    expect(left.atm_programs[0]).toMatchObject({ remaining: 42500000, as_of: "2025-06-30" });
    expect(left.evidence["atm_programs[0].remaining"]).toContain("$42.5 million of common stock remained available");
    const later = read(report(`${atm}<p>As of August 8, 2025, approximately $40.0 million remained available under the sales agreement.</p>`));
    expect(later.atm_programs[0]?.remaining).toBeNull();
  });

  it("multiplies prose amounts out under the notes' “(Dollars in thousands …)” heading", () => {
    const result = read(report(`<p>(Dollars in thousands, except per share amounts)</p>${atm.replace("$50.0 million", "$50,000").replace("$7.5 million", "$7,500")}`));
    expect(result.atm_programs[0]).toMatchObject({ max_amount: 50000000, gross_sold_in_period: 7500000 });
  });

  it("does not list a program whose sales are all told for an earlier year, and marks one used up in the period", () => {
    const html = report(
      "<p>2023 ATM Offering</p><p>In March 2023, the Company entered into the 2023 ATM Offering, under which it could offer and sell up to $100.0 million in shares of the Company’s common stock.</p>" +
        "<p>During the year ended December 31, 2023, the Company received gross proceeds of $100.0 million from the sale of 9,000,000 shares of its common stock under its 2023 ATM Offering.</p>" +
        "<p>2024 ATM Offering</p><p>In January 2024, the Company entered into the 2024 ATM Offering, under which it could offer and sell up to $200.0 million in shares of the Company’s common stock.</p>" +
        "<p>During the year ended December 31, 2024, the Company received net proceeds of approximately $196.0 million ($200.0 million of gross proceeds, net of $4.0 million in commissions) from the sale of 12,000,000 shares of its common stock under its 2024 ATM Offering. With the sale and issuance of these shares, all $200.0 million in shares of the Company’s common stock available for sale under its 2024 ATM Offering had been issued.</p>",
      { form: "10-K", period: "December 31, 2024" },
    );
    const result = read(html);
    expect(result.atm_programs).toHaveLength(1);
    expect(result.atm_programs[0]).toMatchObject({ max_amount: 200000000, shares_sold_in_period: 12000000, gross_sold_in_period: 200000000, remaining: 0, as_of: "2024-12-31" });
  });
});

describe("periodic reports: listing deficiencies", () => {
  it("reads a notice's kind from its listing rule and its date, open until a later paragraph says compliance was regained", () => {
    const notice = "<p>On March 10, 2025, the Company received a written notice from Nasdaq indicating that the Company was not in compliance with Nasdaq Listing Rule 5550(a)(2).</p>";
    expect(read(report(notice)).listing_deficiency).toEqual([{ kind: "minimum_bid_price", notice_date: "2025-03-10", status: "open" }]);
    const regained = read(report(`${notice}<p>On April 29, 2025, Nasdaq notified the Company that it had regained compliance with the minimum bid price requirement.</p>`));
    expect(regained.listing_deficiency).toEqual([{ kind: "minimum_bid_price", notice_date: "2025-03-10", status: "regained" }]);
    expect(regained.evidence["listing_deficiency[0].status"]).toContain("regained compliance");
  });

  it("does not take a risk factor's possibility for a notice", () => {
    expect(read(report("<p>If we fail to meet the minimum bid price requirement, we could receive a notice that we are not in compliance with Nasdaq rules.</p>")).listing_deficiency).toEqual([]);
  });
});

describe("periodic reports: a full .txt submission", () => {
  it("is routed to the periodic reader by its SEC header's form, with accession and filing date from the header", () => {
    const txt = [
      "<SEC-DOCUMENT>0001234567-25-000009.txt : 20250814",
      "<SEC-HEADER>0001234567-25-000009.hdr.sgml : 20250814",
      "ACCESSION NUMBER:\t\t0001234567-25-000009",
      "CONFORMED SUBMISSION TYPE:\t10-Q",
      "FILED AS OF DATE:\t\t20250814",
      "FILER:",
      "\tCOMPANY DATA:\t",
      "\t\tCOMPANY CONFORMED NAME:\t\t\tEXAMPLE BIOTECH, INC.",
      "\t\tCENTRAL INDEX KEY:\t\t\t0001234567",
      "\tFILING VALUES:",
      "\t\tFORM TYPE:\t\t10-Q",
      "\t\tSEC FILE NUMBER:\t001-40001",
      "</SEC-HEADER>",
      "<DOCUMENT>\n<TYPE>10-Q\n<SEQUENCE>1\n<FILENAME>ex-20250630x10q.htm\n<TEXT>",
      report("<p>On March 3, 2025, the Company effected a 1-for-20 reverse stock split of its common stock.</p>"),
      "</TEXT>\n</DOCUMENT>\n</SEC-DOCUMENT>\n",
    ].join("\n");
    expect(read(txt)).toMatchObject({
      accession: "0001234567-25-000009",
      filed: "2025-08-14",
      cik: 1234567,
      primary_document: "ex-20250630x10q.htm",
      period: "2025-06-30",
      reverse_splits: [{ ratio: "1-for-20", effective_date: "2025-03-03" }],
    });
  });
});

describe("periodic reports: scoring against ground truth", () => {
  const truth = (programs: unknown[]): GroundTruth => ({ accession: "0000000000-25-000001", kind: "periodic_10q", going_concern: false, atm_programs: programs });
  const program = (agent: string, max: number, soldToDate: number | null) => ({
    agent, max_amount: max, shares_sold_in_period: null, gross_sold_in_period: null, shares_sold_to_date: soldToDate, gross_sold_to_date: null, remaining: null, as_of: null,
  });

  it("matches list items by what they say, not by their order, and counts an item the truth lacks as invented", () => {
    const html = report("");
    const inspection = read(html);
    const read2 = { ...inspection, atm_programs: [program("Agent LLC", 200, 5), program("Agent LLC", 100, 7), program("Other LLC", 300, null)], evidence: {} };
    const score = scorePeriodicInspections([{ truth: truth([program("Agent LLC", 100, 7), program("Agent LLC", 200, 5)]), inspection: read2, visibleText: "" }]);
    expect(score.fields.find((f) => f.field === "atm_programs[].max_amount")).toMatchObject({ stated: 2, correct: 2, invented: 1 });
    expect(score.fields.find((f) => f.field === "atm_programs[].shares_sold_to_date")).toMatchObject({ stated: 2, correct: 2 });
    expect(score.mismatches.filter((m) => m.kind === "quote").map((m) => m.field)).toContain("atm_programs[0].max_amount");
  });
});

describe("periodic reports: equity lines (constructed)", () => {
  const sepa =
    "<p>On March 15, 2025, the Company entered into a Standby Equity Purchase Agreement (the “SEPA”) with YA II PN, Ltd. (“Yorkville”), pursuant to which the Company has the right, but not the obligation, to sell to Yorkville up to $20,000,000 of its shares of common stock during the 36 months following the execution of the SEPA.</p>" +
    "<p>During the six months ended June 30, 2025, the Company sold 1,234,567 shares under the SEPA for gross proceeds of $1.2 million.</p>";

  it("reads a standby equity purchase agreement: purchaser, commitment, and the availability left at the period end", () => {
    const result = read(report(`${sepa}<p>As of June 30, 2025, $18.8 million remained available under the SEPA (see Note 9).</p>`));
    expect(result.equity_lines).toEqual([{ counterparty: "YA II PN, Ltd.", commitment: 20000000, drawn_to_date: null, remaining: 18800000, as_of: "2025-06-30" }]);
    expect(result.evidence["equity_lines[0].commitment"]).toContain("up to $20,000,000");
    expect(result.evidence["equity_lines[0].remaining"]).toContain("As of June 30, 2025, $18.8 million remained available");
    expect(result.atm_programs).toEqual([]);
  });

  it("takes sales in the period for no total to date, and availability dated after the period end for none at it", () => {
    const result = read(report(`${sepa}<p>As of August 10, 2025, $17.0 million remained available under the SEPA.</p>`));
    expect(result.equity_lines[0]).toMatchObject({ drawn_to_date: null, remaining: null, as_of: null });
  });

  it("reads a common stock purchase agreement with an investor, and sales to date stated as such, in thousands too", () => {
    const html = report(
      "<p>(Dollars in thousands, except per share amounts)</p>" +
        "<p>On November 2, 2024, we entered into a purchase agreement (the “Purchase Agreement”) with Lincoln Park Capital Fund, LLC (“Lincoln Park”). Under the Purchase Agreement, Lincoln Park has committed to purchase up to $15,000 of our common stock from time to time over a 24-month period at our discretion.</p>" +
        "<p>As of June 30, 2025, the Company had sold an aggregate of 3,000,000 shares of common stock to Lincoln Park under the Purchase Agreement for aggregate gross proceeds of $2,400.</p>",
    );
    const result = read(html);
    expect(result.equity_lines).toEqual([{ counterparty: "Lincoln Park Capital Fund, LLC", commitment: 15000000, drawn_to_date: 2400000, remaining: null, as_of: "2025-06-30" }]);
    expect(result.evidence["equity_lines[0].drawn_to_date"]).toContain("aggregate gross proceeds of $2,400");
  });

  it("does not take an at-the-market program called an equity line, a registered direct offering, a plan, or a line terminated before the period", () => {
    const atmLine =
      "<p>On May 1, 2024, the Company entered into an equity line Sales Agreement with Example Securities, LLC, as sales agent, under which the Company may sell shares of its common stock having an aggregate offering price of up to $50.0 million. " +
      "During the six months ended June 30, 2025, the Company sold 2,500,000 shares under the sales agreement for gross proceeds of $7.5 million.</p>";
    const atm = read(report(atmLine));
    expect(atm.equity_lines).toEqual([]);
    expect(atm.atm_programs[0]).toMatchObject({ agent: "Example Securities, LLC", max_amount: 50000000 });
    const direct = "<p>On April 2, 2025, the Company entered into a securities purchase agreement with Example Fund LP for a registered direct offering of 2,000,000 shares of common stock and warrants, pursuant to which the investor agreed to purchase up to $3.0 million of shares.</p>";
    expect(read(report(direct)).equity_lines).toEqual([]);
    const plan = "<p>If we are unable to raise capital, we may enter into an equity line of credit with an investor such as White Lion Capital, LLC, which could result in substantial dilution.</p>";
    expect(read(report(plan)).equity_lines).toEqual([]);
    const ended =
      "<p>On January 5, 2023, the Company entered into a common stock purchase agreement (the “ELOC Agreement”) with Tumim Stone Capital LLC, under which the Company has the right, but not the obligation, to sell up to $10.0 million of its common stock to Tumim Stone Capital LLC.</p>" +
      "<p>On December 1, 2024, the Company terminated the ELOC Agreement.</p>";
    expect(read(report(ended)).equity_lines).toEqual([]);
  });
});

describe("periodic reports: convertibles (constructed)", () => {
  const note =
    "<p>On May 1, 2025, the Company issued a convertible promissory note (the “May 2025 Note”) to Example Capital LLC in the principal amount of $500,000. " +
    "The May 2025 Note bears interest at 10% per annum, matures on May 1, 2026 and is convertible into shares of common stock at a conversion price of $0.50 per share.</p>";

  it("reads a small cap's convertible promissory note: its principal as of the day it was issued, price and maturity", () => {
    const result = read(report(note));
    expect(result.convertibles).toEqual([{ kind: "note", name: "May 2025 Note", principal_or_stated_outstanding: 500000, conversion_price: 0.5, maturity: "2026-05-01", as_of: "2025-05-01" }]);
    expect(result.evidence["convertibles[0].principal_or_stated_outstanding"]).toContain("in the principal amount of $500,000");
    expect(result.evidence["convertibles[0].conversion_price"]).toContain("conversion price of $0.50 per share");
  });

  it("takes the principal outstanding at the period end when the report states it, after a partial conversion", () => {
    const result = read(
      report(
        `${note}<p>During June 2025, the holder converted $150,000 of principal of the May 2025 Note into 300,000 shares of common stock. As of June 30, 2025, the outstanding principal balance of the May 2025 Note was $350,000.</p>`,
      ),
    );
    expect(result.convertibles[0]).toMatchObject({ principal_or_stated_outstanding: 350000, as_of: "2025-06-30" });
    // converted in part, with no balance stated: the principal is no longer the outstanding one
    const partial = read(report(`${note}<p>During June 2025, the holder converted $150,000 of principal of the May 2025 Note into 300,000 shares of common stock.</p>`));
    expect(partial.convertibles[0]).toMatchObject({ principal_or_stated_outstanding: null, as_of: null, conversion_price: 0.5 });
  });

  it("gives no price for a variable conversion formula or a conversion rate alone", () => {
    const variable = read(
      report(
        "<p>On April 10, 2025, we issued a secured convertible debenture in the principal amount of $1,000,000, due April 10, 2026, convertible at a conversion price equal to the lesser of $0.40 per share or 75% of the lowest VWAP during the ten trading days prior to conversion.</p>",
      ),
    );
    expect(variable.convertibles).toEqual([{ kind: "note", name: "secured convertible debenture dated April 10, 2025", principal_or_stated_outstanding: 1000000, conversion_price: null, maturity: "2026-04-10", as_of: "2025-04-10" }]);
    const rate = read(report("<p>On February 3, 2025, the Company issued a convertible note in the principal amount of $2.0 million. Each $1,000 principal amount of the note is convertible into 250 shares of common stock.</p>"));
    expect(rate.convertibles[0]).toMatchObject({ principal_or_stated_outstanding: 2000000, conversion_price: null, maturity: null });
  });

  it("does not list a note converted or repaid in full by the period end, but does one converted after it", () => {
    expect(read(report(`${note}<p>On June 2, 2025, the May 2025 Note was converted in full into 1,000,000 shares of common stock.</p>`)).convertibles).toEqual([]);
    expect(read(report(`${note}<p>On June 20, 2025, the Company repaid the May 2025 Note in full.</p>`)).convertibles).toEqual([]);
    expect(read(report(`${note}<p>On July 15, 2025, the May 2025 Note was converted in full into 1,000,000 shares of common stock.</p>`)).convertibles).toHaveLength(1);
  });

  it("does not take shares issued on converting notes for notes issued", () => {
    expect(read(report("<p>On June 5, 2025, the Company issued 1,200,000 shares of common stock upon the conversion of $60,000 of principal of the convertible notes at a conversion price of $0.05 per share.</p>")).convertibles).toEqual([]);
  });

  it("reads a merged SPAC's public and private placement warrants, as of the closing or the day stated, with the public warrants' terms (and the private ones' when identical)", () => {
    const closing = read(
      report(
        "<p>On July 21, 2023 (the “Closing Date”), the Company completed its business combination with Example Acquisition Corp.</p>" +
          "<p>Upon the Closing, 14,479,999 warrants initially issued by Example Acquisition Corp. in February 2021, consisting of 9,200,000 public warrants sold in the IPO and 5,279,999 warrants issued in a concurrent private placement, were assumed by the Company.</p>" +
          "<p>Public warrants</p><p>Each whole public warrant entitles the holder to purchase one share of the Company’s common stock at a price of $11.50 per share. The public warrants will expire at 5:00 p.m., New York City time, on July 21, 2028, or earlier upon redemption.</p>" +
          "<p>Private placement warrants</p><p>Each private placement warrant was identical to the public warrants, except that the private placement warrants will not be redeemable by the Company.</p>",
        { period: "September 30, 2023" },
      ),
    );
    expect(closing.warrants).toEqual([
      { series: "Public warrants", shares_outstanding: 9_200_000, exercise_price: 11.5, expiry: "2028-07-21", as_of: "2023-07-21" },
      { series: "Private placement warrants", shares_outstanding: 5_279_999, exercise_price: 11.5, expiry: "2028-07-21", as_of: "2023-07-21" },
    ]);
    // the total the report states at the period end is given beside the series
    const withTotal = read(
      report(
        "<p>On July 21, 2023 (the “Closing Date”), the Company completed its business combination.</p><p>Upon the Closing, 14,479,999 warrants, consisting of 9,200,000 public warrants sold in the IPO and 5,279,999 warrants issued in a concurrent private placement, were assumed by the Company.</p>" +
          "<p>As of September 30, 2023, there were 14,479,999 warrants outstanding.</p>",
        { period: "September 30, 2023" },
      ),
    );
    expect(withTotal.warrants).toHaveLength(2);
    expect(withTotal.warrants_total).toEqual({ shares_outstanding: 14_479_999, weighted_average_exercise_price: null, as_of: "2023-09-30" });
    const periodEnd = read(
      report(
        "<p>As of June 30, 2025, there were 5,750,000 Public Warrants and 3,000,000 Private Placement Warrants outstanding.</p>" +
          "<p>Each whole public warrant entitles the registered holder to purchase one share of Class A common stock at a price of $11.50 per share.</p>",
      ),
    );
    expect(periodEnd.warrants).toEqual([
      { series: "Public warrants", shares_outstanding: 5_750_000, exercise_price: 11.5, expiry: null, as_of: "2025-06-30" },
      { series: "Private placement warrants", shares_outstanding: 3_000_000, exercise_price: null, expiry: null, as_of: "2025-06-30" },
    ]);
    // a count with no day is not read
    expect(read(report("<p>The sponsor purchased 3,000,000 private placement warrants and the IPO sold 5,750,000 public warrants.</p>")).warrants).toEqual([]);
  });

  it("reads 'no warrants outstanding' at the period end as none, an equity line's commitment stated at the period end as of it, and no note from stock given for notes", () => {
    const inspection = read(
      report(
        "<p>There are no unexercised warrants outstanding at June 30, 2025.</p>" +
          "<p>On December 29, 2024, we entered into an Equity Purchase Agreement with Example Partners LLC. Under the Equity Purchase Agreement, we can issue up to an aggregate of $10 million worth of shares of our common stock at June 30, 2025 over a two-year period.</p>" +
          "<p>The Company issued common stock and warrants as consideration for the convertible notes.</p>",
      ),
    );
    expect(inspection.warrants_total).toEqual({ shares_outstanding: 0, weighted_average_exercise_price: null, as_of: "2025-06-30" });
    expect(inspection.equity_lines).toEqual([{ counterparty: "Example Partners LLC", commitment: 10_000_000, drawn_to_date: null, remaining: null, as_of: "2025-06-30" }]);
    expect(inspection.convertibles).toEqual([]);
  });

  it("reads ATM sales told for 'the three and six months' with 'respectively' (the longer period's), sales 'From … through' the period end as to date with their gross proceeds (not the average price), and lists no preferred of which none was left", () => {
    const atm = read(
      report(
        "<p>On April 14, 2017, the Company entered into the ATM Offering Agreement with Example Fitzgerald &amp; Co. acting as the sales agent.</p>" +
          "<p>During the three and six months ended June 30, 2025, the Company sold 0.5 million and 1.8 million shares of common stock for net proceeds of $0.2 million and $0.8 million, respectively, pursuant to the ATM Offering Agreement. The Company sold 0.8 million and 2.3 million shares of common stock for net proceeds of $0.7 million and $2.2 million, respectively, pursuant to the ATM Offering Agreement for the three and six months ended June 30, 2024.</p>",
      ),
    );
    expect(atm.atm_programs).toEqual([expect.objectContaining({ shares_sold_in_period: 1_800_000, gross_sold_in_period: null, as_of: "2025-06-30" })]);
    const toDate = read(
      report(
        "<p>On June 21, 2024, the Company initiated the June 2024 ATM Program with an aggregate offering price of up to $75.0 million. From June 21, 2024 through June 30, 2025, the Company sold an aggregate of 1,607,739 shares of common stock under the June 2024 ATM Program at an average price of approximately $5.86 per share for gross proceeds of approximately $9.4 million.</p>",
      ),
    );
    expect(toDate.atm_programs).toEqual([expect.objectContaining({ max_amount: 75_000_000, shares_sold_to_date: 1_607_739, gross_sold_to_date: 9_400_000, as_of: "2025-06-30" })]);
    const converted = read(
      report(
        "<p>We sold to the investors an aggregate of 30,000 shares of Series A Participating Convertible Preferred Stock (Series A Preferred Stock). Each share of Series A Preferred Stock is convertible into 200 shares of common stock, reflecting a conversion price equal to $5.00 per share. As of June 30, 2025, no shares of our Series A Preferred Stock remained outstanding.</p>",
      ),
    );
    expect(converted.convertibles).toEqual([]);
  });

  it("reads notes the company says it has at the period end with their face value, and an equity line's investor whose name ends in LTD", () => {
    const held = read(
      report(
        "<p>We have convertible notes payable to related parties with a face value of $0.2 million at June 30, 2025 and December 31, 2024. These notes were issued between May and August 2022, have a fixed conversion price of $0.13, accrue interest at 8.0% interest per annum.</p>" +
          "<p>On May 30, 2025, the Company entered into the Standby Equity Purchase Agreement (the “SEPA”) with YA Example PN, LTD, a Cayman Islands exempt limited company (the “SEPA Investor”) pursuant to which the Company has the right to sell to the SEPA Investor up to $100 million of Common Stock.</p>",
      ),
    );
    expect(held.convertibles).toEqual([{ kind: "note", name: "convertible notes payable to related parties", principal_or_stated_outstanding: 200_000, conversion_price: 0.13, maturity: null, as_of: "2025-06-30" }]);
    expect(held.equity_lines).toEqual([expect.objectContaining({ counterparty: "YA Example PN, LTD", commitment: 100_000_000 })]);
  });

  it("reads a named series' state at the period end from its sentence, with the expiry the notes give it, and not a pre-funded series exercised in full", () => {
    const inspection = read(
      report(
        "<p>The December 2024 Common Warrants were exercisable immediately and will expire on December 1, 2029.</p>" +
          "<p>As of June 30, 2025, the December 2024 Pre-Funded Warrants had been exercised in full, and December 2024 Common Warrants to purchase 4,204,546 shares of common stock remain outstanding at an exercise price of $1.32 per share.</p>",
      ),
    );
    expect(inspection.warrants).toEqual([{ series: "December 2024 Common Warrants", shares_outstanding: 4_204_546, exercise_price: 1.32, expiry: "2029-12-01", as_of: "2025-06-30" }]);
  });

  it("reads a preferred series named by a number, its price 'initially equal to', and keeps it when only some shares of it were converted", () => {
    const inspection = read(
      report(
        "<p>As of June 30, 2025, 7,991 shares of Series 1 Convertible Preferred Stock were issued and outstanding. Each share of Series 1 Convertible Preferred Stock is convertible into approximately 1,000 shares of common stock, at a conversion price initially equal to approximately $7.01 per common share, subject to certain adjustments.</p>" +
          "<p>During May 2025, approximately 36 shares of Series 1 Convertible Preferred Stock were converted into 35,823 shares of common stock.</p>",
      ),
    );
    expect(inspection.convertibles).toEqual([expect.objectContaining({ kind: "preferred", name: "Series 1 Convertible Preferred Stock", conversion_price: 7.01, as_of: "2025-06-30" })]);
  });

  it("reads warrants whose name is defined before their count, as issued on the paragraph's day, and notes named by the term they define", () => {
    const inspection = read(
      report(
        "<p>On May 24, 2025, the Company issued senior convertible notes with an aggregate principal amount of $27,173,913 due February 24, 2027. The holders of the Convertible Notes also received fully vested warrants (the “Note Warrants”) to purchase 9,057,971 shares of the Company’s common stock at an exercise price of $2.85 per share.</p>" +
          "<p>In March 2025, the Company issued $3.3 million aggregate principal amount Original Issue Discount Senior Secured Convertible Debentures (the “Secured Convertible Notes”). The Secured Convertible Notes are due November 1, 2026.</p>" +
          "<p>The Secured Convertible Notes may be converted for a conversion price equal to $1.30 per share (“Conversion Price”) at any time at the election of the holder.</p>",
      ),
    );
    expect(inspection.warrants).toEqual([{ series: "Note Warrants", shares_outstanding: 9_057_971, exercise_price: 2.85, expiry: null, as_of: "2025-05-24" }]);
    expect(inspection.convertibles).toContainEqual(expect.objectContaining({ name: "Secured Convertible Notes", conversion_price: 1.3, maturity: "2026-11-01" }));
  });

  it("reads a lettered series issued in the period with its price and last day, and not one exercised in full", () => {
    const inspection = read(
      report(
        "<p>In May 2025, the Company entered into a warrant exercise inducement offer letter pursuant to which the holders agreed to exercise Series E warrants in exchange for the Company issuing new Series F warrants to purchase 64,864,864 shares of the Company's common stock. Each Series F warrant had an exercise price of $0.55 per share and is exercisable as of the date of issuance to October 16, 2030.</p>" +
          "<p>In April 2025, the Company issued Series D warrants to purchase 1,000,000 shares of common stock. In June 2025, all of the Series D warrants were exercised.</p>",
      ),
    );
    expect(inspection.warrants).toEqual([{ series: "Series F warrants", shares_outstanding: 64_864_864, exercise_price: 0.55, expiry: "2030-10-16", as_of: null }]);
  });

  it("reads an ATM program's agent that 'acts as sales agent', its size as reduced, and shares sold 'since the inception of the program' in thousands", () => {
    const inspection = read(
      report(
        "<p>B. Example Securities, Inc. acts as sales agent for the Company’s ATM program, which allows the Company to potentially sell up to $50.0 million of the Company’s common stock. As a result, the Company filed a prospectus supplement relating to offerings under the program that reduced the amount the Company may sell to aggregate proceeds of up to $15 million. As of June 30, 2025, the Company has received proceeds of approximately $12.2 million net of fees from the sales of 498 thousand shares of common stock since the inception of the program.</p>",
      ),
    );
    expect(inspection.atm_programs).toEqual([expect.objectContaining({ agent: "B. Example Securities, Inc.", max_amount: 15_000_000, shares_sold_to_date: 498_000, gross_sold_to_date: null, as_of: "2025-06-30" })]);
  });

  it("reads the warrants' total from 'allow the holders to purchase up to N shares … as of' the period end", () => {
    const inspection = read(report("<p>The warrants are either immediately exercisable, or have a delayed initial exercise date, and allow the holders to purchase up to 4,699,645 shares of common stock at $2.60 to $16.50 per share as of June 30, 2025.</p>"));
    expect(inspection.warrants_total).toEqual({ shares_outstanding: 4_699_645, weighted_average_exercise_price: null, as_of: "2025-06-30" });
  });

  it("does not list a convertible note the company invested in, nor a risk factor's possibility", () => {
    expect(read(report("<p>During the six months ended June 30, 2025, the Company invested in a $4.5 million convertible note issued by Example Startup, Inc., convertible at $2.00 per share.</p>")).convertibles).toEqual([]);
    // the amount between the words, and an agreement entered into first
    expect(read(report("<p>In Q2 2025, we entered into an agreement and invested $1.3 billion in a third convertible note, and will invest an additional $2.7 billion by Q4 2025.</p>")).convertibles).toEqual([]);
    expect(read(report("<p>If we issue convertible notes in the future, the Company could issue a convertible note at a conversion price of $0.10 per share, which would dilute our stockholders.</p>")).convertibles).toEqual([]);
  });

  it("reads a debt table's convertible notes row for the period end's column, in millions, with its footnote's price", () => {
    const html = report(
      "<p>NOTE 7. DEBT</p><p>The carrying value of our debt was as follows (in millions):</p>" +
        "<table><tr><td></td><td>December 31, 2024</td><td>June 30, 2025</td></tr>" +
        "<tr><td>Term loan</td><td>$</td><td>100</td><td>$</td><td>90</td></tr>" +
        "<tr><td>Convertible notes (a)</td><td>1,150</td><td>1,000</td></tr>" +
        "<tr><td>Total debt</td><td>1,250</td><td>1,090</td></tr></table>" +
        "<p>(a) As of June 30, 2025, each $1,000 principal amount of the notes is convertible into 40.0 shares of our common stock, which is equivalent to a conversion price of approximately $25.00 per share.</p>" +
        "<p>The following securities were excluded from diluted net loss per share as anti-dilutive:</p>" +
        "<table><tr><td></td><td>June 30, 2025</td><td>June 30, 2024</td></tr><tr><td>Convertible notes</td><td>40,000,000</td><td>46,000,000</td></tr></table>",
    );
    const result = read(html);
    expect(result.convertibles).toEqual([{ kind: "note", name: "Convertible notes", principal_or_stated_outstanding: 1000000000, conversion_price: 25, maturity: null, as_of: "2025-06-30" }]);
    expect(result.evidence["convertibles[0].principal_or_stated_outstanding"]).toBe("Convertible notes (a) 1,150 1,000");
  });

  it("reads convertible preferred stock with its conversion price and the total stated value outstanding", () => {
    const result = read(
      report(
        "<p>Each share of Series B Convertible Preferred Stock is convertible into common stock at a conversion price of $2.00 per share. " +
          "As of June 30, 2025, 1,500 shares of Series B Convertible Preferred Stock with an aggregate stated value of $1,500,000 were outstanding.</p>",
      ),
    );
    expect(result.convertibles).toEqual([{ kind: "preferred", name: "Series B Convertible Preferred Stock", principal_or_stated_outstanding: 1500000, conversion_price: 2, maturity: null, as_of: "2025-06-30" }]);
  });
});

describe("periodic reports: small-cap warrant and going-concern wording (constructed)", () => {
  it("reads an activity table closed by “Outstanding at <period end>”, headed by shares under a warrant heading", () => {
    const result = read(
      report(
        "<p>A summary of the Company’s warrant activity for the six months ended June 30, 2025 is as follows:</p>" +
          "<table><tr><td></td><td>Shares</td><td>Weighted Average Exercise Price</td></tr>" +
          "<tr><td>Outstanding at December 31, 2024</td><td>4,000,000</td><td>$</td><td>1.10</td></tr>" +
          "<tr><td>Granted</td><td>1,250,000</td><td>$</td><td>1.75</td></tr>" +
          "<tr><td>Outstanding at June 30, 2025</td><td>5,250,000</td><td>$</td><td>1.25</td></tr></table>",
      ),
    );
    expect(result.warrants_total).toEqual({ shares_outstanding: 5250000, weighted_average_exercise_price: 1.25, as_of: "2025-06-30" });
  });

  it("reads warrants outstanding told in a sentence, and not warrants the company holds in another company", () => {
    const result = read(report("<p>As of June 30, 2025, there were 5,250,000 warrants outstanding with a weighted average exercise price of $1.25 per share.</p>"));
    expect(result.warrants_total).toEqual({ shares_outstanding: 5250000, weighted_average_exercise_price: 1.25, as_of: "2025-06-30" });
    expect(result.evidence["warrants_total.shares_outstanding"]).toContain("5,250,000 warrants outstanding");
    const shares = read(report("<p>At June 30, 2025, the Company had outstanding warrants to purchase 2,100,000 shares of common stock.</p>"));
    expect(shares.warrants_total).toEqual({ shares_outstanding: 2100000, weighted_average_exercise_price: null, as_of: "2025-06-30" });
    const held = read(report("<p>As of June 30, 2025, the Company held 1,000,000 warrants of Example Partner, Inc. outstanding with an exercise price of $3.00 per share, recorded as investments.</p>"));
    expect(held.warrants_total).toBeNull();
  });

  it("takes going-concern doubt stated of the company, not doubt that could arise", () => {
    expect(read(report("<p>Management has concluded that these conditions raise substantial doubt about the Company’s ability to continue as a going concern within one year after the date the financial statements are issued.</p>")).going_concern).toBe(true);
    expect(read(report("<p>Substantial doubt about our ability to continue as a going concern may arise if we are unable to obtain additional financing.</p>")).going_concern).toBe(false);
  });
});

describe("periodic reports: scoring equity lines", () => {
  it("scores equity lines like the other lists: matched by content, a line the truth lacks invented", () => {
    const line = { counterparty: "YA II PN, Ltd.", commitment: 20000000, drawn_to_date: null, remaining: 18800000, as_of: "2025-06-30" };
    const inspection = { ...read(report("")), equity_lines: [{ ...line, counterparty: "YA II PN Ltd" }, { ...line, counterparty: "Other Fund LLC", commitment: 5, remaining: 1 }], evidence: {} };
    const truth: GroundTruth = { accession: "0000000000-25-000001", kind: "periodic_10q", going_concern: false, equity_lines: [line] };
    const score = scorePeriodicInspections([{ truth, inspection, visibleText: "" }]);
    expect(score.fields.find((f) => f.field === "equity_lines[].counterparty")).toMatchObject({ stated: 1, correct: 1, invented: 1 });
    expect(score.fields.find((f) => f.field === "equity_lines[].remaining")).toMatchObject({ stated: 1, correct: 1, invented: 1 });
    expect(score.mismatches.filter((m) => m.kind === "quote").map((m) => m.field)).toContain("equity_lines[0].commitment");
  });
});

/**
 * Real wordings of small-cap 10-Qs and 10-Ks, trimmed to the paragraph or table
 * that matters and the filer's own name replaced by "the Company"; sentence
 * structure and figures are as filed. Each test names where the wording was
 * found (the SEC's rendering of the filing's XBRL note, "R<n>.htm", or the
 * primary document stored in a public repository).
 */
describe("periodic reports: real small-cap wordings", () => {
  // SEC EDGAR 1063537/000143774923024297/R20.htm (10-Q, June 30, 2023), Note 15 "NASDAQ Stock Market LLC (NASDAQ) Notices"
  it("reads notices told as “Nasdaq notified us that we are not in compliance”, and “have not regained compliance” keeps one open", () => {
    const result = read(
      report(
        "<p>NOTE 15. NASDAQ STOCK MARKET LLC (NASDAQ) NOTICES</p>" +
          "<p>On July 10, 2023, Nasdaq notified us that we are not in compliance with Nasdaq’s audit committee composition requirements which require that our Board’s audit committee be comprised of at least three independent directors, as defined in Nasdaq Listing Rule 5605(a)(2). Our audit committee is currently comprised of two independent directors and one vacancy. Pursuant to Nasdaq Listing Rule 5605(c)(4), we have until (i) the earlier of our next annual meeting of stockholders or June 12, 2024; or (ii) December 11, 2023, if the next annual meeting of stockholders is held before December 11, 2023.</p>" +
          "<p>On June 13, 2023, Nasdaq notified us that we are not in compliance with Nasdaq’s minimum bid price requirement of Nasdaq Listing Rule 5550(a)(2) which requires us to maintain a minimum bid price of $1.00 per share. To regain compliance with this listing rule, the closing bid price of our common stock has to be at least $1.00 per share for a period of Nasdaq’s discretion, of at least 10, but not to exceed 20, consecutive business days. We have until December 11, 2023, to regain compliance under Nasdaq’s Listing Rules. As of the date of this filing, we have not regained compliance with the minimum bid price requirement. We may be eligible for and obtain from Nasdaq an additional compliance period.</p>",
        { period: "June 30, 2023" },
      ),
    );
    expect(result.listing_deficiency).toEqual([
      { kind: "other", notice_date: "2023-07-10", status: "open" },
      { kind: "minimum_bid_price", notice_date: "2023-06-13", status: "open" },
    ]);
    expect(result.evidence["listing_deficiency[1].notice_date"]).toContain("Nasdaq notified us that we are not in compliance");
  });

  // SEC EDGAR 1063537/000143774922025781/R19.htm (10-Q, September 30, 2022), Note 14 "Failure to Comply with NASDAQ Listing Requirements"
  it("reads a notice regained later in the same note", () => {
    const result = read(
      report(
        "<p>On September 15, 2021, we received a notification letter from The Nasdaq Stock Market LLC (Nasdaq) indicating that we have failed to comply with the minimum bid price requirement of Nasdaq Listing Rule 5550(a)(2). Nasdaq Listing Rule 5550(a)(2) requires that companies listed on the Nasdaq Capital Market maintain a minimum bid price of $1.00. To regain compliance with this listing rule, the closing bid price of our common stock had to be at least $1.00 for a period of Nasdaq’s discretion, of at least 10, but not to exceed 20, consecutive business days. On September 12, 2022, Nasdaq notified us that we had regained compliance with the minimum bid price requirement and the matter was closed.</p>",
        { period: "September 30, 2022" },
      ),
    );
    expect(result.listing_deficiency).toEqual([{ kind: "minimum_bid_price", notice_date: "2021-09-15", status: "regained" }]);
  });

  // SEC EDGAR 1659617/000143774923013582/R13.htm (10-Q, March 31, 2023), Note 7 "Subsequent Events"
  it("reads a bid-price letter that says the price “had closed below the minimum $1.00 per share requirement”", () => {
    const result = read(
      report(
        "<p>On May 5, 2023, the Company received a letter from NASDAQ notifying the Company that for the last 30 consecutive business days the bid price for the Company's common stock had closed below the minimum $1.00 per share requirement for continued inclusion on the Nasdaq Capital Market pursuant to Nasdaq Listing Rule 5550(a)(2) (the \"Bid Price Rule\"). The deficiency letter does not result in the immediate delisting of the Company's common stock from the Nasdaq Capital Market. In accordance with Nasdaq Listing Rule 5810(c)(3)(A), the Company has been provided an initial period of 180 calendar days, or until November 1, 2023, to regain compliance with the Bid Price Rule. If the Company is not in compliance with the Bid Price Rule by November 1, 2023, the Company may be afforded a second 180 calendar day period to regain compliance.</p>",
        { period: "March 31, 2023" },
      ),
    );
    expect(result.listing_deficiency).toEqual([{ kind: "minimum_bid_price", notice_date: "2023-05-05", status: "open" }]);
  });

  // SEC EDGAR 1211805/000121390020006893/R20.htm (10-K): "the Company was notified by …"; a split only authorized is not effected
  it("reads a notice told in the passive, and not a reverse split the board was only authorized to effect", () => {
    const result = read(
      report(
        "<p>On January 22, 2019, the Company was notified by the Nasdaq Stock Market, LLC (\"Nasdaq\") that the Company was not in compliance with the minimum bid price requirements set forth in Nasdaq Listing Rule 5550(a)(2) for continued listing on the Nasdaq Capital Market. The notification provided that the Company had 180 calendar days, or until July 22, 2019, to regain compliance with Nasdaq Listing Rule 5550(a)(2).</p>" +
          "<p>Previously, on August 5, 2019, at the annual meeting of the Company's stockholders, discretionary authority was granted to the Company's board of directors to effect a reverse stock split at any time until August 5, 2020 at a ratio within the range from one for two up to one for thirty.</p>",
        { form: "10-K", period: "December 31, 2019" },
      ),
    );
    expect(result.listing_deficiency).toEqual([{ kind: "minimum_bid_price", notice_date: "2019-01-22", status: "open" }]);
    expect(result.reverse_splits).toEqual([]);
  });

  // SEC EDGAR 1108205/000110820522000023/R17.htm (10-Q, September 30, 2022), Note "Common Stock", (b) 2021 Sales Agreement
  it("reads an ATM with co-agents, sales “during the three and nine months ended”, and the capacity that “remained available”", () => {
    const result = read(
      report(
        "<p>(b)2021 Sales Agreement with Cantor Fitzgerald &amp; Co. and JonesTrading Institutional Services LLC</p>" +
          "<p>In March 2021, the Company entered into a sales agreement (the “2021 Sales Agreement”) with Cantor Fitzgerald &amp; Co., or Cantor, and JonesTrading Institutional Services LLC, or JonesTrading, to sell from time to time up to $100.0 million of the Company’s common stock through an “at the market offering” program under which Cantor and JonesTrading act as sales agents.</p>" +
          "<p>The Company sold 4,583,695 shares of common stock under the 2021 Sales Agreement during the three and nine months ended September 30, 2022, representing gross proceeds of $6.3 million. As of September 30, 2022, $93.7 million remained available for sale under the 2021 Sales Agreement.</p>",
        { period: "September 30, 2022" },
      ),
    );
    expect(result.atm_programs).toEqual([
      {
        agent: "Cantor Fitzgerald & Co.",
        max_amount: 100000000,
        shares_sold_in_period: 4583695,
        gross_sold_in_period: 6300000,
        shares_sold_to_date: null,
        gross_sold_to_date: null,
        remaining: 93700000,
        as_of: "2022-09-30",
        in_period_label: "nine months ended September 30, 2022",
      },
    ]);
    expect(result.evidence["atm_programs[0].remaining"]).toContain("As of September 30, 2022, $93.7 million remained available");
  });

  // SEC EDGAR 1445499/000095017023063759/R15.htm (10-Q, September 30, 2023), Note 9 "Common Stock", Open Market Sales Agreement
  it("reads capacity that “remain[s] eligible for sale”, a size “up to an aggregate amount of gross sales proceeds of”, and keeps sales after the period out", () => {
    const result = read(
      report(
        "<p>Open Market Sales Agreement</p>" +
          "<p>In May 2022, the Company entered into a sales agreement with Cowen and Company, LLC, as a sales agent, pursuant to which the Company may offer and sell shares of its common stock, from time to time, up to an aggregate amount of gross sales proceeds of $50.0 million through an at-the-market Program (the “2022 ATM Program”), under the 2022 Shelf Registration Statement. As of September 30, 2023, $45.0 million in shares of common stock remain eligible for sale under the 2022 ATM Program. In October 2023, the Company filed a prospectus supplement related to its 2022 ATM Program reflecting the Company’s sale restrictions pursuant to General Instruction I.B.6 of Form S-3 and registering the sale of up to $9.0 million through the 2022 ATM Program. Since such filing through the date of this Form 10-Q, the Company has sold 151,026 shares of its common stock under the 2022 ATM Program for gross proceeds of approximately $65,000 at an average price of $0.4293.</p>",
        { period: "September 30, 2023" },
      ),
    );
    expect(result.atm_programs).toEqual([
      { agent: "Cowen and Company, LLC", max_amount: 50000000, shares_sold_in_period: null, gross_sold_in_period: null, shares_sold_to_date: null, gross_sold_to_date: null, remaining: 45000000, as_of: "2023-09-30" },
    ]);
  });

  // SEC EDGAR 1604950/000156459020024648/R15.htm (10-Q, March 31, 2020), Note 9 "Stockholders’ Equity"
  it("reads “sold a total of … ATM Shares” for net proceeds only, and a sale “which completed the ATM program” as used up", () => {
    const result = read(
      report(
        "<p>At-the-Market Issuance Sales Agreement</p>" +
          "<p>On August 23, 2019, the Company entered into an Open Market Sale AgreementSM (“ATM Agreement”), with Jefferies LLC (“Jefferies”) with respect to an at-the-market offering program under which the Company may offer and sell, from time to time at its sole discretion, shares of its common stock, par value $0.0001 per share (the “ATM Shares”), having an aggregate offering price of up to $15.0 million through Jefferies as its sales agent.</p>" +
          "<p>During the three months ended March 31, 2020, the Company sold a total of 1,502,892 ATM Shares under the ATM Agreement, in the open market, at a weighted average gross selling price of $7.13 per share for net proceeds of $10.4 million, which completed the ATM program.</p>",
        { period: "March 31, 2020" },
      ),
    );
    expect(result.atm_programs).toEqual([
      {
        agent: "Jefferies LLC",
        max_amount: 15000000,
        shares_sold_in_period: 1502892,
        gross_sold_in_period: null,
        shares_sold_to_date: null,
        gross_sold_to_date: null,
        remaining: 0,
        as_of: "2020-03-31",
        in_period_label: "three months ended March 31, 2020",
      },
    ]);
  });

  // SEC EDGAR 1763950/000149315225021927/R11.htm (10-Q, September 30, 2025), Note 2 "Liquidity and Going Concern"
  it("reads sales “during the quarter ended” the period end, and leaves sales after it out", () => {
    const result = read(
      report(
        "<p>In July 2025, the Company entered into an ATM Sales Agreement (“ATM”), with ThinkEquity LLC (“ThinkEquity”), as sales agent, pursuant to which the Company may offer and sell up to $15,530,000 of its common stock from time to time, in “at-the-market” offerings to or through its sales agent. During the quarter ended September 30, 2025, we sold shares of common stock under the ATM for the gross proceeds of $989,061 and paid ThinkEquity $29,672 of commissions. Between October 1, 2025 and the date of this report, we have sold an additional shares of common stock under the ATM for the gross proceeds of $634,333 and paid ThinkEquity $19,030 of commissions.</p>",
        { period: "September 30, 2025" },
      ),
    );
    expect(result.atm_programs).toEqual([
      {
        agent: "ThinkEquity LLC",
        max_amount: 15530000,
        shares_sold_in_period: null,
        gross_sold_in_period: 989061,
        shares_sold_to_date: null,
        gross_sold_to_date: null,
        remaining: null,
        as_of: "2025-09-30",
        in_period_label: "quarter ended September 30, 2025",
      },
    ]);
  });

  // SEC EDGAR 1226616/000119312525277779/R14.htm (10-Q, September 30, 2025), Note 6 "Stockholders’ Equity"
  it("lists an ATM with no sale in the period as sold 0, and reads a SEPA whose purchaser’s name is in capitals (“YA II PN, LTD.”)", () => {
    const result = read(
      report(
        "<p>At-The-Market Issuance Sales Agreements and Private Placement Transactions</p>" +
          "<p>On August 23, 2019, the Company entered into an at the market issuance sales agreement, which was amended on August 26, 2022 (as amended, the ATM Agreement) with B. Riley FBR, Inc. (B. Riley FBR) pursuant to which the Company may sell common stock through B. Riley FBR from time to time up to an aggregate offering price of $75.0 million.</p>" +
          "<p>No shares of common stock were sold under the ATM Agreement in the nine months ended September 30, 2025 and 2024, respectively.</p>" +
          "<p>Standby Equity Purchase Agreement</p>" +
          "<p>On July 30, 2025, the Company entered into a Standby Equity Purchase Agreement, or the SEPA with YA II PN, LTD., a Cayman Islands exempt limited company, or Yorkville. Pursuant to the SEPA, the Company has the right, but not the obligation, to sell to Yorkville from time to time up to $30.0 million of its common stock, during the 36 months following the execution of the SEPA, subject to the restrictions and satisfaction of the conditions in the SEPA.</p>",
        { period: "September 30, 2025" },
      ),
    );
    expect(result.atm_programs).toEqual([
      {
        agent: "B. Riley FBR, Inc.",
        max_amount: 75000000,
        shares_sold_in_period: 0,
        gross_sold_in_period: null,
        shares_sold_to_date: null,
        gross_sold_to_date: null,
        remaining: null,
        as_of: "2025-09-30",
        in_period_label: "nine months ended September 30, 2025",
      },
    ]);
    expect(result.equity_lines).toEqual([{ counterparty: "YA II PN, LTD.", commitment: 30000000, drawn_to_date: null, remaining: null, as_of: null }]);
  });

  // SEC EDGAR 1649989/000155837024001172/R8.htm (10-Q, December 31, 2023), Note 2 "Liquidity"; and
  // SEC EDGAR 1267602/000126760220000118 (10-Q, September 30, 2020), Note 6 "Going Concern" (via irdirect.net)
  it("takes “As a result, there is substantial doubt …” and “In management’s opinion … raises substantial doubt …” for doubt", () => {
    expect(
      read(
        report(
          "<p>The Company has incurred recurring losses and negative cash flows from operations since its inception and has an accumulated deficit of $479,096,425 as of December 31, 2023. As of December 31, 2023, the Company had $37,666,716 of principal, accrued interest and exit fees due under an unsecured convertible promissory note issued in December 2022 (the “December 2022 Note”), maturing on April 1, 2024. As a result, there is substantial doubt about the Company’s ability to continue as a going concern.</p>",
          { period: "December 31, 2023" },
        ),
      ).going_concern,
    ).toBe(true);
    expect(
      read(
        report(
          "<p>The accompanying Interim Financial Statements have been prepared on a going concern basis, which contemplates the realization of assets and the satisfaction of liabilities in the normal course of business. The Interim Financial Statements do not include any adjustments that might result from the outcome of this uncertainty.</p>" +
            "<p>Further, the Company must maintain compliance with the debt covenants of its $45,000,000 Loan and Security Agreement with Solar Capital Ltd., as amended (see Note 10). In management’s opinion, the uncertainty regarding future revenues raises substantial doubt about the Company’s ability to continue as a going concern without access to additional debt and/or equity financing over the course of the next twelve months.</p>",
          { period: "September 30, 2020" },
        ),
      ).going_concern,
    ).toBe(true);
  });

  // dgunning/edgartools data/xbrl/datafiles/aeon/aeon-20230930x10q.htm (AEON Biopharma 10-Q, September 30, 2023, a de-SPAC)
  it("lists no convertible note when the report says none was outstanding at the period end, or that each was converted at a merger", () => {
    const result = read(
      report(
        "<p>The Predecessor issued a convertible promissory note to SCH (the “SCH Convertible Note”). Pursuant to the terms of the SCH Convertible Note, the Predecessor was required to repay 175% of the principal amount to SCH on the third anniversary of its issuance.</p>" +
          "<p>The SCH Convertible Note was converted into shares of the Successor’s common stock at the Closing and was recorded “on the line” as part of the shares issued as consideration in the Merger (see Note 3).</p>" +
          "<p>In May 2021, the Daewoong Purchase Agreement was amended to provide for the issuance of an additional subordinated convertible promissory note by the Predecessor to Daewoong at an initial principal amount of $5.0 million. The subordinated convertible promissory note was issued with terms similar to the two subordinated convertible promissory notes issued in 2020 and had a maturity date of May 12, 2026 (all such convertible promissory notes, the “Daewoong Convertible Notes”).</p>" +
          "<p>On July 29, 2022, we entered into a Convertible Promissory Note Purchase Agreement between us and Daewoong (the “2022 Daewoong Note Purchase Agreement”), for total available financing of $30 million. The 2022 Daewoong Note had a maturity date of December 29, 2023.</p>" +
          "<p>The carrying value of cash, accounts payable, accrued liabilities, convertible notes approximate fair value because of the short-term nature of those instruments. There were no convertible notes outstanding at September 30, 2023.</p>",
        { period: "September 30, 2023" },
      ),
    );
    expect(result.convertibles).toEqual([]);
  });

  // dgunning/edgartools data/xbrl/datafiles/aeon/aeon-20230930x10q.htm: the anti-dilutive table of a de-SPAC, its columns "Successor | Predecessor"
  it("reads the warrants of an anti-dilutive table whose period column is labelled Successor", () => {
    const result = read(
      report(
        "<p>The following outstanding potentially dilutive securities were excluded from the computation of diluted net loss per share because their effect would have been anti-dilutive:</p>" +
          "<table><tr><td></td><td>September 30,</td></tr><tr><td></td><td>2023</td><td>2022</td></tr><tr><td></td><td>Successor</td><td>Predecessor</td></tr>" +
          "<tr><td>Warrants</td><td>14,479,999</td><td>—</td></tr><tr><td>Contingent consideration</td><td>16,000,000</td><td>—</td></tr>" +
          "<tr><td>Convertible preferred stock warrants outstanding</td><td>—</td><td>342,011</td></tr></table>",
        { period: "September 30, 2023" },
      ),
    );
    expect(result.warrants_total).toEqual({ shares_outstanding: 14479999, weighted_average_exercise_price: null, as_of: "2023-09-30" });
  });

  // SEC EDGAR 1385818/000143774925034825/R22.htm (10-Q, September 30, 2025), Note 16 "Warrants"
  it("reads a table of warrants outstanding by series name (no expiry column), prefunded rows flagged", () => {
    const result = read(
      report(
        "<p>The number of warrants and prefunded warrants outstanding as of September 30, 2025, is as follows:</p>" +
          "<table><tr><td></td><td></td><td></td><td>Remaining</td></tr>" +
          "<tr><td></td><td>Number</td><td>Exercise</td><td>Contractual</td></tr>" +
          "<tr><td>Description</td><td>Outstanding</td><td>Price</td><td>Life in Years (6)</td><td>Type</td><td>Classification</td></tr>" +
          "<tr><td>December 2020 Warrants (1)</td><td>15,571</td><td>$</td><td>150.00</td><td>0.2</td><td>Warrant</td><td>Equity</td></tr>" +
          "<tr><td>June 2023 Tranche A Warrants (2)</td><td>2,173,912</td><td>$</td><td>1.59</td><td>2.7</td><td>Warrant</td><td>Liability</td></tr>" +
          "<tr><td>June 2023 Tranche B Prefunded Warrants (3)</td><td>1,630,434</td><td>$</td><td>0.0001</td><td>N/A</td><td>Prefunded Warrant</td><td>Liability</td></tr></table>",
        { period: "September 30, 2025" },
      ),
    );
    expect(result.warrants).toEqual([
      { series: "December 2020 Warrants", shares_outstanding: 15571, exercise_price: 150, expiry: null, as_of: "2025-09-30" },
      { series: "June 2023 Tranche A Warrants", shares_outstanding: 2173912, exercise_price: 1.59, expiry: null, as_of: "2025-09-30" },
      { series: "June 2023 Tranche B Prefunded Warrants", shares_outstanding: 1630434, exercise_price: 0.0001, expiry: null, as_of: "2025-09-30", pre_funded: true },
    ]);
    expect(result.evidence["warrants[1].shares_outstanding"]).toBe("June 2023 Tranche A Warrants (2) 2,173,912 $ 1.59 2.7 Warrant Liability");
  });

  // SEC EDGAR 1585608/000119312525282950/R19.htm (10-Q, September 30, 2025), Note 8 "Warrants"
  it("reads the ending balance row of a warrant roll-forward by its period column, and no price from a range", () => {
    const result = read(
      report(
        "<p>The following table summarizes information about warrants outstanding and exercisable into shares of the Company’s common stock as of September 30, 2025, and December 31, 2024:</p>" +
          "<table><tr><td></td><td>September 30,</td><td>December 31,</td></tr><tr><td></td><td>2025</td><td>2024</td></tr><tr><td></td><td>(unaudited)</td><td></td></tr>" +
          "<tr><td>Warrants outstanding, beginning balance</td><td>3,045</td><td>8,073</td></tr><tr><td>Issuances</td><td>2,575,374</td><td></td></tr>" +
          "<tr><td>Exercises</td><td></td><td>(5,026</td><td>)</td></tr><tr><td>Expirations and cancelations</td><td></td><td>(2</td><td>)</td></tr>" +
          "<tr><td>Warrants outstanding, ending balance</td><td>2,578,419</td><td>3,045</td></tr></table>" +
          "<p>As of September 30, 2025 and 2024, the Company’s outstanding warrants have an exercise price ranging from $5 to $34,000 per common stock and generally expires prior to May 8, 2033.</p>",
        { period: "September 30, 2025" },
      ),
    );
    expect(result.warrants_total).toEqual({ shares_outstanding: 2578419, weighted_average_exercise_price: null, as_of: "2025-09-30" });
    expect(result.evidence["warrants_total.shares_outstanding"]).toBe("Warrants outstanding, ending balance 2,578,419 3,045");
  });

  it("takes no warrant count from a warrant liability's roll-forward in dollars (“Ending balance $ 412,000”)", () => {
    const result = read(
      report(
        "<p>The following table presents the changes in the fair value of the warrant liability:</p>" +
          "<table><tr><td></td><td>September 30,</td><td>December 31,</td></tr><tr><td></td><td>2025</td><td>2024</td></tr>" +
          "<tr><td>Warrants outstanding, beginning balance</td><td>$</td><td>1,204,000</td><td>$</td><td>980,000</td></tr><tr><td>Change in fair value</td><td></td><td>(792,000</td><td>)</td><td></td></tr>" +
          "<tr><td>Warrants outstanding, ending balance</td><td>$</td><td>412,000</td><td>$</td><td>1,204,000</td></tr></table>",
        { period: "September 30, 2025" },
      ),
    );
    expect(result.warrants_total).toBeNull();
    expect(result.warrants).toEqual([]);
  });

  // SEC EDGAR 1574235/000149315220021038/R13.htm (10-Q, September 30, 2020), Note 7 "Warrants": the roll-forward's closing row
  it("reads a roll-forward closed by “Outstanding September 30, 2020” (no “as of”)", () => {
    const result = read(
      report(
        "<p>A rollforward of the common stock warrants outstanding at September 30, 2020 is as follows.</p>" +
          "<table><tr><td></td><td>Number of Warrants</td><td>Weighted Average Exercise Price</td><td>Weighted Average Remaining Contractual Term (Years)</td><td>Aggregate Intrinsic Value</td></tr>" +
          "<tr><td>Outstanding December 31, 2019</td><td>18,953,195</td><td>$</td><td>3.55</td><td>4.17</td><td>$</td><td>—</td></tr>" +
          "<tr><td>Warrants issued</td><td>15,840,058</td><td>$</td><td>1.75</td></tr>" +
          "<tr><td>Pre-funded warrants exercised</td><td>(300,000</td><td>)</td><td>$</td><td>(0.01</td><td>)</td></tr>" +
          "<tr><td>Outstanding September 30, 2020</td><td>23,284,813</td><td>$</td><td>3.41</td><td>3.59</td><td>$</td><td>—</td></tr></table>",
        { period: "September 30, 2020" },
      ),
    );
    expect(result.warrants_total).toEqual({ shares_outstanding: 23284813, weighted_average_exercise_price: 3.41, as_of: "2020-09-30" });
  });

  // SEC EDGAR 1894954/000190359624000674/R19.htm (10-Q, September 30, 2024), Note 13 "Subsequent Events"
  it("does not take a count of warrants for the shares they buy when the two differ, nor a count dated after the period end", () => {
    const result = read(
      report(
        "<p>Series A Warrants and Series B Warrants Exercises</p>" +
          "<p>As of November 12, 2024, 3,232 Series A Warrants for 14,900 shares of common stock and 35,587,468 Series B Warrants for 951,790 shares of common stock have been exercised since September 30, 2024. As of November 12, 2024, 114,996,768 Series A Warrants and 3,075,000 Series B Warrants are outstanding.</p>",
        { period: "September 30, 2024" },
      ),
    );
    expect(result.warrants).toEqual([]);
    expect(result.warrants_total).toBeNull();
  });

  // SEC EDGAR 867665/000143774923010447/R10.htm (10-K, December 31, 2022), Note 3 "Reverse Stock Split"
  it("reads “On October 19, 2020 the Company effected a 1-for-20 reverse stock split” (no comma after the date)", () => {
    const result = read(
      report(
        "<p>3. Reverse Stock Split</p><p>On October 19, 2020 the Company effected a 1-for-20 reverse stock split of its issued and outstanding shares of common stock, $0.01 par value (the “Reverse Stock Split”). The Company effected the Reverse Stock Split pursuant to the Company’s filing of a Certificate of Change with the Secretary of State of the State of Nevada on September 29, 2020.</p>",
        { form: "10-K", period: "December 31, 2022" },
      ),
    );
    expect(result.reverse_splits).toEqual([{ ratio: "1-for-20", effective_date: "2020-10-19" }]);
  });

  // SEC EDGAR 1068689/000149315224003349/R28.htm (10-K, December 31, 2022), Note 18 "Subsequent Retrospective Stock Split"
  it("reads a split that “became effective at the start of trading on” a day after the year end, flagged subsequent", () => {
    const result = read(
      report(
        "<p>In connection with the Company’s application to list its common stock on Nasdaq, on September 19, 2023, the Company filed a Certificate of Amendment to the Articles of Incorporation (the “Certificate of Amendment”) which served to effect a reverse stock split (the “Reverse Stock Split”) of its issued common stock in a ratio of 1-for-600. The preferred stock of the Company was not changed. The 1-for-600 Reverse Stock split was processed by FINRA and became effective at the start of trading on September 20, 2023.</p>",
        { form: "10-K", period: "December 31, 2022" },
      ),
    );
    expect(result.reverse_splits).toEqual([{ ratio: "1-for-600", effective_date: "2023-09-20", subsequent: true }]);
  });

  // SEC EDGAR 1884164/000168316825003684/R16.htm (10-Q, March 31, 2025), Note 8 "Reverse Stock Split"
  it("does not list a split approved by shareholders but “not yet effected”, nor its pro forma warrants", () => {
    const result = read(
      report(
        "<p>In conjunction with the Amendment, the shareholders approved recapitalization plan involving a reverse stock split on a 1-for-40 basis, whereby shareholders will receive one share of Common Stock for every 40 shares currently held. The reverse split is to be effected no later than December 31, 2025. As of March 31, 2025, the reverse stock split had been approved by shareholders, but not yet effected.</p>" +
          "<p>Additionally, on a post-split adjusted basis the Company would have 231,355 SARs and 40,062 warrants with a weighted average exercise of $13.20 and $1.60, respectively, outstanding convertible into shares of common stock at March 31, 2025.</p>",
        { period: "March 31, 2025" },
      ),
    );
    expect(result.reverse_splits).toEqual([]);
    expect(result.warrants_total).toBeNull();
  });

  // SEC EDGAR 1083522/000143774921007037/R13.htm (10-K, December 31, 2020), Note 5 "Convertible Subordinated Notes Payable"
  it("reads a conversion price written as “by (ii) $0.32 (the “Conversion Price”)”, and not notes converted in part for converted in full", () => {
    const result = read(
      report(
        "<p>On March 23, 2018, and April 18, 2018, we issued and sold an aggregate principal amount of $2,920,000 of convertible subordinated promissory notes (the “Convertible Notes”) to institutional investors and our management team, and other individual investors.</p>" +
          "<p>The Convertible Notes have a four-year term from the date of issuance and bear interest at 6% per annum until maturity on March 23, 2022, and April 18, 2022. The holders can convert the Convertible Notes at any time into the number of shares of our common stock equal to the quotient obtained by dividing (i) the amount of the unpaid principal and interest on such Convertible Note by (ii) $0.32 (the “Conversion Price”). The Conversion Price is subject to anti-dilution adjustment on a broad-based, weighted average basis if we issue shares or equity-linked instruments at a conversion price below $0.32 per share.</p>" +
          "<p>During 2019, Convertible Notes in the aggregate principal amount of $1.4 million and related accrued interest were converted into 4,868,079 shares of common stock in accordance with the original terms of the Convertible Notes.</p>",
        { form: "10-K", period: "December 31, 2020" },
      ),
    );
    expect(result.convertibles).toHaveLength(1);
    expect(result.convertibles[0]).toMatchObject({ kind: "note", name: "Convertible Notes", conversion_price: 0.32, principal_or_stated_outstanding: null });
  });

  // investor.ipdn.com xbrl_doc_only/2639 (10-Q, September 30, 2025), Note 8 "Notes Payable and Convertible Notes"
  it("takes no conversion price from a floor inside a formula (“the greater of (i) a floor price of $0.47 … and (ii) 80% of …”)", () => {
    const result = read(
      report(
        "<p>Pursuant to the Convertible Note Purchase Agreements, the Company issued and sold to the Convertible Note Purchasers unsecured convertible promissory notes on July 7, 2025 and July 9, 2025, in the principal amounts of $250,000 (the “First Note”) and $150,000 (the “Second Note”, and together with the First Note, the “Notes”), respectively, for aggregate gross proceeds of $400,000. The First Note is convertible, at the option of the Convertible Note Purchasers, into restricted shares of the Company’s Common Stock, at a conversion price equal to the greater of (i) a floor price of $0.47 (subject to adjustment for stock splits and similar events), and (ii) 80% of the lowest of (A) the 15-day average closing price, (B) the 10-day volume-weighted average price (“VWAP”), or (C) the lowest 3-day VWAP during the 45 trading days immediately prior to the date of the applicable conversion notice.</p>",
        { period: "September 30, 2025" },
      ),
    );
    expect(result.convertibles.map((c) => c.conversion_price)).not.toContain(0.47);
  });
});

describe("periodic reports: closings, instruments the report says ended in full (constructed)", () => {
  const closings = (body: string, period = "March 31, 2024") => read(report(body, { period }));

  it("reads warrants exercised in full, by the series the sentence names, each with the sentence as its quote", () => {
    const sentence = "During the three months ended March 31, 2024, the holders of the Series A Warrants exercised all of their warrants for 1,000,000 shares of common stock.";
    const result = closings(`<p>${sentence}</p>`);
    expect(result.closings).toEqual([{ kind: "exercised", instruments: ["Series A Warrants"], date: null, subsequent: false }]);
    expect(result.evidence["closings[0].kind"]).toBe(sentence);
    expect(result.evidence["closings[0].instruments"]).toBe(sentence);
    expect(closings("<p>In February 2024, all of the outstanding Pre-Funded Warrants were exercised.</p>").closings).toEqual([
      { kind: "exercised", instruments: ["Pre-Funded Warrants"], date: null, subsequent: false },
    ]);
  });

  it("names every instrument of one sentence: a list of series is one event closing each", () => {
    expect(closings("<p>On March 4, 2024, the Series A Warrants and the Series B Warrants were exercised in full on a cashless basis.</p>").closings).toEqual([
      { kind: "exercised", instruments: ["Series A Warrants", "Series B Warrants"], date: "2024-03-04", subsequent: false },
    ]);
    expect(closings("<p>As of March 31, 2024, all of the Series A, B and C Warrants had been exercised.</p>").closings[0]!.instruments).toEqual(["Series A Warrants", "Series B Warrants", "Series C Warrants"]);
  });

  it("reads a note converted in full, with its day, and marks one after the period end subsequent", () => {
    const sentence = "On May 3, 2024, the outstanding principal and accrued interest of the Convertible Note were converted in full into 1,234,567 shares of common stock.";
    const result = closings(`<p>${sentence}</p>`);
    expect(result.closings).toEqual([{ kind: "converted", instruments: ["Convertible Note"], date: "2024-05-03", subsequent: true }]);
    expect(result.evidence["closings[0].date"]).toBe(sentence);
    expect(closings("<p>On March 12, 2024, the holder converted all outstanding principal of the 2024 Convertible Note into 1,000,000 shares of common stock.</p>").closings).toEqual([
      { kind: "converted", instruments: ["2024 Convertible Note"], date: "2024-03-12", subsequent: false },
    ]);
    // the preferred stock itself, converted: all of it
    expect(closings("<p>Upon the closing of the offering, all outstanding shares of Series A Preferred Stock were automatically converted into 2,500,000 shares of common stock.</p>").closings).toEqual([
      { kind: "converted", instruments: ["Series A Preferred Stock"], date: null, subsequent: false },
    ]);
  });

  it("reads a note repaid, redeemed or settled in full as redeemed", () => {
    expect(closings("<p>On February 15, 2024, the January 2023 Note was repaid in full.</p>").closings).toEqual([{ kind: "redeemed", instruments: ["January 2023 Note"], date: "2024-02-15", subsequent: false }]);
    expect(closings("<p>The Company repaid the Bridge Notes in full on January 31, 2024 with the proceeds of the offering.</p>").closings).toEqual([
      { kind: "redeemed", instruments: ["Bridge Notes"], date: "2024-01-31", subsequent: false },
    ]);
    expect(closings("<p>On March 5, 2024, the Company paid the Secured Note in full.</p>").closings).toEqual([{ kind: "redeemed", instruments: ["Secured Note"], date: "2024-03-05", subsequent: false }]);
    // the amount of the main clause is not the note's: the closing is the clause after "when"
    expect(closings("<p>The Company recognized a loss on extinguishment of $0.2 million when the 2023 Notes were repaid in full.</p>").closings).toEqual([
      { kind: "redeemed", instruments: ["2023 Notes"], date: null, subsequent: false },
    ]);
  });

  it("marks an undated closing told after the period end, or under a Subsequent Events heading, subsequent", () => {
    expect(closings("<p>Subsequent to March 31, 2024, all of the Series B Warrants were exercised.</p>").closings[0]).toMatchObject({ subsequent: true, date: null });
    expect(closings("<p>NOTE 12 – SUBSEQUENT EVENTS</p><p>All of the remaining Pre-Funded Warrants were exercised in full.</p>").closings[0]).toMatchObject({ subsequent: true, date: null });
  });

  it("gives one event for a closing the notes and the MD&A both tell, dated by the telling that gives a day", () => {
    const result = closings("<p>All of the Series A Warrants were exercised in full during the quarter.</p><p>On March 8, 2024, the Series A Warrants were exercised in full.</p>");
    expect(result.closings).toEqual([{ kind: "exercised", instruments: ["Series A Warrants"], date: "2024-03-08", subsequent: false }]);
    expect(result.evidence["closings[0].date"]).toBe("On March 8, 2024, the Series A Warrants were exercised in full.");
  });

  it("reads no closing from a partial exercise or conversion, a possibility, a term, a condition or a negation", () => {
    for (const sentence of [
      "During the three months ended March 31, 2024, holders exercised 1,000,000 of the Series A Warrants for cash proceeds of $1.5 million.",
      "During the quarter, certain holders of the Series A Warrants exercised all of their warrants.",
      "On March 1, 2024, $150,000 of the principal of the 2024 Convertible Note was converted into 300,000 shares of common stock.",
      "The Series A Warrants were exercised for 500,000 shares of common stock.",
      "A portion of the Convertible Note was converted into 100,000 shares.",
      "The holder may convert the 2024 Convertible Note at any time at a conversion price of $0.50 per share.",
      "The Company reserved 2,000,000 shares of common stock for issuance upon conversion of the Notes.",
      "No warrants were exercised during the three months ended March 31, 2024.",
      "None of the Series A Warrants have been exercised.",
      "If the holders exercise the Series A Warrants in full, the Company would receive gross proceeds of $5.0 million.",
      "The Series B Preferred Stock will automatically convert upon the approval of the stockholders.",
      "The Pre-Funded Warrants are exercisable immediately and may be exercised at any time until exercised in full.",
      "Basic net loss per share includes the Pre-Funded Warrants as if they had been exercised in full.",
      "All of the warrants were exercised during 2023.",
      "Proceeds from exercised Series A Warrants totaled $1.2 million.",
      "All of the Pre-Funded Warrants were exercised, other than 50,000 Pre-Funded Warrants which remain outstanding.",
      "On March 1, 2025, the Series A Warrants were exercised in full, except for warrants to purchase 10,000 shares.",
    ]) {
      expect(closings(`<p>${sentence}</p>`).closings, sentence).toEqual([]);
    }
  });

  it("still leaves a note converted in full by the period end out of the convertibles, and states its closing", () => {
    const result = read(
      report(
        "<p>On May 1, 2025, the Company issued a convertible promissory note (the “May 2025 Note”) to Example Capital LLC in the principal amount of $500,000, convertible at a conversion price of $0.50 per share.</p>" +
          "<p>On June 2, 2025, the May 2025 Note was converted in full into 1,000,000 shares of common stock.</p>",
      ),
    );
    expect(result.convertibles).toEqual([]);
    expect(result.closings).toEqual([{ kind: "converted", instruments: ["May 2025 Note"], date: "2025-06-02", subsequent: false }]);
  });
});
