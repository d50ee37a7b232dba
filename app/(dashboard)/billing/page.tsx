import type { Metadata } from "next";
import { BuyCredits } from "@/components/billing/buy-credits";
import { ThresholdForm } from "@/components/billing/threshold-form";
import { SpendCapsForm } from "@/components/billing/spend-caps-form";
import { spentIn } from "@/lib/billing/spend";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { getOrgPage } from "@/lib/platform/session";
import { formatCents, TOPUP_LIMITS, TOPUP_PRESETS_CENTS } from "@/lib/billing/checkout";
import { BYTES_PER_GB, centsToNanos, formatDollars, formatDollarsShort } from "@/lib/money";
import { billingConfig } from "@/lib/billing/stripe";
import { can } from "@/lib/platform/access";
import { billingOverview, priceList } from "@/lib/platform/billing";
import { formatDateTime } from "@/lib/utils/dates";
import { formatBytes, formatCount } from "@/lib/utils/format";
import { cn } from "@/lib/utils/cn";

export const metadata: Metadata = { title: "Billing" };

const dollars = (nanos: bigint) => formatDollarsShort(nanos, { grouping: true });
/** What the smallest preset buys of each endpoint's data, e.g. "$20 buys 2.5 GB". */
const EXAMPLE_TOP_UP_CENTS = TOPUP_PRESETS_CENTS[0]!;

function runwayText(days: number | null): string {
  if (days === null) return "no time: add credits";
  if (days > 365) return "more than a year";
  return `about ${formatCount(days)} day${days === 1 ? "" : "s"}`;
}

