/**
 * The import pipeline of the dilution data: JSON or CSV files → validated
 * records → one transaction of upserts on the natural keys.
 *
 *   const file = parseImportFile("offerings.csv", text);
 *   const report = await importDataset(prisma, file);        // or (prisma, dataset)
 *   if (!report.ok) report.errors.map(formatImportError);    // nothing was written
 *
 * All or nothing: every record is validated first (fields, calendar dates,
 * tickers known in the file or the database, natural keys unique in the file);
 * if any is bad, nothing is written and every bad record is reported with its
 * line. Otherwise one transaction upserts everything; a row whose content is
 * already stored is left alone (not even `updated_at` moves), so importing the
 * same file twice changes nothing. Imports never delete. The record format is
 * described in ./import-schema.ts.
 */
import type { Prisma, PrismaClient } from "@/lib/db";
import {
  IMPORT_KINDS,
  SKIP_UNKNOWN_TICKER_KINDS,
  IMPORT_FIELDS,
  RECORD_KINDS,
  isImportKind,
  type ColumnType,
  type Dataset,
  type ImportInput,
  type ImportKind,
  type ValidRecord,
} from "./import-schema";
import { generateSampleDataset, type SampleOptions } from "./sample";
import { bumpDatasetVersion, notifyDataChanged } from "./version";

/**
 * The largest import file, in bytes (100 MiB): the admin console's upload
 * (lib/platform/admin/data.ts) and the CLI's hand-over to the app server
 * (lib/cli/internal.ts) both refuse anything larger.
 */
export const MAX_IMPORT_BYTES = 100 * 1024 * 1024;

// ───────────────────────────── errors and reports ─────────────────────────────

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
  /** Every bad record; when there is any, nothing was written. */
  errors: ImportError[];
  counts: Record<ImportKind, KindCounts>;
  durationMs: number;
}

