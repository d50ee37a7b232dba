import type { EightKInspection } from "./inspect";
import { scorePairedItems } from "./periodic-score";
import { checkQuotes, missingQuote, newTally, summarize, tally, type FieldScore, type GroundTruth, type Mismatch, type Score, type ScoredFiling } from "./score";
import { nameKey } from "./text";

/**
 * The accuracy of the 8-K reader (`inspect` of an 8-K: its items and the
 * financing terms of Items 1.01 and 3.02, ./eight-k-terms.ts) against
 * hand-checked ground truth (fixtures/edgar/PERIODIC-FILINGS.md, "8-K"),
 * scored like the periodic reports (./periodic-score.ts):
 *
 * - a stated fact is a non-null value of the truth, inside objects and lists
 *   too ("agent_warrants[].exercise_price"); a value where the truth has null
 *   is invented, and so is every value of a list item the truth does not have
 *   (a note read from "per $1,000 principal amount" is an invented note);
 * - list items are paired by content, best first (periodic-score.ts's
 *   `matchItems`); a truth item left over is missed in full;
 * - `items` and `purchasers` are lists of single values: each value the truth
 *   has is a fact, each one read that it lacks is invented;
 * - a list item's yes/no flags (`pre_funded`, `inducement`, `existing`) are
 *   facts only when true: false is the default, not a statement; a closing's
 *   `subsequent` is not scored (an 8-K has no period). Top-level `registered`
 *   is a fact either way (a private placement states that it is one);
 * - the offering readers' fields the 8-K inspection also carries
 *   (`offering_type`, `common_shares_offered`, …: a prospectus's fields) are
 *   facts of no 8-K: any value there is invented;
 * - the cover (accession, CIK, company, form, filing date, file number,
 *   document name) is scored apart, as for the other kinds;
 * - every value the reader gives carries a quote found in the filing's
 *   visible text (all its documents), but for the item numbers, read from
 *   the headings, and yes/no flags of list items.
 *
 * Counts are equal or not; amounts and prices agree within half a cent; names
 * ignore case, spacing and punctuation; dates and kinds are equal as written;
 * `exercisable` (a date, "immediately", or the condition as written) ignores
 * case, spacing and punctuation.
 */
type Item = Record<string, unknown>;

const COVER_FIELDS = ["accession", "cik", "company", "form", "filed", "file_number", "primary_document"] as const;
/** The 8-K reader's single values. */
const SCALARS = ["agreement_kind", "agreement_date", "common_shares", "price_per_share", "gross_proceeds", "inducement", "placement_agent", "agent_role", "anti_dilution", "registered"] as const;
const LISTS = ["warrants", "agent_warrants", "convertible_notes", "reverse_splits", "closings"] as const;
const OBJECTS = ["equity_line"] as const;
const VALUE_LISTS = ["items", "purchasers"] as const;
/** Flags of a list item: a fact when true. */
const ITEM_FLAGS = new Set(["pre_funded", "inducement", "existing"]);
/** Not scored: descriptive. */
const NOT_SCORED = new Set(["subsequent"]);
/** Not facts of a filing, or the cover's, scored apart; the SEC header's own item titles are the cover's too. */
const NOT_TERMS = new Set<string>([...COVER_FIELDS, ...SCALARS, ...LISTS, ...OBJECTS, ...VALUE_LISTS, "evidence", "other_filers", "header_items"]);
const NAMES = new Set(["placement_agent", "counterparty"]);

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || (Array.isArray(value) && value.length === 0);
}

export function equalEightKValues(field: string, expected: unknown, actual: unknown): boolean {
  if (actual === null || actual === undefined) return false;
  const leaf = field.replace(/^.*[.\]]/, "");
  if (typeof expected === "number") {
    if (typeof actual !== "number") return false;
    return Number.isInteger(expected) && /shares|count|cik/.test(leaf) ? actual === expected : Math.abs(actual - expected) <= 0.005 + 1e-9;
  }
  if (typeof expected === "string") {
    if (typeof actual !== "string") return false;
    if (NAMES.has(leaf) || leaf === "exercisable") return nameKey(expected) === nameKey(actual);
    return expected.trim().toLowerCase() === actual.trim().toLowerCase();
  }
  if (Array.isArray(expected)) {
    // a closing's instruments: the same names, in any order
    if (!Array.isArray(actual) || actual.length !== expected.length) return false;
    const key = (list: unknown[]) => list.map((v) => nameKey(String(v))).sort().join("|");
    return key(expected) === key(actual);
  }
  return expected === actual;
}

interface Scoring {
  fields: Map<string, FieldScore>;
  mismatches: Mismatch[];
  accession: string;
}

function scoreValue(s: Scoring, field: string, expected: unknown, actual: unknown) {
  const present = !isEmpty(actual);
  if (isEmpty(expected)) {
    if (present) {
      tally(s.fields, field).invented++;
      s.mismatches.push({ accession: s.accession, field, expected: null, actual, kind: "invented" });
    }
    return;
  }
  const entry = tally(s.fields, field);
  entry.stated++;
  if (equalEightKValues(field, expected, actual)) entry.correct++;
  else if (!present) {
    entry.missed++;
    s.mismatches.push({ accession: s.accession, field, expected, actual: null, kind: "missed" });
  } else {
    entry.wrong++;
    s.mismatches.push({ accession: s.accession, field, expected, actual, kind: "wrong" });
  }
}

