import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { formatMoney, parseDollars } from "@/lib/money";
import { ledgerTotals } from "@/lib/billing/ledger";
import { setOrgSpendCaps } from "@/lib/billing/spend";
import { SAMPLE_SHOWCASE } from "@/lib/data/sample";
import { configureKey, createKey, rollKey } from "@/lib/keys/manage";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { createApiContext } from "./context";

/**
 * Key and spend controls as a client meets them: expiry and rolled keys
 * (401 api_key_expired), IP allow-lists (403 ip_not_allowed) and spend caps
 * (402 spend_limit_reached), each refused at no charge, in its place in the
 * order of checks; and caps exact under concurrency.
 */
let t: Testbed;
const ticker = SAMPLE_SHOWCASE.highRisk;
const PATH = `/v1/dilution-rating?ticker=${ticker}`;
const ADDRESS_HEADER = "x-test-client-address";
let costNanos: bigint;

beforeAll(async () => {
  t = await openApiTestbed();
  const probe = await t.org({ dollars: "1" });
  const response = await t.request(PATH, { key: probe.key });
  costNanos = parseDollars(response.headers.get("X-Cost-Dollars")!);
}, 120_000);
afterAll(() => t?.close());
afterEach(() => vi.unstubAllEnvs());

const at = (iso: string) => createApiContext(t.prisma, { now: () => new Date(iso) });

/** What the request costs on that day (the ratings, and so the bytes, depend on the date). */
async function costOn(ctx: ReturnType<typeof at>): Promise<bigint> {
  const probe = await t.org({ dollars: "1" });
  return parseDollars((await t.request(PATH, { key: probe.key, ctx })).headers.get("X-Cost-Dollars")!);
}
const actor = { actorLabel: "test" };

async function usageCharges(orgId: string) {
  return t.prisma.creditLedgerEntry.count({ where: { orgId, kind: "USAGE" } });
}

describe("the error table of /endpoints", () => {
  it("lists the new codes with their status, when they are answered and their details", async () => {
    const { body } = await t.json("/endpoints");
    const byCode = Object.fromEntries((body.errors as { code: string }[]).map((e) => [e.code, e]));
    expect(byCode.api_key_expired).toMatchObject({ http_status: 401, details: ["expired_at"] });
    expect(byCode.ip_not_allowed).toMatchObject({ http_status: 403, details: ["ip"] });
    expect(byCode.spend_limit_reached).toMatchObject({ http_status: 402, details: expect.arrayContaining(["scope", "period", "limit_dollars", "spent_dollars", "resets_at"]) });
    expect(byCode.missing_api_key).toMatchObject({ http_status: 401, details: [] });
  });
});

describe("key expiry", () => {
  it("serves a key until the second it expires, then refuses it with 401 api_key_expired at no charge", async () => {
    const org = await t.org({ dollars: "1" });
    const created = await createKey(t.prisma, { orgId: org.id, name: "expiring", expiresAt: new Date("2030-01-01T00:00:00.000Z") }, actor, new Date("2029-12-01T00:00:00Z"));
    const before = await t.request(PATH, { key: created.key, ctx: at("2029-12-31T23:59:59.999Z") });
    expect(before.status).toBe(200);
    const balance = await t.balance(org.id);

    const after = await t.json(PATH, { key: created.key, ctx: at("2030-01-01T00:00:00.000Z") });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("api_key_expired");
    expect(after.body.error.details).toEqual({ expired_at: "2030-01-01T00:00:00.000Z" });
    expect(after.body.error.message).toContain("expired at 2030-01-01T00:00:00.000Z");
    expect(await t.balance(org.id)).toBe(balance);
    const event = await t.prisma.usageEvent.findFirstOrThrow({ where: { apiKeyId: created.record.id, errorCode: "api_key_expired" } });
    expect(event.costNanos).toBe(0n);
  });

  it("refuses an expiry that is not in the future", async () => {
    const org = await t.org({ dollars: "1" });
    await expect(createKey(t.prisma, { orgId: org.id, name: "late", expiresAt: new Date(Date.now() - 1000) }, actor)).rejects.toMatchObject({
      code: "invalid_expiry",
    });
  });
});

