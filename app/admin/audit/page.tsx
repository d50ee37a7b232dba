import type { Metadata } from "next";
import Link from "next/link";
import { AuditFilters } from "@/components/admin/audit-filters";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { AUDIT_ACTION_GROUPS, listPlatformAudit, PLATFORM_AUDIT_PAGE_SIZE, type PlatformAuditEntry, type PlatformAuditFilters } from "@/lib/platform/admin/audit";
import { getAdminPage } from "@/lib/platform/admin/session";
import { describeActor, describeAuditEntry } from "@/lib/platform/audit-format";
import { formatDateTime } from "@/lib/utils/dates";

export const metadata: Metadata = { title: "Audit log" };

const LINK = "text-accent-700 underline-offset-2 hover:underline";

/** The page's address with these filters (and a page), for the paging links. */
function pageHref(filters: PlatformAuditFilters, before?: string) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  if (before) params.set("before", before);
  return `/admin/audit${params.size ? `?${params}` : ""}`;
}

export default async function AdminAuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { db, admin } = await getAdminPage();
  const { filters, notes, before, entries, nextBefore } = await listPlatformAudit(db, admin.principal, await searchParams);
  const filtered = Object.values(filters).some(Boolean);

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Audit log" description="Everything recorded on the platform, newest first: customers’ actions, sign-ins, payments, and this console’s changes. Times are UTC." />
      <Card className="p-4 sm:p-5">
        <AuditFilters values={filters} groups={AUDIT_ACTION_GROUPS} />
      </Card>
      {notes.length ? (
        <Alert tone="warning" title="Some filters were ignored">
          <ul className="list-disc pl-5">
            {notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
      <Card>
        {entries.length === 0 ? (
          <EmptyState title={before ? "No older entries" : filtered ? "Nothing matches these filters" : "Nothing recorded yet"}>
            {before
              ? "You have reached the beginning of the log for these filters."
              : filtered
                ? "Widen the date range, or clear a filter."
                : "Sign-ups, key changes, payments and administrators’ changes appear here as they happen."}
          </EmptyState>
        ) : (
          <Table caption={filtered ? "Audit log, filtered" : "Audit log"} stacked>
            <THead>
              <TR>
                <TH>Time (UTC)</TH>
                <TH>Actor</TH>
                <TH>Organization</TH>
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
                  <TD data-label="Actor" className="max-w-56">
                    <Actor entry={entry} />
                  </TD>
                  <TD data-label="Organization" className="max-w-48">
                    {entry.org ? (
                      <Link href={`/admin/organizations/${entry.org.id}`} className={`break-words ${LINK}`}>
                        {entry.org.name}
                      </Link>
                    ) : (
                      <span className="text-zinc-500">—</span>
                    )}
                  </TD>
                  <TD data-label="Action" className="min-w-64 text-zinc-900">
                    <div className="flex min-w-0 flex-col items-end gap-1 md:items-start">
                      <span className="break-words">{describeAuditEntry(entry)}</span>
                      <EntryDetails entry={entry} />
                    </div>
                  </TD>
                  <TD data-label="IP address" className="font-mono text-xs whitespace-nowrap text-zinc-600">
                    {entry.ip ?? "—"}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
      {before || nextBefore ? (
        <nav aria-label="Audit log pages" className="flex flex-wrap justify-between gap-2">
          {before ? (
            <Link href={pageHref(filters)} className={buttonClasses({ variant: "secondary" })}>
              Newest entries
            </Link>
          ) : (
            <span />
          )}
          {nextBefore ? (
            <Link href={pageHref(filters, nextBefore)} className={buttonClasses({ variant: "secondary" })}>
              Older entries
            </Link>
          ) : null}
        </nav>
      ) : null}
      <p className="text-xs text-zinc-500">{PLATFORM_AUDIT_PAGE_SIZE} entries per page, newest first.</p>
    </div>
  );
}

/** The acting user's email (an administrator's too, marked), or the label of what acted ("Stripe", "Operator (CLI)"). */
function Actor({ entry }: { entry: PlatformAuditEntry }) {
  if (!entry.actorEmail) return <span>{describeActor(entry.actorLabel ?? "system")}</span>;
  return (
    <div className="flex flex-col items-end gap-1 md:items-start">
      <Link href={`/admin/users?q=${encodeURIComponent(entry.actorEmail)}`} className={`wrap-anywhere ${LINK}`}>
        {entry.actorEmail}
      </Link>
      {entry.byPlatformAdmin ? <Badge tone="warning">{describeActor(entry.actorLabel ?? "")}</Badge> : null}
    </div>
  );
}

/** The raw entry behind the words: what it acted on, and its details (before and after values included). */
function EntryDetails({ entry }: { entry: PlatformAuditEntry }) {
  const hasDetails = Object.keys(entry.details).length > 0;
  if (!hasDetails && !entry.targetType) return null;
  return (
    <details className="w-full max-w-xl text-left">
      <summary className="cursor-pointer text-xs text-zinc-600 hover:text-zinc-900">
        Details <span className="font-mono">({entry.action})</span>
      </summary>
      <div className="mt-1 flex flex-col gap-1">
        {entry.targetType ? (
          <p className="text-xs wrap-anywhere text-zinc-600">
            Target: {entry.targetType} <span className="font-mono">{entry.targetId ?? ""}</span>
          </p>
        ) : null}
        {hasDetails ? (
          <pre tabIndex={0} className="max-h-72 overflow-auto rounded-md bg-zinc-950 p-3 font-mono text-[12px] leading-relaxed text-zinc-100">
            {JSON.stringify(entry.details, null, 2)}
          </pre>
        ) : null}
      </div>
    </details>
  );
}
