"use client";

import { useId, useState, type FormEvent, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { parseDollars } from "@/lib/money";
import { Money } from "@/components/ui/money";
import { formatBytes, formatCount } from "@/lib/utils/format";
import { pricePerGbText, requestsPerDollarText } from "./pricing";

export interface EstimatorEndpoint {
  name: string;
  title: string;
  maxLimit: number;
  supportsDateRange: boolean;
  /** A ticker with records for this endpoint, to start from. */
  sampleTicker: string | null;
}

/** The /estimate answer (the spec's cost estimate object). */
interface Estimate {
  endpoint: string;
  ticker_count: number;
  limit?: number;
  records_returned: number;
  estimated_bytes?: number;
  estimated_cost_dollars: string;
  unknown_tickers?: string[];
  price_per_gb_dollars?: number;
}

interface ApiFailure {
  status: number;
  code?: string;
  message: string;
  details: Record<string, unknown>;
}

/** `path` is shown; `url` (absolute, so it works in a terminal) is what the copy button copies. */
type Outcome =
  | { kind: "estimate"; estimate: Estimate; path: string; url: string }
  | { kind: "error"; failure: ApiFailure; path: string; url: string };

const CONTROL =
  "block h-10 w-full min-w-0 rounded-md border border-zinc-300 bg-white px-3 text-sm text-zinc-900 shadow-sm placeholder:text-zinc-400 " +
  "focus-visible:border-accent-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-accent-600";

/** A form over GET /estimate: what a request would cost, free, before making it. */
export function CostEstimator({ endpoints }: { endpoints: EstimatorEndpoint[] }) {
  const id = useId();
  const [endpointName, setEndpointName] = useState(endpoints[0]?.name ?? "");
  const [ticker, setTicker] = useState(endpoints[0]?.sampleTicker ?? "");
  const [tickerEdited, setTickerEdited] = useState(false);
  const [page, setPage] = useState("1");
  const [limit, setLimit] = useState("10");
  const [dateFrom, setDateFrom] = useState("");
  const [dateTo, setDateTo] = useState("");
  const [loading, setLoading] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const endpoint = endpoints.find((e) => e.name === endpointName);

  function chooseEndpoint(name: string) {
    setEndpointName(name);
    // Until the visitor types a ticker, follow the endpoint's sample ticker.
    const sample = endpoints.find((e) => e.name === name)?.sampleTicker;
    if (!tickerEdited && sample) setTicker(sample);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const query = new URLSearchParams({ endpoint: endpointName, ticker: ticker.trim() });
    if (page.trim()) query.set("page", page.trim());
    if (limit.trim()) query.set("limit", limit.trim());
    if (endpoint?.supportsDateRange && dateFrom) query.set("date_from", dateFrom);
    if (endpoint?.supportsDateRange && dateTo) query.set("date_to", dateTo);
    const path = `/estimate?${query}`;
    setLoading(true);
    try {
      setOutcome({ ...(await requestEstimate(path)), url: new URL(path, window.location.origin).toString() });
    } finally {
      setLoading(false);
    }
  }

  const field = (name: string) => `${id}-${name}`;
  return (
    <div className="mt-5 grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
      <form onSubmit={submit} noValidate className="flex flex-col gap-4 rounded-lg border border-zinc-200 bg-white p-5 shadow-sm">
        <Field id={field("endpoint")} label="Endpoint">
          <select id={field("endpoint")} value={endpointName} onChange={(e) => chooseEndpoint(e.target.value)} className={`${CONTROL} pr-8`}>
            {endpoints.map((e) => (
              <option key={e.name} value={e.name}>
                {e.title} ({e.name})
              </option>
            ))}
          </select>
        </Field>
        <Field id={field("ticker")} label="Tickers" hint="One ticker, or up to 50 separated by commas.">
          <input
            id={field("ticker")}
            value={ticker}
            onChange={(e) => {
              setTicker(e.target.value);
              setTickerEdited(true);
            }}
            placeholder="ZVTX, ZOFR"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            className={`${CONTROL} font-mono uppercase placeholder:normal-case`}
            aria-describedby={`${field("ticker")}-hint`}
          />
        </Field>
        <div className="grid grid-cols-2 gap-4">
          <Field id={field("page")} label="Page">
            <input id={field("page")} value={page} onChange={(e) => setPage(e.target.value)} inputMode="numeric" className={CONTROL} />
          </Field>
          <Field id={field("limit")} label="Limit" hint={endpoint ? `Up to ${formatCount(endpoint.maxLimit)}` : undefined}>
            <input
              id={field("limit")}
              value={limit}
              onChange={(e) => setLimit(e.target.value)}
              inputMode="numeric"
              className={CONTROL}
              aria-describedby={endpoint ? `${field("limit")}-hint` : undefined}
            />
          </Field>
        </div>
        {endpoint?.supportsDateRange ? (
          <fieldset className="grid grid-cols-1 gap-4 min-[420px]:grid-cols-2">
            <legend className="sr-only">Date range (optional)</legend>
            <Field id={field("date-from")} label="From (optional)">
              <input id={field("date-from")} type="date" value={dateFrom} onChange={(e) => setDateFrom(e.target.value)} className={CONTROL} />
            </Field>
            <Field id={field("date-to")} label="To (optional)">
              <input id={field("date-to")} type="date" value={dateTo} onChange={(e) => setDateTo(e.target.value)} className={CONTROL} />
            </Field>
          </fieldset>
        ) : null}
        <div className="flex flex-wrap items-center gap-3 pt-1">
          <Button type="submit" loading={loading}>
            {loading ? "Estimating…" : "Estimate cost"}
          </Button>
          <span className="text-xs text-zinc-500">Free: no key, no credits spent.</span>
        </div>
      </form>

      <div aria-live="polite" className="min-w-0">
        {outcome ? <OutcomeView outcome={outcome} /> : <Placeholder />}
      </div>
    </div>
  );
}

type Answer = { kind: "estimate"; estimate: Estimate; path: string } | { kind: "error"; failure: ApiFailure; path: string };

async function requestEstimate(path: string): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(path, { headers: { Accept: "application/json" } });
  } catch {
    return { kind: "error", path, failure: { status: 0, message: "Could not reach the API. Check your connection and try again.", details: {} } };
  }
  const body = (await response.json().catch(() => null)) as (Estimate & { error?: Omit<ApiFailure, "status"> }) | null;
  if (response.ok && body) return { kind: "estimate", estimate: body, path };
  const error = body?.error;
  return {
    kind: "error",
    path,
    failure: {
      status: response.status,
      code: error?.code,
      message: error?.message ?? `The API answered ${response.status} ${response.statusText}.`,
      details: error?.details ?? {},
    },
  };
}

