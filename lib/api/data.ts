import { chargeForBytes, formatDollars, formatMoney } from "@/lib/money";
import { chargeUsage } from "@/lib/billing/ledger";
import { effectiveEndpoints, hashApiKey } from "@/lib/keys";
import { maxRecordBytes, RECORD_SOURCES, resolveCompanies } from "@/lib/data/records";
import type { EndpointDefinition } from "@/lib/catalog";
import type { ApiContext } from "./context";
import { ApiError, logFailure, toApiError } from "./errors";
import { endpointNotAllowed } from "./endpoint-refusal";
import type { KeyAccess } from "./key-cache";
import { selectFields } from "./fields";
import { parseDataQuery, type DataQuery } from "./params";
import { encodeJson, errorResponse, jsonResponse } from "./response";
import { chicagoDay, chicagoDayEnd } from "./trial";
import { clientIp } from "@/lib/utils/client-ip";
import { isoDay } from "@/lib/utils/dates";
import { ipAllowed } from "@/lib/utils/ip-ranges";
import { requestUrl } from "@/lib/utils/request-url";

/**
 * One data request, in the spec's order: authentication (incl. the key's
 * expiry) → endpoint permission and the key's IP allow-list → rate limit →
 * credit check → spend caps → trial ticker limit → processing. The body is
 * built in memory first so the cost is exact (its UTF-8 bytes × price); no
 * byte of it leaves before the charge has committed, and nothing is charged
 * for a refusal, a failure or an answer without records (a ticker that names
 * no company is named back in X-Unknown-Tickers).
 */
export interface ResponseBody {
  bytes: Uint8Array<ArrayBuffer>;
  recordCount: number;
  /** The requested tickers that name no company, in request order. */
  unknownTickers: string[];
}

const EMPTY_ENVELOPE_KEYS = { status: "success", count: 0, has_more: false, page: 0, limit: 0, results: [] };

/**
 * The most bytes a page of `recordCount` records can take, whatever the
 * records hold: the envelope, and each record at its fields' widest
 * (lib/data/records/schemas.ts, RECORD_WIDTHS). What /estimate prices and a refusal
 * quotes, so neither reveals a value; the body sent is never larger. An
 * answer without records is free: 0.
 */
export function maxBodyBytes(endpoint: EndpointDefinition, query: DataQuery, body: Pick<ResponseBody, "recordCount" | "unknownTickers">): number {
  if (body.recordCount === 0) return 0;
  const unknown = new Set(body.unknownTickers);
  const tickerLength = Math.max(0, ...query.tickers.filter((t) => !unknown.has(t)).map((t) => t.length));
  const record = maxRecordBytes(endpoint.name, { fields: query.fields, includeSource: query.includeSource, tickerLength });
  const envelope = encodeJson({ ...EMPTY_ENVELOPE_KEYS, count: body.recordCount, page: query.page, limit: query.limit }).byteLength;
  return envelope + body.recordCount * record + (body.recordCount - 1);
}

/** The header that names the tickers no company has (none: no header). */
function unknownTickersHeader(body: ResponseBody): Record<string, string> {
  return body.unknownTickers.length ? { "X-Unknown-Tickers": body.unknownTickers.join(",") } : {};
}

/**
 * The envelope for one page, exactly as a data endpoint sends it (shared with
 * /estimate): the cached bytes themselves when the cache is current (no
 * promise, which the busy path would pay for), else a promise of them.
 */
export function buildDataBody(ctx: ApiContext, endpoint: EndpointDefinition, query: DataQuery, now: Date): ResponseBody | Promise<ResponseBody> {
  const key = bodyKey(endpoint, query, now);
  return ctx.bodies.peek(key) ?? ctx.bodies.get(key, () => readDataBody(ctx, endpoint, query, now));
}

/** Everything that shapes a page's body. */
function bodyKey(endpoint: EndpointDefinition, query: DataQuery, now: Date): string {
  return [
    endpoint.name,
    query.tickers.join(","),
    query.page,
    query.limit,
    query.dateFrom?.toISOString() ?? "",
    query.dateTo?.toISOString() ?? "",
    query.effectiveOnly ? "effective" : "",
    query.knownOn?.toISOString() ?? "",
    query.includeSource ? "source" : "",
    query.fields?.join(",") ?? "",
    isoDay(now),
  ].join("|");
}

async function readDataBody(ctx: ApiContext, endpoint: EndpointDefinition, query: DataQuery, now: Date): Promise<ResponseBody> {
  const companies = await resolveCompanies(ctx.prisma, query.tickers);
  const known = new Set(companies.map((c) => c.ticker));
  const records = companies.length
    ? await RECORD_SOURCES[endpoint.name](ctx.prisma, {
        companies,
        offset: (query.page - 1) * query.limit,
        limit: query.limit,
        dateFrom: query.dateFrom,
        dateTo: query.dateTo,
        effectiveOnly: query.effectiveOnly,
        knownOn: query.knownOn,
        includeSource: query.includeSource,
        asOf: now,
      })
    : [];
  const results = records.slice(0, query.limit);
  const body = {
    status: "success",
    count: results.length,
    has_more: records.length > query.limit,
    page: query.page,
    limit: query.limit,
    results,
  };
  // Cut before encoding, so the bytes charged are those of the smaller body.
  return {
    bytes: encodeJson(query.fields ? selectFields(body, query.fields) : body),
    recordCount: results.length,
    unknownTickers: query.tickers.filter((ticker) => !known.has(ticker)),
  };
}

