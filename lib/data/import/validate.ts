/**
 * The checks of an import that need no database: each record against its
 * kind's schema, and natural keys unique within the file.
 */
import { emptyCounts, type ImportError, type KindCounts } from "./report";
import { IMPORT_KINDS, RECORD_KINDS, isImportKind, type ImportInput, type ImportKind, type ValidRecord } from "./schema";

/** A valid record and where it stood in the file. */
export interface Located<K extends ImportKind> {
  record: ValidRecord<K>;
  index: number;
  line?: number;
  ref?: string;
}

export type ValidDataset = { [K in ImportKind]: Located<K>[] };

function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((s, p) => (typeof p === "number" ? `${s}[${p}]` : s ? `${s}.${String(p)}` : String(p)), "");
}

/** Where a record stands, as its errors say it. */
export interface RecordAt {
  line?: number;
  kind: ImportKind;
  index: number;
  record?: string;
}

/** One record against its kind's schema: the valid record, or every problem of it. */
export function checkRecord<K extends ImportKind>(kind: K, raw: unknown, at: RecordAt): { record: ValidRecord<K> } | { errors: ImportError[] } {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return { errors: [{ ...at, message: "must be an object of fields" }] };
  const parsed = RECORD_KINDS[kind].schema.safeParse(raw);
  if (parsed.success) return { record: parsed.data as ValidRecord<K> };
  const errors: ImportError[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) errors.push({ ...at, field: fieldPath([...issue.path, key]), message: "unknown field" });
    } else {
      errors.push({ ...at, field: fieldPath(issue.path) || undefined, message: issue.message });
    }
  }
  return { errors };
}

/** A record's natural key as one string (the fields of RECORD_KINDS[kind].key). */
export function naturalKey(kind: ImportKind, record: object): string {
  const values = record as Record<string, unknown>;
  return (RECORD_KINDS[kind].key as readonly string[]).map((f) => String(values[f])).join("\u0000");
}

/** The error of a record whose natural key (as naturalKey gives it) an earlier record of the file has. */
export function duplicateError(at: RecordAt, key: string, first: { line?: number; index: number }): ImportError {
  const keyFields = RECORD_KINDS[at.kind].key as readonly string[];
  const values = key.split("\u0000");
  const shown = keyFields.map((f, i) => `${f} ${JSON.stringify(values[i])}`).join(", ");
  const firstAt = first.line !== undefined ? `line ${first.line}` : `${at.kind}[${first.index}]`;
  return { ...at, field: keyFields.join(", "), message: `duplicate record (${shown}): the same key is on ${firstAt}` };
}

/** Schema checks and duplicate natural keys of a dataset in memory; no database needed. */
export function validateRecords(
  input: ImportInput,
  lines: { [K in ImportKind]?: readonly (number | undefined)[] } = {},
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
    const kindLines = lines[kind] ?? [];
    const keys = new Map<string, Located<ImportKind>>();
    records.forEach((raw, index) => {
      const line = kindLines[index];
      const at: RecordAt = { line, kind, index, record: `${kind}[${index}]` };
      const checked = checkRecord(kind, raw, at);
      if ("errors" in checked) {
        for (const error of checked.errors) errors.push(error);
        return;
      }
      const key = naturalKey(kind, checked.record);
      const first = keys.get(key);
      if (first) {
        errors.push(duplicateError(at, key, first));
        return;
      }
      const located = { record: checked.record, index, line, ref: at.record } as Located<ImportKind>;
      keys.set(key, located);
      (valid[kind] as Located<ImportKind>[]).push(located);
    });
  }
  return { valid, errors, counts };
}