export default async function BillingPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const { db, principal, org, role, allowed } = await getOrgPage("billing:manage");
  if (!allowed) {
    return (
      <div className="flex flex-col gap-6">
        <PageHeader title="Billing" />
        <Alert tone="info" title="Only owners and admins manage billing.">
          Your balance is {dollars(org.balanceNanos)}. Ask an owner or admin of {org.name} to buy credits.
        </Alert>
      </div>
    );
  }
  const [{ history, runway }, prices] = await Promise.all([billingOverview(db, principal, org.id, {}), priceList()]);
  const exampleNanos = centsToNanos(EXAMPLE_TOP_UP_CENTS);
  const config = billingConfig();
  const limits = `From ${formatCents(TOPUP_LIMITS.minCents)} to ${formatCents(TOPUP_LIMITS.maxCents)} per payment.`;

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Billing"
        description="Prepaid credits: every API response is paid from this balance, per GB returned."
        actions={
          <a href={`/billing/export?org=${org.id}`} className={buttonClasses({ variant: "secondary" })} download>
            Export CSV
          </a>
        }
      />
      {params.canceled ? <Alert tone="info">Checkout was canceled. Nothing was charged.</Alert> : null}

      <div className="grid gap-4 md:grid-cols-3">
        <Card className="md:col-span-1">
          <CardHeader>
            <CardDescription>Balance</CardDescription>
            <p className={cn("text-3xl font-semibold tabular-nums", org.balanceNanos < 0n ? "text-red-700" : "text-zinc-900")} title={formatDollars(org.balanceNanos)} data-testid="balance">
              {dollars(org.balanceNanos)}
            </p>
          </CardHeader>
          <CardContent className="text-sm text-zinc-600">
            {runway.dailySpendNanos > 0n ? (
              <p>
                At the last 7 days’ spend ({formatDollarsShort(runway.dailySpendNanos)} a day), it lasts <strong className="text-zinc-900">{runwayText(runway.days)}</strong>.
              </p>
            ) : (
              <p>No usage in the last 7 days.</p>
            )}
          </CardContent>
        </Card>
        <Card className="md:col-span-2">
          <CardHeader>
            <CardTitle as="h2">Buy credits</CardTitle>
          </CardHeader>
          <CardContent>
            <BuyCredits
              orgId={org.id}
              presets={TOPUP_PRESETS_CENTS.map((cents) => ({ cents, label: formatCents(cents).replace(/\.00$/, "") }))}
              limits={limits}
              disabledReason={config.configured ? null : config.reason}
            />
          </CardContent>
        </Card>
      </div>

      <Card>
        <CardHeader>
          <CardTitle as="h2">What credits buy</CardTitle>
          <CardDescription>Each response is charged for its bytes at its endpoint’s price per GB (10⁹ bytes). A single rating is about 1 KB.</CardDescription>
        </CardHeader>
        <CardContent>
          <Table caption="Prices" stacked>
            <THead>
              <TR>
                <TH>Endpoint</TH>
                <TH className="text-right">Price per GB</TH>
                <TH className="text-right">{formatCents(EXAMPLE_TOP_UP_CENTS).replace(/\.00$/, "")} buys</TH>
              </TR>
            </THead>
            <TBody>
              {prices.map((price) => (
                <TR key={price.name}>
                  <TD data-label="Endpoint">
                    <span className="font-medium text-zinc-900">{price.title}</span> <span className="block text-xs text-zinc-500 sm:inline">/v1/{price.name}</span>
                  </TD>
                  <TD data-label="Price per GB" className="text-right whitespace-nowrap tabular-nums">{formatDollars(price.pricePerGbNanos, { grouping: true })}</TD>
                  <TD data-label={`${formatCents(EXAMPLE_TOP_UP_CENTS).replace(/\.00$/, "")} buys`} className="text-right whitespace-nowrap tabular-nums">
                    {price.pricePerGbNanos > 0n ? `≈ ${formatBytes(Number((exampleNanos * BYTES_PER_GB) / price.pricePerGbNanos))}` : "Free"}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Spend caps</CardTitle>
          <CardDescription>
            A request that would take the organization’s spend of the UTC day or month over its cap is refused (402 spend_limit_reached) and costs
            nothing. Each key can have caps of its own on the API keys page.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <SpendCapsForm
            orgId={org.id}
            current={{
              dailyCap: org.dailyCapNanos === null ? "" : formatDollars(org.dailyCapNanos, { minDecimals: 0 }).replace("$", ""),
              monthlyCap: org.monthlyCapNanos === null ? "" : formatDollars(org.monthlyCapNanos, { minDecimals: 0 }).replace("$", ""),
            }}
            spent={{ today: formatDollars(spentIn("day", org, new Date())), thisMonth: formatDollars(spentIn("month", org, new Date())) }}
          />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Low-balance alert</CardTitle>
          <CardDescription>Below this balance, every dashboard page shows a banner.</CardDescription>
        </CardHeader>
        <CardContent>
          {can(role, "billing:threshold") ? (
            <ThresholdForm orgId={org.id} current={org.lowBalanceThresholdNanos === null ? "" : formatDollars(org.lowBalanceThresholdNanos).replace("$", "")} />
          ) : (
            <p className="text-sm text-zinc-700">
              {org.lowBalanceThresholdNanos === null ? "No alert is set." : `Alert below ${dollars(org.lowBalanceThresholdNanos)}.`} Owners can change it.
            </p>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">History</CardTitle>
          <CardDescription>Every change of the balance, newest first. Usage is one line per UTC day.</CardDescription>
        </CardHeader>
        {history.length === 0 ? (
          <EmptyState title="Nothing yet">Your purchases and daily usage charges will be listed here.</EmptyState>
        ) : (
          <Table caption="Billing history" stacked data-testid="billing-history">
            <THead>
              <TR>
                <TH>Date</TH>
                <TH>Description</TH>
                <TH className="text-right">Amount</TH>
                <TH className="text-right">Balance after</TH>
                <TH>
                  <span className="sr-only">Receipt</span>
                </TH>
              </TR>
            </THead>
            <TBody>
              {history.map((line) => (
                <TR key={line.id}>
                  <TD data-label="Date" className="whitespace-nowrap text-zinc-600">{formatDateTime(line.at)}</TD>
                  <TD data-label="Description">
                    {line.label}
                    {line.requests ? <span className="block text-xs text-zinc-500">{formatCount(line.requests)} charged requests</span> : null}
                  </TD>
                  <TD data-label="Amount" className={cn("text-right whitespace-nowrap tabular-nums", line.amountNanos >= 0n ? "text-emerald-700" : "text-zinc-900")} title={formatDollars(line.amountNanos)}>
                    {line.amountNanos >= 0n ? "+" : ""}
                    {formatDollars(line.amountNanos, { grouping: true })}
                  </TD>
                  <TD data-label="Balance after" className="text-right whitespace-nowrap tabular-nums">{formatDollars(line.balanceAfterNanos, { grouping: true })}</TD>
                  <TD data-label="Receipt">
                    {line.receiptUrl ? (
                      <a href={line.receiptUrl} target="_blank" rel="noreferrer" className="text-accent-700 underline">
                        Receipt
                      </a>
                    ) : null}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
    </div>
  );
}
