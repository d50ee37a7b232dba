import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { chargeForBytes, formatDollars, parseDollars } from "@/lib/money";
import { ledgerTotals } from "@/lib/billing/ledger";
import { SAMPLE_SHOWCASE } from "@/lib/data/sample";
import { importDataset } from "@/lib/data/import";
import { API_RECORD_FIELDS } from "@/lib/data/records/schemas";
import { spreadTickers } from "@/lib/data/records";
import { configureKey, deleteKey, setKeyStatus } from "@/lib/keys/manage";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { ENDPOINT_LIST, ENDPOINTS } from "@/lib/catalog";
import { createApiContext } from "./context";
import { acceptedFields } from "./fields";
import { KeyCache } from "./key-cache";
import { SECURITY_HEADERS } from "./response";
import { MAX_ESTIMATE_FACTOR } from "./public";

let t: Testbed;
let ticker: string; // a sample ticker with data on every endpoint
/** The estimate is never below the bill and at most this many times it (docs/api.md, "What a request costs"). */
const ESTIMATE_FACTOR = MAX_ESTIMATE_FACTOR;
/** The file's context: /estimate's per-client limit (tested on its own below) out of the way of the tests that compare estimates. */
const testContext = () => createApiContext(t.prisma, { estimateLimitPerMinute: 1_000 });
beforeAll(async () => {
  t = await openApiTestbed();
  t.ctx = testContext();
  ticker = SAMPLE_SHOWCASE.highRisk;
}, 120_000);
afterAll(() => t?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectEnvelope(body: { status: string; error: { code: string }; request_id: string }, response: Response, code: string) {
  expect(body.status).toBe("error");
  expect(body.error.code).toBe(code);
  expect(typeof body.error).toBe("object");
  expect(body.request_id).toMatch(UUID);
  expect(response.headers.get("X-Request-ID")).toBe(body.request_id);
}

async function usePlan(orgId: string, changes: { requestsPerMinute?: number; dailyTickerLimit?: number; isTrial?: boolean; allowedEndpoints?: string[] }) {
  const base = await t.prisma.organization.findUniqueOrThrow({ where: { id: orgId }, include: { plan: true } });
  const plan = await t.prisma.plan.create({
    data: {
      slug: `custom-${orgId}`,
      name: "Custom",
      allowedEndpoints: changes.allowedEndpoints ?? base.plan.allowedEndpoints,
      requestsPerMinute: changes.requestsPerMinute ?? base.plan.requestsPerMinute,
      isTrial: changes.isTrial ?? base.plan.isTrial,
      dailyTickerLimit: changes.dailyTickerLimit ?? base.plan.dailyTickerLimit,
    },
  });
  await t.prisma.organization.update({ where: { id: orgId }, data: { planId: plan.id } });
  t.ctx = testContext(); // a fresh key cache sees the new plan at once
}

describe("every response", () => {
  it("carries the version, a request id and the security headers, errors and public endpoints included", async () => {
    const org = await t.org({ dollars: "1" });
    const responses = [
      await t.request("/health"),
      await t.request("/endpoints"),
      await t.request(`/estimate?endpoint=offerings&ticker=${ticker}`),
      await t.request(`/v1/dilution-rating?ticker=${ticker}`, { key: org.key }),
      await t.request(`/v1/dilution-rating?ticker=${ticker}`),
      await t.request("/v1/nope"),
      await t.request("/v1/offerings", { method: "POST" }),
    ];
    for (const response of responses) {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(response.headers.get(name), name).toBe(value);
      expect(response.headers.get("X-Request-ID")).toMatch(UUID);
      expect(response.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    }
    expect(new Set(responses.map((r) => r.headers.get("X-Request-ID"))).size).toBe(responses.length);
  });

  it("answers unknown paths with 404 not_found and other methods with 405 and Allow", async () => {
    const missing = await t.json("/v1/short-interest?ticker=AAA");
    expect(missing.status).toBe(404);
    expectEnvelope(missing.body, missing.response, "not_found");
    expect(missing.body.error.details).toEqual({ path: "/v1/short-interest" });

    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const refused = await t.json("/v1/offerings?ticker=AAA", { method });
      expect(refused.status).toBe(405);
      expectEnvelope(refused.body, refused.response, "method_not_allowed");
      expect(refused.body.error.details).toEqual({ allowed: ["GET"] });
      expect(refused.response.headers.get("Allow")).toBe("GET, OPTIONS");
    }
    const head = await t.request("/v1/offerings?ticker=AAA", { method: "HEAD" });
    expect(head.status).toBe(405);
    const options = await t.request("/v1/offerings", { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("Allow")).toBe("GET, OPTIONS");
    const headHealth = await t.request("/health", { method: "HEAD" });
    expect(headHealth.status).toBe(200);
    expect(await headHealth.text()).toBe("");
  });
});

describe("public endpoints", () => {
  it("/health reports the database", async () => {
    const { status, body } = await t.json("/health");
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: "ok", database: { status: "ok" } });
  });

  it("/endpoints lists every data endpoint with path, parameters, price, page maximum and date-range support", async () => {
    const { body } = await t.json("/endpoints");
    const data = body.endpoints.filter((e: { requires_api_key: boolean }) => e.requires_api_key);
    expect(data.map((e: { name: string }) => e.name)).toEqual(ENDPOINT_LIST.map((e) => e.name));
    for (const entry of data) {
      const def = ENDPOINTS[entry.name as keyof typeof ENDPOINTS];
      expect(entry).toMatchObject({
        path: def.path,
        method: "GET",
        max_limit: def.maxLimit,
        default_limit: 10,
        supports_date_range: def.supportsDateRange,
        price_per_gb_dollars: Number(def.defaultPricePerGbNanos) / 1e9,
      });
      expect(entry.parameters.map((p: { name: string }) => p.name)).toContain("ticker");
      expect(entry.parameters.some((p: { name: string }) => p.name === "date_from")).toBe(def.supportsDateRange);
    }
    expect(body.endpoints.filter((e: { requires_api_key: boolean }) => !e.requires_api_key).map((e: { path: string }) => e.path)).toEqual(
      ["/health", "/endpoints", "/estimate", "/openapi.json"],
    );
  });

  it("/endpoints shows a price an administrator set", async () => {
    await t.prisma.priceChange.create({ data: { endpoint: "float-outstanding", pricePerGbNanos: parseDollars("3.5"), effectiveAt: new Date(Date.now() - 1000) } });
    const ctx = createApiContext(t.prisma);
    const { body } = await t.json("/endpoints", { ctx });
    expect(body.endpoints.find((e: { name: string }) => e.name === "float-outstanding").price_per_gb_dollars).toBe(3.5);
    await t.prisma.priceChange.deleteMany({ where: { endpoint: "float-outstanding" } });
  });
});

