import type { Metadata } from "next";
import Link from "next/link";
import { AdminKeyActions } from "@/components/admin/key-actions";
import { AdminKeyEndpoints, AdminKeyStatus } from "@/components/admin/key-status";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { DomainError } from "@/lib/errors";
import { Money as Amount } from "@/components/ui/money";
import { findKeys, keyActivity } from "@/lib/platform/admin/keys";
import { getAdminPage } from "@/lib/platform/admin/session";
import { CLIENT_ADDRESS_RETENTION_DAYS } from "@/lib/usage/events";
import { formatDateTime } from "@/lib/utils/dates";

export const metadata: Metadata = { title: "Keys" };

export default async function AdminKeysPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { db, admin } = await getAdminPage();
  const { q, key: keyId } = await searchParams;
  const query = typeof q === "string" ? q.trim() : "";
  let problem: string | null = null;
  let matches: Awaited<ReturnType<typeof findKeys>> = [];
  try {
    matches = await findKeys(db, admin.principal, query);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    problem = error.message;
  }
  const selectedId = typeof keyId === "string" ? keyId : matches.length === 1 ? matches[0]!.id : null;
  const activity = selectedId ? await keyActivity(db, admin.principal, selectedId) : null;

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Keys" description="Look up a key by its 12-character hint or its id — never by the full key — and see its last 24 hours." />
      <form method="get" role="search" className="flex max-w-xl gap-2">
        <label htmlFor="key-search" className="sr-only">
          Key hint or id
        </label>
        <Input id="key-search" name="q" type="search" defaultValue={query} placeholder="Hint (e.g. dd_live_ab12) or key id" autoComplete="off" spellCheck={false} />
        <Button type="submit">Look up</Button>
      </form>
      {problem ? <Alert tone="warning">{problem}</Alert> : null}

      {query && !problem ? (
        <Card>
          {matches.length === 0 ? (
            <EmptyState title={`No key matches “${query}”`}>A deleted key is still found by its hint; check the characters.</EmptyState>
          ) : (
            <Table caption="Matching keys" stacked>
              <THead>
                <TR>
                  <TH>Key</TH>
                  <TH>Organization</TH>
                  <TH>Status</TH>
                  <TH>Last used</TH>
                </TR>
              </THead>
              <TBody>
                {matches.map((k) => (
                  <TR key={k.id}>
                    <TD data-label="Key">
                      <Link href={`/admin/keys?${new URLSearchParams({ q: query, key: k.id })}`} className="font-medium text-accent-700 underline-offset-2 hover:underline">
                        {k.name}
                      </Link>
                      <div className="font-mono text-xs text-zinc-500">{k.hint}…</div>
                    </TD>
                    <TD data-label="Organization">
                      <Link href={`/admin/organizations/${k.organization.id}`} className="text-accent-700 underline-offset-2 hover:underline">
                        {k.organization.name}
                      </Link>
                    </TD>
                    <TD data-label="Status">
                      <AdminKeyStatus apiKey={k} />
                    </TD>
                    <TD data-label="Last used" className="whitespace-nowrap text-zinc-600">{k.lastUsedAt ? formatDateTime(k.lastUsedAt) : "Never"}</TD>
                  </TR>
                ))}
              </TBody>
            </Table>
          )}
        </Card>
      ) : null}

      {activity ? (
        <Card>
          <CardHeader>
            <CardTitle as="h2">
              “{activity.key.name}” <span className="font-mono text-sm font-normal text-zinc-500">{activity.key.hint}…</span>
            </CardTitle>
            <CardDescription>
              Of{" "}
              <Link href={`/admin/organizations/${activity.key.organization.id}`} className="text-accent-700 underline-offset-2 hover:underline">
                {activity.key.organization.name}
              </Link>{" "}
              ({activity.key.organization.plan.name}
              {activity.key.organization.suspendedAt ? ", suspended" : ""}
              {activity.key.organization.closedAt ? ", closed" : ""}) · created {formatDateTime(activity.key.createdAt)} · id <span className="font-mono text-xs">{activity.key.id}</span>
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            <div className="flex flex-wrap items-center gap-2">
              <AdminKeyStatus apiKey={activity.key} />
              <AdminKeyEndpoints apiKey={activity.key} />
            </div>
            {activity.key.deletedAt ? null : (
              <AdminKeyActions
                keyRow={{
                  id: activity.key.id,
                  name: activity.key.name,
                  hint: activity.key.hint,
                  status: activity.key.status,
                  byPlatform: activity.key.disabledByPlatform,
                  platformEndpoints: activity.key.platformEndpoints,
                  platformReason: activity.key.platformEndpointsReason,
                }}
                planEndpoints={activity.key.organization.plan.allowedEndpoints}
              />
            )}
            <div className="grid gap-4 sm:grid-cols-3">
              <Summary title="By status" rows={activity.byStatus.map((r) => [String(r.status), r.count])} />
              <Summary title="By endpoint" rows={activity.byEndpoint.map((r) => [r.endpoint, r.count])} />
              <Summary title="By client address" rows={activity.byAddress.map((r) => [r.address ?? "unknown", r.count])} />
            </div>
            <p className="text-xs text-zinc-500">
              Client addresses are kept {CLIENT_ADDRESS_RETENTION_DAYS} days, then erased from the records.
            </p>
          </CardContent>
          {activity.events.length === 0 ? (
            <EmptyState title="No requests in the last 24 hours" />
          ) : (
            <Table caption="Requests in the last 24 hours" stacked>
              <THead>
                <TR>
                  <TH>Time (UTC)</TH>
                  <TH>Endpoint</TH>
                  <TH>Tickers</TH>
                  <TH>Status</TH>
                  <TH className="text-right">Cost</TH>
                  <TH>Client address</TH>
                </TR>
              </THead>
              <TBody>
                {activity.events.map((e) => (
                  <TR key={e.id.toString()}>
                    <TD data-label="Time (UTC)" className="whitespace-nowrap text-zinc-600">{formatDateTime(e.createdAt)}</TD>
                    <TD data-label="Endpoint" className="font-mono text-xs">{e.endpoint}</TD>
                    <TD data-label="Tickers" className="text-xs">{e.tickers.join(", ") || "—"}</TD>
                    <TD data-label="Status">
                      <Badge tone={e.statusCode < 400 ? "success" : "warning"}>{e.statusCode}</Badge> <span className="text-xs text-zinc-600">{e.errorCode ?? ""}</span>
                    </TD>
                    <TD data-label="Cost" className="text-right tabular-nums"><Amount nanos={e.costNanos} /></TD>
                    <TD data-label="Client address" className="font-mono text-xs">{e.clientIp ?? "—"}</TD>
                  </TR>
                ))}
              </TBody>
            </Table>
          )}
        </Card>
      ) : selectedId ? (
        <Alert tone="warning">No key with that id.</Alert>
      ) : null}
    </div>
  );
}

function Summary({ title, rows }: { title: string; rows: [string, number][] }) {
  return (
    <div className="rounded-md border border-zinc-200 p-3">
      <h3 className="text-sm font-medium text-zinc-900">{title}</h3>
      {rows.length === 0 ? (
        <p className="mt-1 text-sm text-zinc-500">None</p>
      ) : (
        <dl className="mt-1 grid grid-cols-[1fr_auto] gap-x-3 text-sm">
          {rows.map(([label, count]) => (
            <div key={label} className="contents">
              <dt className="truncate font-mono text-xs leading-5 text-zinc-700">{label}</dt>
              <dd className="text-right tabular-nums">{count}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
