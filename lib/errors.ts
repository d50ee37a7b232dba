import { ZodError } from "zod";

/**
 * Errors every layer shares. A DomainError is a refusal a person can act on:
 * its message is written for them, and its code is stable so pages, the CLI
 * and tests can tell refusals apart. Anything else thrown is a fault.
 */
export type DomainErrorCode =
  | "invalid_input"
  // access (lib/platform/access.ts)
  | "signed_out"
  | "not_member"
  | "forbidden"
  // accounts
  | "email_taken"
  | "oauth_email_taken"
  | "oauth_no_email"
  | "rate_limited"
  | "account_locked"
  | "unknown_user"
  | "no_password"
  | "wrong_password"
  | "same_password"
  | "reset_link_unusable"
  | "email_not_configured"
  // organizations and members
  | "unknown_organization"
  | "unknown_plan"
  | "unknown_member"
  | "already_member"
  | "owner_only"
  | "last_owner"
  | "unknown_invitation"
  | "invalid_invitation"
  | "wrong_account"
  | "confirmation_mismatch"
  | "credit_not_forfeited"
  | "organization_closed"
  | "still_an_owner"
  | "same_plan"
  | "request_open"
  | "unknown_request"
  // keys
  | "unknown_key"
  | "ambiguous_key"
  | "unknown_endpoint"
  | "endpoint_not_in_plan"
  | "disabled_by_platform"
  | "restricted_by_platform"
  | "invalid_allow_list"
  | "invalid_expiry"
  | "key_not_rollable"
  // platform administration
  | "not_found"
  | "last_admin"
  | "own_admin_flag"
  | "plan_in_use"
  | "plan_slug_taken"
  | "organization_suspended"
  | "lock_self"
  | "default_plan"
  | "price_moment_taken"
  // money
  | "insufficient_funds"
  | "not_applied"
  | "invalid_amount"
  | "invalid_spend_cap"
  | "invalid_top_up"
  | "checkout_closed"
  | "billing_not_configured"
  | "payment_service_unavailable"
  | "no_saved_card";

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A unique constraint refused an insert: a concurrent twin got there first. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string; cause?: { code?: string } } | null;
  return e?.code === "P2002" || e?.code === "23505" || e?.cause?.code === "23505" || /unique constraint/i.test(e?.message ?? "");
}

/**
 * A dependency we cannot do without (the database, Redis) is down or
 * unreachable: thrown where that is known for certain (e.g. the Redis rate
 * limiter), and recognised below in what drivers throw.
 */
export class ServiceUnavailable extends Error {
  constructor(
    readonly dependency: "database" | "redis",
    options?: { cause?: unknown },
  ) {
    super(`${dependency} unavailable`, options);
    this.name = "ServiceUnavailable";
  }
}

const UNAVAILABLE_CODES = ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EHOSTUNREACH", "EPIPE", "57P01", "57P02", "57P03", "53300", "08000", "08003", "08006", "P1001", "P1017"];
const UNAVAILABLE_MESSAGES =
  /ECONNREFUSED|ECONNRESET|Connection terminated|connect ETIMEDOUT|server closed the connection|Can't reach database|the database system is (starting up|shutting down|in recovery mode)|terminating connection due to administrator command|Client has encountered a connection error|is not queryable|timeout exceeded when trying to connect|Connection is closed|MaxRetriesPerRequest|Command timed out|Stream isn't writeable/i;

/** The database or Redis (or the connection to it) is down, as opposed to a query that is wrong. */
export function isServiceUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === "object" && !seen.has(current)) {
    seen.add(current);
    // By name too: a bundle may hold two copies of this module, and instanceof sees only its own class.
    if (current instanceof ServiceUnavailable || (current as { name?: unknown }).name === "ServiceUnavailable") return true;
    const e = current as { code?: unknown; message?: unknown; cause?: unknown; name?: unknown };
    if (UNAVAILABLE_CODES.includes(String(e.code ?? ""))) return true;
    if (e.name === "MaxRetriesPerRequestError" || UNAVAILABLE_MESSAGES.test(String(e.message ?? ""))) return true;
    current = e.cause;
  }
  return false;
}

// ───────────────────── what a person is told ─────────────────────

/** A caller's own words for what the error itself does not say. */
export interface ErrorWords {
  /** A zod refusal without an issue to quote. */
  invalid: string;
  /** The database or Redis is down. */
  unavailable: string;
  /** Anything else: a fault, logged and never described. */
  internal: string;
  /** The log line's prefix for a fault, e.g. "[action] failed:". */
  log: string;
}

export interface ShownError {
  /** The HTTP status a route answers with. */
  status: 400 | 500 | 503;
  /** A DomainError's code, or invalid_input, service_unavailable, internal_error. */
  code: string;
  /** What the person reads. */
  message: string;
  /** A zod refusal's first message per field (the form marks each field). */
  fieldErrors?: Record<string, string>;
}

/** A zod refusal's first message for each top-level field ("form" when it has no path). */
export function fieldErrorsOf(error: ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    fields[key] ??= issue.message;
  }
  return fields;
}

/**
 * The one ladder from a thrown error to what a person sees, used by server
 * actions, the dashboard's route handlers and the console's upload: a zod
 * refusal quotes its first issue, a DomainError its message (both written for
 * the person), an outage says to try again, and anything else is logged and
 * answered with the caller's generic words, never a stack trace.
 */
export function classifyError(error: unknown, words: ErrorWords): ShownError {
  if (error instanceof ZodError) return { status: 400, code: "invalid_input", message: error.issues[0]?.message ?? words.invalid, fieldErrors: fieldErrorsOf(error) };
  if (error instanceof DomainError) return { status: 400, code: error.code, message: error.message };
  if (isServiceUnavailable(error)) return { status: 503, code: "service_unavailable", message: words.unavailable };
  console.error(words.log, error instanceof Error ? error.message : error);
  return { status: 500, code: "internal_error", message: words.internal };
}
