import path from "node:path";
import { isFilingCommand, runEdgarCommand, runFilingCommand } from "@/lib/cli/edgar";
import { finish, runWhereTheDatabaseIs } from "@/lib/cli/remote";

/**
 * `npm run data:edgar -- sync (--tickers TSLA,ABEO | --all) [--source <folder | URL>] [--since YYYY-MM-DD] [--dry-run] [--remove-sample] [--json]`
 * `npm run data:edgar -- inspect <file | [cik:]accession>… [--json]`, `… eval <ground truth> <filings>` (no database)
 *
 * Loads real data from SEC EDGAR into the database the app uses (see
 * lib/cli/edgar.ts for the options, docs/data.md "Load real data" for what it
 * costs). While `npm run dev` holds the embedded database, the sync runs
 * inside it (as the CLI does); a folder source is passed as an absolute path.
 */
const args = process.argv.slice(2).map((arg, i, all) => {
  const folder = all[i - 1] === "--source" && !/^https?:\/\//i.test(arg);
  if (folder) return path.resolve(arg);
  const inline = /^--source=(.+)$/.exec(arg);
  return inline && !/^https?:\/\//i.test(inline[1]!) ? `--source=${path.resolve(inline[1]!)}` : arg;
});
const env = {
  userAgent: process.env.EDGAR_USER_AGENT,
  dataBaseUrl: process.env.EDGAR_DATA_URL,
  wwwBaseUrl: process.env.EDGAR_WWW_URL,
};
finish(isFilingCommand(args) ? runFilingCommand(args, env) : runWhereTheDatabaseIs("/api/internal/edgar", { args, env }, (database) => runEdgarCommand(database.prisma, args, env)));
