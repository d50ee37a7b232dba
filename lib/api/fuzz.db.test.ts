import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chargeForBytes, formatDollars } from "@/lib/money";
import { SAMPLE_SHOWCASE } from "@/lib/data/sample";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { ENDPOINT_LIST, type EndpointDefinition } from "@/lib/catalog";
import { createApiContext, type ApiContext } from "./context";
import { endpointParameters } from "./params";
import { handleApiRequest } from "./handler";
import { buildOpenApiDocument } from "./openapi";

/**
 * Fuzzing the parameters of every data endpoint and of /estimate with random
 * and hostile values. Whatever arrives, the answer is a 400 error envelope
 * naming the parameter (never charged) or a 200 that matches the OpenAPI
 * document (charged exactly what X-Cost-Dollars says); never a 500 or any
 * other status.
 *
 * FUZZ_SEED=<n> replays a run; FUZZ_RUNS=<n> scales the random runs.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SERVER = "http://api.test";
const DOC_ID = "https://openapi.test/openapi.json";
const RUNS = Number(process.env.FUZZ_RUNS ?? 1);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

// ───────────────────────────── the document's schemas ─────────────────────────────

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(buildOpenApiDocument(SERVER), DOC_ID);
const escapePointer = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");
const validators = new Map<string, ValidateFunction>();
function schemaOf(pointer: string): ValidateFunction {
  let validate = validators.get(pointer);
  if (!validate) validators.set(pointer, (validate = ajv.compile({ $ref: `${DOC_ID}${pointer}` })));
  return validate;
}
const successSchema = (path: string) => schemaOf(`#/paths/${escapePointer(path)}/get/responses/200/content/application~1json/schema`);
const badRequestSchema = () => schemaOf("#/components/responses/BadRequest/content/application~1json/schema");

// ───────────────────────────── hostile values ─────────────────────────────

const HOSTILE: string[] = [
  // empty and blank
  "", " ", "   ", "\t", "\n", "\r\n", "\u00a0", "\u3000", "+", "%20", "%09",
  // numbers that are not small whole numbers
  "0", "-0", "-1", "1.5", "1.0", "01", "007", "1e3", "1E2", "1e308", "-1e308", "2e-5", "99999999999999999999", "999999999",
  "1000000000", "4294967296", "9007199254740993", "0x10", "0X1F", "0b11", "0o7", "Infinity", "-Infinity", "NaN", " 5", "5 ",
  "5%00", "١٢", "５", "1_000", "1,000", "½",
  // words JavaScript likes to coerce
  "null", "undefined", "true", "false", "TRUE", "yes", "on", "[]", "{}", "__proto__", "constructor", "toString",
  // SQL and JSON fragments
  "' OR 1=1 --", "; DROP TABLE companies", "ZVTX'; DROP TABLE companies; --", "1; SELECT pg_sleep(5)", "ZVTX\" OR \"\"=\"",
  "$1", "%' --", '{"ticker":"ZVTX"}', '["ZVTX"]', '{"$gt":""}', "null,null", "\\", "\\x00",
  // unicode
  "\u0000", "ZVTX\u0000", "😀", "ZVTX😀", "\u202eXTVZ", "\u200fZVTX", "مرحبا", "שלום", "e\u0301", "Z\u0301VTX", "ＺＶＴＸ", "ß", "ßßßßßß",
  "ı", "ﬀ", "\ufeffZVTX", "\ud800", "A\udc00B",
  // percent-encoding garbage (meaningful in raw query strings)
  "%", "%%", "%zz", "%E0%A4%A", "%ED%A0%80", "%ED%B0%80", "%F0%9F%98", "%C0%AF", "%00", "%2C", "%26ticker%3DZVTX", "%252C", "%u0041",
  // ticker lists
  ",", ",,", "ZVTX,", ",ZVTX", "ZVTX,,QLMN", "ZVTX, QLMN", "ZVTX;QLMN", "ZVTX QLMN", "ZVTX|QLMN", Array(51).fill("ZVTX").join(","),
  Array(50).fill("ZVTX").join(","), "ABCDEFGHIJK", "ABCDEFGHIJ", "A".repeat(10_240), "ZVTX,".repeat(2_000),
  // dates
  "2026-02-30", "2026-13-01", "2026-00-10", "2026-1-1", "20260101", "2026/01/01", "2026-01-01T00:00:00Z", "2026-01-01 ", "0000-01-01",
  "0001-01-01", "9999-12-31", "+002026-01-01", "-2026-01-01", "2024-02-29", "2023-02-29", "１９９９-01-01",
  // odd words
  "../../etc/passwd", "<script>alert(1)</script>", "${7*7}", "{{7*7}}", "%s%s%s%n", "v1/offerings", "/v1/offerings", "offerings/",
];

const NASTY_CHARS = [
  "😀", "\u202e", "\u200f", "\u0301", "\ufeff", "\u0000", "\u0007", "ß", "ı", "ﬀ", "Ａ", "%", "&", "=", "#", "+", ",", ";", "'", '"', "\\", "?", "/", " ", ".", "-",
];
const nastyChar = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(..."ABCXYZabcz0189.-,") },
  { weight: 2, arbitrary: fc.constantFrom(...NASTY_CHARS) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
);
const nastyString = fc.string({ unit: nastyChar, maxLength: 16 });

const numericText = fc.oneof(
  fc.integer().map(String),
  fc.integer({ min: -3, max: 250 }).map(String),
  fc.double().map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.integer({ min: 0, max: 4096 }).map((n) => `0x${n.toString(16)}`),
  fc.tuple(fc.integer({ min: -9, max: 9 }), fc.integer({ min: -400, max: 400 })).map(([m, e]) => `${m}e${e}`),
);

const UNKNOWN_NAMES = [`${"x".repeat(39)}😀`, `${"y".repeat(45)}`, "colour", "Ticker", "TICKER", "ticker ", " ticker", "ticker[]", "tickers", "page[]", "Limit", "", "__proto__", "constructor", "api_key", "API-KEY", "format", "callback"];

// ───────────────────────────── request cases ─────────────────────────────

interface Case {
  target: "data" | "estimate";
  endpoint: EndpointDefinition;
  pairs: [string, string][];
  /** "params": URLSearchParams; otherwise a hand-built query in that raw style. */
  encoding: "params" | "raw" | "encoded" | "bytes";
  /** Stray raw tokens appended to a hand-built query. */
  noise: string[];
}

