/**
 * Where an import's records come from: a JSON or CSV file read as a stream of
 * bytes (any size, never held whole), or a dataset already in memory. Either
 * way a RecordSource hands out the records not yet validated, each with its
 * line, and the problems of the file itself, companies before every other
 * kind (a company a record names may be in the same file).
 */
import { createReadStream } from "node:fs";
import { CsvReader, CsvRecordTooLong, MAX_CSV_FIELDS, type CsvRecord } from "./csv";
import { readJson, type JsonEvent } from "./json";
import type { ImportError } from "./report";
import { IMPORT_FIELDS, IMPORT_KINDS, isImportKind, type ImportInput, type ImportKind } from "./schema";

/** A record as found in the source, not yet validated. */
export interface SourceRecord {
  kind: ImportKind;
  raw: unknown;
  /** Physical line where it starts, where known. */
  line?: number;
  /** Its position among its kind's records (0-based). */
  index: number;
  /** The record in JSON terms, e.g. "offerings[3]" (not for CSV rows). */
  ref?: string;
}

export type SourceItem = { record: SourceRecord } | { error: ImportError };

export interface RecordSource {
  readonly format: "json" | "csv" | "dataset";
  /** The records and the file's problems in batches, companies first. */
  items(): AsyncIterable<SourceItem[]>;
}

/** A file's bytes, readable more than once (a JSON file is read in two passes). */
export type ByteSource = () => AsyncIterable<Uint8Array>;

const CHUNK_BYTES = 64 * 1024;

export const fileBytes =
  (path: string): ByteSource =>
  () =>
    createReadStream(path, { highWaterMark: CHUNK_BYTES });

export const textBytes = (text: string): ByteSource => {
  const bytes = new TextEncoder().encode(text);
  return async function* () {
    for (let start = 0; start < bytes.length; start += CHUNK_BYTES) yield bytes.subarray(start, start + CHUNK_BYTES);
  };
};

const KINDS = IMPORT_KINDS.join(", ");
const notUtf8: ImportError = { message: "the file is not UTF-8 text; save it as UTF-8 and load it again" };

/**
 * An import file. JSON: `{ "companies": [...], "offerings": [...] }` (any
 * subset of kinds, plus an optional "meta" object that is ignored) or
 * `{ "kind": "offerings", "records": [...] }`. CSV: one kind per file, named
 * by a `kind` column or by the file name (`offerings.csv`, `x.offerings.csv`).
 * A name that says neither is read as JSON when its first character is "{".
 */
export async function openImportFile(fileName: string, bytes: ByteSource): Promise<RecordSource> {
  const lower = fileName.toLowerCase();
  const format = lower.endsWith(".json") ? "json" : lower.endsWith(".csv") ? "csv" : (await firstCharacter(bytes)) === "{" ? "json" : "csv";
  return format === "json" ? jsonFile(bytes) : csvFile(fileName, bytes);
}

/** An import file already in memory as text (tests, small files). */
export function importFileText(fileName: string, text: string): Promise<RecordSource> {
  return openImportFile(fileName, textBytes(text));
}

async function firstCharacter(bytes: ByteSource): Promise<string | undefined> {
  for await (const chunk of bytes()) {
    const text = new TextDecoder().decode(chunk.subarray(0, 64)).replace(/^\uFEFF/, "").trimStart();
    if (text) return text[0];
  }
  return undefined;
}

/** The bytes without a leading UTF-8 byte-order mark. */
async function* withoutBom(chunks: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  let first = true;
  for await (const chunk of chunks) {
    if (first && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) yield chunk.subarray(3);
    else yield chunk;
    first = false;
  }
}

/** A dataset in memory, as the EDGAR sync and the sample produce it. */
export function datasetSource(input: ImportInput): RecordSource {
  return {
    format: "dataset",
    async *items() {
      const errors: SourceItem[] = [];
      for (const key of Object.keys(input)) {
        if (!isImportKind(key)) errors.push({ error: { field: key, message: `unknown record kind; expected one of ${KINDS}` } });
      }
      if (errors.length) yield errors;
      for (const kind of IMPORT_KINDS) {
        const records = input[kind];
        if (records === undefined) continue;
        if (!Array.isArray(records)) {
          yield [{ error: { kind, field: kind, message: "must be an array of records" } }];
          continue;
        }
        for (let start = 0; start < records.length; start += 1_000) {
          yield records.slice(start, start + 1_000).map((raw, offset) => {
            const index = start + offset;
            return { record: { kind, raw, index, ref: `${kind}[${index}]` } };
          });
        }
      }
    },
  };
}

