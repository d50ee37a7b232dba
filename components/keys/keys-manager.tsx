"use client";

import { useState } from "react";
import { deleteKeyAction, endGraceAction, setKeyStatusAction } from "@/lib/platform/actions/keys";
import { Alert } from "@/components/ui/alert";
import { useActionRunner } from "@/components/ui/use-action-runner";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { CreateKeyDialog } from "./create-key-dialog";
import { KeyActions } from "./key-actions";
import { KeyCards } from "./key-cards";
import { daysText } from "./key-details";
import { KeysTable } from "./keys-table";
import { NewKeyDialog } from "./new-key-dialog";
import { RollDialog } from "./roll-dialog";
import { SettingsDialog } from "./settings-dialog";
import type { Editing, EndpointOption, KeyRow, Pending, SavedSettings } from "./types";

const CONFIRM: Record<NonNullable<Pending>["kind"], { title: (name: string) => string; description: string; label: string; done: (name: string) => string }> = {
  delete: {
    title: (name) => `Delete “${name}”?`,
    description: "Requests with this key will be refused at once (401 invalid_api_key). This cannot be undone; its usage history stays.",
    label: "Delete key",
    done: (name) => `“${name}” was deleted.`,
  },
  disable: {
    title: (name) => `Disable “${name}”?`,
    description: "Requests with this key will be refused (401 api_key_disabled) until you enable it again.",
    label: "Disable key",
    done: (name) => `“${name}” is disabled.`,
  },
  "end-grace": {
    title: (name) => `End the grace period of the old “${name}” key?`,
    description: "Requests with the old key will be refused at once (401 api_key_expired). Its replacement keeps working. This cannot be undone.",
    label: "End grace period",
    done: (name) => `The old “${name}” key is refused from now on.`,
  },
};

export function KeysManager({ orgId, keys, endpoints, canManage }: { orgId: string; keys: KeyRow[]; endpoints: EndpointOption[]; canManage: boolean }) {
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ key: string; name: string; note?: string } | null>(null);
  const [editing, setEditing] = useState<Editing>(null);
  const [confirming, setConfirming] = useState<Pending>(null);
  const { act, busy, message, setMessage, router } = useActionRunner();

  const enable = (key: KeyRow) => act(() => setKeyStatusAction(orgId, key.id, "ACTIVE"), `“${key.name}” is active again.`);
  // Settings saved since the page's data was rendered: reopening the dialog
  // before the refresh arrives must show them, or a second save would quietly
  // put the old caps back. The next data from the server replaces them.
  const [saved, setSaved] = useState<{ from: KeyRow[]; byId: Record<string, SavedSettings> }>({ from: keys, byId: {} });
  if (saved.from !== keys) setSaved({ from: keys, byId: {} });
  const openSettings = (key: KeyRow) => setEditing({ kind: "settings", key: { ...key, ...saved.byId[key.id] } });
  const openRoll = (key: KeyRow) => setEditing({ kind: "roll", key });
  const actions = canManage
    ? (key: KeyRow, align?: "start" | "end") => (
        <KeyActions keyRow={key} busy={busy} onSettings={openSettings} onRoll={openRoll} onConfirm={setConfirming} onEnable={enable} align={align} />
      )
    : undefined;
  const expiringSoon = keys.filter((key) => !key.expired && !key.rolled && key.daysLeft !== null && key.daysLeft <= 7);

  return (
    <div className="flex flex-col gap-4">
      {canManage ? (
        <div className="flex justify-end">
          <Button onClick={() => setCreating(true)}>Create key</Button>
        </div>
      ) : (
        <Alert tone="info">You can see this organization’s keys. Only owners and admins can create or change them.</Alert>
      )}
      <div aria-live="polite">{message ? <Alert tone={message.tone}>{message.text}</Alert> : null}</div>
      {expiringSoon.length ? (
        <Alert tone="warning" title={expiringSoon.length === 1 ? "A key expires within a week" : `${expiringSoon.length} keys expire within a week`}>
          {expiringSoon.map((key) => `“${key.name}” (${key.hint}…) stops working ${daysText(key.daysLeft!)}, at ${key.expiresAt}`).join("; ")}.{" "}
          {canManage ? "Roll a key to get its replacement with the same settings." : "Ask an owner or admin to roll it."}
        </Alert>
      ) : null}

      <Card>
        {keys.length === 0 ? (
          <EmptyState
            title="No API keys yet"
            action={canManage ? <Button onClick={() => setCreating(true)}>Create your first key</Button> : undefined}
          >
            A key authenticates your requests to the data API (the <code className="font-mono">API-KEY</code> header). You will see it once, when you create it.
          </EmptyState>
        ) : (
          <>
            <KeysTable keys={keys} actions={actions} />
            <KeyCards keys={keys} actions={actions && ((key) => actions(key, "start"))} />
          </>
        )}
      </Card>

      {canManage ? (
        <>
          <CreateKeyDialog
            open={creating}
            orgId={orgId}
            endpoints={endpoints}
            onClose={() => setCreating(false)}
            onCreated={(key, name) => {
              setCreating(false);
              setCreated({ key, name });
              setMessage(null);
              router.refresh();
            }}
          />
          <NewKeyDialog created={created} onClose={() => setCreated(null)} />
          <SettingsDialog
            key={editing?.kind === "settings" ? editing.key.id : "none"}
            orgId={orgId}
            keyRow={editing?.kind === "settings" ? editing.key : null}
            endpoints={endpoints}
            onClose={() => setEditing(null)}
            onSaved={(name, settings) => {
              const id = editing!.key.id;
              setSaved((current) => ({ from: current.from, byId: { ...current.byId, [id]: settings } }));
              setEditing(null);
              setMessage({ tone: "success", text: `Settings of “${name}” saved.` });
              router.refresh();
            }}
          />
          <RollDialog
            key={editing?.kind === "roll" ? `roll-${editing.key.id}` : "roll-none"}
            orgId={orgId}
            keyRow={editing?.kind === "roll" ? editing.key : null}
            onClose={() => setEditing(null)}
            onRolled={(rolled) => {
              setEditing(null);
              setMessage(null);
              setCreated(rolled);
              router.refresh();
            }}
          />
          <ConfirmDialog
            open={confirming !== null}
            title={confirming ? CONFIRM[confirming.kind].title(confirming.key.name) : ""}
            description={confirming ? CONFIRM[confirming.kind].description : ""}
            confirmLabel={confirming ? CONFIRM[confirming.kind].label : ""}
            confirmVariant={confirming?.kind === "disable" ? "primary" : "danger"}
            busy={busy}
            onCancel={() => setConfirming(null)}
            onConfirm={() => {
              const target = confirming!;
              const run = {
                delete: () => deleteKeyAction(orgId, target.key.id),
                disable: () => setKeyStatusAction(orgId, target.key.id, "DISABLED"),
                "end-grace": () => endGraceAction(orgId, target.key.id),
              }[target.kind];
              act(run, CONFIRM[target.kind].done(target.key.name), () => setConfirming(null));
            }}
          />
        </>
      ) : null}
    </div>
  );
}
