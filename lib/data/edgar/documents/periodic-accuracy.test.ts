import path from "node:path";
import { describe, expect, it } from "vitest";
import { evaluate } from "@/lib/cli/edgar-inspect";

/**
 * The periodic-report reader scored on real 10-Qs, 10-Ks and 20-Fs with
 * hand-checked ground truth (fixtures/edgar/ground-truth, PERIODIC-FILINGS.md's
 * rules; periodic-score.ts says how list items are matched). The same scoring
 * is `npm run data:edgar -- eval fixtures/edgar/ground-truth fixtures/edgar`
 * (its periodic-report table; the 8-Ks beside them are eight-k-accuracy.test.ts's).
 *
 * Issue 26's bar is 95 % of stated facts. Three of the 10-Qs were added after
 * the reader was written and were not used to write it, so they test it on
 * reports it had not seen: they first scored 97 of 103 (94.2 %), missing a
 * convertible note told only as a row of the debt table "(in millions)" with
 * its price in the table's footnote (Ford's 10-Q) and a note's principal told
 * as the aggregate issued, which its period-end carrying amount and discount
 * add up to (Marathon's 10-Q). The convertibles reader now reads both kinds of
 * statement (and small caps' convertible promissory notes, debentures and
 * preferred, unit-tested in periodic-report.test.ts): 103 of 103, and the bar
 * here is that measured level. No filing here has an equity line, so
 * `equity_lines` is scored only for inventing one.
 * The cover's company is the document's dei:EntityRegistrantName, which one
 * filer abbreviates ("Ford Motor Co" for the cover's "Ford Motor Company").
 */
const FIXTURES = path.resolve(process.cwd(), "fixtures/edgar");

describe("accuracy on real periodic reports", () => {
  // the folder holds 8-Ks too (eight-k-accuracy.test.ts): the periodic reports' part of the score
  const { parts, missing } = evaluate(path.join(FIXTURES, "ground-truth"), FIXTURES);
  const score = parts.periodic!;

  it("scores every ground-truth filing", () => {
    expect(missing).toEqual([]);
    expect(score.filings).toBeGreaterThanOrEqual(8);
    expect(score.stated).toBeGreaterThanOrEqual(103);
  });

  it("gets every stated fact right, the level measured (94.2 % before the convertibles reader read debt tables and period-end principals)", () => {
    const wrong = score.mismatches.filter((m) => m.kind === "wrong" || m.kind === "missed");
    expect(score.correct / score.stated, JSON.stringify(wrong, null, 1)).toBeGreaterThanOrEqual(103 / 103);
  });

  it("invents nothing: no value where the filing states none, no instrument it does not have", () => {
    expect(score.mismatches.filter((m) => m.kind === "invented")).toEqual([]);
  });

  it("quotes every value from the filing's visible text", () => {
    expect(score.mismatches.filter((m) => m.kind === "quote")).toEqual([]);
    expect(score.quotesChecked).toBeGreaterThanOrEqual(97);
  });

  it("reads the cover exactly: form, company, file number, period, and the accession and document from the file's place", () => {
    for (const field of score.header) {
      // one filer's dei:EntityRegistrantName abbreviates the name its cover writes out
      const allowed = field.field === "company" ? 1 : 0;
      expect(field.wrong, field.field).toBeLessThanOrEqual(allowed);
      expect(field.missed, field.field).toBe(0);
    }
  });
});
