import { blocksText } from "./html";
import type { Inspection } from "./inspect";
import type { Filing } from "./submission";
import { nameKey } from "./text";

/**
 * The accuracy of `inspect` against hand-checked ground truth
 * (../shared/fixtures/edgar/REAL-FILINGS.md): a stated fact is a non-null
 * top-level field of a ground-truth file (not its evidence, notes or extras);
 * the SEC header's fields are scored apart. Counts must be equal, prices and
 * amounts within half a cent, names equal ignoring case, spacing and
 * punctuation; a value where the truth is null is invented; every value's
 * quote must be found in the filing's visible text.
 */
export type GroundTruth = Record<string, unknown> & { accession: string };

/** Not facts of the filing: how the ground truth is kept. */
const NOT_SCORED = new Set(["evidence", "extra", "extra_evidence", "notes", "uncertain_fields", "kind", "source_url", "offering_type_also_acceptable"]);
/** Read from the SEC header (or the file's place), scored apart from what the documents state. */
export const HEADER_FIELDS = new Set(["accession", "cik", "company", "form", "filed", "file_number", "primary_document"]);
const NAME_FIELDS = new Set(["agent", "company"]);
const TEXT_FIELDS = new Set(["warrant_term"]);

export interface FieldScore {
  field: string;
  stated: number;
  correct: number;
  wrong: number;
  missed: number;
  invented: number;
}

export interface Mismatch {
  accession: string;
  field: string;
  expected: unknown;
  actual: unknown;
  kind: "wrong" | "missed" | "invented" | "quote";
}

export interface Score {
  filings: number;
  fields: FieldScore[];
  header: FieldScore[];
  stated: number;
  correct: number;
  invented: number;
  quotesChecked: number;
  quotesMissing: number;
  mismatches: Mismatch[];
}

