import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { isEightKTruth, scoreEightKInspections, type ScoredEightK } from "@/lib/data/edgar/documents/eight-k-score";
import { inspectAny, inspectEightK, inspectFiling, inspectPeriodic, cikFromPath, type Inspection, type PeriodicInspection } from "@/lib/data/edgar/documents/inspect";
import { isPeriodicTruth, scorePeriodicInspections, type ScoredPeriodic } from "@/lib/data/edgar/documents/periodic-score";
import { filingQuoteText, formatScore, mergeScores, scoreInspections, type FieldScore, type GroundTruth, type Score, type ScoredFiling } from "@/lib/data/edgar/documents/score";
import { FilingFormatError, readSubmission } from "@/lib/data/edgar/documents/submission";
import type { CliResult } from "./index";

/**
 * `npm run data:edgar -- inspect <file | accession>… [--json]` and
 * `npm run data:edgar -- eval <ground-truth folder> <filings folder>`: the
 * filing readers on their own, with no database. Files are read from disk;
 * an accession is fetched through the configured EDGAR source (`fetchFiling`).
 */
export const INSPECT_USAGE = `usage: npm run data:edgar -- inspect <file | [cik:]accession>… [--json] [--source <folder | base URL>]
       npm run data:edgar -- eval [<ground-truth folder> <filings folder>] [--json]

  inspect  what each filing states, each value with its quote: a prospectus or registration statement its offering
           terms, warrants and fee table; a 10-Q, 10-K, 20-F or 40-F its shares outstanding, going concern, warrants,
           ATM programs, convertibles, reverse splits and listing deficiencies (PERIODIC-FILINGS.md's fields)
           <file>       a full .txt submission as EDGAR serves it, or a primary .htm document
           <accession>  <cik>:<accession> (e.g. 1234567:0001234567-26-000001), fetched through --source (default: SEC, then
                        EDGAR_USER_AGENT is required); without cik: the accession's own prefix is tried
           --json       one JSON object per filing per line
  eval     scores inspect on every <accession>.json of a ground-truth folder (REAL-FILINGS.md's or
           PERIODIC-FILINGS.md's format, periodic reports and 8-Ks) against the filings found under the filings folder;
           prints the per-field table, one per kind of filing when the folder holds several; without folders, the
           project's development set (../shared/fixtures/edgar and fixtures/edgar) beside its validation set
           (fixtures/edgar-validation), per kind and field`;

/** Larger files are refused before they are read: no real filing's text comes near it. */
export const MAX_FILING_BYTES = 200 * 1024 * 1024;
/** "0001234567-26-000001" or "1234567:0001234567-26-000001" */
export const ACCESSION_TARGET = /^(?:(\d{1,10}):)?(\d{10}-\d{2}-\d{6})$/;

export type FetchFiling = (cik: number, accession: string) => Promise<{ text: string; path: string }>;

function inspectOne(text: string, filePath: string): Inspection | PeriodicInspection {
  return inspectAny(readSubmission(text), { path: filePath });
}

const show = (value: unknown) =>
  value === null || value === undefined ? "—" : typeof value === "number" ? value.toLocaleString("en-US", { maximumFractionDigits: 6 }) : typeof value === "object" ? JSON.stringify(value) : String(value);

