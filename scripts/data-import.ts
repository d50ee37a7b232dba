import { readFile } from "node:fs/promises";
import path from "node:path";
import { openDatabase } from "@/lib/db";
import { appDatabaseConfig } from "@/lib/runtime/database";
import { acquireEmbeddedLock } from "@/lib/db/embedded-lock";
import { formatImportReport, importDataset, parseImportFile } from "@/lib/data/import";

/**
 * `npx tsx scripts/data-import.ts <file.json|file.csv> [--dry-run]`
 *
 * Imports dilution data into the database the app uses (DATABASE_URL, else the
 * embedded PGlite in .data/pglite or PGLITE_DIR). All or nothing: on any bad
 * record it prints every one as `line N: field: reason`, writes nothing and
 * exits 1. Importing the same file again changes nothing.
 */
const USAGE = "usage: npx tsx scripts/data-import.ts <file.json|file.csv> [--dry-run]";

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const dryRun = args.includes("--dry-run");
  const files = args.filter((a) => a !== "--dry-run");
  const unknown = files.filter((a) => a.startsWith("-"));
  if (files.length !== 1 || unknown.length > 0) {
    console.error(unknown.length ? `unknown option ${unknown.join(", ")}\n${USAGE}` : USAGE);
    return 2;
  }
  const file = files[0]!;
  const text = await readFile(file, "utf8");
  const parsed = parseImportFile(path.basename(file), text);
  const records = Object.values(parsed.input).reduce((n, rows) => n + (rows?.length ?? 0), 0);
  console.log(`${file}: ${parsed.format.toUpperCase()}, ${records} record(s)${dryRun ? " (dry run)" : ""}`);

  const { url, dataDir } = appDatabaseConfig();
  if (dataDir) acquireEmbeddedLock(dataDir, null);
  const database = await openDatabase({ url, dataDir });
  try {
    console.log(`database: ${database.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `embedded PGlite (${dataDir})`}\n`);
    const report = await importDataset(database.prisma, parsed, { dryRun });
    console.log(formatImportReport(report));
    return report.ok ? 0 : 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
