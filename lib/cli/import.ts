import type { PrismaClient } from "@/lib/db";
import { formatImportReport, parseImportFile } from "@/lib/data/import";
import { importRecorded } from "@/lib/data/import/loads";
import type { CliResult } from "./index";

/**
 * `npm run data:import`: one file, all or nothing, as the CLI runs its
 * commands: in the script's own process, or inside the app server when the
 * server holds the embedded database (the file's text travels with the call).
 */
export async function runImport(db: PrismaClient, input: { fileName: string; text: string; dryRun: boolean; database: string }): Promise<CliResult> {
  const lines: string[] = [];
  try {
    const parsed = parseImportFile(input.fileName, input.text);
    const records = Object.values(parsed.input).reduce((n, rows) => n + (rows?.length ?? 0), 0);
    lines.push(`${input.fileName}: ${parsed.format.toUpperCase()}, ${records} record(s)${input.dryRun ? " (dry run)" : ""}`);
    lines.push(`database: ${input.database}`, "");
    // An applied or failed import is recorded in data_loads (the console's Data page); a dry run is not.
    const report = await importRecorded(db, parsed, { dryRun: input.dryRun, source: input.fileName, actor: { actorLabel: "cli" } });
    lines.push(formatImportReport(report));
    return { exitCode: report.ok ? 0 : 1, stdout: `${lines.join("\n")}\n`, stderr: "" };
  } catch (error) {
    return { exitCode: 1, stdout: lines.length ? `${lines.join("\n")}\n` : "", stderr: `${(error as Error).message}\n` };
  }
}
