import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { UsersActions } from "@/components/admin/users-actions";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Input, Select } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { roleLabelOf } from "@/lib/utils/roles";
import { getAdminPage } from "@/lib/platform/admin/session";
import { searchUsers, userDetail, type UserDetail, type UserSearchRow } from "@/lib/platform/admin/users";
import { formatDate, formatDateTime } from "@/lib/utils/dates";

export const metadata: Metadata = { title: "Users" };

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const LINK = "text-accent-700 underline-offset-2 hover:underline";

const SHOW_LABELS = { all: "All users", admins: "Platform administrators", locked: "Locked users" } as const;

export default async function AdminUsersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { db, admin } = await getAdminPage();
  const params = await searchParams;
  const selected = first(params.user);
  const [{ query, show, users, more, activeAdmins }, detail] = await Promise.all([
    searchUsers(db, admin.principal, { q: first(params.q), show: first(params.show) }),
    selected ? userDetail(db, admin.principal, selected) : null,
  ]);
  const listHref = (extra: Record<string, string> = {}) => {
    const search = new URLSearchParams({ ...(query ? { q: query } : {}), ...(show !== "all" ? { show } : {}), ...extra });
    return `/admin/users${search.size ? `?${search}` : ""}`;
  };

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Users"
        description={`Find a person by email, name or id; lock them out, or make them a platform administrator. ${activeAdmins} administrator${activeAdmins === 1 ? "" : "s"} can sign in now. Times are UTC.`}
      />
      <form method="get" role="search" className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <label htmlFor="user-search" className="sr-only">
          Email, name or id
        </label>
        <Input id="user-search" name="q" type="search" defaultValue={query} placeholder="Email, name or id" autoComplete="off" className="sm:max-w-md" />
        <label htmlFor="user-show" className="sr-only">
          Which users
        </label>
        <Select id="user-show" name="show" defaultValue={show} className="sm:w-56">
          {Object.entries(SHOW_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
        <Button type="submit">Search</Button>
      </form>

      {selected && !detail ? <Alert tone="warning">No user has the id “{selected}”. Search again.</Alert> : null}
      {detail ? <UserPanel user={detail} self={detail.id === admin.user.id} closeHref={listHref()} /> : null}

      <Card>
        {users.length === 0 ? (
          <EmptyState title={query ? `Nobody matches “${query}”` : show === "all" ? "No users yet" : `No ${SHOW_LABELS[show].toLowerCase()}`}>
            {query ? "Try part of the email, part of the name, or the full id." : "People appear here when they sign up or are invited."}
          </EmptyState>
        ) : (
          <Table caption={query ? `Users matching “${query}”` : SHOW_LABELS[show]} stacked>
            <THead>
              <TR>
                <TH>User</TH>
                <TH>Status</TH>
                <TH>Created</TH>
                <TH>Last sign-in</TH>
              </TR>
            </THead>
            <TBody>
              {users.map((user) => (
                <TR key={user.id} data-user={user.email} className={user.id === detail?.id ? "bg-accent-50/60" : undefined}>
                  <TD data-label="User" className="max-w-80">
                    <Link href={listHref({ user: user.id })} className={`font-medium wrap-anywhere ${LINK}`} aria-current={user.id === detail?.id ? "true" : undefined}>
                      {user.email}
                    </Link>
                    {user.name ? <div className="text-xs break-words text-zinc-600">{user.name}</div> : null}
                  </TD>
                  <TD data-label="Status">
                    <UserBadges user={user} inTable />
                  </TD>
                  <TD data-label="Created" className="whitespace-nowrap text-zinc-600">
                    {formatDate(user.createdAt)}
                  </TD>
                  <TD data-label="Last sign-in" className="whitespace-nowrap text-zinc-600">
                    {user.lastSignInAt ? formatDateTime(user.lastSignInAt) : "Never"}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
      {more ? <p className="text-sm text-zinc-600">Showing the newest 50; narrow the search to see others.</p> : null}
    </div>
  );
}

/** In a stacked table the cell's content sits on the right on phones; elsewhere it starts on the left. */
function UserBadges({ user, inTable = false }: { user: Pick<UserSearchRow, "isPlatformAdmin" | "lockedAt" | "lockedReason" | "deletedAt">; inTable?: boolean }) {
  const badges = [
    user.isPlatformAdmin ? <Badge key="admin" tone="accent">Platform admin</Badge> : null,
    user.lockedAt ? <Badge key="locked" tone="danger">Locked</Badge> : null,
    user.deletedAt ? <Badge key="deleted">Deleted</Badge> : null,
  ].filter(Boolean);
  return (
    <div className={inTable ? "flex flex-col items-end gap-1 md:items-start" : "flex flex-col items-start gap-1"}>
      {badges.length ? <div className={inTable ? "flex flex-wrap justify-end gap-1 md:justify-start" : "flex flex-wrap gap-1"}>{badges}</div> : <span className="text-zinc-600">Active</span>}
      {user.lockedAt ? (
        <span className="max-w-64 text-xs break-words text-zinc-600">
          {formatDate(user.lockedAt)}: {user.lockedReason ?? "no reason given"}
        </span>
      ) : null}
    </div>
  );
}

const PROVIDERS: Record<string, string> = { github: "GitHub", google: "Google" };

function UserPanel({ user, self, closeHref }: { user: UserDetail; self: boolean; closeHref: string }) {
  const methods = [user.hasPassword ? "Password" : null, ...user.providers.map((p) => PROVIDERS[p] ?? p)].filter(Boolean).join(", ") || "None";
  return (
    <Card id="user-detail" aria-labelledby="user-detail-title">
      <CardHeader className="sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <CardTitle as="h2" id="user-detail-title" className="wrap-anywhere">
            {user.email}
            {self ? <span className="ml-2 text-sm font-normal text-zinc-500">(you)</span> : null}
          </CardTitle>
          <CardDescription className="font-mono text-xs break-all">{user.id}</CardDescription>
        </div>
        <Link href={closeHref} className={`shrink-0 text-sm ${LINK}`}>
          Close
        </Link>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
          <Fact label="Name">{user.name ?? "—"}</Fact>
          <Fact label="Status">
            <UserBadges user={user} />
          </Fact>
          <Fact label="Live sessions">
            <span data-testid="live-sessions">{user.liveSessions}</span>
          </Fact>
          <Fact label="Created">{formatDateTime(user.createdAt)}</Fact>
          <Fact label="Last sign-in">{user.lastSignInAt ? formatDateTime(user.lastSignInAt) : "Never"}</Fact>
          <Fact label="Signs in with">{methods}</Fact>
        </dl>

        <section aria-labelledby="user-orgs" className="flex flex-col gap-2">
          <h3 id="user-orgs" className="text-sm font-semibold text-zinc-900">
            Organizations
          </h3>
          {user.memberships.length === 0 ? (
            <p className="text-sm text-zinc-600">{user.deletedAt ? "None: a deleted account’s memberships are removed." : "Not a member of any organization."}</p>
          ) : (
            <div className="rounded-md border border-zinc-200">
              <Table caption={`Organizations of ${user.email}`} stacked>
                <THead>
                  <TR>
                    <TH>Organization</TH>
                    <TH>Role</TH>
                    <TH>Member since</TH>
                  </TR>
                </THead>
                <TBody>
                  {user.memberships.map((m) => (
                    <TR key={m.organization.id}>
                      <TD data-label="Organization">
                        <Link href={`/admin/organizations/${m.organization.id}`} className={`font-medium break-words ${LINK}`}>
                          {m.organization.name}
                        </Link>
                        <span className="ml-2 inline-flex gap-1">
                          {m.organization.suspendedAt ? <Badge tone="danger">Suspended</Badge> : null}
                          {m.organization.closedAt ? <Badge>Closed</Badge> : null}
                        </span>
                      </TD>
                      <TD data-label="Role">{roleLabelOf(m.role)}</TD>
                      <TD data-label="Member since" className="whitespace-nowrap text-zinc-600">
                        {formatDate(m.createdAt)}
                      </TD>
                    </TR>
                  ))}
                </TBody>
              </Table>
            </div>
          )}
        </section>

        <p className="text-sm">
          <Link href={`/admin/audit?actor=${encodeURIComponent(user.email)}`} className={LINK}>
            What this user did (audit log)
          </Link>
        </p>

        <UsersActions
          user={{
            id: user.id,
            email: user.email,
            locked: user.lockedAt !== null,
            deleted: user.deletedAt !== null,
            isPlatformAdmin: user.isPlatformAdmin,
            liveSessions: user.liveSessions,
          }}
          self={self}
        />
      </CardContent>
    </Card>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      <dt className="text-xs font-medium text-zinc-500">{label}</dt>
      <dd className="min-w-0 break-words text-zinc-900">{children}</dd>
    </div>
  );
}