/** Quotes are compared without markup, whitespace or the difference between typographic and plain quotes and dashes. */
export function normalizeForQuote(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/[\u2018\u2019\u201a\u2032`´]/g, "'")
    .replace(/[\u201c\u201d\u201e\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/[\s\u00a0\u200b-\u200d\u2060\ufeff\u00ad]+/g, "")
    .toLowerCase();
}

function normalizedText(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
}

function equalValues(field: string, expected: unknown, actual: unknown, truth: GroundTruth): boolean {
  if (actual === null || actual === undefined) return false;
  if (field === "offering_type") {
    const also = Array.isArray(truth.offering_type_also_acceptable) ? truth.offering_type_also_acceptable : [];
    return actual === expected || also.includes(actual);
  }
  if (typeof expected === "number") {
    if (typeof actual !== "number") return false;
    return Number.isInteger(expected) && /shares|offered|count/.test(field) ? actual === expected : Math.abs(actual - expected) <= 0.005 + 1e-9;
  }
  if (typeof expected === "string") {
    if (typeof actual !== "string") return false;
    if (NAME_FIELDS.has(field)) return nameKey(expected) === nameKey(actual);
    if (TEXT_FIELDS.has(field)) return normalizedText(expected) === normalizedText(actual);
    return expected.trim().toLowerCase() === actual.trim().toLowerCase();
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return false;
    return expected.every((item, i) => {
      const other = actual[i];
      if (item && typeof item === "object") {
        const a = item as Record<string, unknown>;
        const b = (other ?? {}) as Record<string, unknown>;
        return Object.keys(a).every((key) => (typeof a[key] === "string" ? nameKey(String(a[key])) === nameKey(String(b[key] ?? "")) : a[key] === b[key]));
      }
      return normalizedText(String(item)) === normalizedText(String(other ?? ""));
    });
  }
  return JSON.stringify(expected) === JSON.stringify(actual);
}

export function tally(map: Map<string, FieldScore>, field: string): FieldScore {
  let entry = map.get(field);
  if (!entry) {
    entry = { field, stated: 0, correct: 0, wrong: 0, missed: 0, invented: 0 };
    map.set(field, entry);
  }
  return entry;
}

/** The visible text of every document of a filing, normalized for finding quotes. */
export function filingQuoteText(filing: Filing): string {
  return normalizeForQuote(filing.documents.map((d) => blocksText(d.blocks())).join("\n"));
}

export interface ScoredFiling<I = Inspection> {
  truth: GroundTruth;
  inspection: I;
  /** normalizeForQuote of the filing's visible text */
  visibleText: string;
}

export function scoreInspections(items: ScoredFiling[]): Score {
  const t = newTally();
  const { fields, header, mismatches } = t;
  for (const { truth, inspection, visibleText } of items) {
    const actualOf = inspection as unknown as Record<string, unknown>;
    for (const [field, expected] of Object.entries(truth)) {
      if (NOT_SCORED.has(field)) continue;
      const isHeader = HEADER_FIELDS.has(field);
      const entry = tally(isHeader ? header : fields, field);
      const actual = actualOf[field] ?? null;
      if (expected === null) {
        if (actual !== null) {
          entry.invented++;
          mismatches.push({ accession: truth.accession, field, expected, actual, kind: "invented" });
        }
        continue;
      }
      entry.stated++;
      if (equalValues(field, expected, actual, truth)) entry.correct++;
      else if (actual === null) {
        entry.missed++;
        mismatches.push({ accession: truth.accession, field, expected, actual, kind: "missed" });
      } else {
        entry.wrong++;
        mismatches.push({ accession: truth.accession, field, expected, actual, kind: "wrong" });
      }
    }
    checkQuotes(t, truth.accession, inspection.evidence, visibleText);
    for (const [field, value] of Object.entries(actualOf)) {
      if (field === "evidence" || HEADER_FIELDS.has(field) || value === null || field === "other_filers" || field === "header_items") continue;
      if (field === "fee_table_kind" && value === "none") continue;
      if (Array.isArray(value)) {
        // A list's items are quoted value by value ("private_placement_warrants[0].shares"); a yes/no read from the same words needs none of its own.
        value.forEach((item: Record<string, unknown>, index) => {
          for (const [key, part] of Object.entries(item)) {
            if (part === null || typeof part === "boolean" || inspection.evidence[`${field}[${index}].${key}`]) continue;
            missingQuote(t, truth.accession, `${field}[${index}].${key}`);
          }
        });
        continue;
      }
      if (typeof value === "object") {
        // An object's values are quoted one by one ("baby_shelf.remaining").
        for (const [key, part] of Object.entries(value as Record<string, unknown>)) {
          if (part === null || typeof part === "boolean" || inspection.evidence[`${field}.${key}`]) continue;
          missingQuote(t, truth.accession, `${field}.${key}`);
        }
        continue;
      }
      if (!inspection.evidence[field]) missingQuote(t, truth.accession, field);
    }
  }
  return summarize(items.length, t);
}

/** What scoring counts while it goes through the filings. */
export interface Tally {
  fields: Map<string, FieldScore>;
  header: Map<string, FieldScore>;
  mismatches: Mismatch[];
  quotesChecked: number;
  quotesMissing: number;
}

export function newTally(): Tally {
  return { fields: new Map(), header: new Map(), mismatches: [], quotesChecked: 0, quotesMissing: 0 };
}

/** Checks that every quote of an inspection is in the filing's visible text; each one that is not is a mismatch. */
export function checkQuotes(t: Tally, accession: string, evidence: Record<string, string>, visibleText: string) {
  for (const [field, quote] of Object.entries(evidence)) {
    t.quotesChecked++;
    if (visibleText.includes(normalizeForQuote(quote))) continue;
    t.quotesMissing++;
    t.mismatches.push({ accession, field, expected: "quote in the filing", actual: quote, kind: "quote" });
  }
}

/** A value given without the quote it was read from. */
export function missingQuote(t: Tally, accession: string, field: string) {
  t.quotesMissing++;
  t.mismatches.push({ accession, field, expected: "a quote", actual: null, kind: "quote" });
}

/** The score of a set of filings from its per-field tallies. */
export function summarize(filings: number, t: Tally): Score {
  const { fields, header, quotesChecked, quotesMissing, mismatches } = t;
  const list = [...fields.values()].sort((a, b) => a.field.localeCompare(b.field));
  return {
    filings,
    fields: list,
    header: [...header.values()].sort((a, b) => a.field.localeCompare(b.field)),
    stated: list.reduce((n, f) => n + f.stated, 0),
    correct: list.reduce((n, f) => n + f.correct, 0),
    invented: list.reduce((n, f) => n + f.invented, 0),
    quotesChecked,
    quotesMissing,
    mismatches,
  };
}

/** Two scores as one (the prospectus and the periodic-report ground truth scored together); a field scored by both adds up. */
export function mergeScores(a: Score, b: Score): Score {
  const add = (x: FieldScore[], y: FieldScore[]) => {
    const map = new Map<string, FieldScore>();
    for (const f of [...x, ...y]) {
      const entry = map.get(f.field);
      if (!entry) map.set(f.field, { ...f });
      else for (const key of ["stated", "correct", "wrong", "missed", "invented"] as const) entry[key] += f[key];
    }
    return [...map.values()].sort((p, q) => p.field.localeCompare(q.field));
  };
  return {
    filings: a.filings + b.filings,
    fields: add(a.fields, b.fields),
    header: add(a.header, b.header),
    stated: a.stated + b.stated,
    correct: a.correct + b.correct,
    invented: a.invented + b.invented,
    quotesChecked: a.quotesChecked + b.quotesChecked,
    quotesMissing: a.quotesMissing + b.quotesMissing,
    mismatches: [...a.mismatches, ...b.mismatches],
  };
}

const pct = (n: number, d: number) => (d === 0 ? "—" : `${((100 * n) / d).toFixed(1)} %`);

/** The per-field table a person reads (Markdown, so the docs can reproduce it as printed). */
export function formatScore(score: Score): string {
  const row = (f: FieldScore) => `| ${f.field} | ${f.stated} | ${f.correct} | ${f.wrong} | ${f.missed} | ${f.invented} | ${pct(f.correct, f.stated)} |`;
  const lines = [
    `${score.filings} filings; ${score.correct} of ${score.stated} stated facts correct (${pct(score.correct, score.stated)}); ${score.invented} invented; ${score.quotesChecked - score.quotesMissing} of ${score.quotesChecked} quotes found${score.quotesMissing ? `, ${score.quotesMissing} missing` : ""}.`,
    "",
    "| field | stated | correct | wrong | missed | invented | accuracy |",
    "|---|---|---|---|---|---|---|",
    ...score.fields.map(row),
    "",
    "SEC header (scored apart):",
    "",
    "| field | stated | correct | wrong | missed | invented | accuracy |",
    "|---|---|---|---|---|---|---|",
    ...score.header.map(row),
  ];
  if (score.mismatches.length) {
    lines.push("", "Mismatches:");
    for (const m of score.mismatches) lines.push(`- ${m.accession} ${m.field} (${m.kind}): expected ${JSON.stringify(m.expected)}, got ${JSON.stringify(m.actual)}`);
  }
  return `${lines.join("\n")}\n`;
}
