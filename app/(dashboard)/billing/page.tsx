import type { Metadata } from "next";
import { BuyCredits } from "@/components/billing/buy-credits";
import { ThresholdForm } from "@/components/billing/threshold-form";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { getOrgPage } from "@/lib/platform/session";
import { formatCents, TOPUP_LIMITS, TOPUP_PRESETS_CENTS } from "@/lib/billing/checkout";
import { formatDollars } from "@/lib/money";
import { billingConfig } from "@/lib/billing/stripe";
import { can } from "@/lib/platform/access";
import { billingOverview } from "@/lib/platform/billing";
import { formatDateTime } from "@/lib/utils/dates";
import { formatCount } from "@/lib/utils/format";
import { cn } from "@/lib/utils/cn";

export const metadata: Metadata = { title: "Billing" };

const dollars = (nanos: bigint) => formatDollars(nanos, { maxDecimals: 2, grouping: true });

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
  const { history, runway } = await billingOverview(db, principal, org.id, {});
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
                At the last 7 days’ spend ({formatDollars(runway.dailySpendNanos, { maxDecimals: 4 })} a day), it lasts{" "}
                <strong className="text-zinc-900">{runway.days === null ? "no time: add credits" : `about ${formatCount(runway.days)} day${runway.days === 1 ? "" : "s"}`}</strong>.
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
          <Table caption="Billing history" data-testid="billing-history">
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
                  <TD className="whitespace-nowrap text-zinc-600">{formatDateTime(line.at)}</TD>
                  <TD>
                    {line.label}
                    {line.requests ? <span className="block text-xs text-zinc-500">{formatCount(line.requests)} charged requests</span> : null}
                  </TD>
                  <TD className={cn("text-right whitespace-nowrap tabular-nums", line.amountNanos >= 0n ? "text-emerald-700" : "text-zinc-900")} title={formatDollars(line.amountNanos)}>
                    {line.amountNanos >= 0n ? "+" : ""}
                    {formatDollars(line.amountNanos, { grouping: true })}
                  </TD>
                  <TD className="text-right whitespace-nowrap tabular-nums">{formatDollars(line.balanceAfterNanos, { grouping: true })}</TD>
                  <TD>
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
