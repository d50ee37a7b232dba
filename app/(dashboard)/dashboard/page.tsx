import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CodeBlock } from "@/components/ui/code-block";
import { PageHeader } from "@/components/ui/page-header";
import { ENDPOINTS } from "@/lib/catalog";
import { PREFERRED_SAMPLE_TICKERS } from "@/lib/api/docs";
import { API_KEY_ENV, curlExample } from "@/lib/api/examples";
import { getOrgPage } from "@/lib/platform/session";
import { Money } from "@/components/ui/money";
import { keyPrefix } from "@/lib/keys";
import { ROLE_LABELS } from "@/lib/utils/roles";
import { can } from "@/lib/platform/access";
import { OVERVIEW_DAYS, orgOverview } from "@/lib/platform/overview";
import { formatCount } from "@/lib/utils/format";
import { requestOrigin } from "@/lib/utils/request-origin";
import { coverageCounts, coverageText } from "@/lib/data/records/coverage";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  const { db, principal, org, role } = await getOrgPage();
  const [overview, baseUrl, coverage] = await Promise.all([orgOverview(db, principal, org.id), requestOrigin(), coverageCounts(db)]);
  const plan = org.plan;
  const canBuy = can(role, "billing:manage");
  const canManageKeys = can(role, "keys:manage");

  const endpoint = plan.allowedEndpoints.includes("dilution-rating") ? ENDPOINTS["dilution-rating"] : ENDPOINTS.offerings;
  // A placeholder made from the hint: it shows which key to use, and cannot work as pasted.
  const placeholder = overview.firstKey ? `${overview.firstKey.hint}…` : `${keyPrefix()}…`;
  const disabledNote = keysDisabledNote(overview);
  const example = [`export ${API_KEY_ENV}='${placeholder}'  # your full key`, curlExample(endpoint, baseUrl, { ticker: PREFERRED_SAMPLE_TICKERS[endpoint.name] })].join("\n");

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Overview" description={`${org.name}: your role is ${ROLE_LABELS[role]}.`} />

      <section aria-label="Balance, keys and usage" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Stat label="Balance" value={<Money nanos={org.balanceNanos} use="balance" />}>
          {canBuy ? (
            <Link href="/billing" className="font-medium text-accent-700 underline underline-offset-2 hover:text-accent-800">
              Buy credits
            </Link>
          ) : (
            "Paid per GB of data returned."
          )}
        </Stat>
        <Stat label="Active keys" value={formatCount(overview.activeKeys)}>
          {overview.activeKeys === 0 && disabledNote ? <p data-testid="keys-disabled-note">{disabledNote}</p> : null}
          <Link href="/keys" className="font-medium text-accent-700 underline underline-offset-2 hover:text-accent-800">
            {canManageKeys ? "Manage keys" : "See keys"}
          </Link>
        </Stat>
        <Stat label={`Requests, last ${OVERVIEW_DAYS} days`} value={formatCount(overview.requests)}>
          <Link href="/usage" className="font-medium text-accent-700 underline underline-offset-2 hover:text-accent-800">
            See usage
          </Link>
        </Stat>
        <Stat
          label={`Spend, last ${OVERVIEW_DAYS} days`}
          value={<Money nanos={overview.spendNanos} />}
        >
          Charged per GB returned.
        </Stat>
      </section>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Card className="min-w-0 lg:col-span-2">
          <CardHeader>
            <CardTitle as="h2">Your first request</CardTitle>
            <CardDescription>
              {overview.firstKey ? (
                <>
                  Put your key “{overview.firstKey.name}” ({overview.firstKey.hint}…) in the environment: the full key, as shown once when it was created. Then:
                </>
              ) : disabledNote ? (
                <>
                  {disabledNote} {canManageKeys ? "You can also create a new key there" : "Ask an owner or admin for a key"}; it is shown once, in full. Put it in the
                  environment, then:
                </>
              ) : (
                <>
                  {canManageKeys ? "Create a key first" : "Ask an owner or admin for a key"}; it is shown once, in full. Put it in the environment, then:
                </>
              )}
            </CardDescription>
          </CardHeader>
          <CardContent className="flex min-w-0 flex-col gap-3">
            <CodeBlock code={example} title={`GET ${endpoint.path}`} language="shell" copyLabel="Copy the example" wrap />
            <p className="text-sm text-zinc-600">
              Every response says what it cost (<code className="font-mono text-xs">X-Cost-Dollars</code>) and the balance after it.
            </p>
            <p className="text-sm text-zinc-600" data-testid="coverage">
              The data covers {coverageText(coverage)}.{" "}
              <Link href="/tickers" className="font-medium text-accent-700 underline underline-offset-2 hover:text-accent-800">
                See every ticker
              </Link>
              ; any other ticker answers no records, at no charge.
            </p>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle as="h2">Plan: {plan.name}</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="flex flex-col gap-3 text-sm">
              <Limit label="Rate limit">{formatCount(plan.requestsPerMinute)} requests per minute</Limit>
              <Limit label="Endpoints">{endpointsText(plan.allowedEndpoints)}</Limit>
              {plan.isTrial && plan.dailyTickerLimit ? <Limit label="Unique tickers">{formatCount(plan.dailyTickerLimit)} per endpoint per day</Limit> : null}
            </dl>
          </CardContent>
        </Card>
      </div>

      <nav aria-label="Quick links" className="flex flex-wrap gap-2">
        {canManageKeys ? (
          <Link href="/keys" className={buttonClasses()}>
            Create a key
          </Link>
        ) : null}
        <Link href="/docs" className={buttonClasses({ variant: "secondary" })}>
          Read the docs
        </Link>
        {canBuy ? (
          <Link href="/billing" className={buttonClasses({ variant: "secondary" })}>
            Buy credits
          </Link>
        ) : null}
      </nav>
    </div>
  );
}

