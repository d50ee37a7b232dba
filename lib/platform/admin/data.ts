import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { notFound } from "next/navigation";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import { principalFromRequest, type Principal } from "@/lib/auth/session";
import type { PrismaClient } from "@/lib/db";
import { fileBytes, formatImportError, MAX_IMPORT_BYTES, openImportFile, type ByteSource, type ImportReport, type KindCounts } from "@/lib/data/import";
import { IMPORT_KINDS, type ImportKind } from "@/lib/data/import/schema";
import { importRecorded, summarizeCounts, type DataLoadKind } from "@/lib/data/import/loads";
import { classifyError } from "@/lib/errors";
import { appDatabaseConfig, getAppDatabase } from "@/lib/runtime/database";
import { clientIp } from "@/lib/utils/client-ip";
import type { DatabaseSource } from "../route-handler";
import { adminActor, NotPlatformAdmin, requirePlatformAdmin } from "./access";

/**
 * The console's Data page: what the dataset holds, the last loads
 * (`data_loads`), and the upload of a JSON or CSV file, checked (dry run) and
 * then applied all or nothing by the same validator as `npm run data:import`.
 *
 * The upload is a route handler (POST /admin/data/upload), not a server
 * action: an action's body stops at 1 MB, a data file may be 100 MiB
 * (MAX_IMPORT_BYTES). The body is saved to a temporary file as it arrives (cut
 * off as soon as it passes the limit) and the import reads that file as a
 * stream, so an upload's memory does not grow with its size.
 */

/** How many loads the page lists. */
export const DATA_LOADS_SHOWN = 20;

/**
 * How long a maximum-size file holds the embedded database, read as a stream
 * (lib/data/import/run.ts). Measured on this project's shared 2-core machine
 * (Node 20, PGlite on disk): a generated 132 MB JSON file (13,900 companies,
 * 514,140 records) took 34 s to check and 35 s to apply; a 100 MB CSV of
 * 4,221,000 closing prices 101 s to check, 104 s to apply and 66 s to apply
 * again unchanged. The check runs every upsert too (then rolls back), so both
 * hold PGlite's single connection and the API's requests wait; PostgreSQL
 * keeps serving from its other connections.
 */
export const EMBEDDED_FULL_FILE_APPLY = "from half a minute (a JSON file of records with many fields) to two minutes (a CSV of millions of short rows)";

const LOAD_KIND_LABELS: Record<DataLoadKind, string> = { import: "File import", edgar: "EDGAR sync", "edgar-reextract": "EDGAR filings read again", "remove-sample": "Sample data removed" };

// ───────────────────────────── status ─────────────────────────────

const countsJson = z.record(
  z.string(),
  z.object({
    received: z.number().optional(),
    created: z.number().optional(),
    updated: z.number().optional(),
    unchanged: z.number().optional(),
    skipped: z.number().optional(),
    removed: z.number().optional(),
  }),
);

function storedCounts(value: unknown): Partial<Record<ImportKind, KindCounts>> {
  const parsed = countsJson.safeParse(value);
  if (!parsed.success) return {};
  const counts: Partial<Record<ImportKind, KindCounts>> = {};
  for (const kind of IMPORT_KINDS) {
    const c = parsed.data[kind];
    if (c) {
      counts[kind] = {
        received: c.received ?? 0,
        created: c.created ?? 0,
        updated: c.updated ?? 0,
        unchanged: c.unchanged ?? 0,
        ...(c.skipped ? { skipped: c.skipped } : {}),
        ...(c.removed ? { removed: c.removed } : {}),
      };
    }
  }
  return counts;
}

