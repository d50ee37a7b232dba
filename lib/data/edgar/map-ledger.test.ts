import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { CompanyFacts } from "./facts";
import { readEightKTerms } from "./documents/eight-k-terms";
import { inspectText } from "./documents/inspect";
import type { PeriodicReport } from "./documents/periodic-report";
import type { Filing } from "./filings";
import { documentFactsOf, mapCompany, PERIODIC_READER_VERSION, type DocumentFacts } from "./map";
import { periodicReading, testFiling } from "./periodic-reading.fixture";
import { parseXbrlDilution } from "./xbrl-dilution";
import { validateRecords } from "../import/validate";

/**
 * mapCompany with what periodic reports and 8-Ks state: real prospectuses of
 * ../shared/fixtures/edgar (Imunon's registered direct with warrants,
 * Alzamend's ATM supplement) under filing indexes written here, beside
 * periodic-report readings and 8-K texts made for the test.
 */
const ARCHIVES = path.resolve(process.cwd(), "..", "shared", "fixtures", "edgar", "Archives", "edgar", "data");
const prospectus = (cik: string, accession: string): DocumentFacts =>
  documentFactsOf(inspectText(readFileSync(path.join(ARCHIVES, cik, accession.replace(/-/g, ""), `${accession}.txt`), "utf8")));

const filing = testFiling;

function periodic(period: string, stated: Partial<PeriodicReport>, evidence: Record<string, string> = {}): DocumentFacts {
  return { periodic: { ...periodicReading(period, stated, evidence), reader: PERIODIC_READER_VERSION } };
}

function map(filings: Filing[], documents: Record<string, DocumentFacts>, options: { today?: string; facts?: CompanyFacts | null; xbrl?: object } = {}) {
  return mapCompany({
    ticker: "TEST",
    exchange: "Nasdaq",
    today: options.today ?? "2026-06-01",
    index: { cik: "0000000001", name: "Test Co", sic: null, sicDescription: null, tickers: ["TEST"], exchanges: ["Nasdaq"], filings, olderPages: [] },
    facts: options.facts ?? null,
    xbrl: options.xbrl ? parseXbrlDilution(options.xbrl) : null,
    documents: new Map(Object.entries(documents)),
  });
}

const PIPE_8K = `Item 1.01 Entry into a Material Definitive Agreement.
On March 3, 2025, Test Co (the "Company") entered into a securities purchase agreement with certain institutional investors, pursuant to which the Company agreed to sell, in a private placement, 1,000,000 shares of its common stock and warrants to purchase up to 1,000,000 shares of common stock at a purchase price of $2.00 per share and accompanying warrant. The warrants have an exercise price of $2.25 per share, are exercisable immediately and expire five years from the date of issuance. The gross proceeds to the Company are expected to be approximately $2.0 million. H.C. Wainwright & Co., LLC acted as the exclusive placement agent.
Item 3.02 Unregistered Sales of Equity Securities.
The securities were offered and sold in reliance on the exemption provided by Section 4(a)(2) of the Securities Act of 1933, as amended.`;

