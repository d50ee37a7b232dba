import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import pg from "pg";
import { PrismaClient, type Prisma } from "../generated/prisma/client";
import { migrate } from "./migrate";
import { pgliteDriver, postgresDriver, type SqlDriver } from "./sql";

export type { PrismaClient } from "../generated/prisma/client";
export { Prisma } from "../generated/prisma/client";

/** A client or an open transaction: domain functions accept either. */
export type DbClient = PrismaClient | Prisma.TransactionClient;

export interface Database {
  readonly kind: "pglite" | "postgres";
  readonly prisma: PrismaClient;
  readonly sql: SqlDriver;
  /** Migrations this open applied (empty when the database was up to date). */
  readonly migrated: string[];
  /** Runs `work` on one connection (a transaction or an advisory lock needs that). */
  withSession<T>(work: (session: SqlDriver) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A postgres:// URL; without it an embedded PGlite database is used. */
  url?: string;
  /** PGlite data folder, or "memory://" for a throwaway in-memory database. */
  dataDir?: string;
  /** Connections in the PostgreSQL pool. */
  poolSize?: number;
}

export const DEFAULT_PGLITE_DIR = path.join(process.cwd(), ".data", "pglite");

/** Opens a database and applies pending migrations. */
export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  const database = options.url ? openPostgres(options.url, options.poolSize) : await openPglite(options.dataDir);
  try {
    const { applied } = await database.withSession(migrate);
    return { ...database, migrated: applied };
  } catch (error) {
    await database.close();
    throw error;
  }
}

function openPostgres(url: string, poolSize = 10): Omit<Database, "migrated"> {
  // A database that does not answer a connection within 5 s is treated as down (503), not waited for.
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000 });
  // An idle client that loses its server must not crash the process; the next
  // query reports the failure (and /health turns it into a 503).
  pool.on("error", () => {});
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    kind: "postgres",
    prisma,
    sql: postgresDriver(pool),
    async withSession(work) {
      const client = await pool.connect();
      try {
        return await work(postgresDriver(client));
      } finally {
        client.release();
      }
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

async function openPglite(dataDir = DEFAULT_PGLITE_DIR): Promise<Omit<Database, "migrated">> {
  if (!dataDir.startsWith("memory://")) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir);
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(client) });
  return {
    kind: "pglite",
    prisma,
    sql: pgliteDriver(client),
    withSession: (work) => work(pgliteDriver(client)),
    async close() {
      await prisma.$disconnect();
      await client.close();
    },
  };
}
