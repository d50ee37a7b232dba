import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargeForBytes, parseDollars } from "@/lib/money";
import { ensureDefaultPlans } from "@/lib/billing/plans";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { openTestDatabase } from "@/tests/support/database";
import { ENDPOINT_LIST, ENDPOINT_NAMES } from "@/lib/catalog";
import { fieldsExample, RATINGS_ONLY_FIELDS } from "@/components/docs/fields-example";
import { formatDollars } from "@/lib/money";
import { createApiContext } from "./context";
import { loadDocsData, PREFERRED_SAMPLE_TICKERS, SAMPLE_LIMIT } from "./docs";

let t: Testbed;
beforeAll(async () => {
  t = await openApiTestbed();
}, 120_000);
afterAll(() => t?.close());

describe("loadDocsData", () => {
  it("has a real sample response for every endpoint of the catalog, byte for byte what /v1 sends", async () => {
    const org = await t.org({ dollars: "1" });
    const docs = await loadDocsData(t.ctx);
    expect(docs.endpoints.map((d) => d.endpoint.name)).toEqual([...ENDPOINT_NAMES]);
    for (const doc of docs.endpoints) {
      const sample = doc.sample!;
      expect(sample, doc.endpoint.name).not.toBeNull();
      expect(sample.ticker).toBe(PREFERRED_SAMPLE_TICKERS[doc.endpoint.name]);
      expect(sample.params).toEqual({ ticker: sample.ticker, limit: SAMPLE_LIMIT });
      const body = JSON.parse(sample.body);
      expect(body).toMatchObject({ status: "success", page: 1, limit: SAMPLE_LIMIT, count: sample.recordCount });
      expect(sample.recordCount).toBeGreaterThan(0);
      expect(sample.bytes).toBe(Buffer.byteLength(sample.body, "utf8"));
      expect(sample.costNanos).toBe(chargeForBytes(sample.bytes, doc.pricePerGbNanos));

      const live = await t.json(`${doc.endpoint.path}?ticker=${sample.ticker}&limit=${SAMPLE_LIMIT}`, { key: org.key });
      expect(live.status).toBe(200);
      expect(live.text).toBe(sample.body);
      expect(live.response.headers.get("X-Billable-Bytes")).toBe(String(sample.bytes));

      expect(doc.typical!.limit).toBe(10);
      expect(doc.typical!.costNanos).toBe(chargeForBytes(doc.typical!.bytes, doc.pricePerGbNanos));
      expect(doc.typical!.bytes).toBeGreaterThanOrEqual(sample.bytes);
    }
  });

  it("the fields= example is what /v1 sends and charges for the sample request with those fields", async () => {
    const org = await t.org({ dollars: "1" });
    const docs = await loadDocsData(t.ctx);
    const rating = docs.endpoints.find((d) => d.endpoint.name === "dilution-rating")!;
    const example = fieldsExample(rating)!;
    const { ticker, limit, fields } = example.params;
    expect(fields).toBe(RATINGS_ONLY_FIELDS.join(","));
    const live = await t.json(`/v1/dilution-rating?ticker=${ticker}&limit=${limit}&fields=${fields}`, { key: org.key });
    expect(live.status).toBe(200);
    expect(live.text).toBe(example.body);
    expect(Object.keys(live.body.results[0])).toEqual([...RATINGS_ONLY_FIELDS]);
    expect(live.response.headers.get("X-Billable-Bytes")).toBe(String(example.bytes));
    expect(live.response.headers.get("X-Cost-Dollars")).toBe(formatDollars(example.costNanos));
    expect(example.full).toEqual({ bytes: rating.sample!.bytes, costNanos: rating.sample!.costNanos });
    expect(example.bytes).toBeLessThan(example.full.bytes);
    expect(example.costNanos).toBeLessThan(example.full.costNanos);
    console.log(`[docs] fields example ${ticker}: full ${example.full.bytes} B ${formatDollars(example.full.costNanos)}; fields ${example.bytes} B ${formatDollars(example.costNanos)}`);
  });

  it("shows the database's prices, so an administrator's change appears", async () => {
    const before = await loadDocsData(createApiContext(t.prisma));
    for (const doc of before.endpoints) expect(doc.pricePerGbNanos).toBe(doc.endpoint.defaultPricePerGbNanos);
    await t.prisma.priceChange.create({ data: { endpoint: "offerings", pricePerGbNanos: parseDollars("31.5"), effectiveAt: new Date(Date.now() - 1000) } });
    try {
      const after = await loadDocsData(createApiContext(t.prisma));
      const offerings = after.endpoints.find((d) => d.endpoint.name === "offerings")!;
      expect(offerings.pricePerGbNanos).toBe(parseDollars("31.5"));
      expect(offerings.sample!.costNanos).toBe(chargeForBytes(offerings.sample!.bytes, parseDollars("31.5")));
    } finally {
      await t.prisma.priceChange.deleteMany({ where: { endpoint: "offerings" } });
    }
  });

  it("lists the standard plans with their limits, in order", async () => {
    const docs = await loadDocsData(t.ctx);
    expect(docs.plans.map((p) => [p.slug, p.requestsPerMinute, p.dailyTickerLimit])).toEqual([
      ["trial", 60, 50],
      ["retail", 200, null],
      ["enterprise", 1000, null],
    ]);
    expect(docs.estimateLimitPerMinute).toBe(t.ctx.estimateLimitPerMinute);
  });
});

describe("loadDocsData on a database without records", () => {
  it("invents nothing: no sample, no typical cost, prices still shown", async () => {
    const db = await openTestDatabase();
    try {
      await ensureDefaultPlans(db.prisma);
      const docs = await loadDocsData(createApiContext(db.prisma));
      expect(docs.endpoints).toHaveLength(ENDPOINT_LIST.length);
      for (const doc of docs.endpoints) {
        expect(doc.sample).toBeNull();
        expect(doc.typical).toBeNull();
        expect(doc.pricePerGbNanos).toBe(doc.endpoint.defaultPricePerGbNanos);
      }
    } finally {
      await db.close();
    }
  });
});