/** The readable form: one block per filing, a line per stated value with its quote (each quote of a list or object under it). */
export function formatInspection(name: string, inspection: Inspection | PeriodicInspection): string {
  const lines = [`${name}: ${inspection.form ?? "?"} filed ${inspection.filed ?? "?"} by ${inspection.company ?? "?"} (CIK ${inspection.cik ?? "?"}, file ${inspection.file_number ?? "—"})`];
  const sources = "sources" in inspection ? inspection.sources : {};
  /** where a periodic report's value came from, when it is a tag, a table's column, or the text preferred to a tag */
  const origin = (path: string) => {
    const source = sources[path];
    if (source?.from === "table") return `  [table; ${source.note ?? "its row"}]`;
    if (!source?.concept) return "";
    return source.from === "xbrl" ? `  [tag ${source.concept}]` : `  [text; ${source.note ?? `not the tag ${source.concept}`}]`;
  };
  for (const [field, value] of Object.entries(inspection)) {
    if (["evidence", "sources", "accession", "cik", "company", "form", "filed", "file_number"].includes(field)) continue;
    if (value === null || (Array.isArray(value) && value.length === 0)) continue;
    lines.push(`  ${field.padEnd(28)}${show(value)}`);
    for (const [path, quote] of Object.entries(inspection.evidence)) {
      if (path !== field && !path.startsWith(`${field}.`) && !path.startsWith(`${field}[`)) continue;
      lines.push(path === field ? `  ${"".padEnd(28)}“${quote}”` : `    ${path}: “${quote}”${origin(path)}`);
    }
  }
  const nulls = Object.entries(inspection).filter(([, v]) => v === null).map(([k]) => k);
  if (nulls.length) lines.push(`  not stated: ${nulls.join(", ")}`);
  return lines.join("\n");
}

export async function runInspect(targets: string[], options: { json: boolean; fetchFiling?: FetchFiling }): Promise<CliResult> {
  if (targets.length === 0) return { exitCode: 2, stdout: "", stderr: `${INSPECT_USAGE}\n` };
  const out: string[] = [];
  const errors: string[] = [];
  for (const target of targets) {
    try {
      let text: string;
      let filePath = target;
      const accession = ACCESSION_TARGET.exec(target);
      if (accession && !existsFile(target)) {
        if (!options.fetchFiling) throw new Error("an accession needs an EDGAR source to fetch it from");
        const cik = Number(accession[1] ?? accession[2]!.slice(0, 10));
        ({ text, path: filePath } = await options.fetchFiling(cik, accession[2]!));
      } else {
        const size = statSync(target).size;
        if (size > MAX_FILING_BYTES) throw new FilingFormatError(`${(size / 1e6).toFixed(0)} MB is larger than any filing (limit ${MAX_FILING_BYTES / 1024 / 1024} MB)`);
        text = readFileSync(target, "utf8");
      }
      const inspection = inspectOne(text, filePath);
      out.push(options.json ? JSON.stringify(inspection) : formatInspection(target, inspection));
    } catch (error) {
      const reason = error instanceof Error ? (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : error.message : String(error);
      errors.push(`${target}: ${reason}`);
    }
  }
  const stdout = out.length ? `${out.join(options.json ? "\n" : "\n\n")}\n` : "";
  return { exitCode: errors.length ? 1 : 0, stdout, stderr: errors.length ? `${errors.join("\n")}\n` : "" };
}

function existsFile(target: string): boolean {
  try {
    return statSync(target).isFile();
  } catch {
    return false;
  }
}

/** Every file under a folder, by name (EDGAR's layout nests filings in cik/accession folders). */
function filesByName(folder: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (!found.has(entry.name)) found.set(entry.name, full);
    }
  };
  walk(folder);
  return found;
}

/** A periodic report's or 8-K's file: the ground truth's `fixture` path under the filings folder, else its full `.txt` submission. */
function fixturePath(truth: GroundTruth, filingsFolder: string, files: Map<string, string>): string | null {
  const fixture = typeof truth.fixture === "string" ? path.join(filingsFolder, truth.fixture) : null;
  if (fixture && existsFile(fixture)) return fixture;
  return files.get(`${truth.accession}.txt`) ?? null;
}

/**
 * Ground truth files (`<accession>.json`; the submissions-CIK files have
 * another schema) paired with their filings: prospectus-kind truth with its
 * `.txt` submission, periodic-report and 8-K truth (PERIODIC-FILINGS.md) with
 * the document its `fixture` names.
 */
