/**
 * What an import tells: its errors, one per bad record with its line, and its
 * report, the counts per kind of what was received, created, updated and left
 * unchanged, in words for the CLI and the console.
 */
import { IMPORT_KINDS, type ImportKind } from "./schema";

export interface ImportError {
  /** Physical line in the file (CSV: where the record starts; JSON: where the record's value starts). */
  line?: number;
  kind?: ImportKind;
  /** Index of the record within its kind (0-based). */
  index?: number;
  /** The record in JSON terms, e.g. "offerings[3]" (not set for CSV rows). */
  record?: string;
  field?: string;
  message: string;
}

/** "line 12: amount_cents: must not be negative" (JSON records also say "(offerings[3])"). */
export function formatImportError(error: ImportError): string {
  const where = error.line !== undefined ? `line ${error.line}` : (error.record ?? "file");
  const record = error.line !== undefined && error.record !== undefined ? ` (${error.record})` : "";
  return `${where}: ${error.field ? `${error.field}: ` : ""}${error.message}${record}`;
}

export interface KindCounts {
  received: number;
  created: number;
  updated: number;
  unchanged: number;
  /** Operator kinds only (prices, threshold lists): records naming a ticker this database does not list. */
  skipped?: number;
  /** The EDGAR sync and the sample's removal: records deleted. */
  removed?: number;
}

export interface ImportReport {
  /** True when the data was valid and (unless dryRun) written. */
  ok: boolean;
  dryRun: boolean;
  /** The bad records, in the order of the file, at most MAX_LISTED_ERRORS; when there is any, nothing was written. */
  errors: ImportError[];
  /** Errors found beyond those listed (a file wrong throughout would otherwise list millions). */
  unlistedErrors?: number;
  counts: Record<ImportKind, KindCounts>;
  durationMs: number;
}

export class ImportFailedError extends Error {
  constructor(readonly report: ImportReport) {
    const total = report.errors.length + (report.unlistedErrors ?? 0);
    const shown = report.errors.slice(0, 10).map(formatImportError);
    const more = total > shown.length ? `\n… and ${total - shown.length} more` : "";
    super(`Import failed with ${total} error(s); nothing was written:\n${shown.join("\n")}${more}`);
  }
}

/** A human-readable summary (one row per kind with records, then the errors). */
export function formatImportReport(report: ImportReport): string {
  const lines: string[] = [];
  const kinds = IMPORT_KINDS.filter((k) => report.counts[k].received > 0);
  const pad = (s: string | number, n: number) => String(s).padStart(n);
  lines.push(`${"kind".padEnd(24)}${pad("received", 10)}${pad("created", 10)}${pad("updated", 10)}${pad("unchanged", 11)}`);
  for (const k of kinds) {
    const c = report.counts[k];
    const skipped = c.skipped ? `  (${c.skipped} skipped: ticker not listed here)` : "";
    lines.push(`${k.padEnd(24)}${pad(c.received, 10)}${pad(c.created, 10)}${pad(c.updated, 10)}${pad(c.unchanged, 11)}${skipped}`);
  }
  if (kinds.length === 0) lines.push("(no records)");
  if (!report.ok) {
    lines.push("", `${report.errors.length} error(s); nothing was written:`);
    for (const e of report.errors) lines.push(formatImportError(e));
  } else {
    lines.push("", report.dryRun ? `Valid. Dry run: nothing was written (${report.durationMs} ms).` : `Imported in ${report.durationMs} ms.`);
  }
  return lines.join("\n");
}

export function emptyCounts(): Record<ImportKind, KindCounts> {
  return Object.fromEntries(IMPORT_KINDS.map((k) => [k, { received: 0, created: 0, updated: 0, unchanged: 0 }])) as Record<
    ImportKind,
    KindCounts
  >;
}

/** A failed import wrote nothing: only what it received stays counted. */
export function resetWrites(counts: Record<ImportKind, KindCounts>): Record<ImportKind, KindCounts> {
  for (const k of IMPORT_KINDS) counts[k] = { received: counts[k].received, created: 0, updated: 0, unchanged: 0 };
  return counts;
}

export const MAX_LISTED_ERRORS = 1000;

/** Errors in the order of the file: by line, then kind, then record. */
export function sortErrors(errors: ImportError[]): ImportError[] {
  const order = (e: ImportError) => [e.line ?? Number.MAX_SAFE_INTEGER, e.kind ? IMPORT_KINDS.indexOf(e.kind) : -1, e.index ?? -1];
  return errors
    .map((e, i) => ({ e, i, k: order(e) }))
    .sort((a, b) => a.k[0]! - b.k[0]! || a.k[1]! - b.k[1]! || a.k[2]! - b.k[2]! || a.i - b.i)
    .map((x) => x.e);
}