const NOISE = ["&", "&&", "=", "&=", "&=x", "a=b=c", "ticker", "&ticker", "%", "%zz", "#frag", "?", "&page", "&limit=", ";", "+"];

function utf8PercentEncode(text: string): string {
  return [...new TextEncoder().encode(text)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");
}

function encodePart(text: string, style: Case["encoding"]): string {
  if (style === "raw") return text;
  if (style === "bytes") return utf8PercentEncode(text);
  try {
    return encodeURIComponent(text);
  } catch {
    return text; // lone surrogates: sent raw, the URL parser replaces them
  }
}

function queryOf(c: Case): string {
  if (c.encoding === "params") return new URLSearchParams(c.pairs).toString();
  const query = c.pairs.map(([name, value]) => `${encodePart(name, c.encoding)}=${encodePart(value, c.encoding)}`).join("&");
  return query + c.noise.join("");
}

function pathOf(c: Case): string {
  const base = c.target === "data" ? c.endpoint.path : "/estimate";
  return `${base}?${queryOf(c)}`;
}

const describeCase = (c: Case) => `${pathOf(c).slice(0, 300)}${pathOf(c).length > 300 ? "…" : ""} [${c.encoding}]`;

// ───────────────────────────── testbed ─────────────────────────────

let t: Testbed;
let ctx: ApiContext;
let org: { id: string; key: string };
let tickers: string[];
let startBalance: bigint;

/** What the fuzz saw: charges per request id, refusals, statuses. */
const ledger = { charged: new Map<string, bigint>(), refused: new Set<string>(), statuses: new Map<string, number>() };

beforeAll(async () => {
  t = await openApiTestbed();
  const created = await t.org({ plan: "retail", dollars: "100000", name: "Fuzz org" });
  const base = await t.prisma.plan.findUniqueOrThrow({ where: { slug: "retail" } });
  const plan = await t.prisma.plan.create({
    data: { slug: "fuzz-unlimited", name: "Fuzz", allowedEndpoints: base.allowedEndpoints, requestsPerMinute: 1_000_000, isTrial: false, dailyTickerLimit: null },
  });
  await t.prisma.organization.update({ where: { id: created.id }, data: { planId: plan.id } });
  ctx = createApiContext(t.prisma, { estimateLimitPerMinute: 1_000_000 });
  org = created;
  startBalance = await t.balance(org.id);
  tickers = (await t.prisma.company.findMany({ select: { ticker: true }, orderBy: { ticker: "asc" } })).map((c) => c.ticker);
}, 120_000);
afterAll(() => t?.close());

// ───────────────────────────── arbitraries ─────────────────────────────

function validValue(name: string, endpoint: EndpointDefinition): fc.Arbitrary<string> {
  const ticker = fc.constantFrom(...tickers, ...Object.values(SAMPLE_SHOWCASE), "QQQQQQ", "BRK.B", "X-1");
  switch (name) {
    case "ticker":
      return fc.oneof(
        ticker,
        ticker.map((s) => s.toLowerCase()),
        fc.array(ticker, { minLength: 1, maxLength: 6 }).map((list) => list.join(",")),
        fc.array(ticker, { minLength: 1, maxLength: 3 }).map((list) => ` ${list.join(" , ")} `),
      );
    case "page":
      return fc.integer({ min: 1, max: 4 }).map(String);
    case "limit":
      return fc.integer({ min: 1, max: endpoint.maxLimit }).map(String);
    case "date_from":
    case "date_to":
      return fc
        .date({ min: new Date("2015-01-01T00:00:00Z"), max: new Date("2027-12-31T00:00:00Z"), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case "effective_status":
      return fc.constantFrom("true", "false", "1", "0", "TRUE", "False");
    case "endpoint":
      return fc.constantFrom(...ENDPOINT_LIST.flatMap((e) => [e.name, `/v1/${e.name}`, `v1/${e.name}`, ` ${e.name} `]));
    case "ticker_count":
      return fc.integer({ min: 1, max: 40 }).map(String);
    default:
      return nastyString;
  }
}

function valueFor(name: string, endpoint: EndpointDefinition): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 8, arbitrary: validValue(name, endpoint) },
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
    { weight: 2, arbitrary: nastyString },
    { weight: 1, arbitrary: numericText },
    { weight: 1, arbitrary: fc.array(fc.oneof(validValue(name, endpoint), fc.constantFrom(...HOSTILE)), { minLength: 2, maxLength: 4 }).map((l) => l.join(",")) },
  );
}

