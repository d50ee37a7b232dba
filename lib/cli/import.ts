import { stat } from "node:fs/promises";
import type { PrismaClient } from "@/lib/db";
import { fileBytes, formatImportReport, MAX_IMPORT_BYTES, openImportFile } from "@/lib/data/import";
import { importRecorded } from "@/lib/data/import/loads";
import type { CliResult } from "./index";

/**
 * `npm run data:import`: one file, all or nothing, as the CLI runs its
 * commands: in the script's own process, or inside the app server when the
 * server holds the embedded database (the file's path travels with the call:
 * the server runs on the same machine, and reads the file as a stream).
 */
export async function runImport(db: PrismaClient, input: { fileName: string; path: string; dryRun: boolean; database: string }): Promise<CliResult> {
  const lines: string[] = [];
  try {
    const size = (await stat(input.path)).size;
    if (size > MAX_IMPORT_BYTES) {
      return { exitCode: 1, stdout: "", stderr: `${input.fileName} is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB, the most one import takes: split it into several files.\n` };
    }
    const file = await openImportFile(input.fileName, fileBytes(input.path));
    lines.push(`${input.fileName}: ${file.format.toUpperCase()}, ${size.toLocaleString("en-US")} bytes${input.dryRun ? " (dry run)" : ""}`);
    lines.push(`database: ${input.database}`, "");
    // An applied or failed import is recorded in data_loads (the console's Data page); a dry run is not.
    const report = await importRecorded(db, file, { dryRun: input.dryRun, source: input.fileName, actor: { actorLabel: "cli" } });
    lines.push(formatImportReport(report));
    return { exitCode: report.ok ? 0 : 1, stdout: `${lines.join("\n")}\n`, stderr: "" };
  } catch (error) {
    return { exitCode: 1, stdout: lines.length ? `${lines.join("\n")}\n` : "", stderr: `${(error as Error).message}\n` };
  }
}
