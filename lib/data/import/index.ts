/**
 * The import pipeline of the dilution data: JSON or CSV files → validated
 * records → one transaction of upserts on the natural keys.
 *
 *   const file = await openImportFile("offerings.csv", fileBytes(path));   // or importFileText(name, text)
 *   const report = await importDataset(prisma, file);                      // or (prisma, dataset)
 *   if (!report.ok) report.errors.map(formatImportError);                  // nothing was written
 *
 * All or nothing: every record is checked (fields, calendar dates, tickers
 * known in the file or the database, natural keys unique in the file); if any
 * is bad, nothing is written and the bad records are reported with their
 * lines (the first 1,000, and how many more). A file is read as a stream and
 * written a chunk at a time inside one transaction, so its size does not
 * decide the memory it takes (./run.ts). A row whose content is already
 * stored is left alone (not even `updated_at` moves), so importing the same
 * file twice changes nothing. Imports never delete. The record format is
 * described in ./schema.ts.
 */
import type { Prisma, PrismaClient } from "@/lib/db";
import { generateSampleDataset, type SampleOptions } from "../sample";
import { bumpDatasetVersion, notifyDataChanged } from "../version";
import { datasetSource, type RecordSource } from "./files";
import { ImportFailedError, resetWrites, sortErrors, type ImportReport } from "./report";
import { ImportRun } from "./run";
import type { Dataset, ImportInput } from "./schema";

export { datasetSource, fileBytes, importFileText, openImportFile, readAll, textBytes, type ByteSource, type RecordSource } from "./files";
export { CsvReader, parseCsv, type CsvRecord } from "./csv";
export { formatImportError, formatImportReport, ImportFailedError, type ImportError, type ImportReport, type KindCounts } from "./report";
export { validateRecords } from "./validate";
export { deriveFloatValues } from "./write";

/**
 * The largest import file, in bytes (100 MiB): the admin console's upload
 * (lib/platform/admin/data.ts) and the CLI's hand-over to the app server
 * (lib/cli/internal.ts) both refuse anything larger.
 */
export const MAX_IMPORT_BYTES = 100 * 1024 * 1024;

function isRecordSource(input: ImportInput | RecordSource): input is RecordSource {
  return typeof (input as RecordSource).items === "function" && "format" in input;
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
 * Reads a source (a file as a stream, or a dataset in memory) completely in
 * one transaction, writing its records a chunk at a time, and commits only if
 * every record was good. Returns the report; nothing is written when it has
 * errors.
 */
export async function importDataset(
  prisma: PrismaClient,
  source: ImportInput | Dataset | RecordSource,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const started = performance.now();
  const dryRun = options.dryRun ?? false;
  const records = isRecordSource(source) ? source : datasetSource(source as ImportInput);
  let run: ImportRun | null = null;
  let wrote = false;
  const report = (ok: boolean): ImportReport => {
    const { counts, errors, errorCount } = run!;
    return {
      ok,
      dryRun,
      errors: sortErrors(errors),
      ...(errorCount > errors.length ? { unlistedErrors: errorCount - errors.length } : {}),
      counts: ok ? counts : resetWrites(counts),
      durationMs: Math.round(performance.now() - started),
    };
  };
  try {
    await prisma.$transaction(
      async (tx) => {
        run = new ImportRun(tx, options.replaceFilingRowsOf);
        await run.read(records);
        if (run.errorCount > 0) throw new Rollback();
        const changed = await run.finish();
        if (dryRun) throw new Rollback();
        wrote = changed;
        if (wrote) await bumpDatasetVersion(tx);
        if (options.onApplied) await options.onApplied(tx, report(true));
      },
      { maxWait: 60_000, timeout: 30 * 60_000 },
    );
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  const ran = run as ImportRun | null;
  if (!ran) throw new Error("the import did not start");
  if (ran.errorCount > 0) return report(false);
  if (wrote) notifyDataChanged();
  return report(true);
}

/** Generates the sample dataset and imports it (idempotent: a second load changes nothing). */
export async function loadSampleData(prisma: PrismaClient, options: SampleOptions & ImportOptions = {}): Promise<ImportReport> {
  const { dryRun, ...sample } = options;
  const report = await importDataset(prisma, generateSampleDataset(sample), { dryRun });
  if (!report.ok) throw new ImportFailedError(report);
  return report;
}