function pairFor(names: string[], endpoint: EndpointDefinition): fc.Arbitrary<[string, string]> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...names).chain((name) => valueFor(name, endpoint).map((value): [string, string] => [name, value])) },
    { weight: 1, arbitrary: fc.tuple(fc.oneof(fc.constantFrom(...UNKNOWN_NAMES, ...HOSTILE), nastyString), valueFor("unknown", endpoint)) },
  );
}

function caseArbitrary(target: Case["target"]): fc.Arbitrary<Case> {
  return fc.constantFrom(...ENDPOINT_LIST).chain((endpoint) => {
    const own = endpointParameters(endpoint);
    // Data endpoints usually get a valid ticker first, so the other parameters are reached.
    const lead: [string, fc.Arbitrary<string>][] =
      target === "data" ? [["ticker", validValue("ticker", endpoint)]] : [["endpoint", fc.constant(endpoint.name)], ["ticker", validValue("ticker", endpoint)]];
    // Parameters of other endpoints are in the mix: unknown here, so a 400.
    const names = target === "data" ? ["ticker", ...own, "date_from", "effective_status"] : ["endpoint", "ticker", "ticker_count", ...own, "date_to"];
    return fc.record({
      target: fc.constant(target),
      endpoint: fc.constant(endpoint),
      pairs: fc
        .tuple(
          fc.tuple(...lead.map(([name, value]) => fc.option(value.map((v): [string, string] => [name, v]), { freq: 6, nil: null }))),
          fc.array(pairFor(names, endpoint), { maxLength: 4, size: "xsmall" }),
          fc.boolean(),
        )
        .map(([first, rest, shuffle]) => {
          const leading = first.filter((pair): pair is [string, string] => pair !== null);
          return shuffle ? [...rest, ...leading] : [...leading, ...rest];
        }),
      encoding: fc.constantFrom<Case["encoding"]>("params", "params", "raw", "encoded", "bytes"),
      noise: fc.oneof({ weight: 4, arbitrary: fc.constant<string[]>([]) }, { weight: 1, arbitrary: fc.array(fc.constantFrom(...NOISE), { maxLength: 3 }) }),
    });
  });
}

