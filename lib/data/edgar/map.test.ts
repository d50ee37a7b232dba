import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inspectText } from "./documents/inspect";
import type { Filing } from "./filings";
import { testFiling } from "./periodic-reading.fixture";
import { documentFactsOf, mapCompany, type DocumentFacts } from "./map";

/**
 * mapCompany on real prospectuses and registration statements of
 * ../shared/fixtures/edgar, read by the document readers, under filing
 * indexes written here: what becomes an offering, a registration and an
 * instrument.
 */
const ARCHIVES = path.resolve(process.cwd(), "..", "shared", "fixtures", "edgar", "Archives", "edgar", "data");
const read = (cik: string, accession: string): DocumentFacts =>
  documentFactsOf(inspectText(readFileSync(path.join(ARCHIVES, cik, accession.replace(/-/g, ""), `${accession}.txt`), "utf8")));

const filing = testFiling;

function map(filings: Filing[], documents: Record<string, DocumentFacts>, today = "2025-06-01") {
  return mapCompany({
    ticker: "TEST",
    exchange: "Nasdaq",
    today,
    index: { cik: "0000000001", name: "Test Co", sic: null, sicDescription: null, tickers: ["TEST"], exchanges: ["Nasdaq"], filings, olderPages: [] },
    facts: null,
    documents: new Map(Object.entries(documents)),
  });
}

describe("warrants of a registered direct", () => {
  it("lists the warrants of the concurrent private placement as unregistered instruments, with their quotes", () => {
    const curis = "0001108205-25-000026";
    const { dataset } = map(
      [filing("S-3", "0000000001-24-000001", "2024-01-02", "333-270001"), filing("EFFECT", "0000000001-24-000002", "2024-01-10", "333-270001", "S-3,,2024-01-10 16:00:00"), filing("424B5", curis, "2025-03-31", "333-270001")],
      { [curis]: read("1108205", curis) },
    );
    const privateOnes = dataset.dilution_instruments.filter((i) => i.registered === false);
    expect(privateOnes.map((i) => [i.shares_underlying, i.exercise_price_micros, i.pre_funded])).toEqual([
      ["8316882", "2410000", false],
      ["2184009", "10000", true],
    ]);
    expect(privateOnes[0]!.quotes?.shares_underlying).toContain("8,316,882");
    // Not offered by the prospectus: the offering itself has no warrants.
    expect(dataset.offerings.find((o) => o.accession_number === curis)).toMatchObject({ warrants_issued: null, prefunded_warrants: null });
  });
});

describe("the pipeline of a registration statement for one offering", () => {
  const s1 = "0001140361-21-010426"; // Learn CW's IPO S-1: Rule 415 box empty, a $287,500,000 fee table
  const documents = { [s1]: read("1847577", s1) };
  const registration = filing("S-1", s1, "2021-03-29", "333-254789");

  it("is a pending offering with its anticipated size while no prospectus has priced it, and no shelf capacity", () => {
    const { dataset } = map([registration], documents, "2021-06-01");
    expect(dataset.offerings).toEqual([
      expect.objectContaining({
        accession_number: s1,
        status: "pending",
        offering_type: "ipo",
        offering_date: "2021-03-29",
        amount_cents: null,
        anticipated_amount_cents: "28750000000",
        quotes: expect.objectContaining({ anticipated_amount: expect.stringContaining("287,500,000") }),
      }),
    ]);
    expect(dataset.registrations).toEqual([expect.objectContaining({ accession_number: s1, is_shelf: false, is_resale: false })]);
  });

  it("is priced by the 424B under its file number, which keeps the first statement's size beside its own", () => {
    const { dataset } = map([registration, filing("424B4", "0000000001-21-000009", "2021-04-20", "333-254789")], documents, "2021-06-01");
    expect(dataset.offerings).toEqual([expect.objectContaining({ accession_number: "0000000001-21-000009", status: "priced", anticipated_amount_cents: "28750000000" })]);
  });

  it("is withdrawn by a form RW, and not listed once abandoned", () => {
    const withdrawn = map([registration, filing("RW", "0000000001-21-000010", "2021-05-02", "333-254789")], documents, "2021-06-01");
    expect(withdrawn.dataset.offerings).toEqual([expect.objectContaining({ status: "withdrawn", withdrawn_at: "2021-05-02" })]);
    const abandoned = map([registration], documents, "2022-06-01");
    expect(abandoned.dataset.offerings).toEqual([]);
    expect(abandoned.notes.join("\n")).toContain("not effective 9 months after its last amendment");
  });
});
