import { appDatabaseConfig } from "@/lib/runtime/database";
import { acquireEmbeddedLock } from "@/lib/db/embedded-lock";
import { readMigrations } from "@/lib/db/migrate";
import { openDatabase } from "@/lib/db";

/** `npm run db:migrate`: applies pending migrations (idempotent). */
async function main() {
  const { url, dataDir } = appDatabaseConfig();
  if (dataDir) acquireEmbeddedLock(dataDir, null);
  const before = (await readMigrations()).length;
  const database = await openDatabase({ url, dataDir });
  const rows = await database.sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  await database.close();
  for (const name of database.migrated) console.log(`applied ${name}`);
  console.log(`${database.kind}: ${rows[0]?.n ?? 0} of ${before} migrations applied; the database is up to date.`);
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
