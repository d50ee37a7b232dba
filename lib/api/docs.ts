import { chargeForBytes } from "@/lib/money";
import { PLAN_SLUGS } from "@/lib/billing/plans";
import { spreadTickers } from "@/lib/data/records";
import { SAMPLE_SHOWCASE } from "@/lib/data/sample";
import { ENDPOINT_LIST, type EndpointDefinition, type EndpointName } from "@/lib/catalog";
import type { ApiContext } from "./context";
import { buildDataBody } from "./data";
import { DEFAULT_LIMIT } from "./params";

/**
 * What the docs page shows from the live database: each endpoint's current
 * price, a real response built by the API's own pipeline (buildDataBody, the
 * function /v1 and /estimate call) and the plans' limits. Nothing is charged.
 */
export const SAMPLE_LIMIT = 2;

/** The showcase ticker with the most telling records for each endpoint. */
export const PREFERRED_SAMPLE_TICKERS: Record<EndpointName, string> = {
  "dilution-rating": SAMPLE_SHOWCASE.highRisk,
  "dilution-data": SAMPLE_SHOWCASE.manyInstruments,
  registrations: SAMPLE_SHOWCASE.highRisk,
  "nasdaq-compliance": SAMPLE_SHOWCASE.manyDeficiencies,
  "float-outstanding": SAMPLE_SHOWCASE.highRisk,
  offerings: SAMPLE_SHOWCASE.manyOfferings,
  "reverse-splits": SAMPLE_SHOWCASE.highRisk,
};

// Tickers spread over the database, tried when no showcase ticker has data
// (a database holding imported data only).
const FALLBACK_TICKER_COUNT = 8;

export interface SampleResponse {
  ticker: string;
  /** The request's query parameters, in order. */
  params: { ticker: string; limit: number };
  /** The body exactly as the API sends it (compact JSON). */
  body: string;
  bytes: number;
  costNanos: bigint;
  recordCount: number;
}

export interface PageCost {
  limit: number;
  recordCount: number;
  bytes: number;
  costNanos: bigint;
}

export interface EndpointDoc {
  endpoint: EndpointDefinition;
  pricePerGbNanos: bigint;
  /** A short response (SAMPLE_LIMIT records); null when the database has no record for the endpoint. */
  sample: SampleResponse | null;
  /** A default page (limit 10) for the same ticker: what a typical call costs. */
  typical: PageCost | null;
}

export interface PlanLimits {
  slug: string;
  name: string;
  requestsPerMinute: number;
  allowedEndpoints: string[];
  dailyTickerLimit: number | null;
}

export interface DocsData {
  endpoints: EndpointDoc[];
  plans: PlanLimits[];
  estimateLimitPerMinute: number;
}

export async function loadDocsData(ctx: ApiContext): Promise<DocsData> {
  const now = ctx.now();
  let fallback: Promise<string[]> | undefined;
  const fallbackTickers = () => (fallback ??= spreadTickers(ctx.prisma, FALLBACK_TICKER_COUNT));

  const [endpoints, plans] = await Promise.all([
    Promise.all(ENDPOINT_LIST.map((endpoint) => loadEndpointDoc(ctx, endpoint, now, fallbackTickers))),
    ctx.prisma.plan.findMany({ where: { slug: { in: [...PLAN_SLUGS] } } }),
  ]);
  const order = (slug: string) => (PLAN_SLUGS as readonly string[]).indexOf(slug);
  return {
    endpoints,
    plans: plans
      .sort((a, b) => order(a.slug) - order(b.slug))
      .map(({ slug, name, requestsPerMinute, allowedEndpoints, dailyTickerLimit }) => ({
        slug,
        name,
        requestsPerMinute,
        allowedEndpoints,
        dailyTickerLimit: dailyTickerLimit ?? null,
      })),
    estimateLimitPerMinute: ctx.estimateLimitPerMinute,
  };
}

async function loadEndpointDoc(
  ctx: ApiContext,
  endpoint: EndpointDefinition,
  now: Date,
  fallbackTickers: () => Promise<string[]>,
): Promise<EndpointDoc> {
  const pricePerGbNanos = await ctx.prices.pricePerGbNanos(endpoint.name, now.getTime());
  const preferred = PREFERRED_SAMPLE_TICKERS[endpoint.name];
  const tried = new Set<string>();
  const attempt = async (ticker: string) => {
    if (tried.has(ticker)) return null;
    tried.add(ticker);
    return measure(ctx, endpoint, ticker, now, pricePerGbNanos);
  };

  let found = (await attempt(preferred)) ?? (await attempt(SAMPLE_SHOWCASE.highRisk));
  for (const ticker of found ? [] : await fallbackTickers()) {
    found = await attempt(ticker);
    if (found) break;
  }
  return { endpoint, pricePerGbNanos, sample: found?.sample ?? null, typical: found?.typical ?? null };
}

/** The short sample and a default page for one ticker, or null when it has no record here. */
async function measure(ctx: ApiContext, endpoint: EndpointDefinition, ticker: string, now: Date, price: bigint) {
  const page = (limit: number) => buildDataBody(ctx, endpoint, { tickers: [ticker], page: 1, limit }, now);
  const [short, full] = await Promise.all([page(SAMPLE_LIMIT), page(DEFAULT_LIMIT)]);
  if (short.recordCount === 0) return null;
  const sample: SampleResponse = {
    ticker,
    params: { ticker, limit: SAMPLE_LIMIT },
    body: new TextDecoder().decode(short.bytes),
    bytes: short.bytes.byteLength,
    costNanos: chargeForBytes(short.bytes.byteLength, price),
    recordCount: short.recordCount,
  };
  const typical: PageCost = {
    limit: DEFAULT_LIMIT,
    recordCount: full.recordCount,
    bytes: full.bytes.byteLength,
    costNanos: chargeForBytes(full.bytes.byteLength, price),
  };
  return { sample, typical };
}
