import os from "node:os";
import path from "node:path";
import { Cleanup } from "@/tools/bench/cleanup";
import { isReachable, openBenchDatabase, postgresServerUrl, type BenchDatabase, type BenchDbKind } from "@/tools/bench/database";
import { fixed, pad, renderTable } from "@/tools/bench/format";
import { failedChecks, formatHttpReport, runHttpBench, targetCounts } from "@/tools/bench/http";
import type { LoadSummary } from "@/tools/bench/load";
import { formatExtractReport, runExtractBench } from "@/tools/bench/extract";
import { BenchRun, type ScenarioResult } from "@/tools/bench/scenarios";

/**
 * `npm run bench [-- --db pglite|postgres|both] [--seconds N] [--tickers N] [--json] [--no-targets]`
 *
 * The speed targets of the API, measured in-process through handleApiRequest
 * (no HTTP) on a fresh database: PostgreSQL (a scratch database, dropped
 * afterwards) and/or in-memory PGlite. Money is checked after every paid
 * scenario; a wrong cent fails the run even with --no-targets.
 *
 * `npm run bench -- --http [--instances 1|2|both] [--skip-build] …`: the real
 * app through HTTP instead (tools/bench/http.ts), against the floor route of
 * the same build, on one and on two server processes.
 *
 * `npm run bench -- --extract [--filings <folder>] [--seconds N]`: the SEC
 * filing readers' speed in MB/s on one core (tools/bench/extract.ts), over
 * the recorded filings of ../shared/fixtures/edgar by default.
 */

// ─────────── Targets, set from runs on a 2-core machine (docs/benchmarks.md) ───────────

/** A paid one-ticker rating is a handful of queries plus one short transaction: a single client should see it well under 20 ms. */
const PAID_RATING_P95_MS_SEQUENTIAL = 20;
/** 16 clients of one organization queue on its balance row and rate counter; p95 must stay interactive. */
const PAID_RATING_P95_MS_C16_POSTGRES = 150;
/** PGlite runs one query at a time in-process, so 16 clients wait in line for it. */
const PAID_RATING_P95_MS_C16_PGLITE = 400;
/** One server process of the app must sustain this many paid rating requests per second on PostgreSQL. */
const PAID_RATING_RPS_C16_POSTGRES = 150;
/** A full page of 100 offerings (~40 kB) costs more JSON work than a rating, but no more round trips. */
const PAID_OFFERINGS_P95_MS_C16_POSTGRES = 200;
/** /health is one SELECT 1: anything slower means the pool or the event loop is stuck. */
const HEALTH_P95_MS_C16 = 25;
/** A refusal must not be dearer than the paid request it refuses. */
const REFUSED_P95_MS_C16_POSTGRES = 150;
/** Stripe retries after 10 s without an answer; a top-up's processing must be a small fraction of that, even 16 at once. */
const WEBHOOK_P99_MS_C16 = 1_000;
/** Webhooks arrive a few per minute; 50/s per process is headroom of several orders of magnitude. */
const WEBHOOK_EVENTS_PER_SECOND_C16_POSTGRES = 50;

interface Target {
  db: BenchDbKind | "any";
  scenario: string;
  concurrency: number;
  metric: "p95" | "p99" | "perSecond";
  limit: number;
}

const TARGETS: Target[] = [
  { db: "any", scenario: "paid.rating", concurrency: 1, metric: "p95", limit: PAID_RATING_P95_MS_SEQUENTIAL },
  { db: "postgres", scenario: "paid.rating", concurrency: 16, metric: "p95", limit: PAID_RATING_P95_MS_C16_POSTGRES },
  { db: "pglite", scenario: "paid.rating", concurrency: 16, metric: "p95", limit: PAID_RATING_P95_MS_C16_PGLITE },
  { db: "postgres", scenario: "paid.rating", concurrency: 16, metric: "perSecond", limit: PAID_RATING_RPS_C16_POSTGRES },
  { db: "postgres", scenario: "paid.offerings", concurrency: 16, metric: "p95", limit: PAID_OFFERINGS_P95_MS_C16_POSTGRES },
  { db: "any", scenario: "free.health", concurrency: 16, metric: "p95", limit: HEALTH_P95_MS_C16 },
  { db: "postgres", scenario: "refused", concurrency: 16, metric: "p95", limit: REFUSED_P95_MS_C16_POSTGRES },
  { db: "any", scenario: "webhook", concurrency: 16, metric: "p99", limit: WEBHOOK_P99_MS_C16 },
  { db: "postgres", scenario: "webhook", concurrency: 16, metric: "perSecond", limit: WEBHOOK_EVENTS_PER_SECOND_C16_POSTGRES },
];

// ─────────── options ───────────

interface Options {
  db?: "pglite" | "postgres" | "both";
  seconds: number;
  tickers: number;
  json: boolean;
  targets: boolean;
  http: boolean;
  instances: "1" | "2" | "both";
  skipBuild: boolean;
  extract: boolean;
  filings: string[];
}

