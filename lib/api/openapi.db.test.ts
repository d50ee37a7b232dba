import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SAMPLE_SHOWCASE } from "@/lib/data/sample";
import { notifyAccessChanged } from "@/lib/keys/invalidation";
import { setKeyStatus } from "@/lib/keys/manage";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { ENDPOINT_LIST } from "@/lib/catalog";
import { createApiContext, type ApiContext } from "./context";
import { describeParameters } from "./describe";
import { ERROR_CODES } from "./errors";
import { acceptedFields } from "./fields";
import { handleApiRequest } from "./handler";
import { buildOpenApiDocument } from "./openapi";
import { PriceBook } from "./prices";

/**
 * The OpenAPI document: structurally sound, complete against the catalog, and
 * true: real responses of every endpoint, success and error, validate against
 * the schema and headers it documents for that path and status.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SERVER = "http://api.test";
const DOC_ID = "https://openapi.test/openapi.json";
const doc = buildOpenApiDocument(SERVER) as Json;

// ───────────────────────────── document helpers ─────────────────────────────

const escapePointer = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

function resolvePointer(pointer: string): unknown {
  if (!pointer.startsWith("#/")) throw new Error(`not a local reference: ${pointer}`);
  let node: unknown = doc;
  for (const raw of pointer.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !(key in node)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

/** Follows $ref (any depth) to the object it names. */
function deref<T = Json>(node: unknown): T {
  let current = node as Json;
  for (let hops = 0; current && typeof current.$ref === "string"; hops++) {
    if (hops > 10) throw new Error("reference loop");
    current = resolvePointer(current.$ref) as Json;
  }
  return current as T;
}

/** Every value under the document, with its JSON pointer. */
function* walk(node: unknown, pointer = "#"): Generator<[string, unknown]> {
  yield [pointer, node];
  if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) yield* walk(value, `${pointer}/${escapePointer(key)}`);
  }
}

/** Pointers of every schema the document holds (components, parameters, headers, responses). */
function schemaPointers(): string[] {
  const pointers = Object.keys(doc.components.schemas).map((name) => `#/components/schemas/${escapePointer(name)}`);
  for (const [pointer] of walk(doc)) {
    if (pointer.endsWith("/schema") && !pointer.startsWith("#/components/schemas/")) pointers.push(pointer);
  }
  return pointers;
}

/** Paths the catalog has and the document lacks (or without a GET that answers 200). */
function missingEndpoints(document: Json): string[] {
  return ENDPOINT_LIST.filter((e) => !document.paths?.[e.path]?.get?.responses?.["200"]).map((e) => e.name);
}

// ───────────────────────────── validation of real responses ─────────────────────────────

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(doc, DOC_ID);
const validators = new Map<string, ValidateFunction>();
function validatorAt(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `${DOC_ID}${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

/** The documented response for a real request: its path's operation, or NotFound for unknown paths. */
function documentedResponse(pathname: string, status: number): { pointer: string; response: Json } {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (!doc.paths[path]) {
    expect(status, `undocumented path ${path}`).toBe(404);
    return { pointer: "#/components/responses/NotFound", response: doc.components.responses.NotFound };
  }
  const pointer = `#/paths/${escapePointer(path)}/get/responses/${status}`;
  const response = resolvePointer(pointer) as Json | undefined;
  expect(response, `${path} does not document status ${status}`).toBeDefined();
  return typeof response!.$ref === "string" ? { pointer: response!.$ref, response: deref(response) } : { pointer, response: response! };
}

function headerValue(raw: string, schema: Json): unknown {
  if (schema.type === "integer" || schema.type === "number") {
    expect(raw, "numeric header").toMatch(/^-?\d+(\.\d+)?$/);
    return Number(raw);
  }
  return raw;
}

const seen = { statuses: new Set<string>(), errorCodes: new Set<string>(), records: new Map<string, number>() };

