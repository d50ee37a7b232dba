"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState, type DragEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import type { UploadAnswer } from "@/lib/platform/admin/data";
import { cn } from "@/lib/utils/cn";
import { formatBytes, formatCount } from "@/lib/utils/format";
import { DataCountsTable } from "./data-counts";
import { formatDuration } from "./data-format";

type Phase =
  | { name: "idle" }
  | { name: "uploading"; dryRun: boolean; loaded: number; total: number }
  | { name: "processing"; dryRun: boolean }
  | { name: "answered"; answer: UploadAnswer; fileName: string }
  /** `final`: the file itself cannot be sent (wrong type, too large); otherwise a retry may work. */
  | { name: "refused"; message: string; final?: boolean };

interface Reply {
  status: number;
  text: string;
}

/** POSTs the file's bytes with upload progress (fetch has none); rejects on a network error or abort. */
function send(
  file: File,
  dryRun: boolean,
  ticket: string | null,
  events: { progress: (loaded: number, total: number) => void; sent: () => void },
  signal: AbortSignal,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/admin/data/upload?dry_run=${dryRun ? 1 : 0}`);
    xhr.setRequestHeader("X-File-Name", encodeURIComponent(file.name));
    if (ticket) xhr.setRequestHeader("X-Upload-Ticket", ticket);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (event) => events.progress(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.upload.onload = () => events.sent();
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new Error("network"));
    xhr.onabort = () => reject(new DOMException("The upload was canceled.", "AbortError"));
    signal.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

function refusalOf(reply: Reply): string {
  if (reply.status === 404) return "You are no longer signed in as a platform administrator. Reload the page and sign in again.";
  try {
    const body = JSON.parse(reply.text) as { error?: unknown };
    if (typeof body.error === "string") return body.error;
  } catch {
    // not our JSON: a proxy's or the server's own page
  }
  if (reply.status === 413) return "The file is larger than the server accepts.";
  return `The upload failed (HTTP ${reply.status}). Nothing was written; try again.`;
}

export interface DataUploadProps {
  maxBytes: number;
  /** "100 MB" */
  maxLabel: string;
  /** What a full-size file costs on this server's database, shown before applying. */
  timingNote: string;
  /** Lets the file's bytes go straight to the route rather than through the proxy (scripts/console-gate.mjs); null: none. */
  uploadTicket: string | null;
}

/**
 * Choose or drop a JSON or CSV file, check it (a dry run: every bad record
 * with its line), then apply it all or nothing. Apply uploads the same file
 * again; the server validates it again, so a file changed in between is never
 * half loaded.
 */
export function DataUpload({ maxBytes, maxLabel, timingNote, uploadTicket }: DataUploadProps) {
  const router = useRouter();
  const inputId = useId();
  const hintId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const [dragging, setDragging] = useState(false);
  const [phase, setPhase] = useState<Phase>({ name: "idle" });
  const [confirming, setConfirming] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const busy = phase.name === "uploading" || phase.name === "processing";

  // Leaving the page cancels an upload in flight.
  useEffect(() => () => controller.current?.abort(), []);

  function choose(next: File | null) {
    if (busy) return;
    setFile(next);
    setPhase({ name: "idle" });
    if (!next) return;
    if (!/\.(json|csv)$/i.test(next.name)) setPhase({ name: "refused", final: true, message: `${next.name} is not a .json or .csv file.` });
    else if (next.size > maxBytes)
      setPhase({ name: "refused", final: true, message: `${next.name} is ${formatBytes(next.size)}; one upload takes at most ${maxLabel}. Split it into several files (e.g. one per kind).` });
    else if (next.size === 0) setPhase({ name: "refused", final: true, message: `${next.name} is empty.` });
  }

  function reset() {
    controller.current?.abort();
    setFile(null);
    setPhase({ name: "idle" });
    setInputKey((k) => k + 1);
  }

  async function upload(dryRun: boolean) {
    if (!file) return;
    setConfirming(false);
    const abort = new AbortController();
    controller.current = abort;
    setPhase({ name: "uploading", dryRun, loaded: 0, total: file.size });
    try {
      const reply = await send(
        file,
        dryRun,
        uploadTicket,
        {
          progress: (loaded, total) => setPhase((p) => (p.name === "uploading" ? { ...p, loaded, total } : p)),
          sent: () => setPhase({ name: "processing", dryRun }),
        },
        abort.signal,
      );
      if (reply.status !== 200) return setPhase({ name: "refused", message: refusalOf(reply) });
      const answer = JSON.parse(reply.text) as UploadAnswer;
      setPhase({ name: "answered", answer, fileName: file.name });
      if (!dryRun) router.refresh(); // the dataset's counts and the list of loads
    } catch (error) {
      if (error instanceof DOMException && error.name === "AbortError") return setPhase({ name: "idle" });
      setPhase({ name: "refused", message: "The connection to the server was lost. Nothing was written if the upload did not finish; check the list of loads below, then try again." });
    } finally {
      if (controller.current === abort) controller.current = null;
    }
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) {
      choose(dropped);
      setInputKey((k) => k + 1); // the input no longer shows a file chosen before the drop
    }
  }

  const answer = phase.name === "answered" ? phase.answer : null;
  const records = answer ? Object.values(answer.counts).reduce((n, c) => n + c.received, 0) : 0;
  const checkedOk = answer?.ok && answer.dry_run && records > 0;

  return (
    <div className="flex flex-col gap-4">
      <div
        onDragOver={(event) => {
          event.preventDefault();
          if (!busy) setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        data-testid="data-drop-zone"
        className={cn(
          "flex flex-col gap-3 rounded-lg border-2 border-dashed px-4 py-5 transition-colors",
          dragging ? "border-accent-600 bg-accent-50" : "border-zinc-300 bg-zinc-50",
        )}
      >
        <label htmlFor={inputId} className="text-sm font-medium text-zinc-800">
          Data file (JSON or CSV)
        </label>
        <input
          key={inputKey}
          id={inputId}
          type="file"
          accept=".json,.csv,application/json,text/csv"
          aria-describedby={hintId}
          disabled={busy}
          onChange={(event) => choose(event.target.files?.[0] ?? null)}
          className="block w-full min-w-0 text-sm text-zinc-700 file:mr-3 file:h-9 file:rounded-md file:border file:border-zinc-300 file:bg-white file:px-3 file:text-sm file:font-medium file:text-zinc-900 hover:file:bg-zinc-100"
        />
        <p id={hintId} className="text-xs text-zinc-500">
          Or drag the file here. At most {maxLabel}. The format is the one of <code className="font-mono">npm run data:import</code> (see docs/data.md): a JSON object of record lists, or a CSV of one kind named by its file (<code className="font-mono">offerings.csv</code>) or a <code className="font-mono">kind</code> column.
        </p>
        {file ? (
          <p className="text-sm wrap-anywhere text-zinc-800" data-testid="data-file">
            <span className="font-medium">{file.name}</span> <span className="text-zinc-500">({formatBytes(file.size)})</span>
          </p>
        ) : null}
      </div>

      {phase.name === "uploading" ? (
        <div className="flex flex-col gap-2" aria-live="polite">
          <div className="flex items-center justify-between gap-3 text-sm text-zinc-700">
            <span>
              Uploading {formatBytes(phase.loaded)} of {formatBytes(phase.total)}
            </span>
            <Button size="sm" variant="ghost" onClick={() => controller.current?.abort()}>
              Cancel
            </Button>
          </div>
          <div
            role="progressbar"
            aria-label="Upload progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={phase.total ? Math.floor((phase.loaded / phase.total) * 100) : 0}
            className="h-2 w-full overflow-hidden rounded-full bg-zinc-200"
          >
            <div className="h-full bg-accent-600 transition-[width]" style={{ width: `${phase.total ? (phase.loaded / phase.total) * 100 : 0}%` }} />
          </div>
        </div>
      ) : null}

      {phase.name === "processing" ? (
        <p className="flex items-center gap-2 text-sm text-zinc-700" role="status">
          <Spinner />
          {phase.dryRun ? "Checking every record… nothing is written." : "Applying… all records in one transaction."} {timingNote}
        </p>
      ) : null}

      {phase.name === "refused" ? <Alert tone="danger">{phase.message}</Alert> : null}

      {answer && phase.name === "answered" ? <UploadResult answer={answer} fileName={phase.fileName} records={records} /> : null}

      <div className="flex flex-wrap gap-2">
        {checkedOk ? (
          <Button onClick={() => setConfirming(true)} disabled={busy} data-testid="data-apply">
            Apply {formatCount(records)} record{records === 1 ? "" : "s"}
          </Button>
        ) : (
          <Button
            onClick={() => upload(true)}
            disabled={!file || busy || (phase.name === "refused" && phase.final)}
            loading={(phase.name === "uploading" || phase.name === "processing") && phase.dryRun}
            variant={answer && !answer.dry_run && answer.ok ? "secondary" : "primary"}
            data-testid="data-check"
          >
            {answer && !answer.ok && answer.dry_run ? "Check again" : "Check file"}
          </Button>
        )}
        {file && !busy ? (
          <Button variant="secondary" onClick={reset}>
            Choose another file
          </Button>
        ) : null}
      </div>

      <ConfirmDialog
        open={confirming}
        title={`Load ${file?.name ?? "the file"} into the live dataset?`}
        description={
          <>
            {formatCount(records)} record{records === 1 ? "" : "s"} are written in one transaction, all or nothing: new records are created, and records with the same keys take the file’s values (the API serves them at once). Imports never delete. {timingNote}
          </>
        }
        confirmLabel="Apply"
        confirmVariant="primary"
        onConfirm={() => upload(false)}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}

function UploadResult({ answer, fileName, records }: { answer: UploadAnswer; fileName: string; records: number }) {
  const took = formatDuration(answer.duration_ms);
  if (answer.ok) {
    return (
      <div className="flex flex-col gap-3" data-testid="data-result" data-ok="true">
        <Alert tone="success" title={answer.dry_run ? `${fileName} is valid: ${formatCount(records)} record${records === 1 ? "" : "s"}.` : `Loaded ${fileName} in ${took}.`}>
          {answer.dry_run ? `Checked in ${took}. Nothing was written yet: apply it to load it.` : "The records are live. The load is listed below."}
        </Alert>
        <DataCountsTable counts={answer.counts} caption={answer.dry_run ? "What applying the file would do" : "What the load did"} checking={answer.dry_run} />
      </div>
    );
  }
  const shown = answer.errors.length;
  return (
    <div className="flex flex-col gap-3" data-testid="data-result" data-ok="false">
      <Alert tone="danger" title={`${formatCount(answer.error_count)} problem${answer.error_count === 1 ? "" : "s"} in ${fileName}; nothing was written.`}>
        {answer.dry_run ? "Fix every line listed, then check the file again." : "The load was refused as a whole and is listed below as failed. Fix every line listed and upload it again."}
        {records > 0 ? ` The file holds ${formatCount(records)} record${records === 1 ? "" : "s"}.` : ""}
      </Alert>
      <div className="max-h-[28rem] overflow-y-auto rounded-md border border-zinc-200">
        <Table caption="Problems in the file" stacked>
          <THead>
            <TR>
              <TH>Line</TH>
              <TH>Problem</TH>
            </TR>
          </THead>
          <TBody>
            {answer.errors.map((error, index) => (
              <TR key={index}>
                <TD data-label="Line" className="font-mono text-xs whitespace-nowrap text-zinc-600">{error.line ?? "—"}</TD>
                <TD data-label="Problem" className="break-words">{error.text.replace(/^line \d+: /, "")}</TD>
              </TR>
            ))}
          </TBody>
        </Table>
      </div>
      {answer.error_count > shown ? (
        <p className="text-xs text-zinc-500">
          Showing the first {formatCount(shown)} of {formatCount(answer.error_count)} problems, in the order of the file.
        </p>
      ) : null}
    </div>
  );
}