const USAGE = [
  "usage: npm run bench -- [--db pglite|postgres|both] [--seconds N] [--tickers N] [--json] [--no-targets]",
  "       npm run bench -- --http [--instances 1|2|both] [--skip-build] [--seconds N] [--tickers N] [--json] [--no-targets]",
  "       npm run bench -- --extract [--filings <folder in EDGAR's layout>]… [--seconds N] [--json]",
].join("\n");

function parseOptions(argv: string[]): Options {
  const options: Options = { seconds: 5, tickers: 240, json: false, targets: true, http: false, instances: "both", skipBuild: false, extract: false, filings: [] };
  const number = (flag: string, value: string | undefined, min: number) => {
    const n = Number(value);
    if (value === undefined || !Number.isFinite(n) || n < min) throw new Error(`${flag} needs a number ≥ ${min}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case "--db": {
        const db = value();
        if (db !== "pglite" && db !== "postgres" && db !== "both") throw new Error("--db is pglite, postgres or both");
        options.db = db;
        break;
      }
      case "--seconds":
        options.seconds = number(flag, value(), 0.5);
        break;
      case "--tickers":
        options.tickers = Math.floor(number(flag, value(), 10));
        break;
      case "--json":
        options.json = true;
        break;
      case "--no-targets":
        options.targets = false;
        break;
      case "--http":
        options.http = true;
        break;
      case "--instances": {
        const instances = value();
        if (instances !== "1" && instances !== "2" && instances !== "both") throw new Error("--instances is 1, 2 or both");
        options.instances = instances;
        break;
      }
      case "--extract":
        options.extract = true;
        break;
      case "--filings": {
        const folder = value();
        if (!folder) throw new Error("--filings needs a folder");
        options.filings.push(path.resolve(folder));
        break;
      }
      case "--skip-build":
        options.skipBuild = true;
        break;
      case "--help":
      case "-h":
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${arg}`);
    }
  }
  if (options.extract && (options.http || options.db)) throw new Error("--extract measures the filing readers alone: leave out --http and --db");
  if (options.http && options.db) throw new Error("--http runs on PostgreSQL only: leave out --db");
  if (!options.http && (options.skipBuild || argv.some((arg) => arg.startsWith("--instances")))) throw new Error("--instances and --skip-build go with --http");
  return options;
}

/** Which databases to run on: as asked, or both when a PostgreSQL server answers. */
async function chooseDatabases(asked: Options["db"]): Promise<BenchDbKind[]> {
  const server = postgresServerUrl();
  if (asked === "pglite") return ["pglite"];
  const reachable = await isReachable(server.url);
  if (!reachable) {
    if (asked || server.explicit) throw new Error(`PostgreSQL at ${redact(server.url)} is not reachable`);
    log(`no PostgreSQL at ${redact(server.url)}: PGlite only`);
    return ["pglite"];
  }
  return asked === "postgres" ? ["postgres"] : ["postgres", "pglite"];
}

const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
const log = (line: string) => process.stderr.write(`${line}\n`);

// ─────────── running ───────────

interface Row extends ScenarioResult {
  db: string;
  kind: BenchDbKind;
  target?: Target & { pass: boolean; value: number };
}

const open = new Set<BenchDatabase>();

async function runOn(kind: BenchDbKind, options: Options): Promise<Row[]> {
  log(`${kind}: creating, migrating and loading ${options.tickers} sample tickers…`);
  const db = await openBenchDatabase(kind, { tickerCount: options.tickers });
  open.add(db);
  try {
    const run = new BenchRun(db, { seconds: options.seconds, warmupSeconds: Math.min(1, options.seconds / 2) });
    await run.prepare();
    const steps: (() => Promise<ScenarioResult>)[] = [
      ...[1, 16, 64].map((c) => () => run.paid("rating", c)),
      ...[1, 16, 64].map((c) => () => run.paid("offerings", c)),
      ...[1, 16].map((c) => () => run.free("health", c)),
      ...[1, 16].map((c) => () => run.free("estimate", c)),
      ...[1, 16].map((c) => () => run.refused(c)),
      ...[1, 16].map((c) => () => run.webhook(c)),
    ];
    const rows: Row[] = [];
    for (const step of steps) {
      const result = await step();
      const row: Row = { ...result, db: db.label, kind, target: options.targets ? judge(kind, result) : undefined };
      log(`  ${pad(result.title, 40)} c${pad(String(result.concurrency), 3)} ${fixed(result.summary.perSecond, 0)}/s p95 ${fixed(result.summary.p95, 1)} ms`);
      rows.push(row);
    }
    return rows;
  } finally {
    await db.close();
    open.delete(db);
  }
}

function judge(kind: BenchDbKind, result: ScenarioResult): Row["target"] {
  const target = TARGETS.find(
    (t) => (t.db === "any" || t.db === kind) && t.scenario === result.id && t.concurrency === result.concurrency,
  );
  if (!target) return undefined;
  const value = result.summary[target.metric];
  const pass = target.metric === "perSecond" ? value >= target.limit : value <= target.limit;
  return { ...target, value, pass };
}

// ─────────── output ───────────