/** Validates a response's status, body and headers against the document; returns the body. */
async function expectDocumented(response: Response, request: string, options: { head?: boolean } = {}): Promise<Json | null> {
  const url = new URL(request, SERVER);
  const { pointer, response: documented } = documentedResponse(url.pathname, response.status);
  const label = `${request} → ${response.status}`;

  for (const [name, header] of Object.entries(documented.headers ?? {})) {
    const definition = deref(header);
    const raw = response.headers.get(name);
    if (definition.required) expect(raw, `${label}: header ${name}`).not.toBeNull();
    if (raw === null) continue;
    const validate = ajv.compile(definition.schema);
    expect(validate(headerValue(raw, definition.schema)), `${label}: header ${name}=${raw}`).toBe(true);
  }
  expect(response.headers.get("Content-Type"), label).toBe("application/json; charset=utf-8");
  seen.statuses.add(`${url.pathname.startsWith("/v1/") ? "data" : url.pathname} ${response.status}`);

  const text = await response.text();
  if (options.head) {
    expect(text, label).toBe("");
    return null;
  }
  const body = JSON.parse(text) as Json;
  const validate = validatorAt(`${pointer}/content/application~1json/schema`);
  const valid = validate(body);
  expect(valid, `${label}: ${ajv.errorsText(validate.errors)}\n${text.slice(0, 2000)}`).toBe(true);
  if (body.status === "error") {
    seen.errorCodes.add(body.error.code);
    expect(response.headers.get("X-Request-ID"), label).toBe(body.request_id);
  }
  if (url.pathname.startsWith("/v1/") && Array.isArray(body.results)) {
    seen.records.set(url.pathname, (seen.records.get(url.pathname) ?? 0) + body.results.length);
  }
  return body;
}

// ───────────────────────────── testbed ─────────────────────────────

let t: Testbed;
let otherTickers: string[] = [];
beforeAll(async () => {
  t = await openApiTestbed();
  const showcase = new Set<string>(Object.values(SAMPLE_SHOWCASE));
  otherTickers = (await t.prisma.company.findMany({ select: { ticker: true }, orderBy: { ticker: "asc" } }))
    .map((c) => c.ticker)
    .filter((ticker) => !showcase.has(ticker))
    .slice(0, 4);
}, 120_000);
afterAll(() => t?.close());

async function get(path: string, init: Parameters<Testbed["request"]>[1] = {}) {
  const response = await t.request(path, init);
  return expectDocumented(response, path, { head: init.method === "HEAD" });
}

async function customPlan(orgId: string, changes: { requestsPerMinute?: number; isTrial?: boolean; dailyTickerLimit?: number }) {
  const org = await t.prisma.organization.findUniqueOrThrow({ where: { id: orgId }, include: { plan: true } });
  const plan = await t.prisma.plan.create({
    data: {
      slug: `openapi-${orgId}`,
      name: "OpenAPI test",
      allowedEndpoints: org.plan.allowedEndpoints,
      requestsPerMinute: changes.requestsPerMinute ?? org.plan.requestsPerMinute,
      isTrial: changes.isTrial ?? org.plan.isTrial,
      dailyTickerLimit: changes.dailyTickerLimit ?? org.plan.dailyTickerLimit,
    },
  });
  await t.prisma.organization.update({ where: { id: orgId }, data: { planId: plan.id } });
  t.ctx = createApiContext(t.prisma); // a fresh key cache sees the plan at once
}