export class ImportFailedError extends Error {
  constructor(readonly report: ImportReport) {
    const shown = report.errors.slice(0, 10).map(formatImportError);
    const more = report.errors.length > shown.length ? `\n… and ${report.errors.length - shown.length} more` : "";
    super(`Import failed with ${report.errors.length} error(s); nothing was written:\n${shown.join("\n")}${more}`);
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

function emptyCounts(): Record<ImportKind, KindCounts> {
  return Object.fromEntries(IMPORT_KINDS.map((k) => [k, { received: 0, created: 0, updated: 0, unchanged: 0 }])) as Record<
    ImportKind,
    KindCounts
  >;
}

// ───────────────────────────── files ─────────────────────────────

export interface ParsedImportFile {
  fileName: string;
  format: "json" | "csv";
  /** The records as found, per kind, not yet validated. */
  input: { [K in ImportKind]?: unknown[] };
  /** The line of each record, parallel to `input`, where known. */
  lines: { [K in ImportKind]?: (number | undefined)[] };
  /** Problems of the file itself (syntax, unknown kinds or columns, malformed rows). */
  errors: ImportError[];
}

/**
 * Reads an import file. JSON: `{ "companies": [...], "offerings": [...] }`
 * (any subset of kinds, plus an optional "meta" object that is ignored) or
 * `{ "kind": "offerings", "records": [...] }`. CSV: one kind per file, named
 * by a `kind` column or by the file name (`offerings.csv`, `x.offerings.csv`).
 */
export function parseImportFile(fileName: string, text: string): ParsedImportFile {
  const lower = fileName.toLowerCase();
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const format = lower.endsWith(".json") ? "json" : lower.endsWith(".csv") ? "csv" : body.trimStart().startsWith("{") ? "json" : "csv";
  return format === "json" ? parseJsonFile(fileName, body) : parseCsvFile(fileName, body);
}

function parseJsonFile(fileName: string, text: string): ParsedImportFile {
  const result: ParsedImportFile = { fileName, format: "json", input: {}, lines: {}, errors: [] };
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    const found = findJsonSyntaxError(text);
    result.errors.push(
      found
        ? { line: found.line, message: `invalid JSON: ${found.message} (column ${found.column})` }
        : { message: `invalid JSON: ${(error as Error).message}` },
    );
    return result;
  }
  if (typeof root !== "object" || root === null || Array.isArray(root)) {
    result.errors.push({ line: 1, message: 'the file must be a JSON object such as { "companies": [ … ] } or { "kind": "offerings", "records": [ … ] }' });
    return result;
  }
  const { keyLines, elementLines } = scanJsonLayout(text);
  const object = root as Record<string, unknown>;

  if ("kind" in object || "records" in object) {
    const kind = object.kind;
    if (typeof kind !== "string" || !isImportKind(kind)) {
      result.errors.push({ line: keyLines.get("kind") ?? 1, field: "kind", message: `must be one of ${IMPORT_KINDS.join(", ")}` });
      return result;
    }
    for (const key of Object.keys(object)) {
      if (key !== "kind" && key !== "records" && key !== "meta")
        result.errors.push({ line: keyLines.get(key) ?? 1, field: key, message: 'unexpected key beside "kind" and "records"' });
    }
    if (!Array.isArray(object.records)) {
      result.errors.push({ line: keyLines.get("records") ?? 1, field: "records", message: "must be an array of records" });
      return result;
    }
    result.input[kind] = object.records;
    result.lines[kind] = elementLines.get("records") ?? [];
    return result;
  }

  for (const [key, value] of Object.entries(object)) {
    if (key === "meta") continue;
    if (!isImportKind(key)) {
      result.errors.push({ line: keyLines.get(key) ?? 1, field: key, message: `unknown record kind; expected one of ${IMPORT_KINDS.join(", ")}` });
      continue;
    }
    if (!Array.isArray(value)) {
      result.errors.push({ line: keyLines.get(key) ?? 1, field: key, message: "must be an array of records" });
      continue;
    }
    result.input[key] = value;
    result.lines[key] = elementLines.get(key) ?? [];
  }
  return result;
}

/**
 * The lines of the top-level keys of a (valid) JSON object, and of the start
 * of every element of the arrays that are their values. One pass, no parsing.
 */
export function scanJsonLayout(text: string): { keyLines: Map<string, number>; elementLines: Map<string, number[]> } {
  const keyLines = new Map<string, number>();
  const elementLines = new Map<string, number[]>();
  let line = 1;
  let depth = 0;
  let keyPosition = false; // inside the root object, where a key may come
  let lastKey: string | null = null;
  let collecting: number[] | null = null; // the element lines of the array being read
  let expectElement = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      continue;
    }
    if (c === 32 || c === 9 || c === 13) continue;
    if (depth === 2 && collecting && expectElement && c !== 93) {
      collecting.push(line);
      expectElement = false;
    }
    if (c === 34) {
      // a string: find its end
      const start = i;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
      if (depth === 1 && keyPosition) {
        lastKey = JSON.parse(text.slice(start, i + 1)) as string;
        if (!keyLines.has(lastKey)) keyLines.set(lastKey, line);
      }
      continue;
    }
    if (c === 123 || c === 91) {
      // { or [
      depth++;
      if (depth === 1) keyPosition = c === 123;
      if (depth === 2 && c === 91 && lastKey !== null) {
        collecting = [];
        elementLines.set(lastKey, collecting);
        expectElement = true;
      }
      continue;
    }
    if (c === 125 || c === 93) {
      // } or ]
      depth--;
      if (depth === 1) {
        collecting = null;
        expectElement = false;
      }
      continue;
    }
    if (c === 44) {
      // ,
      if (depth === 1) keyPosition = true;
      else if (depth === 2 && collecting) expectElement = true;
      continue;
    }
    if (c === 58 && depth === 1) keyPosition = false; // :
  }
  // "[]" has no elements: the expectation set by "[" was never met.
  return { keyLines, elementLines };
}

