import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AdminKeyActions } from "@/components/admin/key-actions";
import { AdminKeyEndpoints, AdminKeyStatus } from "@/components/admin/key-status";
import { Money } from "@/components/admin/money";
import { CreditAdjuster, PlanChanger, PlanRequestAnswer, SuspensionControl } from "@/components/admin/org-actions";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Stat } from "@/components/ui/stat";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { ROLE_LABELS } from "@/lib/utils/roles";
import { Money as Amount } from "@/components/ui/money";
import { organizationDetail } from "@/lib/platform/admin/organizations";
import { getAdminPage } from "@/lib/platform/admin/session";
import { describeActor, describeAuditEntry } from "@/lib/platform/audit-format";
import { formatDateTime } from "@/lib/utils/dates";
import { formatCount } from "@/lib/utils/format";

export const metadata: Metadata = { title: "Organization" };

const LEDGER_KINDS: Record<string, string> = { TOPUP: "Top-up", USAGE: "Usage", ADJUSTMENT: "Adjustment", REFUND: "Refund", DISPUTE: "Dispute" };

export default async function AdminOrganizationPage({ params }: { params: Promise<{ id: string }> }) {
  const { db, admin } = await getAdminPage();
  const detail = await organizationDetail(db, admin.principal, (await params).id);
  if (!detail) notFound();
  const { org } = detail;
  const openRequest = detail.requests.find((r) => r.status === "OPEN");
  const liveKeys = detail.keys.filter((k) => !k.deletedAt);

  return (
    <div className="flex flex-col gap-6">
      <div>
        <Link href="/admin/organizations" className="text-sm text-accent-700 underline-offset-2 hover:underline">
          ← Organizations
        </Link>
      </div>
      <PageHeader
        title={org.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-mono text-xs break-all">{org.id}</span>
            {org.suspendedAt ? <Badge tone="danger">Suspended</Badge> : null}
            {org.closedAt ? <Badge>Closed {formatDateTime(org.closedAt)}</Badge> : null}
            <span>· created {formatDateTime(org.createdAt)}</span>
          </span>
        }
      />
      {org.suspendedAt ? (
        <Alert tone="danger" title={`Suspended since ${formatDateTime(org.suspendedAt)}`}>
          {org.suspendedReason}
        </Alert>
      ) : null}

      <section aria-label="Summary" className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Stat label="Balance" value={<Money nanos={org.balanceNanos} use="balance" testId="admin-balance" />} />
        <Stat label="Plan" value={org.plan.name} note={`${formatCount(org.plan.requestsPerMinute)} requests/min${org.plan.dailyTickerLimit ? ` · ${org.plan.dailyTickerLimit} tickers/day` : ""}`} />
        <Stat label="Members" value={formatCount(detail.members.length)} />
        <Stat label="Live keys" value={formatCount(liveKeys.length)} note={`${detail.keys.length - liveKeys.length} deleted`} />
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle as="h2">Credit adjustment</CardTitle>
            <CardDescription>Through the ledger, with a reason. A removal stops at zero unless you allow otherwise and say why.</CardDescription>
          </CardHeader>
          <CardContent>
            <CreditAdjuster orgId={org.id} balanceNanos={org.balanceNanos.toString()} />
          </CardContent>
        </Card>
        <div className="flex flex-col gap-6">
          <Card id="plan">
            <CardHeader>
              <CardTitle as="h2">Plan</CardTitle>
            </CardHeader>
            <CardContent className="flex flex-col gap-4">
              <PlanChanger orgId={org.id} current={org.plan.slug} plans={detail.plans} />
              {openRequest ? (
                <div className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm">
                  <p className="mb-2">
                    <strong className="font-medium">{openRequest.requestedBy?.email ?? "A member"}</strong> asked for the <strong className="font-medium">{openRequest.plan.name}</strong> plan on {formatDateTime(openRequest.createdAt)}
                    {openRequest.message ? <>: “{openRequest.message}”</> : "."}
                  </p>
                  <PlanRequestAnswer orgId={org.id} requestId={openRequest.id} planName={openRequest.plan.name} />
                </div>
              ) : null}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle as="h2">Suspension</CardTitle>
              <CardDescription>While suspended, every keyed request is refused with 403 organization_suspended and is not charged.</CardDescription>
            </CardHeader>
            <CardContent>
              <SuspensionControl orgId={org.id} orgName={org.name} suspended={org.suspendedAt !== null} closed={org.closedAt !== null} />
            </CardContent>
          </Card>
        </div>
      </div>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Keys</CardTitle>
        </CardHeader>
        {detail.keys.length === 0 ? (
          <EmptyState title="No keys" />
        ) : (
          <Table caption="Keys" stacked>
            <THead>
              <TR>
                <TH>Key</TH>
                <TH>Status</TH>
                <TH>Endpoints</TH>
                <TH>Last used</TH>
                <TH>
                  <span className="sr-only">Actions</span>
                </TH>
              </TR>
            </THead>
            <TBody>
              {detail.keys.map((key) => (
                <TR key={key.id} data-key-hint={key.hint}>
                  <TD data-label="Key">
                    <Link href={`/admin/keys?key=${key.id}`} className="font-medium text-accent-700 underline-offset-2 hover:underline">
                      {key.name}
                    </Link>
                    <div className="font-mono text-xs text-zinc-500">{key.hint}…</div>
                  </TD>
                  <TD data-label="Status">
                    <AdminKeyStatus apiKey={key} />
                  </TD>
                  <TD data-label="Endpoints">
                    <AdminKeyEndpoints apiKey={key} />
                  </TD>
                  <TD data-label="Last used" className="whitespace-nowrap text-zinc-600">{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : "Never"}</TD>
                  <TD data-label="Actions">
                    {key.deletedAt ? null : (
                      <AdminKeyActions
                        keyRow={{
                          id: key.id,
                          name: key.name,
                          hint: key.hint,
                          status: key.status,
                          byPlatform: key.disabledByPlatform,
                          platformEndpoints: key.platformEndpoints,
                          platformReason: key.platformEndpointsReason,
                        }}
                        planEndpoints={org.plan.allowedEndpoints}
                      />
                    )}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Members</CardTitle>
        </CardHeader>
        {detail.members.length === 0 ? (
          <EmptyState title="No members" />
        ) : (
          <Table caption="Members" stacked>
            <THead>
              <TR>
                <TH>Email</TH>
                <TH>Role</TH>
                <TH>Since</TH>
              </TR>
            </THead>
            <TBody>
              {detail.members.map((m) => (
                <TR key={m.id}>
                  <TD data-label="Email" className="wrap-anywhere">
                    <Link href={`/admin/users?q=${encodeURIComponent(m.user.email)}`} className="text-accent-700 underline-offset-2 hover:underline">
                      {m.user.email}
                    </Link>
                    {m.user.lockedAt ? <Badge tone="danger" className="ml-2">Locked</Badge> : null}
                  </TD>
                  <TD data-label="Role">{ROLE_LABELS[m.role]}</TD>
                  <TD data-label="Since" className="whitespace-nowrap text-zinc-600">{formatDateTime(m.createdAt)}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Ledger</CardTitle>
          <CardDescription>Every change of the balance, newest first, with the balance after it.{detail.ledgerTruncated ? " The latest 100 entries." : ""}</CardDescription>
        </CardHeader>
        {detail.ledger.length === 0 ? (
          <EmptyState title="No ledger entries yet" />
        ) : (
          <Table caption="Ledger" stacked>
            <THead>
              <TR>
                <TH>Time (UTC)</TH>
                <TH>Kind</TH>
                <TH>Description</TH>
                <TH className="text-right">Amount</TH>
                <TH className="text-right">Balance after</TH>
              </TR>
            </THead>
            <TBody>
              {detail.ledger.map((e) => (
                <TR key={e.id.toString()}>
                  <TD data-label="Time (UTC)" className="whitespace-nowrap text-zinc-600">{formatDateTime(e.createdAt)}</TD>
                  <TD data-label="Kind">{LEDGER_KINDS[e.kind] ?? e.kind}</TD>
                  <TD data-label="Description" className="max-w-72 break-words text-zinc-700">{e.description ?? e.reference ?? "—"}</TD>
                  <TD data-label="Amount" className="text-right"><Money nanos={e.amountNanos} /></TD>
                  <TD data-label="Balance after" className="text-right"><Money nanos={e.balanceAfterNanos} use="balance" /></TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Recent requests</CardTitle>
        </CardHeader>
        {detail.usage.length === 0 ? (
          <EmptyState title="No API requests yet" />
        ) : (
          <Table caption="Recent requests" stacked>
            <THead>
              <TR>
                <TH>Time (UTC)</TH>
                <TH>Key</TH>
                <TH>Endpoint</TH>
                <TH>Tickers</TH>
                <TH>Status</TH>
                <TH className="text-right">Cost</TH>
                <TH>Address</TH>
              </TR>
            </THead>
            <TBody>
              {detail.usage.map((u) => (
                <TR key={u.id.toString()}>
                  <TD data-label="Time (UTC)" className="whitespace-nowrap text-zinc-600">{formatDateTime(u.createdAt)}</TD>
                  <TD data-label="Key" className="font-mono text-xs">{u.apiKey ? `${u.apiKey.hint}…` : "—"}</TD>
                  <TD data-label="Endpoint" className="font-mono text-xs">{u.endpoint}</TD>
                  <TD data-label="Tickers" className="text-xs">{u.tickers.join(", ") || "—"}</TD>
                  <TD data-label="Status">
                    <Badge tone={u.statusCode < 400 ? "success" : "warning"}>{u.statusCode}</Badge> <span className="text-xs text-zinc-600">{u.errorCode ?? ""}</span>
                  </TD>
                  <TD data-label="Cost" className="text-right tabular-nums"><Amount nanos={u.costNanos} /></TD>
                  <TD data-label="Address" className="font-mono text-xs">{u.clientIp ?? "—"}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Audit trail</CardTitle>
          <CardDescription>
            The latest 50 entries. <Link href={`/admin/audit?org=${org.id}`} className="text-accent-700 underline-offset-2 hover:underline">All of them</Link>
          </CardDescription>
        </CardHeader>
        {detail.audit.length === 0 ? (
          <EmptyState title="Nothing recorded yet" />
        ) : (
          <Table caption="Audit trail" stacked>
            <THead>
              <TR>
                <TH>Time (UTC)</TH>
                <TH>Actor</TH>
                <TH>Action</TH>
              </TR>
            </THead>
            <TBody>
              {detail.audit.map((e) => (
                <TR key={e.id.toString()} data-action={e.action}>
                  <TD data-label="Time (UTC)" className="whitespace-nowrap text-zinc-600">{formatDateTime(e.createdAt)}</TD>
                  <TD data-label="Actor" className="max-w-56 wrap-anywhere">
                    <div>
                      {e.actorEmail ?? describeActor(e.actorLabel ?? "system")}
                      {e.actorEmail && e.actorLabel ? <span className="block text-xs text-zinc-500">{describeActor(e.actorLabel)}</span> : null}
                    </div>
                  </TD>
                  <TD data-label="Action">{describeAuditEntry(e)}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
    </div>
  );
}
