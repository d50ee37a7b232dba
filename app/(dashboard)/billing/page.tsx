import type { Metadata } from "next";
import Link from "next/link";
import { BuyCredits } from "@/components/billing/buy-credits";
import { ThresholdForm } from "@/components/billing/threshold-form";
import { SpendCapsForm } from "@/components/billing/spend-caps-form";
import { AutoRechargeForm, SavedCardControls } from "@/components/billing/auto-recharge";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { MAX_RECHARGES_PER_DAY } from "@/lib/billing/auto-recharge";
import type { AutoRechargeStatus } from "@/lib/generated/prisma/enums";
import { autoRechargeOverview } from "@/lib/platform/auto-recharge";
import { spentIn } from "@/lib/billing/spend";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { getOrgPage } from "@/lib/platform/session";
import { TOPUP_LIMITS, TOPUP_PRESETS_CENTS } from "@/lib/billing/checkout";
import { BYTES_PER_GB, centsInputValue, centsToNanos, dollarsInputValue, formatCents, formatMoney } from "@/lib/money";
import { Money } from "@/components/ui/money";
import { billingConfig } from "@/lib/billing/stripe";
import { can } from "@/lib/platform/access";
import { billingOverview, priceList } from "@/lib/platform/billing";
import { formatDateTime } from "@/lib/utils/dates";
import { formatBytes, formatCount } from "@/lib/utils/format";
import { cn } from "@/lib/utils/cn";

export const metadata: Metadata = { title: "Billing" };

/** What the smallest preset buys of each endpoint's data, e.g. "$20 buys 2.5 GB". */
const EXAMPLE_TOP_UP_CENTS = TOPUP_PRESETS_CENTS[0]!;