/** Where a JSON text is invalid (JSON.parse does not always say), or null. */
export function findJsonSyntaxError(text: string): { line: number; column: number; message: string } | null {
  let i = 0;
  const n = text.length;
  class Stop extends Error {
    constructor(readonly at: number, message: string) {
      super(message);
    }
  }
  const ws = () => {
    while (i < n) {
      const c = text[i];
      if (c === " " || c === "\t" || c === "\n" || c === "\r") i++;
      else break;
    }
  };
  const fail = (message: string): never => {
    throw new Stop(i, i >= n ? "unexpected end of file" : message);
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${JSON.stringify(text[i])}`);
  };
  const string = () => {
    i++; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c < 32) fail("a line break or control character inside a string");
      if (c === 92) {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail("bad \\u escape in a string");
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else fail("bad escape in a string");
      } else i++;
    }
    fail("unterminated string");
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail(`unexpected ${JSON.stringify(text[i])}`);
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(text[i] === "}" ? "trailing comma before '}'" : "expected a property name in double quotes");
        string();
        ws();
        if (text[i] !== ":") fail("expected ':' after a property name");
        i++;
        value();
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return;
        }
        fail("expected ',' or '}' after a property value");
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] === "]") fail("trailing comma before ']'");
        value();
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return;
        }
        fail("expected ',' or ']' after an array element");
      }
    }
    if (c === '"') return string();
    if (c === "t") return literal("true");
    if (c === "f") return literal("false");
    if (c === "n") return literal("null");
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return number();
    fail(`unexpected ${JSON.stringify(c)}`);
  };
  try {
    value();
    ws();
    if (i < n) fail("unexpected text after the end of the JSON value");
    return null;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    const at = Math.min(error.at, n);
    const before = text.slice(0, at);
    const line = before.split("\n").length;
    return { line, column: at - before.lastIndexOf("\n"), message: error.message };
  }
}

// ── CSV ──

export interface CsvRecord {
  /** Physical line where the record starts (1-based). */
  line: number;
  fields: string[];
  /** Malformed quoting, by 0-based column. */
  problems: { column: number; message: string }[];
}

/**
 * RFC 4180 CSV: comma-separated, CRLF or LF (or CR) line ends, fields in
 * double quotes may hold commas, quotes (doubled) and line breaks. A final
 * line end is optional; completely empty lines are skipped.
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  const n = text.length;
  let i = 0;
  let line = 1;
  while (i < n) {
    const record: CsvRecord = { line, fields: [], problems: [] };
    // One record: fields until an unquoted line end or the end of the text.
    for (;;) {
      let field = "";
      if (text[i] === '"') {
        const openedOn = line;
        i++;
        let closed = false;
        while (i < n) {
          const c = text[i]!;
          if (c === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            closed = true;
            break;
          }
          if (c === "\n" || (c === "\r" && text[i + 1] !== "\n")) line++;
          field += c;
          i++;
        }
        if (!closed) {
          record.problems.push({ column: record.fields.length, message: `unterminated quoted field (the quote opened on line ${openedOn} never closes)` });
        } else if (i < n && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r") {
          record.problems.push({ column: record.fields.length, message: "text after the closing quote; double a quote inside a quoted field" });
          while (i < n && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r") field += text[i++];
        }
      } else {
        const start = i;
        while (i < n && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r") i++;
        field = text.slice(start, i);
        if (field.includes('"'))
          record.problems.push({ column: record.fields.length, message: 'a quote inside an unquoted field; quote the whole field and double the quote ("")' });
      }
      record.fields.push(field);
      if (i < n && text[i] === ",") {
        i++;
        continue;
      }
      break;
    }
    // The line end (CRLF, LF or CR).
    if (text[i] === "\r") i++;
    if (text[i] === "\n") i++;
    line++;
    const blank = record.fields.length === 1 && record.fields[0] === "" && record.problems.length === 0;
    if (!blank) records.push(record);
  }
  return records;
}

function kindFromFileName(fileName: string): ImportKind | null {
  const base = fileName.split(/[\\/]/).pop()!.toLowerCase().replace(/\.csv$/, "");
  const last = base.split(".").pop()!.replace(/-/g, "_");
  return isImportKind(last) ? last : null;
}

function parseCsvFile(fileName: string, text: string): ParsedImportFile {
  const result: ParsedImportFile = { fileName, format: "csv", input: {}, lines: {}, errors: [] };
  const records = parseCsv(text);
  const header = records.shift();
  if (!header) {
    result.errors.push({ line: 1, message: "the file is empty: expected a header row of column names" });
    return result;
  }
  const columns = header.fields.map((f) => f.trim().toLowerCase());
  for (const p of header.problems) result.errors.push({ line: header.line, field: `column ${p.column + 1}`, message: p.message });

  // The kind: a "kind" column, or the file name.
  const kindColumn = columns.indexOf("kind");
  const fromName = kindFromFileName(fileName);
  let kind: ImportKind | null = fromName;
  if (kindColumn >= 0) {
    const values = new Set(records.map((r) => (r.fields[kindColumn] ?? "").trim().toLowerCase()).filter((v) => v !== ""));
    const [first] = values;
    if (values.size > 1) {
      result.errors.push({ line: header.line, field: "kind", message: `one kind per CSV file, found ${[...values].join(", ")}` });
      return result;
    }
    if (first !== undefined) {
      if (!isImportKind(first)) {
        const row = records.find((r) => (r.fields[kindColumn] ?? "").trim().toLowerCase() === first)!;
        result.errors.push({ line: row.line, field: "kind", message: `unknown record kind "${first}"; expected one of ${IMPORT_KINDS.join(", ")}` });
        return result;
      }
      if (fromName && fromName !== first) {
        result.errors.push({ line: header.line, field: "kind", message: `the kind column says ${first} but the file name says ${fromName}` });
        return result;
      }
      kind = first;
    }
  }
  if (!kind) {
    result.errors.push({
      line: header.line,
      message: `cannot tell the record kind: name the file <kind>.csv (e.g. offerings.csv) or add a "kind" column; kinds: ${IMPORT_KINDS.join(", ")}`,
    });
    return result;
  }

  const known = new Set(IMPORT_FIELDS[kind]);
  const seen = new Set<string>();
  let headerOk = true;
  columns.forEach((column, index) => {
    if (index === kindColumn) return;
    if (column === "") {
      result.errors.push({ line: header.line, field: `column ${index + 1}`, message: "has no name" });
      headerOk = false;
    } else if (!known.has(column)) {
      result.errors.push({ line: header.line, field: column, message: `unknown column for ${kind}; expected: ${IMPORT_FIELDS[kind].join(", ")}` });
      headerOk = false;
    } else if (seen.has(column)) {
      result.errors.push({ line: header.line, field: column, message: "column appears twice" });
      headerOk = false;
    }
    seen.add(column);
  });
  if (!headerOk) return result;

  const rows: unknown[] = [];
  const lines: number[] = [];
  for (const record of records) {
    if (record.problems.length > 0) {
      for (const p of record.problems) result.errors.push({ line: record.line, kind, field: columns[p.column] ?? `column ${p.column + 1}`, message: p.message });
      continue;
    }
    if (record.fields.length !== columns.length) {
      result.errors.push({ line: record.line, kind, message: `has ${record.fields.length} fields but the header has ${columns.length}` });
      continue;
    }
    const row: Record<string, string> = {};
    record.fields.forEach((value, index) => {
      if (index !== kindColumn && value !== "") row[columns[index]!] = value;
    });
    rows.push(row);
    lines.push(record.line);
  }
  result.input[kind] = rows;
  result.lines[kind] = lines;
  return result;
}

// ───────────────────────────── validation ─────────────────────────────

interface Located<K extends ImportKind> {
  record: ValidRecord<K>;
  index: number;
  line?: number;
  ref?: string;
}

type ValidDataset = { [K in ImportKind]: Located<K>[] };

function isParsedFile(input: ImportInput | ParsedImportFile): input is ParsedImportFile {
  return "input" in input && "errors" in input && "format" in input;
}

function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((s, p) => (typeof p === "number" ? `${s}[${p}]` : s ? `${s}.${String(p)}` : String(p)), "");
}

/** Schema checks and duplicate natural keys; no database needed. */
export function validateRecords(
  input: ImportInput,
  lines: { [K in ImportKind]?: readonly (number | undefined)[] } = {},
  { recordRefs = true }: { recordRefs?: boolean } = {},
): { valid: ValidDataset; errors: ImportError[]; counts: Record<ImportKind, KindCounts> } {
  const errors: ImportError[] = [];
  const counts = emptyCounts();
  const valid = Object.fromEntries(IMPORT_KINDS.map((k) => [k, []])) as unknown as ValidDataset;

  for (const key of Object.keys(input)) {
    if (!isImportKind(key)) errors.push({ field: key, message: `unknown record kind; expected one of ${IMPORT_KINDS.join(", ")}` });
  }
  for (const kind of IMPORT_KINDS) {
    const records = input[kind];
    if (records === undefined) continue;
    if (!Array.isArray(records)) {
      errors.push({ kind, field: kind, message: "must be an array of records" });
      continue;
    }
    counts[kind].received = records.length;
    const schema = RECORD_KINDS[kind].schema;
    const kindLines = lines[kind] ?? [];
    const keys = new Map<string, Located<ImportKind>>();
    const keyFields = RECORD_KINDS[kind].key as readonly string[];
    records.forEach((raw, index) => {
      const line = kindLines[index];
      const at = { line, kind, index, ...(recordRefs ? { record: `${kind}[${index}]` } : {}) };
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
        errors.push({ ...at, message: "must be an object of fields" });
        return;
      }
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          if (issue.code === "unrecognized_keys") {
            for (const key of issue.keys) errors.push({ ...at, field: fieldPath([...issue.path, key]), message: "unknown field" });
          } else {
            errors.push({ ...at, field: fieldPath(issue.path) || undefined, message: issue.message });
          }
        }
        return;
      }
      const record = parsed.data as Record<string, unknown>;
      const naturalKey = keyFields.map((f) => String(record[f])).join("\u0000");
      const first = keys.get(naturalKey);
      if (first) {
        const shown = keyFields.map((f) => `${f} ${JSON.stringify(record[f])}`).join(", ");
        const firstAt = first.line !== undefined ? `line ${first.line}` : `${kind}[${first.index}]`;
        errors.push({ ...at, field: keyFields.join(", "), message: `duplicate record (${shown}): the same key is on ${firstAt}` });
        return;
      }
      const located = { record: parsed.data, index, line, ref: at.record } as Located<ImportKind>;
      keys.set(naturalKey, located);
      (valid[kind] as Located<ImportKind>[]).push(located);
    });
  }
  return { valid, errors, counts };
}

function sortErrors(errors: ImportError[]): ImportError[] {
  const order = (e: ImportError) => [e.line ?? Number.MAX_SAFE_INTEGER, e.kind ? IMPORT_KINDS.indexOf(e.kind) : -1, e.index ?? -1];
  return errors
    .map((e, i) => ({ e, i, k: order(e) }))
    .sort((a, b) => a.k[0]! - b.k[0]! || a.k[1]! - b.k[1]! || a.k[2]! - b.k[2]! || a.i - b.i)
    .map((x) => x.e);
}

// ───────────────────────────── writing ─────────────────────────────

interface TableSpec {
  table: string;
  /** Import fields written as columns (a child's ticker aside). */
  columns: Record<string, ColumnType>;
  /** Children reference their company through company_id, found by ticker. */
  child: boolean;
  /** Import field → column, where they differ. */
  rename?: Record<string, string>;
  /** The natural key as columns: the conflict target (a child's ticker is its company_id). */
  conflict: string[];
}

function tableOf(kind: ImportKind): TableSpec {
  const spec = RECORD_KINDS[kind];
  const child = spec.parent !== null;
  const rename = "rename" in spec ? (spec.rename as Record<string, string>) : undefined;
  return {
    table: spec.table,
    columns: spec.columns,
    child,
    rename,
    conflict: spec.key.map((field) => (child && field === "ticker" ? "company_id" : (rename?.[field] ?? field))),
  };
}

const q = (identifier: string) => `"${identifier}"`;

/**
 * One statement per chunk: the rows travel as a single JSON parameter, are
 * expanded by json_to_recordset, joined to their company by ticker and
 * upserted; the update only happens when some column differs, and the
 * statement returns how many rows it created and updated.
 */
function upsertStatement(kind: ImportKind): string {
  const spec = tableOf(kind);
  const fields = Object.keys(spec.columns);
  const recordset = [...(spec.child ? ["ticker text"] : []), ...fields.map((f) => `${q(f)} ${spec.columns[f]}`)].join(", ");
  const column = (field: string) => spec.rename?.[field] ?? field;
  const insertColumns = [...(spec.child ? ["company_id"] : []), ...fields.map(column)];
  const selected = [...(spec.child ? ["c.id"] : []), ...fields.map((f) => `r.${q(f)}`)].join(", ");
  const from = spec.child ? `input r, "companies" c WHERE c.ticker = r.ticker` : "input r";
  const updated = insertColumns.filter((c) => !spec.conflict.includes(c));
  const set = [...updated.map((c) => `${q(c)} = EXCLUDED.${q(c)}`), ...(spec.child ? [] : [`"updated_at" = now()`])].join(", ");
  const compare = (prefix: string) => `(${updated.map((c) => `${prefix}.${q(c)}`).join(", ")})`;
  // A table that is all key (a threshold-list entry) has nothing to update: a stored row is unchanged.
  const onConflict = updated.length
    ? `DO UPDATE SET ${set}\n  WHERE ${compare("t")} IS DISTINCT FROM ${compare("EXCLUDED")}`
    : "DO NOTHING";
  return `WITH input AS (SELECT * FROM json_to_recordset($1::json) AS x(${recordset})),
written AS (
  INSERT INTO ${q(spec.table)} AS t (${insertColumns.map(q).join(", ")})
  SELECT ${selected} FROM ${from}
  ON CONFLICT (${spec.conflict.map(q).join(", ")}) ${onConflict}
  RETURNING (xmax = 0) AS inserted
)
SELECT count(*) FILTER (WHERE inserted)::int AS created, count(*) FILTER (WHERE NOT inserted)::int AS updated FROM written`;
}

/** Kinds whose rows can cite a filing (they carry the evidence columns): what a sync's import replaces. */
const FILING_KINDS = IMPORT_KINDS.filter((kind) => RECORD_KINDS[kind].parent !== null && "source_accession" in RECORD_KINDS[kind].columns);

/**
 * Removes one company's rows of a kind that cite a filing and whose natural
 * key is not among the given ones ($1 the ticker, $2 the keys as JSON rows).
 */
function pruneStatement(kind: ImportKind): string {
  const spec = tableOf(kind);
  const fields = (RECORD_KINDS[kind].key as readonly string[]).filter((field) => field !== "ticker");
  const column = (field: string) => spec.rename?.[field] ?? field;
  const recordset = fields.map((f) => `${q(f)} ${spec.columns[f]}`).join(", ");
  const same = fields.map((f) => `k.${q(f)} IS NOT DISTINCT FROM t.${q(column(f))}`).join(" AND ");
  return `DELETE FROM ${q(spec.table)} t USING "companies" c
WHERE c.id = t.company_id AND c.ticker = $1 AND t.source_accession IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM json_to_recordset($2::json) AS k(${recordset}) WHERE ${same})`;
}

const PRUNE_STATEMENTS = new Map(FILING_KINDS.map((kind) => [kind, pruneStatement(kind)]));

const STATEMENTS = Object.fromEntries(IMPORT_KINDS.map((k) => [k, upsertStatement(k)])) as Record<ImportKind, string>;

/** Rows per statement: big enough to be fast, small enough for modest memory. */
const CHUNK_SIZE = 5_000;

function toJson(rows: readonly object[]): string {
  return JSON.stringify(rows, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
}

/**
 * Records naming a company that is neither in the file nor in the database.
 * `alsoInFile`: tickers of company rows that are in the file but invalid (they
 * are reported already; records naming them are not reported again).
 */
async function unknownTickers(tx: Prisma.TransactionClient, valid: ValidDataset, alsoInFile: Set<string>): Promise<{ errors: ImportError[]; known: Set<string> }> {
  const inFile = new Set([...valid.companies.map((c) => c.record.ticker), ...alsoInFile]);
  const referenced = new Set<string>();
  for (const kind of IMPORT_KINDS) {
    if (kind === "companies") continue;
    for (const { record } of valid[kind] as Located<ImportKind>[]) {
      const ticker = (record as { ticker: string }).ticker;
      if (!inFile.has(ticker)) referenced.add(ticker);
    }
  }
  if (referenced.size === 0) return { errors: [], known: inFile };
  const found = await tx.$queryRawUnsafe<{ ticker: string }[]>(
    `SELECT ticker FROM "companies" WHERE ticker IN (SELECT json_array_elements_text($1::json))`,
    JSON.stringify([...referenced]),
  );
  const known = new Set(found.map((r) => r.ticker));
  const errors: ImportError[] = [];
  for (const kind of IMPORT_KINDS) {
    if (kind === "companies" || SKIP_UNKNOWN_TICKER_KINDS.has(kind)) continue;
    for (const { record, index, line, ref } of valid[kind] as Located<ImportKind>[]) {
      const ticker = (record as { ticker: string }).ticker;
      if (!inFile.has(ticker) && !known.has(ticker))
        errors.push({ line, kind, index, record: ref, field: "ticker", message: `unknown ticker ${ticker}: not among this file's companies nor in the database` });
    }
  }
  for (const ticker of inFile) known.add(ticker);
  return { errors, known };
}

