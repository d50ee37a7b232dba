import { CodeBlock } from "@/components/ui/code-block";
import type { EndpointDefinition } from "@/lib/catalog";
import type { SampleResponse as Sample } from "@/lib/api/docs";
import { Money } from "@/components/ui/money";
import { formatBytes, formatCount } from "@/lib/utils/format";
import { JsonCode } from "./json-code";

/** A real response of the endpoint, from the database, pretty-printed; or a plain "no data". */
export function SampleResponse({
  endpoint,
  sample,
  databaseAnswered = true,
}: {
  endpoint: EndpointDefinition;
  sample: Sample | null;
  databaseAnswered?: boolean;
}) {
  if (!sample) {
    return (
      <p className="rounded-lg border border-dashed border-zinc-300 bg-white p-4 text-sm text-zinc-600">
        {databaseAnswered
          ? `The database has no ${endpoint.title.toLowerCase()} records yet, so there is no sample response to show. Once data is imported, a real response appears here.`
          : "The sample response is unavailable while the database does not answer."}
      </p>
    );
  }
  const pretty = JSON.stringify(JSON.parse(sample.body), null, 2);
  return (
    <div className="flex min-w-0 flex-col gap-2" data-testid="sample-response">
      <CodeBlock
        code={pretty}
        title="200 OK"
        language="application/json"
        copyLabel={`Copy the ${endpoint.title} sample response`}
        maxHeightClass="max-h-[26rem]"
      >
        <JsonCode json={pretty} />
      </CodeBlock>
      <p className="text-xs leading-5 text-zinc-500">
        {formatCount(sample.recordCount)} {sample.recordCount === 1 ? "record" : "records"} for {sample.ticker},{" "}
        {formatBytes(sample.bytes)} of compact JSON as sent{sample.bytes >= 1000 ? ` (${formatCount(sample.bytes)} bytes)` : ""}, shown
        indented here. This response costs <span className="font-medium text-zinc-700"><Money nanos={sample.costNanos} /></span>, sent back in{" "}
        <code className="font-mono">X-Cost-Dollars</code>. Nothing was charged to build this page.
      </p>
    </div>
  );
}