// ───────────────────────────── (a) structure ─────────────────────────────

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1.0 with info, the server, tags and the API-KEY scheme", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: "Dilution Data API", version: "v1" });
    expect(doc.info.description).toMatch(/price per GB/);
    expect(doc.info.description).toMatch(/authentication.*permission.*rate limit.*credit.*unique-ticker/s);
    expect(doc.servers).toEqual([{ url: SERVER }]);
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: "apiKey", in: "header", name: "API-KEY" });
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc); // plain JSON: no undefined, no functions
  });

  it("resolves every $ref", () => {
    const refs = [...walk(doc)].filter(([pointer]) => pointer.endsWith("/$ref")).map(([, value]) => value as string);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of new Set(refs)) expect(resolvePointer(ref), ref).toBeDefined();
  });

  it("has well-formed operations: unique ids, GET only, parameters, responses with descriptions", () => {
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      expect(path).toMatch(/^\//);
      expect(Object.keys(item), path).toEqual(["get"]);
      const operation = item.get as Json;
      expect(ids.has(operation.operationId), operation.operationId).toBe(false);
      ids.add(operation.operationId);
      expect(operation.summary, path).toBeTruthy();
      expect(Array.isArray(operation.security), path).toBe(true);
      const names = (operation.parameters ?? []).map((p: Json) => p.name);
      expect(new Set(names).size, path).toBe(names.length);
      for (const parameter of operation.parameters ?? []) {
        expect(parameter, path).toMatchObject({ in: "query", name: expect.any(String), description: expect.any(String) });
        expect(typeof parameter.required, path).toBe("boolean");
        expect(parameter.schema, path).toBeTypeOf("object");
      }
      const responses = Object.entries(operation.responses as Record<string, Json>);
      expect(responses.length, path).toBeGreaterThan(0);
      expect(Object.keys(operation.responses)).toContain("200");
      for (const [status, response] of responses) {
        expect(status, path).toMatch(/^[1-5]\d\d$/);
        const resolved = deref(response);
        expect(resolved.description, `${path} ${status}`).toBeTruthy();
        expect(resolved.content?.["application/json"]?.schema, `${path} ${status}`).toBeDefined();
        for (const name of ["X-API-Version", "X-Request-ID", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy", "Strict-Transport-Security", "Permissions-Policy"]) {
          expect(deref(resolved.headers?.[name])?.required, `${path} ${status} ${name}`).toBe(true);
        }
      }
    }
  });

  it("compiles every schema with Ajv (JSON Schema 2020-12, formats)", () => {
    const pointers = schemaPointers();
    expect(pointers.length).toBeGreaterThan(50);
    for (const pointer of pointers) expect(() => validatorAt(pointer), pointer).not.toThrow();
  });

  it("secures data endpoints with API-KEY and leaves the public ones open", () => {
    for (const endpoint of ENDPOINT_LIST) expect(doc.paths[endpoint.path].get.security).toEqual([{ ApiKey: [] }]);
    for (const path of ["/health", "/endpoints", "/estimate", "/openapi.json"]) expect(doc.paths[path].get.security).toEqual([]);
  });

  it("documents the statuses of each operation and the metering headers of data responses", () => {
    for (const endpoint of ENDPOINT_LIST) {
      const responses = doc.paths[endpoint.path].get.responses;
      expect(Object.keys(responses).sort()).toEqual(["200", "400", "401", "402", "403", "405", "429", "500", "503"]);
      const headers = responses["200"].headers;
      for (const name of ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Cost-Dollars", "X-Balance-Dollars", "X-Billable-Bytes"]) {
        expect(deref(headers[name]).required, name).toBe(true);
      }
      expect(deref(responses["429"]).headers["Retry-After"]).toBeDefined();
      expect(deref(responses["405"]).headers.Allow).toBeDefined();
    }
    expect(Object.keys(doc.paths["/estimate"].get.responses).sort()).toEqual(["200", "400", "405", "429", "500", "503"]);
    expect(doc.components.responses.NotFound).toBeDefined();
    const codes = doc.components.schemas.Error.properties.error.properties.code.enum;
    expect(codes).toEqual(ERROR_CODES);
    const covered = Object.values(doc.components.responses as Record<string, Json>).flatMap((response) =>
      [...walk(response)].filter(([pointer]) => pointer.endsWith("/code/const")).map(([, value]) => value),
    );
    expect(new Set(covered)).toEqual(new Set(ERROR_CODES));
  });

  it("describes the records exactly: nullable fields, optional market cap, ratings", () => {
    const schemas = doc.components.schemas;
    expect(schemas.DilutionRating.properties.cash_remaining_months.type).toEqual(["number", "null"]);
    expect(schemas.DilutionRating.properties.overall_offering_risk.enum).toEqual(["Low", "Medium", "High"]);
    expect(schemas.DilutionRating.required).toContain("cash_remaining_months");
    expect(schemas.FloatRecord.required).not.toContain("market_cap_final");
    expect(schemas.FloatRecord.properties.market_cap_final.type).toBe("number");
    expect(schemas.RegistrationRecord.properties.amount_remaining_atm.type).toEqual(["number", "null"]);
    expect(schemas.RegistrationRecord.properties.expiration_date).toMatchObject({ type: ["string", "null"], format: "date" });
    for (const name of ["DilutionRating", "DilutionDataRecord", "RegistrationRecord", "ComplianceRecord", "FloatRecord", "OfferingRecord"]) {
      expect(schemas[name].additionalProperties, name).toBe(false);
    }
  });
});

