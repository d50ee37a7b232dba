import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerTotals } from "@/lib/billing/ledger";
import { parseDollars } from "@/lib/money";
import { RedisRateLimiter } from "@/lib/rate-limit";
import { connectRedis } from "@/lib/runtime/rate-limiter";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { canRunServers, ScratchRedis } from "@/tests/support/servers";
import { createApiContext } from "./context";

/**
 * Redis holds only the per-minute windows. Restarting it resets them (as
 * docs/api.md says), and nothing else: balances, the ledger, spend caps and their
 * spend so far live in PostgreSQL, so a request refused by a cap before the
 * restart is refused after it, and no money moves twice or goes missing.
 */
let t: Testbed;
let redis: ScratchRedis | undefined;
let connection: ReturnType<typeof connectRedis> | undefined;

beforeAll(async () => {
  t = await openApiTestbed({ tickerCount: 1 });
  if (canRunServers()) redis = await ScratchRedis.start();
}, 120_000);
afterAll(async () => {
  await connection?.quit().catch(() => {});
  await redis?.down();
  await t?.close();
});

const ready = (c: NonNullable<typeof connection>) => new Promise<void>((resolve) => (c.status === "ready" ? resolve() : c.once("ready", () => resolve())));

describe("restarting Redis", () => {
  it.skipIf(!canRunServers())("resets the per-minute counters and nothing that holds money or a cap", async () => {
    connection = connectRedis(redis!.url, () => {});
    await ready(connection);
    // One fixed moment, so every request falls in the same minute window.
    const moment = new Date();
    const ctx = createApiContext(t.prisma, { rateLimiter: new RedisRateLimiter(connection), now: () => moment });
    const plan = await t.prisma.plan.create({ data: { slug: `restart-${Date.now()}`, name: "Restart", allowedEndpoints: ["dilution-rating"], requestsPerMinute: 3 } });
    const org = await t.org({ dollars: "1" });
    await t.prisma.organization.update({ where: { id: org.id }, data: { planId: plan.id } });
    const ticker = (await t.prisma.company.findFirstOrThrow({ orderBy: { ticker: "asc" } })).ticker;
    const call = async () => {
      const response = await t.request(`/v1/dilution-rating?ticker=${ticker}`, { key: org.key, ctx });
      return { status: response.status, code: response.status === 200 ? null : ((await response.json()) as { error: { code: string } }).error.code };
    };

    // Two paid requests, then the daily cap (set to exactly their cost) refuses the third; the fourth is over the minute's limit.
    const first = await t.request(`/v1/dilution-rating?ticker=${ticker}`, { key: org.key, ctx });
    expect(first.status).toBe(200);
    const cost = parseDollars(first.headers.get("X-Cost-Dollars")!);
    await t.prisma.organization.update({ where: { id: org.id }, data: { dailyCapNanos: 2n * cost } });
    expect(await call()).toEqual({ status: 200, code: null });
    expect(await call()).toMatchObject({ status: 402, code: "spend_limit_reached" });
    expect(await call()).toMatchObject({ status: 429, code: "rate_limit_exceeded" });
    const before = await ledgerTotals(t.prisma, org.id);
    expect(before.balanceNanos).toBe(parseDollars("1") - 2n * cost);

    // Redis dies: keyed requests get 503, at no charge.
    await redis!.down();
    expect(await call()).toMatchObject({ status: 503, code: "service_unavailable" });
    // It comes back empty.
    await redis!.up();
    await ready(connection);
    // Wait until it answers the limiter's script again (on a loaded machine the first command after a restart may time out),
    // on a bucket of its own so the organization's window is untouched.
    const limiter = new RedisRateLimiter(connection);
    for (let attempt = 0; ; attempt++) {
      try {
        await limiter.hit("warm-up", 1_000, moment);
        break;
      } catch (error) {
        if (attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }

    // The minute's count started over (no 429), but the cap still holds: its spend is in PostgreSQL.
    expect(await call()).toMatchObject({ status: 402, code: "spend_limit_reached" });
    expect(await ledgerTotals(t.prisma, org.id)).toEqual(before);
    const orgRow = await t.prisma.organization.findUniqueOrThrow({ where: { id: org.id } });
    expect(orgRow.dailyCapNanos).toBe(2n * cost);
    expect(await t.prisma.usageEvent.aggregate({ where: { orgId: org.id }, _sum: { costNanos: true } })).toMatchObject({ _sum: { costNanos: 2n * cost } });
    // Two more requests pass the fresh window (and are refused by the cap); the third is over the limit again.
    expect(await call()).toMatchObject({ status: 402 });
    expect(await call()).toMatchObject({ status: 402 });
    expect(await call()).toMatchObject({ status: 429, code: "rate_limit_exceeded" });
    expect(await ledgerTotals(t.prisma, org.id)).toEqual(before);
  }, 60_000);
});