describe("8-K financings", () => {
  it("make a private placement an offering of type pipe, and its warrants an unregistered instrument, each value quoted", () => {
    const eightK = filing("8-K", "0000000001-25-000100", "2025-03-04", null, "1.01,3.02,9.01");
    const { dataset } = map([eightK], { [eightK.accessionNumber]: { financing: readEightKTerms(PIPE_8K) } });
    expect(dataset.offerings).toEqual([
      expect.objectContaining({
        offering_type: "pipe",
        offering_date: "2025-03-03",
        shares: "1000000",
        price_micros: "2000000",
        amount_cents: "200000000",
        warrants_issued: "1000000",
        warrant_price_micros: "2250000",
        underwriter: "H.C. Wainwright & Co., LLC",
        agent_role: "placement_agent",
      }),
    ]);
    expect(dataset.offerings[0]!.quotes?.amount).toContain("$2.0 million");
    expect(dataset.dilution_instruments).toEqual([
      expect.objectContaining({ instrument_type: "warrant", shares_underlying: "1000000", exercise_price_micros: "2250000", registered: false, issued_at: "2025-03-03", status: "outstanding" }),
    ]);
    expect(dataset.dilution_instruments[0]!.quotes?.registered).toContain("4(a)(2)");
  });

  it("gives the placement agent's warrants as its own unregistered instrument, and every row passes the import", () => {
    const eightK = filing("8-K", "0000000001-25-000101", "2025-03-04", null, "1.01,3.02,9.01");
    const text = PIPE_8K.replace(
      "H.C. Wainwright & Co., LLC acted as the exclusive placement agent.",
      "H.C. Wainwright & Co., LLC acted as the exclusive placement agent. The Company also agreed to issue to the placement agent or its designees warrants to purchase up to 70,000 shares of common stock at an exercise price of $2.50 per share.",
    );
    const { dataset } = map([eightK], { [eightK.accessionNumber]: { financing: readEightKTerms(text) } });
    const agent = dataset.dilution_instruments.find((i) => i.name.startsWith("Placement agent warrants"));
    expect(agent).toMatchObject({ shares_underlying: "70000", exercise_price_micros: "2500000", registered: false });
    expect(validateRecords(dataset).errors).toEqual([]);
  });

  it("an 8-K announcing the warrants a prospectus sold is the same instrument, not a second one", () => {
    const imunon = "0001493152-25-029712"; // 1,939,114 warrants at $3.482 and 1,609,114 pre-funded at $0.0001
    const eightK = filing("8-K", "0000000001-26-000001", "2026-01-02", null, "1.01,9.01");
    const text = `Item 1.01 Entry into a Material Definitive Agreement.
On December 30, 2025, Test Co (the "Company") entered into a securities purchase agreement with an institutional investor for the sale in a registered direct offering of 330,000 shares of common stock, pre-funded warrants to purchase up to 1,609,114 shares of common stock and warrants to purchase up to 1,939,114 shares of common stock. The warrants have an exercise price of $3.482 per share and are subject to customary adjustments for stock splits and stock dividends. The pre-funded warrants have an exercise price of $0.0001 per share. The shares are offered pursuant to an effective shelf registration statement on Form S-3.`;
    const { dataset } = map([filing("424B5", imunon, "2025-12-31", "333-283007"), eightK], {
      [imunon]: prospectus("749647", imunon),
      [eightK.accessionNumber]: { financing: readEightKTerms(text) },
    });
    const warrants = dataset.dilution_instruments.filter((i) => !i.pre_funded);
    expect(warrants).toHaveLength(1);
    expect(warrants[0]).toMatchObject({ shares_underlying: "1939114", exercise_price_micros: "3482000", anti_dilution: "customary", source_accession: eightK.accessionNumber });
    expect(dataset.dilution_instruments.filter((i) => i.pre_funded)).toHaveLength(1);
    expect(dataset.instrument_states.filter((s) => s.instrument_name === warrants[0]!.name).map((s) => s.source_accession)).toEqual([imunon, eightK.accessionNumber]);
  });
});

