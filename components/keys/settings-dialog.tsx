"use client";

import { useState, useTransition, type FormEvent } from "react";
import { configureKeyAction } from "@/lib/platform/actions/keys";
import { Alert } from "@/components/ui/alert";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, Textarea } from "@/components/ui/field";
import { earliestKeyExpiryDay, latestKeyExpiryDay } from "@/lib/keys/expiry";
import { EndpointChoices, FormButtons } from "./key-form-parts";
import type { EndpointOption, KeyRow, SavedSettings } from "./types";

/** What a key may call, from where, and how much it may spend. */
export function SettingsDialog({
  orgId,
  keyRow,
  endpoints,
  onClose,
  onSaved,
}: {
  orgId: string;
  keyRow: KeyRow | null;
  endpoints: EndpointOption[];
  onClose: () => void;
  onSaved: (name: string, saved: SavedSettings) => void;
}) {
  const limit = keyRow?.platformLimit ?? null;
  // What the platform blocks is never sent back as the customer's choice; the part of it that is blocked is said, not hidden.
  const [selected, setSelected] = useState<string[]>((keyRow?.allowedEndpoints ?? []).filter((name) => !limit || limit.endpoints.includes(name)));
  const outside = limit ? (keyRow?.allowedEndpoints ?? []).filter((name) => !limit.endpoints.includes(name)) : [];
  const [error, setError] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input = {
      endpoints: selected,
      allowedIps: String(data.get("allowedIps") ?? ""),
      dailyCap: String(data.get("dailyCap") ?? ""),
      monthlyCap: String(data.get("monthlyCap") ?? ""),
      // A rolled key's expiry is its grace period: the field is not shown, and nothing is sent.
      ...(keyRow?.rolled ? {} : { expiresOn: String(data.get("expiresOn") ?? "") }),
    };
    startTransition(async () => {
      const result = await configureKeyAction(orgId, keyRow!.id, input);
      if (!result.ok) return setError(result.error);
      onSaved(keyRow!.name, result.data);
    });
  }

  return (
    <Dialog
      open={keyRow !== null}
      onClose={onClose}
      title={`Settings of “${keyRow?.name ?? ""}”`}
      description="What this key may call, from where, until when, and how much it may spend. Changes apply to the next request."
    >
      <form onSubmit={onSubmit} className="flex flex-col gap-5" noValidate>
        <EndpointChoices endpoints={endpoints} selected={selected} onChange={setSelected} platformLimit={limit} />
        {outside.length ? (
          <Alert tone="warning" title="Your choice is partly blocked">
            You had chosen {outside.join(", ")} for this key, which the platform&rsquo;s restriction blocks
            {selected.length ? `: the key calls ${selected.join(", ")} only.` : ", so the key calls nothing now."} Saving keeps only what is ticked
            (nothing ticked: every endpoint the platform allows).
          </Alert>
        ) : null}
        <Field
          label="Allowed IP addresses"
          hint="One IPv4 or IPv6 address or CIDR range per line, e.g. 203.0.113.7 or 2001:db8::/48. Requests from elsewhere get 403 ip_not_allowed. Leave empty to allow any address."
        >
          {(control) => (
            <Textarea
              {...control}
              name="allowedIps"
              rows={3}
              defaultValue={keyRow?.allowedIps.join("\n")}
              placeholder={"203.0.113.0/24\n2001:db8::/48"}
              spellCheck={false}
              autoCapitalize="off"
            />
          )}
        </Field>
        {keyRow?.rolled ? (
          <p className="text-sm text-zinc-600">This key was rolled: it stops when its grace period ends{keyRow.expiresAt ? ` (${keyRow.expiresAt})` : ""}.</p>
        ) : (
          <Field
            label="Expires (optional)"
            hint="The key works through this day (UTC) and is refused from 00:00 UTC the next. Empty: it does not expire."
          >
            {(control) => (
              <Input {...control} name="expiresOn" type="date" defaultValue={keyRow?.expiresOn} min={earliestKeyExpiryDay()} max={latestKeyExpiryDay()} className="sm:w-48" />
            )}
          </Field>
        )}
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-zinc-800">Spend caps (US dollars)</legend>
          <p className="text-xs text-zinc-500">
            A request that would take this key’s spend over a cap is refused with 402 spend_limit_reached and costs nothing. Days and months are UTC.
            Leave empty for no cap.
          </p>
          <div className="grid gap-3 sm:grid-cols-2">
            <Field label="Daily cap" hint={`Spent today: ${keyRow?.spentToday ?? "$0.00"}`}>
              {(control) => <Input {...control} name="dailyCap" inputMode="decimal" defaultValue={keyRow?.dailyCap} placeholder="e.g. 5" />}
            </Field>
            <Field label="Monthly cap" hint={`Spent this month: ${keyRow?.spentThisMonth ?? "$0.00"}`}>
              {(control) => <Input {...control} name="monthlyCap" inputMode="decimal" defaultValue={keyRow?.monthlyCap} placeholder="e.g. 100" />}
            </Field>
          </div>
        </fieldset>
        {error ? <Alert tone="danger">{error}</Alert> : null}
        <FormButtons busy={busy} onCancel={onClose} submitLabel="Save settings" />
      </form>
    </Dialog>
  );
}