/**
 * After the records are written: the days of the threshold lists in the file
 * (a listed company absent from a day's list was not on it), and the values
 * of EDGAR float snapshots that need a price (see deriveFloatValues).
 */
async function afterWrite(tx: Prisma.TransactionClient, valid: ValidDataset): Promise<number> {
  const listDays = [...new Set(valid.reg_sho_thresholds.map((v) => v.record.list_date))];
  if (listDays.length) {
    await tx.$executeRawUnsafe(
      `INSERT INTO "reg_sho_list_days" ("list_date") SELECT d::date FROM json_array_elements_text($1::json) d ON CONFLICT DO NOTHING`,
      JSON.stringify(listDays),
    );
  }
  const tickers = new Set([...valid.daily_prices, ...valid.float_snapshots].map((v) => v.record.ticker));
  return tickers.size ? deriveFloatValues(tx, [...tickers]) : 0;
}

/**
 * EDGAR states shares outstanding and the public float in dollars, never a
 * price. For float snapshots that came from EDGAR (they cite a filing), the
 * values that need one are derived from the imported closing prices: price =
 * the latest close on or before the snapshot's day (at most 7 days before),
 * market cap = outstanding × price, float shares = public float ÷ the close
 * on the public float's own day (same 7-day rule), never above outstanding.
 * Without a close they stay unknown (NULL). Imported and sample snapshots
 * keep the values they were given.
 */