/**
 * A page without records: sent free, with no charge and no ledger entry;
 * its usage event is recorded at zero cost, as a refused request's is.
 */
async function freeAnswer(
  ctx: ApiContext,
  access: KeyAccess,
  endpoint: EndpointDefinition,
  body: ResponseBody,
  request: { tickers: string[]; requestId: string; now: Date; ip: string | null; headers: Record<string, string> },
): Promise<Response> {
  const [org] = await Promise.all([
    ctx.prisma.organization.findUniqueOrThrow({ where: { id: access.orgId }, select: { balanceNanos: true } }),
    ctx.usage.record({
      orgId: access.orgId,
      keyId: access.keyId,
      endpoint: endpoint.name,
      tickers: request.tickers,
      statusCode: 200,
      errorCode: null,
      bytes: body.bytes.byteLength,
      requestId: request.requestId,
      now: request.now,
      clientIp: request.ip,
    }),
  ]);
  return jsonResponse(body.bytes, {
    requestId: request.requestId,
    headers: {
      ...request.headers,
      "X-Cost-Dollars": formatDollars(0n),
      "X-Balance-Dollars": formatDollars(org.balanceNanos),
      "X-Billable-Bytes": "0",
    },
  });
}

function authenticate(request: Request): string {
  const key = request.headers.get("api-key");
  if (key === null || key === "") {
    throw new ApiError("missing_api_key", "Send your API key in the API-KEY header.");
  }
  return key;
}

function rateLimitHeaders(decision: { limit: number; remaining: number; resetAt: Date }): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Reset": String(Math.ceil(decision.resetAt.getTime() / 1000)),
  };
}

