import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiContext, type ApiContext } from "@/lib/api/context";
import { handleApiRequest } from "@/lib/api/handler";
import { KeyCache } from "@/lib/api/key-cache";
import { changeBalance, ledgerTotals } from "@/lib/billing/ledger";
import { ensureDefaultPlans } from "@/lib/billing/plans";
import { loadSampleData } from "@/lib/data/import";
import { openDatabase, type Database } from "@/lib/db";
import { createKey } from "@/lib/keys/manage";
import { parseDollars } from "@/lib/money";
import { createOrganization } from "@/lib/platform/organizations";
import { DatabaseRateLimiter, RedisRateLimiter } from "@/lib/rate-limit";
import { connectRedis } from "@/lib/runtime/rate-limiter";
import { canRunServers, ScratchPostgres, ScratchRedis } from "./support/servers";

/**
 * Outages under concurrent paid load, against real servers this test starts
 * and stops: PostgreSQL stopped at once (as a crash) and started again, and
 * Redis (the shared rate limit) killed and started again. Whatever fails
 * answers 503 with Retry-After, never 500; no money moves for a refused
 * request; the service answers again once the dependency is back.
 */
const available = canRunServers();
if (!available && process.env.CI) throw new Error("CI needs PostgreSQL server binaries and redis-server for the fault tests");
const describeWithServers = available ? describe : describe.skip;

const START = parseDollars("100");
const CONCURRENCY = 16;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Outcome {
  status: number;
  requestId: string;
  costNanos: bigint;
  retryAfter: string | null;
}

/** Paid requests from CONCURRENCY clients until `stop()` says so; every answer kept. */
function load(ctx: ApiContext, key: string, ticker: string) {
  const outcomes: Outcome[] = [];
  let running = true;
  const client = async () => {
    while (running) {
      const response = await handleApiRequest(new Request(`http://api.test/v1/dilution-rating?ticker=${ticker}`, { headers: { "API-KEY": key } }), ctx);
      await response.arrayBuffer();
      const cost = response.headers.get("X-Cost-Dollars");
      outcomes.push({ status: response.status, requestId: response.headers.get("X-Request-ID")!, costNanos: cost ? parseDollars(cost) : 0n, retryAfter: response.headers.get("Retry-After") });
      if (response.status !== 200) await sleep(20);
    }
  };
  const clients = Array.from({ length: CONCURRENCY }, client);
  return {
    outcomes,
    async stop() {
      running = false;
      await Promise.all(clients);
    },
  };
}

/** Polls until a request is served again, with a generous deadline (no timing is asserted beyond it). */
async function servedAgain(outcomes: Outcome[], after: number) {
  for (let waited = 0; waited < 90_000; waited += 250) {
    if (outcomes.slice(after).some((o) => o.status === 200)) return;
    await sleep(250);
  }
  throw new Error("the service did not answer again within 90 s of the dependency coming back");
}

async function fundedKey(database: Database) {
  await ensureDefaultPlans(database.prisma);
  await loadSampleData(database.prisma, { tickerCount: 3 });
  const org = await createOrganization(database.prisma, { name: "Under load", plan: "enterprise" }, { actorLabel: "test" });
  await database.prisma.plan.update({ where: { slug: "enterprise" }, data: { requestsPerMinute: 1_000_000 } });
  await changeBalance(database.prisma, { orgId: org.id, kind: "ADJUSTMENT", amountNanos: START });
  const { key } = await createKey(database.prisma, { orgId: org.id, name: "load" }, { actorLabel: "test" });
  const ticker = (await database.prisma.company.findFirstOrThrow({ orderBy: { ticker: "asc" } })).ticker;
  return { orgId: org.id, key, ticker };
}

/** No 500; every refusal a 503 with Retry-After; the balance moved by exactly what the 200s say they cost. */
async function expectExactMoney(database: Database, orgId: string, outcomes: Outcome[]) {
  const statuses = new Map<number, number>();
  for (const o of outcomes) statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
  expect([...statuses.keys()].sort()).toEqual([200, 503]);
  expect(outcomes.filter((o) => o.status === 503).every((o) => o.retryAfter !== null)).toBe(true);

  const totals = await ledgerTotals(database.prisma, orgId);
  expect(totals.ledgerSumNanos).toBe(totals.balanceNanos);
  const usage = await database.prisma.creditLedgerEntry.findMany({ where: { orgId, kind: "USAGE" }, select: { reference: true, amountNanos: true } });
  const charged = new Map(usage.map((u) => [u.reference!, -u.amountNanos]));
  const served = outcomes.filter((o) => o.status === 200);
  // Every 200 was charged, exactly what it said.
  for (const o of served) expect(charged.get(o.requestId)).toBe(o.costNanos);
  // A commit the server made durable just as it died cannot be told from a failure by its client: such
  // charges are counted here (and reported), so the money still adds up to the nano-dollar.
  const inDoubt = outcomes.filter((o) => o.status === 503 && charged.has(o.requestId));
  const spent = served.reduce((sum, o) => sum + o.costNanos, 0n) + inDoubt.reduce((sum, o) => sum + charged.get(o.requestId)!, 0n);
  expect(START - totals.balanceNanos).toBe(spent);
  expect(usage.length).toBe(served.length + inDoubt.length);
  return { statuses: Object.fromEntries(statuses), inDoubt: inDoubt.length };
}

