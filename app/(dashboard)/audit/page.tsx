import type { Metadata } from "next";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { getOrgPage } from "@/lib/platform/session";
import { AUDIT_PAGE_SIZE, listAuditLog } from "@/lib/platform/audit";
import { describeActor, describeAuditEntry } from "@/lib/platform/audit-format";
import { formatDateTime } from "@/lib/utils/dates";

export const metadata: Metadata = { title: "Audit log" };

/** `?before=<id>`: a positive integer id, anything else means "the newest". */
function parseBefore(value: string | string[] | undefined): bigint | undefined {
  return typeof value === "string" && /^[1-9]\d{0,18}$/.test(value) ? BigInt(value) : undefined;
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { db, principal, org, allowed } = await getOrgPage("audit:view");
  const header = (
    <PageHeader title="Audit log" description={`Who did what in ${org.name}, and when: keys, people, credits, and your members’ sign-ins. Times are UTC.`} />
  );

  if (!allowed) {
    return (
      <div className="flex flex-col gap-6">
        {header}
        <Card>
          <CardHeader>
            <CardTitle as="h2">Not available to members</CardTitle>
            <CardDescription>Only owners and admins of {org.name} can see its audit log. Ask one of them if you need to know what changed.</CardDescription>
          </CardHeader>
          <CardContent>
            <Link href="/members" className={buttonClasses({ variant: "secondary" })}>
              See who the owners and admins are
            </Link>
          </CardContent>
        </Card>
      </div>
    );
  }

  const before = parseBefore((await searchParams).before);
  const { entries, nextBefore } = await listAuditLog(db, principal, org.id, { before });

  return (
    <div className="flex flex-col gap-6">
      {header}
      <Card>
        {entries.length === 0 ? (
          <EmptyState title={before ? "No older entries" : "Nothing recorded yet"}>
            {before
              ? "You have reached the beginning of the log."
              : "Key changes, invitations, role changes and sign-ins appear here as they happen."}
          </EmptyState>
        ) : (
          <Table caption="Audit log" stacked>
            <THead>
              <TR>
                <TH>Time (UTC)</TH>
                <TH>Actor</TH>
                <TH>Action</TH>
                <TH>IP address</TH>
              </TR>
            </THead>
            <TBody>
              {entries.map((entry) => (
                <TR key={entry.id} data-action={entry.action}>
                  <TD data-label="Time (UTC)" className="whitespace-nowrap text-zinc-600">
                    <time dateTime={entry.createdAt.toISOString()}>{formatDateTime(entry.createdAt)}</time>
                  </TD>
                  <TD data-label="Actor" className="max-w-56 wrap-anywhere">{describeActor(entry.actor)}</TD>
                  <TD data-label="Action" className="min-w-64 text-zinc-900">{describeAuditEntry(entry)}</TD>
                  <TD data-label="IP address" className="font-mono text-xs whitespace-nowrap text-zinc-600">{entry.ip ?? "—"}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
      {before || nextBefore ? (
        <nav aria-label="Audit log pages" className="flex flex-wrap justify-between gap-2">
          {before ? (
            <Link href="/audit" className={buttonClasses({ variant: "secondary" })}>
              Newest entries
            </Link>
          ) : (
            <span />
          )}
          {nextBefore ? (
            <Link href={`/audit?before=${nextBefore}`} className={buttonClasses({ variant: "secondary" })}>
              Older entries
            </Link>
          ) : null}
        </nav>
      ) : null}
      <p className="text-xs text-zinc-500">{AUDIT_PAGE_SIZE} entries per page, newest first.</p>
    </div>
  );
}
