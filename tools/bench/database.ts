import { randomBytes } from "node:crypto";
import pg from "pg";
import { ensureDefaultPlans } from "@/lib/billing/plans";
import { loadSampleData } from "@/lib/data/import";
import { openDatabase, type Database } from "@/lib/db";

/**
 * The databases a benchmark runs on: an in-memory PGlite, or a scratch
 * database on a PostgreSQL server (created here, dropped by close()), each
 * migrated and loaded with the sample dataset. Both are opened exactly as the
 * app opens them (same pool size), so the figures are the app's.
 */
export const LOCAL_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/postgres";

export type BenchDbKind = "pglite" | "postgres";

/** The server to create the scratch database on, and whether someone asked for it explicitly. */
export function postgresServerUrl(): { url: string; explicit: boolean } {
  const given = process.env.BENCH_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();
  return given ? { url: given, explicit: true } : { url: LOCAL_POSTGRES_URL, explicit: false };
}

export async function isReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

export interface BenchDatabase {
  kind: BenchDbKind;
  /** What the table says, e.g. "postgres 15.20" or "pglite". */
  label: string;
  database: Database;
  /** The scratch database's connection string (PostgreSQL only), e.g. for a server to use. */
  url?: string;
  tickers: string[];
  close(): Promise<void>;
}

/** Opens, migrates and seeds a fresh database. The caller must close() it (that drops a scratch database). */
export async function openBenchDatabase(kind: BenchDbKind, options: { tickerCount: number; serverUrl?: string }): Promise<BenchDatabase> {
  let database: Database;
  let drop = async () => {};
  let label: string = kind;
  let databaseUrl: string | undefined;
  if (kind === "postgres") {
    const serverUrl = options.serverUrl ?? postgresServerUrl().url;
    const name = `bench_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
    await onServer(serverUrl, `CREATE DATABASE "${name}"`);
    drop = () => onServer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    try {
      database = await openDatabase({ url: databaseUrl });
    } catch (error) {
      await drop();
      throw error;
    }
  } else {
    database = await openDatabase({ dataDir: "memory://" });
  }

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await database.close().catch(() => {});
    await drop();
  };
  try {
    const [row] = await database.sql.query<{ version: string }>("SELECT current_setting('server_version') AS version");
    if (row) label = `${kind} ${row.version.split(" ")[0]}`;
    await ensureDefaultPlans(database.prisma);
    await loadSampleData(database.prisma, { tickerCount: options.tickerCount });
    // A freshly loaded dataset leaves autovacuum and the next checkpoint to run during the measurement (with
    // 10,000 tickers, hundreds of thousands of rows on a 2-core machine): do that work now, as a server in
    // its steady state has.
    if (kind === "postgres") {
      await database.sql.query("VACUUM ANALYZE");
      await database.sql.query("CHECKPOINT");
    }
    const companies = await database.prisma.company.findMany({ select: { ticker: true }, orderBy: { ticker: "asc" } });
    return { kind, label, database, url: databaseUrl, tickers: companies.map((c) => c.ticker), close };
  } catch (error) {
    await close();
    throw error;
  }
}