/** The dataset's records per kind, sample and real companies, and the last loads, newest first. */
export async function dataOverview(db: PrismaClient, principal: Principal | null) {
  await requirePlatformAdmin(db, principal);
  const [companies, sampleCompanies, edgarCompanies, partialCiks, lastSync, financialReports, registrations, offerings, instruments, instrumentStates, deficiencies, floats, reverseSplits, prices, regSho, loads] = await Promise.all([
    db.company.count(),
    db.company.count({ where: { isSample: true } }),
    db.company.count({ where: { cik: { not: null }, isSample: false } }),
    db.edgarCompany.findMany({ where: { partial: true }, select: { cik: true } }),
    db.edgarCompany.aggregate({ _max: { syncedAt: true } }),
    db.financialReport.count(),
    db.registration.count(),
    db.offering.count(),
    db.dilutionInstrument.count(),
    db.instrumentState.count(),
    db.complianceDeficiency.count(),
    db.floatSnapshot.count(),
    db.reverseSplit.count(),
    db.dailyPrice.count(),
    db.regShoThreshold.count(),
    db.dataLoad.findMany({ orderBy: [{ finishedAt: "desc" }, { id: "desc" }], take: DATA_LOADS_SHOWN }),
  ]);
  const records: Record<ImportKind, number> = {
    companies,
    financial_reports: financialReports,
    registrations,
    offerings,
    dilution_instruments: instruments,
    instrument_states: instrumentStates,
    compliance_deficiencies: deficiencies,
    float_snapshots: floats,
    reverse_splits: reverseSplits,
    daily_prices: prices,
    reg_sho_thresholds: regSho,
  };
  const actorIds = [...new Set(loads.map((l) => l.actorUserId).filter((id): id is string => id !== null))];
  const actors = actorIds.length ? await db.user.findMany({ where: { id: { in: actorIds } }, select: { id: true, email: true } }) : [];
  const emailOf = new Map(actors.map((a) => [a.id, a.email]));
  const partial = partialCiks.length
    ? await db.company.findMany({ where: { cik: { in: partialCiks.map((c) => c.cik) } }, select: { ticker: true }, orderBy: { ticker: "asc" } })
    : [];
  return {
    records,
    /** What the EDGAR sync has loaded: companies with a CIK, the last time a company was synced, and tickers whose older filing-index pages were missing. */
    edgar: { companies: edgarCompanies, lastSyncedAt: lastSync._max.syncedAt ?? null, partialTickers: partial.map((c) => c.ticker) },
    companies: { total: companies, sample: sampleCompanies, real: companies - sampleCompanies },
    /** True when the app runs on the embedded PGlite database (no DATABASE_URL): a load holds its one connection. */
    embedded: !appDatabaseConfig().url,
    loads: loads.map((load) => {
      const counts = storedCounts(load.counts);
      const kind = load.kind as DataLoadKind;
      return {
        id: load.id.toString(),
        kind: load.kind,
        kindLabel: LOAD_KIND_LABELS[kind] ?? load.kind,
        source: load.source,
        status: load.status,
        counts,
        summary: summarizeCounts(counts),
        errors: Array.isArray(load.errors) ? load.errors.filter((e): e is string => typeof e === "string") : [],
        errorCount: load.errorCount,
        durationMs: load.durationMs,
        actor: load.actorUserId ? (emailOf.get(load.actorUserId) ?? "deleted user") : load.actorLabel === "cli" ? "Operator (CLI)" : (load.actorLabel ?? "system"),
        startedAt: load.startedAt,
        finishedAt: load.finishedAt,
      };
    }),
  };
}

export type DataOverview = Awaited<ReturnType<typeof dataOverview>>;

// ───────────────────────────── upload ─────────────────────────────

const fileNameSchema = z
  .string()
  .trim()
  .min(1, "Name the file (X-File-Name).")
  .max(255, "The file name is longer than 255 characters; rename the file.")
  .regex(/^[^\\/\u0000-\u001f\u007f]+$/, "The file name may not contain slashes or control characters; rename the file.")
  .regex(/\.(json|csv)$/i, "Upload a .json or .csv file (the name says which format it is, and a CSV's name may say its kind, e.g. offerings.csv).");

