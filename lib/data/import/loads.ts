/**
 * The record of every data load that was applied or failed (`data_loads`):
 * imports from the admin console and from `npm run data:import`, the EDGAR
 * sync (kind "edgar") and the sample dataset's removal ("remove-sample"). Dry runs are not recorded: they change
 * nothing. The platform console's Data page lists these rows.
 *
 *   const report = await importRecorded(prisma, parsed, { source: "offerings.csv", actor: { actorLabel: "cli" } });
 */
import type { DbClient, Prisma, PrismaClient } from "@/lib/db";
import type { RecordSource } from "./files";
import { importDataset } from "./index";
import { formatImportError, type ImportReport, type KindCounts } from "./report";
import { IMPORT_KINDS, type ImportKind } from "./schema";

export const DATA_LOAD_KINDS = ["import", "edgar", "edgar-reextract", "remove-sample"] as const;
export type DataLoadKind = (typeof DATA_LOAD_KINDS)[number];
export type DataLoadStatus = "applied" | "failed";

/** How many formatted errors a failed load keeps (the count is always complete). */
export const DATA_LOAD_ERRORS_KEPT = 20;

export interface DataLoadRecord {
  kind: DataLoadKind;
  /** The file name or the sync's source. */
  source: string;
  status: DataLoadStatus;
  /** Per record kind with records: received, created, updated, unchanged. */
  counts: Partial<Record<ImportKind, KindCounts>>;
  /** The first errors, formatted ("line 12: ticker: …"). */
  errors: string[];
  errorCount: number;
  durationMs: number;
  startedAt: Date;
  actorUserId?: string | null;
  actorLabel?: string | null;
}

export interface LoadActor {
  actorUserId?: string | null;
  actorLabel?: string | null;
}

/** The kinds that had records, with their counts. */
export function countsWithRecords(counts: Record<ImportKind, KindCounts>): Partial<Record<ImportKind, KindCounts>> {
  return Object.fromEntries(IMPORT_KINDS.filter((kind) => counts[kind].received > 0).map((kind) => [kind, counts[kind]]));
}

/** "3 companies, 12 offerings: 10 created, 2 updated, 3 unchanged" (or "no records"), with removed and skipped records when there are any. */
export function summarizeCounts(counts: Partial<Record<ImportKind, KindCounts>>): string {
  const kinds = IMPORT_KINDS.filter((kind) => (counts[kind]?.received ?? 0) > 0 || (counts[kind]?.removed ?? 0) > 0);
  if (kinds.length === 0) return "no records";
  const total = { created: 0, updated: 0, unchanged: 0, removed: 0, skipped: 0 };
  for (const kind of kinds) {
    total.created += counts[kind]!.created;
    total.updated += counts[kind]!.updated;
    total.unchanged += counts[kind]!.unchanged;
    total.removed += counts[kind]!.removed ?? 0;
    total.skipped += counts[kind]!.skipped ?? 0;
  }
  const received = kinds.map((kind) => `${counts[kind]!.received.toLocaleString("en-US")} ${kind}`).join(", ");
  const extra = [
    ...(total.removed ? [`${total.removed} removed`] : []),
    ...(total.skipped ? [`${total.skipped} skipped (ticker not listed)`] : []),
  ];
  const writes = total.created + total.updated + total.unchanged;
  const summary = writes > 0 ? `${received}: ${total.created} created, ${total.updated} updated, ${total.unchanged} unchanged` : received;
  return extra.length ? `${summary}, ${extra.join(", ")}` : summary;
}

/** The row for an import's report. */
export function loadFromReport(report: ImportReport, at: { kind?: DataLoadKind; source: string; startedAt: Date } & LoadActor): DataLoadRecord {
  return {
    kind: at.kind ?? "import",
    source: at.source,
    status: report.ok ? "applied" : "failed",
    counts: countsWithRecords(report.counts),
    errors: report.errors.slice(0, DATA_LOAD_ERRORS_KEPT).map(formatImportError),
    errorCount: report.errors.length,
    durationMs: report.durationMs,
    startedAt: at.startedAt,
    actorUserId: at.actorUserId ?? null,
    actorLabel: at.actorLabel ?? null,
  };
}

/** Writes one row; pass the transaction of the load itself when there is one. */
export async function recordDataLoad(db: DbClient, load: DataLoadRecord): Promise<bigint> {
  const row = await db.dataLoad.create({
    data: {
      kind: load.kind,
      source: load.source.slice(0, 255),
      status: load.status,
      counts: load.counts as unknown as Prisma.InputJsonObject,
      errors: load.errors.map((error) => error.slice(0, 1_000)),
      errorCount: load.errorCount,
      durationMs: Math.max(0, Math.min(2_147_483_647, Math.round(load.durationMs))),
      startedAt: load.startedAt,
      actorUserId: load.actorUserId ?? null,
      actorLabel: load.actorLabel ?? null,
    },
    select: { id: true },
  });
  return row.id;
}

export interface RecordedImportOptions {
  dryRun?: boolean;
  /** The file name, as the row shows it. */
  source: string;
  actor: LoadActor;
  /** Also inside the transaction that writes the row (e.g. the audit entry). */
  alsoRecord?: (tx: Prisma.TransactionClient, load: DataLoadRecord, loadId: bigint) => Promise<void>;
}

/**
 * importDataset, recorded: an applied import writes its data_loads row in the
 * import's own transaction; a failed one (bad records, or the database giving
 * way) writes a "failed" row on its own. A dry run records nothing.
 */
export async function importRecorded(db: PrismaClient, file: RecordSource, options: RecordedImportOptions): Promise<ImportReport> {
  if (options.dryRun) return importDataset(db, file, { dryRun: true });
  const startedAt = new Date();
  const started = performance.now();
  const at = { source: options.source, startedAt, ...options.actor };
  const record = async (tx: Prisma.TransactionClient, load: DataLoadRecord) => {
    const loadId = await recordDataLoad(tx, load);
    await options.alsoRecord?.(tx, load, loadId);
  };
  let report: ImportReport;
  try {
    report = await importDataset(db, file, { onApplied: (tx, applied) => record(tx, loadFromReport(applied, at)) });
  } catch (error) {
    // The database refused or went away mid-import: nothing was written. Say so in the record if it can still be written.
    const message = error instanceof Error ? error.message.split("\n")[0]!.slice(0, 500) : "the import failed";
    const load: DataLoadRecord = {
      kind: "import",
      ...at,
      status: "failed",
      counts: {},
      errors: [`the import stopped: ${message}`],
      errorCount: 1,
      durationMs: performance.now() - started,
    };
    await db.$transaction((tx) => record(tx, load)).catch(() => undefined);
    throw error;
  }
  if (!report.ok) await db.$transaction((tx) => record(tx, loadFromReport(report, at)));
  return report;
}