describe("authentication", () => {
  it("reads the key only from the API-KEY header", async () => {
    const org = await t.org({ dollars: "1" });
    const attempts: Record<string, string>[] = [{}, { Authorization: `Bearer ${org.key}` }, { "X-API-Key": org.key }, { "X-Api-Key-Id": org.key }, { "API-KEY": "" }];
    for (const headers of attempts) {
      const { status, body, response } = await t.json(`/v1/dilution-rating?ticker=${ticker}`, { headers });
      expect(status).toBe(401);
      expectEnvelope(body, response, "missing_api_key");
      expect(body.error.details).toEqual({});
    }
    const ok = await t.request(`/v1/dilution-rating?ticker=${ticker}`, { key: org.key });
    expect(ok.status).toBe(200);
  });

  it("refuses unknown keys, changed case and keys with extra characters", async () => {
    const org = await t.org({ dollars: "1" });
    const variants = [
      "svc-live-" + "0".repeat(64),
      org.key.toUpperCase(),
      `${org.key}\u00a0`,
      `${org.key} x`,
      org.key.slice(0, -1),
      org.key.slice(0, 12),
    ];
    for (const key of variants) {
      const { status, body, response } = await t.json(`/v1/dilution-rating?ticker=${ticker}`, { key });
      expect(status, key).toBe(401);
      expectEnvelope(body, response, "invalid_api_key");
    }
    expect(await t.balance(org.id)).toBe(parseDollars("1"));
  });

  it("follows the key's states: disabled → 401 api_key_disabled, re-enabled → 200, deleted → 401 invalid_api_key", async () => {
    const org = await t.org({ dollars: "1" });
    const path = `/v1/dilution-rating?ticker=${ticker}`;
    expect((await t.request(path, { key: org.key })).status).toBe(200);
    await setKeyStatus(t.prisma, org.keyId, "DISABLED", { actorLabel: "test" });
    const disabled = await t.json(path, { key: org.key });
    expect(disabled.status).toBe(401);
    expectEnvelope(disabled.body, disabled.response, "api_key_disabled");
    await setKeyStatus(t.prisma, org.keyId, "ACTIVE", { actorLabel: "test" });
    expect((await t.request(path, { key: org.key })).status).toBe(200);
    await deleteKey(t.prisma, org.keyId, { actorLabel: "test" });
    const deleted = await t.json(path, { key: org.key });
    expect(deleted.status).toBe(401);
    expectEnvelope(deleted.body, deleted.response, "invalid_api_key");
  });

  it("sees a change made by another instance within two seconds", async () => {
    const org = await t.org({ dollars: "1" });
    let clock = Date.now();
    // Another instance: its own cache, blind to this process's change counter.
    const other = createApiContext(t.prisma, { now: () => new Date(clock), keys: new KeyCache(t.prisma, undefined, () => 0) });
    const path = `/v1/dilution-rating?ticker=${ticker}`;
    expect((await t.request(path, { key: org.key, ctx: other })).status).toBe(200);
    await setKeyStatus(t.prisma, org.keyId, "DISABLED", { actorLabel: "test" });
    clock += 2000;
    expect((await t.json(path, { key: org.key, ctx: other })).body.error.code).toBe("api_key_disabled");
  });
});

describe("a flood of invalid keys", () => {
  it("costs a bounded number of queries however many random keys arrive, and valid keys go on working", async () => {
    const org = await t.org({ dollars: "1" });
    let queries = 0;
    const counted = t.prisma.$extends({
      query: {
        async $allOperations({ args, query }) {
          queries++;
          return query(args);
        },
      },
    }) as unknown as typeof t.prisma;
    let clock = Date.now();
    const ctx = createApiContext(counted, { now: () => new Date(clock), keys: new KeyCache(counted, undefined, () => 0) });
    const path = `/v1/dilution-rating?ticker=${ticker}`;
    const random = () => `svc-live-${[...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("")}`;

    for (let i = 0; i < 1000; i++) {
      const { status, body } = await t.json(path, { key: random(), ctx });
      expect(status).toBe(401);
      expect(body.error.code).toBe("invalid_api_key");
      if (i % 100 === 99) clock += 250; // the flood lasts 2.5 s of the cache's clock
    }
    // One load of the known keys, then at most one top-up per second of the flood.
    expect(queries).toBeLessThanOrEqual(4);
    console.info(`[key flood] 1,000 random invalid keys → ${queries} database queries`);

    // The real key is unaffected…
    expect((await t.request(path, { key: org.key, ctx })).status).toBe(200);
    // …and a key made on another instance (this cache is blind to its change counter) works within a second.
    const other = await t.org({ dollars: "1" });
    clock += 1000;
    expect((await t.request(path, { key: other.key, ctx })).status).toBe(200);
  });
});

describe("permissions", () => {
  it("allows the plan's endpoints only", async () => {
    const trial = await t.org({ plan: "trial", dollars: "1" });
    const { status, body, response } = await t.json(`/v1/dilution-data?ticker=${ticker}`, { key: trial.key });
    expect(status).toBe(403);
    expectEnvelope(body, response, "endpoint_not_allowed");
    expect(body.error.details.endpoint).toBe("dilution-data");
    expect(body.error.details.allowed_endpoints).not.toContain("dilution-data");
    expect((await t.request(`/v1/offerings?ticker=${ticker}`, { key: trial.key })).status).toBe(200);
  });

  it("narrows to the key's restrictions, which take effect at once", async () => {
    const org = await t.org({ dollars: "1", endpoints: ["offerings"] });
    expect((await t.request(`/v1/offerings?ticker=${ticker}`, { key: org.key })).status).toBe(200);
    const refused = await t.json(`/v1/registrations?ticker=${ticker}`, { key: org.key });
    expect(refused.status).toBe(403);
    expect(refused.body.error.details).toEqual({ endpoint: "registrations", allowed_endpoints: ["offerings"] });
    const choose = (endpoints: string[]) =>
      configureKey(t.prisma, org.keyId, { endpoints, limits: { allowedIps: [], dailyCapNanos: null, monthlyCapNanos: null } }, { actorLabel: "test" });
    await choose(["registrations"]);
    expect((await t.request(`/v1/registrations?ticker=${ticker}`, { key: org.key })).status).toBe(200);
    expect((await t.request(`/v1/offerings?ticker=${ticker}`, { key: org.key })).status).toBe(403);
    await choose([]);
    expect((await t.request(`/v1/offerings?ticker=${ticker}`, { key: org.key })).status).toBe(200);
  });
});

