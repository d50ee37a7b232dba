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
 * described in ./schema.ts.
 */
import type { Prisma, PrismaClient } from "@/lib/db";
import { generateSampleDataset, type SampleOptions } from "../sample";
import { bumpDatasetVersion, notifyDataChanged } from "../version";
import type { ParsedImportFile } from "./files";
import { ImportFailedError, MAX_LISTED_ERRORS, resetWrites, sortErrors, type ImportError, type ImportReport } from "./report";
import { IMPORT_KINDS, type Dataset, type ImportInput } from "./schema";
import { validateRecords } from "./validate";
import { afterWrite, removeFilingRows, unknownTickers, upsertRecords } from "./write";

export { findJsonSyntaxError, parseImportFile, scanJsonLayout, type ParsedImportFile } from "./files";
export { parseCsv, type CsvRecord } from "./csv";
export { formatImportError, formatImportReport, ImportFailedError, type ImportError, type ImportReport, type KindCounts } from "./report";
export { validateRecords } from "./validate";
export { deriveFloatValues } from "./write";

/**
 * The largest import file, in bytes (100 MiB): the admin console's upload
 * (lib/platform/admin/data.ts) and the CLI's hand-over to the app server
 * (lib/cli/internal.ts) both refuse anything larger.
 */
export const MAX_IMPORT_BYTES = 100 * 1024 * 1024;

function isParsedFile(input: ImportInput | ParsedImportFile): input is ParsedImportFile {
  return "input" in input && "errors" in input && "format" in input;
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
  // One at a time: a spread of millions of arguments overflows the stack.
  if (parsed) for (const error of parsed.errors) errors.push(error);

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
    errors: sortErrors(allErrors).slice(0, MAX_LISTED_ERRORS),
    ...(allErrors.length > MAX_LISTED_ERRORS ? { unlistedErrors: allErrors.length - MAX_LISTED_ERRORS } : {}),
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
          failure = errors.concat(tickerErrors);
          throw new Rollback();
        }
        await upsertRecords(tx, valid, known, counts);
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


/** Generates the sample dataset and imports it (idempotent: a second load changes nothing). */
export async function loadSampleData(prisma: PrismaClient, options: SampleOptions & ImportOptions = {}): Promise<ImportReport> {
  const { dryRun, ...sample } = options;
  const report = await importDataset(prisma, generateSampleDataset(sample), { dryRun });
  if (!report.ok) throw new ImportFailedError(report);
  return report;
}
