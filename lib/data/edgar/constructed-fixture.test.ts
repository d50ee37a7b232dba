import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEffectItems, parseEffectNotice } from "./documents/effect-notice";
import { classifyDeficiency, regainsCompliance } from "./documents/eight-k";
import { feeExhibitCents } from "./documents/fee-table";
import { parseFilingIndex, pickFeeExhibit } from "./documents/filing-index";
import { htmlToText } from "./documents/plain-text";
import { isAtmOffering } from "./documents/prospectus";

/**
 * The constructed small-cap case (tests/fixtures/edgar-constructed, see its
 * README) against the parsers, and against the shapes of the real recordings:
 * if either side drifts, this fails.
 */
const ROOT = path.resolve(import.meta.dirname, "../../../tests/fixtures/edgar-constructed");
const REAL = "/work/shared/fixtures/edgar";
const CIK = "9990001";
const read = (relative: string) => readFileSync(path.join(ROOT, relative), "utf8");
const readJson = (file: string): unknown => JSON.parse(readFileSync(file, "utf8"));

type Columns = Record<string, (string | number)[]>;
interface Submissions {
  cik: string;
  name: string;
  filings: { recent: Columns; files: unknown[] };
  [key: string]: unknown;
}
interface Filing {
  accessionNumber: string;
  filingDate: string;
  reportDate: string;
  form: string;
  fileNumber: string;
  items: string;
  act: string;
  primaryDocument: string;
}