describe("rolling a key", () => {
  it("makes a new key with the old one's settings, and keeps the old one working exactly until the grace period ends", async () => {
    const org = await t.org({ dollars: "1", endpoints: ["dilution-rating", "offerings"] });
    await configureKey(
      t.prisma,
      org.keyId,
      { endpoints: ["dilution-rating", "offerings"], limits: { allowedIps: [], dailyCapNanos: parseDollars("5"), monthlyCapNanos: null } },
      actor,
    );
    const rolledAt = new Date("2031-03-01T12:00:00.000Z");
    const rolled = await rollKey(t.prisma, org.keyId, 3600, actor, rolledAt);
    expect(rolled.key).not.toBe(org.key);
    expect(rolled.record).toMatchObject({
      name: "key 1",
      allowedEndpoints: ["dilution-rating", "offerings"],
      dailyCapNanos: parseDollars("5"),
      rolledFromId: org.keyId,
      expiresAt: null,
    });
    expect(rolled.old.expiresAt).toEqual(new Date("2031-03-01T13:00:00.000Z"));

    const lastSecond = at("2031-03-01T12:59:59.999Z");
    expect((await t.request(PATH, { key: org.key, ctx: lastSecond })).status).toBe(200);
    expect((await t.request(PATH, { key: rolled.key, ctx: lastSecond })).status).toBe(200);

    const graceOver = at("2031-03-01T13:00:00.000Z");
    const old = await t.json(PATH, { key: org.key, ctx: graceOver });
    expect(old.status).toBe(401);
    expect(old.body.error.code).toBe("api_key_expired");
    expect(old.body.error.message).toContain("replaced by a new key");
    expect((await t.request(PATH, { key: rolled.key, ctx: graceOver })).status).toBe(200);

    const audit = await t.prisma.auditLog.findFirstOrThrow({ where: { orgId: org.id, action: "key.rolled" } });
    expect(audit.details).toMatchObject({ old_hint: org.key.slice(0, 12), hint: rolled.key.slice(0, 12), grace_seconds: 3600 });
    await expect(rollKey(t.prisma, org.keyId, 3600, actor, rolledAt)).rejects.toMatchObject({ code: "key_not_rollable" });
  });

  it("with no grace period, the old key stops at once; an unknown grace period is refused", async () => {
    const org = await t.org({ dollars: "1" });
    await expect(rollKey(t.prisma, org.keyId, 60, actor)).rejects.toMatchObject({ code: "invalid_input" });
    const now = new Date();
    const rolled = await rollKey(t.prisma, org.keyId, 0, actor, now);
    const ctx = createApiContext(t.prisma, { now: () => now });
    expect((await t.json(PATH, { key: org.key, ctx })).body.error.code).toBe("api_key_expired");
    expect((await t.request(PATH, { key: rolled.key, ctx })).status).toBe(200);
  });
});