describe("the parties of an issue", () => {
  const NAMED_8K = (agentWarrants: string) => `Item 1.01 Entry into a Material Definitive Agreement.
On July 14, 2025, Test Co (the "Company") entered into a Securities Purchase Agreement with Example Capital Master Fund Ltd. (the “Purchaser”), pursuant to which the Company agreed to sell to the Purchaser in a private placement 500,000 shares of common stock and warrants to purchase up to 500,000 shares of common stock at a purchase price of $1.00 per share and accompanying warrant. The warrants have an exercise price of $1.10 per share and expire five years from the date of issuance.
H.C. Wainwright & Co., LLC acted as the exclusive placement agent. ${agentWarrants}
Item 3.02 Unregistered Sales of Equity Securities.
The securities were offered and sold in reliance on Section 4(a)(2) of the Securities Act.`;
  const mapped = (text: string) => {
    const eightK = filing("8-K", "0000000001-25-000200", "2025-07-15", null, "1.01,3.02,9.01");
    const { dataset } = map([eightK], { [eightK.accessionNumber]: { financing: readEightKTerms(text) } });
    expect(validateRecords(dataset).errors).toEqual([]);
    return dataset.dilution_instruments;
  };

  it("puts the purchasers and the placement agent an 8-K names on the warrants it issues, each quoted, and on the agent's warrants the agent as holder when the sentence issuing them names it", () => {
    const instruments = mapped(
      NAMED_8K("The Company also agreed to issue to H.C. Wainwright & Co., LLC, as placement agent, warrants to purchase up to 25,000 shares of common stock at an exercise price of $1.25 per share."),
    );
    const warrants = instruments.find((i) => i.name.startsWith("Warrants of"))!;
    expect(warrants).toMatchObject({ shares_underlying: "500000", holders: ["Example Capital Master Fund Ltd."], placement_agent: "H.C. Wainwright & Co., LLC" });
    expect(warrants.quotes?.holders).toContain("with Example Capital Master Fund Ltd. (the “Purchaser”)");
    expect(warrants.quotes?.placement_agent).toContain("H.C. Wainwright & Co., LLC acted as the exclusive placement agent");
    const agent = instruments.find((i) => i.name.startsWith("Placement agent warrants"))!;
    expect(agent).toMatchObject({ shares_underlying: "25000", holders: ["H.C. Wainwright & Co., LLC"], placement_agent: "H.C. Wainwright & Co., LLC" });
    expect(agent.quotes?.holders).toContain("issue to H.C. Wainwright & Co., LLC, as placement agent, warrants");
  });

  it("leaves the agent's warrants without a holder when they go to the agent 'or its designees', and the purchasers off them", () => {
    const instruments = mapped(
      NAMED_8K("The Company also agreed to issue to the placement agent or its designees warrants to purchase up to 25,000 shares of common stock at an exercise price of $1.25 per share."),
    );
    const agent = instruments.find((i) => i.name.startsWith("Placement agent warrants"))!;
    expect(agent).toMatchObject({ holders: null, placement_agent: "H.C. Wainwright & Co., LLC" });
    expect(agent.quotes?.holders).toBeUndefined();
  });

  it("are null when the filing names none: unnamed investors, no agent", () => {
    const unnamed = mapped(PIPE_8K);
    expect(unnamed).toEqual([expect.objectContaining({ holders: null, placement_agent: "H.C. Wainwright & Co., LLC" })]);
    expect(unnamed[0]!.quotes?.holders).toBeUndefined();
    const bare = mapped(PIPE_8K.replace(" H.C. Wainwright & Co., LLC acted as the exclusive placement agent.", ""));
    expect(bare).toEqual([expect.objectContaining({ holders: null, placement_agent: null })]);
    expect(Object.keys(bare[0]!.quotes ?? {})).not.toContain("placement_agent");
  });

  it("does not make an equity line's investor a holder of the note sold beside it, nor a Rule 144A deal's initial purchasers holders", () => {
    const both = mapped(`Item 1.01 Entry into a Material Definitive Agreement
On May 5, 2025, Test Co (the "Company") entered into a securities purchase agreement with Alpha Capital Anstalt (the “Purchaser”) and issued to the Purchaser a convertible promissory note in the principal amount of $2,000,000. The note is convertible at a conversion price of $1.25 per share.
On May 5, 2025, the Company also entered into a Standby Equity Purchase Agreement (the “SEPA”) with YA II PN, Ltd. (the “Investor”), pursuant to which the Company has the right, but not the obligation, to sell to the Investor up to $20,000,000 of shares of its common stock.`);
    const note = both.find((i) => i.instrument_type === "convertible_note");
    expect(note?.holders ?? []).not.toContain("YA II PN, Ltd.");
    const notes144A = mapped(`Item 1.01 Entry into a Material Definitive Agreement
On August 13, 2025, Test Co (the "Company") entered into a purchase agreement with Citigroup Global Markets Inc. and Goldman Sachs & Co. LLC (the “Initial Purchasers”) to issue and sell $250,000,000 aggregate principal amount of 2.75% Convertible Senior Notes due 2030 in a private offering to qualified institutional buyers pursuant to Rule 144A. The notes are convertible at a conversion price of approximately $19.47 per share.`);
    expect(notes144A.filter((i) => i.instrument_type === "convertible_note").map((i) => i.holders)).toEqual([null]);
  });

  it("names a note's purchaser as its holder, and an equity line's counterparty as its", () => {
    const note = mapped(`Item 1.01 Entry into a Material Definitive Agreement
On May 5, 2025, Test Co (the "Company") entered into a securities purchase agreement with Example Lending LLC (the “Holder”) and issued to the Holder a convertible promissory note in the principal amount of $550,000. The note is convertible at a conversion price of $0.85 per share and matures on May 5, 2026.`);
    expect(note).toEqual([expect.objectContaining({ instrument_type: "convertible_note", holders: ["Example Lending LLC"], placement_agent: null })]);
    expect(note[0]!.quotes?.holders).toContain("Example Lending LLC (the “Holder”)");
    const line = mapped(`Item 1.01 Entry into a Material Definitive Agreement.
On April 10, 2025, Test Co (the "Company") entered into a Standby Equity Purchase Agreement (the “SEPA”) with YA II PN, Ltd. (“Yorkville”), pursuant to which the Company has the right, but not the obligation, to sell to Yorkville up to $20,000,000 of shares of its common stock at any time during the 36 months following the date of the SEPA.`);
    expect(line).toEqual([expect.objectContaining({ instrument_type: "equity_line", holders: ["YA II PN, Ltd."] })]);
    expect(line[0]!.quotes?.holders).toContain("YA II PN, Ltd.");
  });

  it("gives a prospectus's warrants its placement agent and no holders (the public buys), and an 8-K of the same issue adds the purchaser it names", () => {
    const imunon = "0001493152-25-029712"; // Maxim Group LLC, lead placement agent
    const alone = map([filing("424B5", imunon, "2025-12-31", "333-283007")], { [imunon]: prospectus("749647", imunon) }).dataset.dilution_instruments;
    expect(alone.length).toBeGreaterThan(0);
    for (const warrant of alone) {
      expect(warrant).toMatchObject({ holders: null, placement_agent: "Maxim Group LLC" });
      expect(warrant.quotes?.placement_agent).toContain("We have engaged Maxim Group LLC, as lead placement agent");
    }
    const eightK = filing("8-K", "0000000001-26-000001", "2026-01-02", null, "1.01,9.01");
    const text = `Item 1.01 Entry into a Material Definitive Agreement.
On December 30, 2025, Test Co (the "Company") entered into a securities purchase agreement with Example Capital Master Fund Ltd. (the “Purchaser”) for the sale in a registered direct offering of 330,000 shares of common stock, pre-funded warrants to purchase up to 1,609,114 shares of common stock and warrants to purchase up to 1,939,114 shares of common stock. The warrants have an exercise price of $3.482 per share. The pre-funded warrants have an exercise price of $0.0001 per share. The shares are offered pursuant to an effective shelf registration statement on Form S-3.`;
    const { dataset } = map([filing("424B5", imunon, "2025-12-31", "333-283007"), eightK], {
      [imunon]: prospectus("749647", imunon),
      [eightK.accessionNumber]: { financing: readEightKTerms(text) },
    });
    const warrants = dataset.dilution_instruments.filter((i) => !i.pre_funded);
    expect(warrants).toHaveLength(1);
    expect(warrants[0]).toMatchObject({ holders: ["Example Capital Master Fund Ltd."], placement_agent: "Maxim Group LLC", source_accession: eightK.accessionNumber });
    // the row quotes its latest filing, the 8-K: its words for the purchaser
    expect(warrants[0]!.quotes?.holders).toContain("Example Capital Master Fund Ltd.");
  });
});

