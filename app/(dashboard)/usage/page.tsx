import type { Metadata } from "next";
import type { ReactNode } from "react";
import Link from "next/link";
import { ZodError } from "zod";
import { UsageChart, type UsageMetric } from "@/components/usage/usage-chart";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, Input, Select } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { getOrgPage } from "@/lib/platform/session";
import { Money } from "@/components/ui/money";
import { orgUsageReport } from "@/lib/platform/usage";
import { recentRanges } from "@/lib/usage/report";
import { formatBytes, formatCount } from "@/lib/utils/format";
import { cn } from "@/lib/utils/cn";

export const metadata: Metadata = { title: "Usage" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const METRICS: { id: UsageMetric; label: string }[] = [
  { id: "cost", label: "Cost" },
  { id: "requests", label: "Requests" },
  { id: "bytes", label: "Bytes" },
];

export default async function UsagePage({ searchParams }: { searchParams: SearchParams }) {
  const raw = await searchParams;
  const params = Object.fromEntries(Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === "string"));
  const { db, principal, org } = await getOrgPage();
  const metric: UsageMetric = METRICS.some((m) => m.id === params.metric) ? (params.metric as UsageMetric) : "cost";

  let report;
  let problem: string | null = null;
  try {
    report = await orgUsageReport(db, principal, org.id, params);
  } catch (error) {
    if (!(error instanceof ZodError)) throw error;
    problem = error.issues[0]?.message ?? "Check the dates.";
    report = await orgUsageReport(db, principal, org.id, {});
  }
  const { query, totals } = report;
  const link = (extra: Record<string, string | undefined>) => {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries({ from: query.from, to: query.to, key: query.keyId, metric, ...extra })) if (v) search.set(k, v);
    return `/usage?${search}`;
  };
  const ranges = recentRanges([7, 30, 90]);
  const today = ranges[0]!.to;
  const exportHref = `/usage/export?${new URLSearchParams({ org: org.id, from: query.from, to: query.to, ...(query.keyId ? { key: query.keyId } : {}) })}`;

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Usage"
        description="Requests, data returned and what it cost, per UTC day and per endpoint."
        actions={
          <a href={exportHref} className={buttonClasses({ variant: "secondary" })} download>
            Export CSV
          </a>
        }
      />

      <section aria-label="Balance and plan limits" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <Stat label="Balance" value={<Money nanos={org.balanceNanos} use="balance" />} />
        <Stat label="Plan" value={org.plan.name} />
        <Stat label="Rate limit" value={`${formatCount(org.plan.requestsPerMinute)} requests / min`} />
        <Stat label="Trial ticker limit" value={org.plan.dailyTickerLimit ? `${org.plan.dailyTickerLimit} tickers / endpoint / day` : "None"} />
        <div className="col-span-2 lg:col-span-4">
          <p className="text-sm text-zinc-600">
            Endpoints on your plan:{" "}
            {org.plan.allowedEndpoints.map((name) => (
              <Badge key={name} tone="accent" className="mr-1">
                {name}
              </Badge>
            ))}
          </p>
        </div>
      </section>

      <Card>
        <CardContent>
          <form method="get" action="/usage" className="flex flex-col gap-4 md:flex-row md:items-end">
            <Field label="From">{(c) => <Input {...c} type="date" name="from" defaultValue={query.from} max={today} />}</Field>
            <Field label="To">{(c) => <Input {...c} type="date" name="to" defaultValue={query.to} max={today} />}</Field>
            <Field label="Key" className="md:min-w-56">
              {(c) => (
                <Select {...c} name="key" defaultValue={query.keyId ?? ""}>
                  <option value="">All keys</option>
                  {report.keys.map((key) => (
                    <option key={key.id} value={key.id}>
                      {key.name} ({key.hint}){key.deletedAt ? " · deleted" : ""}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <input type="hidden" name="metric" value={metric} />
            <Button type="submit" variant="secondary">
              Apply
            </Button>
          </form>
          <div className="mt-3 flex flex-wrap gap-2 text-sm">
            {ranges.map((range) => (
              <Link key={range.days} href={link({ from: range.from, to: range.to })} className="rounded-md px-2 py-1 text-accent-700 underline hover:bg-accent-50">
                Last {range.days} days
              </Link>
            ))}
          </div>
          {problem ? (
            <Alert tone="danger" className="mt-3">
              {problem} Showing the last 30 days instead.
            </Alert>
          ) : null}
        </CardContent>
      </Card>

      <section aria-label="Totals" className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4">
        <Stat label="Requests" value={formatCount(totals.requests)} note={totals.failed ? `${formatCount(totals.failed)} refused (not charged)` : undefined} />
        <Stat label="Data returned" value={formatBytes(totals.bytes)} />
        <Stat label="Cost" value={<Money nanos={totals.costNanos} testId="usage-total-cost" />} />
      </section>

      <Card>
        <CardHeader className="flex-row items-center justify-between">
          <CardTitle as="h2">Per day</CardTitle>
          <nav aria-label="Chart metric" className="flex gap-1">
            {METRICS.map((m) => (
              <Link key={m.id} href={link({ metric: m.id })} aria-current={m.id === metric ? "true" : undefined} className={cn("rounded-md px-2.5 py-1 text-sm font-medium", m.id === metric ? "bg-accent-600 text-white" : "text-zinc-700 hover:bg-zinc-100")}>
                {m.label}
              </Link>
            ))}
          </nav>
        </CardHeader>
        <CardContent>
          <UsageChart days={report.days} metric={metric} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Per endpoint</CardTitle>
        </CardHeader>
        {report.endpoints.length === 0 ? (
          <EmptyState title="No requests in this range">
            Calls made with your keys show up here within seconds. <Link href="/docs" className="text-accent-700 underline">See the docs</Link> for a first request.
          </EmptyState>
        ) : (
          <UsageTable rows={report.endpoints.map((e) => ({ label: e.endpoint, ...e }))} firstColumn="Endpoint" totals={totals} />
        )}
      </Card>

      {report.rows.length > 0 ? (
        <Card>
          <CardHeader>
            <CardTitle as="h2">Per day and endpoint</CardTitle>
          </CardHeader>
          <UsageTable rows={[...report.rows].reverse().map((r) => ({ label: `${r.day} · ${r.endpoint}`, ...r }))} firstColumn="Day · endpoint" totals={totals} testId="usage-detail" />
        </Card>
      ) : null}
    </div>
  );
}

function Stat({ label, value, note }: { label: string; value: ReactNode; note?: string }) {
  return (
    <Card>
      <CardContent>
        <p className="text-sm text-zinc-600">{label}</p>
        <p className="mt-1 text-xl font-semibold text-zinc-900 tabular-nums">
          {value}
        </p>
        {note ? <p className="mt-1 text-xs text-zinc-500">{note}</p> : null}
      </CardContent>
    </Card>
  );
}

function UsageTable({
  rows,
  firstColumn,
  totals,
  testId,
}: {
  rows: { label: string; requests: number; failed: number; bytes: number; costNanos: bigint }[];
  firstColumn: string;
  totals: { requests: number; failed: number; bytes: number; costNanos: bigint };
  testId?: string;
}) {
  return (
    <Table caption={firstColumn} stacked data-testid={testId}>
      <THead>
        <TR>
          <TH>{firstColumn}</TH>
          <TH className="text-right">Requests</TH>
          <TH className="text-right">Refused</TH>
          <TH className="text-right">Data</TH>
          <TH className="text-right">Cost</TH>
        </TR>
      </THead>
      <TBody>
        {rows.map((row) => (
          <TR key={row.label}>
            <TD data-label={firstColumn} className="font-medium whitespace-nowrap">{row.label}</TD>
            <TD data-label="Requests" className="text-right tabular-nums">{formatCount(row.requests)}</TD>
            <TD data-label="Refused" className="text-right tabular-nums">{formatCount(row.failed)}</TD>
            <TD data-label="Data" className="text-right whitespace-nowrap tabular-nums">{formatBytes(row.bytes)}</TD>
            <TD data-label="Cost" className="text-right whitespace-nowrap tabular-nums">
              <Money nanos={row.costNanos} />
            </TD>
          </TR>
        ))}
        <TR className="bg-zinc-50 font-semibold">
          <TD data-label={firstColumn}>Total</TD>
          <TD data-label="Requests" className="text-right tabular-nums">{formatCount(totals.requests)}</TD>
          <TD data-label="Refused" className="text-right tabular-nums">{formatCount(totals.failed)}</TD>
          <TD data-label="Data" className="text-right whitespace-nowrap tabular-nums">{formatBytes(totals.bytes)}</TD>
          <TD data-label="Cost" className="text-right whitespace-nowrap tabular-nums">
            <Money nanos={totals.costNanos} />
          </TD>
        </TR>
      </TBody>
    </Table>
  );
}