// ───────────────────────────── JSON ─────────────────────────────

type Layout = { keys: Extract<JsonEvent, { type: "key" }>[]; failed: boolean };

/**
 * Two passes over the bytes: the first reads the layout (the root's keys and
 * what they hold) and the companies, the second every other kind, so a record
 * may name a company that comes after it in the file.
 */
function jsonFile(bytes: ByteSource): RecordSource {
  return {
    format: "json",
    async *items() {
      const layout: Layout = { keys: [], failed: false };
      const collect = (wantedKind: (key: string) => ImportKind | null, put: (batch: SourceItem[]) => Promise<void>) => async (events: JsonEvent[]) => {
        const items: SourceItem[] = [];
        for (const event of events) {
          if (event.type === "key") layout.keys.push(event);
          else if (event.type === "error") {
            layout.failed = true;
            items.push({ error: { line: event.line, message: `invalid JSON: ${event.message} (column ${event.column})` } });
          } else if (event.type === "not-object") {
            layout.failed = true;
            items.push({ error: { line: event.line, message: 'the file must be a JSON object such as { "companies": [ … ] } or { "kind": "offerings", "records": [ … ] }' } });
          } else {
            const kind = wantedKind(event.key);
            if (kind) items.push({ record: { kind, raw: event.value, line: event.line, index: event.index, ref: `${kind}[${event.index}]` } });
          }
        }
        if (items.length) await put(items);
      };

      // Pass 1: the layout, and the companies of a file of kinds.
      const companiesFirst = (key: string) => (key === "companies" ? "companies" : null);
      yield* pull((put) => readJson(withoutBom(bytes()), (key) => key === "companies", collect(companiesFirst, put)));
      if (layout.failed) return;

      const keys = layout.keys;
      const recordsFormat = keys.some((k) => k.key === "kind" || k.key === "records");
      const problems: SourceItem[] = [];
      let second: ((key: string) => ImportKind | null) | null = null;
      if (recordsFormat) {
        const kindKey = keys.find((k) => k.key === "kind");
        const kind = kindKey?.primitive;
        if (typeof kind !== "string" || !isImportKind(kind)) {
          yield [{ error: { line: kindKey?.line ?? 1, field: "kind", message: `must be one of ${KINDS}` } }];
          return;
        }
        for (const k of keys) {
          if (k.key !== "kind" && k.key !== "records" && k.key !== "meta") problems.push({ error: { line: k.line, field: k.key, message: 'unexpected key beside "kind" and "records"' } });
        }
        const records = keys.find((k) => k.key === "records");
        if (!records || records.value !== "array") {
          yield [...problems, { error: { line: records?.line ?? 1, field: "records", message: "must be an array of records" } }];
          return;
        }
        second = (key) => (key === "records" ? kind : null);
      } else {
        for (const k of keys) {
          if (k.key === "meta") continue;
          if (!isImportKind(k.key)) problems.push({ error: { line: k.line, field: k.key, message: `unknown record kind; expected one of ${KINDS}` } });
          else if (k.value !== "array") problems.push({ error: { line: k.line, field: k.key, message: "must be an array of records" } });
        }
        const others = new Set(keys.filter((k) => k.value === "array" && k.key !== "companies" && isImportKind(k.key)).map((k) => k.key));
        if (others.size) second = (key) => (others.has(key) ? (key as ImportKind) : null);
      }
      if (problems.length) yield problems;
      // Pass 2: every other kind (or the records of a one-kind file).
      if (second) {
        const wanted = second;
        yield* pull((put) => readJson(withoutBom(bytes()), (key) => wanted(key) !== null, collect(wanted, put)));
      }
    },
  };
}

/**
 * Runs a reader that hands over batches through `put` and waits until each is
 * taken: the file is read no faster than the import writes it.
 */
