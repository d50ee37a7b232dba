import type { PeriodicInspection } from "./inspect";
import { checkQuotes, missingQuote, newTally, summarize, tally, type FieldScore, type GroundTruth, type Mismatch, type Score, type ScoredFiling } from "./score";
import { nameKey } from "./text";

/**
 * The accuracy of the periodic-report reader against hand-checked ground truth
 * (fixtures/edgar/PERIODIC-FILINGS.md), scored like the prospectus ground
 * truth: a stated fact is a non-null value of the truth, inside objects and
 * arrays too ("warrants[].exercise_price"); a value where the truth has null
 * is invented, and so is every value of an array item the truth does not
 * have; every value the reader gives must carry a quote found in the filing's
 * visible text (but for `going_concern: false`, which the format states
 * without a quote).
 *
 * Array items are matched by content, not by order: each pair of a truth item
 * and a read item counts the fields on which they agree, and pairs are made
 * best first, one read item per truth item, when they agree on at least one
 * field other than `as_of` and `kind` (so two programs of one agent are told
 * apart by their sizes, sales and dates, and a warrant series by its count,
 * price and expiry). A truth item left without a partner is missed in full; a
 * read item left over is invented in full.
 *
 * Counts are equal or not; amounts and prices agree within half a cent; names
 * (agents, companies, notes) agree ignoring case, spacing and punctuation; a
 * warrant series' label agrees when one label contains the other or both name
 * the same date (the truth's labels are descriptive: "April 24, 2020 private
 * placement warrants"); dates, ratios and kinds are equal as written.
 */
type Item = Record<string, unknown>;

/** Descriptive flags and labels of the format, not scored. */
const FLAGS = new Set(["subsequent", "pre_funded", "in_period_label"]);
/** Read from the cover or the file's place, scored apart from the report's dilution facts. */
const COVER_FIELDS = ["accession", "cik", "company", "form", "filed", "file_number", "period", "primary_document"] as const;
const ARRAYS = ["warrants", "atm_programs", "equity_lines", "convertibles", "reverse_splits", "listing_deficiency"] as const;
const OBJECTS = ["shares_outstanding", "warrants_total"] as const;
const NAMES = new Set(["agent", "company", "name", "counterparty"]);
const NOT_IDENTIFYING = new Set(["as_of", "kind"]);
const DATE_IN_LABEL = /(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+\d{1,2},?\s+\d{4}/gi;

function sameSeries(expected: string, actual: string): boolean {
  const a = nameKey(expected);
  const b = nameKey(actual);
  if (a && b && (a.includes(b) || b.includes(a))) return true;
  const dates = (s: string) => new Set([...s.matchAll(DATE_IN_LABEL)].map((m) => nameKey(m[0])));
  const da = dates(expected);
  return [...dates(actual)].some((d) => da.has(d));
}

export function equalPeriodicValues(field: string, expected: unknown, actual: unknown): boolean {
  if (actual === null || actual === undefined) return false;
  const leaf = field.replace(/^.*[.\]]/, "");
  if (typeof expected === "number") {
    if (typeof actual !== "number") return false;
    return Number.isInteger(expected) && /shares|count|cik/.test(leaf) ? actual === expected : Math.abs(actual - expected) <= 0.005 + 1e-9;
  }
  if (typeof expected === "string") {
    if (typeof actual !== "string") return false;
    if (leaf === "series") return sameSeries(expected, actual);
    if (NAMES.has(leaf)) return nameKey(expected) === nameKey(actual);
    return expected.trim().toLowerCase() === actual.trim().toLowerCase();
  }
  return expected === actual;
}

interface Scoring {
  fields: Map<string, FieldScore>;
  mismatches: Mismatch[];
  accession: string;
}

function scoreValue(s: Scoring, field: string, expected: unknown, actual: unknown) {
  const entry = tally(s.fields, field);
  const present = actual !== null && actual !== undefined;
  if (expected === null || expected === undefined) {
    if (present) {
      entry.invented++;
      s.mismatches.push({ accession: s.accession, field, expected: null, actual, kind: "invented" });
    }
    return;
  }
  entry.stated++;
  if (equalPeriodicValues(field, expected, actual)) entry.correct++;
  else if (!present) {
    entry.missed++;
    s.mismatches.push({ accession: s.accession, field, expected, actual: null, kind: "missed" });
  } else {
    entry.wrong++;
    s.mismatches.push({ accession: s.accession, field, expected, actual, kind: "wrong" });
  }
}

function scoreObject(s: Scoring, field: string, expected: Item | null, actual: Item | null) {
  const keys = new Set([...Object.keys(expected ?? {}), ...Object.keys(actual ?? {})]);
  for (const key of keys) {
    if (FLAGS.has(key)) continue;
    scoreValue(s, `${field}.${key}`, expected?.[key] ?? null, actual?.[key] ?? null);
  }
}