describe("closings stated by 8-Ks and periodic reports", () => {
  const q = filing("10-Q", "0000000001-25-000400", "2025-05-12", null, "", "2025-03-31");
  const warrants = periodic("2025-03-31", {
    warrants: [
      { series: "Series A Warrants", shares_outstanding: 1_000_000, exercise_price: 1.5, expiry: "2030-01-15", as_of: "2025-03-31" },
      { series: "Series B Warrants", shares_outstanding: 500_000, exercise_price: 2.5, expiry: "2027-01-15", as_of: "2025-03-31" },
    ],
  });

  it("an 8-K's statement that warrants were exercised in full closes the series the reports follow, quoting it", () => {
    const eightK = filing("8-K", "0000000001-25-000401", "2025-06-05", null, "3.02,8.01,9.01", "2025-06-04");
    const sentence = "On June 4, 2025, the holders of the Series A Warrants exercised all of their Series A Warrants for cash, resulting in gross proceeds of $1.5 million.";
    const text = `Item 3.02 Unregistered Sales of Equity Securities.\nThe shares were issued in reliance on Section 4(a)(2) of the Securities Act.\nItem 8.01 Other Events.\n${sentence}`;
    const { dataset, notes } = map([q, eightK], { [q.accessionNumber]: warrants, [eightK.accessionNumber]: { financing: readEightKTerms(text) } });
    const [seriesA, seriesB] = dataset.dilution_instruments;
    expect(seriesA).toMatchObject({ status: "exercised", as_of: "2025-06-04", shares_underlying: "1000000", source_accession: eightK.accessionNumber });
    expect(seriesA!.quotes?.status).toBe(sentence);
    expect(seriesB).toMatchObject({ status: "outstanding", source_accession: q.accessionNumber });
    expect(dataset.instrument_states.filter((s) => s.instrument_name === seriesA!.name).map((s) => s.status)).toEqual(["outstanding", "exercised"]);
    expect(notes.join("\n")).not.toContain("nothing closed");
    expect(validateRecords(dataset).errors).toEqual([]);
  });

  it("a later report's subsequent-events closing closes the note an earlier report listed, as of the day it states", () => {
    const q2 = filing("10-Q", "0000000001-25-000402", "2025-08-11", null, "", "2025-06-30");
    const note = periodic("2025-03-31", { convertibles: [{ kind: "note", name: "Bridge Note", principal_or_stated_outstanding: 300_000, conversion_price: 0.75, maturity: "2026-01-31", as_of: "2025-03-31" }] });
    const closing = periodic("2025-06-30", { closings: [{ kind: "redeemed", instruments: ["Bridge Note"], date: "2025-07-15", subsequent: true }] }, { "closings[0].kind": "On July 15, 2025, the Company repaid the Bridge Note in full." });
    const { dataset } = map([q, q2], { [q.accessionNumber]: note, [q2.accessionNumber]: closing });
    expect(dataset.dilution_instruments).toEqual([expect.objectContaining({ instrument_type: "convertible_note", status: "redeemed", as_of: "2025-07-15", remaining_cents: "0", source_accession: q2.accessionNumber })]);
  });
});

