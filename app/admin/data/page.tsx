import type { Metadata } from "next";
import { DataUpload } from "@/components/admin/data-upload";
import { DATA_KINDS, formatDuration } from "@/components/admin/data-format";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { MAX_IMPORT_BYTES } from "@/lib/data/import";
import { DATA_LOADS_SHOWN, dataOverview, EMBEDDED_FULL_FILE_APPLY } from "@/lib/platform/admin/data";
import { getAdminPage } from "@/lib/platform/admin/session";
import { formatDateTime } from "@/lib/utils/dates";
import { formatCount } from "@/lib/utils/format";
import { mintUploadTicket } from "../../../scripts/console-gate.mjs";

export const metadata: Metadata = { title: "Data" };

const MAX_LABEL = `${MAX_IMPORT_BYTES / 1024 / 1024} MB`;

export default async function AdminDataPage() {
  const { db, admin } = await getAdminPage();
  const overview = await dataOverview(db, admin.principal);
  const timingNote = overview.embedded
    ? `A ${MAX_LABEL} file takes ${EMBEDDED_FULL_FILE_APPLY} to check or apply on the embedded database; the API waits meanwhile.`
    : `The API keeps answering while a file loads into PostgreSQL (on the embedded database a ${MAX_LABEL} file takes ${EMBEDDED_FULL_FILE_APPLY}, and the API waits).`;

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Data" description="The dilution dataset the API serves: what it holds, the last loads, and uploads checked by the same validator as npm run data:import. Times are UTC." />

      <section aria-labelledby="records-heading" className="flex flex-col gap-3">
        <h2 id="records-heading" className="text-base font-semibold text-zinc-900">
          Records
        </h2>
        {overview.companies.total > 0 && overview.companies.real === 0 ? (
          <Alert tone="warning" title="Only the sample dataset is loaded.">
            Every company is fictional (marked “(Sample)”). Load real data from SEC EDGAR with npm run data:edgar -- sync --all (docs/data.md, “Load real data”), or upload a file below.
          </Alert>
        ) : null}
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="data-records">
          {DATA_KINDS.map(([kind, label]) => (
            <Card key={kind} className="flex min-w-0 flex-col gap-1 px-4 py-3" data-kind={kind}>
              <p className="text-xs font-medium text-zinc-500">{label}</p>
              <p className="text-2xl font-semibold text-zinc-900 tabular-nums">{formatCount(overview.records[kind])}</p>
              {kind === "companies" ? (
                <p className="text-xs text-zinc-600" data-testid="data-sample-split">
                  {formatCount(overview.companies.real)} real · {formatCount(overview.companies.sample)} sample
                </p>
              ) : null}
            </Card>
          ))}
        </div>
      </section>

      <Card data-testid="edgar-status">
        <CardHeader>
          <CardTitle as="h2">SEC EDGAR</CardTitle>
          <CardDescription>
            Real companies and their filings, loaded by npm run data:edgar -- sync (a daily cron run keeps them within a day of SEC). Every record cites its filing.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
            <dt className="text-zinc-500">Companies from EDGAR</dt>
            <dd className="font-medium text-zinc-900 tabular-nums">{formatCount(overview.edgar.companies)}</dd>
            <dt className="text-zinc-500">Last synced (UTC)</dt>
            <dd className="text-zinc-800">
              {overview.edgar.lastSyncedAt ? <time dateTime={overview.edgar.lastSyncedAt.toISOString()}>{formatDateTime(overview.edgar.lastSyncedAt)}</time> : "Never"}
            </dd>
            <dt className="text-zinc-500">Partial history</dt>
            <dd className="min-w-0 text-zinc-800">
              {overview.edgar.partialTickers.length
                ? `${overview.edgar.partialTickers.join(", ")}: an older page of the filing index could not be read`
                : "None"}
            </dd>
          </dl>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Upload a file</CardTitle>
          <CardDescription>
            Check a file first: every bad record is listed with its line, and nothing is written. Then apply it: all records in one transaction, or none. Records are upserted on their natural keys, so loading a file twice changes nothing. {timingNote}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <DataUpload maxBytes={MAX_IMPORT_BYTES} maxLabel={MAX_LABEL} timingNote={timingNote} uploadTicket={mintUploadTicket()} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Recent loads</CardTitle>
          <CardDescription>
            The last {DATA_LOADS_SHOWN} loads applied or refused: uploads here, npm run data:import, and the EDGAR sync. Checks (dry runs) change nothing and are not listed.
          </CardDescription>
        </CardHeader>
        {overview.loads.length === 0 ? (
          <EmptyState title="No loads yet">Files applied here or with npm run data:import are listed here, with what they changed. The sample dataset loaded into a fresh database is not.</EmptyState>
        ) : (
          <Table caption="Recent data loads" stacked data-testid="data-loads">
            <THead>
              <TR>
                <TH>Finished (UTC)</TH>
                <TH>Source</TH>
                <TH>Status</TH>
                <TH>Records</TH>
                <TH className="text-right">Took</TH>
                <TH>By</TH>
              </TR>
            </THead>
            <TBody>
              {overview.loads.map((load) => (
                <TR key={load.id} data-status={load.status}>
                  <TD data-label="Finished (UTC)" className="whitespace-nowrap text-zinc-600">
                    <time dateTime={load.finishedAt.toISOString()}>{formatDateTime(load.finishedAt)}</time>
                  </TD>
                  <TD data-label="Source" className="max-w-64 min-w-0">
                    <span className="block font-medium wrap-anywhere text-zinc-900">{load.source}</span>
                    <span className="block text-xs text-zinc-500">{load.kindLabel}</span>
                  </TD>
                  <TD data-label="Status">
                    {load.status === "applied" ? <Badge tone="success">Applied</Badge> : load.status === "failed" ? <Badge tone="danger">Failed</Badge> : <Badge>{load.status}</Badge>}
                  </TD>
                  <TD data-label="Records" className="min-w-0 md:min-w-72">
                    <div className="flex min-w-0 flex-col items-end gap-1 md:items-start">
                      {DATA_KINDS.some(([kind]) => load.counts[kind]) ? (
                        <ul className="flex flex-col gap-0.5 text-right md:text-left">
                          {DATA_KINDS.filter(([kind]) => load.counts[kind]).map(([kind, label]) => {
                            const c = load.counts[kind]!;
                            return (
                              <li key={kind} className="text-zinc-800">
                                <span className="font-medium">{label}</span> <span className="tabular-nums">{formatCount(c.received)}</span>
                                {load.status === "applied" ? (
                                  <span className="text-xs text-zinc-500 tabular-nums">
                                    {" "}
                                    ({formatCount(c.created)} new · {formatCount(c.updated)} changed · {formatCount(c.unchanged)} unchanged
                                    {c.removed ? ` · ${formatCount(c.removed)} removed` : ""}
                                    {c.skipped ? ` · ${formatCount(c.skipped)} skipped (not listed)` : ""})
                                  </span>
                                ) : null}
                              </li>
                            );
                          })}
                        </ul>
                      ) : (
                        <span className="text-zinc-500">—</span>
                      )}
                      {load.errorCount > 0 ? (
                        <details className="w-full text-left">
                          <summary className="cursor-pointer text-xs font-medium text-red-700">
                            {formatCount(load.errorCount)} error{load.errorCount === 1 ? "" : "s"}
                            {load.errors.length < load.errorCount ? ` (first ${load.errors.length} shown)` : ""}
                          </summary>
                          <ul className="mt-1 flex flex-col gap-0.5 font-mono text-xs break-words text-zinc-700">
                            {load.errors.map((error, index) => (
                              <li key={index}>{error}</li>
                            ))}
                          </ul>
                        </details>
                      ) : null}
                    </div>
                  </TD>
                  <TD data-label="Took" className="text-right whitespace-nowrap tabular-nums">{formatDuration(load.durationMs)}</TD>
                  <TD data-label="By" className="max-w-48 wrap-anywhere text-zinc-700">{load.actor}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>
    </div>
  );
}