/** A list item as scored: flags false are "not stated", descriptive keys dropped. */
function scoredItem(item: Item): Item {
  const out: Item = {};
  for (const [key, value] of Object.entries(item)) {
    if (NOT_SCORED.has(key)) continue;
    out[key] = ITEM_FLAGS.has(key) && value === false ? null : value;
  }
  return out;
}

function scoreObject(s: Scoring, field: string, expected: Item | null, actual: Item | null) {
  const keys = new Set([...Object.keys(expected ?? {}), ...Object.keys(actual ?? {})]);
  for (const key of keys) scoreValue(s, `${field}.${key}`, expected?.[key] ?? null, actual?.[key] ?? null);
}

function scoreList(s: Scoring, field: string, expected: Item[], actual: Item[]) {
  scorePairedItems(field, expected.map(scoredItem), actual.map(scoredItem), equalEightKValues, (truth, read) => scoreObject(s, `${field}[]`, truth, read));
}

/** Single values of a list ("1.01", a purchaser's name): each truth value found once, each extra one invented. */
function scoreValues(s: Scoring, field: string, expected: unknown[], actual: unknown[]) {
  const left = [...actual];
  for (const value of expected) {
    const at = left.findIndex((a) => (field === "items" ? String(a) === String(value) : nameKey(String(a)) === nameKey(String(value))));
    const entry = tally(s.fields, field);
    entry.stated++;
    if (at >= 0) {
      entry.correct++;
      left.splice(at, 1);
    } else {
      entry.missed++;
      s.mismatches.push({ accession: s.accession, field, expected: value, actual: null, kind: "missed" });
    }
  }
  for (const value of left) {
    tally(s.fields, field).invented++;
    s.mismatches.push({ accession: s.accession, field, expected: null, actual: value, kind: "invented" });
  }
}

/** Every value the reader gives, by evidence path ("agent_warrants[0].expiry"), that must carry a quote. */
export function eightKQuotedPaths(inspection: EightKInspection): string[] {
  const record = inspection as unknown as Record<string, unknown>;
  const paths: string[] = [];
  for (const field of SCALARS) if (!isEmpty(record[field])) paths.push(field);
  for (const field of OBJECTS) {
    for (const [key, v] of Object.entries((record[field] as Item | null) ?? {})) if (!isEmpty(v) && typeof v !== "boolean") paths.push(`${field}.${key}`);
  }
  for (const field of LISTS) {
    ((record[field] as Item[] | undefined) ?? []).forEach((item, i) => {
      for (const [key, v] of Object.entries(item)) if (!isEmpty(v) && typeof v !== "boolean" && !NOT_SCORED.has(key)) paths.push(`${field}[${i}].${key}`);
    });
  }
  ((record.purchasers as string[] | null) ?? []).forEach((_, i) => paths.push(`purchasers[${i}]`));
  return paths;
}

export type ScoredEightK = ScoredFiling<EightKInspection>;

export function scoreEightKInspections(items: ScoredEightK[]): Score {
  const t = newTally();
  for (const { truth, inspection, visibleText } of items) {
    const s: Scoring = { fields: t.fields, mismatches: t.mismatches, accession: truth.accession };
    const cover: Scoring = { fields: t.header, mismatches: t.mismatches, accession: truth.accession };
    const actual = inspection as unknown as Record<string, unknown>;
    for (const field of COVER_FIELDS) scoreValue(cover, field, truth[field] ?? null, actual[field] ?? null);
    for (const field of VALUE_LISTS) scoreValues(s, field, (truth[field] as unknown[] | null) ?? [], (actual[field] as unknown[] | null) ?? []);
    for (const field of SCALARS) scoreValue(s, field, truth[field] ?? null, actual[field] ?? null);
    for (const field of OBJECTS) scoreObject(s, field, (truth[field] as Item | null) ?? null, (actual[field] as Item | null) ?? null);
    for (const field of LISTS) scoreList(s, field, (truth[field] as Item[] | null) ?? [], (actual[field] as Item[] | undefined) ?? []);
    // a prospectus's fields: nothing an 8-K states
    for (const [field, value] of Object.entries(actual)) {
      if (NOT_TERMS.has(field) || isEmpty(value) || (field === "fee_table_kind" && value === "none") || value === false) continue;
      scoreValue(s, field, null, value);
    }
    checkQuotes(t, truth.accession, inspection.evidence, visibleText);
    for (const path of eightKQuotedPaths(inspection)) if (!inspection.evidence[path]) missingQuote(t, truth.accession, path);
  }
  return summarize(items.length, t);
}

/** True for ground truth of an 8-K in PERIODIC-FILINGS.md's "8-K" format (`kind` current_8k). */
export function isEightKTruth(truth: GroundTruth): boolean {
  return truth.kind === "current_8k";
}
