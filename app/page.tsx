import Link from "next/link";
import { SiteHeader } from "@/components/site-header";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ENDPOINT_LIST } from "@/lib/catalog";
import { planOffers, planPriceText, type PlanOffer } from "@/lib/platform/plans";
import { formatCount } from "@/lib/utils/format";

// The data API's own routes are JSON route handlers, not pages: plain <a>
// links, so the browser loads them directly instead of a client transition.
const PUBLIC_ROUTES: { path: string; link: boolean; summary: string }[] = [
  { path: "/health", link: true, summary: "Service and database status, as JSON (the Status page says it in words)." },
  { path: "/endpoints", link: true, summary: "Every data endpoint with its price per GB, page size and parameters." },
  { path: "/estimate", link: false, summary: "What a request would cost before you make it (endpoint and ticker). Free." },
];

const EXAMPLE_ENDPOINT = ENDPOINT_LIST[0]!;

/** "every endpoint", "every endpoint except Dilution data", "Offerings and Float". */
function includedText(plan: PlanOffer): string {
  if (plan.excluded.length === 0) return "every endpoint";
  if (plan.endpoints.length === 0) return "no endpoint";
  return plan.excluded.length <= plan.endpoints.length
    ? `every endpoint except ${plan.excluded.map((e) => e.title).join(", ")}`
    : plan.endpoints.map((e) => e.title).join(", ");
}