describeWithServers("a PostgreSQL outage under paid load", () => {
  let pg: ScratchPostgres;
  let database: Database;
  beforeAll(async () => {
    pg = await ScratchPostgres.start();
    database = await openDatabase({ url: pg.url, poolSize: CONCURRENCY });
  }, 120_000);
  afterAll(async () => {
    await database?.close().catch(() => {});
    pg?.destroy();
  });

  it("answers 503 while the database is down, never 500, and serves again once it is back, with the money exact", async () => {
    const { orgId, key, ticker } = await fundedKey(database);
    // The key cache as in production (an entry lives a second), and an outage longer than that: the key's entry grows
    // old while the database is away, yet every refused request is still its organization's and reaches the usage log.
    const ctx = createApiContext(database.prisma, { rateLimiter: new DatabaseRateLimiter(database.prisma), keys: new KeyCache(database.prisma) });
    const run = load(ctx, key, ticker);
    await sleep(1_000);
    pg.down();
    await sleep(3_000);
    pg.up();
    const back = run.outcomes.length;
    await servedAgain(run.outcomes, back);
    await sleep(500);
    await run.stop();
    await ctx.usage.flush();

    const report = await expectExactMoney(database, orgId, run.outcomes);
    expect(report.statuses[503]).toBeGreaterThan(0);
    console.info(`[faults] PostgreSQL restart under ${CONCURRENCY}-client paid load: ${JSON.stringify(report)}`);
    // Every refused request is in the usage log, written once the database was back (an in-doubt one as its charge).
    const refusedRecorded = await database.prisma.usageEvent.count({ where: { orgId, statusCode: 503 } });
    expect(refusedRecorded + ctx.usage.pending.lost).toBe((report.statuses[503] ?? 0) - report.inDoubt);
    expect(ctx.usage.pending.held).toBe(0);
  }, 180_000);
});

describeWithServers("a Redis outage under paid load (REDIS_URL set)", () => {
  let pg: ScratchPostgres;
  let redisServer: ScratchRedis;
  let database: Database;
  beforeAll(async () => {
    [pg, redisServer] = await Promise.all([ScratchPostgres.start(), ScratchRedis.start()]);
    database = await openDatabase({ url: pg.url, poolSize: CONCURRENCY });
  }, 120_000);
  afterAll(async () => {
    await database?.close().catch(() => {});
    await redisServer?.down();
    pg?.destroy();
  });

  it("refuses keyed requests with 503 rather than serve them without the shared limit, and serves again once Redis is back", async () => {
    const { orgId, key, ticker } = await fundedKey(database);
    const warnings: string[] = [];
    const redis = connectRedis(redisServer.url, (line) => warnings.push(line));
    await new Promise<void>((resolve) => (redis.status === "ready" ? resolve() : redis.once("ready", () => resolve())));
    const ctx = createApiContext(database.prisma, { rateLimiter: new RedisRateLimiter(redis) });
    try {
      const run = load(ctx, key, ticker);
      await sleep(1_000);
      await redisServer.down();
      await sleep(2_000);
      const during = run.outcomes.length;
      await redisServer.up();
      await servedAgain(run.outcomes, during);
      await sleep(500);
      await run.stop();

      const report = await expectExactMoney(database, orgId, run.outcomes);
      expect(report.statuses[503]).toBeGreaterThan(0);
      expect(report.inDoubt).toBe(0); // refused before the charge: nothing in doubt
      // The outage and its end are reported once each, not as an unhandled error per attempt.
      expect(warnings.filter((w) => w.includes("unavailable"))).toHaveLength(1);
      console.info(`[faults] Redis outage under ${CONCURRENCY}-client paid load: ${JSON.stringify(report)}`);
    } finally {
      redis.disconnect();
    }
  }, 180_000);
});
