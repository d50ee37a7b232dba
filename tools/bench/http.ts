import type { ResponseHeaders } from "autocannon";
import { Redis } from "ioredis";
import pg from "pg";
import { changeBalance } from "@/lib/billing/ledger";
import { SAMPLE_SHOWCASE } from "@/lib/data/sample";
import { createKey } from "@/lib/keys/manage";
import { formatDollars, parseDollars } from "@/lib/money";
import { createOrganization } from "@/lib/platform/organizations";
import type { Cleanup } from "./cleanup";
import { cpuShares, pidsNamed, sampleCpu, withDescendants, type CpuSample, type CpuShare, type ProcessGroup } from "./cpu";
import { isReachable, openBenchDatabase, postgresServerUrl, type BenchDatabase } from "./database";
import { fixed, percent, renderTable } from "./format";
import { responseHeader, runHttpLoad, type HttpLoadRun, type PlannedRequest } from "./http-load";
import { percentile } from "./load";
import type { Check } from "./scenarios";
import { buildApp, hasBuild, startServer, type ServerProcess } from "./server";

/**
 * `npm run bench -- --http`: the real app through HTTP (issue #14). A
 * production build served by scripts/server.mjs on a scratch PostgreSQL
 * database, loaded by autocannon, each scenario's throughput read against the
 * floor: a constant JSON route of the same build (app/bench/floor), the most
 * any route of this server can do on this machine. Paid requests are really
 * charged, and after each paid scenario every organization's books must
 * match the X-Cost-Dollars of its answers to the nano-dollar.
 */

// ─────────── targets (issue #14), as fractions of the floor's req/s ───────────

/** Paid ratings spread over many organizations: key, price, data queries and one short charge must leave 60 % of what the bare route does. */
const PAID_RATING_TO_FLOOR = 0.6;
/** A 100-offering page (~28 kB of JSON) may cost more in serialization: half the floor. */
const PAID_OFFERINGS_TO_FLOOR = 0.5;
/** 16 clients over 32 organizations barely contend: the slowest answers must stay interactive. */
const PAID_RATING_P99_MS_C16 = 60;
/** One organization's charges serialize on its balance row: half the floor, unless commits alone allow less (then 80 % of that bound). */
const HOT_ORG_TO_FLOOR = 0.5;
const HOT_ORG_TO_COMMIT_BOUND = 0.8;

// ─────────── the setup ───────────

const ORGANIZATIONS = 32;
const FUNDING = parseDollars("1000");
/** Every plan's per-minute limit in the scratch database: no request of the bench may be refused for speed. */
const UNLIMITED = 1_000_000_000;
/** Autocommit UPDATEs of one organization's row timed for the commit-latency bound. */
const COMMIT_SAMPLES = 200;
/** A Redis database of its own (not 0), flushed before and after. */
const DEFAULT_BENCH_REDIS_URL = "redis://127.0.0.1:6379/14";
/** How long the books may take to settle after the last answer, for writes a server makes after answering. */
const SETTLE_MS = 5_000;
const FLOOR_PATH = "/bench/floor";
const PRIMING_SECONDS = 5;
/** Filling the body cache: this many connections, given time for this many (uncached) ratings a second at the least. */
const CACHE_FILL_CONNECTIONS = 16;
const CACHE_FILL_PER_SECOND = 300;

export interface HttpBenchOptions {
  seconds: number;
  tickers: number;
  instances: "1" | "2" | "both";
  skipBuild: boolean;
  targets: boolean;
}

export interface CommitLatency {
  samples: number;
  meanMs: number;
  p99Ms: number;
  /** Requests per second one organization can be charged at most, when each charge holds its row until commit. */
  boundPerSecond: number;
}