export default async function HomePage() {
  const plans = await planOffers();
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader />

      <main id="main" className="flex-1">
        <section className="border-b border-zinc-200 bg-white">
          <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6 sm:py-16">
            <Badge tone="accent">Read-only JSON API</Badge>
            <h1 className="mt-4 max-w-3xl text-3xl font-semibold tracking-tight text-balance text-zinc-950 sm:text-4xl">
              Dilution risk for listed companies, one ticker at a time
            </h1>
            <p className="mt-4 max-w-2xl text-base text-pretty text-zinc-600 sm:text-lg">
              Ratings with plain-language explanations, warrants and convertibles, shelf registrations and ATM programs,
              listing-compliance deficiencies, float and ownership, and completed offerings. Send an API key, get JSON;
              pay per gigabyte of data returned, from a prepaid credit balance.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Link href="/docs" className={buttonClasses({ size: "lg" })}>
                Read the docs
              </Link>
              <Link href="/docs#endpoints" className={buttonClasses({ variant: "secondary", size: "lg" })}>
                Browse the endpoints
              </Link>
            </div>
          </div>
        </section>

        <section aria-labelledby="data-endpoints" className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
          <h2 id="data-endpoints" className="text-xl font-semibold text-zinc-950">
            Data endpoints
          </h2>
          <p className="mt-2 max-w-2xl text-sm text-zinc-600">
            Every data endpoint takes a <code className="font-mono text-zinc-800">ticker</code>, pages with{" "}
            <code className="font-mono text-zinc-800">page</code> and <code className="font-mono text-zinc-800">limit</code>, and
            needs the <code className="font-mono text-zinc-800">API-KEY</code> header.
          </p>
          <ul className="mt-6 grid gap-4 sm:grid-cols-2">
            {ENDPOINT_LIST.map((endpoint) => (
              <li key={endpoint.name}>
                <Card className="h-full">
                  <CardHeader>
                    <CardTitle>{endpoint.title}</CardTitle>
                    <code className="font-mono text-sm break-all text-accent-700">GET {endpoint.path}</code>
                  </CardHeader>
                  <CardContent className="flex flex-col gap-3">
                    <CardDescription>{endpoint.summary}</CardDescription>
                    <div className="flex flex-wrap gap-2">
                      <Badge>Up to {endpoint.maxLimit} per page</Badge>
                      {endpoint.supportsDateRange ? <Badge tone="accent">Date range</Badge> : null}
                      {plans
                        .filter((plan) => plan.excluded.some((e) => e.name === endpoint.name))
                        .map((plan) => (
                          <Badge key={plan.id} tone="warning">
                            Not on the {plan.name} plan
                          </Badge>
                        ))}
                    </div>
                  </CardContent>
                </Card>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="plans" className="mx-auto max-w-5xl px-4 pb-12 sm:px-6">
          <h2 id="plans" className="text-xl font-semibold text-zinc-950">
            Plans
          </h2>
          <p className="mt-2 max-w-2xl text-sm text-zinc-600">
            A new organization starts on the {plans.find((p) => p.isTrial)?.name ?? plans[0]?.name} plan; a platform administrator moves it to another
            on request. Every plan is paid from the same prepaid balance.
          </p>
          <ul className="mt-6 grid gap-4 md:grid-cols-3" aria-label="Plans">
            {plans.map((plan) => (
              <li key={plan.id}>
                <Card className="h-full">
                  <CardHeader>
                    <CardTitle>{plan.name}</CardTitle>
                    <CardDescription>{planPriceText(plan)}.</CardDescription>
                  </CardHeader>
                  <CardContent>
                    <ul className="flex list-disc flex-col gap-1 pl-5 text-sm text-zinc-700">
                      <li>Includes {includedText(plan)}</li>
                      <li>{formatCount(plan.requestsPerMinute)} requests per minute</li>
                      <li>{plan.isTrial && plan.dailyTickerLimit ? `${formatCount(plan.dailyTickerLimit)} tickers per endpoint per day` : "No ticker limit"}</li>
                    </ul>
                  </CardContent>
                </Card>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="getting-started" className="border-y border-zinc-200 bg-white">
          <div className="mx-auto grid max-w-5xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-2">
            <div>
              <h2 id="getting-started" className="text-xl font-semibold text-zinc-950">
                How it works
              </h2>
              <ol className="mt-4 flex list-decimal flex-col gap-3 pl-5 text-sm text-zinc-700">
                <li>Create an API key for your organization. The full key is shown once; keep it secret.</li>
                <li>Top up credits. Each response is charged by its size; a failed request costs nothing.</li>
                <li>
                  Call an endpoint with the key in the <code className="font-mono">API-KEY</code> header. Ask{" "}
                  <code className="font-mono">/estimate</code> first if you want the price.
                </li>
              </ol>
            </div>
            <div className="min-w-0">
              <h3 className="text-sm font-medium text-zinc-900">Example request</h3>
              <pre className="mt-3 overflow-x-auto rounded-lg bg-zinc-950 p-4 font-mono text-xs leading-relaxed text-zinc-100 sm:text-sm">
                <code>{`curl -H "API-KEY: $API_KEY" \\\n  "$BASE_URL${EXAMPLE_ENDPOINT.path}?ticker=ABCD"`}</code>
              </pre>
              <p className="mt-3 text-sm text-zinc-600">
                <Link href="/docs" className="font-medium text-accent-700 underline hover:text-accent-900">
                  Python and JavaScript examples, real responses and prices in the docs
                </Link>
              </p>
            </div>
          </div>
        </section>

        <section aria-labelledby="public-routes" className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
          <h2 id="public-routes" className="text-xl font-semibold text-zinc-950">
            No key needed
          </h2>
          <ul className="mt-4 divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white">
            {PUBLIC_ROUTES.map((route) => (
              <li key={route.path} className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-baseline sm:gap-4">
                {route.link ? (
                  <a href={route.path} className="font-mono text-sm font-medium text-accent-700 underline hover:text-accent-900 sm:w-32">
                    {route.path}
                  </a>
                ) : (
                  <code className="font-mono text-sm font-medium text-zinc-800 sm:w-32">{route.path}</code>
                )}
                <span className="text-sm text-zinc-600">{route.summary}</span>
              </li>
            ))}
          </ul>
        </section>
      </main>

      <footer className="border-t border-zinc-200">
        <div className="mx-auto max-w-5xl px-4 py-6 text-sm text-zinc-500 sm:px-6">
          Dilution Data API · data for research, not investment advice.
        </div>
      </footer>
    </div>
  );
}