describe("ATM capacity remaining", () => {
  const alzamend = "0001214659-26-002941"; // Ascendiant Capital Markets, LLC, up to $3,000,000
  const filings = [filing("424B5", alzamend, "2026-03-06", "333-273610")];
  const documents = { [alzamend]: prospectus("1677077", alzamend) };
  const atmOf = (dataset: ReturnType<typeof map>["dataset"]) => dataset.registrations.find((r) => r.is_atm)!;

  it("carries the baby-shelf arithmetic its supplement states: what may still be sold, sold in the prior 12 months, the float, each quoted", () => {
    const atm = atmOf(map(filings, documents).dataset);
    expect(atm).toMatchObject({ baby_shelf_capacity_cents: "306193300", baby_shelf_sold_cents: "102000", baby_shelf_as_of: "2026-03-06", public_float_cents: "918886000", over_baby_shelf: false });
    expect(atm.quotes?.baby_shelf_capacity).toContain("leaving $3,061,933");
    expect(atm.quotes?.public_float).toContain("$9,188,860");
  });

  it("is the program's size as of its prospectus while no report states a sale", () => {
    const atm = atmOf(map(filings, documents).dataset);
    expect(atm).toMatchObject({ atm_remaining_cents: "300000000", atm_remaining_as_of: "2026-03-06", atm_report_accession: null });
    expect(atm.quotes?.amount_remaining_atm).toContain("3,000,000");
  });

  it("is what the latest report states for that program (agent agrees), with its sales to date, day and report", () => {
    const q = filing("10-Q", "0000000001-26-000050", "2026-05-12", null, "", "2026-03-31");
    const reading = periodic(
      "2026-03-31",
      {
        atm_programs: [
          { agent: "Ascendiant Capital Markets", max_amount: null, shares_sold_in_period: null, gross_sold_in_period: null, shares_sold_to_date: 150_000, gross_sold_to_date: 450_000, remaining: 2_550_000, as_of: "2026-03-31" },
        ],
      },
      { "atm_programs[0].remaining": "As of March 31, 2026, $2.55 million remained available under the Sales Agreement." },
    );
    const atm = atmOf(map([...filings, q], { ...documents, [q.accessionNumber]: reading }).dataset);
    expect(atm).toMatchObject({
      atm_remaining_cents: "255000000",
      atm_remaining_as_of: "2026-03-31",
      atm_sold_cents: "45000000",
      atm_sold_shares: "150000",
      atm_report_accession: q.accessionNumber,
    });
    expect(atm.quotes?.amount_remaining_atm).toContain("$2.55 million");
  });

  it("a program of another agent, or two programs that cannot be told apart, say nothing of it", () => {
    const q = filing("10-Q", "0000000001-26-000050", "2026-05-12", null, "", "2026-03-31");
    const program = { max_amount: null, shares_sold_in_period: null, gross_sold_in_period: null, shares_sold_to_date: null, gross_sold_to_date: null, remaining: 1_000_000, as_of: "2026-03-31" };
    const other = map([...filings, q], { ...documents, [q.accessionNumber]: periodic("2026-03-31", { atm_programs: [{ ...program, agent: "Other Securities LLC" }] }) });
    expect(atmOf(other.dataset)).toMatchObject({ atm_remaining_cents: "300000000", atm_report_accession: null });
    const twins = map([...filings, q], { ...documents, [q.accessionNumber]: periodic("2026-03-31", { atm_programs: [{ ...program, agent: "Ascendiant Capital Markets, LLC" }, { ...program, agent: "Ascendiant Capital Markets, LLC" }] }) });
    expect(atmOf(twins.dataset)).toMatchObject({ atm_remaining_cents: "300000000" });
    expect(twins.notes.join("\n")).toContain("2 ATM programs match");
  });
});