function Field({ id, label, hint, children }: { id: string; label: string; hint?: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-zinc-800">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-zinc-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

function Placeholder() {
  return (
    <div className="flex h-full min-h-40 items-center justify-center rounded-lg border border-dashed border-zinc-300 p-6 text-center text-sm text-zinc-500">
      The estimate appears here: records, size and cost of the response.
    </div>
  );
}

function OutcomeView({ outcome }: { outcome: Outcome }) {
  return (
    <div className="flex flex-col gap-3">
      {outcome.kind === "estimate" ? <EstimateView estimate={outcome.estimate} /> : <FailureView failure={outcome.failure} />}
      <div className="flex min-w-0 items-center gap-2 rounded-md bg-zinc-100 py-1 pr-1 pl-3">
        <code className="min-w-0 flex-1 truncate font-mono text-xs text-zinc-700" title={`GET ${outcome.path}`}>
          GET {outcome.path}
        </code>
        <CopyButton value={outcome.url} label="Copy the estimate URL" />
      </div>
    </div>
  );
}

function EstimateView({ estimate }: { estimate: Estimate }) {
  const costNanos = safeDollars(estimate.estimated_cost_dollars);
  const priceNanos = estimate.price_per_gb_dollars === undefined ? null : safeDollars(String(estimate.price_per_gb_dollars));
  return (
    <div className="rounded-lg border border-accent-200 bg-accent-50/60 p-5" data-testid="estimate-result">
      <p className="text-sm font-medium text-accent-900">
        At most, for {estimate.endpoint}
        {estimate.ticker_count > 1 ? `, ${formatCount(estimate.ticker_count)} tickers` : ""}
      </p>
      <p className="mt-1 font-mono text-3xl font-semibold tracking-tight text-zinc-950" data-testid="estimate-cost">
        {costNanos !== null ? <Money nanos={costNanos} /> : estimate.estimated_cost_dollars}
      </p>
      {costNanos !== null ? <p className="mt-1 text-sm text-zinc-700">{requestsPerDollarText(costNanos)}</p> : null}
      <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-3 text-sm sm:grid-cols-3">
        <Fact term="Records">{formatCount(estimate.records_returned)}</Fact>
        {estimate.estimated_bytes !== undefined ? (
          <Fact term="Size, at most">
            <span title={`${formatCount(estimate.estimated_bytes)} bytes`}>{formatBytes(estimate.estimated_bytes)}</span>
          </Fact>
        ) : null}
        {priceNanos !== null ? <Fact term="Price">{pricePerGbText(priceNanos)}</Fact> : null}
      </dl>
      {estimate.unknown_tickers?.length ? (
        <p className="mt-3 text-sm text-zinc-700" data-testid="estimate-unknown">
          No company has the ticker{estimate.unknown_tickers.length > 1 ? "s" : ""} {estimate.unknown_tickers.join(", ")}: nothing
          returned, nothing charged.
        </p>
      ) : null}
    </div>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-zinc-500">{term}</dt>
      <dd className="font-medium text-zinc-900">{children}</dd>
    </div>
  );
}

function FailureView({ failure }: { failure: ApiFailure }) {
  const details = Object.entries(failure.details);
  return (
    <div className="rounded-lg border border-red-200 bg-red-50 p-5" data-testid="estimate-error">
      <p className="text-sm font-semibold text-red-800">
        {failure.status ? `${failure.status} ` : ""}
        {failure.code ? <code className="font-mono">{failure.code}</code> : "Request failed"}
      </p>
      <p className="mt-1 text-sm text-red-900">{failure.message}</p>
      {details.length ? (
        <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
          {details.map(([key, value]) => (
            <div key={key} className="contents">
              <dt className="font-mono text-red-700">{key}</dt>
              <dd className="font-mono break-words text-red-900">{typeof value === "string" ? value : JSON.stringify(value)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
}

function safeDollars(text: string): bigint | null {
  try {
    return parseDollars(text);
  } catch {
    return null;
  }
}
