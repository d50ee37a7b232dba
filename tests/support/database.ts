import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type Database } from "@/lib/db";

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or (in the
 * "postgres" vitest project) a new database on the real server, dropped after.
 */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.TEST_DB !== "postgres") return openDatabase({ dataDir: "memory://" });

  const serverUrl = process.env.TEST_DATABASE_URL!;
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();

  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 20 });
  return {
    ...database,
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await dropper.end();
    },
  };
}

export const isPostgres = () => process.env.TEST_DB === "postgres";
