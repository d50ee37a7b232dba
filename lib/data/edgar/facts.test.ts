import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseCompanyFacts, publicFloatOn } from "./facts";

/** The XBRL company facts as SEC serves them (../shared/fixtures/edgar). */
const RECORDED = path.resolve(process.cwd(), "..", "shared", "fixtures", "edgar");
const facts = async (cik: string) => parseCompanyFacts(await readFile(path.join(RECORDED, `companyfacts-CIK${cik}.json`), "utf8"));

describe("XBRL company facts → reports and share counts", () => {
  it("Tesla (us-gaap, quarterly): each filing's own period, cash, and quarters differenced from year-to-date", async () => {
    const tsla = await facts("0001318605");
    expect(tsla.taxonomy).toBe("us-gaap");
    const at = (end: string) => tsla.reports.find((r) => r.periodEnd === end)!;
    expect(at("2022-09-30")).toMatchObject({
      cashCents: 19_532_000_000n * 100n,
      filedAt: "2022-10-24",
      evidence: { accession: "0000950170-22-019867", form: "10-Q" },
      concept: "us-gaap:CashAndCashEquivalentsAtCarryingValue",
    });
    expect(at("2022-03-31")).toMatchObject({ operatingCashFlowCents: 3_995_000_000n * 100n, operatingCashFlowBasis: "quarter" });
    expect(at("2022-06-30")).toMatchObject({ operatingCashFlowCents: (6_346_000_000n - 3_995_000_000n) * 100n, operatingCashFlowBasis: "year_to_date_difference" });
    expect(at("2022-09-30").operatingCashFlowCents).toBe((11_446_000_000n - 6_346_000_000n) * 100n);
    expect(at("2021-12-31")).toMatchObject({ operatingCashFlowCents: (11_497_000_000n - 6_912_000_000n) * 100n, evidence: { form: "10-K" } });
    // A 10-Q's prior year-end comparative is not a report of its own: 2021-12-31 comes from the 10-K.
    expect(tsla.reports.filter((r) => r.periodEnd === "2021-12-31")).toHaveLength(1);

    const cover = tsla.shares.find((s) => s.asOf === "2022-10-18")!;
    expect(cover).toMatchObject({ outstandingShares: 3_157_752_449n, publicFloatCents: 541_280_000_000n * 100n, publicFloatAsOf: "2021-06-30" });
    // The public float is a dollar value on its own date; the one known on a day is the latest stated by then.
    expect(publicFloatOn(tsla, "2021-03-01")).toMatchObject({ asOf: "2020-06-30", cents: 160_570_000_000n * 100n });
  });

  it("an IFRS filer reporting annually: ifrs-full cash, and the year's operating cash flow ÷ 4 as the quarter", async () => {
    const lpa = await facts("0001997711");
    expect(lpa.taxonomy).toBe("ifrs-full");
    const fy2024 = lpa.reports.find((r) => r.periodEnd === "2024-12-31")!;
    expect(fy2024).toMatchObject({
      concept: "ifrs-full:CashAndCashEquivalents",
      cashCents: 28_827_347n * 100n,
      evidence: { accession: "0001997711-25-000030", form: "20-F" },
      operatingCashFlowCents: (19_391_563n * 100n) / 4n,
      operatingCashFlowBasis: "annual_quarter_average",
      debtCents: 267_216_692n * 100n, // ifrs-full:Borrowings
    });
    // The 20-F's odd instant (2024-03-26, a merger date) is not a period of its own.
    expect(lpa.reports.map((r) => r.periodEnd)).not.toContain("2024-03-26");
    expect(lpa.shares.at(-1)).toMatchObject({ asOf: "2025-04-02", outstandingShares: 31_668_601n, publicFloatCents: null });
  });

  it("refuses what is not company facts", () => {
    expect(() => parseCompanyFacts("not json")).toThrow(/not JSON/);
    expect(() => parseCompanyFacts('{"facts": 3}')).toThrow(/unexpected shape/);
  });
});