async function* pull(run: (put: (batch: SourceItem[]) => Promise<void>) => Promise<void>): AsyncIterable<SourceItem[]> {
  const handoff: { waiting: { batch: SourceItem[]; taken: () => void } | null } = { waiting: null };
  let done = false;
  let failure: unknown = null;
  let wake: (() => void) | null = null;
  const put = (batch: SourceItem[]) =>
    new Promise<void>((taken) => {
      handoff.waiting = { batch, taken };
      wake?.();
    });
  run(put).then(
    () => {
      done = true;
      wake?.();
    },
    (error: unknown) => {
      failure = error ?? new Error("the file could not be read");
      done = true;
      wake?.();
    },
  );
  for (;;) {
    const handed = handoff.waiting;
    if (handed) {
      handoff.waiting = null;
      yield handed.batch;
      handed.taken();
      continue;
    }
    if (done) break;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
  }
  if (failure) throw failure;
}

// ───────────────────────────── CSV ─────────────────────────────

function kindFromFileName(fileName: string): ImportKind | null {
  const base = fileName.split(/[\\/]/).pop()!.toLowerCase().replace(/\.csv$/, "");
  const last = base.split(".").pop()!.replace(/-/g, "_");
  return isImportKind(last) ? last : null;
}

/** How many rows may come before one that says its kind (in a file whose name does not). */
const ROWS_BEFORE_KIND = 1_000;

/** Turns a CSV file's records into import records: the header first, then one record per row. */
class CsvRows {
  private header: CsvRecord | null = null;
  private columns: string[] = [];
  private kindColumn = -1;
  /** The kind, from the file's name or else from the first row that says it. */
  private kind: ImportKind | null;
  private readonly kindFromName: boolean;
  private kindLine = 0;
  /** Rows read before the kind was known (their kind column is empty). */
  private waiting: CsvRecord[] = [];
  private rows = 0;
  /** Nothing more is read: the file's own problem was reported. */
  stopped = false;

  constructor(fileName: string) {
    this.kind = kindFromFileName(fileName);
    this.kindFromName = this.kind !== null;
  }

  take(records: CsvRecord[]): SourceItem[] {
    const items: SourceItem[] = [];
    for (const record of records) {
      if (this.stopped) break;
      if (!this.header) this.readHeader(record, items);
      else if (!this.kind) this.waitForKind(record, items);
      else this.readRow(record, items);
    }
    return items;
  }

  finish(): SourceItem[] {
    if (this.stopped) return [];
    if (!this.header) return [{ error: { line: 1, message: "the file is empty: expected a header row of column names" } }];
    return this.kind ? [] : [{ error: this.cannotTell() }];
  }

  private cannotTell(): ImportError {
    return { line: this.header?.line ?? 1, message: `cannot tell the record kind: name the file <kind>.csv (e.g. offerings.csv) or add a "kind" column; kinds: ${KINDS}` };
  }

  private stop(items: SourceItem[], error: ImportError) {
    items.push({ error });
    this.stopped = true;
  }

  private readHeader(header: CsvRecord, items: SourceItem[]) {
    this.header = header;
    this.columns = header.fields.map((f) => f.trim().toLowerCase());
    for (const p of header.problems) items.push({ error: { line: header.line, field: `column ${p.column + 1}`, message: p.message } });
    this.kindColumn = this.columns.indexOf("kind");
    if (this.kind) this.checkColumns(items);
    else if (this.kindColumn < 0) this.stop(items, this.cannotTell());
  }

  private waitForKind(record: CsvRecord, items: SourceItem[]) {
    const value = this.kindValue(record);
    if (value === "") {
      this.waiting.push(record);
      if (this.waiting.length > ROWS_BEFORE_KIND) this.stop(items, this.cannotTell());
      return;
    }
    if (!isImportKind(value)) return this.stop(items, { line: record.line, field: "kind", message: `unknown record kind "${value}"; expected one of ${KINDS}` });
    this.kind = value;
    this.kindLine = record.line;
    if (!this.checkColumns(items)) return;
    for (const row of this.waiting.splice(0)) this.readRow(row, items);
    this.readRow(record, items);
  }

  private kindValue(record: CsvRecord): string {
    return (record.fields[this.kindColumn] ?? "").trim().toLowerCase();
  }

