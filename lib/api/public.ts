import { ceilDiv, chargeForBytes, formatDollars, nanosToDollarNumber } from "@/lib/money";
import { spreadTickers } from "@/lib/data/records";
import { ENDPOINT_LIST, ENDPOINTS, isEndpointName, type EndpointDefinition } from "@/lib/catalog";
import type { ApiContext } from "./context";
import { buildDataBody, maxBodyBytes } from "./data";
import { ApiError, ERROR_CODES, ERROR_GUIDE } from "./errors";
import { DEFAULT_LIMIT, MAX_TICKERS_PER_REQUEST, parseEstimateQuery } from "./params";
import { describeParameters } from "./describe";
import { requestUrl } from "@/lib/utils/request-url";
import { isServiceUnavailable } from "@/lib/errors";

/** /health, /endpoints and /estimate: free, no key. */

/**
 * The service and each dependency it is configured with. Without the database nothing works: that is a 503 (the
 * error thrown here). Without Redis (when REDIS_URL is set) the pages and free endpoints work and keyed requests
 * are refused: the answer is 200 with status "degraded", naming it, so a monitor sees it and a load balancer does
 * not take every instance out for a store they all share.
 */
export async function health(ctx: ApiContext) {
  const started = Date.now();
  await ctx.prisma.$queryRaw`SELECT 1`;
  const database = { status: "ok" as const, latency_ms: Date.now() - started };
  const redis = ctx.rateLimiter.backend === "redis" ? await redisHealth(ctx) : undefined;
  const status: "ok" | "degraded" = redis?.status === "unavailable" ? "degraded" : "ok";
  return { status, version: "v1", database, ...(redis ? { redis } : {}), time: ctx.now().toISOString() };
}

async function redisHealth(ctx: ApiContext): Promise<{ status: "ok" | "unavailable"; latency_ms: number }> {
  const started = Date.now();
  try {
    await ctx.rateLimiter.ping();
    return { status: "ok", latency_ms: Date.now() - started };
  } catch (error) {
    if (!isServiceUnavailable(error)) throw error;
    return { status: "unavailable", latency_ms: Date.now() - started };
  }
}

export async function listEndpoints(ctx: ApiContext) {
  const now = ctx.now().getTime();
  const data = await Promise.all(
    ENDPOINT_LIST.map(async (endpoint) => ({
      name: endpoint.name,
      method: "GET",
      path: endpoint.path,
      title: endpoint.title,
      description: endpoint.summary,
      requires_api_key: true,
      price_per_gb_dollars: nanosToDollarNumber(await ctx.prices.pricePerGbNanos(endpoint.name, now)),
      default_limit: DEFAULT_LIMIT,
      max_limit: endpoint.maxLimit,
      max_tickers_per_request: MAX_TICKERS_PER_REQUEST,
      supports_date_range: endpoint.supportsDateRange,
      parameters: describeParameters(endpoint),
    })),
  );
  const publicEndpoints = [
    { name: "health", method: "GET", path: "/health", description: "Service and database health.", requires_api_key: false },
    { name: "endpoints", method: "GET", path: "/endpoints", description: "This list.", requires_api_key: false },
    {
      name: "estimate",
      method: "GET",
      path: "/estimate",
      description: "Free cost estimate for a request: records, bytes and dollars.",
      requires_api_key: false,
    },
    { name: "openapi", method: "GET", path: "/openapi.json", description: "OpenAPI 3.1 description of this API.", requires_api_key: false },
  ];
  const errors = ERROR_CODES.map((code) => ({
    code,
    http_status: new ApiError(code, "").status,
    when: ERROR_GUIDE[code].when,
    details: ERROR_GUIDE[code].details === "—" ? [] : ERROR_GUIDE[code].details.split(", "),
  }));
  return { status: "success", count: data.length + publicEndpoints.length, endpoints: [...data, ...publicEndpoints], errors };
}

