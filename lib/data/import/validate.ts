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