export function loadScoredFilings(
  truthFolder: string,
  filingsFolder: string,
): { items: ScoredFiling[]; periodic: ScoredPeriodic[]; eightK: ScoredEightK[]; missing: string[] } {
  const files = filesByName(filingsFolder);
  const items: ScoredFiling[] = [];
  const periodic: ScoredPeriodic[] = [];
  const eightK: ScoredEightK[] = [];
  const missing: string[] = [];
  for (const name of readdirSync(truthFolder).sort()) {
    const m = /^(\d{10}-\d{2}-\d{6})\.json$/.exec(name);
    if (!m) continue;
    const truth = JSON.parse(readFileSync(path.join(truthFolder, name), "utf8")) as GroundTruth;
    if (isPeriodicTruth(truth) || isEightKTruth(truth)) {
      const filingPath = fixturePath(truth, filingsFolder, files);
      if (!filingPath) {
        missing.push(m[1]!);
        continue;
      }
      const filing = readSubmission(readFileSync(filingPath, "utf8"));
      if (isEightKTruth(truth)) eightK.push({ truth, inspection: inspectEightK(filing, { path: filingPath }), visibleText: filingQuoteText(filing) });
      else periodic.push({ truth, inspection: inspectPeriodic(filing, { path: filingPath }), visibleText: filingQuoteText(filing) });
      continue;
    }
    const filingPath = files.get(`${m[1]}.txt`);
    if (!filingPath) {
      missing.push(m[1]!);
      continue;
    }
    const filing = readSubmission(readFileSync(filingPath, "utf8"));
    items.push({ truth, inspection: inspectFiling(filing, { directoryCik: cikFromPath(filingPath) }), visibleText: filingQuoteText(filing) });
  }
  return { items, periodic, eightK, missing };
}

/** The scores of one folder: each kind of filing on its own (`parts`, only the kinds present) and all together (`score`). */
export interface Evaluation {
  score: Score;
  parts: { prospectus?: Score; periodic?: Score; eightK?: Score };
  missing: string[];
}

export function evaluate(truthFolder: string, filingsFolder: string): Evaluation {
  const { items, periodic, eightK, missing } = loadScoredFilings(truthFolder, filingsFolder);
  const parts: Evaluation["parts"] = {};
  if (items.length) parts.prospectus = scoreInspections(items);
  if (periodic.length) parts.periodic = scorePeriodicInspections(periodic);
  if (eightK.length) parts.eightK = scoreEightKInspections(eightK);
  const scores = Object.values(parts);
  const score = scores.length ? scores.slice(1).reduce(mergeScores, scores[0]!) : scoreInspections([]);
  return { score, parts, missing };
}

const PART_TITLES: Record<keyof Evaluation["parts"], string> = {
  prospectus: "Prospectuses, registration statements and other offering documents (REAL-FILINGS.md)",
  periodic: "Periodic reports: 10-Q, 10-K, 20-F (PERIODIC-FILINGS.md)",
  eightK: "Current reports: 8-K (PERIODIC-FILINGS.md, 8-K)",
};

/**
 * The project's two sets of real filings with hand-checked ground truth:
 * development (the readers are written and tuned on it) and validation
 * (scored only: fixtures/edgar-validation/README.md). Each is one or more
 * folders holding `ground-truth/` beside EDGAR's `Archives/` layout.
 */
export const EVALUATION_SETS = {
  development: ["../shared/fixtures/edgar", "fixtures/edgar"],
  validation: ["fixtures/edgar-validation"],
} as const;

/** One set's evaluation: its folders' scores merged, kind by kind. */
export function evaluateSet(folders: readonly string[]): Evaluation {
  const found = folders.filter((f) => existsFolder(path.join(f, "ground-truth")));
  const evaluations = found.map((f) => evaluate(path.join(f, "ground-truth"), f));
  const merge = (scores: (Score | undefined)[]) => {
    const present = scores.filter((x): x is Score => x !== undefined);
    return present.length ? present.slice(1).reduce(mergeScores, present[0]!) : undefined;
  };
  const parts: Evaluation["parts"] = {};
  for (const kind of ["prospectus", "periodic", "eightK"] as const) {
    const merged = merge(evaluations.map((e) => e.parts[kind]));
    if (merged) parts[kind] = merged;
  }
  return { score: merge(evaluations.map((e) => e.score)) ?? scoreInspections([]), parts, missing: evaluations.flatMap((e) => e.missing) };
}