type Equal = (field: string, expected: unknown, actual: unknown) => boolean;

function agreement(field: string, expected: Item, actual: Item, equal: Equal): number {
  let agree = 0;
  for (const [key, value] of Object.entries(expected)) {
    if (FLAGS.has(key) || NOT_IDENTIFYING.has(key) || value === null) continue;
    if (equal(`${field}[].${key}`, value, actual[key])) agree++;
  }
  return agree;
}

/** Pairs truth and read items best first (see the file's comment); returns [truth index, read index] pairs. `equal` compares two values of a field (the 8-K scorer's has its own). */
function matchItems(field: string, expected: Item[], actual: Item[], equal: Equal): [number, number][] {
  const pairs: { t: number; a: number; agree: number }[] = [];
  expected.forEach((e, t) => actual.forEach((a, i) => pairs.push({ t, a: i, agree: agreement(field, e, a, equal) })));
  pairs.sort((x, y) => y.agree - x.agree || x.t - y.t || x.a - y.a);
  const usedT = new Set<number>();
  const usedA = new Set<number>();
  const matched: [number, number][] = [];
  for (const p of pairs) {
    if (p.agree === 0 || usedT.has(p.t) || usedA.has(p.a)) continue;
    usedT.add(p.t);
    usedA.add(p.a);
    matched.push([p.t, p.a]);
  }
  return matched;
}

/** Pairs truth and read items (matchItems), then scores each pair, each truth item left over (missed) and each read item left over (invented). */
export function scorePairedItems(field: string, expected: Item[], actual: Item[], equal: Equal, scoreItem: (truth: Item | null, read: Item | null) => void) {
  const matched = matchItems(field, expected, actual, equal);
  const byTruth = new Map(matched.map(([t, a]) => [t, a]));
  const readMatched = new Set(matched.map(([, a]) => a));
  expected.forEach((item, t) => {
    const a = byTruth.get(t);
    scoreItem(item, a === undefined ? null : actual[a]!);
  });
  actual.forEach((item, a) => {
    if (!readMatched.has(a)) scoreItem(null, item);
  });
}

function scoreArray(s: Scoring, field: string, expected: Item[], actual: Item[]) {
  scorePairedItems(field, expected, actual, equalPeriodicValues, (truth, read) => scoreObject(s, `${field}[]`, truth, read));
}

/** Every value the reader gives, by evidence path ("warrants[0].expiry"), that must carry a quote. */
export function quotedPaths(inspection: PeriodicInspection): string[] {
  const paths: string[] = [];
  if (inspection.going_concern === true) paths.push("going_concern");
  const record = inspection as unknown as Record<string, unknown>;
  for (const field of OBJECTS) {
    const value = record[field] as Item | null;
    for (const [key, v] of Object.entries(value ?? {})) if (v !== null && !FLAGS.has(key)) paths.push(`${field}.${key}`);
  }
  for (const field of ARRAYS) {
    const items = (record[field] as Item[] | undefined) ?? [];
    items.forEach((item, i) => {
      for (const [key, v] of Object.entries(item)) if (v !== null && !FLAGS.has(key)) paths.push(`${field}[${i}].${key}`);
    });
  }
  return paths;
}

export type ScoredPeriodic = ScoredFiling<PeriodicInspection>;

export function scorePeriodicInspections(items: ScoredPeriodic[]): Score {
  const t = newTally();
  for (const { truth, inspection, visibleText } of items) {
    const s: Scoring = { fields: t.fields, mismatches: t.mismatches, accession: truth.accession };
    const cover: Scoring = { fields: t.header, mismatches: t.mismatches, accession: truth.accession };
    const actual = inspection as unknown as Record<string, unknown>;
    for (const field of COVER_FIELDS) scoreValue(cover, field, truth[field] ?? null, actual[field] ?? null);
    scoreValue(s, "going_concern", truth.going_concern ?? null, actual.going_concern ?? null);
    for (const field of OBJECTS) scoreObject(s, field, (truth[field] as Item | null) ?? null, (actual[field] as Item | null) ?? null);
    for (const field of ARRAYS) scoreArray(s, field, (truth[field] as Item[] | null) ?? [], (actual[field] as Item[] | undefined) ?? []);
    checkQuotes(t, truth.accession, inspection.evidence, visibleText);
    for (const path of quotedPaths(inspection)) if (!inspection.evidence[path]) missingQuote(t, truth.accession, path);
  }
  return summarize(items.length, t);
}

/** True for ground truth of a periodic report (`kind` periodic_10q, periodic_10k, periodic_20f …). */
export function isPeriodicTruth(truth: GroundTruth): boolean {
  return typeof truth.kind === "string" && truth.kind.startsWith("periodic_");
}