const submissions = readJson(path.join(ROOT, `submissions/CIK000${CIK}.json`)) as Submissions;
const teslaSubmissions = readJson(path.join(REAL, "submissions-CIK0001318605.json")) as Submissions;
const recent = submissions.filings.recent;
const filings: Filing[] = (recent.accessionNumber ?? []).map(
  (_, i) => Object.fromEntries(Object.entries(recent).map(([key, column]) => [key, column[i]])) as unknown as Filing,
);
const byForm = (form: string, filed: string) => {
  const filing = filings.find((f) => f.form === form && f.filingDate === filed);
  if (!filing) throw new Error(`no ${form} filed ${filed}`);
  return filing;
};
const folderOf = (filing: Filing) => `Archives/edgar/data/${CIK}/${filing.accessionNumber.replace(/-/g, "")}`;
/** EDGAR names an EFFECT's rendered view "xslEFFECTX01/primary_doc.xml"; the folder holds the raw primary_doc.xml. */
const storedName = (primaryDocument: string) => primaryDocument.replace(/^xsl[^/]+\//, "");
const primaryText = (filing: Filing) => read(`${folderOf(filing)}/${storedName(filing.primaryDocument)}`);

const s3 = byForm("S-3", "2024-06-20");
const effect = byForm("EFFECT", "2024-07-02");
const takedown = byForm("424B5", "2025-01-20");
const notice = byForm("8-K", "2025-03-10");
const regained = byForm("8-K", "2025-09-15");

describe("the constructed submissions", () => {
  it("have Tesla's top-level keys and filings.recent columns, in the same order, all of one length", () => {
    expect(Object.keys(submissions)).toEqual(Object.keys(teslaSubmissions));
    expect(Object.keys(recent)).toEqual(Object.keys(teslaSubmissions.filings.recent));
    for (const column of Object.values(recent)) expect(column).toHaveLength(9);
    for (const [key, column] of Object.entries(recent)) {
      const realType = typeof teslaSubmissions.filings.recent[key]?.[0];
      expect(column.every((value) => typeof value === realType), key).toBe(true);
    }
    expect(submissions.filings.files).toEqual([]);
    expect(submissions).toMatchObject({ cik: CIK, name: "Constructed Biotech Example Inc.", sic: "2834", tickers: ["ZZBX"] });
  });

  it("list the filings newest first, with unique accession numbers in EDGAR's format", () => {
    const dates = filings.map((f) => f.filingDate);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(filings.map((f) => `${f.form} ${f.filingDate}`)).toEqual([
      "8-K 2025-09-15",
      "10-Q 2025-08-12",
      "10-Q 2025-05-13",
      "8-K 2025-03-10",
      "10-K 2025-03-05",
      "424B5 2025-01-20",
      "EFFECT 2024-07-02",
      "S-3 2024-06-20",
      "8-K 2024-05-14",
    ]);
    const accessions = filings.map((f) => f.accessionNumber);
    expect(new Set(accessions).size).toBe(accessions.length);
    for (const a of accessions) expect(a).toMatch(/^\d{10}-\d{2}-\d{6}$/);
    expect(effect.accessionNumber.startsWith("9999999995-24-")).toBe(true);
  });

  it("set file numbers, acts and items as EDGAR does", () => {
    for (const f of [s3, effect, takedown]) expect([f.fileNumber, f.act]).toEqual(["333-280001", "33"]);
    for (const f of filings.filter((f) => ["8-K", "10-Q", "10-K"].includes(f.form))) expect([f.fileNumber, f.act]).toEqual(["001-39999", "34"]);
    expect([notice.items, regained.items, byForm("8-K", "2024-05-14").items]).toEqual(["3.01,9.01", "3.01", "2.02,9.01"]);
    expect(byForm("10-Q", "2025-08-12").reportDate).toBe("2025-06-30");
    expect(byForm("10-K", "2025-03-05").reportDate).toBe("2024-12-31");
    expect(effect.primaryDocument).toBe("xslEFFECTX01/primary_doc.xml");
  });
});

describe("the constructed filing folders", () => {
  const folders = readdirSync(path.join(ROOT, `Archives/edgar/data/${CIK}`)).sort();

  it("exist for the S-3, its EFFECT, the 424B5 and both Item 3.01 8-Ks, holding exactly what index.json lists", () => {
    expect(folders).toEqual([s3, takedown, notice, regained, effect].map((f) => f.accessionNumber.replace(/-/g, "")).sort());
    for (const folder of folders) {
      const dir = path.join(ROOT, `Archives/edgar/data/${CIK}`, folder);
      const index = read(`Archives/edgar/data/${CIK}/${folder}/index.json`);
      const entries = parseFilingIndex(index);
      expect(entries.length).toBeGreaterThan(0);
      for (const entry of entries) expect(statSync(path.join(dir, entry.name)).size, entry.name).toBe(entry.size);
      expect(readdirSync(dir).sort()).toEqual([...entries.map((e) => e.name), "index.json"].sort());
      expect((JSON.parse(index) as { directory: { name: string } }).directory.name).toBe(`/Archives/edgar/data/${CIK}/${folder}`);
    }
  });

  it("hold every primary document that submissions names", () => {
    for (const filing of [s3, effect, takedown, notice, regained]) {
      const names = parseFilingIndex(read(`${folderOf(filing)}/index.json`)).map((e) => e.name);
      expect(names).toContain(storedName(filing.primaryDocument));
      expect(existsSync(path.join(ROOT, folderOf(filing), storedName(filing.primaryDocument)))).toBe(true);
    }
  });

  it("have the same index.json keys as the real one", () => {
    const realIndex = readJson(path.join(REAL, "filing-index-0001213900-24-004875.json")) as {
      directory: { item: Record<string, unknown>[] };
    };
    const ours = JSON.parse(read(`${folderOf(s3)}/index.json`)) as typeof realIndex;
    expect(Object.keys(ours.directory)).toEqual(Object.keys(realIndex.directory));
    expect(Object.keys(ours.directory.item[0] ?? {})).toEqual(Object.keys(realIndex.directory.item[0] ?? {}));
  });
});

describe("the constructed documents, read by the parsers", () => {
  const feeExhibitOf = (filing: Filing) => {
    const name = pickFeeExhibit(parseFilingIndex(read(`${folderOf(filing)}/index.json`)));
    expect(name).toBe("ex-filingfees.htm");
    return feeExhibitCents(read(`${folderOf(filing)}/${name}`));
  };

  it("S-3: a $100,000,000 universal shelf, not itself an ATM", () => {
    expect(feeExhibitOf(s3)).toBe(10_000_000_000n);
    expect(isAtmOffering(htmlToText(primaryText(s3)))).toBe(false);
  });

  it("EFFECT: the S-3's file number effective 2024-07-01, in the XML and in the submissions row", () => {
    expect(parseEffectNotice(primaryText(effect))).toEqual({
      fileNumber: "333-280001",
      form: "S-3",
      effectiveDate: "2024-07-01",
      cik: "0009990001",
      entityName: "Constructed Biotech Example Inc.",
    });
    expect(parseEffectItems(effect.items)).toEqual({ form: "S-3", effectiveDate: "2024-07-01" });
  });

  it("424B5: a $15,000,000 at-the-market takedown of that shelf", () => {
    expect(feeExhibitOf(takedown)).toBe(1_500_000_000n);
    const text = htmlToText(primaryText(takedown));
    expect(isAtmOffering(text)).toBe(true);
    expect(text).toContain("Registration No. 333-280001");
  });

  it("8-K of 2025-03-10: a minimum bid price deficiency, not regained", () => {
    const text = htmlToText(primaryText(notice));
    expect(classifyDeficiency(text)).toBe("minimum_bid_price");
    expect(regainsCompliance(text)).toBe(false);
    expect(text).toContain("until September 8, 2025");
    expect(pickFeeExhibit(parseFilingIndex(read(`${folderOf(notice)}/index.json`)))).toBeNull();
    const press = htmlToText(read(`${folderOf(notice)}/ex99-1.htm`));
    expect([classifyDeficiency(press), regainsCompliance(press)]).toEqual(["minimum_bid_price", false]);
  });

  it("8-K of 2025-09-15: compliance with the minimum bid price regained", () => {
    const text = htmlToText(primaryText(regained));
    expect(classifyDeficiency(text)).toBe("minimum_bid_price");
    expect(regainsCompliance(text)).toBe(true);
  });
});

describe("the constructed companyfacts", () => {
  interface Fact {
    start?: string;
    end: string;
    val: number;
    accn: string;
    fy: number;
    fp: string;
    form: string;
    filed: string;
    frame?: string;
  }
  type Facts = { cik: number; entityName: string; facts: Record<string, Record<string, { label: string; description: string; units: Record<string, Fact[]> }>> };
  const facts = readJson(path.join(ROOT, `companyfacts/CIK000${CIK}.json`)) as Facts;
  const tesla = readJson(path.join(REAL, "companyfacts-CIK0001318605.json")) as Facts;
  const values = (ns: string, concept: string, unit: string) =>
    (facts.facts[ns]?.[concept]?.units[unit] ?? []).map((f) => [f.start ?? null, f.end, f.val, f.form, f.filed]);

  it("copy the real shape: keys, labels, descriptions, and the key order of each fact", () => {
    expect(Object.keys(facts)).toEqual(Object.keys(tesla));
    expect(facts.cik).toBe(Number(CIK));
    // a real duration fact that has every key, in EDGAR's order
    const realKeys = Object.keys(tesla.facts["us-gaap"]?.NetCashProvidedByUsedInOperatingActivities?.units.USD?.find((f) => f.frame) ?? {});
    expect(realKeys).toEqual(["start", "end", "val", "accn", "fy", "fp", "form", "filed", "frame"]);
    for (const [ns, concepts] of Object.entries(facts.facts)) {
      for (const [name, concept] of Object.entries(concepts)) {
        const real = tesla.facts[ns]?.[name];
        expect(real, name).toBeDefined();
        expect([concept.label, concept.description]).toEqual([real?.label, real?.description]);
        expect(Object.keys(concept)).toEqual(Object.keys(real ?? {}));
        for (const fact of Object.values(concept.units).flat()) {
          expect(Object.keys(fact)).toEqual(realKeys.filter((key) => key in fact));
        }
      }
    }
  });

  it("hold the briefed values, each from a filing listed in submissions", () => {
    expect(values("us-gaap", "CashAndCashEquivalentsAtCarryingValue", "USD")).toEqual([
      [null, "2023-12-31", 41_200_000, "10-K", "2025-03-05"],
      [null, "2024-12-31", 30_500_000, "10-K", "2025-03-05"],
      [null, "2024-12-31", 30_500_000, "10-Q", "2025-05-13"], // comparatives, as filers report them
      [null, "2024-12-31", 30_500_000, "10-Q", "2025-08-12"],
      [null, "2025-03-31", 24_100_000, "10-Q", "2025-05-13"],
      [null, "2025-06-30", 18_700_000, "10-Q", "2025-08-12"],
    ]);
    expect(values("us-gaap", "NetCashProvidedByUsedInOperatingActivities", "USD")).toEqual([
      ["2024-01-01", "2024-12-31", -24_000_000, "10-K", "2025-03-05"],
      ["2025-01-01", "2025-03-31", -6_000_000, "10-Q", "2025-05-13"],
      ["2025-01-01", "2025-06-30", -13_000_000, "10-Q", "2025-08-12"],
    ]);
    expect(values("dei", "EntityCommonStockSharesOutstanding", "shares").map(([, end, val]) => [end, val])).toEqual([
      ["2025-05-09", 38_000_000],
      ["2025-08-08", 45_000_000],
    ]);
    expect(values("dei", "EntityPublicFloat", "USD")).toEqual([[null, "2024-06-28", 52_000_000, "10-K", "2025-03-05"]]);
    expect(values("us-gaap", "LongTermDebtNoncurrent", "USD")).toEqual([[null, "2025-06-30", 2_000_000, "10-Q", "2025-08-12"]]);
    const allFacts = Object.values(facts.facts).flatMap((concepts) => Object.values(concepts).flatMap((c) => Object.values(c.units).flat()));
    for (const fact of allFacts) {
      expect(filings.find((f) => f.accessionNumber === fact.accn), fact.accn).toMatchObject({ form: fact.form, filingDate: fact.filed });
    }
  });
});

describe("the constructed ticker maps", () => {
  it("have the real company_tickers.json entry shape, TSLA copied as it is", () => {
    const tickers = readJson(path.join(ROOT, "company_tickers.json")) as Record<string, { cik_str: number; ticker: string; title: string }>;
    const realTsla = readFileSync(path.join(REAL, "company_tickers.json"), "utf8").match(/\{"cik_str":1318605,[^}]*\}/)?.[0];
    expect(Object.values(tickers).map((t) => JSON.stringify(t))).toEqual([
      JSON.stringify({ cik_str: 9990001, ticker: "ZZBX", title: "Constructed Biotech Example Inc." }),
      realTsla,
    ]);
  });

  it("list ZZBX, TSLA and the OTC example in SEC's fields/data shape", () => {
    expect(readJson(path.join(ROOT, "company_tickers_exchange.json"))).toEqual({
      fields: ["cik", "name", "ticker", "exchange"],
      data: [
        [9990001, "Constructed Biotech Example Inc.", "ZZBX", "Nasdaq"],
        [1318605, "Tesla, Inc.", "TSLA", "Nasdaq"],
        [9990002, "Constructed Otc Example Corp", "ZZOT", "OTC"],
      ],
    });
  });
});
