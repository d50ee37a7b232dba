import { availableParallelism } from "node:os";
import pg from "pg";
import { defineConfig } from "vitest/config";

/**
 * Two projects:
 * - "postgres": the database tests (*.db.test.ts) against a real PostgreSQL
 *   server: TEST_DATABASE_URL, or the local server when reachable. Each test
 *   file gets a fresh database of its own.
 * - "pglite": every other test, and database tests on an in-memory PGlite.
 *   Without PostgreSQL that is every database test. With it, PGlite runs the
 *   ones below, which cover what differs on an embedded database (one
 *   connection, its SQL dialect, its migrations): money and concurrency, the
 *   API's queries, imports, the records and the ratings' raw SQL, the EDGAR
 *   sync, the schema. TEST_PGLITE_ALL=1 runs every database test on both.
 */
const PGLITE_WITH_POSTGRES = [
  "lib/api/api.db.test.ts",
  "lib/api/concurrency.db.test.ts",
  "lib/billing/ledger.db.test.ts",
  "lib/billing/webhook.db.test.ts",
  "lib/cli/cli.db.test.ts",
  "lib/data/import/import.db.test.ts",
  "lib/data/records/rating-inputs.db.test.ts",
  "lib/data/records/records.db.test.ts",
  "lib/data/edgar/sync.db.test.ts",
  "lib/platform/next-auth.db.test.ts",
  "tests/schema-drift.db.test.ts",
];
async function reachablePostgres(): Promise<string | undefined> {
  const candidate = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const client = new pg.Client({ connectionString: candidate, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return candidate;
  } catch (error) {
    if (process.env.TEST_DATABASE_URL) throw new Error(`TEST_DATABASE_URL is set but unreachable: ${(error as Error).message}`);
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
}

export default defineConfig(async () => {
  const postgresUrl = await reachablePostgres();
  if (!postgresUrl) console.warn("[vitest] no PostgreSQL reachable: database tests run on PGlite only");
  const shared = {
    resolve: { alias: { "@": import.meta.dirname } },
  };
  // Projects do not inherit the root's timeouts: each states them (a loaded 2-core machine opens PGlite slowly).
  const timeouts = { testTimeout: 30_000, hookTimeout: 60_000 };
  const everyDbTestOnPglite = !postgresUrl || process.env.TEST_PGLITE_ALL === "1";
  const excluded = ["node_modules/**", "e2e/**", ".next*/**"];
  return {
    ...shared,
    test: {
      testTimeout: 30_000,
      hookTimeout: 60_000,
      // The database tests mostly wait on a database: two workers keep both cores busy (the default leaves one idle
      // here); at most four, as each PostgreSQL test file opens a pool of 20 and the server allows 100 connections.
      maxWorkers: Math.min(4, Math.max(2, availableParallelism())),
      projects: [
        {
          ...shared,
          test: {
            ...timeouts,
            name: "pglite",
            include: everyDbTestOnPglite ? ["**/*.test.ts"] : ["**/!(*.db).test.ts", ...PGLITE_WITH_POSTGRES],
            exclude: excluded,
            env: { TEST_DB: "pglite" },
          },
        },
        ...(postgresUrl
          ? [
              {
                ...shared,
                test: {
                  ...timeouts,
                  name: "postgres",
                  include: ["**/*.db.test.ts"],
                  exclude: excluded,
                  env: { TEST_DB: "postgres", TEST_DATABASE_URL: postgresUrl },
                },
              },
            ]
          : []),
      ],
    },
  };
});