const uploadInput = z.object({ fileName: fileNameSchema, dryRun: z.boolean() });

/**
 * Checks (dryRun) or applies one data file. An applied or failed apply is
 * recorded in data_loads with its audit entry ("data.imported" or
 * "data.import_failed"), in the transaction that writes the data when there
 * is any; a check records nothing.
 */
export async function uploadDataFile(db: PrismaClient, principal: Principal | null, input: { fileName: string; dryRun: boolean; bytes: ByteSource }): Promise<ImportReport> {
  const admin = await requirePlatformAdmin(db, principal);
  const { fileName, dryRun } = uploadInput.parse(input);
  const file = await openImportFile(fileName, input.bytes);
  return importRecorded(db, file, {
    dryRun,
    source: fileName,
    actor: { actorUserId: admin.user.id, actorLabel: null },
    alsoRecord: (tx, load, loadId) =>
      recordAudit(tx, {
        ...adminActor(admin),
        action: load.status === "applied" ? "data.imported" : "data.import_failed",
        orgId: null,
        targetType: "data_load",
        targetId: loadId.toString(),
        details: { source: load.source, summary: summarizeCounts(load.counts), error_count: load.errorCount, duration_ms: Math.round(load.durationMs) },
      }),
  });
}

/** The upload's JSON answer. */
export function uploadAnswer(report: ImportReport) {
  return {
    ok: report.ok,
    dry_run: report.dryRun,
    counts: Object.fromEntries(IMPORT_KINDS.filter((kind) => report.counts[kind].received > 0).map((kind) => [kind, report.counts[kind]])),
    // The report lists at most MAX_LISTED_ERRORS; error_count is the total.
    errors: report.errors.map((error) => ({
      line: error.line ?? null,
      field: error.field ?? null,
      message: error.message,
      text: formatImportError(error),
    })),
    error_count: report.errors.length + (report.unlistedErrors ?? 0),
    duration_ms: report.durationMs,
  };
}

export type UploadAnswer = ReturnType<typeof uploadAnswer>;

function answer(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });
}

const refuse = (status: number, error: string, headers: Record<string, string> = {}) => answer(status, { ok: false, error }, headers);

