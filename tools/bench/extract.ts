import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { inspectAny } from "@/lib/data/edgar/documents/inspect";
import { readSubmission } from "@/lib/data/edgar/documents/submission";

/**
 * `npm run bench -- --extract`: how fast the filing readers read, in MB of
 * filing text per second on one core (Node runs them on one thread), over
 * every full submission (`.txt`) and primary document (`.htm`) under folders
 * in EDGAR's layout. Each pass reads every filing from its text: split,
 * parse every text document's HTML and inline XBRL, and read what its kind
 * states (offering terms and fee table, a periodic report's fields with its
 * tagged facts, an 8-K's items).
 */
export const EXTRACT_MB_PER_SECOND_TARGET = 20;

export interface ExtractReport {
  folders: string[];
  /** how many of the filings are full submissions and how many primary documents */
  submissions: number;
  documents: number;
  filings: number;
  megabytes: number;
  passes: number;
  seconds: number;
  mbPerSecond: number;
  peakRssMb: number;
  pass: boolean;
}

/** Full submissions (`<accession>.txt`) and primary documents (`.htm`) under a folder in EDGAR's layout. */
function filingFiles(folder: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/^\d{10}-\d{2}-\d{6}\.txt$/.test(entry.name) || (/\.html?$/i.test(entry.name) && /\/Archives\/edgar\/data\/\d+\/\d{18}\//.test(full))) found.push(full);
    }
  };
  walk(folder);
  return found.sort();
}

export function runExtractBench(folders: string[], seconds: number): ExtractReport {
  const files = folders.flatMap(filingFiles).map((file) => ({ file, text: readFileSync(file, "utf8") }));
  if (files.length === 0) throw new Error(`no EDGAR submissions (<accession>.txt) or primary documents under ${folders.join(", ")}`);
  const bytes = files.reduce((n, f) => n + Buffer.byteLength(f.text), 0);
  const readAll = () => {
    for (const { file, text } of files) {
      const filing = readSubmission(text);
      for (const document of filing.documents) document.blocks();
      inspectAny(filing, { path: file });
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
  const submissionCount = files.filter((f) => f.file.endsWith(".txt")).length;
  return {
    folders,
    submissions: submissionCount,
    documents: files.length - submissionCount,
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
    `extract: ${r.filings} filings (${r.submissions} full submissions, ${r.documents} primary documents), ${r.megabytes.toFixed(1)} MB, ${r.passes} passes in ${r.seconds.toFixed(1)} s (${r.folders.join(", ")})`,
    `  ${r.mbPerSecond.toFixed(1)} MB/s on one core (target ≥ ${EXTRACT_MB_PER_SECOND_TARGET} MB/s: ${r.pass ? "PASS" : "FAIL"}); peak RSS ${r.peakRssMb.toFixed(0)} MB`,
  ].join("\n");
}
