import { isServiceUnavailable } from "@/lib/errors";

/**
 * The API's errors: one class, one envelope (the spec's), stable codes
 * (DESIGN.md §4). Anything thrown that is not an ApiError becomes a 500
 * `internal_error` with no detail, never a stack trace.
 */
export type ApiErrorCode =
  | "invalid_parameter"
  | "missing_parameter"
  | "missing_api_key"
  | "invalid_api_key"
  | "api_key_disabled"
  | "api_key_expired"
  | "ip_not_allowed"
  | "spend_limit_reached"
  | "endpoint_not_allowed"
  | "organization_suspended"
  | "insufficient_credits"
  | "not_found"
  | "method_not_allowed"
  | "rate_limit_exceeded"
  | "trial_ticker_limit"
  | "internal_error"
  | "service_unavailable";

const STATUS: Record<ApiErrorCode, number> = {
  invalid_parameter: 400,
  missing_parameter: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  api_key_disabled: 401,
  api_key_expired: 401,
  insufficient_credits: 402,
  spend_limit_reached: 402,
  endpoint_not_allowed: 403,
  ip_not_allowed: 403,
  organization_suspended: 403,
  not_found: 404,
  method_not_allowed: 405,
  rate_limit_exceeded: 429,
  trial_ticker_limit: 429,
  internal_error: 500,
  service_unavailable: 503,
};

export const ERROR_CODES = Object.keys(STATUS) as ApiErrorCode[];

/**
 * When each code is answered and what its details hold, for /endpoints and
 * the docs; typed by the codes, so a new code cannot be forgotten here.
 */
export const ERROR_GUIDE: Record<ApiErrorCode, { when: string; details: string }> = {
  invalid_parameter: {
    when: "A parameter fails validation: a malformed ticker, a limit over the maximum, a bad date, an unknown or repeated parameter.",
    details: "parameter, reason",
  },
  missing_parameter: { when: "A required parameter (ticker) is absent.", details: "parameter" },
  missing_api_key: { when: "No API-KEY header; a key under another header name counts as none.", details: "—" },
  invalid_api_key: { when: "The key is not recognised: a typo, extra whitespace, or a deleted key.", details: "—" },
  api_key_disabled: {
    when: "The key has been disabled: by an owner or admin, who can re-enable it on the API keys page of the dashboard, or by the platform, whose reason the message gives.",
    details: "—",
  },
  api_key_expired: {
    when: "The key is past the expiry date it was created with, or it was rolled and its grace period is over. Use the new key, or create one.",
    details: "expired_at",
  },
  ip_not_allowed: {
    when: "The key has an IP allow-list and the request came from an address outside it. Checked right after the endpoint permission, before the rate limit. Nothing is charged.",
    details: "ip",
  },
  spend_limit_reached: {
    when: "The balance covers the request, but it would take the key's or the organization's spend of the UTC day or month over its cap. Checked right after the credit check. Nothing is sent or charged.",
    details: "scope, period, limit_dollars, spent_dollars, estimated_cost_dollars, resets_at, unit",
  },
  insufficient_credits: {
    when: "The balance is lower than the cost of the response. Nothing is charged.",
    details: "balance_dollars, estimated_cost_dollars, unit",
  },
  endpoint_not_allowed: {
    when: "The organization's plan does not include this endpoint (the message names the plans that do), or the key's endpoints, as the platform restricted them or as the key is set, leave it out.",
    details: "endpoint, allowed_endpoints",
  },
  organization_suspended: { when: "The platform suspended the organization; the dashboard says why. Nothing is charged.", details: "—" },
  not_found: { when: "No endpoint at this path.", details: "path" },
  method_not_allowed: { when: "A method other than GET (with an Allow header).", details: "allowed" },
  rate_limit_exceeded: {
    when: "The organization is over its requests per minute (or a client over its /estimate calls). Retry-After says when to retry.",
    details: "limit, window, retry_after",
  },
  trial_ticker_limit: {
    when: "A trial organization asked for more different tickers on one endpoint today than its plan allows.",
    details: "endpoint, limit, used, resets_at",
  },
  internal_error: { when: "Something failed on our side. The request is not charged; never a stack trace.", details: "—" },
  service_unavailable: { when: "The database is unreachable for a moment; retry shortly.", details: "—" },
};

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    /** Extra response headers (Retry-After, Allow …). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = STATUS[code];
  }
}

export const invalidParameter = (parameter: string, reason: string) =>
  new ApiError("invalid_parameter", `Invalid value for "${parameter}": ${reason}.`, { parameter, reason });

export const missingParameter = (parameter: string) =>
  new ApiError("missing_parameter", `The "${parameter}" parameter is required.`, { parameter });

export function errorBody(error: ApiError, requestId: string) {
  return {
    status: "error" as const,
    error: { code: error.code, message: error.message, details: error.details },
    request_id: requestId,
  };
}

/** Seconds a client is asked to wait after a 503. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/** Maps an unexpected failure to 503 (the database or Redis unreachable) or 500. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isServiceUnavailable(error)) {
    return new ApiError("service_unavailable", "The service is temporarily unavailable. Please retry shortly.", {}, { "Retry-After": String(OUTAGE_RETRY_AFTER_SECONDS) });
  }
  return new ApiError("internal_error", "Something went wrong on our side. The request was not charged.");
}

/** Server-side log of a failure: the full error for a 500; an outage once every few seconds, with how many requests it refused. */
const OUTAGE_LOG_INTERVAL_MS = 5_000;
const outageLog = { last: 0, refused: 0 };

export function logFailure(error: ApiError, thrown: unknown, context: string): void {
  if (error.code === "internal_error") {
    console.error(context, thrown);
  } else if (error.code === "service_unavailable") {
    outageLog.refused++;
    const now = Date.now();
    if (now - outageLog.last < OUTAGE_LOG_INTERVAL_MS) return;
    const refused = outageLog.refused;
    outageLog.last = now;
    outageLog.refused = 0;
    console.warn(`${context} a dependency is unavailable (${refused} request(s) answered 503 since the last report): ${(thrown as Error)?.message?.split("\n")[0] ?? thrown}`);
  }
}