describe("IP allow-lists", () => {
  async function allowListed(allowedIps: string[], endpoints: string[] = []) {
    const org = await t.org({ dollars: "1" });
    await configureKey(t.prisma, org.keyId, { endpoints, limits: { allowedIps, dailyCapNanos: null, monthlyCapNanos: null } }, actor);
    return org;
  }
  const from = (ip: string | null): Record<string, string> => (ip === null ? {} : { [ADDRESS_HEADER]: ip });

  it("admits addresses inside the list (IPv4, IPv6, IPv4 as IPv6) and refuses the rest with 403 ip_not_allowed at no charge", async () => {
    vi.stubEnv("CLIENT_ADDRESS_HEADER", ADDRESS_HEADER);
    const org = await allowListed(["203.0.113.0/24", "2001:db8::/32"]);
    for (const ip of ["203.0.113.9", "2001:db8:1::5", "::ffff:203.0.113.200"]) {
      expect((await t.request(PATH, { key: org.key, headers: from(ip) })).status, ip).toBe(200);
    }
    const balance = await t.balance(org.id);
    for (const ip of ["198.51.100.1", "203.0.114.1", "2001:db9::1", null]) {
      const refused = await t.json(PATH, { key: org.key, headers: from(ip) });
      expect(refused.status, String(ip)).toBe(403);
      expect(refused.body.error.code).toBe("ip_not_allowed");
      expect(refused.body.error.details).toEqual({ ip });
    }
    expect(await t.balance(org.id)).toBe(balance);
    expect(await usageCharges(org.id)).toBe(3);
  });

  it("is checked after the endpoint permission and before the rate limit", async () => {
    vi.stubEnv("CLIENT_ADDRESS_HEADER", ADDRESS_HEADER);
    const org = await allowListed(["192.0.2.1"], ["offerings"]);
    const wrongEndpoint = await t.json(PATH, { key: org.key, headers: from("198.51.100.1") });
    expect(wrongEndpoint.body.error.code).toBe("endpoint_not_allowed");
    const refused = await t.request(`/v1/offerings?ticker=${ticker}`, { key: org.key, headers: from("198.51.100.1") });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("X-RateLimit-Remaining")).toBeNull();
  });

  it("refuses a malformed entry with its reason, and stores entries canonically", async () => {
    const org = await t.org({ dollars: "1" });
    const limits = (allowedIps: string[]) => ({ endpoints: [], limits: { allowedIps, dailyCapNanos: null, monthlyCapNanos: null } });
    await expect(configureKey(t.prisma, org.keyId, limits(["10.0.0.5/24"]), actor)).rejects.toMatchObject({
      code: "invalid_allow_list",
      message: expect.stringContaining("10.0.0.0/24"),
    });
    const saved = await configureKey(t.prisma, org.keyId, limits([" 2001:DB8:0:0::/48 ", "192.0.2.1/32", "192.0.2.1"]), actor);
    expect(saved.allowedIps).toEqual(["2001:db8::/48", "192.0.2.1"]);
  });
});