// ───────────────────────────── (c) completeness ─────────────────────────────

describe("completeness against the catalog", () => {
  it("has a path for every catalog endpoint, with exactly its parameters and a page of its records", () => {
    expect(missingEndpoints(doc)).toEqual([]);
    for (const endpoint of ENDPOINT_LIST) {
      const operation = doc.paths[endpoint.path].get;
      expect(operation.parameters.map((p: Json) => p.name)).toEqual(describeParameters(endpoint).map((p) => p.name));
      for (const p of describeParameters(endpoint)) {
        const documented = operation.parameters.find((d: Json) => d.name === p.name);
        expect(documented.required, p.name).toBe(p.required);
        if (p.maximum !== undefined) expect(documented.schema.maximum, p.name).toBe(p.maximum);
      }
      const page = deref(operation.responses["200"].content["application/json"].schema);
      expect(page.required).toEqual(["status", "count", "has_more", "page", "limit", "results"]);
      expect(deref(page.properties.results.items).type).toBe("object");
    }
  });

  it("documents fields= with each endpoint's accepted names, the same names its record schema has", () => {
    for (const endpoint of ENDPOINT_LIST) {
      const operation = doc.paths[endpoint.path].get;
      const fields = operation.parameters.find((p: Json) => p.name === "fields");
      expect(fields, endpoint.name).toMatchObject({ in: "query", required: false, style: "form", explode: false });
      expect(fields.schema).toEqual({ type: "array", items: { type: "string", enum: acceptedFields(endpoint) }, minItems: 1 });
      expect(fields.description).toContain(acceptedFields(endpoint).join(", "));
      const page = deref(operation.responses["200"].content["application/json"].schema);
      expect(Object.keys(deref(page.properties.results.items).properties), endpoint.name).toEqual(acceptedFields(endpoint));
    }
    const estimate = doc.paths["/estimate"].get.parameters.find((p: Json) => p.name === "fields");
    expect(new Set(estimate.schema.items.enum)).toEqual(new Set(ENDPOINT_LIST.flatMap((e) => acceptedFields(e))));
  });

  it("would notice a catalog endpoint missing from the document", () => {
    for (const endpoint of ENDPOINT_LIST) {
      const copy = structuredClone(doc);
      delete copy.paths[endpoint.path];
      expect(missingEndpoints(copy)).toEqual([endpoint.name]);
    }
  });

  it("lists the same paths as GET /endpoints", async () => {
    const body = await get("/endpoints");
    expect(Object.keys(doc.paths).sort()).toEqual(body!.endpoints.map((e: Json) => e.path).sort());
  });

  it("is what GET /openapi.json serves", async () => {
    const served = await get("/openapi.json");
    expect(served).toEqual(doc);
    await get("/openapi.json", { method: "HEAD" });
  });
});

// ───────────────────────────── (b) real responses ─────────────────────────────

