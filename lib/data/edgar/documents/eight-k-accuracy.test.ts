import path from "node:path";
import { describe, expect, it } from "vitest";
import { evaluate } from "@/lib/cli/edgar-inspect";
import { scoreEightKInspections } from "./eight-k-score";
import type { EightKInspection } from "./inspect";
import type { GroundTruth } from "./score";

/**
 * The 8-K reader scored on seven real 8-Ks with hand-checked ground truth
 * (fixtures/edgar/ground-truth, PERIODIC-FILINGS.md's "8-K" section;
 * eight-k-score.ts says how): Marygold's underwritten offering with the
 * underwriter's warrants (1.01), Nuance's sale of shares and warrants to
 * Warburg Pincus (3.02 alone) and its Rule 144A convertible debentures (1.01
 * incorporating 2.03 and 3.02), Westell's 1999 debentures and warrants told
 * under the old "Item 5. Other Events", and four with no financing to read:
 * Astrotech's bank loan (1.01), Concierge's name change (5.03, no split) and
 * Westell's merger with a repricing of warrants sold before (old Item 5).
 * The same scoring is `npm run data:edgar -- eval fixtures/edgar/ground-truth
 * fixtures/edgar` (its 8-K table).
 *
 * Issue 26's bar is 95 % of stated facts, nothing invented, every quote
 * found. Measured before the reader was fixed for them: 21 of 68 facts
 * (30.9 %), 2 invented (a price per share that was the $100.0 million total;
 * a second debenture of $1,000 principal read from "per $1,000 principal
 * amount"), 7 of 7 quotes found: Marygold's Item 1.01 was not found behind the
 * cover's checkbox "o", the old Item 5 was not read, items incorporated by
 * reference were not, nor "Initial Purchasers", "Maturity. …" or "approximately
 * $19.47". After the fixes (each unit-tested in eight-k-terms.test.ts on the
 * filings' sentences, as rules of the kind): 68 of 68, none invented, every
 * quote found; the bar here is that measured level. The cover is scored
 * apart: the three 8-Ks without inline XBRL (Nuance's two, Astrotech's) lack
 * a company name and file number from their cover, as inspect reads it today.
 */
const FIXTURES = path.resolve(process.cwd(), "fixtures/edgar");

describe("accuracy on real 8-Ks", () => {
  const { parts, missing } = evaluate(path.join(FIXTURES, "ground-truth"), FIXTURES);
  const score = parts.eightK!;

  it("scores every 8-K ground-truth filing", () => {
    expect(missing).toEqual([]);
    expect(score.filings).toBeGreaterThanOrEqual(7);
    expect(score.stated).toBeGreaterThanOrEqual(68);
  });

  it("gets every stated fact right, the level measured (30.9 % before the reader's 8-K fixes)", () => {
    const wrong = score.mismatches.filter((m) => m.kind === "wrong" || m.kind === "missed");
    const facts = wrong.filter((m) => !["company", "file_number"].includes(m.field));
    expect(score.correct / score.stated, JSON.stringify(facts, null, 1)).toBeGreaterThanOrEqual(68 / 68);
  });

  it("invents nothing: no value where the filing states none, no instrument it does not have", () => {
    expect(score.mismatches.filter((m) => m.kind === "invented")).toEqual([]);
  });

  it("quotes every value from the filing's visible text", () => {
    expect(score.mismatches.filter((m) => m.kind === "quote")).toEqual([]);
    expect(score.quotesChecked).toBeGreaterThanOrEqual(47);
  });

  it("reads the cover, with or without inline XBRL (the registrant's name above 'Exact name of registrant', the file number at 'Commission File Number')", () => {
    for (const field of score.header) {
      expect(field.wrong, field.field).toBe(0);
      expect(field.missed, field.field).toBe(0);
    }
  });
});

describe("scoreEightKInspections", () => {
  const base = { accession: "0000000000-00-000001", cik: 1, company: "X", form: "8-K", filed: null, file_number: null, primary_document: null };
  const note = (principal: number | null) => ({ principal, conversion_price: null, conversion_percent_of_market: null, conversion_discount_percent: null, maturity: null, interest_rate: null });
  const read = (terms: Record<string, unknown>, evidence: Record<string, string>) => ({ ...base, items: null, warrants: [], agent_warrants: [], convertible_notes: [], purchasers: null, closings: [], reverse_splits: [], ...terms, evidence }) as unknown as EightKInspection;

  it("counts a note the filing does not have as invented, item numbers one by one, and a list item's false flags as no facts", () => {
    const truth = { ...base, kind: "current_8k", items: ["1.01", "3.02"], convertible_notes: [note(250_000_000)], warrants: [{ shares: 10, exercise_price: null, pre_funded: false, existing: false }] } as GroundTruth;
    const inspection = read(
      { items: ["1.01", "7.01"], convertible_notes: [note(250_000_000), note(1000)], warrants: [{ shares: 10, exercise_price: null, pre_funded: false, existing: false }] },
      { "convertible_notes[0].principal": "sold $250 million", "convertible_notes[1].principal": "per $1,000 principal amount", "warrants[0].shares": "10 shares" },
    );
    const score = scoreEightKInspections([{ truth, inspection, visibleText: "sold$250million per$1,000principalamount 10shares" }]);
    const field = (name: string) => score.fields.find((f) => f.field === name);
    expect(field("items")).toMatchObject({ stated: 2, correct: 1, missed: 1, invented: 1 });
    expect(field("convertible_notes[].principal")).toMatchObject({ stated: 1, correct: 1, invented: 1 });
    expect(field("warrants[].shares")).toMatchObject({ stated: 1, correct: 1 });
    expect(field("warrants[].pre_funded")).toBeUndefined();
    expect(score.quotesMissing).toBe(0);
  });

  it("counts a prospectus field an 8-K inspection carries as invented, and a value without its quote as a quote missing", () => {
    const score = scoreEightKInspections([{ truth: { ...base, kind: "current_8k", price_per_share: null } as GroundTruth, inspection: read({ price_per_share: 100_000_000, offering_type: "atm" }, {}), visibleText: "" }]);
    expect(score.invented).toBe(2);
    expect(score.mismatches.filter((m) => m.kind === "quote").map((m) => m.field)).toEqual(["price_per_share"]);
  });
});