export async function deriveFloatValues(tx: Prisma.TransactionClient, tickers: string[]): Promise<number> {
  return tx.$executeRawUnsafe(
    `WITH derived AS (
       SELECT f.id,
         p.close_micros AS price,
         (f.outstanding_shares * p.close_micros) / 10000 AS cap,
         CASE WHEN f.public_float_cents IS NOT NULL AND pf.close_micros > 0
           THEN LEAST(f.outstanding_shares, (f.public_float_cents * 10000) / pf.close_micros) END AS float_shares
       FROM "float_snapshots" f
       JOIN "companies" c ON c.id = f.company_id
       LEFT JOIN LATERAL (SELECT close_micros FROM "daily_prices" d WHERE d.company_id = f.company_id
         AND d.date <= f.as_of AND d.date > f.as_of - 7 ORDER BY d.date DESC LIMIT 1) p ON true
       LEFT JOIN LATERAL (SELECT close_micros FROM "daily_prices" d WHERE d.company_id = f.company_id
         AND d.date <= f.public_float_as_of AND d.date > f.public_float_as_of - 7 ORDER BY d.date DESC LIMIT 1) pf ON true
       WHERE f.source_accession IS NOT NULL AND c.ticker IN (SELECT json_array_elements_text($1::json))
     )
     UPDATE "float_snapshots" f SET price_micros = d.price, market_cap_cents = d.cap, float_shares = d.float_shares
     FROM derived d
     WHERE f.id = d.id AND (f.price_micros, f.market_cap_cents, f.float_shares) IS DISTINCT FROM (d.price, d.cap, d.float_shares)`,
    JSON.stringify(tickers),
  );
}

