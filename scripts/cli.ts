import { runCli, type CliResult } from "@/lib/cli";
import { getAppDatabase, appDatabaseConfig } from "@/lib/runtime/database";
import { EmbeddedDatabaseBusyError, readEmbeddedLock } from "@/lib/db/embedded-lock";

/**
 * `npm run cli -- <command>`. When the dev server holds the embedded database,
 * the command is handed to it (it runs the same code) instead of failing.
 */
async function forward(url: string, token: string, args: string[]): Promise<CliResult> {
  const response = await fetch(`${url}/api/internal/cli`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ args }),
  });
  if (!response.ok) throw new Error(`The running app refused the command (HTTP ${response.status}).`);
  return (await response.json()) as CliResult;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const { dataDir } = appDatabaseConfig();
  const owner = dataDir ? readEmbeddedLock(dataDir) : null;
  let result: CliResult;
  if (owner && owner.pid !== process.pid) {
    if (!owner.url) throw new EmbeddedDatabaseBusyError(owner, dataDir!);
    result = await forward(owner.url, owner.token, args);
  } else {
    const database = await getAppDatabase();
    try {
      result = await runCli(args, database.prisma);
    } finally {
      await database.close();
    }
  }
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  return result.exitCode;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  },
);