export interface HttpRow {
  id: string;
  title: string;
  instances: number;
  connections: number;
  /** Answers in the measured run (after the warm-up). */
  answered: number;
  seconds: number;
  perSecond: number;
  /** Each server's share of perSecond, in order. */
  perInstance: number[];
  ratioToFloor: number;
  p50: number;
  p99: number;
  non2xx: number;
  cpu: CpuShare[];
  checks: Check[];
  targets: { text: string; pass: boolean }[];
}

export interface HttpBenchReport {
  database: string;
  redis: string | null;
  seconds: number;
  warmupSeconds: number;
  tickers: number;
  commitLatency: CommitLatency;
  rows: HttpRow[];
}

/** A bench organization and what the answers to its requests said it was charged. */
class Account {
  answers200 = 0;
  chargedNanos = 0n;
  otherAnswers = 0;
  /** X-Cost-Dollars of non-2xx answers: must stay 0. */
  chargedForOthersNanos = 0n;
  /** Answers whose X-Cost-Dollars was not one dollar amount (or, for a 200, missing), and the first of them. */
  unreadableCosts = 0;
  firstUnreadableCost?: string;

  constructor(
    readonly name: string,
    readonly id: string,
    readonly key: string,
  ) {}

  record(status: number, headers: ResponseHeaders) {
    const header = responseHeader(headers, "X-Cost-Dollars");
    let cost = 0n;
    const unreadable = (text: string) => {
      this.unreadableCosts++;
      this.firstUnreadableCost ??= `${text} (status ${status})`;
    };
    if (typeof header === "string") {
      try {
        cost = parseDollars(header);
      } catch {
        unreadable(JSON.stringify(header));
      }
    } else if (header !== undefined) {
      unreadable(JSON.stringify(header));
    } else if (status === 200) {
      unreadable("none");
    }
    if (status === 200) {
      this.answers200++;
      this.chargedNanos += cost;
    } else {
      this.otherAnswers++;
      this.chargedForOthersNanos += cost;
    }
  }
}

interface Scenario {
  id: string;
  title: string;
  connections: number;
  servers: ServerProcess[];
  requestsFor: (connection: number) => PlannedRequest[];
  /** The organizations it charges: their books are checked afterwards. */
  payers?: Account[];
}