export async function handleDataRequest(
  request: Request,
  endpoint: EndpointDefinition,
  ctx: ApiContext,
  requestId: string,
): Promise<Response> {
  const now = ctx.now();
  const address = clientIp(request.headers);
  const ip = address === "unknown" ? null : address;
  let access: KeyAccess | null = null;
  let keyHash: string | null = null;
  let headers: Record<string, string> = {};
  let tickers: string[] = [];
  try {
    const key = authenticate(request);
    keyHash = hashApiKey(key);
    access = ctx.keys.peek(keyHash, now.getTime()) ?? (await ctx.keys.lookup(keyHash, now.getTime()));
    if (!access) throw new ApiError("invalid_api_key", "The API key is not valid. Check it for typos or create a new one.");
    if (access.status === "DISABLED") {
      const platform = access.disabledByPlatform;
      throw new ApiError(
        "api_key_disabled",
        platform
          ? `The API key ${access.hint}… was disabled by the platform${platform.reason ? `: ${platform.reason}` : ""}. Contact support to have it re-enabled.`
          : `The API key ${access.hint}… is disabled. An owner or admin can re-enable it on the API keys page of the dashboard.`,
      );
    }
    if (access.expiresAtMs !== null && now.getTime() >= access.expiresAtMs) {
      const at = new Date(access.expiresAtMs).toISOString();
      throw new ApiError(
        "api_key_expired",
        access.rolled
          ? `The API key ${access.hint}… was replaced by a new key; its grace period ended at ${at}. Use the new key.`
          : `The API key ${access.hint}… expired at ${at}. Create a new key on the API keys page of the dashboard.`,
        { expired_at: at },
      );
    }
    if (access.suspended) {
      throw new ApiError("organization_suspended", "This organization is suspended by the platform. Its members can see why on the dashboard.");
    }

    const allowed = effectiveEndpoints(access.plan.allowedEndpoints, access.platformEndpoints, access.keyEndpoints);
    if (!allowed.includes(endpoint.name)) {
      throw await endpointNotAllowed(ctx.prisma, access, endpoint, allowed);
    }
    if (access.allowedIps !== null && !ipAllowed(access.allowedIps, ip)) {
      throw new ApiError(
        "ip_not_allowed",
        ip === null
          ? "This key accepts requests only from its allowed addresses, and this request's address is not known."
          : `This key does not accept requests from ${ip}. Add the address to the key's allow-list on the API keys page of the dashboard.`,
        { ip },
      );
    }

    const decision = await ctx.rateLimiter.hit(`org:${access.orgId}`, access.plan.requestsPerMinute, now);
    headers = rateLimitHeaders(decision);
    if (!decision.allowed) {
      throw new ApiError(
        "rate_limit_exceeded",
        `Rate limit of ${decision.limit} requests per minute reached. Retry in ${decision.retryAfterSeconds} s.`,
        { limit: decision.limit, window: "1m", retry_after: decision.retryAfterSeconds },
        { "Retry-After": String(decision.retryAfterSeconds) },
      );
    }

    const query = parseDataQuery(requestUrl(request).searchParams, endpoint);
    tickers = query.tickers;
    // Cached answers are taken without a promise: on the busy path every await costs.
    const built = buildDataBody(ctx, endpoint, query, now);
    const body = built instanceof Promise ? await built : built;
    headers = { ...headers, ...unknownTickersHeader(body) };
    if (body.recordCount === 0) return await freeAnswer(ctx, access, endpoint, body, { tickers, requestId, now, ip, headers });
    const known = body.unknownTickers.length ? tickers.filter((t) => !body.unknownTickers.includes(t)) : tickers;
    const price = ctx.prices.peek(endpoint.name, now.getTime()) ?? (await ctx.prices.pricePerGbNanos(endpoint.name, now.getTime()));
    const costNanos = chargeForBytes(body.bytes.byteLength, price);
    const outcome = await chargeUsage(ctx, {
      orgId: access.orgId,
      keyId: access.keyId,
      endpoint: endpoint.name,
      tickers: known,
      bytes: body.bytes.byteLength,
      costNanos,
      requestId,
      now,
      clientIp: ip,
      dailyTickerLimit: access.plan.isTrial ? access.plan.dailyTickerLimit : null,
      trialDay: chicagoDay(now),
      keyHasSpendCap: access.hasSpendCap,
    });
    // A refusal quotes the estimate (the bound), not the exact cost: an account without credits learns no more than /estimate tells.
    const estimatedNanos = () => chargeForBytes(maxBodyBytes(endpoint, query, body), price);
    const estimated = () => formatDollars(estimatedNanos());
    if (outcome.status === "insufficient_credits") {
      throw new ApiError(
        "insufficient_credits",
        `This request costs up to ${formatMoney(estimatedNanos())} and the balance is ${formatMoney(outcome.balanceNanos, "balance")}. Add credits on the billing page.`,
        { balance_dollars: formatDollars(outcome.balanceNanos), estimated_cost_dollars: estimated(), unit: "dollars" },
      );
    }
    if (outcome.status === "spend_limit_reached") {
      const { hit } = outcome;
      const limit = formatDollars(hit.limitNanos);
      const spent = formatDollars(hit.spentNanos);
      throw new ApiError(
        "spend_limit_reached",
        `This request costs up to ${formatMoney(estimatedNanos())}, and the ${hit.scope === "key" ? "key's" : "organization's"} ${hit.period === "day" ? "daily" : "monthly"} spend cap of ${formatMoney(hit.limitNanos, "typed")} has ${formatMoney(hit.spentNanos)} spent. It resets at ${hit.resetsAt.toISOString()}; raise the cap on the ${hit.scope === "key" ? "API keys" : "Billing"} page of the dashboard to continue now.`,
        {
          scope: hit.scope,
          period: hit.period,
          limit_dollars: limit,
          spent_dollars: spent,
          estimated_cost_dollars: estimated(),
          resets_at: hit.resetsAt.toISOString(),
          unit: "dollars",
        },
      );
    }
    if (outcome.status === "trial_ticker_limit") {
      throw new ApiError(
        "trial_ticker_limit",
        `Trial accounts may query ${outcome.limit} different tickers per endpoint per day; ${outcome.used} used today. Upgrade for unlimited tickers.`,
        { endpoint: endpoint.name, limit: outcome.limit, used: outcome.used, resets_at: chicagoDayEnd(now).toISOString() },
      );
    }
    return jsonResponse(body.bytes, {
      requestId,
      headers: {
        ...headers,
        "X-Cost-Dollars": formatDollars(costNanos),
        "X-Balance-Dollars": formatDollars(outcome.balanceAfterNanos),
        "X-Billable-Bytes": String(body.bytes.byteLength),
      },
    });
  } catch (thrown) {
    const error = toApiError(thrown);
    logFailure(error, thrown, `[api] ${requestId} ${endpoint.path}:`);
    const response = errorResponse(error, requestId, headers);
    // A key whose cached entry grew old during a database outage could not be read again: the request is still its.
    const owner = access ?? (keyHash !== null && error.code === "service_unavailable" ? ctx.keys.lastKnown(keyHash) : null);
    if (owner) {
      await ctx.usage.record({
        orgId: owner.orgId,
        keyId: owner.keyId,
        endpoint: endpoint.name,
        tickers,
        statusCode: error.status,
        errorCode: error.code,
        bytes: Number(response.headers.get("Content-Length") ?? 0),
        requestId,
        now,
        clientIp: ip,
      }).catch((logError) => console.error(`[api] ${requestId}: could not record usage event:`, logError));
    }
    return response;
  }
}
