import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { formatCount } from "@/lib/utils/format";
import { DATA_KINDS, type KindCountsView } from "./data-format";

/** Records per kind of one load or check: received, then what the upsert did (or would do) with them. */
export function DataCountsTable({ counts, caption, checking = false }: { counts: Partial<Record<string, KindCountsView>>; caption: string; checking?: boolean }) {
  const rows = DATA_KINDS.filter(([kind]) => (counts[kind]?.received ?? 0) > 0 || (counts[kind]?.removed ?? 0) > 0);
  if (rows.length === 0) return <p className="text-sm text-zinc-600">The file holds no records.</p>;
  const showSkipped = rows.some(([kind]) => (counts[kind]?.skipped ?? 0) > 0);
  const showRemoved = rows.some(([kind]) => (counts[kind]?.removed ?? 0) > 0);
  const created = checking ? "Would create" : "Created";
  const updated = checking ? "Would update" : "Updated";
  return (
    <Table caption={caption} stacked>
      <THead>
        <TR>
          <TH>Kind</TH>
          <TH className="text-right">Records</TH>
          <TH className="text-right">{created}</TH>
          <TH className="text-right">{updated}</TH>
          <TH className="text-right">Unchanged</TH>
          {showSkipped && <TH className="text-right">Skipped (not listed)</TH>}
          {showRemoved && <TH className="text-right">Removed</TH>}
        </TR>
      </THead>
      <TBody>
        {rows.map(([kind, label]) => {
          const c = counts[kind]!;
          return (
            <TR key={kind} data-kind={kind}>
              <TD data-label="Kind" className="font-medium text-zinc-900">{label}</TD>
              <TD data-label="Records" className="text-right tabular-nums">{formatCount(c.received)}</TD>
              <TD data-label={created} className="text-right tabular-nums">{formatCount(c.created)}</TD>
              <TD data-label={updated} className="text-right tabular-nums">{formatCount(c.updated)}</TD>
              <TD data-label="Unchanged" className="text-right tabular-nums">{formatCount(c.unchanged)}</TD>
              {showSkipped && <TD data-label="Skipped (not listed)" className="text-right tabular-nums">{formatCount(c.skipped ?? 0)}</TD>}
              {showRemoved && <TD data-label="Removed" className="text-right tabular-nums">{formatCount(c.removed ?? 0)}</TD>}
            </TR>
          );
        })}
      </TBody>
    </Table>
  );
}