describe("going concern and the XBRL cross-check", () => {
  const q = filing("10-Q", "0000000001-25-000200", "2025-08-12", null, "", "2025-06-30");
  const facts: CompanyFacts = {
    reports: [
      {
        periodEnd: "2025-06-30",
        filedAt: "2025-08-12",
        cashCents: 150_000_000n,
        operatingCashFlowCents: -90_000_000n,
        debtCents: null,
        evidence: { accession: q.accessionNumber, form: "10-Q", filedAt: "2025-08-12" },
      },
    ],
    shares: [],
  } as unknown as CompanyFacts;
  const xbrl = (count: number) => ({
    cik: 1,
    entityName: "Test Co",
    facts: {
      "us-gaap": {
        ClassOfWarrantOrRightOutstanding: {
          units: { shares: [{ end: "2025-06-30", val: count, accn: q.accessionNumber, fy: 2025, fp: "Q2", form: "10-Q", filed: "2025-08-12" }] },
        },
      },
    },
  });
  const reading = periodic(
    "2025-06-30",
    { going_concern: true, warrants_total: { shares_outstanding: 2_500_000, weighted_average_exercise_price: 3.1, as_of: "2025-06-30" } },
    { going_concern: "These conditions raise substantial doubt about the Company's ability to continue as a going concern." },
  );

  it("puts the report's going-concern doubt, with its sentence, on the financial report of its period", () => {
    const { dataset } = map([q], { [q.accessionNumber]: reading }, { facts });
    expect(dataset.financial_reports[0]).toMatchObject({ period_end: "2025-06-30", going_concern: true, going_concern_accession: q.accessionNumber });
    expect(dataset.financial_reports[0]!.quotes?.going_concern).toContain("substantial doubt");
  });

  it("says whether XBRL's warrant count agrees with the text, and serves the text's figure either way", () => {
    const agrees = map([q], { [q.accessionNumber]: reading }, { xbrl: xbrl(2_500_000) }).dataset.dilution_instruments[0]!;
    expect(agrees).toMatchObject({ shares_underlying: "2500000", xbrl_check: expect.objectContaining({ verdict: "agrees", used: "text", value: 2_500_000 }) });
    const differs = map([q], { [q.accessionNumber]: reading }, { xbrl: xbrl(2_000_000) }).dataset.dilution_instruments[0]!;
    expect(differs).toMatchObject({ shares_underlying: "2500000", xbrl_check: expect.objectContaining({ verdict: "disagrees", used: "text", value: 2_000_000 }) });
    expect((differs.xbrl_check as { note: string }).note).toContain("2,500,000");
  });

  it("gives the warrant total from a recent XBRL tag when no filing's text states any warrant", () => {
    const { dataset } = map([q], { [q.accessionNumber]: periodic("2025-06-30", {}) }, { xbrl: xbrl(700_000), today: "2025-09-01" });
    expect(validateRecords(dataset).errors).toEqual([]);
    expect(dataset.dilution_instruments).toEqual([
      expect.objectContaining({ ticker: "TEST", reported_total: true, shares_underlying: "700000", as_of: "2025-06-30", source_accession: q.accessionNumber, xbrl_check: expect.objectContaining({ verdict: "xbrl_only", used: "xbrl" }) }),
    ]);
    // a reverse split since the tag was filed applies to it
    const split = filing("8-K", "0000000001-25-000300", "2025-08-26", null, "5.03");
    const splitFacts: DocumentFacts = { reverseSplits: [{ ratio: "1-for-20", effectiveDate: "2025-08-25", ratioQuote: "a 1-for-20 reverse stock split", dateQuote: null }] };
    const after = map([q, split], { [q.accessionNumber]: periodic("2025-06-30", {}), [split.accessionNumber]: splitFacts }, { xbrl: xbrl(700_000), today: "2025-09-01" });
    expect(after.dataset.dilution_instruments[0]).toMatchObject({ shares_underlying: "35000", stated_shares_underlying: "700000", split_adjustment: "1-for-20" });
    // an old tag says nothing of today
    expect(map([q], { [q.accessionNumber]: periodic("2025-06-30", {}) }, { xbrl: xbrl(700_000), today: "2027-06-01" }).dataset.dilution_instruments).toEqual([]);
  });
});