export async function runHttpBench(options: HttpBenchOptions, cleanup: Cleanup, log: (line: string) => void): Promise<HttpBenchReport> {
  const postgres = postgresServerUrl();
  if (!(await isReachable(postgres.url))) throw new Error(`the HTTP bench needs PostgreSQL; none answers at ${redact(postgres.url)}`);

  if (options.skipBuild && hasBuild()) log("reusing the existing build (--skip-build)");
  else {
    log(options.skipBuild ? "no build to reuse: npm run build…" : "npm run build…");
    await buildApp(cleanup);
  }

  log(`postgres: creating, migrating and loading ${options.tickers} sample tickers…`);
  const db = await openBenchDatabase("postgres", { tickerCount: options.tickers });
  cleanup.add(() => db.close());
  const prisma = db.database.prisma;
  await prisma.plan.updateMany({ data: { requestsPerMinute: UNLIMITED } });
  const accounts: Account[] = [];
  for (let i = 1; i <= ORGANIZATIONS; i++) accounts.push(await openAccount(db, `Bench org ${i}`));
  const hot = await openAccount(db, "Bench hot org");
  const commitLatency = await measureCommitLatency(db.url!, hot.id);
  log(`commit latency: mean ${fixed(commitLatency.meanMs, 2)} ms → one organization's bound ${fixed(commitLatency.boundPerSecond, 0)}/s`);

  const redisUrl = await openScratchRedis(cleanup);
  log(redisUrl ? `redis: ${redisUrl} (flushed)` : "redis: not reachable, the servers count rate limits in PostgreSQL");
  const serverEnv = {
    DATABASE_URL: db.url!,
    REDIS_URL: redisUrl,
    NEXTAUTH_SECRET: "bench-only-secret-not-for-production-0123456789",
    BENCH_FLOOR: "1",
  };
  const run = new HttpBenchRun(db, { seconds: options.seconds, warmupSeconds: Math.min(2, options.seconds / 2) }, log);
  const tickers = db.tickers;
  const ratingPath = (step: number) => `/v1/dilution-rating?ticker=${tickers[step % tickers.length]}`;
  const offeringsPath = `/v1/offerings?ticker=${SAMPLE_SHOWCASE.manyOfferings}&limit=100`;
  const overOrgs = (step: number) => accounts[step % accounts.length]!;
  /** Long enough for every organization and every ticker to come round. */
  const steps = Math.ceil(tickers.length / ORGANIZATIONS) * ORGANIZATIONS;
  const ratingOverOrgs = sequence(steps, (step) => paid(overOrgs(step), ratingPath(step)));
  const primingMix = sequence(steps, (step) =>
    [free(FLOOR_PATH), free("/health"), paid(overOrgs(step), ratingPath(step)), paid(overOrgs(step), offeringsPath)][step % 4]!,
  );
  const start = async (name: string) => {
    const server = await startServer(serverEnv, cleanup);
    await expectFloor(server);
    const primed = await run.prime(server, primingMix);
    // Every ticker's rating once, so the measured runs see the steady state of a server that has served its working set
    // (the response bodies cached), with 240 tickers as with 10,000. The cold path is what priming and the first round measure.
    const fillConnections = Math.min(CACHE_FILL_CONNECTIONS, tickers.length);
    const filled = await run.prime(server, (connection) => tickers.flatMap((_, i) => (i % fillConnections === connection ? [paid(overOrgs(i), ratingPath(i))] : [])), {
      connections: fillConnections,
      seconds: Math.max(2, Math.ceil(tickers.length / CACHE_FILL_PER_SECOND)),
    });
    log(`${name} on :${server.port} (pid ${server.pid}), primed with ${primed} requests, then ${filled} ratings over every ticker`);
    return server;
  };

  const first = await start("server 1");
  const rows: HttpRow[] = [];
  const measure = async (scenario: Scenario) => {
    rows.push(await run.measure(scenario));
  };
  await measure({ id: "floor", title: `floor ${FLOOR_PATH}`, connections: 64, servers: [first], requestsFor: sequence(1, () => free(FLOOR_PATH)) });
  if (options.instances !== "2") {
    await measure({ id: "health", title: "/health", connections: 64, servers: [first], requestsFor: sequence(1, () => free("/health")) });
  }
  for (const connections of options.instances === "2" ? [64] : [16, 64]) {
    await measure({ id: "paid.rating.orgs", title: `paid rating, ${ORGANIZATIONS} orgs`, connections, servers: [first], requestsFor: ratingOverOrgs, payers: accounts });
  }
  if (options.instances !== "2") {
    await measure({
      id: "paid.rating.hot",
      title: "paid rating, 1 hot org",
      connections: 64,
      servers: [first],
      requestsFor: sequence(tickers.length, (step) => paid(hot, ratingPath(step))),
      payers: [hot],
    });
    await measure({
      id: "paid.offerings.orgs",
      title: `paid offerings ${SAMPLE_SHOWCASE.manyOfferings} ×100, ${ORGANIZATIONS} orgs`,
      connections: 16,
      servers: [first],
      requestsFor: sequence(ORGANIZATIONS, (step) => paid(overOrgs(step), offeringsPath)),
      payers: accounts,
    });
  }
  if (options.instances !== "1") {
    const second = await start("server 2");
    await measure({ id: "paid.rating.orgs", title: `paid rating, ${ORGANIZATIONS} orgs`, connections: 64, servers: [first, second], requestsFor: ratingOverOrgs, payers: accounts });
  }

  const floor = rows[0]!;
  for (const row of rows) row.ratioToFloor = row.perSecond / floor.perSecond;
  if (options.targets) judge(rows, { floorPerSecond: floor.perSecond, commitBoundPerSecond: commitLatency.boundPerSecond });
  return { database: db.label, redis: redisUrl ?? null, seconds: options.seconds, warmupSeconds: run.settings.warmupSeconds, tickers: tickers.length, commitLatency, rows };
}

