import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import pg from "pg";
import { PrismaClient } from "../generated/prisma/client";
import { migrate } from "./migrate";
import { pgliteDriver, postgresDriver, type SqlDriver } from "./sql";

export type { PrismaClient } from "../generated/prisma/client";
export { Prisma } from "../generated/prisma/client";

export interface Database {
  readonly kind: "pglite" | "postgres";
  readonly prisma: PrismaClient;
  readonly sql: SqlDriver;
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
    await migrate(database.sql);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

function openPostgres(url: string, poolSize = 10): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client that loses its server must not crash the process; the next
  // query reports the failure (and /health turns it into a 503).
  pool.on("error", () => {});
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    kind: "postgres",
    prisma,
    sql: postgresDriver(pool),
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

async function openPglite(dataDir = DEFAULT_PGLITE_DIR): Promise<Database> {
  if (!dataDir.startsWith("memory://")) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir);
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(client) });
  return {
    kind: "pglite",
    prisma,
    sql: pgliteDriver(client),
    async close() {
      await prisma.$disconnect();
      await client.close();
    },
  };
}
