import pg from "pg";
import { defineConfig } from "vitest/config";

/**
 * Two projects:
 * - "pglite": every test; database tests use an in-memory PGlite.
 * - "postgres": the database tests (*.db.test.ts) again, against a real
 *   PostgreSQL server: TEST_DATABASE_URL, or the local server when reachable.
 *   Each test file gets a fresh database of its own.
 */
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
  return {
    ...shared,
    test: {
      testTimeout: 30_000,
      hookTimeout: 60_000,
      projects: [
        {
          ...shared,
          test: {
            ...timeouts,
            name: "pglite",
            include: ["**/*.test.ts"],
            exclude: ["node_modules/**", "e2e/**", ".next*/**"],
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
                  exclude: ["node_modules/**", "e2e/**", ".next*/**"],
                  env: { TEST_DB: "postgres", TEST_DATABASE_URL: postgresUrl },
                },
              },
            ]
          : []),
      ],
    },
  };
});
