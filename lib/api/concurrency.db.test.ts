import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargeForBytes, parseDollars } from "@/lib/money";
import { ledgerTotals } from "@/lib/billing/ledger";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { isPostgres } from "@/tests/support/database";
import { ENDPOINT_LIST } from "@/lib/catalog";
import { createApiContext } from "./context";

/**
 * The money proof: many parallel requests from several keys of one
 * organization against a balance that covers only part of them. On
 * PostgreSQL these really run in parallel over a connection pool.
 */
let t: Testbed;
beforeAll(async () => {
  t = await openApiTestbed();
}, 120_000);
afterAll(() => t?.close());

describe("concurrent metering", () => {
  it("never overdraws, charges each 200 exactly, and charges no failure", async () => {
    const requests = isPostgres() ? 240 : 80;
    const org = await t.org({ plan: "enterprise", dollars: "0", keys: 4 });
    const tickers = (await t.prisma.company.findMany({ take: 20, orderBy: { ticker: "asc" } })).map((c) => c.ticker);
    const paths = Array.from({ length: requests }, (_, i) => {
      const endpoint = ENDPOINT_LIST[i % ENDPOINT_LIST.length]!;
      return `${endpoint.path}?ticker=${tickers[i % tickers.length]}&limit=${1 + (i % 20)}`;
    });

    // Price the run: what all of them would cost, then fund about 40% of it.
    const probe = await t.org({ plan: "enterprise", dollars: "100" });
    let fullCost = 0n;
    for (const path of paths.slice(0, 30)) {
      fullCost += parseDollars((await t.request(path, { key: probe.key })).headers.get("X-Cost-Dollars")!);
    }
    const funded = (fullCost * BigInt(requests)) / 30n / 10n * 4n;
    await t.prisma.$transaction(async (tx) => {
      await tx.organization.update({ where: { id: org.id }, data: { balanceNanos: funded } });
      await tx.creditLedgerEntry.create({ data: { orgId: org.id, kind: "ADJUSTMENT", amountNanos: funded, balanceAfterNanos: funded } });
    });

    const ctx = createApiContext(t.prisma);
    const responses = await Promise.all(
      paths.map(async (path, i) => {
        const response = await t.request(path, { key: org.keys[i % org.keys.length]!.key, ctx });
        const text = await response.text();
        // A page without records is free.
        const bytes = response.status === 200 && JSON.parse(text).count === 0 ? 0 : new TextEncoder().encode(text).byteLength;
        return { path, response, bytes };
      }),
    );

    const ok = responses.filter((r) => r.response.status === 200);
    const refused = responses.filter((r) => r.response.status !== 200);
    expect(ok.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    expect(new Set(refused.map((r) => r.response.status))).toEqual(new Set([402]));

    let charged = 0n;
    for (const { path, response, bytes } of ok) {
      const endpoint = ENDPOINT_LIST.find((e) => path.startsWith(`${e.path}?`))!;
      const expected = chargeForBytes(bytes, endpoint.defaultPricePerGbNanos);
      expect(parseDollars(response.headers.get("X-Cost-Dollars")!)).toBe(expected);
      expect(Number(response.headers.get("X-Billable-Bytes"))).toBe(bytes);
      charged += expected;
    }

    const { balanceNanos, ledgerSumNanos } = await ledgerTotals(t.prisma, org.id);
    expect(balanceNanos).toBeGreaterThanOrEqual(0n);
    expect(ledgerSumNanos).toBe(balanceNanos);
    expect(funded - balanceNanos).toBe(charged);
    const usage = await t.prisma.creditLedgerEntry.aggregate({ where: { orgId: org.id, kind: "USAGE" }, _sum: { amountNanos: true }, _count: true });
    expect(-(usage._sum.amountNanos ?? 0n)).toBe(charged);
    expect(usage._count).toBe(ok.filter((r) => r.bytes > 0).length);

    const events = await t.prisma.usageEvent.findMany({ where: { orgId: org.id } });
    expect(events).toHaveLength(requests);
    expect(events.filter((e) => e.statusCode !== 200).every((e) => e.costNanos === 0n)).toBe(true);
    expect(events.reduce((sum, e) => sum + e.costNanos, 0n)).toBe(charged);
  }, 120_000);

  it("admits no more than the rate limit per window under concurrency", async () => {
    const org = await t.org({ plan: "retail", dollars: "50", keys: 3 });
    const plan = await t.prisma.plan.create({
      data: { slug: `tight-${org.id}`, name: "Tight", allowedEndpoints: ["float-outstanding"], requestsPerMinute: 25 },
    });
    await t.prisma.organization.update({ where: { id: org.id }, data: { planId: plan.id } });
    const fixed = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 1_000);
    const ctx = createApiContext(t.prisma, { now: () => fixed });
    const ticker = (await t.prisma.company.findFirstOrThrow({ orderBy: { ticker: "asc" } })).ticker;
    const statuses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        t.request(`/v1/float-outstanding?ticker=${ticker}`, { key: org.keys[i % 3]!.key, ctx }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(25);
    expect(statuses.filter((s) => s === 429)).toHaveLength(75);
    expect(await t.prisma.creditLedgerEntry.count({ where: { orgId: org.id, kind: "USAGE" } })).toBe(25);
  }, 60_000);

  it("keeps a trial organization to its daily tickers under concurrency", async () => {
    const org = await t.org({ plan: "trial", dollars: "50", keys: 2 });
    const plan = await t.prisma.plan.create({
      data: { slug: `trial-tight-${org.id}`, name: "Trial", allowedEndpoints: ["offerings"], requestsPerMinute: 1000, isTrial: true, dailyTickerLimit: 7 },
    });
    await t.prisma.organization.update({ where: { id: org.id }, data: { planId: plan.id } });
    const ctx = createApiContext(t.prisma);
    // Tickers with offerings: a page without records is free and uses no trial ticker.
    const tickers = (await t.prisma.company.findMany({ where: { offerings: { some: {} } }, take: 20, orderBy: { ticker: "asc" } })).map((c) => c.ticker);
    expect(tickers).toHaveLength(20);
    const results = await Promise.all(
      tickers.map((ticker, i) => t.request(`/v1/offerings?ticker=${ticker}`, { key: org.keys[i % 2]!.key, ctx }).then((r) => r.status)),
    );
    expect(results.filter((s) => s === 200)).toHaveLength(7);
    expect(results.filter((s) => s === 429)).toHaveLength(13);
    expect(await t.prisma.trialTickerUse.count({ where: { orgId: org.id } })).toBe(7);
  }, 60_000);
});
