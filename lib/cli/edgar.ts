import { z } from "zod";
import type { PrismaClient } from "@/lib/db";
import { IMPORT_KINDS, isImportDate, TICKER_PATTERN } from "@/lib/data/import/schema";
import { EdgarSyncError, reextractEdgar, removeSampleData, syncEdgar, syncTotals, type SyncReport } from "@/lib/data/edgar/sync";
import { EdgarConfigError, EdgarFetchError, openEdgarSource } from "@/lib/data/edgar/source";
import { archivePath, EdgarFormatError } from "@/lib/data/edgar/filings";
import { INSPECT_USAGE, runEval, runInspect, type FetchFiling } from "./edgar-inspect";
import { parseFlags, UsageError, type CliResult } from "./index";

/**
 * `npm run data:edgar -- sync …` and `npm run data:remove-sample`, as
 * functions of their arguments and a database, so they run the same from a
 * terminal, inside the dev server (when it holds the embedded database) and
 * in tests. The User-Agent travels with the arguments: the server process
 * may not have the operator's environment.
 */
export const EDGAR_USAGE = `usage: npm run data:edgar -- sync (--tickers TSLA,ABEO | --all) [--source <folder | base URL>] [--since YYYY-MM-DD] [--dry-run] [--remove-sample] [--json]

  --tickers        tickers to sync, comma-separated
  --all            every company SEC lists on Nasdaq, NYSE and NYSE American (company_tickers_exchange.json)
  --source         a folder in EDGAR's layout, or a base URL serving SEC's paths; default: SEC itself
                   (then EDGAR_USER_AGENT="Your Name you@example.com" is required, as SEC asks)
  --since          read filing documents (fee exhibits, prospectus and 8-K texts) filed on or after this day;
                   default: three years ago. The filing index and XBRL facts are always read whole.
  --dry-run        read and map everything, write nothing (the counts say what would change)
  --remove-sample  drop the sample dataset first (npm run data:remove-sample does only that)
  --json           print the report as JSON`;

export const REEXTRACT_USAGE = `usage: npm run data:edgar -- reextract [--tickers TSLA,ABEO] [--dry-run] [--json]

  Reads the prospectuses and registration statements the syncs stored again with this version's
  readers, and maps every EDGAR company again from its stored filing index and facts. No network.`;

const reextractArgs = z
  .object({ tickers: z.string().optional(), "dry-run": z.literal(true).optional(), json: z.literal(true).optional() })
  .strict();

async function runReextract(db: PrismaClient, rest: string[]): Promise<CliResult> {
  const parsed = reextractArgs.safeParse(parseFlags(rest));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(issue.code === "unrecognized_keys" ? `Unknown option --${issue.keys[0]}.\n\n${REEXTRACT_USAGE}` : `${issue.message}\n\n${REEXTRACT_USAGE}`);
  }
  const tickers = parsed.data.tickers?.split(",").map((t) => t.trim().toUpperCase()).filter(Boolean);
  const report = await reextractEdgar(db, { tickers, dryRun: parsed.data["dry-run"], actor: { actorLabel: "cli" } });
  if (parsed.data.json) return { exitCode: report.failed ? 1 : 0, stdout: `${JSON.stringify(report, null, 2)}\n`, stderr: "" };
  const lines = [`Re-read ${report.filingsRead} stored filing(s) for ${report.tickers.length} EDGAR compan${report.tickers.length === 1 ? "y" : "ies"} in ${(report.durationMs / 1000).toFixed(1)} s${parsed.data["dry-run"] ? " (dry run: nothing written)" : ""}.`];
  for (const t of report.tickers) lines.push(`  ${t.ticker.padEnd(8)}${t.status === "failed" ? `failed: ${t.error}` : t.status}`);
  lines.push(`${report.changed} record(s) changed; ${report.failed} failed.`);
  return { exitCode: report.failed ? 1 : 0, stdout: `${lines.join("\n")}\n`, stderr: "" };
}

