import type { Metadata } from "next";
import { CostEstimator } from "@/components/docs/cost-estimator";
import { Code } from "@/components/docs/doc-section";
import { DocsCompactNav, DocsSidebar, type NavGroup } from "@/components/docs/docs-nav";
import { EndpointSection, type EndpointSectionDoc } from "@/components/docs/endpoint-section";
import { PaginationSection, PricingSection } from "@/components/docs/guide-billing";
import { DataSection } from "@/components/docs/guide-data";
import { ErrorsSection, RateLimitsSection } from "@/components/docs/guide-errors";
import { AuthenticationSection, QuickStartSection } from "@/components/docs/guide-start";
import { WebhooksSection } from "@/components/docs/guide-webhooks";
import { SiteHeader } from "@/components/site-header";
import { CopyButton } from "@/components/ui/copy-button";
import { ENDPOINT_LIST, ENDPOINTS } from "@/lib/catalog";
import { getApiContext } from "@/lib/api/context";
import { loadDocsData, PREFERRED_SAMPLE_TICKERS, SAMPLE_LIMIT, type DocsData } from "@/lib/api/docs";
import { curlExample, paginationExample } from "@/lib/api/examples";
import { keyPrefix } from "@/lib/keys";
import { requestOrigin } from "@/lib/utils/request-origin";
import { getPrincipal } from "@/lib/platform/session";
import { coverageCounts, coverageText } from "@/lib/data/records/coverage";
import Link from "next/link";

export const metadata: Metadata = {
  title: "Docs",
  description:
    "Dilution Data API reference: authentication, pricing per GB, pagination, errors and rate limits, and every endpoint " +
    "with its parameters, price, real sample response and curl / Python / JavaScript examples.",
};

// Prices and samples come from the database on every request.
export const dynamic = "force-dynamic";

const NAV: NavGroup[] = [
  {
    label: "Guide",
    items: [
      { id: "quick-start", label: "Quick start" },
      { id: "authentication", label: "Authentication" },
      { id: "pricing", label: "Pricing and billing" },
      { id: "pagination", label: "Pagination" },
      { id: "errors", label: "Errors" },
      { id: "rate-limits", label: "Rate limits" },
      { id: "data", label: "Data and evidence" },
      { id: "webhooks", label: "Alerts and webhooks" },
    ],
  },
  { label: "Endpoints", items: ENDPOINT_LIST.map((e) => ({ id: e.name, label: e.title })) },
  { label: "Tools", items: [{ id: "estimator", label: "Cost estimator" }] },
];

async function loadLive(): Promise<(DocsData & { coverage: Awaited<ReturnType<typeof coverageCounts>> }) | null> {
  try {
    const ctx = await getApiContext();
    const [docs, coverage] = await Promise.all([loadDocsData(ctx), coverageCounts(ctx.prisma)]);
    return { ...docs, coverage };
  } catch (error) {
    console.error("[docs] could not read prices and samples:", error);
    return null;
  }
}