describe("rate limit", () => {
  it("admits the plan's requests per minute, shared by all keys of the organization", async () => {
    const org = await t.org({ dollars: "1", keys: 2 });
    await usePlan(org.id, { requestsPerMinute: 3 });
    const path = `/v1/float-outstanding?ticker=${ticker}`;
    const first = await t.request(path, { key: org.keys[0]!.key });
    expect(first.headers.get("X-RateLimit-Limit")).toBe("3");
    expect(first.headers.get("X-RateLimit-Remaining")).toBe("2");
    expect(Number(first.headers.get("X-RateLimit-Reset"))).toBeGreaterThan(Date.now() / 1000);
    await t.request(path, { key: org.keys[1]!.key });
    await t.request(path, { key: org.keys[0]!.key });
    const balance = await t.balance(org.id);
    const limited = await t.json(path, { key: org.keys[1]!.key });
    expect(limited.status).toBe(429);
    expectEnvelope(limited.body, limited.response, "rate_limit_exceeded");
    expect(limited.body.error.details).toMatchObject({ limit: 3, window: "1m" });
    expect(Number(limited.response.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(limited.response.headers.get("X-RateLimit-Remaining")).toBe("0");
    expect(await t.balance(org.id)).toBe(balance);
  });

  it("starts a new window each minute", async () => {
    const org = await t.org({ dollars: "1" });
    await usePlan(org.id, { requestsPerMinute: 1 });
    let clock = Date.parse("2026-11-20T15:00:30Z");
    const ctx = createApiContext(t.prisma, { now: () => new Date(clock) });
    const path = `/v1/float-outstanding?ticker=${ticker}`;
    expect((await t.request(path, { key: org.key, ctx })).status).toBe(200);
    expect((await t.request(path, { key: org.key, ctx })).status).toBe(429);
    clock += 30_000;
    expect((await t.request(path, { key: org.key, ctx })).status).toBe(200);
  });
});

describe("check order", () => {
  it("401 before 429: a disabled key of an organization over its limit", async () => {
    const org = await t.org({ dollars: "1", keys: 2 });
    await usePlan(org.id, { requestsPerMinute: 1 });
    await t.request(`/v1/offerings?ticker=${ticker}`, { key: org.keys[0]!.key });
    await setKeyStatus(t.prisma, org.keys[1]!.id, "DISABLED", { actorLabel: "test" });
    expect((await t.json(`/v1/offerings?ticker=${ticker}`, { key: org.keys[1]!.key })).body.error.code).toBe("api_key_disabled");
    expect((await t.json(`/v1/offerings?ticker=${ticker}`)).body.error.code).toBe("missing_api_key");
  });

  it("429 before 402: over the limit and out of credit", async () => {
    const org = await t.org({ dollars: "0" });
    await usePlan(org.id, { requestsPerMinute: 1 });
    expect((await t.json(`/v1/offerings?ticker=${ticker}`, { key: org.key })).body.error.code).toBe("insufficient_credits");
    expect((await t.json(`/v1/offerings?ticker=${ticker}`, { key: org.key })).body.error.code).toBe("rate_limit_exceeded");
  });

  it("403 before 429 and 402: not permitted, over the limit and out of credit", async () => {
    const org = await t.org({ plan: "trial", dollars: "0" });
    await usePlan(org.id, { requestsPerMinute: 1 });
    await t.request(`/v1/offerings?ticker=${ticker}`, { key: org.key });
    expect((await t.json(`/v1/dilution-data?ticker=${ticker}`, { key: org.key })).body.error.code).toBe("endpoint_not_allowed");
  });

  it("429 before 400: a bad parameter over the limit", async () => {
    const org = await t.org({ dollars: "1" });
    await usePlan(org.id, { requestsPerMinute: 1 });
    await t.request(`/v1/offerings?ticker=${ticker}`, { key: org.key });
    expect((await t.json(`/v1/offerings?ticker=bad!`, { key: org.key })).body.error.code).toBe("rate_limit_exceeded");
  });

  it("402 before the trial ticker limit: out of credit and over the tickers", async () => {
    const org = await t.org({ plan: "trial", dollars: "1" });
    await usePlan(org.id, { dailyTickerLimit: 1 });
    const other = SAMPLE_SHOWCASE.manyOfferings;
    expect((await t.request(`/v1/offerings?ticker=${ticker}`, { key: org.key })).status).toBe(200);
    expect((await t.json(`/v1/offerings?ticker=${other}`, { key: org.key })).body.error.code).toBe("trial_ticker_limit");
    await t.prisma.organization.update({ where: { id: org.id }, data: { balanceNanos: 0n } });
    expect((await t.json(`/v1/offerings?ticker=${other}`, { key: org.key })).body.error.code).toBe("insufficient_credits");
  });
});

describe("credits and metering", () => {
  it("charges exactly the body's UTF-8 bytes × the price, and says so", async () => {
    const org = await t.org({ dollars: "1" });
    for (const endpoint of ENDPOINT_LIST) {
      const before = await t.balance(org.id);
      const response = await t.request(`${endpoint.path}?ticker=${ticker}&limit=5`, { key: org.key });
      expect(response.status, endpoint.name).toBe(200);
      const bytes = new Uint8Array(await response.arrayBuffer()).byteLength;
      const cost = chargeForBytes(bytes, endpoint.defaultPricePerGbNanos);
      expect(response.headers.get("X-Cost-Dollars")).toBe(formatDollars(cost));
      expect(response.headers.get("X-Balance-Dollars")).toBe(formatDollars(before - cost));
      expect(Number(response.headers.get("X-Billable-Bytes"))).toBe(bytes);
      expect(await t.balance(org.id)).toBe(before - cost);
      const requestId = response.headers.get("X-Request-ID")!;
      const [entry, event] = await Promise.all([
        t.prisma.creditLedgerEntry.findFirstOrThrow({ where: { reference: requestId } }),
        t.prisma.usageEvent.findUniqueOrThrow({ where: { requestId } }),
      ]);
      expect(entry).toMatchObject({ kind: "USAGE", amountNanos: -cost, balanceAfterNanos: before - cost });
      expect(event).toMatchObject({ endpoint: endpoint.name, statusCode: 200, bytes, costNanos: cost, tickers: [ticker], apiKeyId: org.keyId });
    }
    const totals = await ledgerTotals(t.prisma, org.id);
    expect(totals.ledgerSumNanos).toBe(totals.balanceNanos);
  });

  it("include=source adds each record's evidence, is billed for its bytes, and /estimate bounds it", async () => {
    const org = await t.org({ dollars: "1" });
    for (const endpoint of ENDPOINT_LIST) {
      const query = `ticker=${ticker}&limit=3`;
      const plain = await t.request(`${endpoint.path}?${query}`, { key: org.key });
      const sourced = await t.request(`${endpoint.path}?${query}&include=source`, { key: org.key });
      const plainBody = (await plain.json()) as { results: Record<string, unknown>[] };
      const text = await sourced.text();
      const body = JSON.parse(text) as { results: Record<string, unknown>[] };
      expect(body.results.length, endpoint.name).toBe(plainBody.results.length);
      for (const record of body.results) {
        // The sample dataset is labelled as such; ratings list their sources.
        const evidence = endpoint.name === "dilution-rating" ? (record.sources as unknown[])[0] : record.source;
        expect(evidence, endpoint.name).toMatchObject({ type: "sample" });
      }
      const bytes = new TextEncoder().encode(text).byteLength;
      expect(Number(sourced.headers.get("X-Billable-Bytes"))).toBe(bytes);
      expect(Number(plain.headers.get("X-Billable-Bytes"))).toBeLessThan(bytes);
      const estimate = await t.json(`/estimate?endpoint=${endpoint.name}&${query}&include=source`);
      const plainEstimate = await t.json(`/estimate?endpoint=${endpoint.name}&${query}`);
      expect(estimate.body.estimated_bytes, endpoint.name).toBeGreaterThanOrEqual(bytes);
      expect(estimate.body.estimated_bytes, endpoint.name).toBeLessThanOrEqual(ESTIMATE_FACTOR * bytes);
      expect(estimate.body.estimated_bytes, endpoint.name).toBeGreaterThan(plainEstimate.body.estimated_bytes);
      expect(parseDollars(estimate.body.estimated_cost_dollars)).toBeGreaterThanOrEqual(parseDollars(sourced.headers.get("X-Cost-Dollars")!));
    }
    const unknown = await t.json(`/v1/offerings?ticker=${ticker}&include=filings`, { key: org.key });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toMatchObject({ parameter: "include" });
  });

  it("counts multi-byte characters as bytes, not characters", async () => {
    const org = await t.org({ dollars: "1" });
    const response = await t.request(`/v1/nasdaq-compliance?ticker=${SAMPLE_SHOWCASE.manyDeficiencies}&limit=20`, { key: org.key });
    const text = await response.clone().text();
    const bytes = (await response.arrayBuffer()).byteLength;
    expect(Number(response.headers.get("X-Billable-Bytes"))).toBe(bytes);
    expect(bytes).toBeGreaterThanOrEqual(text.length);
  });

  it("answers 402 before producing data when the balance is short, and charges nothing", async () => {
    const org = await t.org({ dollars: "0.000001" });
    const { status, body, response } = await t.json(`/v1/offerings?ticker=${SAMPLE_SHOWCASE.manyOfferings}&limit=100`, { key: org.key });
    expect(status).toBe(402);
    expectEnvelope(body, response, "insufficient_credits");
    expect(body.error.details).toMatchObject({ balance_dollars: "$0.000001", unit: "dollars" });
    expect(parseDollars(body.error.details.estimated_cost_dollars)).toBeGreaterThan(parseDollars("0.000001"));
    expect(body).not.toHaveProperty("results");
    expect(await t.balance(org.id)).toBe(parseDollars("0.000001"));
  });

  it("never charges a failed request, and records every keyed request", async () => {
    const org = await t.org({ plan: "trial", dollars: "1" });
    const before = await t.balance(org.id);
    const failures = [
      `/v1/offerings?ticker=bad!`,
      `/v1/offerings`,
      `/v1/offerings?ticker=${ticker}&limit=1000`,
      `/v1/dilution-data?ticker=${ticker}`,
      `/v1/offerings?ticker=${ticker}&colour=red`,
    ];
    const statuses = [];
    for (const path of failures) statuses.push((await t.request(path, { key: org.key })).status);
    expect(statuses).toEqual([400, 400, 400, 403, 400]);
    expect(await t.balance(org.id)).toBe(before);
    const events = await t.prisma.usageEvent.findMany({ where: { orgId: org.id }, orderBy: { id: "asc" } });
    expect(events.map((e) => [e.statusCode, e.costNanos])).toEqual(statuses.map((s) => [s, 0n]));
    expect(events.map((e) => e.errorCode)).toEqual(["invalid_parameter", "missing_parameter", "invalid_parameter", "endpoint_not_allowed", "invalid_parameter"]);
    expect(await t.prisma.creditLedgerEntry.count({ where: { orgId: org.id, kind: "USAGE" } })).toBe(0);
  });

  it("refuses every paid request while the balance is negative", async () => {
    const org = await t.org({ dollars: "0" });
    await t.prisma.organization.update({ where: { id: org.id }, data: { balanceNanos: -5n } });
    expect((await t.json(`/v1/float-outstanding?ticker=${ticker}`, { key: org.key })).body.error).toMatchObject({
      code: "insufficient_credits",
      details: { balance_dollars: "-$0.000000005" },
    });
  });
});

describe("trial accounts", () => {
  it("limit unique tickers per endpoint per day; repeats and other endpoints are free of it", async () => {
    const org = await t.org({ plan: "trial", dollars: "1" });
    await usePlan(org.id, { dailyTickerLimit: 2 });
    // Tickers with records on both endpoints: an answer without records is free and uses no trial ticker.
    const tickers = (
      await t.prisma.company.findMany({ where: { offerings: { some: {} }, registrations: { some: {} } }, take: 3, orderBy: { ticker: "asc" } })
    ).map((c) => c.ticker);
    expect((await t.request(`/v1/offerings?ticker=${tickers[0]}`, { key: org.key })).status).toBe(200);
    expect((await t.request(`/v1/offerings?ticker=${tickers[1]}`, { key: org.key })).status).toBe(200);
    const before = await t.balance(org.id);
    const limited = await t.json(`/v1/offerings?ticker=${tickers[2]}`, { key: org.key });
    expect(limited.status).toBe(429);
    expectEnvelope(limited.body, limited.response, "trial_ticker_limit");
    expect(limited.body.error.details).toMatchObject({ endpoint: "offerings", limit: 2, used: 2 });
    expect(new Date(limited.body.error.details.resets_at).getTime()).toBeGreaterThan(Date.now());
    expect(await t.balance(org.id)).toBe(before);
    expect((await t.request(`/v1/offerings?ticker=${tickers[0]}`, { key: org.key })).status).toBe(200);
    expect((await t.request(`/v1/registrations?ticker=${tickers[2]}`, { key: org.key })).status).toBe(200);
    const both = await t.json(`/v1/registrations?ticker=${tickers[0]},${tickers[1]}`, { key: org.key });
    expect(both.status).toBe(429);
  });

  it("do not apply to paid plans", async () => {
    const org = await t.org({ plan: "retail", dollars: "1" });
    const tickers = (await t.prisma.company.findMany({ take: 25, orderBy: { ticker: "asc" } })).map((c) => c.ticker);
    await usePlan(org.id, { dailyTickerLimit: 1 });
    for (const symbol of tickers.slice(0, 5)) expect((await t.request(`/v1/offerings?ticker=${symbol}`, { key: org.key })).status).toBe(200);
  });
});

describe("responses", () => {
  it("use the spec's envelope; an unknown ticker gives 200 with no results", async () => {
    const org = await t.org({ dollars: "1" });
    const { status, body } = await t.json(`/v1/registrations?ticker=QQQQQQ`, { key: org.key });
    expect(status).toBe(200);
    expect(body).toEqual({ status: "success", count: 0, has_more: false, page: 1, limit: 10, results: [] });
  });

  it("an answer without records costs nothing: no charge, no ledger entry, a usage event at $0", async () => {
    const org = await t.org({ dollars: "1" });
    const before = await t.balance(org.id);
    const { status, body, response } = await t.json(`/v1/dilution-rating?ticker=NOPE`, { key: org.key });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: "success", count: 0, results: [] });
    expect(parseDollars(response.headers.get("X-Cost-Dollars")!)).toBe(0n);
    expect(response.headers.get("X-Balance-Dollars")).toBe(formatDollars(before));
    expect(response.headers.get("X-Billable-Bytes")).toBe("0");
    expect(response.headers.get("X-Unknown-Tickers")).toBe("NOPE");
    expect(await t.balance(org.id)).toBe(before);
    expect(await t.prisma.creditLedgerEntry.count({ where: { orgId: org.id, kind: "USAGE" } })).toBe(0);
    const event = await t.prisma.usageEvent.findUniqueOrThrow({ where: { requestId: response.headers.get("X-Request-ID")! } });
    expect(event).toMatchObject({ statusCode: 200, errorCode: null, costNanos: 0n, tickers: ["NOPE"] });
    // A page past the end has no records either; an organization without credits gets it too.
    const empty = await t.org({ dollars: "0" });
    const past = await t.json(`/v1/offerings?ticker=${ticker}&page=1000`, { key: empty.key });
    expect(past.status).toBe(200);
    expect(past.body.count).toBe(0);
    expect(past.response.headers.get("X-Unknown-Tickers")).toBeNull();
    expect(parseDollars(past.response.headers.get("X-Cost-Dollars")!)).toBe(0n);
    const totals = await ledgerTotals(t.prisma, org.id);
    expect(totals.ledgerSumNanos).toBe(totals.balanceNanos);
  });

  it("names unknown tickers in X-Unknown-Tickers and charges only for the known ones' records", async () => {
    const org = await t.org({ dollars: "1" });
    const alone = await t.request(`/v1/dilution-rating?ticker=${ticker}`, { key: org.key });
    expect(alone.headers.get("X-Unknown-Tickers")).toBeNull();
    const before = await t.balance(org.id);
    const mixed = await t.request(`/v1/dilution-rating?ticker=${ticker.toLowerCase()},nope,Zz.9`, { key: org.key });
    expect(mixed.status).toBe(200);
    expect(mixed.headers.get("X-Unknown-Tickers")).toBe("NOPE,ZZ.9");
    const text = await mixed.text();
    expect(text).toBe(await alone.text());
    expect(mixed.headers.get("X-Billable-Bytes")).toBe(alone.headers.get("X-Billable-Bytes"));
    expect(mixed.headers.get("X-Cost-Dollars")).toBe(alone.headers.get("X-Cost-Dollars"));
    const cost = chargeForBytes(new TextEncoder().encode(text).byteLength, ENDPOINTS["dilution-rating"].defaultPricePerGbNanos);
    expect(await t.balance(org.id)).toBe(before - cost);
    const event = await t.prisma.usageEvent.findUniqueOrThrow({ where: { requestId: mixed.headers.get("X-Request-ID")! } });
    expect(event).toMatchObject({ costNanos: cost, tickers: [ticker] });
  });

  it("upper-cases tickers and accepts a comma-separated list", async () => {
    const org = await t.org({ dollars: "1" });
    const { body } = await t.json(`/v1/dilution-rating?ticker=${ticker.toLowerCase()},${SAMPLE_SHOWCASE.lowRisk}`, { key: org.key });
    expect(body.results.map((r: { ticker: string }) => r.ticker).sort()).toEqual([ticker, SAMPLE_SHOWCASE.lowRisk].sort());
  });

  it("walk every page exactly once with has_more exact", async () => {
    const org = await t.org({ dollars: "10" });
    const symbol = SAMPLE_SHOWCASE.manyOfferings;
    const total = await t.prisma.offering.count({ where: { company: { ticker: symbol } } });
    expect(total).toBeGreaterThan(100);
    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const { body } = await t.json(`/v1/offerings?ticker=${symbol}&limit=40&page=${page}`, { key: org.key });
      expect(body.page).toBe(page);
      expect(body.count).toBe(body.results.length);
      seen.push(...body.results.map((r: { accession_number: string }) => r.accession_number));
      expect(body.has_more).toBe(seen.length < total);
      if (!body.has_more) break;
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    const max = await t.json(`/v1/offerings?ticker=${symbol}&limit=100`, { key: org.key });
    expect(max.body.count).toBe(100);
    const over = await t.json(`/v1/offerings?ticker=${symbol}&limit=101`, { key: org.key });
    expect(over.body.error).toMatchObject({ code: "invalid_parameter", details: { parameter: "limit" } });
  });

  it("filter registrations by effective_status and by filing date range", async () => {
    const org = await t.org({ dollars: "10" });
    const symbol = SAMPLE_SHOWCASE.manyRegistrations;
    const all = (await t.json(`/v1/registrations?ticker=${symbol}&limit=100`, { key: org.key })).body.results;
    const effective = (await t.json(`/v1/registrations?ticker=${symbol}&limit=100&effective_status=true`, { key: org.key })).body.results;
    expect(effective.length).toBeGreaterThan(0);
    expect(effective.length).toBeLessThan(all.length);
    expect(effective.every((r: { is_effective: boolean }) => r.is_effective)).toBe(true);
    const dates = all.map((r: { filed_date: string }) => r.filed_date).sort();
    const from = dates[10];
    const to = dates[30];
    const ranged = (await t.json(`/v1/registrations?ticker=${symbol}&limit=100&date_from=${from}&date_to=${to}`, { key: org.key })).body.results;
    const expected = (
      await t.prisma.registration.count({
        where: { company: { ticker: symbol }, filedAt: { gte: new Date(`${from}T00:00:00Z`), lte: new Date(`${to}T00:00:00Z`) } },
      })
    );
    expect(ranged).toHaveLength(Math.min(expected, 100));
    expect(ranged.every((r: { filed_date: string }) => r.filed_date >= from && r.filed_date <= to)).toBe(true);
    const backwards = await t.json(`/v1/registrations?ticker=${symbol}&date_from=${to}&date_to=${from}`, { key: org.key });
    expect(backwards.body.error.details.parameter).toBe("date_from");
    const unsupported = await t.json(`/v1/float-outstanding?ticker=${symbol}&date_from=${from}`, { key: org.key });
    expect(unsupported.body.error).toMatchObject({ code: "invalid_parameter", details: { parameter: "date_from" } });
  });

  it("explain bad parameters with the parameter's name", async () => {
    const org = await t.org({ dollars: "1" });
    const cases: [string, string, string][] = [
      ["/v1/offerings", "missing_parameter", "ticker"],
      ["/v1/offerings?ticker=", "missing_parameter", "ticker"],
      ["/v1/offerings?ticker=A;DROP", "invalid_parameter", "ticker"],
      ["/v1/offerings?ticker=AAA&page=0", "invalid_parameter", "page"],
      ["/v1/offerings?ticker=AAA&page=1.5", "invalid_parameter", "page"],
      ["/v1/offerings?ticker=AAA&limit=-1", "invalid_parameter", "limit"],
      ["/v1/offerings?ticker=AAA&ticker=BBB", "invalid_parameter", "ticker"],
      ["/v1/offerings?ticker=AAA&date_from=2026-02-30", "invalid_parameter", "date_from"],
      ["/v1/registrations?ticker=AAA&effective_status=maybe", "invalid_parameter", "effective_status"],
      // punctuation alone is no ticker: these were once charged as empty 200s
      ["/v1/offerings?ticker=...", "invalid_parameter", "ticker"],
      ["/v1/offerings?ticker=-", "invalid_parameter", "ticker"],
      ["/v1/offerings?ticker=AAA,.-", "invalid_parameter", "ticker"],
    ];
    for (const [path, code, parameter] of cases) {
      const { status, body } = await t.json(path, { key: org.key });
      expect(status, path).toBe(400);
      expect(body.error.code, path).toBe(code);
      expect(body.error.details.parameter, path).toBe(parameter);
      expect(body.error.message.length, path).toBeGreaterThan(10);
    }
    expect(await t.balance(org.id)).toBe(1_000_000_000n);
  });
});