const cell = (f: FieldScore | undefined) => (f && (f.stated || f.invented) ? `${f.correct}/${f.stated}${f.invented ? ` (+${f.invented} invented)` : ""}` : "—");
const summary = (s: Score | undefined) =>
  s ? `${s.filings} filings: ${s.correct} of ${s.stated} stated facts (${s.stated ? ((100 * s.correct) / s.stated).toFixed(1) : "—"} %), ${s.invented} invented, ${s.quotesChecked - s.quotesMissing} of ${s.quotesChecked} quotes found` : "no filings";

/** The development and validation sets side by side, per kind of filing and field. */
export function formatSets(development: Evaluation, validation: Evaluation): string {
  const lines: string[] = [];
  for (const kind of ["periodic", "eightK", "prospectus"] as const) {
    const dev = development.parts[kind];
    const val = validation.parts[kind];
    if (!dev && !val) continue;
    lines.push(`## ${PART_TITLES[kind]}`, "", `development: ${summary(dev)}`, `validation:  ${summary(val)}`, "", "| field | development | validation |", "|---|---|---|");
    const names = [...new Set([...(dev?.fields ?? []), ...(val?.fields ?? [])].map((f) => f.field))].sort();
    for (const name of names) {
      const d = dev?.fields.find((f) => f.field === name);
      const v = val?.fields.find((f) => f.field === name);
      if (!(d?.stated || d?.invented || v?.stated || v?.invented)) continue;
      lines.push(`| ${name} | ${cell(d)} | ${cell(v)} |`);
    }
    lines.push("");
  }
  return lines.join("\n");
}

export function runEval(args: string[], options: { json: boolean }): CliResult {
  if (args.length === 0) {
    const development = evaluateSet(EVALUATION_SETS.development);
    const validation = evaluateSet(EVALUATION_SETS.validation);
    const missing = [...development.missing, ...validation.missing];
    const note = missing.length ? `Ground truth without its filing (not scored): ${missing.join(", ")}\n` : "";
    const stdout = options.json ? `${JSON.stringify({ development, validation })}\n` : formatSets(development, validation);
    return { exitCode: 0, stdout, stderr: note };
  }
  if (args.length !== 2) return { exitCode: 2, stdout: "", stderr: `${INSPECT_USAGE}\n` };
  const [truthFolder, filingsFolder] = args as [string, string];
  for (const folder of [truthFolder, filingsFolder]) {
    if (!existsFolder(folder)) return { exitCode: 2, stdout: "", stderr: `${folder}: not a folder\n` };
  }
  const { score, parts, missing } = evaluate(truthFolder, filingsFolder);
  const note = missing.length ? `Ground truth without its filing (not scored): ${missing.join(", ")}\n` : "";
  const kinds = Object.entries(parts) as [keyof Evaluation["parts"], Score][];
  // one kind: its table; several: a table per kind (their fields share names but not meanings), then the sum
  const text =
    kinds.length <= 1
      ? formatScore(score)
      : `${kinds.map(([kind, part]) => `## ${PART_TITLES[kind]}\n\n${formatScore(part)}`).join("\n")}\nAll kinds: ${formatScore(score).split("\n")[0]}\n`;
  return { exitCode: 0, stdout: options.json ? `${JSON.stringify({ ...score, parts })}\n` : text, stderr: note };
}

function existsFolder(folder: string): boolean {
  try {
    return statSync(folder).isDirectory();
  } catch {
    return false;
  }
}
