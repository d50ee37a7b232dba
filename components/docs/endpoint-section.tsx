import { Badge } from "@/components/ui/badge";
import type { EndpointDoc, PlanLimits } from "@/lib/api/docs";
import { dateRangeField, describeParameters } from "@/lib/api/describe";
import { buildExamples } from "@/lib/api/examples";
import { DEFAULT_LIMIT } from "@/lib/api/params";
import { Money } from "@/components/ui/money";
import { formatBytes, formatCount } from "@/lib/utils/format";
import { CodeExamples } from "./code-examples";
import { DocSection } from "./doc-section";
import { ParameterList } from "./parameter-list";
import { pricePerGbText, requestsPerDollarText } from "./pricing";
import { SampleResponse } from "./sample-response";

/** An endpoint's live facts; the price is null when the database did not answer. */
export type EndpointSectionDoc = Omit<EndpointDoc, "pricePerGbNanos"> & { pricePerGbNanos: bigint | null };

interface EndpointSectionProps {
  doc: EndpointSectionDoc;
  baseUrl: string;
  plans: PlanLimits[];
  /** Ticker for the examples when the database has no sample. */
  fallbackTicker: string;
  databaseAnswered: boolean;
}

/** One data endpoint: what it returns, its parameters and price, examples and a real response. */
export function EndpointSection({ doc, baseUrl, plans, fallbackTicker, databaseAnswered }: EndpointSectionProps) {
  const { endpoint, sample, typical } = doc;
  const params = sample?.params ?? { ticker: fallbackTicker, limit: 2 };
  const price = doc.pricePerGbNanos === null ? "Price unavailable" : pricePerGbText(doc.pricePerGbNanos);
  const onPlans = plans.filter((plan) => plan.allowedEndpoints.includes(endpoint.name)).map((plan) => plan.name);
  return (
    <DocSection
      id={endpoint.name}
      level={3}
      title={endpoint.title}
      className="border-t border-zinc-200 pt-10"
      aside={<Badge tone="accent">{price}</Badge>}
    >
      <p className="mt-3 flex min-w-0 flex-wrap items-center gap-2">
        <span className="rounded bg-accent-600 px-1.5 py-0.5 font-mono text-xs font-semibold text-white">GET</span>
        <code className="font-mono text-sm font-medium break-all text-zinc-900">{endpoint.path}</code>
      </p>
      <p className="mt-3 max-w-3xl text-[15px] leading-7 text-zinc-700">{endpoint.summary}</p>

      <div className="mt-6 grid gap-8 xl:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
        <div className="flex min-w-0 flex-col gap-6">
          <div>
            <h4 className="mb-2 text-sm font-semibold text-zinc-950">Parameters</h4>
            <ParameterList parameters={describeParameters(endpoint)} />
          </div>
          <div>
            <h4 className="mb-2 text-sm font-semibold text-zinc-950">Limits and price</h4>
            <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
              <dt className="text-zinc-500">Price</dt>
              <dd className="font-medium text-zinc-900" data-testid="price-per-gb">
                {doc.pricePerGbNanos === null ? price : `${price} of JSON returned`}
              </dd>
              <dt className="text-zinc-500">Page size</dt>
              <dd className="text-zinc-800">{DEFAULT_LIMIT} by default, at most {formatCount(endpoint.maxLimit)}</dd>
              <dt className="text-zinc-500">Date range</dt>
              <dd className="text-zinc-800">
                {endpoint.supportsDateRange ? (
                  <>
                    <code className="font-mono text-[13px]">date_from</code> / <code className="font-mono text-[13px]">date_to</code> on
                    the {dateRangeField(endpoint.name)}
                  </>
                ) : (
                  "Not supported"
                )}
              </dd>
              {plans.length ? (
                <>
                  <dt className="text-zinc-500">Plans</dt>
                  <dd className="text-zinc-800">{onPlans.length ? onPlans.join(", ") : "None at the moment"}</dd>
                </>
              ) : null}
              <dt className="text-zinc-500">Typical cost</dt>
              <dd className="text-zinc-800">
                {typical && sample ? (
                  <>
                    A default page for {sample.ticker} ({formatCount(typical.recordCount)}{" "}
                    {typical.recordCount === 1 ? "record" : "records"}, {formatBytes(typical.bytes)}) costs{" "}
                    <span className="font-medium text-zinc-900"><Money nanos={typical.costNanos} /></span>.{" "}
                    <span className="text-zinc-500">{requestsPerDollarText(typical.costNanos)}.</span>
                  </>
                ) : (
                  databaseAnswered ? "No data yet to measure a response." : "Unavailable right now."
                )}
              </dd>
            </dl>
          </div>
        </div>

        <div className="flex min-w-0 flex-col gap-6">
          <div>
            <h4 className="mb-2 text-sm font-semibold text-zinc-950">Request</h4>
            <CodeExamples examples={buildExamples(endpoint, baseUrl, params)} label={endpoint.title} />
          </div>
          <div>
            <h4 className="mb-2 text-sm font-semibold text-zinc-950">Response</h4>
            <SampleResponse endpoint={endpoint} sample={sample} databaseAnswered={databaseAnswered} />
          </div>
        </div>
      </div>
    </DocSection>
  );
}