/**
 * What connection c sends, round and round: `steps` consecutive steps when
 * they are few; otherwise its own stretch of MAX_STEPS_PER_CONNECTION of them
 * (connection c from step c × that), so the connections together still come
 * round every step while the load generator holds a bounded list per
 * connection. (Sixty-four lists of 10,000 planned requests each made the
 * generator itself the bottleneck, with seconds-long pauses.) With the
 * organization chosen by step, consecutive requests are for different
 * organizations.
 */
const MAX_STEPS_PER_CONNECTION = 512;

function sequence(steps: number, requestAt: (step: number) => PlannedRequest) {
  const length = Math.min(steps, MAX_STEPS_PER_CONNECTION);
  const stride = steps > MAX_STEPS_PER_CONNECTION ? MAX_STEPS_PER_CONNECTION : 1;
  return (connection: number): PlannedRequest[] => Array.from({ length }, (_, i) => requestAt(connection * stride + i));
}

const free = (path: string): PlannedRequest => ({ path });

function paid(account: Account, path: string): PlannedRequest {
  return { path, headers: { "API-KEY": account.key }, onAnswer: (status, headers) => account.record(status, headers) };
}

async function openAccount(db: BenchDatabase, name: string): Promise<Account> {
  const prisma = db.database.prisma;
  const org = await createOrganization(prisma, { name, plan: "retail" }, { actorLabel: "bench" });
  await changeBalance(prisma, { orgId: org.id, kind: "ADJUSTMENT", amountNanos: FUNDING, description: "bench funding" });
  const { key } = await createKey(prisma, { orgId: org.id, name: "bench" }, { actorLabel: "bench" });
  return new Account(name, org.id, key);
}

/** Sequential autocommit UPDATEs of one organization's row on one connection: each costs a commit (WAL flush) and nothing else. */
async function measureCommitLatency(databaseUrl: string, orgId: string): Promise<CommitLatency> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const update = () => client.query("UPDATE organizations SET balance_nanos = balance_nanos WHERE id = $1", [orgId]);
    for (let i = 0; i < 20; i++) await update();
    const latencies: number[] = [];
    for (let i = 0; i < COMMIT_SAMPLES; i++) {
      const started = performance.now();
      await update();
      latencies.push(performance.now() - started);
    }
    const meanMs = latencies.reduce((sum, ms) => sum + ms, 0) / latencies.length;
    return { samples: COMMIT_SAMPLES, meanMs, p99Ms: percentile([...latencies].sort((a, b) => a - b), 99), boundPerSecond: 1000 / meanMs };
  } finally {
    await client.end();
  }
}

/** The servers' Redis database, flushed now and when the bench ends; undefined when no Redis answers. */
async function openScratchRedis(cleanup: Cleanup): Promise<string | undefined> {
  const url = process.env.BENCH_REDIS_URL?.trim() || DEFAULT_BENCH_REDIS_URL;
  if (["", "/", "/0"].includes(new URL(url).pathname)) throw new Error(`BENCH_REDIS_URL must name a database other than 0 (the bench flushes it): ${url}`);
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 1500, maxRetriesPerRequest: 1, enableOfflineQueue: false, retryStrategy: () => null });
  redis.on("error", () => {});
  try {
    await redis.connect();
    await redis.flushdb();
  } catch {
    redis.disconnect();
    return undefined;
  }
  cleanup.add(async () => {
    await redis.flushdb().catch(() => {});
    redis.disconnect();
  });
  return url;
}

