import { CodeBlock } from "@/components/ui/code-block";
import type { EndpointDoc } from "@/lib/api/docs";
import { Money } from "@/components/ui/money";
import { formatBytes, formatCount } from "@/lib/utils/format";
import { Code, DocSection, DocTable, Prose, TD } from "./doc-section";
import { fieldsExample, type FieldsExample } from "./fields-example";
import { JsonCode } from "./json-code";
import { pricePerGbText } from "./pricing";
import { MAX_ESTIMATE_FACTOR } from "@/lib/api/public";

const RESPONSE_HEADERS: { name: string; meaning: string }[] = [
  { name: "X-Cost-Dollars", meaning: "What this response was charged, to the nano-dollar, e.g. $0.000008824." },
  { name: "X-Balance-Dollars", meaning: "The balance left after the charge." },
  { name: "X-Billable-Bytes", meaning: "The bytes charged for: the UTF-8 length of the JSON body (0 for an answer without records, which is free)." },
  { name: "X-Unknown-Tickers", meaning: "Only when a requested ticker names no company: those tickers, comma-separated, upper case." },
  { name: "X-RateLimit-Limit", meaning: "Requests per minute your plan allows." },
  { name: "X-RateLimit-Remaining", meaning: "Requests left in the current minute." },
  { name: "X-RateLimit-Reset", meaning: "When the current minute ends, in Unix seconds." },
  { name: "X-Request-ID", meaning: "On every response, errors too; quote it when you contact support." },
  { name: "X-API-Version", meaning: "Always v1 for the /v1 paths." },
];

/** How a response is priced, the current prices, and the headers that report the charge. */
export function PricingSection({ endpoints }: { endpoints: EndpointDoc[] }) {
  const rating = endpoints.find((doc) => doc.endpoint.name === "dilution-rating");
  return (
    <DocSection id="pricing" title="Pricing and billing">
      <Prose>
        <p>
          You pay for the data you receive, from a prepaid credit balance: each response costs its size in bytes times the
          endpoint&apos;s price per GB (1 GB = 10<sup>9</sup> bytes), rounded up to the next nano-dollar. The size is the UTF-8
          length of the JSON body as sent. Credits do not expire.
        </p>
        <p>
          A request that fails is never charged, and neither is one your balance cannot cover: it gets a{" "}
          <Code>402 insufficient_credits</Code> before any data is produced. An answer without records (a ticker that names no
          company, a page past the end) is free, and unknown tickers are named in <Code>X-Unknown-Tickers</Code>. Ask{" "}
          <a href="#estimator" className="font-medium text-accent-700 underline hover:text-accent-900">
            /estimate
          </a>{" "}
          first when you want the price of a request; it is free.
        </p>
        <p>
          The estimate is the most the request can cost, never less than the bill: the number of records it would return,
          each priced at the widest its fields can be (ratings at &ldquo;Medium&rdquo;, numbers at the widest their column
          holds, texts at their documented maximum). It reads no value, so it tells nothing the data holds, and it is at most{" "}
          {MAX_ESTIMATE_FACTOR} times the bill (on the sample data: up to 3.2× for a rating, 7.5× with its sources, 9.6× for a
          compliance record&apos;s status updates alone).
        </p>
      </Prose>
      <DocTable caption="Price per GB of each endpoint" head={["Endpoint", "Price", "A default page costs"]}>
        {endpoints.map(({ endpoint, pricePerGbNanos, typical, sample }) => (
          <tr key={endpoint.name}>
            <td className={TD}>
              <a href={`#${endpoint.name}`} className="font-medium text-zinc-900 underline decoration-zinc-300 hover:text-accent-700">
                {endpoint.title}
              </a>
              <span className="block font-mono text-xs text-zinc-500">{endpoint.path}</span>
            </td>
            <td className={`${TD} font-medium whitespace-nowrap text-zinc-900`}>{pricePerGbText(pricePerGbNanos)}</td>
            <td className={TD}>
              {typical && sample ? (
                <>
                  <span className="font-medium text-zinc-900"><Money nanos={typical.costNanos} /></span>
                  <span className="block text-xs text-zinc-500">
                    {formatBytes(typical.bytes)}, {sample.ticker}
                  </span>
                </>
              ) : (
                <span className="text-zinc-500">No data yet</span>
              )}
            </td>
          </tr>
        ))}
      </DocTable>
      <FieldsSelection example={rating ? fieldsExample(rating) : null} />
      <h3 className="mt-10 text-base font-semibold text-zinc-950">Response headers</h3>
      <p className="mt-2 max-w-3xl text-[15px] leading-7 text-zinc-700">
        Every successful data response says what it cost, so you can account for spending without asking the platform.
      </p>
      <DocTable caption="Headers of a successful data response" head={["Header", "Meaning"]}>
        {RESPONSE_HEADERS.map((header) => (
          <tr key={header.name}>
            <td className={`${TD} font-mono text-[13px] whitespace-nowrap text-zinc-900`}>{header.name}</td>
            <td className={TD}>{header.meaning}</td>
          </tr>
        ))}
      </DocTable>
    </DocSection>
  );
}