export interface EdgarEnvironment {
  userAgent?: string;
  dataBaseUrl?: string;
  wwwBaseUrl?: string;
}

const syncArgs = z
  .object({
    tickers: z.string().optional(),
    all: z.literal(true).optional(),
    source: z.string().min(1, "--source needs a folder or a URL").optional(),
    since: z.string().refine(isImportDate, "--since must be a date YYYY-MM-DD").optional(),
    "dry-run": z.literal(true).optional(),
    "remove-sample": z.literal(true).optional(),
    json: z.literal(true).optional(),
  })
  .strict();

/** `inspect` and `eval` need no database: they run in the terminal's own process. */
export function isFilingCommand(args: string[]): boolean {
  return args[0] === "inspect" || args[0] === "eval";
}

const filingArgs = z
  .object({ json: z.literal(true).optional(), source: z.string().min(1, "--source needs a folder or a URL").optional() })
  .strict();

export async function runFilingCommand(args: string[], env: EdgarEnvironment): Promise<CliResult> {
  const [command, ...rest] = args;
  const positional = rest.filter((a, i) => !a.startsWith("--") && rest[i - 1] !== "--source");
  let flags;
  try {
    flags = parseFlags(rest.filter((a, i) => a.startsWith("--") || rest[i - 1] === "--source"));
  } catch (error) {
    if (error instanceof UsageError) return { exitCode: 2, stdout: "", stderr: `${error.message}\n\n${INSPECT_USAGE}\n` };
    throw error;
  }
  const parsed = filingArgs.safeParse(flags);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const message = issue.code === "unrecognized_keys" ? `Unknown option --${issue.keys[0]}.` : issue.message;
    return { exitCode: 2, stdout: "", stderr: `${message}\n\n${INSPECT_USAGE}\n` };
  }
  const json = parsed.data.json === true;
  if (command === "eval") return runEval(positional, { json });
  const fetchFiling: FetchFiling = async (cik, accession) => {
    const source = openEdgarSource({ source: parsed.data.source, userAgent: env.userAgent, dataBaseUrl: env.dataBaseUrl, wwwBaseUrl: env.wwwBaseUrl });
    try {
      const filePath = archivePath(String(cik), accession, `${accession}.txt`);
      const fetched = await source.get(filePath);
      if (fetched.status !== "ok") throw new Error(`${source.description} has no ${filePath}`);
      return { text: fetched.body.toString("utf8"), path: filePath };
    } finally {
      await source.close();
    }
  };
  return runInspect(positional, { json, fetchFiling });
}

export async function runEdgarCommand(db: PrismaClient, args: string[], env: EdgarEnvironment): Promise<CliResult> {
  try {
    const [command, ...rest] = args;
    if (command === "remove-sample") {
      if (rest.length) throw new UsageError("usage: npm run data:remove-sample");
      const removed = await removeSampleData(db, { actorLabel: "cli" });
      return { exitCode: 0, stdout: removed ? `Removed the sample dataset: ${removed} sample companies and their records.\n` : "No sample data here: nothing removed.\n", stderr: "" };
    }
    if (command === "reextract") return await runReextract(db, rest);
    if (command !== "sync") throw new UsageError(`${EDGAR_USAGE}\n\n${REEXTRACT_USAGE}\n\n${INSPECT_USAGE}`);
    const parsed = syncArgs.safeParse(parseFlags(rest));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new UsageError(issue.code === "unrecognized_keys" ? `Unknown option --${issue.keys[0]}.\n\n${EDGAR_USAGE}` : `${issue.message}\n\n${EDGAR_USAGE}`);
    }
    const flags = parsed.data;
    if (!flags.all === !flags.tickers) throw new UsageError(`Give --tickers or --all (one of them).\n\n${EDGAR_USAGE}`);
    const tickers = flags.tickers?.split(",").map((t) => t.trim().toUpperCase()).filter(Boolean);
    const bad = tickers?.find((t) => !TICKER_PATTERN.test(t));
    if (bad !== undefined || tickers?.length === 0) throw new UsageError(`--tickers: ${bad ? `"${bad}" is not a ticker` : "name at least one ticker"}.`);

    const source = openEdgarSource({ source: flags.source, userAgent: env.userAgent, dataBaseUrl: env.dataBaseUrl, wwwBaseUrl: env.wwwBaseUrl });
    try {
      const report = await syncEdgar(db, source, {
        tickers,
        all: flags.all,
        since: flags.since,
        dryRun: flags["dry-run"],
        removeSample: flags["remove-sample"],
        actor: { actorLabel: "cli" },
      });
      const failed = report.failed > 0;
      const stdout = flags.json ? `${JSON.stringify(report, null, 2)}\n` : formatSyncReport(report);
      return { exitCode: failed ? 1 : 0, stdout, stderr: "" };
    } finally {
      await source.close();
    }
  } catch (error) {
    if (error instanceof UsageError) return { exitCode: 2, stdout: "", stderr: `${error.message}\n` };
    if (error instanceof EdgarConfigError || error instanceof EdgarSyncError || error instanceof EdgarFetchError || error instanceof EdgarFormatError) {
      return { exitCode: 1, stdout: "", stderr: `${error.message}\n` };
    }
    throw error;
  }
}

