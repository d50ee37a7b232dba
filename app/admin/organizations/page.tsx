import type { Metadata } from "next";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { Money as Amount } from "@/components/ui/money";
import { searchOrganizations } from "@/lib/platform/admin/organizations";
import { getAdminPage } from "@/lib/platform/admin/session";
import { formatDate } from "@/lib/utils/dates";

export const metadata: Metadata = { title: "Organizations" };

export default async function AdminOrganizationsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { db, admin } = await getAdminPage();
  const { q } = await searchParams;
  const { query, organizations, more } = await searchOrganizations(db, admin.principal, q);

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Organizations" description="Find an organization by its name, its id, a member’s email, or a key’s hint." />
      <form method="get" role="search" className="flex max-w-xl gap-2">
        <label htmlFor="org-search" className="sr-only">
          Name, id, member email or key hint
        </label>
        <Input id="org-search" name="q" type="search" defaultValue={query} placeholder="Name, id, member email or key hint" autoComplete="off" />
        <Button type="submit">Search</Button>
      </form>
      <Card>
        {organizations.length === 0 ? (
          <EmptyState title={query ? `Nothing matches “${query}”` : "No organizations yet"}>
            {query ? "Try part of the name, a member’s full email, or the first characters of a key." : "Organizations appear here when customers sign up."}
          </EmptyState>
        ) : (
          <Table caption={query ? `Organizations matching “${query}”` : "Newest organizations"} stacked>
            <THead>
              <TR>
                <TH>Organization</TH>
                <TH>Plan</TH>
                <TH className="text-right">Balance</TH>
                <TH className="text-right">Members</TH>
                <TH className="text-right">Keys</TH>
                <TH>Created</TH>
              </TR>
            </THead>
            <TBody>
              {organizations.map((org) => (
                <TR key={org.id}>
                  <TD data-label="Organization">
                    <Link href={`/admin/organizations/${org.id}`} className="font-medium text-accent-700 underline-offset-2 hover:underline">
                      {org.name}
                    </Link>
                    <span className="ml-2 inline-flex gap-1">
                      {org.suspendedAt ? <Badge tone="danger">Suspended</Badge> : null}
                      {org.closedAt ? <Badge>Closed</Badge> : null}
                    </span>
                    <div className="font-mono text-[11px] text-zinc-500">{org.id}</div>
                  </TD>
                  <TD data-label="Plan">{org.plan.name}</TD>
                  <TD data-label="Balance" className={`text-right tabular-nums ${org.balanceNanos < 0n ? "text-red-700" : ""}`}>
                    <Amount nanos={org.balanceNanos} />
                  </TD>
                  <TD data-label="Members" className="text-right tabular-nums">{org._count.memberships}</TD>
                  <TD data-label="Keys" className="text-right tabular-nums">{org._count.apiKeys}</TD>
                  <TD data-label="Created" className="whitespace-nowrap text-zinc-600">{formatDate(org.createdAt)}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
      {more ? <p className="text-sm text-zinc-600">Showing the first 50; narrow the search to see others.</p> : null}
    </div>
  );
}
