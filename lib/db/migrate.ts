import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { SqlDriver } from "./sql";

/**
 * Applies prisma/migrations/<name>/migration.sql in name order and records each
 * in `_prisma_migrations` exactly as `prisma migrate deploy` does (same table,
 * sha256 checksum of the file), so either tool can take over a database.
 */
export const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");

// The advisory lock id Prisma Migrate itself takes, so the two never interleave.
const MIGRATION_LOCK_ID = 72707369;

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  // turbopackIgnore: a read from a variable folder makes the build trace the whole project into every
  // server function; next.config.js names the migrations for the output instead.
  const entries = await readdir(/* turbopackIgnore: true */ dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(/* turbopackIgnore: true */ path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: number;
}

export async function migrate(driver: SqlDriver, migrations?: Migration[]): Promise<MigrateResult> {
  const all = migrations ?? (await readMigrations());
  if (driver.kind === "postgres") await driver.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
  try {
    await driver.exec(CREATE_MIGRATIONS_TABLE);
    const rows = await driver.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    const done = new Map(rows.map((r) => [r.migration_name, r]));
    const applied: string[] = [];
    for (const m of all) {
      const previous = done.get(m.name);
      if (previous) {
        if (!previous.finished_at) {
          throw new Error(`Migration ${m.name} started earlier but did not finish; repair the database before migrating.`);
        }
        if (previous.checksum !== m.checksum) {
          throw new Error(`Migration ${m.name} was changed after it was applied (checksum mismatch).`);
        }
        continue;
      }
      const id = randomUUID();
      await driver.exec("BEGIN");
      try {
        await driver.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)`,
          [id, m.checksum, m.name],
        );
        await driver.exec(m.sql);
        await driver.query(
          `UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`,
          [id],
        );
        await driver.exec("COMMIT");
      } catch (error) {
        await driver.exec("ROLLBACK");
        throw new Error(`Migration ${m.name} failed: ${(error as Error).message}`);
      }
      applied.push(m.name);
    }
    return { applied, alreadyApplied: all.length - applied.length };
  } finally {
    if (driver.kind === "postgres") await driver.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]);
  }
}