describe("spend caps", () => {
  const capKey = (keyId: string, dailyCapNanos: bigint | null, monthlyCapNanos: bigint | null = null) =>
    configureKey(t.prisma, keyId, { endpoints: [], limits: { allowedIps: [], dailyCapNanos, monthlyCapNanos } }, actor);

  it("refuses the request that would cross a key's daily cap with 402 spend_limit_reached, and the next UTC day starts again", async () => {
    const org = await t.org({ dollars: "1" });
    const day = at("2032-05-10T23:00:00.000Z");
    const cost = await costOn(day);
    await capKey(org.keyId, cost * 3n);
    for (let i = 0; i < 3; i++) expect((await t.request(PATH, { key: org.key, ctx: day })).status).toBe(200);
    const balance = await t.balance(org.id);
    const refused = await t.json(PATH, { key: org.key, ctx: day });
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe("spend_limit_reached");
    expect(refused.body.error.details).toMatchObject({
      scope: "key",
      period: "day",
      limit_dollars: refused.body.error.details.spent_dollars,
      resets_at: "2032-05-11T00:00:00.000Z",
      unit: "dollars",
    });
    expect(parseDollars(refused.body.error.details.spent_dollars)).toBe(cost * 3n);
    // The words show money by the one rule (the cap as it was set, the spend cut to three figures); the details stay exact.
    expect(refused.body.error.message).toContain(`spend cap of ${formatMoney(cost * 3n, "typed")} has ${formatMoney(cost * 3n)} spent`);
    expect(await t.balance(org.id)).toBe(balance);
    expect((await t.request(PATH, { key: org.key, ctx: at("2032-05-11T00:00:00.000Z") })).status).toBe(200);
  });

  it("counts an organization's monthly cap over all its keys, and resets it on the 1st (UTC)", async () => {
    const org = await t.org({ dollars: "1", keys: 2 });
    const month = at("2032-06-30T10:00:00.000Z");
    await setOrgSpendCaps(t.prisma, org.id, { dailyCapNanos: null, monthlyCapNanos: (await costOn(month)) * 2n }, actor);
    expect((await t.request(PATH, { key: org.keys[0]!.key, ctx: month })).status).toBe(200);
    expect((await t.request(PATH, { key: org.keys[1]!.key, ctx: month })).status).toBe(200);
    const refused = await t.json(PATH, { key: org.keys[0]!.key, ctx: month });
    expect(refused.body.error.details).toMatchObject({ scope: "organization", period: "month", resets_at: "2032-07-01T00:00:00.000Z" });
    expect((await t.request(PATH, { key: org.keys[1]!.key, ctx: at("2032-07-01T00:00:00.000Z") })).status).toBe(200);
  });

  it("answers insufficient_credits before a cap, and a cap before the trial's tickers", async () => {
    const org = await t.org({ dollars: "0" });
    await setOrgSpendCaps(t.prisma, org.id, { dailyCapNanos: 1n, monthlyCapNanos: null }, actor);
    expect((await t.json(PATH, { key: org.key })).body.error.code).toBe("insufficient_credits");
    const trial = await t.org({ plan: "trial", dollars: "1" });
    await capKey(trial.keyId, 1n);
    expect((await t.json(PATH, { key: trial.key })).body.error.code).toBe("spend_limit_reached");
  });

  it("keeps the day's and month's spend equal to what was charged", async () => {
    const org = await t.org({ dollars: "1" });
    const now = at("2033-01-15T08:00:00.000Z");
    const cost = await costOn(now);
    for (let i = 0; i < 4; i++) await t.request(PATH, { key: org.key, ctx: now });
    const [key, organization] = await Promise.all([
      t.prisma.apiKey.findUniqueOrThrow({ where: { id: org.keyId } }),
      t.prisma.organization.findUniqueOrThrow({ where: { id: org.id } }),
    ]);
    expect([key.spentDayNanos, key.spentMonthNanos, organization.spentDayNanos, organization.spentMonthNanos]).toEqual(Array(4).fill(cost * 4n));
    expect(key.spentDay).toEqual(new Date("2033-01-15T00:00:00.000Z"));
    expect(organization.spentMonth).toEqual(new Date("2033-01-01T00:00:00.000Z"));
  });

  for (const scope of ["key", "organization"] as const) {
    it(`never lets 200 concurrent requests spend a nano-dollar over the ${scope}'s cap`, async () => {
      const org = await t.org({ dollars: "10", keys: 2 });
      const allowed = 37n;
      const cap = costNanos * allowed + costNanos / 2n; // room for 37 and a half: the 38th must be refused
      if (scope === "key") await capKey(org.keyId, cap);
      else await setOrgSpendCaps(t.prisma, org.id, { dailyCapNanos: cap, monthlyCapNanos: null }, actor);
      const ctx = createApiContext(t.prisma);
      // Both keys spend for an organization cap; one key for its own cap.
      const statuses = await Promise.all(
        Array.from({ length: 200 }, (_, i) => t.request(PATH, { key: scope === "key" ? org.key : org.keys[i % 2]!.key, ctx }).then((r) => r.status)),
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(Number(allowed));
      expect(statuses.filter((s) => s === 402)).toHaveLength(200 - Number(allowed));
      const charged = await t.prisma.creditLedgerEntry.aggregate({ where: { orgId: org.id, kind: "USAGE" }, _sum: { amountNanos: true } });
      expect(-charged._sum.amountNanos!).toBe(costNanos * allowed);
      expect(-charged._sum.amountNanos!).toBeLessThanOrEqual(cap);
      const totals = await ledgerTotals(t.prisma, org.id);
      expect(totals.ledgerSumNanos).toBe(totals.balanceNanos);
      const row =
        scope === "key"
          ? await t.prisma.apiKey.findUniqueOrThrow({ where: { id: org.keyId } })
          : await t.prisma.organization.findUniqueOrThrow({ where: { id: org.id } });
      expect(row.spentDayNanos).toBe(costNanos * allowed);
    }, 120_000);
  }
});
