/**
 * Reading an import file, JSON or CSV, into records not yet validated, each
 * with its line, and the problems of the file itself.
 */
import { parseCsv } from "./csv";
import type { ImportError } from "./report";
import { IMPORT_FIELDS, IMPORT_KINDS, isImportKind, type ImportKind } from "./schema";

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

  // A header far wider than the kind has is refused in one line, not one per column (a file of millions of columns).
  const widest = IMPORT_FIELDS[kind].length + (kindColumn >= 0 ? 1 : 0);
  if (columns.length > 2 * widest) {
    result.errors.push({ line: header.line, message: `the header has ${columns.length.toLocaleString("en-US")} columns; a ${kind} file has at most ${widest}: ${IMPORT_FIELDS[kind].join(", ")}` });
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