  /** The header's columns against the kind's fields; false (and stopped) when they do not fit. */
  private checkColumns(items: SourceItem[]): boolean {
    const kind = this.kind!;
    const header = this.header!;
    const columns = this.columns;
    const widest = IMPORT_FIELDS[kind].length + (this.kindColumn >= 0 ? 1 : 0);
    // A header far wider than the kind has is refused in one line, not one per column.
    if (columns.length > 2 * widest) {
      const count = header.overflow ? `more than ${MAX_CSV_FIELDS.toLocaleString("en-US")}` : columns.length.toLocaleString("en-US");
      this.stop(items, { line: header.line, message: `the header has ${count} columns; a ${kind} file has at most ${widest}: ${IMPORT_FIELDS[kind].join(", ")}` });
      return false;
    }
    const known = new Set(IMPORT_FIELDS[kind]);
    const seen = new Set<string>();
    let ok = true;
    columns.forEach((column, index) => {
      if (index === this.kindColumn) return;
      if (column === "") {
        items.push({ error: { line: header.line, field: `column ${index + 1}`, message: "has no name" } });
        ok = false;
      } else if (!known.has(column)) {
        items.push({ error: { line: header.line, field: column, message: `unknown column for ${kind}; expected: ${IMPORT_FIELDS[kind].join(", ")}` } });
        ok = false;
      } else if (seen.has(column)) {
        items.push({ error: { line: header.line, field: column, message: "column appears twice" } });
        ok = false;
      }
      seen.add(column);
    });
    if (!ok) this.stopped = true;
    return ok;
  }

  private readRow(record: CsvRecord, items: SourceItem[]) {
    const kind = this.kind!;
    const columns = this.columns;
    if (this.kindColumn >= 0) {
      const value = this.kindValue(record);
      if (value !== "" && value !== kind) {
        if (!isImportKind(value)) return this.stop(items, { line: record.line, field: "kind", message: `unknown record kind "${value}"; expected one of ${KINDS}` });
        return this.stop(items, {
          line: record.line,
          field: "kind",
          message: this.kindFromName ? `the kind column says ${value} but the file name says ${kind}` : `one kind per CSV file: this row says ${value}, line ${this.kindLine} says ${kind}`,
        });
      }
    }
    const index = this.rows++;
    if (record.problems.length > 0) {
      for (const p of record.problems) items.push({ error: { line: record.line, kind, index, field: columns[p.column] ?? `column ${p.column + 1}`, message: p.message } });
      return;
    }
    if (record.overflow || record.fields.length !== columns.length) {
      const count = record.overflow ? `more than ${MAX_CSV_FIELDS.toLocaleString("en-US")}` : record.fields.length;
      items.push({ error: { line: record.line, kind, index, message: `has ${count} fields but the header has ${columns.length}` } });
      return;
    }
    const row: Record<string, string> = {};
    record.fields.forEach((value, column) => {
      if (column !== this.kindColumn && value !== "") row[columns[column]!] = value;
    });
    items.push({ record: { kind, raw: row, line: record.line, index } });
  }
}

function csvFile(fileName: string, bytes: ByteSource): RecordSource {
  return {
    format: "csv",
    async *items() {
      const decoder = new TextDecoder("utf-8", { fatal: true });
      const reader = new CsvReader();
      const rows = new CsvRows(fileName);
      let first = true;
      try {
        for await (const chunk of bytes()) {
          let text: string;
          try {
            text = decoder.decode(chunk, { stream: true });
          } catch {
            yield [{ error: notUtf8 }];
            return;
          }
          if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
          first = false;
          const items = rows.take(reader.push(text));
          if (items.length) yield items;
          if (rows.stopped) return;
        }
        yield [...rows.take(reader.end()), ...rows.finish()];
      } catch (error) {
        if (!(error instanceof CsvRecordTooLong)) throw error;
        yield [{ error: { line: error.line, message: error.message } }];
      }
    },
  };
}

/**
 * Everything a source holds, in memory: for tests and for small files only
 * (an import reads its source as a stream).
 */
export async function readAll(source: RecordSource): Promise<{ input: { [K in ImportKind]?: unknown[] }; lines: { [K in ImportKind]?: (number | undefined)[] }; errors: ImportError[] }> {
  const input: { [K in ImportKind]?: unknown[] } = {};
  const lines: { [K in ImportKind]?: (number | undefined)[] } = {};
  const errors: ImportError[] = [];
  for await (const batch of source.items()) {
    for (const item of batch) {
      if ("error" in item) errors.push(item.error);
      else {
        (input[item.record.kind] ??= []).push(item.record.raw);
        (lines[item.record.kind] ??= []).push(item.record.line);
      }
    }
  }
  return { input, lines, errors };
}
