import type { Database } from "@/lib/db";
import { EmbeddedDatabaseBusyError, readEmbeddedLock } from "@/lib/db/embedded-lock";
import { appDatabaseConfig, getAppDatabase } from "@/lib/runtime/database";
import type { CliResult } from "./index";

/**
 * Runs an operator command where the database is: in this process, or, when
 * an app server holds the embedded database (PGlite is one process's), inside
 * that server through its internal route (lib/cli/internal.ts), which runs
 * the same code and answers the same result.
 */
export async function runWhereTheDatabaseIs(route: string, body: unknown, local: (database: Database) => Promise<CliResult>): Promise<CliResult> {
  const { dataDir } = appDatabaseConfig();
  const owner = dataDir ? readEmbeddedLock(dataDir) : null;
  if (owner && owner.pid !== process.pid) {
    if (!owner.url) throw new EmbeddedDatabaseBusyError(owner, dataDir!);
    const response = await fetch(`${owner.url}${route}`, {
      method: "POST",
      headers: { authorization: `Bearer ${owner.token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`The running app refused the command (HTTP ${response.status}).`);
    return (await response.json()) as CliResult;
  }
  const database = await getAppDatabase();
  try {
    return await local(database);
  } finally {
    await database.close();
  }
}

/** A script's end: the command's output, and its exit code as the process's. */
export function finish(result: Promise<CliResult>): void {
  result.then(
    ({ exitCode, stdout, stderr }) => {
      process.stdout.write(stdout);
      process.stderr.write(stderr);
      process.exit(exitCode);
    },
    (error: Error) => {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    },
  );
}