async function removeFilingRows(tx: Prisma.TransactionClient, valid: ValidDataset, ticker: string, counts: Record<ImportKind, KindCounts>): Promise<number> {
  let total = 0;
  for (const [kind, statement] of PRUNE_STATEMENTS) {
    const kept = (valid[kind] as Located<ImportKind>[]).map((v) => v.record as Record<string, unknown>).filter((r) => r.ticker === ticker);
    const removed = await tx.$executeRawUnsafe(statement, ticker, toJson(kept));
    if (removed > 0) counts[kind].removed = removed;
    total += removed;
  }
  return total;
}

class Rollback extends Error {}

export interface ImportOptions {
  /** Validate and count, then roll back: nothing is written. */
  dryRun?: boolean;
  /**
   * Runs inside the import's transaction once every record is written (never
   * on a dry run or a failure), so what it records (a data_loads row, an audit
   * entry) commits with the data or not at all.
   */
  onApplied?: (tx: Prisma.TransactionClient, report: ImportReport) => Promise<void>;
  /**
   * The EDGAR sync of one ticker: the file holds everything the filings give
   * for it now, so that company's rows citing a filing that are not in the
   * file are removed (and counted as `removed`). Rows without a filing
   * (imported or sample data) are kept.
   */
  replaceFilingRowsOf?: string;
}