describe("real responses validate against the document", () => {
  it("data endpoints: showcase and other tickers, lists, pages, date ranges, effective_status", async () => {
    const org = await t.org({ plan: "enterprise", dollars: "100" });
    const tickers = [...Object.values(SAMPLE_SHOWCASE), ...otherTickers, `${SAMPLE_SHOWCASE.highRisk},${SAMPLE_SHOWCASE.lowRisk}`, "QQQQQQ"];
    for (const endpoint of ENDPOINT_LIST) {
      const variants = tickers.map((ticker) => `ticker=${ticker}&limit=${endpoint.maxLimit}`);
      variants.push(`ticker=${otherTickers.join(",")}&page=2&limit=3`, `ticker=${SAMPLE_SHOWCASE.highRisk.toLowerCase()}`);
      if (endpoint.supportsDateRange) {
        variants.push(
          `ticker=${tickers.slice(0, 8).join(",")}&date_from=2025-01-01&date_to=2026-12-31&limit=50`,
          `ticker=${SAMPLE_SHOWCASE.highRisk}&date_from=2026-06-01`,
          `ticker=${SAMPLE_SHOWCASE.highRisk}&date_to=2020-01-01`,
        );
      }
      if (endpoint.name === "registrations") {
        for (const value of ["true", "false"]) {
          variants.push(`ticker=${tickers.slice(0, 8).join(",")}&effective_status=${value}&limit=100`);
          variants.push(`ticker=${SAMPLE_SHOWCASE.manyRegistrations}&effective_status=${value}&date_from=2024-01-01&page=2&limit=20`);
        }
      }
      for (const query of variants) {
        const path = `${endpoint.path}?${query}`;
        const response = await t.request(path, { key: org.key });
        expect(response.status, path).toBe(200);
        await expectDocumented(response, path);
      }
      expect(seen.records.get(endpoint.path), endpoint.name).toBeGreaterThan(0);
    }
  });

  it("public endpoints: /health, /endpoints, /estimate by ticker and by ticker_count, HEAD", async () => {
    await get("/health");
    await get("/health", { method: "HEAD" });
    await get("/endpoints");
    await get("/endpoints/");
    for (const endpoint of ENDPOINT_LIST) {
      await get(`/estimate?endpoint=${endpoint.name}&ticker=${SAMPLE_SHOWCASE.highRisk}`);
      await get(`/estimate?endpoint=/v1/${endpoint.name}&ticker=${otherTickers.join(",")}&limit=5&page=2`);
      await get(`/estimate?endpoint=${endpoint.name}&ticker_count=${endpoint.supportsDateRange ? 40 : 3}`);
      if (endpoint.supportsDateRange) await get(`/estimate?endpoint=${endpoint.name}&ticker_count=5&date_from=2025-01-01&date_to=2026-01-01`);
    }
    await get(`/estimate?endpoint=registrations&ticker=${SAMPLE_SHOWCASE.manyRegistrations}&effective_status=true`);
    await get(`/estimate?endpoint=offerings&ticker=QQQQQQ`);
  });

  it("rejects bodies that differ from the document (the checks above are not vacuous)", async () => {
    const org = await t.org({ dollars: "1" });
    const response = await t.request(`/v1/dilution-rating?ticker=${SAMPLE_SHOWCASE.highRisk}`, { key: org.key });
    const body = (await response.json()) as Json;
    const validate = validatorAt("#/paths/~1v1~1dilution-rating/get/responses/200/content/application~1json/schema");
    expect(validate(body)).toBe(true);
    const mutations: ((b: Json) => void)[] = [
      (b) => (b.results[0].cash_remaining_months = "12"),
      (b) => (b.results[0].overall_offering_risk = "Extreme"),
      (b) => (b.results[0].surprise = 1),
      (b) => delete b.results[0].regsho,
      (b) => delete b.has_more,
      (b) => (b.page = 0),
      (b) => (b.status = "error"),
    ];
    for (const mutate of mutations) {
      const copy = structuredClone(body);
      mutate(copy);
      expect(validate(copy), mutate.toString()).toBe(false);
    }
    const error = { status: "error", error: { code: "invalid_parameter", message: "x", details: {} }, request_id: crypto.randomUUID() };
    expect(validatorAt("#/components/responses/BadRequest/content/application~1json/schema")(error)).toBe(false); // details lack parameter
    expect(validatorAt("#/components/responses/Unauthorized/content/application~1json/schema")({ ...error, error: { ...error.error, code: "missing_api_key" } })).toBe(true);
    expect(validatorAt("#/components/responses/Unauthorized/content/application~1json/schema")({ ...error, request_id: "nope" })).toBe(false);
  });

  it("401 for each code, 402 for each, 403 for each", async () => {
    const path = `/v1/offerings?ticker=${SAMPLE_SHOWCASE.highRisk}`;
    const expectCode = async (code: string, init: Parameters<Testbed["request"]>[1]) => {
      const body = await get(path, init);
      expect(body!.error.code).toBe(code);
    };
    await expectCode("missing_api_key", {});
    await expectCode("missing_api_key", { headers: { Authorization: "Bearer x" } });
    await expectCode("invalid_api_key", { key: `svc-live-${"0".repeat(64)}` });
    const org = await t.org({ dollars: "1" });
    await setKeyStatus(t.prisma, org.keyId, "DISABLED", { actorLabel: "test" });
    await expectCode("api_key_disabled", { key: org.key });

    const broke = await t.org({ dollars: "0" });
    await expectCode("insufficient_credits", { key: broke.key });
    await t.prisma.organization.update({ where: { id: broke.id }, data: { balanceNanos: -5n } });
    await expectCode("insufficient_credits", { key: broke.key });

    const trial = await t.org({ plan: "trial", dollars: "1" });
    expect((await get(`/v1/dilution-data?ticker=${SAMPLE_SHOWCASE.highRisk}`, { key: trial.key }))!.error.code).toBe("endpoint_not_allowed");
    const restricted = await t.org({ dollars: "1", endpoints: ["offerings"] });
    expect((await get(`/v1/registrations?ticker=${SAMPLE_SHOWCASE.highRisk}`, { key: restricted.key }))!.error.code).toBe("endpoint_not_allowed");
    const suspended = await t.org({ dollars: "1" });
    await t.prisma.organization.update({ where: { id: suspended.id }, data: { suspendedAt: new Date(), suspendedReason: "test" } });
    notifyAccessChanged();
    await expectCode("organization_suspended", { key: suspended.key });

    const expiring = await t.org({ dollars: "1" });
    await t.prisma.apiKey.update({ where: { id: expiring.keyId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    notifyAccessChanged();
    await expectCode("api_key_expired", { key: expiring.key });
    const listed = await t.org({ dollars: "1" });
    await t.prisma.apiKey.update({ where: { id: listed.keyId }, data: { allowedIps: ["192.0.2.1"] } });
    notifyAccessChanged();
    await expectCode("ip_not_allowed", { key: listed.key });
    const capped = await t.org({ dollars: "1" });
    await t.prisma.organization.update({ where: { id: capped.id }, data: { dailyCapNanos: 1n } });
    await expectCode("spend_limit_reached", { key: capped.key });
  });

  it("404 and 405", async () => {
    expect((await get("/v1/short-interest?ticker=AAA"))!.error.code).toBe("not_found");
    expect((await get("/nope"))!.error.code).toBe("not_found");
    for (const path of ["/v1/offerings?ticker=AAA", "/health", "/endpoints", "/estimate?endpoint=offerings&ticker=AAA", "/openapi.json"]) {
      for (const method of ["POST", "DELETE"]) {
        const response = await t.request(path, { method });
        expect(response.status, `${method} ${path}`).toBe(405);
        expect((await expectDocumented(response, path))!.error.code).toBe("method_not_allowed");
      }
    }
    const head = await t.request("/v1/offerings?ticker=AAA", { method: "HEAD" });
    expect(head.status).toBe(405);
    await expectDocumented(head, "/v1/offerings?ticker=AAA");
  });

  it("429: the rate limit, the trial ticker limit, the /estimate limit", async () => {
    const limited = await t.org({ dollars: "1" });
    await customPlan(limited.id, { requestsPerMinute: 1 });
    await get(`/v1/float-outstanding?ticker=${SAMPLE_SHOWCASE.highRisk}`, { key: limited.key });
    const over = await t.request(`/v1/float-outstanding?ticker=${SAMPLE_SHOWCASE.highRisk}`, { key: limited.key });
    expect(over.status).toBe(429);
    expect(over.headers.get("Retry-After")).not.toBeNull();
    expect((await expectDocumented(over, "/v1/float-outstanding"))!.error.code).toBe("rate_limit_exceeded");
    expect((await get(`/v1/float-outstanding?ticker=bad!`, { key: limited.key }))!.error.code).toBe("rate_limit_exceeded");

    const trial = await t.org({ plan: "trial", dollars: "1" });
    await customPlan(trial.id, { dailyTickerLimit: 1 });
    await get(`/v1/offerings?ticker=${SAMPLE_SHOWCASE.highRisk}`, { key: trial.key });
    expect((await get(`/v1/offerings?ticker=${SAMPLE_SHOWCASE.manyOfferings}`, { key: trial.key }))!.error.code).toBe("trial_ticker_limit");

    const ctx = createApiContext(t.prisma, { estimateLimitPerMinute: 1 });
    const headers = { "X-Forwarded-For": "198.51.100.7" };
    await get(`/estimate?endpoint=offerings&ticker=${SAMPLE_SHOWCASE.highRisk}`, { ctx, headers });
    const estimateOver = await t.request(`/estimate?endpoint=offerings&ticker=${SAMPLE_SHOWCASE.highRisk}`, { ctx, headers });
    expect(estimateOver.status).toBe(429);
    expect((await expectDocumented(estimateOver, "/estimate"))!.error.code).toBe("rate_limit_exceeded");
  });

  it("400: invalid and missing parameters on every data endpoint and /estimate", async () => {
    const org = await t.org({ dollars: "1" });
    for (const endpoint of ENDPOINT_LIST) {
      for (const [query, code] of [
        ["", "missing_parameter"],
        ["ticker=", "missing_parameter"],
        ["ticker=A;B", "invalid_parameter"],
        ["ticker=AAA&page=0", "invalid_parameter"],
        [`ticker=AAA&limit=${endpoint.maxLimit + 1}`, "invalid_parameter"],
        ["ticker=AAA&colour=red", "invalid_parameter"],
        ["ticker=AAA&ticker=BBB", "invalid_parameter"],
        ["ticker=AAA&date_from=2026-02-30", "invalid_parameter"],
      ] as const) {
        const body = await get(`${endpoint.path}?${query}`, { key: org.key });
        expect(body!.error.code, `${endpoint.name} ${query}`).toBe(code);
      }
    }
    for (const [query, code] of [
      ["", "missing_parameter"],
      ["endpoint=offerings", "missing_parameter"],
      ["endpoint=short-interest&ticker=AAA", "invalid_parameter"],
      ["endpoint=offerings&ticker=AAA&ticker_count=2", "invalid_parameter"],
      ["endpoint=offerings&ticker_count=0", "invalid_parameter"],
      ["endpoint=float-outstanding&ticker=AAA&date_from=2026-01-01", "invalid_parameter"],
    ] as const) {
      expect((await get(`/estimate?${query}`))!.error.code, query).toBe(code);
    }
  });

  it("500 and 503", async () => {
    const failingPrices = new PriceBook(t.prisma);
    failingPrices.pricePerGbNanos = async () => {
      throw new Error("price table exploded");
    };
    const broken: ApiContext = createApiContext(t.prisma, { prices: failingPrices });
    const org = await t.org({ dollars: "1" });
    const quiet = silenceConsoleError();
    try {
      for (const path of ["/endpoints", `/estimate?endpoint=offerings&ticker=${SAMPLE_SHOWCASE.highRisk}`, `/v1/offerings?ticker=${SAMPLE_SHOWCASE.highRisk}`]) {
        const body = await get(path, { ctx: broken, key: org.key });
        expect(body!.error.code, path).toBe("internal_error");
      }
      const unreachable = () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }));
      for (const path of ["/health", "/endpoints", "/estimate?endpoint=offerings&ticker=AAA", "/v1/offerings?ticker=AAA"]) {
        const response = await handleApiRequest(new Request(`${SERVER}${path}`, { headers: { "API-KEY": org.key } }), unreachable);
        expect(response.status, path).toBe(503);
        expect((await expectDocumented(response, path))!.error.code).toBe("service_unavailable");
      }
    } finally {
      quiet();
    }
  });

  it("covered every status and every error code", () => {
    expect([...seen.errorCodes].sort()).toEqual([...ERROR_CODES].sort());
    for (const status of ["200", "400", "401", "402", "403", "405", "429", "500", "503"]) {
      expect(seen.statuses.has(`data ${status}`), `data ${status}`).toBe(true);
    }
  });
});

/** Silences the expected failure logs of the 500/503 cases; returns the restore. */
function silenceConsoleError(): () => void {
  const spies = [vi.spyOn(console, "error").mockImplementation(() => {}), vi.spyOn(console, "warn").mockImplementation(() => {})];
  return () => spies.forEach((spy) => spy.mockRestore());
}