/**
 * The estimate is never below the bill and at most this many times it, per
 * request. Measured on the sample data (every ticker and endpoint; whole
 * records, with include=source, and each field alone with fields=): at most
 * 8.5× (offerings with their sources), 7.9× for a compliance record's
 * status_updates alone (priced at eight of 250 bytes), 7.8× for dilution-data
 * with its sources (five holders of 100 bytes and their quote priced on every
 * instrument), 7.2× for a rating with its sources, 5.6× for whole compliance
 * records, 3.4× for a rating, 2.9× for the other records.
 */
export const MAX_ESTIMATE_FACTOR = 10;

// At most this many sampled tickers are counted for a ticker_count estimate;
// larger counts are scaled from the sample.
const ESTIMATE_SAMPLE_SIZE = 25;

/**
 * What a request would cost, free: the records it would return (counts are
 * public) and, for its bytes, the most those records can take whatever they
 * hold (`maxBodyBytes`). The estimate never reads a value, so it reveals
 * none, and the bill is never above it. Tickers that name no company are
 * listed in `unknown_tickers` and cost nothing.
 */
export async function estimate(request: Request, ctx: ApiContext) {
  const now = ctx.now();
  const { endpoint, query } = parseEstimateQuery(requestUrl(request).searchParams, lookupEndpoint);
  const price = await ctx.prices.pricePerGbNanos(endpoint.name, now.getTime());
  let bytes: number;
  let records: number;
  let costNanos: bigint;
  let tickerCount: number;
  let unknownTickers: string[] = [];
  if (query.tickers) {
    const dataQuery = { ...query, tickers: query.tickers };
    const body = await buildDataBody(ctx, endpoint, dataQuery, now);
    bytes = maxBodyBytes(endpoint, dataQuery, body);
    records = body.recordCount;
    costNanos = chargeForBytes(bytes, price);
    tickerCount = query.tickers.length;
    unknownTickers = body.unknownTickers;
  } else {
    // One request per ticker, as a client pulling N tickers would make them.
    tickerCount = query.tickerCount;
    const sample = await spreadTickers(ctx.prisma, Math.min(tickerCount, ESTIMATE_SAMPLE_SIZE));
    const bounds = await Promise.all(
      sample.map(async (ticker) => {
        const dataQuery = { ...query, tickers: [ticker] };
        const body = await buildDataBody(ctx, endpoint, dataQuery, now);
        return { records: body.recordCount, bytes: maxBodyBytes(endpoint, dataQuery, body) };
      }),
    );
    const scale = (value: number) => (sample.length ? Math.ceil((value * tickerCount) / sample.length) : 0);
    bytes = scale(bounds.reduce((sum, b) => sum + b.bytes, 0));
    records = Math.round(sample.length ? (bounds.reduce((sum, b) => sum + b.records, 0) * tickerCount) / sample.length : 0);
    const sampleCost = bounds.reduce((sum, b) => sum + chargeForBytes(b.bytes, price), 0n);
    costNanos = sample.length ? ceilDiv(sampleCost * BigInt(tickerCount), BigInt(sample.length)) : 0n;
  }
  return {
    endpoint: endpoint.name,
    ticker_count: tickerCount,
    limit: query.limit,
    records_returned: records,
    estimated_bytes: bytes,
    estimated_cost_dollars: formatDollars(costNanos),
    price_per_gb_dollars: nanosToDollarNumber(price),
    supports_date_range: endpoint.supportsDateRange,
    unknown_tickers: unknownTickers,
  };
}

function lookupEndpoint(name: string): EndpointDefinition | undefined {
  return isEndpointName(name) ? ENDPOINTS[name] : undefined;
}

export function estimateRateLimitError(limit: number, retryAfter: number) {
  return new ApiError(
    "rate_limit_exceeded",
    `Estimates are limited to ${limit} per minute per client. Retry in ${retryAfter} s.`,
    { limit, window: "1m", retry_after: retryAfter },
    { "Retry-After": String(retryAfter) },
  );
}
