"use client";

import { usePathname, useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog, Dialog } from "@/components/ui/dialog";
import { Checkbox, Field, Input } from "@/components/ui/field";
import { deleteKeyAsAdminAction, disableKeyAsAdminAction, enableKeyAsAdminAction, restrictKeyAsAdminAction } from "@/lib/platform/actions/admin";
import type { ActionResult } from "@/lib/platform/action";

export interface AdminKeyRow {
  id: string;
  name: string;
  hint: string;
  status: "ACTIVE" | "DISABLED";
  byPlatform: boolean;
  /** The platform's restriction (empty: none) and its reason. */
  platformEndpoints: string[];
  platformReason: string | null;
}

type Open = "disable" | "delete" | "endpoints" | null;

/** An administrator's actions on any key: the same states as the customer's own, plus "disabled by the platform" with a reason. */
export function AdminKeyActions({ keyRow, planEndpoints }: { keyRow: AdminKeyRow; planEndpoints: string[] }) {
  const router = useRouter();
  const page = usePathname();
  const [busy, startTransition] = useTransition();
  const [open, setOpen] = useState<Open>(null);
  const [error, setError] = useState<string | null>(null);
  const [reason, setReason] = useState("");
  const [endpoints, setEndpoints] = useState<string[]>(keyRow.platformEndpoints);
  const [restrictionReason, setRestrictionReason] = useState(keyRow.platformReason ?? "");

  /** Runs an action; on success only the dialog it came from closes (another may have been opened meanwhile). */
  function run(action: () => Promise<ActionResult<null>>, from: Open) {
    setError(null);
    startTransition(async () => {
      const result = await action();
      startTransition(() => {
        if (result.ok) setOpen((current) => (current === from ? null : current));
        else setError(result.error);
        router.refresh();
      });
    });
  }

  return (
    <div className="flex flex-wrap gap-1">
      {error && open === null ? (
        <Alert tone="danger" className="w-full">
          {error}
        </Alert>
      ) : null}
      <Button size="sm" variant="ghost" onClick={() => setOpen("endpoints")} aria-label={`Endpoints of ${keyRow.name}`}>
        Endpoints
      </Button>
      {keyRow.status === "ACTIVE" ? (
        <Button size="sm" variant="ghost" onClick={() => setOpen("disable")} aria-label={`Disable ${keyRow.name}`}>
          Disable
        </Button>
      ) : (
        <Button size="sm" variant="ghost" loading={busy && open === null} onClick={() => run(() => enableKeyAsAdminAction(keyRow.id, page), null)} aria-label={`Re-enable ${keyRow.name}`}>
          Re-enable
        </Button>
      )}
      <Button size="sm" variant="danger-ghost" onClick={() => setOpen("delete")} aria-label={`Delete ${keyRow.name}`}>
        Delete
      </Button>

      <Dialog
        open={open === "disable"}
        onClose={() => setOpen(null)}
        title={`Disable “${keyRow.name}” (${keyRow.hint}…)?`}
        description="Requests with it are refused (401 api_key_disabled) within a second. The customer sees “disabled by the platform” with your reason, in their keys and audit log, and cannot re-enable it themselves."
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(null)} data-autofocus disabled={busy}>
              Cancel
            </Button>
            <Button variant="danger" loading={busy} onClick={() => run(() => disableKeyAsAdminAction(keyRow.id, reason, page), "disable")}>
              Disable key
            </Button>
          </>
        }
      >
        <Field label="Reason the customer sees" error={error}>
          {(control) => <Input {...control} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} required />}
        </Field>
      </Dialog>

      <ConfirmDialog
        open={open === "delete"}
        title={`Delete “${keyRow.name}” (${keyRow.hint}…)?`}
        description="The key stops working at once (401 invalid_api_key) and cannot be restored. Its usage history stays."
        confirmLabel="Delete key"
        busy={busy}
        error={error}
        onConfirm={() => run(() => deleteKeyAsAdminAction(keyRow.id, page), "delete")}
        onCancel={() => setOpen(null)}
      />

      <Dialog
        open={open === "endpoints"}
        onClose={() => setOpen(null)}
        title={`Restrict the endpoints of “${keyRow.name}”`}
        description="The key may call at most the endpoints ticked, whatever the customer chooses: the customer can narrow this, not widen it, and sees your reason. Requests to others are refused (403 endpoint_not_allowed). None ticked: no restriction from the platform."
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(null)} disabled={busy}>
              Cancel
            </Button>
            <Button loading={busy} onClick={() => run(() => restrictKeyAsAdminAction(keyRow.id, { endpoints, reason: restrictionReason }, page), "endpoints")}>
              {endpoints.length ? "Restrict key" : "Lift restriction"}
            </Button>
          </>
        }
      >
        <fieldset className="flex flex-col gap-2">
          <legend className="sr-only">Allowed endpoints</legend>
          {planEndpoints.map((name) => (
            <Checkbox
              key={name}
              label={name}
              checked={endpoints.includes(name)}
              onChange={(e) => setEndpoints((list) => (e.target.checked ? [...list, name] : list.filter((n) => n !== name)))}
            />
          ))}
        </fieldset>
        {endpoints.length ? (
          <Field label="Reason the customer sees">
            {(control) => <Input {...control} value={restrictionReason} onChange={(e) => setRestrictionReason(e.target.value)} maxLength={500} required />}
          </Field>
        ) : null}
        {error ? (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </Dialog>
    </div>
  );
}
