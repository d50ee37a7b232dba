import { CodeBlock } from "@/components/ui/code-block";
import { ENDPOINT_NAMES } from "@/lib/catalog";
import type { PlanLimits } from "@/lib/api/docs";
import { ApiError, ERROR_CODES, errorBody, invalidParameter, type ApiErrorCode } from "@/lib/api/errors";
import { formatCount } from "@/lib/utils/format";
import { Code, DocSection, DocTable, Prose, TD } from "./doc-section";
import { JsonCode } from "./json-code";

/** When each code is answered and what its details hold; typed by the codes, so a new code cannot be forgotten here. */
const WHEN: Record<ApiErrorCode, { when: string; details: string }> = {
  invalid_parameter: {
    when: "A parameter fails validation: a malformed ticker, a limit over the maximum, a bad date, an unknown or repeated parameter.",
    details: "parameter, reason",
  },
  missing_parameter: { when: "A required parameter (ticker) is absent.", details: "parameter" },
  missing_api_key: { when: "No API-KEY header; a key under another header name counts as none.", details: "—" },
  invalid_api_key: { when: "The key is not recognised: a typo, extra whitespace, or a deleted key.", details: "—" },
  api_key_disabled: { when: "The key has been disabled on the platform; re-enable it to use it again.", details: "—" },
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
  endpoint_not_allowed: { when: "The plan, or the key's restrictions, do not include this endpoint.", details: "endpoint, allowed_endpoints" },
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

const statusOf = (code: ApiErrorCode) => new ApiError(code, "").status;

// A real envelope, built by the API's own functions; only the request id is a placeholder.
const EXAMPLE_ERROR = JSON.stringify(
  errorBody(invalidParameter("limit", "must be a whole number from 1 to 100"), "8f14e45f-ceea-467f-a8f0-6f1c2d3b4a5e"),
  null,
  2,
);

/** The error envelope and every stable code. */
export function ErrorsSection() {
  const codes = [...ERROR_CODES].sort((a, b) => statusOf(a) - statusOf(b));
  return (
    <DocSection id="errors" title="Errors">
      <Prose>
        <p>
          Errors use one envelope and the HTTP status that fits. Branch on <Code>error.code</Code>: codes are stable, messages are
          for people and may be reworded. <Code>request_id</Code> is also in the <Code>X-Request-ID</Code> header. An error is
          never charged.
        </p>
        <p>
          Checks run in this order and the first failure answers: authentication, endpoint permission, rate limit, credit check,
          trial ticker limit, then the request itself. So a 401 comes before a 429, and a 429 before a 402.
        </p>
      </Prose>
      <CodeBlock className="mt-5 max-w-3xl" code={EXAMPLE_ERROR} title="400 Bad Request" language="application/json" copyLabel={false}>
        <JsonCode json={EXAMPLE_ERROR} />
      </CodeBlock>
      {/* A table where there is room for it, a list on phones. */}
      <DocTable caption="Error codes" head={["Code", "HTTP", "When", "details"]} wide className="hidden md:block">
        {codes.map((code) => (
          <tr key={code}>
            <td className={`${TD} font-mono text-[13px] whitespace-nowrap text-zinc-900`}>{code}</td>
            <td className={`${TD} font-mono text-[13px]`}>{statusOf(code)}</td>
            <td className={TD}>{WHEN[code].when}</td>
            <td className={`${TD} font-mono text-xs text-zinc-500`}>{WHEN[code].details}</td>
          </tr>
        ))}
      </DocTable>
      <ul aria-label="Error codes" className="mt-5 divide-y divide-zinc-100 rounded-lg border border-zinc-200 bg-white md:hidden">
        {codes.map((code) => (
          <li key={code} className="px-4 py-3 text-sm">
            <p className="flex flex-wrap items-baseline justify-between gap-x-3">
              <code className="font-mono text-[13px] font-medium text-zinc-900">{code}</code>
              <span className="font-mono text-xs text-zinc-500">HTTP {statusOf(code)}</span>
            </p>
            <p className="mt-1 text-zinc-700">{WHEN[code].when}</p>
            {WHEN[code].details !== "—" ? (
              <p className="mt-1 font-mono text-xs text-zinc-500">details: {WHEN[code].details}</p>
            ) : null}
          </li>
        ))}
      </ul>
    </DocSection>
  );
}

/** Requests per minute and the trial's ticker limit, from the plans in the database. */
export function RateLimitsSection({ plans, estimateLimitPerMinute }: { plans: PlanLimits[]; estimateLimitPerMinute: number }) {
  return (
    <DocSection id="rate-limits" title="Rate limits">
      <Prose>
        <p>
          Limits count per organization, across all its keys, in one-minute windows. Over the limit you get{" "}
          <Code>429 rate_limit_exceeded</Code> with a <Code>Retry-After</Code> header (in seconds); the{" "}
          <Code>X-RateLimit-*</Code> headers of every response tell you where you stand before that happens.
        </p>
        <p>
          Trial plans may also ask for a limited number of different tickers per endpoint per day (the day ends at midnight,
          America/Chicago); past it, <Code>429 trial_ticker_limit</Code>. The free <Code>/estimate</Code> allows{" "}
          {formatCount(estimateLimitPerMinute)} requests per minute per client.
        </p>
      </Prose>
      {plans.length ? (
        <DocTable caption="Limits of each plan" head={["Plan", "Per minute", "Endpoints", "Tickers per day"]}>
          {plans.map((plan) => (
            <tr key={plan.slug}>
              <td className={`${TD} font-medium text-zinc-900`}>{plan.name}</td>
              <td className={TD}>{formatCount(plan.requestsPerMinute)}</td>
              <td className={TD}>{endpointsText(plan.allowedEndpoints)}</td>
              <td className={TD}>{plan.dailyTickerLimit === null ? "Unlimited" : formatCount(plan.dailyTickerLimit)}</td>
            </tr>
          ))}
        </DocTable>
      ) : null}
    </DocSection>
  );
}

function endpointsText(allowed: string[]): string {
  const missing = ENDPOINT_NAMES.filter((name) => !allowed.includes(name));
  if (missing.length === 0) return "All";
  if (missing.length === ENDPOINT_NAMES.length) return "None";
  if (missing.length <= 2) return `All but ${missing.join(" and ")}`;
  return ENDPOINT_NAMES.filter((name) => allowed.includes(name)).join(", ");
}
