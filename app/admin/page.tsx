import type { Metadata } from "next";
import Link from "next/link";
import { ZodError } from "zod";
import { Money } from "@/components/admin/money";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, Input } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Stat } from "@/components/ui/stat";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { formatCents } from "@/lib/money";
import { Money as Amount } from "@/components/ui/money";
import { platformOverview } from "@/lib/platform/admin/overview";
import { getAdminPage } from "@/lib/platform/admin/session";
import { recentRanges } from "@/lib/usage/report";
import { formatDateTime } from "@/lib/utils/dates";
import { formatBytes, formatCount } from "@/lib/utils/format";

export const metadata: Metadata = { title: "Overview" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function AdminOverviewPage({ searchParams }: { searchParams: SearchParams }) {
  const { db, admin } = await getAdminPage();
  const raw = await searchParams;
  const params = { from: typeof raw.from === "string" ? raw.from : undefined, to: typeof raw.to === "string" ? raw.to : undefined };
  let overview;
  let problem: string | null = null;
  try {
    overview = await platformOverview(db, admin.principal, params);
  } catch (error) {
    if (!(error instanceof ZodError)) throw error;
    problem = error.issues[0]?.message ?? "Check the dates.";
    overview = await platformOverview(db, admin.principal, {});
  }
  const { range, totals } = overview;
  const exportHref = `/admin/export?${new URLSearchParams({ from: range.from, to: range.to })}`;
  const activeDays = [...overview.days].reverse().filter((d) => d.requests > 0 || d.topUpsNanos || d.refundsNanos || d.disputesNanos || d.adjustmentsNanos || d.usageNanos);
  const quietDays = overview.days.length - activeDays.length;
  const attention = overview.negative.length + overview.payments.total + overview.requests.length;

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Overview"
        description={`Money and traffic per UTC day, ${range.from} to ${range.to}. Amounts are exact; nano-dollars (n$) underneath.`}
        actions={
          <a href={exportHref} className={buttonClasses({ variant: "secondary" })} download>
            Export CSV
          </a>
        }
      />

      <form className="flex flex-wrap items-end gap-3" method="get" aria-label="Date range">
        <Field label="From (UTC)">{(control) => <Input {...control} type="date" name="from" defaultValue={range.from} required />}</Field>
        <Field label="To (UTC)">{(control) => <Input {...control} type="date" name="to" defaultValue={range.to} required />}</Field>
        <Button type="submit" variant="secondary">
          Show
        </Button>
        <div className="flex gap-2 text-sm">
          {recentRanges([1, 7, 30, 90]).map((r) => (
            <Link key={r.days} href={`/admin?from=${r.from}&to=${r.to}`} className="text-accent-700 underline-offset-2 hover:underline">
              {r.days === 1 ? "Today" : `${r.days} days`}
            </Link>
          ))}
        </div>
      </form>
      {problem ? <Alert tone="warning">{problem} Showing the last 30 days instead.</Alert> : null}

      <section aria-label="Totals" className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Stat label="Top-ups" value={<Money nanos={totals.topUpsNanos} testId="overview-topups" />} />
        <Stat label="Refunds and disputes" value={<Money nanos={totals.refundsNanos + totals.disputesNanos} />} />
        <Stat label="Net credits sold" value={<Money nanos={totals.netSoldNanos} testId="overview-net" />} />
        <Stat label="Usage charged" value={<Money nanos={totals.usageNanos} testId="overview-usage" />} note={`${formatCount(totals.requests)} requests, ${formatCount(totals.failed)} refused · ${formatBytes(totals.bytes)} billed`} />
      </section>

      {attention > 0 ? (
        <Card>
          <CardHeader>
            <CardTitle as="h2">Needs attention</CardTitle>
            <CardDescription>Balances below zero, payments held back or whose webhook failed, and customers waiting for a plan answer.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4 text-sm">
            {overview.negative.length ? (
              <div>
                <h3 className="font-medium text-zinc-900">Negative balances ({overview.negative.length})</h3>
                <ul className="mt-1 flex flex-col gap-1">
                  {overview.negative.map((org) => (
                    <li key={org.id} className="flex flex-wrap items-baseline gap-2">
                      <Link href={`/admin/organizations/${org.id}`} className="font-medium text-accent-700 underline-offset-2 hover:underline">
                        {org.name}
                      </Link>
                      <Amount nanos={org.balanceNanos} className="text-red-700 tabular-nums" />
                      {org.closedAt ? <Badge>Closed</Badge> : null}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            {overview.payments.heldPayments.count ? (
              <div>
                <h3 className="font-medium text-zinc-900">Payments held back ({overview.payments.heldPayments.count})</h3>
                <ul className="mt-1 flex flex-col gap-1">
                  {overview.payments.heldPayments.rows.map((p) => (
                    <li key={p.id} className="wrap-anywhere">
                      {/* The payments search finds Checkout's sessions; an auto-recharge is in the held list at the top of the Payments page. */}
                      <Link
                        href={p.source === "auto_recharge" ? "/admin/payments" : `/admin/payments?q=${encodeURIComponent(p.id)}`}
                        className="font-mono text-xs text-accent-700 underline-offset-2 hover:underline"
                      >
                        {p.id}
                      </Link>{" "}
                      {p.source === "auto_recharge" ? "(auto-recharge) " : null}
                      {p.org.name}: {formatCents(p.amountCents)} {p.currency.toUpperCase()} — {p.heldReason ?? "amount mismatch"}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            {overview.payments.failedEvents.count ? (
              <div>
                <h3 className="font-medium text-zinc-900">
                  <Link href="/admin/payments" className="underline-offset-2 hover:underline">
                    Webhook events that failed ({overview.payments.failedEvents.count})
                  </Link>
                </h3>
                <ul className="mt-1 flex flex-col gap-1">
                  {overview.payments.failedEvents.rows.map((e) => (
                    <li key={e.eventId} className="wrap-anywhere">
                      <span className="font-mono text-xs">{e.eventId}</span> {e.type} · {e.attempts} attempt(s), last {formatDateTime(e.lastFailedAt)}: {e.error}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            {overview.requests.length ? (
              <div>
                <h3 className="font-medium text-zinc-900">Open plan requests ({overview.requests.length})</h3>
                <ul className="mt-1 flex flex-col gap-1">
                  {overview.requests.map((r) => (
                    <li key={r.id}>
                      <Link href={`/admin/organizations/${r.organization.id}#plan`} className="font-medium text-accent-700 underline-offset-2 hover:underline">
                        {r.organization.name}
                      </Link>{" "}
                      asks for {r.plan.name} (now {r.organization.plan.slug}), {formatDateTime(r.createdAt)}
                      {r.message ? <span className="text-zinc-600"> — “{r.message}”</span> : null}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </CardContent>
        </Card>
      ) : (
        <Alert tone="success">Nothing needs attention: no negative balance, no payment held back or failed, no plan request waiting.</Alert>
      )}

      <Card>
        <CardHeader>
          <CardTitle as="h2">Per day</CardTitle>
          <CardDescription>
            Newest first.{quietDays ? ` ${quietDays} day${quietDays === 1 ? "" : "s"} without any money movement or request ${quietDays === 1 ? "is" : "are"} left out (the CSV has every day).` : ""}
          </CardDescription>
        </CardHeader>
        {activeDays.length === 0 ? (
          <EmptyState title="Nothing happened in this range">No money moved and no request was made between {range.from} and {range.to}.</EmptyState>
        ) : (
          <Table caption="Money and traffic per UTC day" stacked>
            <THead>
              <TR>
                <TH>Day (UTC)</TH>
                <TH className="text-right">Top-ups</TH>
                <TH className="text-right">Refunds</TH>
                <TH className="text-right">Disputes</TH>
                <TH className="text-right">Net sold</TH>
                <TH className="text-right">Adjustments</TH>
                <TH className="text-right">Usage charged</TH>
                <TH className="text-right">Requests</TH>
                <TH className="text-right">Bytes</TH>
              </TR>
            </THead>
            <TBody>
              {activeDays.map((d) => (
                <TR key={d.day} data-day={d.day}>
                  <TD data-label="Day (UTC)" className="whitespace-nowrap">{d.day}</TD>
                  <TD data-label="Top-ups" className="text-right"><Money nanos={d.topUpsNanos} /></TD>
                  <TD data-label="Refunds" className="text-right"><Money nanos={d.refundsNanos} /></TD>
                  <TD data-label="Disputes" className="text-right"><Money nanos={d.disputesNanos} /></TD>
                  <TD data-label="Net sold" className="text-right"><Money nanos={d.netSoldNanos} /></TD>
                  <TD data-label="Adjustments" className="text-right"><Money nanos={d.adjustmentsNanos} /></TD>
                  <TD data-label="Usage charged" className="text-right"><Money nanos={d.usageNanos} /></TD>
                  <TD data-label="Requests" className="text-right tabular-nums">
                    {formatCount(d.requests)}
                    {d.failed ? <span className="block text-[11px] text-zinc-500">{formatCount(d.failed)} refused</span> : null}
                  </TD>
                  <TD data-label="Bytes" className="text-right tabular-nums" title={`${d.bytes} bytes`}>{formatBytes(d.bytes)}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Requests and bytes by endpoint</CardTitle>
        </CardHeader>
        {overview.endpoints.length === 0 ? (
          <EmptyState title="No API requests in this range" />
        ) : (
          <Table caption="Requests and bytes by endpoint" stacked>
            <THead>
              <TR>
                <TH>Endpoint</TH>
                <TH className="text-right">Requests</TH>
                <TH className="text-right">Refused</TH>
                <TH className="text-right">Bytes billed</TH>
              </TR>
            </THead>
            <TBody>
              {overview.endpoints.map((e) => (
                <TR key={e.endpoint}>
                  <TD data-label="Endpoint" className="font-mono text-xs">{e.endpoint}</TD>
                  <TD data-label="Requests" className="text-right tabular-nums">{formatCount(e.requests)}</TD>
                  <TD data-label="Refused" className="text-right tabular-nums">{formatCount(e.failed)}</TD>
                  <TD data-label="Bytes billed" className="text-right tabular-nums" title={`${e.bytes} bytes`}>{formatBytes(e.bytes)}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
    </div>
  );
}