/** The browser's Origin names this host (a cookie-authenticated POST from another site is refused), as server-action posts are checked. */
function fromThisSite(request: Request): boolean {
  const origin = request.headers.get("origin");
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  if (!origin || !host) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

type SavedBody = { path: string; blank: boolean } | { refused: "too_large" | "not_utf8" };

/**
 * The body saved to a temporary file, chunk by chunk, checked to be UTF-8 on
 * the way and given up as soon as it passes `limit` bytes (nothing more is
 * read). The import then reads the file as a stream: neither step holds the
 * file in memory, and a slow upload never holds the database.
 */
async function saveBodyUpTo(body: ReadableStream<Uint8Array> | null, limit: number): Promise<SavedBody> {
  const dir = await mkdtemp(join(tmpdir(), "data-upload-"));
  const path = join(dir, "upload");
  const file = await open(path, "wx", 0o600);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let size = 0;
  let blank = true;
  const giveUp = async (refused: "too_large" | "not_utf8", reader?: ReadableStreamDefaultReader<Uint8Array>): Promise<SavedBody> => {
    await reader?.cancel().catch(() => undefined);
    await file.close();
    await rm(dir, { recursive: true, force: true });
    return { refused };
  };
  try {
    if (body) {
      const reader = body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limit) return await giveUp("too_large", reader);
        try {
          const text = decoder.decode(value, { stream: true });
          if (blank && /[^\s\uFEFF]/.test(text)) blank = false;
        } catch {
          return await giveUp("not_utf8", reader); // fatal: a byte sequence that is not UTF-8
        }
        await file.write(value);
      }
    }
    try {
      decoder.decode();
    } catch {
      return await giveUp("not_utf8");
    }
    await file.close();
    return { path, blank };
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

const TOO_LARGE = `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB, the most one upload takes. Split it into several files (e.g. one per kind) and load them one after the other.`;

/**
 * POST /admin/data/upload?dry_run=1|0, the file's bytes as the body and its
 * name in X-File-Name (URI-encoded). Answers the import report as JSON
 * (`uploadAnswer`), or `{ ok: false, error }` with 400/403/405/413/500/503. Anyone
 * but a platform administrator gets notFound(), the answer an unknown path
 * gets, before a byte of the body is read.
 */
export async function uploadDataRoute(request: Request, database: DatabaseSource = getAppDatabase): Promise<Response> {
  let db: PrismaClient;
  let principal: Principal | null;
  try {
    db = (await database()).prisma;
    principal = await principalFromRequest(db, request, clientIp(request.headers));
    await requirePlatformAdmin(db, principal);
  } catch (error) {
    if (!(error instanceof NotPlatformAdmin)) return failure(error);
    await request.body?.cancel().catch(() => undefined);
    notFound();
  }

  const upload = checkUpload(request);
  if ("response" in upload) {
    await request.body?.cancel().catch(() => undefined);
    return upload.response;
  }

  try {
    const saved = await saveBodyUpTo(request.body, MAX_IMPORT_BYTES);
    if ("refused" in saved) {
      return saved.refused === "too_large"
        ? refuse(413, TOO_LARGE, { Connection: "close" })
        : refuse(400, "The file is not UTF-8 text. Save it as UTF-8 (JSON or CSV) and upload it again.");
    }
    try {
      if (saved.blank) return refuse(400, "The file is empty.");
      const report = await uploadDataFile(db, principal, { fileName: upload.fileName, bytes: fileBytes(saved.path), dryRun: upload.dryRun });
      return answer(200, uploadAnswer(report));
    } finally {
      await rm(dirname(saved.path), { recursive: true, force: true });
    }
  } catch (error) {
    return failure(error);
  }
}

function fileNameOf(request: Request): string | null {
  const raw = request.headers.get("x-file-name");
  if (raw === null) return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** The checks before the body is read: the file's name and what to do with it, or the refusal. */
function checkUpload(request: Request): { response: Response } | { fileName: string; dryRun: boolean } {
  if (request.method !== "POST") return { response: refuse(405, "Upload the file with POST.", { Allow: "POST" }) };
  if (!fromThisSite(request)) return { response: refuse(403, "Uploads are only accepted from this site’s own Data page.") };
  const dryRun = new URL(request.url).searchParams.get("dry_run");
  if (dryRun !== "0" && dryRun !== "1") return { response: refuse(400, "Say dry_run=1 to check the file or dry_run=0 to apply it.") };
  const name = fileNameOf(request);
  if (name === null) return { response: refuse(400, "Name the file in the X-File-Name header (URI-encoded).") };
  const checked = fileNameSchema.safeParse(name);
  if (!checked.success) return { response: refuse(400, checked.error.issues[0]?.message ?? "The file name is not valid.") };
  const length = request.headers.get("content-length");
  if (length !== null) {
    if (!/^\d{1,15}$/.test(length)) return { response: refuse(400, "The Content-Length header is not a number.") };
    if (Number(length) > MAX_IMPORT_BYTES) return { response: refuse(413, TOO_LARGE, { Connection: "close" }) };
  }
  return { fileName: checked.data, dryRun: dryRun === "1" };
}

const UPLOAD_WORDS = {
  invalid: "The upload is not valid.",
  unavailable: "The database is briefly unavailable and nothing was written. Try again in a few seconds.",
  internal: "Something went wrong on our side and nothing was written. Try again.",
  log: "[admin] data upload failed:",
};

function failure(error: unknown): Response {
  const shown = classifyError(error, UPLOAD_WORDS);
  return refuse(shown.status, shown.message, shown.status === 503 ? { "Retry-After": "5" } : {});
}