describe("reverse splits told by several filings", () => {
  it("are one split when the ratio is the same and the days a few apart: the 8-K's day wins, and nothing is adjusted twice", () => {
    const eightK = filing("8-K", "0000000001-24-000010", "2024-07-12", null, "5.03");
    const q = filing("10-Q", "0000000001-24-000020", "2024-08-12", null, "", "2024-06-30");
    const { dataset } = map([eightK, q], {
      [eightK.accessionNumber]: { reverseSplits: [{ ratio: "1-for-10", effectiveDate: "2024-07-16", ratioQuote: "a 1-for-10 reverse stock split", dateQuote: "effective July 16, 2024" }] },
      [q.accessionNumber]: periodic("2024-06-30", { reverse_splits: [{ ratio: "1-for-10", effective_date: "2024-07-15" }] }),
    });
    expect(dataset.reverse_splits.map((s) => [s.effective_date, s.source_accession])).toEqual([["2024-07-16", eightK.accessionNumber]]);
  });
});

describe("an over-allotment reported beside its base offering", () => {
  it("is not counted twice: the offering's shares are the base, the option's shares stand beside them", () => {
    const s1 = "0001140361-21-010426"; // Learn CW's IPO: 25,000,000 units, and 3,750,000 more on the underwriters' option
    const { dataset } = map([filing("S-1", s1, "2021-03-29", "333-254789")], { [s1]: prospectus("1847577", s1) }, { today: "2021-06-01" });
    expect(dataset.offerings).toEqual([expect.objectContaining({ status: "pending", shares: "25000000", overallotment_shares: "3750000" })]);
  });
});