/**
 * Validates a dataset (or a parsed file) completely and, if every record is
 * good, upserts it all in one transaction. Returns the report; never writes
 * anything when the report has errors.
 */
export async function importDataset(
  prisma: PrismaClient,
  source: ImportInput | Dataset | ParsedImportFile,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const started = performance.now();
  const dryRun = options.dryRun ?? false;
  const parsed = isParsedFile(source) ? source : null;
  const input: ImportInput = parsed ? parsed.input : (source as ImportInput);
  const { valid, errors, counts } = validateRecords(input, parsed?.lines ?? {}, { recordRefs: parsed?.format !== "csv" });
  if (parsed) errors.push(...parsed.errors);

  // Companies whose rows are in the file but invalid still count as known, so
  // one bad company row is reported once, not once per record referencing it.
  const badCompanyTickers = new Set<string>();
  for (const raw of Array.isArray(input.companies) ? input.companies : []) {
    const t = (raw as { ticker?: unknown } | null)?.ticker;
    if (typeof t === "string") badCompanyTickers.add(t.trim().toUpperCase());
  }

  const finish = (ok: boolean, allErrors: ImportError[]): ImportReport => ({
    ok,
    dryRun,
    errors: sortErrors(allErrors),
    counts: ok ? counts : resetWrites(counts),
    durationMs: Math.round(performance.now() - started),
  });

  let failure: ImportError[] | null = null;
  let wrote = false;
  try {
    await prisma.$transaction(
      async (tx) => {
        const { errors: tickerErrors, known } = await unknownTickers(tx, valid, badCompanyTickers);
        if (errors.length > 0 || tickerErrors.length > 0) {
          failure = [...errors, ...tickerErrors];
          throw new Rollback();
        }
        for (const kind of IMPORT_KINDS) {
          let rows = (valid[kind] as Located<ImportKind>[]).map((v) => v.record);
          if (SKIP_UNKNOWN_TICKER_KINDS.has(kind)) {
            const listed = rows.filter((r) => known.has((r as { ticker: string }).ticker));
            if (listed.length < rows.length) counts[kind].skipped = rows.length - listed.length;
            rows = listed;
          }
          for (let start = 0; start < rows.length; start += CHUNK_SIZE) {
            const [result] = await tx.$queryRawUnsafe<{ created: number; updated: number }[]>(
              STATEMENTS[kind],
              toJson(rows.slice(start, start + CHUNK_SIZE)),
            );
            counts[kind].created += result?.created ?? 0;
            counts[kind].updated += result?.updated ?? 0;
          }
          counts[kind].unchanged = counts[kind].received - counts[kind].created - counts[kind].updated - (counts[kind].skipped ?? 0);
        }
        const removed = options.replaceFilingRowsOf ? await removeFilingRows(tx, valid, options.replaceFilingRowsOf, counts) : 0;
        const derived = await afterWrite(tx, valid);
        if (dryRun) throw new Rollback();
        wrote = derived > 0 || removed > 0 || IMPORT_KINDS.some((kind) => counts[kind].created + counts[kind].updated > 0);
        if (wrote) await bumpDatasetVersion(tx);
        if (options.onApplied) await options.onApplied(tx, finish(true, []));
      },
      { maxWait: 60_000, timeout: 30 * 60_000 },
    );
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  if (failure) return finish(false, failure);
  if (wrote) notifyDataChanged();
  return finish(true, []);
}

function resetWrites(counts: Record<ImportKind, KindCounts>): Record<ImportKind, KindCounts> {
  for (const k of IMPORT_KINDS) counts[k] = { received: counts[k].received, created: 0, updated: 0, unchanged: 0 };
  return counts;
}

/** Generates the sample dataset and imports it (idempotent: a second load changes nothing). */
export async function loadSampleData(prisma: PrismaClient, options: SampleOptions & ImportOptions = {}): Promise<ImportReport> {
  const { dryRun, ...sample } = options;
  const report = await importDataset(prisma, generateSampleDataset(sample), { dryRun });
  if (!report.ok) throw new ImportFailedError(report);
  return report;
}
