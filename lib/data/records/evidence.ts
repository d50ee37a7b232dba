/**
 * The evidence of a record: the SEC filing it came from. Stored as four
 * columns on every record table (see prisma/schema.prisma), handed to the
 * ratings as a SourceRef, and returned by the API with `include=source`.
 */
import type { SourceRef } from "@/lib/ratings/types";
import { isoDay } from "@/lib/utils/dates";
import { SERVED_TEXT_BYTES } from "../import/schema";
import { clampText } from "../units";

/** EDGAR's accession number, "0001193125-19-133592", as imports require it. */
export const ACCESSION_LENGTH = 20;

/** The evidence columns, for Prisma selects. */
export const SOURCE_COLUMNS = {
  sourceAccession: true,
  sourceForm: true,
  sourceFiledAt: true,
  sourceUrl: true,
} as const;

export interface SourceColumns {
  sourceAccession: string | null;
  sourceForm: string | null;
  sourceFiledAt: Date | null;
  sourceUrl: string | null;
}

/** The row's filing, or null when the row came from an import or the sample data. */
export function sourceRef(row: SourceColumns): SourceRef | null {
  if (!row.sourceAccession || !row.sourceForm || !row.sourceFiledAt || !row.sourceUrl) return null;
  return { accession: row.sourceAccession, form: row.sourceForm, filedAt: row.sourceFiledAt, url: row.sourceUrl };
}

/** A row with its four evidence columns turned into one `source`. */
export function withSourceRef<T extends SourceColumns>(row: T): Omit<T, keyof SourceColumns> & { source: SourceRef | null } {
  const { sourceAccession, sourceForm, sourceFiledAt, sourceUrl, ...rest } = row;
  return { ...rest, source: sourceRef({ sourceAccession, sourceForm, sourceFiledAt, sourceUrl }) };
}

/** What `include=source` adds to a record. */
export type SourceJson =
  | { type: "sec_filing"; accession_number: string; form: string; filed_date: string; url: string; quotes?: Partial<Record<string, string>> }
  | { type: "sample"; note: string }
  | { type: "import"; note: string };

export const SAMPLE_SOURCE: SourceJson = {
  type: "sample",
  note: "Sample data: a fictional company generated for development, not a real filing.",
};

export const IMPORTED_SOURCE: SourceJson = {
  type: "import",
  note: "Loaded by the operator from a data file that names no SEC filing.",
};

/**
 * The record's `source`. `quotes` (stored as {"api field": "quote"}) are
 * served for the fields `quotedFields` names, each within its maximum.
 */
export function sourceJson(ref: SourceRef | null, isSample: boolean, stored?: { quotes: unknown; quotedFields: readonly string[] }): SourceJson {
  if (ref) {
    const quotes = stored ? servedQuotes(stored.quotes, stored.quotedFields) : null;
    return {
      type: "sec_filing",
      accession_number: clampText(ref.accession, ACCESSION_LENGTH),
      form: clampText(ref.form, SERVED_TEXT_BYTES.formType),
      filed_date: isoDay(ref.filedAt),
      url: clampText(ref.url, SERVED_TEXT_BYTES.url),
      ...(quotes ? { quotes } : {}),
    };
  }
  return isSample ? SAMPLE_SOURCE : IMPORTED_SOURCE;
}

function servedQuotes(stored: unknown, fields: readonly string[]): Record<string, string> | null {
  if (stored === null || typeof stored !== "object" || Array.isArray(stored)) return null;
  const quotes: Record<string, string> = {};
  for (const field of fields) {
    const quote = (stored as Record<string, unknown>)[field];
    if (typeof quote === "string" && quote) quotes[field] = clampText(quote, SERVED_TEXT_BYTES.quote);
  }
  return Object.keys(quotes).length ? quotes : null;
}