async function expectFloor(server: ServerProcess) {
  const response = await fetch(`${server.url}${FLOOR_PATH}`);
  const body = await response.text();
  if (response.status !== 200 || body !== '{"status":"ok"}') {
    throw new Error(`${FLOOR_PATH} answered ${response.status} ${body.slice(0, 200)}: is app/bench/floor/route.ts in the build? (run without --skip-build)`);
  }
}

const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");

// ─────────── measuring ───────────

class HttpBenchRun {
  constructor(
    readonly db: BenchDatabase,
    readonly settings: { seconds: number; warmupSeconds: number },
    readonly log: (line: string) => void,
  ) {}

  /**
   * A server's first seconds are slow (its code is compiled as it runs: the
   * floor doubles from the first 2 s to the third), so a new server serves a
   * mix of every route before anything is measured. Paid requests are
   * tallied like any other.
   */
  async prime(
    server: ServerProcess,
    requestsFor: (connection: number) => PlannedRequest[],
    load: { connections: number; seconds: number } = { connections: 32, seconds: PRIMING_SECONDS },
  ): Promise<number> {
    const run = await runHttpLoad({ urls: [server.url], ...load, requestsFor });
    const failed = [answeredCheck([run]), statusCheck([run])].filter((check) => !check.ok);
    if (failed.length) throw new Error(`priming the server on :${server.port}: ${failed.map((check) => `${check.name}: ${check.detail}`).join("; ")}`);
    return run.answered;
  }

  /** Warm-up, then the measured run with the CPU sampled around it, then the checks. */
  async measure(scenario: Scenario): Promise<HttpRow> {
    const load = { urls: scenario.servers.map((server) => server.url), connections: scenario.connections, requestsFor: scenario.requestsFor };
    const warmup = await runHttpLoad({ ...load, seconds: this.settings.warmupSeconds });
    const before = await this.sampleCpu(scenario.servers);
    const run = await runHttpLoad({ ...load, seconds: this.settings.seconds });
    const after = await this.sampleCpu(scenario.servers);

    const checks = [answeredCheck([warmup, run]), statusCheck([warmup, run])];
    if (scenario.payers) checks.push(...(await this.books(scenario.payers)));
    const sorted = [...run.latencies].sort((a, b) => a - b);
    const seconds = run.elapsedMs / 1000;
    const row: HttpRow = {
      id: scenario.id,
      title: scenario.title,
      instances: scenario.servers.length,
      connections: scenario.connections,
      answered: run.answered,
      seconds,
      perSecond: run.answered / seconds,
      perInstance: scenario.servers.map((server) => (run.answeredBy.get(server.url) ?? 0) / seconds),
      ratioToFloor: Number.NaN,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      non2xx: [...run.statuses].filter(([status]) => status < 200 || status > 299).reduce((sum, [, n]) => sum + n, 0),
      cpu: cpuShares(before, after),
      checks,
      targets: [],
    };
    const instances = row.instances > 1 ? ` ×${row.instances} instances` : "";
    this.log(`  ${row.title}${instances} c${row.connections}: ${fixed(row.perSecond, 0)}/s p50 ${fixed(row.p50, 1)} ms p99 ${fixed(row.p99, 1)} ms${checks.every((c) => c.ok) ? "" : " — CHECKS FAILED"}`);
    return row;
  }

  private async sampleCpu(servers: ServerProcess[]): Promise<CpuSample> {
    const backends = await this.db.database.sql.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database()");
    const benchBackends = new Set(backends.map((backend) => Number(backend.pid)));
    const groups: ProcessGroup[] = [
      ...servers.map((server, i) => ({ name: `server ${i + 1}`, pids: withDescendants(server.pid) })),
      { name: "postgres, bench db", pids: [...benchBackends] },
      { name: "postgres, other", pids: pidsNamed("postgres").filter((pid) => !benchBackends.has(pid)) },
      { name: "bench", pids: [process.pid] },
    ];
    return sampleCpu(groups);
  }

