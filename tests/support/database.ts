import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type Database } from "@/lib/db";

export const isPostgres = () => process.env.TEST_DB === "postgres";

async function onServer(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL! });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** A new, empty database on the test PostgreSQL server, and how to drop it. */
export async function createScratchDatabase(prefix = "t"): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  await onServer(`CREATE DATABASE "${name}"`);
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or (in the
 * "postgres" vitest project) a new database on the real server, dropped after.
 */
export async function openTestDatabase(): Promise<Database> {
  if (!isPostgres()) return openDatabase({ dataDir: "memory://" });
  const scratch = await createScratchDatabase();
  const database = await openDatabase({ url: scratch.url, poolSize: 20 });
  return {
    ...database,
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}
