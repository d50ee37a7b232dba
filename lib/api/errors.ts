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
