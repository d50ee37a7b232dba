import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerTotals } from "@/lib/billing/ledger";
import { bumpDatasetVersion } from "@/lib/data/version";
import { setKeyStatus } from "@/lib/keys/manage";
import { parseDollars } from "@/lib/money";
import { DatabaseRateLimiter, RedisRateLimiter, type RateLimiter } from "@/lib/rate-limit";
import { connectRedis } from "@/lib/runtime/rate-limiter";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { canRunServers, ScratchRedis } from "@/tests/support/servers";
import { BodyCache } from "./body-cache";
import { createApiContext, type ApiContext } from "./context";
import { KeyCache } from "./key-cache";
import { PriceBook } from "./prices";

/**
 * Two instances of the app share the database (and Redis when there is one)
 * and nothing else: each has its own key cache, prices, response bodies and
 * rate-limiter connection, and neither hears the other's in-process
 * notifications. Requests alternate between them.
 */
let t: Testbed;
let redis: ScratchRedis | undefined;
const connections: { quit(): Promise<unknown> }[] = [];

beforeAll(async () => {
  t = await openApiTestbed({ tickerCount: 3 });
  if (canRunServers()) redis = await ScratchRedis.start();
}, 120_000);
afterAll(async () => {
  await Promise.all(connections.map((c) => c.quit().catch(() => {})));
  await redis?.down();
  await t?.close();
});

async function limiter(): Promise<RateLimiter> {
  if (!redis) return new DatabaseRateLimiter(t.prisma);
  const connection = connectRedis(redis.url, () => {});
  connections.push(connection);
  await new Promise<void>((resolve) => (connection.status === "ready" ? resolve() : connection.once("ready", () => resolve())));
  return new RedisRateLimiter(connection);
}

/** An instance of its own: it does not see this process's change notifications, only the database. */
async function instance(): Promise<ApiContext> {
  const deaf = () => 0;
  return createApiContext(t.prisma, { keys: new KeyCache(t.prisma, undefined, deaf), prices: new PriceBook(t.prisma), bodies: new BodyCache(t.prisma), rateLimiter: await limiter() });
}

describe("two instances", () => {
  it("keep the money exact and the per-minute limit exact across both", async () => {
    const plan = await t.prisma.plan.create({ data: { slug: `two-${Date.now()}`, name: "Two", allowedEndpoints: ["dilution-rating"], requestsPerMinute: 30 } });
    const org = await t.org({ dollars: "1" });
    await t.prisma.organization.update({ where: { id: org.id }, data: { planId: plan.id } });
    const [a, b] = await Promise.all([instance(), instance()]);
    const ticker = (await t.prisma.company.findFirstOrThrow({ orderBy: { ticker: "asc" } })).ticker;
    const answers = await Promise.all(
      Array.from({ length: 80 }, (_, i) => t.request(`/v1/dilution-rating?ticker=${ticker}`, { key: org.key, ctx: i % 2 ? b : a })),
    );
    const ok = answers.filter((r) => r.status === 200);
    // One window may start mid-burst; across both instances no window admits more than 30.
    expect(ok.length).toBeGreaterThanOrEqual(30);
    expect(ok.length).toBeLessThanOrEqual(60);
    expect(answers.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    const windows = new Map<string, number>();
    for (const r of ok) windows.set(r.headers.get("X-RateLimit-Reset")!, (windows.get(r.headers.get("X-RateLimit-Reset")!) ?? 0) + 1);
    for (const count of windows.values()) expect(count).toBeLessThanOrEqual(30);
    const charged = ok.reduce((sum, r) => sum + parseDollars(r.headers.get("X-Cost-Dollars")!), 0n);
    const totals = await ledgerTotals(t.prisma, org.id);
    expect(totals.balanceNanos).toBe(parseDollars("1") - charged);
    expect(totals.ledgerSumNanos).toBe(totals.balanceNanos);
    expect(await t.prisma.usageEvent.count({ where: { orgId: org.id, statusCode: 200 } })).toBe(ok.length);
    expect(await t.prisma.usageEvent.aggregate({ where: { orgId: org.id, statusCode: 429 }, _sum: { costNanos: true } })).toMatchObject({ _sum: { costNanos: 0n } });
  });

  it("refuse a key disabled through one on the other within 2 s", async () => {
    const org = await t.org({ dollars: "1" });
    const [a, b] = await Promise.all([instance(), instance()]);
    const ticker = (await t.prisma.company.findFirstOrThrow({ orderBy: { ticker: "asc" } })).ticker;
    const path = `/v1/dilution-rating?ticker=${ticker}`;
    expect((await t.request(path, { key: org.key, ctx: a })).status).toBe(200);
    expect((await t.request(path, { key: org.key, ctx: b })).status).toBe(200);
    await setKeyStatus(t.prisma, org.keyId, "DISABLED", { actorLabel: "instance a" });
    await expect.poll(async () => (await t.request(path, { key: org.key, ctx: b })).status, { timeout: 2_000, interval: 100 }).toBe(401);
  });

  it("drop cached response bodies when another instance loads data", async () => {
    const cache = new BodyCache(t.prisma, undefined, 200);
    let builds = 0;
    const build = async () => ({ bytes: new TextEncoder().encode(`body ${++builds}`) as Uint8Array<ArrayBuffer>, recordCount: 1, unknownTickers: [] });
    expect(new TextDecoder().decode((await cache.get("k", build)).bytes)).toBe("body 1");
    expect(new TextDecoder().decode((await cache.get("k", build)).bytes)).toBe("body 1");
    await bumpDatasetVersion(t.prisma); // another instance's import: this process is not told
    await expect.poll(async () => new TextDecoder().decode((await cache.get("k", build)).bytes), { timeout: 2_000, interval: 50 }).toBe("body 2");
  });
});
