import path from "node:path";
import { runImport } from "@/lib/cli/import";
import { finish, runWhereTheDatabaseIs } from "@/lib/cli/remote";

/**
 * `npm run data:import -- <file.json|file.csv> [--dry-run]`
 *
 * Imports dilution data into the database the app uses (DATABASE_URL, else the
 * embedded PGlite in .data/pglite or PGLITE_DIR). All or nothing: on any bad
 * record it prints every one as `line N: field: reason`, writes nothing and
 * exits 1. Importing the same file again changes nothing. While `npm run dev`
 * holds the embedded database, the import runs inside it (as the CLI does).
 */
const USAGE = "usage: npm run data:import -- <file.json|file.csv> [--dry-run]";

const args = process.argv.slice(2);
const dryRun = args.includes("--dry-run");
const files = args.filter((a) => a !== "--dry-run");
const unknown = files.filter((a) => a.startsWith("-"));
if (files.length !== 1 || unknown.length > 0) {
  console.error(unknown.length ? `unknown option ${unknown.join(", ")}\n${USAGE}` : USAGE);
  process.exit(2);
}
const input = { fileName: path.basename(files[0]!), path: path.resolve(files[0]!), dryRun };
finish(
  runWhereTheDatabaseIs("/api/internal/import", input, (database) =>
    runImport(database.prisma, { ...input, database: database.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : "embedded PGlite" }),
  ),
);