/** `fields=`, with the dilution rating's real sample cut to its ratings when the database has one. */
function FieldsSelection({ example }: { example: FieldsExample | null }) {
  const request = example
    ? `/v1/dilution-rating?ticker=${example.params.ticker}&limit=${example.params.limit}&fields=${example.params.fields}`
    : null;
  const pretty = example ? JSON.stringify(JSON.parse(example.body), null, 2) : "";
  return (
    <>
      <h3 className="mt-10 text-base font-semibold text-zinc-950">Pay only for the fields you use</h3>
      <Prose>
        <p>
          Add <Code>fields</Code> to any data request (and to <Code>/estimate</Code>, to price it): a comma-separated list of
          record fields. Each record then holds only those, in its usual order, and you are billed for the smaller body. Names
          are case-sensitive, exactly as in the JSON, <Code>_desc</Code> fields included; each endpoint lists its own under its
          parameters. <Code>source</Code> (<Code>sources</Code> on ratings) needs <Code>include=source</Code>. An unknown or
          empty name is a <Code>400</Code> that lists the accepted ones.
        </p>
        {example ? (
          <p>
            The dilution rating&apos;s sample response below is {formatCount(example.full.bytes)} bytes and costs{" "}
            <Money nanos={example.full.costNanos} />. With only the ticker and the seven ratings it is{" "}
            <span className="font-medium text-zinc-900">{formatCount(example.bytes)} bytes</span>, costing{" "}
            <span className="font-medium text-zinc-900"><Money nanos={example.costNanos} /></span>:
          </p>
        ) : null}
      </Prose>
      {example && request ? (
        <>
          <CodeBlock className="mt-4 max-w-3xl" code={pretty} title={request} language="application/json" copyLabel="Copy the fields example response">
            <JsonCode json={pretty} />
          </CodeBlock>
          <DocTable caption="The same request with and without fields" head={["Request", "Bytes", "Cost"]}>
            <tr>
              <td className={TD}>Full record</td>
              <td className={`${TD} tabular-nums`}>{formatCount(example.full.bytes)}</td>
              <td className={`${TD} tabular-nums`}><Money nanos={example.full.costNanos} /></td>
            </tr>
            <tr>
              <td className={TD}>
                <Code>fields={example.params.fields}</Code>
              </td>
              <td className={`${TD} tabular-nums`}>{formatCount(example.bytes)}</td>
              <td className={`${TD} font-medium tabular-nums text-zinc-900`}><Money nanos={example.costNanos} /></td>
            </tr>
          </DocTable>
        </>
      ) : null}
    </>
  );
}

const ENVELOPE_FIELDS: { name: string; type: string; meaning: string }[] = [
  { name: "status", type: "string", meaning: "success (errors have their own envelope, below)." },
  { name: "count", type: "integer", meaning: "Records in this page." },
  { name: "has_more", type: "boolean", meaning: "Whether another page follows." },
  { name: "page", type: "integer", meaning: "This page, from 1." },
  { name: "limit", type: "integer", meaning: "The page size used." },
  { name: "results", type: "array", meaning: "The records; an empty array when nothing matches." },
];

/** The envelope, page / limit / has_more, and a loop over every page. */
export function PaginationSection({ loopExample }: { loopExample: string }) {
  return (
    <DocSection id="pagination" title="Responses and pagination">
      <Prose>
        <p>
          Every data endpoint answers with the same envelope. Records come newest first in a stable order, so walking the pages
          returns each record exactly once. Pass <Code>page</Code> (from 1) and <Code>limit</Code> (10 by default, at most the
          endpoint&apos;s maximum); while <Code>has_more</Code> is true, ask for the next page with the same parameters.
        </p>
        <p>
          Unknown or repeated parameters are a <Code>400</Code>, never silently ignored, so a typo costs nothing. Tickers are
          case-insensitive; up to 50 can be asked for at once, separated by commas.
        </p>
      </Prose>
      <DocTable caption="Fields of the response envelope" head={["Field", "Type", "Meaning"]}>
        {ENVELOPE_FIELDS.map((field) => (
          <tr key={field.name}>
            <td className={`${TD} font-mono text-[13px] text-zinc-900`}>{field.name}</td>
            <td className={`${TD} font-mono text-[13px] text-zinc-500`}>{field.type}</td>
            <td className={TD}>{field.meaning}</td>
          </tr>
        ))}
      </DocTable>
      <CodeBlock className="mt-5 max-w-3xl" code={loopExample} title="Every page, in Python" language="python" copyLabel="Copy the pagination example" />
    </DocSection>
  );
}