  /** The money checks, once the books have settled (or SETTLE_MS has passed). */
  private async books(accounts: Account[]): Promise<Check[]> {
    const deadline = Date.now() + SETTLE_MS;
    for (;;) {
      const checks = await this.readBooks(accounts);
      if (checks.every((check) => check.ok) || Date.now() > deadline) return checks;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private async readBooks(accounts: Account[]): Promise<Check[]> {
    const prisma = this.db.database.prisma;
    const orgId = { in: accounts.map((account) => account.id) };
    const [orgs, ledger, usageEntries, usage200, usageOther] = await Promise.all([
      prisma.organization.findMany({ where: { id: orgId }, select: { id: true, balanceNanos: true } }),
      prisma.creditLedgerEntry.groupBy({ by: ["orgId"], where: { orgId }, _sum: { amountNanos: true } }),
      prisma.creditLedgerEntry.groupBy({ by: ["orgId"], where: { orgId, kind: "USAGE" }, _count: { _all: true } }),
      prisma.usageEvent.groupBy({ by: ["orgId"], where: { orgId, statusCode: 200 }, _count: { _all: true }, _sum: { costNanos: true } }),
      prisma.usageEvent.groupBy({ by: ["orgId"], where: { orgId, statusCode: { not: 200 } }, _sum: { costNanos: true } }),
    ]);
    const books = accounts.map((account) => ({
      account,
      balance: orgs.find((o) => o.id === account.id)?.balanceNanos ?? 0n,
      ledgerSum: ledger.find((l) => l.orgId === account.id)?._sum.amountNanos ?? 0n,
      usageEntries: usageEntries.find((u) => u.orgId === account.id)?._count._all ?? 0,
      usageEvents: usage200.find((u) => u.orgId === account.id)?._count._all ?? 0,
      usageEventCosts: usage200.find((u) => u.orgId === account.id)?._sum.costNanos ?? 0n,
      otherEventCosts: usageOther.find((u) => u.orgId === account.id)?._sum.costNanos ?? 0n,
    }));
    type Book = (typeof books)[number];

    const answers200 = accounts.reduce((sum, a) => sum + a.answers200, 0);
    const charged = accounts.reduce((sum, a) => sum + a.chargedNanos, 0n);
    const orgCount = `${accounts.length} org${accounts.length === 1 ? "" : "s"}`;
    /** One check over every organization: the first few that are wrong are named. */
    const each = (name: string, whenRight: string, wrong: (book: Book) => string | false): Check => {
      const problems = books.map((book) => wrong(book)).filter((problem): problem is string => problem !== false);
      return {
        name,
        ok: problems.length === 0,
        detail: problems.length ? `${problems.length} of ${orgCount} wrong: ${problems.slice(0, 3).join("; ")}` : whenRight,
      };
    };
    const $ = (nanos: bigint) => formatDollars(nanos);
    return [
      each("sum(ledger) = balance", `${orgCount}`, (b) => b.ledgerSum !== b.balance && `${b.account.name}: ledger ${$(b.ledgerSum)}, balance ${$(b.balance)}`),
      each("balance = funded − Σ X-Cost-Dollars", `${orgCount}, charged ${$(charged)} since funding`, (b) => {
        const expected = FUNDING - b.account.chargedNanos;
        return b.balance !== expected && `${b.account.name}: balance ${$(b.balance)}, expected ${$(expected)}`;
      }),
      each("USAGE entries = 200 answers", `${answers200} of each since funding`, (b) => b.usageEntries !== b.account.answers200 && `${b.account.name}: ${b.usageEntries} entries, ${b.account.answers200} answers 200`),
      each("usage events (200) = 200 answers", `${answers200} of each since funding`, (b) => b.usageEvents !== b.account.answers200 && `${b.account.name}: ${b.usageEvents} events, ${b.account.answers200} answers 200`),
      each("usage events' costs = Σ X-Cost-Dollars", `${$(charged)}`, (b) => b.usageEventCosts !== b.account.chargedNanos && `${b.account.name}: events ${$(b.usageEventCosts)}, answers ${$(b.account.chargedNanos)}`),
      each("every 200 states its cost", `${answers200} answers`, (b) => b.account.unreadableCosts > 0 && `${b.account.name}: ${b.account.unreadableCosts}× X-Cost-Dollars like ${b.account.firstUnreadableCost}`),
      each("non-2xx cost $0", `${accounts.reduce((sum, a) => sum + a.otherAnswers, 0)} non-2xx`, (b) => (b.account.chargedForOthersNanos !== 0n || b.otherEventCosts !== 0n) && `${b.account.name}: answers ${$(b.account.chargedForOthersNanos)}, events ${$(b.otherEventCosts)}`),
    ];
  }
}

function answeredCheck(runs: HttpLoadRun[]): Check {
  const sent = runs.reduce((sum, run) => sum + run.sent, 0);
  const answered = runs.reduce((sum, run) => sum + run.answered, 0);
  const errors = runs.reduce((sum, run) => sum + run.errors, 0);
  return {
    name: "every request answered",
    ok: sent === answered && errors === 0,
    detail: `${answered} of ${sent} answered (warm-up included), ${errors} connection errors or timeouts`,
  };
}

function statusCheck(runs: HttpLoadRun[]): Check {
  const statuses = new Map<number, number>();
  for (const run of runs) for (const [status, n] of run.statuses) statuses.set(status, (statuses.get(status) ?? 0) + n);
  const other = [...statuses].filter(([status]) => status !== 200);
  const sample = runs.map((run) => run.firstUnexpected).find(Boolean);
  return {
    name: "every answer is 200",
    ok: other.length === 0,
    detail: other.length ? `also ${other.map(([s, n]) => `${n}× ${s}`).join(", ")}${sample ? `, e.g. ${sample}` : ""}` : `${statuses.get(200) ?? 0}× 200`,
  };
}

// ─────────── targets ───────────

interface Reference {
  floorPerSecond: number;
  commitBoundPerSecond: number;
}

interface Target {
  id: string;
  connections: number;
  text(reference: Reference): string;
  met(row: HttpRow, reference: Reference): boolean;
}

function hotOrgLimit(reference: Reference): { perSecond: number; text: string } {
  const byFloor = HOT_ORG_TO_FLOOR * reference.floorPerSecond;
  const byCommits = HOT_ORG_TO_COMMIT_BOUND * reference.commitBoundPerSecond;
  return reference.commitBoundPerSecond < byFloor
    ? { perSecond: byCommits, text: `≥ ${HOT_ORG_TO_COMMIT_BOUND * 100} % of commit bound (${fixed(byCommits, 0)}/s)` }
    : { perSecond: byFloor, text: `≥ ${HOT_ORG_TO_FLOOR}× floor` };
}

const TARGETS: Target[] = [
  { id: "paid.rating.orgs", connections: 16, text: () => `≥ ${PAID_RATING_TO_FLOOR}× floor`, met: (row, ref) => row.perSecond >= PAID_RATING_TO_FLOOR * ref.floorPerSecond },
  { id: "paid.rating.orgs", connections: 16, text: () => `p99 ≤ ${PAID_RATING_P99_MS_C16} ms`, met: (row) => row.p99 <= PAID_RATING_P99_MS_C16 },
  { id: "paid.rating.orgs", connections: 64, text: () => `≥ ${PAID_RATING_TO_FLOOR}× floor`, met: (row, ref) => row.perSecond >= PAID_RATING_TO_FLOOR * ref.floorPerSecond },
  { id: "paid.rating.hot", connections: 64, text: (ref) => hotOrgLimit(ref).text, met: (row, ref) => row.perSecond >= hotOrgLimit(ref).perSecond },
  { id: "paid.offerings.orgs", connections: 16, text: () => `≥ ${PAID_OFFERINGS_TO_FLOOR}× floor`, met: (row, ref) => row.perSecond >= PAID_OFFERINGS_TO_FLOOR * ref.floorPerSecond },
];

/** Targets are for one instance: the two-instance row is reported, not judged. */
function judge(rows: HttpRow[], reference: Reference) {
  for (const row of rows.filter((r) => r.instances === 1)) {
    row.targets = TARGETS.filter((t) => t.id === row.id && t.connections === row.connections).map((t) => ({ text: t.text(reference), pass: t.met(row, reference) }));
  }
}

// ─────────── the report ───────────

export function failedChecks(report: HttpBenchReport): string[] {
  return report.rows.flatMap((row) =>
    row.checks.filter((check) => !check.ok).map((check) => `${row.title} c${row.connections}${row.instances > 1 ? ` ×${row.instances}` : ""}: ${check.name}: ${check.detail}`),
  );
}

export function targetCounts(report: HttpBenchReport): { passed: number; failed: number } {
  const all = report.rows.flatMap((row) => row.targets);
  const failed = all.filter((target) => !target.pass).length;
  return { passed: all.length - failed, failed };
}

export function formatHttpReport(report: HttpBenchReport): string {
  const { rows, commitLatency } = report;
  const results = renderTable(
    ["scenario", "inst", "conn", "n", "req/s", "× floor", "p50 ms", "p99 ms", "non-2xx", "checks", "target", ""],
    rows.map((row) => [
      row.title,
      String(row.instances),
      String(row.connections),
      String(row.answered),
      fixed(row.perSecond, 0),
      fixed(row.ratioToFloor, 2),
      fixed(row.p50, 1),
      fixed(row.p99, 1),
      String(row.non2xx),
      row.checks.every((check) => check.ok) ? "ok" : "WRONG",
      row.targets.map((target) => target.text).join(", "),
      row.targets.length === 0 ? "" : row.targets.every((target) => target.pass) ? "PASS" : "FAIL",
    ]),
    new Set([1, 2, 3, 4, 5, 6, 7, 8]),
  );

  const lines = [
    results,
    "",
    `commit latency: mean ${fixed(commitLatency.meanMs, 2)} ms, p99 ${fixed(commitLatency.p99Ms, 2)} ms over ${commitLatency.samples} autocommit UPDATEs of one row`,
    `  → one organization can be charged at most ${fixed(commitLatency.boundPerSecond, 0)}/s when each charge holds its row until commit`,
  ];
  const two = rows.find((row) => row.instances === 2);
  const one = rows.find((row) => row.instances === 1 && row.id === two?.id && row.connections === two?.connections);
  if (two && one) {
    lines.push(
      `two instances, ${two.connections} connections: ${fixed(two.perSecond, 0)}/s combined (${two.perInstance.map((n) => fixed(n, 0)).join(" + ")}) ` +
        `vs ${fixed(one.perSecond, 0)}/s on one: ×${fixed(two.perSecond / one.perSecond, 2)}`,
    );
  }

  const groups = ["server 1", "server 2", "postgres, bench db", "postgres, other", "bench", "rest of the machine", "idle"];
  const shown = groups.filter((group) => rows.some((row) => row.cpu.some((share) => share.name === group)));
  if (shown.length) {
    lines.push(
      "",
      "CPU during each measured run, as a share of all the machine's cores:",
      "",
      renderTable(
        ["scenario", "inst", "conn", ...shown],
        rows.map((row) => [row.title, String(row.instances), String(row.connections), ...shown.map((group) => {
          const share = row.cpu.find((s) => s.name === group);
          return share ? percent(share.share) : "";
        })]),
        new Set(shown.map((_, i) => i + 3).concat([1, 2])),
      ),
    );
  }
  return lines.join("\n");
}