export default async function DocsPage() {
  const [baseUrl, live, principal] = await Promise.all([requestOrigin(), loadLive(), getPrincipal()]);
  const prefix = keyPrefix();
  const rating = ENDPOINTS["dilution-rating"];
  const ratingTicker = live?.endpoints.find((d) => d.endpoint.name === rating.name)?.sample?.ticker ?? PREFERRED_SAMPLE_TICKERS[rating.name];
  const offeringsTicker = live?.endpoints.find((d) => d.endpoint.name === "offerings")?.sample?.ticker ?? PREFERRED_SAMPLE_TICKERS.offerings;
  const endpointDocs: EndpointSectionDoc[] =
    live?.endpoints ?? ENDPOINT_LIST.map((endpoint) => ({ endpoint, pricePerGbNanos: null, sample: null, typical: null }));

  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader current="docs" wide />
      <div className="mx-auto w-full max-w-7xl flex-1 px-4 sm:px-6 lg:grid lg:grid-cols-[13.5rem_minmax(0,1fr)] lg:gap-10">
        <aside className="hidden lg:block">
          <div className="sticky top-0 max-h-dvh overflow-y-auto py-10">
            <DocsSidebar groups={NAV} />
          </div>
        </aside>

        <main id="main" className="min-w-0 py-10">
          <header className="max-w-3xl">
            <p className="text-sm font-medium text-accent-700">Documentation</p>
            <h1 className="mt-2 text-3xl font-semibold tracking-tight text-balance text-zinc-950 sm:text-4xl">
              The Dilution Data API
            </h1>
            <p className="mt-4 text-base leading-7 text-pretty text-zinc-600 sm:text-lg">
              Read-only JSON about the dilution risk of listed companies, by ticker: ratings with explanations, warrants and
              convertibles, shelf registrations and ATM programs, listing-compliance deficiencies, float and ownership,
              offerings (priced and in the pipeline) and reverse splits, each value with the filing it was read from.
              Authenticate with a key in a header; pay per GB of JSON returned, from a prepaid balance.
            </p>
            <div className="mt-6 flex min-w-0 flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border border-zinc-200 bg-white py-2 pr-2 pl-4 shadow-sm">
              <span className="text-sm text-zinc-500">Base URL</span>
              {/* Never broken inside (a port split over two lines misleads): on a narrow screen it takes a line of its own, and scrolls if even that is short. */}
              <code className="max-w-full flex-auto overflow-x-auto font-mono text-sm font-medium whitespace-nowrap text-zinc-900" data-testid="base-url">
                {baseUrl}
              </code>
              <CopyButton value={baseUrl} label="Copy the base URL" />
            </div>
            <p className="mt-3 text-sm text-zinc-500">
              All paths below are relative to it. Every endpoint is a <Code>GET</Code> and answers JSON.
            </p>
            {live ? (
              <p className="mt-2 text-sm text-zinc-500" data-testid="coverage">
                The data covers {coverageText(live.coverage)}:{" "}
                <Link href="/tickers" className="font-medium text-accent-700 underline">
                  the list of tickers
                </Link>{" "}
                says which, and whether each is sample or real.
              </p>
            ) : null}
          </header>

          <div className="mt-8 lg:hidden">
            <DocsCompactNav groups={NAV} />
          </div>

          {live ? null : (
            <p role="status" className="mt-8 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
              Live prices and sample responses are unavailable right now (the database did not answer). The rest of this page is
              accurate; <a href="/endpoints" className="font-medium underline">/endpoints</a> lists the current prices.
            </p>
          )}

          <div className="mt-12 flex flex-col gap-16">
            <QuickStartSection
              keyPrefix={prefix}
              firstRequest={curlExample(rating, baseUrl, { ticker: ratingTicker })}
              signedIn={principal !== null}
            />
            <AuthenticationSection keyPrefix={prefix} />
            {live ? <PricingSection endpoints={live.endpoints} /> : null}
            <PaginationSection loopExample={paginationExample(ENDPOINTS.offerings, baseUrl, { ticker: offeringsTicker, limit: 100 })} />
            <ErrorsSection />
            <RateLimitsSection plans={live?.plans ?? []} estimateLimitPerMinute={live?.estimateLimitPerMinute ?? 60} />
            <DataSection />
            <WebhooksSection />

            <section id="endpoints" aria-labelledby="endpoints-title" className="scroll-mt-6">
              <h2 id="endpoints-title" className="text-2xl font-semibold tracking-tight text-zinc-950">
                Endpoints
              </h2>
              <p className="mt-4 max-w-3xl text-[15px] leading-7 text-zinc-700">
                Each takes a <Code>ticker</Code> and the <Code>API-KEY</Code> header. The responses below are real: built from this
                service&apos;s database by the same code that answers <Code>/v1</Code>, with <Code>limit={SAMPLE_LIMIT}</Code> to keep
                them short.
              </p>
              <div className="mt-10 flex flex-col gap-14">
                {endpointDocs.map((doc) => (
                  <EndpointSection
                    key={doc.endpoint.name}
                    doc={doc}
                    baseUrl={baseUrl}
                    plans={live?.plans ?? []}
                    fallbackTicker={PREFERRED_SAMPLE_TICKERS[doc.endpoint.name]}
                    databaseAnswered={live !== null}
                  />
                ))}
              </div>
            </section>

            <section id="estimator" aria-labelledby="estimator-title" className="scroll-mt-6 border-t border-zinc-200 pt-10">
              <h2 id="estimator-title" className="text-2xl font-semibold tracking-tight text-zinc-950">
                Cost estimator
              </h2>
              <p className="mt-4 max-w-3xl text-[15px] leading-7 text-zinc-700">
                Price a request before you make it. This form calls <Code>GET /estimate</Code>, which counts the records the
                request would return and prices each at the widest its fields can be: the most the request can cost, never less
                than the bill. No key needed, nothing is charged; tickers that name no company are listed and cost nothing.
              </p>
              <CostEstimator
                endpoints={endpointDocs.map(({ endpoint, sample }) => ({
                  name: endpoint.name,
                  title: endpoint.title,
                  maxLimit: endpoint.maxLimit,
                  supportsDateRange: endpoint.supportsDateRange,
                  sampleTicker: sample?.ticker ?? null,
                }))}
              />
            </section>
          </div>
        </main>
      </div>
      <footer className="border-t border-zinc-200">
        <div className="mx-auto max-w-7xl px-4 py-6 text-sm text-zinc-500 sm:px-6">
          Dilution Data API · data for research, not investment advice ·{" "}
          <a href="/openapi.json" className="underline hover:text-zinc-800">
            OpenAPI
          </a>
        </div>
      </footer>
    </div>
  );
}
