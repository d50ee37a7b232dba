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
  // keys
  | "unknown_key"
  | "ambiguous_key"
  | "unknown_endpoint"
  | "endpoint_not_in_plan"
  // money
  | "insufficient_funds"
  | "not_applied"
  | "invalid_amount"
  | "invalid_top_up"
  | "checkout_closed"
  | "billing_not_configured"
  | "payment_service_unavailable";

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

/** The database (or the connection to it) is down, as opposed to a query that is wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === "object" && !seen.has(current)) {
    seen.add(current);
    const e = current as { code?: unknown; message?: unknown; cause?: unknown };
    const code = String(e.code ?? "");
    const message = String(e.message ?? "");
    if (["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EHOSTUNREACH", "57P01", "57P03", "53300", "P1001", "P1017"].includes(code)) return true;
    if (/ECONNREFUSED|Connection terminated|connect ETIMEDOUT|server closed the connection|Can't reach database|the database system is (starting up|shutting down)|terminating connection/i.test(message)) return true;
    current = e.cause;
  }
  return false;
}