describe("fields=", () => {
  // Two fields of each endpoint's record, named out of order.
  const chosen = (name: keyof typeof API_RECORD_FIELDS) => {
    const all: readonly string[] = API_RECORD_FIELDS[name];
    return [all[all.length - 1]!, all[0]!];
  };

  it("returns only those fields, in record order, billed and estimated as the smaller body", async () => {
    const org = await t.org({ dollars: "1" });
    for (const endpoint of ENDPOINT_LIST) {
      const fields = chosen(endpoint.name);
      const query = `ticker=${ticker}&limit=5`;
      const full = await t.request(`${endpoint.path}?${query}`, { key: org.key });
      const fullBody = (await full.json()) as { results: Record<string, unknown>[] };
      const before = await t.balance(org.id);
      const projected = await t.request(`${endpoint.path}?${query}&fields=${fields.join(",")}`, { key: org.key });
      expect(projected.status, endpoint.name).toBe(200);
      const text = await projected.text();
      const body = JSON.parse(text) as { count: number; results: Record<string, unknown>[] };
      expect(body.count, endpoint.name).toBe(fullBody.results.length);
      expect(body.count, endpoint.name).toBeGreaterThan(0);
      for (const [index, record] of body.results.entries()) {
        const original = fullBody.results[index]!;
        // Record order (the list was out of order); an absent optional field stays absent.
        expect(Object.keys(record), endpoint.name).toEqual(Object.keys(original).filter((name) => fields.includes(name)));
        expect(record, endpoint.name).toEqual(Object.fromEntries(Object.entries(original).filter(([name]) => fields.includes(name))));
      }

      const bytes = new TextEncoder().encode(text).byteLength;
      const cost = chargeForBytes(bytes, endpoint.defaultPricePerGbNanos);
      expect(Number(projected.headers.get("X-Billable-Bytes")), endpoint.name).toBe(bytes);
      expect(bytes, endpoint.name).toBeLessThan(Number(full.headers.get("X-Billable-Bytes")));
      expect(projected.headers.get("X-Cost-Dollars")).toBe(formatDollars(cost));
      const entry = await t.prisma.creditLedgerEntry.findFirstOrThrow({ where: { reference: projected.headers.get("X-Request-ID")! } });
      expect(entry.amountNanos, endpoint.name).toBe(-cost);
      expect(await t.balance(org.id)).toBe(before - cost);

      const estimate = await t.json(`/estimate?endpoint=${endpoint.name}&${query}&fields=${fields.join(",")}`);
      const fullEstimate = await t.json(`/estimate?endpoint=${endpoint.name}&${query}`);
      expect(estimate.body.estimated_bytes, endpoint.name).toBeGreaterThanOrEqual(bytes);
      expect(estimate.body.estimated_bytes, endpoint.name).toBeLessThanOrEqual(ESTIMATE_FACTOR * bytes);
      expect(estimate.body.estimated_bytes, endpoint.name).toBeLessThan(fullEstimate.body.estimated_bytes);
      expect(parseDollars(estimate.body.estimated_cost_dollars), endpoint.name).toBeGreaterThanOrEqual(cost);
    }
  });

  it("is described by /endpoints with each endpoint's accepted names", async () => {
    const { body } = await t.json("/endpoints");
    for (const endpoint of ENDPOINT_LIST) {
      const entry = body.endpoints.find((e: { name: string }) => e.name === endpoint.name);
      const fields = entry.parameters.find((p: { name: string }) => p.name === "fields");
      expect(fields, endpoint.name).toMatchObject({ type: "string", required: false, values: acceptedFields(endpoint) });
    }
  });

  it("returns the evidence field with include=source when listed", async () => {
    const org = await t.org({ dollars: "1" });
    const { status, body } = await t.json(`/v1/registrations?ticker=${ticker}&include=source&fields=source,form_type`, { key: org.key });
    expect(status).toBe(200);
    for (const record of body.results) expect(Object.keys(record)).toEqual(["form_type", "source"]);
    const rating = await t.json(`/v1/dilution-rating?ticker=${ticker}&include=source&fields=sources`, { key: org.key });
    expect(Object.keys(rating.body.results[0])).toEqual(["sources"]);
  });

  it("never serves a cached full body for a projected request, or the reverse", async () => {
    const org = await t.org({ dollars: "1" });
    const ctx = createApiContext(t.prisma); // an empty body cache
    const path = `/v1/dilution-rating?ticker=${ticker}`;
    const keys = async (query: string) =>
      Object.keys((await t.json(`${path}${query}`, { key: org.key, ctx })).body.results[0]).join(",");
    const full = API_RECORD_FIELDS["dilution-rating"].join(",");
    expect(await keys("")).toBe(full);
    expect(await keys("&fields=ticker,dilution")).toBe("ticker,dilution");
    expect(await keys("&fields=dilution,ticker")).toBe("ticker,dilution");
    expect(await keys("&fields=ticker")).toBe("ticker");
    expect(await keys("")).toBe(full);
    expect(await keys("&fields=ticker,dilution")).toBe("ticker,dilution");
  });

  it("is honoured by ticker_count estimates: one sampled request per ticker, each projected", async () => {
    const [first] = await spreadTickers(t.prisma, 1);
    const org = await t.org({ dollars: "1" });
    const fields = "ticker,overall_offering_risk";
    const real = await t.request(`/v1/dilution-rating?ticker=${first}&fields=${fields}`, { key: org.key });
    const estimate = (await t.json(`/estimate?endpoint=dilution-rating&ticker_count=1&fields=${fields}`)).body;
    const billed = Number(real.headers.get("X-Billable-Bytes"));
    expect(estimate.estimated_bytes).toBeGreaterThanOrEqual(billed);
    expect(estimate.estimated_bytes).toBeLessThanOrEqual(ESTIMATE_FACTOR * billed);
    expect(estimate.estimated_bytes).toBe((await t.json(`/estimate?endpoint=dilution-rating&ticker=${first}&fields=${fields}`)).body.estimated_bytes);
    expect(parseDollars(estimate.estimated_cost_dollars)).toBeGreaterThanOrEqual(parseDollars(real.headers.get("X-Cost-Dollars")!));
    const full = (await t.json(`/estimate?endpoint=dilution-rating&ticker_count=10`)).body;
    const projected = (await t.json(`/estimate?endpoint=dilution-rating&ticker_count=10&fields=${fields}`)).body;
    expect(projected.records_returned).toBe(full.records_returned);
    expect(projected.estimated_bytes).toBeLessThan(full.estimated_bytes / 5);
  });

  it("refuses bad lists with 400 invalid_parameter and charges nothing", async () => {
    const org = await t.org({ dollars: "1" });
    const cases: [string, string][] = [
      ["fields=ticker,colour", 'unknown field "colour"'],
      ["fields=Ticker", "case-sensitive"],
      ["fields=", "at least one field"],
      ["fields=ticker,,dilution", "empty field"],
      ["fields=ticker&fields=dilution", "more than once"],
      ["fields=ticker,sources", "include=source"],
      ["fields=ticker&include=source", "fields leaves out"],
    ];
    for (const [query, reason] of cases) {
      const { status, body } = await t.json(`/v1/dilution-rating?ticker=${ticker}&${query}`, { key: org.key });
      expect(status, query).toBe(400);
      expect(body.error, query).toMatchObject({ code: "invalid_parameter", details: { parameter: "fields" } });
      expect(body.error.message, query).toContain(reason);
      const estimate = await t.json(`/estimate?endpoint=dilution-rating&ticker=${ticker}&${query}`);
      expect(estimate.status, query).toBe(400);
      expect(estimate.body.error.details.parameter, query).toBe("fields");
    }
    expect(await t.balance(org.id)).toBe(1_000_000_000n);
  });
});