const pad = (s: string | number, n: number) => String(s).padEnd(n);

/** The report a person reads: one line per ticker, totals by kind, the ratings, what it cost. */
export function formatSyncReport(report: SyncReport): string {
  const lines: string[] = [];
  lines.push(`EDGAR sync from ${report.source}${report.dryRun ? " (dry run: nothing written)" : ""}; documents of filings since ${report.since}`);
  if (report.removedSample) lines.push(`${report.dryRun ? "Would remove" : "Removed"} the sample dataset: ${report.removedSample} companies.`);
  lines.push("", `${pad("ticker", 8)}${pad("CIK", 12)}${pad("result", 14)}records`);
  for (const t of report.tickers) {
    const counts = Object.values(t.counts);
    const sum = (f: "created" | "updated" | "unchanged" | "removed") => counts.reduce((n, c) => n + (c[f] ?? 0), 0);
    const records =
      t.status === "failed"
        ? (t.error ?? "failed")
        : t.status === "not_modified"
          ? "no new filings or facts since the last sync"
          : `${sum("created")} created, ${sum("updated")} updated, ${sum("removed")} removed, ${sum("unchanged")} unchanged`;
    lines.push(`${pad(t.ticker, 8)}${pad(t.cik ?? "—", 12)}${pad(t.status.replace("_", " "), 14)}${records}`);
    for (const note of t.notes) lines.push(`${" ".repeat(34)}note: ${note}`);
  }
  const summed = syncTotals(report);
  const totals = IMPORT_KINDS.filter((kind) => summed[kind]);
  if (totals.length) {
    lines.push("", `${pad("kind", 26)}${pad("records", 10)}${pad("created", 10)}${pad("updated", 10)}removed`);
    for (const kind of totals) {
      const t = summed[kind]!;
      lines.push(`${pad(kind, 26)}${pad(t.received, 10)}${pad(t.created, 10)}${pad(t.updated, 10)}${t.removed ?? 0}`);
    }
  }
  const rated = report.tickers.filter((t) => t.rating);
  if (rated.length) {
    lines.push("", "Ratings computed from the synced facts:");
    for (const { ticker, rating } of rated) {
      lines.push(
        `  ${pad(ticker, 8)}overall ${rating!.overall_offering_risk}: offering ability ${rating!.offering_ability}, dilution ${rating!.dilution}, frequency ${rating!.offering_frequency}, cash need ${rating!.cash_need}, compliance ${rating!.nasdaq_compliance}`,
      );
    }
  }
  lines.push(
    "",
    `${report.changed} record(s) ${report.dryRun ? "would change" : "changed"}; ${report.failed} of ${report.tickers.length} ticker(s) failed; ${report.requests} request(s) in ${(report.durationMs / 1000).toFixed(1)} s.`,
  );
  return `${lines.join("\n")}\n`;
}