/** Each hostile value at least once, in turn in each parameter, both encodings; each unknown name once. */
function hostileExamples(target: Case["target"]): [Case][] {
  const lead: [string, string][] = target === "data" ? [["ticker", SAMPLE_SHOWCASE.highRisk]] : [["endpoint", "offerings"], ["ticker", "ZVTX"]];
  const unknown = UNKNOWN_NAMES.map((name, i): [Case] => [
    { target, endpoint: ENDPOINT_LIST[i % ENDPOINT_LIST.length]!, pairs: [...lead, [name, "1"]], encoding: i % 2 ? "raw" : "params", noise: [] },
  ]);
  return [...unknown, ...HOSTILE.map((value, i): [Case] => {
    const endpoint = ENDPOINT_LIST[i % ENDPOINT_LIST.length]!;
    const names = target === "data" ? ["ticker", ...endpointParameters(endpoint)] : ["endpoint", "ticker", "ticker_count", ...endpointParameters(endpoint)];
    const name = names[Math.floor(i / ENDPOINT_LIST.length) % names.length]!;
    const base: [string, string][] =
      target === "data" ? (name === "ticker" ? [] : [["ticker", SAMPLE_SHOWCASE.highRisk]]) : name === "endpoint" ? [["ticker", "ZVTX"]] : [["endpoint", endpoint.name], ...(name === "ticker" || name === "ticker_count" ? [] : ([["ticker", "ZVTX"]] as [string, string][]))];
    return [{ target, endpoint, pairs: [...base, [name, value]], encoding: i % 2 ? "raw" : "params", noise: [] }];
  })];
}

// ───────────────────────────── the check ─────────────────────────────

async function send(c: Case): Promise<{ response: Response; path: string } | null> {
  const path = pathOf(c);
  let request: Request;
  try {
    request = new Request(`${SERVER}${path}`, { headers: c.target === "data" ? { "API-KEY": org.key } : {} });
  } catch {
    return null; // no client could send it
  }
  return { response: await handleApiRequest(request, ctx), path };
}