/** Why there is no active key, when keys exist but are disabled: the platform's doing (with its reason on the keys page) or the organization's. */
function keysDisabledNote({ disabledByPlatform, disabledByOrg }: { disabledByPlatform: number; disabledByOrg: number }): string | null {
  const keys = (n: number) => (n === 1 ? "one key" : `${formatCount(n)} keys`);
  if (disabledByPlatform > 0 && disabledByOrg === 0) {
    return `The platform disabled ${disabledByPlatform === 1 ? "your only key" : `your ${formatCount(disabledByPlatform)} keys`}; the API keys page shows the reason.`;
  }
  if (disabledByPlatform > 0) return `The platform disabled ${keys(disabledByPlatform)} and your organization ${keys(disabledByOrg)}; the API keys page shows why.`;
  if (disabledByOrg > 0) return `${disabledByOrg === 1 ? "Your only key is disabled: re-enable it" : `All ${formatCount(disabledByOrg)} keys are disabled: re-enable one`} on the API keys page.`;
  return null;
}

function Stat({ label, value, children }: { label: string; value: ReactNode; children?: ReactNode }) {
  return (
    <Card>
      <CardContent className="flex flex-col gap-1 py-4">
        <p className="text-xs font-medium tracking-wide text-zinc-500 uppercase">{label}</p>
        <p className="text-2xl font-semibold tracking-tight text-zinc-900 tabular-nums">
          {value}
        </p>
        {children ? <div className="text-sm text-zinc-600">{children}</div> : null}
      </CardContent>
    </Card>
  );
}

/** "All 7", or "6 of 7: not Float and outstanding shares" — a plan's endpoints, naming the ones it leaves out. */
function endpointsText(allowed: readonly string[]): string {
  const all = Object.values(ENDPOINTS);
  const missing = all.filter((endpoint) => !allowed.includes(endpoint.name));
  if (missing.length === 0) return `All ${all.length}`;
  const count = all.length - missing.length;
  return `${count} of ${all.length}: not ${missing.map((endpoint) => endpoint.title).join(", ")}`;
}

function Limit({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-4 gap-y-1">
      <dt className="text-zinc-600">{label}</dt>
      <dd className="font-medium text-zinc-900">{children}</dd>
    </div>
  );
}
