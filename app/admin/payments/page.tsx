import type { Metadata } from "next";
import Link from "next/link";
import { PaymentsTable } from "@/components/admin/payments-table";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { PAYMENTS_PAGE_SIZE, paymentsPage } from "@/lib/platform/admin/payments";
import { getAdminPage } from "@/lib/platform/admin/session";
import { formatDateTime } from "@/lib/utils/dates";
import { formatCount } from "@/lib/utils/format";

export const metadata: Metadata = { title: "Payments" };

const STRIPE_MODES = {
  live: "Links open the payment in Stripe’s dashboard.",
  test: "Stripe runs with a test key: links open the payment in Stripe’s test dashboard.",
  mock: "Payments go to the local Stripe mock, which has no dashboard to link to.",
} as const;

function pageHref(q: string, page: number): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return `/admin/payments${query ? `?${query}` : ""}`;
}

export default async function AdminPaymentsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { db, admin } = await getAdminPage();
  const params = await searchParams;
  const { query, total, pages, payments, stripeMode, attention } = await paymentsPage(db, admin.principal, { q: params.q, page: params.page });
  const { failedEvents, heldPayments } = attention;

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Payments" description="Every organization’s Stripe top-ups, newest first, and what needs a person. Amounts are exact; times are UTC." />

      {attention.total === 0 ? (
        <Alert tone="success" title="Nothing needs attention." data-testid="payments-attention">
          Every webhook delivery went through, and no payment is held back.
        </Alert>
      ) : (
        <section aria-labelledby="attention-heading" className="flex flex-col gap-4" data-testid="payments-attention">
          <h2 id="attention-heading" className="text-base font-semibold text-zinc-900">
            Needs attention ({formatCount(attention.total)})
          </h2>
          {failedEvents.count > 0 ? (
            <Card className="border-red-200">
              <CardHeader>
                <CardTitle as="h3">Webhook deliveries that failed ({formatCount(failedEvents.count)})</CardTitle>
                <CardDescription>
                  Stripe retries a failed delivery for up to three days and this clears itself once one goes through. If it keeps failing, fix what the error says, then resend the event from Stripe’s dashboard (Developers → Events). Until then its payment may be uncredited.
                </CardDescription>
              </CardHeader>
              <Table caption="Failed webhook deliveries" stacked data-testid="failed-events">
                <THead>
                  <TR>
                    <TH>Event</TH>
                    <TH className="text-right">Attempts</TH>
                    <TH>Last error</TH>
                    <TH>First failed (UTC)</TH>
                    <TH>Last failed (UTC)</TH>
                  </TR>
                </THead>
                <TBody>
                  {failedEvents.rows.map((failure) => (
                    <TR key={failure.eventId} data-event={failure.eventId}>
                      <TD data-label="Event" className="min-w-0">
                        <span className="flex flex-col items-end gap-0.5 md:items-start">
                          <span className="font-mono text-xs break-all text-zinc-900">{failure.eventId}</span>
                          <span className="text-xs text-zinc-500">{failure.type}</span>
                        </span>
                      </TD>
                      <TD data-label="Attempts" className="text-right tabular-nums">{formatCount(failure.attempts)}</TD>
                      <TD data-label="Last error" className="max-w-80 min-w-0 text-sm break-words text-red-800">{failure.error}</TD>
                      <TD data-label="First failed (UTC)" className="whitespace-nowrap text-zinc-600">{formatDateTime(failure.firstFailedAt)}</TD>
                      <TD data-label="Last failed (UTC)" className="whitespace-nowrap text-zinc-600">{formatDateTime(failure.lastFailedAt)}</TD>
                    </TR>
                  ))}
                </TBody>
              </Table>
              {failedEvents.count > failedEvents.rows.length ? <CardContent className="text-xs text-zinc-500">The {failedEvents.rows.length} most recent of {formatCount(failedEvents.count)}.</CardContent> : null}
            </Card>
          ) : null}
          {heldPayments.count > 0 ? (
            <Card className="border-amber-200">
              <CardHeader>
                <CardTitle as="h3">Payments held back ({formatCount(heldPayments.count)})</CardTitle>
                <CardDescription>
                  Paid, but not credited: the amount or currency differs from the checkout or auto-recharge the app created, or the organization had closed. Find out why, then refund it in Stripe or credit the organization by hand with an adjustment.
                </CardDescription>
              </CardHeader>
              <PaymentsTable payments={heldPayments.rows} caption="Payments held back" />
              {heldPayments.count > heldPayments.rows.length ? (
                <CardContent className="text-xs text-zinc-500">
                  The {heldPayments.rows.length} most recent of {formatCount(heldPayments.count)}.
                </CardContent>
              ) : null}
            </Card>
          ) : null}
        </section>
      )}

      <Card>
        <CardHeader>
          <CardTitle as="h2">All payments</CardTitle>
          <CardDescription>Search by organization name or id, Checkout Session id (cs_…), PaymentIntent id (pi_…), charge id (ch_…) or Stripe event id (evt_…).</CardDescription>
        </CardHeader>
        <CardContent className="pt-0">
          <form method="get" action="/admin/payments" role="search" className="flex flex-col gap-2 sm:flex-row">
            <label htmlFor="payments-q" className="sr-only">
              Search payments
            </label>
            <Input id="payments-q" name="q" type="search" defaultValue={query.q} placeholder="Acme, cs_…, pi_…, evt_…" maxLength={200} autoComplete="off" spellCheck={false} className="sm:max-w-md" />
            <div className="flex gap-2">
              <Button type="submit" variant="secondary">
                Search
              </Button>
              {query.q ? (
                <Link href="/admin/payments" className={buttonClasses({ variant: "ghost" })}>
                  Clear
                </Link>
              ) : null}
            </div>
          </form>
          <p className="mt-3 text-sm text-zinc-600" aria-live="polite" data-testid="payments-count">
            {query.q ? `${formatCount(total)} payment${total === 1 ? "" : "s"} match “${query.q}”.` : `${formatCount(total)} payment${total === 1 ? "" : "s"} in all.`}
          </p>
        </CardContent>
        {payments.length === 0 ? (
          <EmptyState title={query.q ? "No payment matches" : query.page > 1 ? "No payments on this page" : "No payments yet"}>
            {query.q
              ? "Check the id, or search for part of the organization’s name. An event that neither moved money nor changed a payment’s outcome (an expiry, for instance) names no payment and is not found."
              : query.page > 1
                ? "There are fewer pages than that."
                : "Top-ups bought on the customers’ Billing pages appear here as soon as their checkout starts."}
          </EmptyState>
        ) : (
          <PaymentsTable payments={payments} caption="Payments" />
        )}
      </Card>

      {pages > 1 ? (
        <nav aria-label="Payment pages" className="flex flex-wrap items-center justify-between gap-2">
          {query.page > 1 ? (
            <Link href={pageHref(query.q, query.page - 1)} className={buttonClasses({ variant: "secondary" })}>
              Newer payments
            </Link>
          ) : (
            <span />
          )}
          <span className="text-sm text-zinc-600">
            Page {formatCount(Math.min(query.page, pages))} of {formatCount(pages)}
          </span>
          {query.page < pages ? (
            <Link href={pageHref(query.q, query.page + 1)} className={buttonClasses({ variant: "secondary" })}>
              Older payments
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
      <p className="text-xs text-zinc-500">
        {PAYMENTS_PAGE_SIZE} payments per page, newest first. {stripeMode ? STRIPE_MODES[stripeMode] : "Payments are not configured on this server, so none can be made."}
      </p>
    </div>
  );
}
