import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { inspectFiling, cikFromPath } from "@/lib/data/edgar/documents/inspect";
import { readSubmission } from "@/lib/data/edgar/documents/submission";

/**
 * `npm run bench -- --extract`: how fast the filing readers read, in MB of
 * filing text per second on one core (Node runs them on one thread), over
 * every full submission (`.txt`) under a folder in EDGAR's layout. Each pass
 * reads every filing from its text: split, parse every text document's HTML,
 * read the offering terms and the fee table.
 */
export const EXTRACT_MB_PER_SECOND_TARGET = 10;

export interface ExtractReport {
  folder: string;
  filings: number;
  megabytes: number;
  passes: number;
  seconds: number;
  mbPerSecond: number;
  peakRssMb: number;
  pass: boolean;
}

function submissions(folder: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/^\d{10}-\d{2}-\d{6}\.txt$/.test(entry.name)) found.push(full);
    }
  };
  walk(folder);
  return found.sort();
}

export function runExtractBench(folder: string, seconds: number): ExtractReport {
  const files = submissions(folder).map((file) => ({ file, text: readFileSync(file, "utf8") }));
  if (files.length === 0) throw new Error(`no EDGAR submissions (<accession>.txt) under ${folder}`);
  const bytes = files.reduce((n, f) => n + Buffer.byteLength(f.text), 0);
  const readAll = () => {
    for (const { file, text } of files) {
      const filing = readSubmission(text);
      for (const document of filing.documents) document.blocks();
      inspectFiling(filing, { directoryCik: cikFromPath(file) });
    }
  };
  readAll(); // warm-up: the JIT, not the measurement
  let passes = 0;
  const started = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < seconds || passes === 0) {
    readAll();
    passes++;
    elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  }
  const megabytes = bytes / 1e6;
  const mbPerSecond = (megabytes * passes) / elapsed;
  return {
    folder,
    filings: files.length,
    megabytes,
    passes,
    seconds: elapsed,
    mbPerSecond,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    pass: mbPerSecond >= EXTRACT_MB_PER_SECOND_TARGET,
  };
}

export function formatExtractReport(r: ExtractReport): string {
  return [
    `extract: ${r.filings} filings, ${r.megabytes.toFixed(1)} MB, ${r.passes} passes in ${r.seconds.toFixed(1)} s (${r.folder})`,
    `  ${r.mbPerSecond.toFixed(1)} MB/s on one core (target ≥ ${EXTRACT_MB_PER_SECOND_TARGET} MB/s: ${r.pass ? "PASS" : "FAIL"}); peak RSS ${r.peakRssMb.toFixed(0)} MB`,
  ].join("\n");
}
