import { CodeBlock } from "@/components/ui/code-block";
import { ENDPOINT_NAMES } from "@/lib/catalog";
import type { PlanLimits } from "@/lib/api/docs";
import { ApiError, ERROR_CODES, ERROR_GUIDE as WHEN, errorBody, invalidParameter, type ApiErrorCode } from "@/lib/api/errors";
import { formatCount } from "@/lib/utils/format";
import { Code, DocSection, DocTable, Prose, TD } from "./doc-section";
import { JsonCode } from "./json-code";


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
          A ticker that names no company is not an error, and a typo never costs money: the answer is a <Code>200</Code> with
          the known tickers&apos; records only, charged for those alone, and names the unknown ones in the{" "}
          <Code>X-Unknown-Tickers</Code> header (comma-separated, upper case). An answer without records is free.
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