const ATTEMPT_STATUS: Record<AutoRechargeStatus, { label: string; tone: BadgeTone }> = {
  PENDING: { label: "Processing", tone: "accent" },
  SUCCEEDED: { label: "Credited", tone: "success" },
  FAILED: { label: "Failed", tone: "danger" },
  HELD: { label: "Held", tone: "warning" },
  REFUNDED: { label: "Refunded", tone: "neutral" },
};

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
          Your balance is <Money nanos={org.balanceNanos} use="balance" />. Ask an owner or admin of {org.name} to buy credits.
        </Alert>
      </div>
    );
  }
  const [{ history, runway }, prices, autoRecharge] = await Promise.all([
    billingOverview(db, principal, org.id, {}),
    priceList(),
    autoRechargeOverview(db, principal, org.id),
  ]);
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
            <p className={cn("text-3xl font-semibold tabular-nums", org.balanceNanos < 0n ? "text-red-700" : "text-zinc-900")}>
              <Money nanos={org.balanceNanos} testId="balance" />
            </p>
          </CardHeader>
          <CardContent className="text-sm text-zinc-600">
            {runway.dailySpendNanos > 0n ? (
              <p>
                At the last 7 days’ spend (<Money nanos={runway.dailySpendNanos} /> a day), it lasts <strong className="text-zinc-900">{runwayText(runway.days)}</strong>.
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
              presets={TOPUP_PRESETS_CENTS.map((cents) => ({ cents, label: formatCents(cents, { trimZeroCents: true }) }))}
              limits={limits}
              disabledReason={config.configured ? null : config.reason}
            />
          </CardContent>
        </Card>
      </div>

      <Card id="auto-recharge" className="scroll-mt-4">
        <CardHeader>
          <div className="flex items-center justify-between gap-3">
            <CardTitle as="h2">Auto-recharge</CardTitle>
            <Badge tone={autoRecharge.enabled ? "success" : "neutral"} data-testid="auto-recharge-state">
              {autoRecharge.enabled ? "On" : "Off"}
            </Badge>
          </div>
          <CardDescription>
            When the balance falls below your threshold, the saved card is charged the amount you choose, at most a set number of times a UTC day. The
            credits arrive as soon as Stripe confirms the payment.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {autoRecharge.turnedOff && !autoRecharge.enabled ? (
            <Alert tone="warning" title={`Auto-recharge was turned off: ${autoRecharge.turnedOff.reason} on ${formatDateTime(autoRecharge.turnedOff.at)}.`}>
              {autoRecharge.turnedOff.message ? `Stripe said: “${autoRecharge.turnedOff.message}” ` : ""}
              {autoRecharge.canManage ? "Save another card, then turn auto-recharge on again." : "An owner can save another card and turn it on again."}
            </Alert>
          ) : null}
          {params.card === "canceled" ? <Alert tone="info">No card was saved.</Alert> : null}
          <SavedCardControls
            orgId={org.id}
            card={autoRecharge.card}
            canManage={autoRecharge.canManage}
            disabledReason={config.configured ? null : config.reason}
            justSaved={params.card === "saved"}
          />
          {autoRecharge.canManage ? (
            <AutoRechargeForm
              orgId={org.id}
              enabled={autoRecharge.enabled}
              maxPerDay={MAX_RECHARGES_PER_DAY}
              amountHint={limits}
              values={{
                threshold: autoRecharge.thresholdNanos === null ? "" : dollarsInputValue(autoRecharge.thresholdNanos),
                amount: autoRecharge.amountCents === null ? "" : centsInputValue(autoRecharge.amountCents),
                maxPerDay: String(autoRecharge.maxPerDay ?? 1),
              }}
            />
          ) : (
            <p className="text-sm text-zinc-700" data-testid="auto-recharge-summary">
              {autoRecharge.enabled && autoRecharge.thresholdNanos !== null && autoRecharge.amountCents !== null
                ? `Below ${formatMoney(autoRecharge.thresholdNanos, "typed")}, ${formatCents(autoRecharge.amountCents)} is added, at most ${autoRecharge.maxPerDay} time${autoRecharge.maxPerDay === 1 ? "" : "s"} a day.`
                : "Auto-recharge is off."}{" "}
              Only owners change auto-recharge and the saved card.
            </p>
          )}
          <p className="text-sm text-zinc-600" data-testid="auto-recharge-today">
            Today (UTC): {formatCount(autoRecharge.startedToday)} recharge{autoRecharge.startedToday === 1 ? "" : "s"}
            {autoRecharge.enabled && autoRecharge.maxPerDay ? ` of at most ${autoRecharge.maxPerDay}` : ""}.
          </p>
        </CardContent>
        {autoRecharge.attempts.length > 0 ? (
          <Table caption="Recent automatic recharges" stacked data-testid="auto-recharge-attempts">
            <THead>
              <TR>
                <TH>Date</TH>
                <TH className="text-right">Amount</TH>
                <TH>Status</TH>
                <TH>
                  <span className="sr-only">Receipt</span>
                </TH>
              </TR>
            </THead>
            <TBody>
              {autoRecharge.attempts.map((attempt) => (
                <TR key={attempt.id}>
                  <TD data-label="Date" className="whitespace-nowrap text-zinc-600">{formatDateTime(attempt.at)}</TD>
                  <TD data-label="Amount" className="text-right whitespace-nowrap tabular-nums">{formatCents(attempt.amountCents)}</TD>
                  <TD data-label="Status">
                    <Badge tone={ATTEMPT_STATUS[attempt.status].tone}>{ATTEMPT_STATUS[attempt.status].label}</Badge>
                    {attempt.status === "FAILED" || attempt.status === "HELD" ? (
                      attempt.failureMessage ? <span className="mt-1 block text-xs text-zinc-600">{attempt.failureMessage}</span> : null
                    ) : attempt.refundedCents > 0 && attempt.status !== "REFUNDED" ? (
                      <span className="mt-1 block text-xs text-zinc-600">{formatCents(attempt.refundedCents)} refunded</span>
                    ) : null}
                  </TD>
                  <TD data-label="Receipt">
                    <ReceiptLink url={attempt.receiptUrl} />
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        ) : null}
      </Card>

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
                <TH className="text-right">{formatCents(EXAMPLE_TOP_UP_CENTS, { trimZeroCents: true })} buys</TH>
              </TR>
            </THead>
            <TBody>
              {prices.map((price) => (
                <TR key={price.name} className={org.plan.allowedEndpoints.includes(price.name) ? undefined : "text-zinc-500"}>
                  <TD data-label="Endpoint">
                    {/* One block, so a phone's stacked row keeps the title and its path together; a path never breaks. */}
                    <span className="min-w-0">
                      <span className="font-medium text-zinc-900">{price.title}</span>{" "}
                      <span className="block text-xs whitespace-nowrap text-zinc-500 sm:inline">/v1/{price.name}</span>
                    </span>
                  </TD>
                  <TD data-label="Price per GB" className="text-right whitespace-nowrap tabular-nums"><Money nanos={price.pricePerGbNanos} use="price" /></TD>
                  <TD data-label={`${formatCents(EXAMPLE_TOP_UP_CENTS, { trimZeroCents: true })} buys`} className="text-right whitespace-nowrap tabular-nums">
                    {!org.plan.allowedEndpoints.includes(price.name) ? (
                      <span className="whitespace-normal">
                        Not included in your {org.plan.name} plan
                        <Link href="/settings#plan-request-heading" className="block text-xs text-accent-700 underline">
                          See plans
                        </Link>
                      </span>
                    ) : price.pricePerGbNanos > 0n ? (
                      `≈ ${formatBytes(Number((exampleNanos * BYTES_PER_GB) / price.pricePerGbNanos))}`
                    ) : (
                      "Free"
                    )}
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
              dailyCap: org.dailyCapNanos === null ? "" : dollarsInputValue(org.dailyCapNanos),
              monthlyCap: org.monthlyCapNanos === null ? "" : dollarsInputValue(org.monthlyCapNanos),
            }}
            spent={{ today: formatMoney(spentIn("day", org, new Date())), thisMonth: formatMoney(spentIn("month", org, new Date())) }}
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
            <ThresholdForm orgId={org.id} current={org.lowBalanceThresholdNanos === null ? "" : dollarsInputValue(org.lowBalanceThresholdNanos)} />
          ) : (
            <p className="text-sm text-zinc-700">
              {org.lowBalanceThresholdNanos === null ? "No alert is set." : `Alert below ${formatMoney(org.lowBalanceThresholdNanos, "typed")}.`} Owners can change it.
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
                  <TD data-label="Amount" className={cn("text-right whitespace-nowrap tabular-nums", line.amountNanos >= 0n ? "text-emerald-700" : "text-zinc-900")}>
                    <span>
                      {line.amountNanos >= 0n ? "+" : ""}
                      <Money nanos={line.amountNanos} />
                    </span>
                  </TD>
                  <TD data-label="Balance after" className="text-right whitespace-nowrap tabular-nums">
                    <Money nanos={line.balanceAfterNanos} use="balance" />
                  </TD>
                  <TD data-label="Receipt">
                    <ReceiptLink url={line.receiptUrl} />
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

function ReceiptLink({ url }: { url?: string | null }) {
  return url ? (
    <a href={url} target="_blank" rel="noreferrer" className="text-accent-700 underline">
      Receipt
    </a>
  ) : null;
}
