import { ensureDefaultPlans } from "@/lib/billing/plans";
import { loadSampleData } from "@/lib/data/import";
import { DEFAULT_PGLITE_DIR, openDatabase, type Database } from "@/lib/db";
import { acquireEmbeddedLock, type EmbeddedLockInfo } from "@/lib/db/embedded-lock";

/**
 * The application's database, opened once per process: PostgreSQL when
 * DATABASE_URL is set, otherwise the embedded PGlite in .data/pglite (or
 * PGLITE_DIR). Opening migrates, creates the default plans and, on a fresh
 * embedded database (or with SEED_SAMPLE_DATA=1), loads the sample dataset.
 */
interface AppDatabaseState {
  promise?: Promise<Database>;
  lock?: EmbeddedLockInfo;
}

const state: AppDatabaseState = ((globalThis as { __appDatabase?: AppDatabaseState }).__appDatabase ??= {});

export function appDatabaseConfig() {
  const url = process.env.DATABASE_URL?.trim() || undefined;
  return { url, dataDir: url ? undefined : process.env.PGLITE_DIR?.trim() || DEFAULT_PGLITE_DIR };
}

export function getAppDatabase(): Promise<Database> {
  state.promise ??= openAppDatabase().catch((error) => {
    state.promise = undefined; // let the next caller try again (e.g. PostgreSQL came back)
    throw error;
  });
  return state.promise;
}

/** The lock of the embedded database this process holds, if any. */
export function embeddedLock(): EmbeddedLockInfo | undefined {
  return state.lock;
}

async function openAppDatabase(): Promise<Database> {
  const { url, dataDir } = appDatabaseConfig();
  if (dataDir && !state.lock) {
    const port = process.env.PORT;
    state.lock = acquireEmbeddedLock(dataDir, port ? `http://127.0.0.1:${port}` : null);
  }
  const database = await openDatabase({ url, dataDir });
  await ensureDefaultPlans(database.prisma);
  const seed = process.env.SEED_SAMPLE_DATA ? process.env.SEED_SAMPLE_DATA === "1" : database.kind === "pglite";
  // Once an operator removed the sample dataset (npm run data:remove-sample), it stays removed.
  if (seed && (await database.prisma.company.count()) === 0 && (await database.prisma.dataLoad.count({ where: { kind: "remove-sample" } })) === 0) {
    await loadSampleData(database.prisma, {});
  }
  return database;
}