async function checkCase(c: Case): Promise<void> {
  const sent = await send(c);
  if (!sent) return;
  const { response } = sent;
  const label = describeCase(c);
  ledger.statuses.set(`${c.target} ${response.status}`, (ledger.statuses.get(`${c.target} ${response.status}`) ?? 0) + 1);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  if (response.status !== 200 && response.status !== 400) throw new Error(`${label}: status ${response.status}: ${text.slice(0, 500)}`);
  const body = JSON.parse(text) as Json;
  const requestId = response.headers.get("X-Request-ID")!;

  if (response.status === 400) {
    const validate = badRequestSchema();
    if (!validate(body)) throw new Error(`${label}: 400 body off the document: ${ajv.errorsText(validate.errors)}: ${text.slice(0, 500)}`);
    expect(["invalid_parameter", "missing_parameter"], label).toContain(body.error.code);
    expect(typeof body.error.details.parameter, label).toBe("string");
    // Echoed text stays well-formed UTF-16 (a lone surrogate breaks strict JSON parsers).
    expect(/\p{Cs}/u.test(body.error.message + body.error.details.parameter), `${label}: lone surrogate in ${JSON.stringify(body.error)}`).toBe(false);
    expect(response.headers.get("X-Cost-Dollars"), label).toBeNull();
    if (c.target === "data") ledger.refused.add(requestId);
    return;
  }

  const validate = successSchema(c.target === "data" ? c.endpoint.path : "/estimate");
  if (!validate(body)) throw new Error(`${label}: 200 body off the document: ${ajv.errorsText(validate.errors)}: ${text.slice(0, 500)}`);
  if (c.target === "estimate") return;

  // What the server read, to check the page against it.
  const params = new URL(`${SERVER}${sent.path}`).searchParams;
  const asked = new Set(params.get("ticker")!.split(",").map((s) => s.trim().toUpperCase()));
  for (const record of body.results) expect(asked.has(record.ticker), `${label}: ${record.ticker}`).toBe(true);
  expect(body.limit, label).toBe(params.has("limit") ? Number(params.get("limit")) : 10);
  expect(body.page, label).toBe(params.has("page") ? Number(params.get("page")) : 1);

  // A page without records is free: no charge, no ledger entry.
  const billable = body.count === 0 ? 0 : bytes.byteLength;
  const cost = chargeForBytes(billable, c.endpoint.defaultPricePerGbNanos);
  expect(response.headers.get("X-Billable-Bytes"), label).toBe(String(billable));
  expect(response.headers.get("X-Cost-Dollars"), label).toBe(formatDollars(cost));
  if (body.count > 0) ledger.charged.set(requestId, cost);
}

/** The examples, then `runs` random cases. */
const options = (runs: number, examples: [Case][]) => ({
  numRuns: examples.length + Math.round(runs * RUNS),
  examples,
  ...(SEED !== undefined ? { seed: SEED } : {}),
  endOnFailure: false,
  interruptAfterTimeLimit: 120_000,
  markInterruptAsFailure: true,
});

describe("fuzzing the parameters", () => {
  it("data endpoints answer 200 by the document or 400 naming the parameter", async () => {
    await fc.assert(fc.asyncProperty(caseArbitrary("data"), checkCase), options(180, hostileExamples("data")));
    expect(ledger.statuses.get("data 200")).toBeGreaterThan(50);
    expect(ledger.statuses.get("data 400")).toBeGreaterThan(50);
  }, 180_000);

  it("/estimate answers 200 by the document or 400 naming the parameter", async () => {
    await fc.assert(fc.asyncProperty(caseArbitrary("estimate"), checkCase), options(80, hostileExamples("estimate")));
    expect(ledger.statuses.get("estimate 200")).toBeGreaterThan(10);
    expect(ledger.statuses.get("estimate 400")).toBeGreaterThan(10);
  }, 180_000);

  it("charged each 200 exactly its X-Cost-Dollars and never a 400", async () => {
    const spent = [...ledger.charged.values()].reduce((sum, cost) => sum + cost, 0n);
    expect(await t.balance(org.id)).toBe(startBalance - spent);

    const entries = await t.prisma.creditLedgerEntry.findMany({ where: { orgId: org.id, kind: "USAGE" } });
    expect(entries).toHaveLength(ledger.charged.size);
    for (const entry of entries) {
      expect(ledger.charged.has(entry.reference!), entry.reference!).toBe(true);
      expect(entry.amountNanos, entry.reference!).toBe(-ledger.charged.get(entry.reference!)!);
      expect(ledger.refused.has(entry.reference!)).toBe(false);
    }

    const refusals = await t.prisma.usageEvent.findMany({ where: { orgId: org.id, requestId: { in: [...ledger.refused] } } });
    expect(refusals).toHaveLength(ledger.refused.size);
    for (const event of refusals) expect([event.statusCode, event.costNanos]).toEqual([400, 0n]);
  });
});