const size = (bytes?: number) => (bytes === undefined ? "" : bytes >= 1000 ? `${(bytes / 1000).toFixed(1)}k` : String(Math.round(bytes)));
const targetText = (t: Target) => (t.metric === "perSecond" ? `≥ ${t.limit}/s` : `${t.metric} ≤ ${t.limit} ms`);

function table(rows: Row[]): string {
  const header = ["db", "scenario", "conc", "n", "req/s", "p50 ms", "p95 ms", "p99 ms", "bytes", "money", "target", ""];
  const right = new Set([2, 3, 4, 5, 6, 7, 8]);
  const cells = rows.map((row) => {
    const s: LoadSummary = row.summary;
    return [
      row.db,
      row.title,
      String(row.concurrency),
      String(s.operations),
      fixed(s.perSecond, 0),
      fixed(s.p50, 1),
      fixed(s.p95, 1),
      fixed(s.p99, 1),
      size(row.meanBytes),
      row.checks.every((c) => c.ok) ? "ok" : "WRONG",
      row.target ? targetText(row.target) : "",
      row.target ? (row.target.pass ? "PASS" : "FAIL") : "",
    ];
  });
  return renderTable(header, cells, right);
}

const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}`;

async function main() {
  const options = parseOptions(process.argv.slice(2));
  if (options.extract) {
    const folders = options.filings.length ? options.filings : [path.resolve("../shared/fixtures/edgar"), path.resolve("fixtures/edgar")];
    const report = runExtractBench(folders, options.seconds);
    console.log(options.json ? JSON.stringify({ machine, ...report }, null, 2) : `${machine}\n${formatExtractReport(report)}`);
    if (options.targets && !report.pass) process.exitCode = 1;
    return;
  }
  log(`bench${options.http ? " --http" : ""}: ${machine}; ${options.seconds} s per scenario after a warm-up, ${options.tickers} tickers`);
  if (options.http) return mainHttp(options);
  const kinds = await chooseDatabases(options.db);

  const rows: Row[] = [];
  for (const kind of kinds) rows.push(...(await runOn(kind, options)));

  const wrong = rows.flatMap((row) => row.checks.filter((c) => !c.ok).map((c) => `${row.db} · ${row.title} c${row.concurrency}: ${c.name}: ${c.detail}`));
  const failed = rows.filter((row) => row.target && !row.target.pass);

  if (options.json) {
    console.log(JSON.stringify({ machine, options, ok: wrong.length === 0 && failed.length === 0, results: rows }, null, 2));
  } else {
    console.log(`\n${machine}; ${options.seconds} s per scenario; latencies in ms; n = measured requests (after warm-up)\n`);
    console.log(table(rows));
    if (options.targets) console.log(`\ntargets: ${rows.filter((r) => r.target).length - failed.length} passed, ${failed.length} failed`);
  }
  if (wrong.length) {
    console.error(`\nMONEY / CORRECTNESS CHECKS FAILED (${wrong.length}):\n${wrong.map((w) => `  ✗ ${w}`).join("\n")}`);
    process.exitCode = 2;
  } else if (failed.length) {
    process.exitCode = 1;
  }
}

/** What the HTTP bench starts (build, servers, scratch database, Redis database), undone at its end or on SIGINT. */
const httpCleanup = new Cleanup();

async function mainHttp(options: Options) {
  try {
    const report = await runHttpBench(options, httpCleanup, log);
    const wrong = failedChecks(report);
    const targets = targetCounts(report);
    if (options.json) {
      console.log(JSON.stringify({ machine, options, ok: wrong.length === 0 && targets.failed === 0, ...report }, null, 2));
    } else {
      console.log(
        `\n${machine}; ${report.database}; Redis ${report.redis ?? "none"}; ${report.seconds} s per scenario after ${report.warmupSeconds} s of warm-up; ` +
          `latencies in ms; n = answers in the measured run; × floor = req/s ÷ the floor route's req/s\n`,
      );
      console.log(formatHttpReport(report));
      if (options.targets) console.log(`\ntargets: ${targets.passed} passed, ${targets.failed} failed`);
    }
    if (wrong.length) {
      console.error(`\nMONEY / CORRECTNESS CHECKS FAILED (${wrong.length}):\n${wrong.map((w) => `  ✗ ${w}`).join("\n")}`);
      process.exitCode = 2;
    } else if (targets.failed) {
      process.exitCode = 1;
    }
  } finally {
    log("stopping the servers, dropping the scratch database…");
    await httpCleanup.run();
  }
}

async function cleanUp() {
  await Promise.all([...open].map((db) => db.close().catch(() => {})));
  await httpCleanup.run();
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    log("interrupted: stopping what the bench started, dropping the scratch database…");
    void cleanUp().finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  });
}

main()
  .catch(async (error: Error) => {
    await cleanUp();
    console.error(`bench: ${error.message}`);
    if (!(error.message.startsWith("unknown option") || error.message.startsWith("--"))) console.error(error.stack);
    else console.error(USAGE);
    process.exitCode = 3;
  })
  .finally(() => {
    // Prisma and pg pools may keep the loop alive briefly; the result is already out.
    setTimeout(() => process.exit(), 100).unref();
  });