describe("/estimate", () => {
  it("predicts the records the real request returns, and bounds its bill (never below, within the stated factor), for every endpoint, free", async () => {
    const org = await t.org({ dollars: "5" });
    for (const endpoint of ENDPOINT_LIST) {
      for (const symbol of [ticker, SAMPLE_SHOWCASE.lowRisk, `${ticker},${SAMPLE_SHOWCASE.lowRisk}`]) {
        const estimate = (await t.json(`/estimate?endpoint=${endpoint.name}&ticker=${symbol}&limit=25`)).body;
        const real = await t.request(`${endpoint.path}?ticker=${symbol}&limit=25`, { key: org.key });
        const realBody = await real.json();
        const billed = Number(real.headers.get("X-Billable-Bytes"));
        expect(estimate.records_returned, endpoint.name).toBe(realBody.count);
        expect(estimate.estimated_bytes, endpoint.name).toBeGreaterThanOrEqual(billed);
        expect(estimate.estimated_bytes, endpoint.name).toBeLessThanOrEqual(ESTIMATE_FACTOR * billed);
        expect(parseDollars(estimate.estimated_cost_dollars), endpoint.name).toBeGreaterThanOrEqual(parseDollars(real.headers.get("X-Cost-Dollars")!));
        expect(estimate).toMatchObject({
          endpoint: endpoint.name,
          ticker_count: symbol.split(",").length,
          limit: 25,
          supports_date_range: endpoint.supportsDateRange,
          price_per_gb_dollars: Number(endpoint.defaultPricePerGbNanos) / 1e9,
          unknown_tickers: [],
        });
        expect(estimate.estimated_cost_dollars).toMatch(/^\$\d+\.\d+$/);
      }
    }
  });

  it("names unknown tickers and prices them at nothing", async () => {
    const nope = (await t.json(`/estimate?endpoint=dilution-rating&ticker=NOPE`)).body;
    expect(nope).toMatchObject({ ticker_count: 1, records_returned: 0, estimated_bytes: 0, unknown_tickers: ["NOPE"] });
    expect(parseDollars(nope.estimated_cost_dollars)).toBe(0n);
    const alone = (await t.json(`/estimate?endpoint=dilution-rating&ticker=${ticker}`)).body;
    const mixed = (await t.json(`/estimate?endpoint=dilution-rating&ticker=${ticker},nope`)).body;
    expect(mixed).toMatchObject({
      ticker_count: 2,
      records_returned: alone.records_returned,
      estimated_bytes: alone.estimated_bytes,
      estimated_cost_dollars: alone.estimated_cost_dollars,
      unknown_tickers: ["NOPE"],
    });
  });

  it("estimates ticker_count sampled tickers", async () => {
    const one = (await t.json(`/estimate?endpoint=dilution-rating&ticker_count=1`)).body;
    const ten = (await t.json(`/estimate?endpoint=dilution-rating&ticker_count=10`)).body;
    expect(one.ticker_count).toBe(1);
    expect(ten.ticker_count).toBe(10);
    expect(ten.records_returned).toBe(10);
    expect(ten.estimated_bytes).toBeGreaterThan(one.estimated_bytes * 5);
    expect(parseDollars(ten.estimated_cost_dollars)).toBeGreaterThan(0n);
  });

  it("rejects unknown endpoints and malformed tickers with the error envelope", async () => {
    for (const [path, parameter] of [
      ["/estimate?endpoint=short-interest&ticker=AAA", "endpoint"],
      ["/estimate?ticker=AAA", "endpoint"],
      ["/estimate?endpoint=offerings&ticker=A%20B", "ticker"],
      ["/estimate?endpoint=offerings", "ticker"],
      ["/estimate?endpoint=offerings&ticker=AAA&ticker_count=3", "ticker_count"],
      ["/estimate?endpoint=offerings&ticker_count=0", "ticker_count"],
    ]) {
      const { status, body, response } = await t.json(path!);
      expect(status, path).toBe(400);
      expectEnvelope(body, response, body.error.code);
      expect(body.error.details.parameter, path).toBe(parameter);
    }
  });

  it("is limited per client IP so it cannot serve as a free scraper", async () => {
    const ctx = createApiContext(t.prisma, { estimateLimitPerMinute: 3 });
    // The address as our HTTP server stamps it (scripts/server.mjs), under the header name it chose.
    vi.stubEnv("CLIENT_ADDRESS_HEADER", "x-client-address-test");
    try {
      const headers = { "x-client-address-test": "203.0.113.9" };
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await t.request(`/estimate?endpoint=offerings&ticker=${ticker}`, { headers, ctx })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const other = await t.request(`/estimate?endpoint=offerings&ticker=${ticker}`, { headers: { "x-client-address-test": "203.0.113.10" }, ctx });
      expect(other.status).toBe(200);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("dilution-data: the parties of an issue", () => {
  it("serves the holders and the placement agent a filing names, each with its quote under include=source, null where none is named, and in fields=", async () => {
    const filed = {
      source_accession: "0000000001-25-000200",
      source_form: "8-K",
      source_filed_at: "2025-07-15",
      source_url: "https://www.sec.gov/Archives/edgar/data/1/000000000125000200/0000000001-25-000200-index.htm",
    };
    const quotes = {
      holders: "entered into a Securities Purchase Agreement with Example Capital Master Fund Ltd. (the “Purchaser”)",
      placement_agent: "H.C. Wainwright & Co., LLC acted as the exclusive placement agent.",
      shares_underlying: "warrants to purchase up to 500,000 shares of common stock",
    };
    const report = await importDataset(t.prisma, {
      companies: [{ ticker: "PRTY", name: "Parties Test Co", exchange: "Nasdaq" }],
      dilution_instruments: [
        { ticker: "PRTY", instrument_type: "warrant", name: "Warrants of 2025-07-14", issued_at: "2025-07-14", shares_underlying: 500_000, exercise_price_micros: 1_100_000, registered: false, holders: ["Example Capital Master Fund Ltd."], placement_agent: "H.C. Wainwright & Co., LLC", quotes, ...filed },
        { ticker: "PRTY", instrument_type: "warrant", name: "Warrants of 2025-03-03", issued_at: "2025-03-03", shares_underlying: 1_000_000, exercise_price_micros: 2_250_000, registered: false, ...filed },
      ],
    });
    try {
      expect(report.errors).toEqual([]);
      const org = await t.org({ dollars: "1" });
      const { status, body } = await t.json(`/v1/dilution-data?ticker=PRTY&include=source`, { key: org.key });
      expect(status).toBe(200);
      const [named, unnamed] = body.results;
      expect(named).toMatchObject({ name: "Warrants of 2025-07-14", holders: ["Example Capital Master Fund Ltd."], placement_agent: "H.C. Wainwright & Co., LLC" });
      expect(named.source).toMatchObject({ type: "sec_filing", accession_number: filed.source_accession, quotes });
      expect(unnamed).toMatchObject({ name: "Warrants of 2025-03-03", holders: null, placement_agent: null });
      expect(unnamed.source.quotes).toBeUndefined();

      const projected = await t.json(`/v1/dilution-data?ticker=PRTY&fields=holders,placement_agent`, { key: org.key });
      expect(projected.body.results).toEqual([
        { holders: ["Example Capital Master Fund Ltd."], placement_agent: "H.C. Wainwright & Co., LLC" },
        { holders: null, placement_agent: null },
      ]);
      const estimate = (await t.json(`/estimate?endpoint=dilution-data&ticker=PRTY&include=source`)).body;
      const billed = Number((await t.request(`/v1/dilution-data?ticker=PRTY&include=source`, { key: org.key })).headers.get("X-Billable-Bytes"));
      expect(estimate.estimated_bytes).toBeGreaterThanOrEqual(billed);
      expect(estimate.estimated_bytes).toBeLessThanOrEqual(ESTIMATE_FACTOR * billed);
    } finally {
      await t.prisma.company.delete({ where: { ticker: "PRTY" } });
    }
  });
});
