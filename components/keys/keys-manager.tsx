"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { createKeyAction, deleteKeyAction, restrictKeyAction, setKeyStatusAction } from "@/lib/platform/actions/keys";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { ConfirmDialog, Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Checkbox, Field, Input } from "@/components/ui/field";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { cn } from "@/lib/utils/cn";

export interface KeyRow {
  id: string;
  name: string;
  hint: string;
  status: "ACTIVE" | "DISABLED";
  /** Disabled by the platform, with its reason: only the platform can re-enable the key. */
  platformReason: string | null;
  allowedEndpoints: string[];
  createdBy: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface EndpointOption {
  name: string;
  title: string;
}

type Pending = { kind: "delete" | "disable"; key: KeyRow } | null;

export function KeysManager({ orgId, keys, endpoints, canManage }: { orgId: string; keys: KeyRow[]; endpoints: EndpointOption[]; canManage: boolean }) {
  const router = useRouter();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ key: string; name: string } | null>(null);
  const [editing, setEditing] = useState<KeyRow | null>(null);
  const [confirming, setConfirming] = useState<Pending>(null);
  const [message, setMessage] = useState<{ tone: "success" | "danger"; text: string } | null>(null);
  const [busy, startTransition] = useTransition();

  function act(run: () => Promise<{ ok: boolean; error?: string }>, done: string, after?: () => void) {
    startTransition(async () => {
      const result = await run();
      // One transition for the message and the refreshed rows, so they change together
      // (updates after an await are not part of the first one).
      startTransition(() => {
        if (result.ok) {
          setMessage({ tone: "success", text: done });
          after?.();
          router.refresh();
        } else {
          setMessage({ tone: "danger", text: result.error ?? "That did not work." });
        }
      });
    });
  }

  const enable = (key: KeyRow) => act(() => setKeyStatusAction(orgId, key.id, "ACTIVE"), `“${key.name}” is active again.`);

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
            {/* Wide screens: one row per key, every action in view. */}
            <div className="hidden lg:block">
              <Table caption="API keys">
                <THead>
                  <TR>
                    <TH>Name</TH>
                    <TH>Status</TH>
                    <TH>Endpoints</TH>
                    <TH>Created</TH>
                    <TH>Last used</TH>
                    {canManage ? (
                      <TH>
                        <span className="sr-only">Actions</span>
                      </TH>
                    ) : null}
                  </TR>
                </THead>
                <TBody>
                  {keys.map((key) => (
                    <TR key={key.id} data-key-hint={key.hint}>
                      <TD className="max-w-56">
                        <div className="font-medium break-words text-zinc-900">{key.name}</div>
                        <KeyHint hint={key.hint} />
                      </TD>
                      <TD>
                        <KeyStatus keyRow={key} />
                      </TD>
                      <TD className="min-w-40">
                        <KeyEndpoints endpoints={key.allowedEndpoints} />
                      </TD>
                      <TD className="whitespace-nowrap text-zinc-600">
                        <div>{key.createdAt}</div>
                        <div className="max-w-48 truncate text-xs text-zinc-500" title={key.createdBy}>
                          by {key.createdBy}
                        </div>
                      </TD>
                      <TD className="whitespace-nowrap text-zinc-600">{key.lastUsedAt ?? "Never"}</TD>
                      {canManage ? (
                        <TD>
                          <KeyActions keyRow={key} busy={busy} onEdit={setEditing} onConfirm={setConfirming} onEnable={enable} />
                        </TD>
                      ) : null}
                    </TR>
                  ))}
                </TBody>
              </Table>
            </div>
            {/* Narrow screens: one card per key, nothing scrolled out of sight. */}
            <ul className="divide-y divide-zinc-100 lg:hidden" aria-label="API keys">
              {keys.map((key) => (
                <li key={key.id} aria-label={key.name} data-key-hint={key.hint} className="flex flex-col gap-2 p-4">
                  <div className="flex items-start justify-between gap-3">
                    <div className="min-w-0">
                      <div className="font-medium break-words text-zinc-900">{key.name}</div>
                      <KeyHint hint={key.hint} />
                    </div>
                    <KeyStatus keyRow={key} />
                  </div>
                  <KeyEndpoints endpoints={key.allowedEndpoints} />
                  <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs text-zinc-600">
                    <dt className="text-zinc-500">Created</dt>
                    <dd className="min-w-0 truncate">
                      {key.createdAt} by {key.createdBy}
                    </dd>
                    <dt className="text-zinc-500">Last used</dt>
                    <dd>{key.lastUsedAt ?? "Never"}</dd>
                  </dl>
                  {canManage ? (
                    <KeyActions keyRow={key} busy={busy} onEdit={setEditing} onConfirm={setConfirming} onEnable={enable} align="start" />
                  ) : null}
                </li>
              ))}
            </ul>
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
          <RestrictDialog
            key={editing?.id ?? "none"}
            keyRow={editing}
            endpoints={endpoints}
            busy={busy}
            onClose={() => setEditing(null)}
            onSave={(selected) =>
              act(() => restrictKeyAction(orgId, editing!.id, selected), `Endpoints of “${editing!.name}” saved.`, () => setEditing(null))
            }
          />
          <ConfirmDialog
            open={confirming !== null}
            title={confirming?.kind === "delete" ? `Delete “${confirming.key.name}”?` : `Disable “${confirming?.key.name ?? ""}”?`}
            description={
              confirming?.kind === "delete"
                ? "Requests with this key will be refused at once (401 invalid_api_key). This cannot be undone; its usage history stays."
                : "Requests with this key will be refused (401 api_key_disabled) until you enable it again."
            }
            confirmLabel={confirming?.kind === "delete" ? "Delete key" : "Disable key"}
            confirmVariant={confirming?.kind === "delete" ? "danger" : "primary"}
            busy={busy}
            onCancel={() => setConfirming(null)}
            onConfirm={() => {
              const target = confirming!;
              act(
                () => (target.kind === "delete" ? deleteKeyAction(orgId, target.key.id) : setKeyStatusAction(orgId, target.key.id, "DISABLED")),
                target.kind === "delete" ? `“${target.key.name}” was deleted.` : `“${target.key.name}” is disabled.`,
                () => setConfirming(null),
              );
            }}
          />
        </>
      ) : null}
    </div>
  );
}

function KeyHint({ hint }: { hint: string }) {
  return (
    <div className="font-mono text-xs whitespace-nowrap text-zinc-500" title="The first 12 characters of the key">
      {hint}…
    </div>
  );
}

function KeyStatus({ keyRow }: { keyRow: KeyRow }) {
  if (keyRow.status === "ACTIVE") return <Badge tone="success">Active</Badge>;
  if (keyRow.platformReason === null) return <Badge tone="warning">Disabled</Badge>;
  return (
    <div className="flex max-w-56 flex-col items-start gap-1">
      <Badge tone="danger">Disabled by the platform</Badge>
      <span className="text-xs text-zinc-600">{keyRow.platformReason}</span>
    </div>
  );
}

function KeyEndpoints({ endpoints }: { endpoints: string[] }) {
  if (endpoints.length === 0) return <span className="text-sm text-zinc-600">All plan endpoints</span>;
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Allowed endpoints">
      {endpoints.map((name) => (
        <li key={name}>
          <Badge tone="accent">{name}</Badge>
        </li>
      ))}
    </ul>
  );
}

function KeyActions({
  keyRow,
  busy,
  onEdit,
  onConfirm,
  onEnable,
  align = "end",
}: {
  keyRow: KeyRow;
  busy: boolean;
  onEdit: (key: KeyRow) => void;
  onConfirm: (pending: Pending) => void;
  onEnable: (key: KeyRow) => void;
  align?: "start" | "end";
}) {
  return (
    <div className={cn("flex flex-wrap gap-1", align === "end" ? "justify-end" : "-ml-3 justify-start")}>
      <Button size="sm" variant="ghost" onClick={() => onEdit(keyRow)} aria-label={`Edit endpoints of ${keyRow.name}`}>
        Endpoints
      </Button>
      {keyRow.platformReason !== null ? null : keyRow.status === "ACTIVE" ? (
        <Button size="sm" variant="ghost" onClick={() => onConfirm({ kind: "disable", key: keyRow })} aria-label={`Disable ${keyRow.name}`}>
          Disable
        </Button>
      ) : (
        <Button size="sm" variant="ghost" disabled={busy} onClick={() => onEnable(keyRow)} aria-label={`Enable ${keyRow.name}`}>
          Enable
        </Button>
      )}
      <Button
        size="sm"
        variant="danger-ghost"
        onClick={() => onConfirm({ kind: "delete", key: keyRow })}
        aria-label={`Delete ${keyRow.name}`}
      >
        Delete
      </Button>
    </div>
  );
}

function EndpointChoices({ endpoints, selected, onChange }: { endpoints: EndpointOption[]; selected: string[]; onChange: (next: string[]) => void }) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-zinc-800">Endpoints this key may call</legend>
      <p className="mb-1 text-xs text-zinc-500">Leave all unticked to allow every endpoint of your plan.</p>
      {endpoints.map((endpoint) => (
        <Checkbox
          key={endpoint.name}
          name="endpoints"
          value={endpoint.name}
          checked={selected.includes(endpoint.name)}
          onChange={(event) => onChange(event.target.checked ? [...selected, endpoint.name] : selected.filter((n) => n !== endpoint.name))}
          label={endpoint.title}
          description={`/v1/${endpoint.name}`}
        />
      ))}
    </fieldset>
  );
}

function CreateKeyDialog({
  open,
  orgId,
  endpoints,
  onClose,
  onCreated,
}: {
  open: boolean;
  orgId: string;
  endpoints: EndpointOption[];
  onClose: () => void;
  onCreated: (key: string, name: string) => void;
}) {
  const [selected, setSelected] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get("name") ?? "");
    startTransition(async () => {
      const result = await createKeyAction(orgId, { name, endpoints: selected });
      if (!result.ok) return setError(result.error);
      setError(null);
      setSelected([]);
      form.reset();
      onCreated(result.data.key, result.data.name);
    });
  }

  return (
    <Dialog open={open} onClose={onClose} title="Create an API key" description="Name it after what will use it, so you know which one to disable later.">
      <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
        <Field label="Name" error={error}>
          {(control) => <Input {...control} name="name" placeholder="e.g. Trading bot" maxLength={64} required data-autofocus />}
        </Field>
        <EndpointChoices endpoints={endpoints} selected={selected} onChange={setSelected} />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Create key
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** The only place the full key ever appears. Closing it lets the key go for good. */
function NewKeyDialog({ created, onClose }: { created: { key: string; name: string } | null; onClose: () => void }) {
  const [acknowledged, setAcknowledged] = useState(false);
  return (
    <Dialog
      open={created !== null}
      onClose={() => {
        setAcknowledged(false);
        onClose();
      }}
      dismissible={false}
      title={`Your new key “${created?.name ?? ""}”`}
      description="Copy it now and keep it somewhere safe, like a password manager or your secrets store."
      footer={
        <Button
          disabled={!acknowledged}
          onClick={() => {
            setAcknowledged(false);
            onClose();
          }}
        >
          Done
        </Button>
      }
    >
      <Alert tone="warning" title="This key will not be shown again.">
        We keep only a fingerprint of it. If you lose it, create a new key and delete this one.
      </Alert>
      <div className="flex items-center gap-2 rounded-md border border-zinc-300 bg-zinc-50 p-2">
        <code data-testid="new-api-key" className="min-w-0 flex-1 font-mono text-xs break-all text-zinc-900 select-all">
          {created?.key}
        </code>
        {created ? <CopyButton value={created.key} label="Copy key" /> : null}
      </div>
      <Checkbox checked={acknowledged} onChange={(event) => setAcknowledged(event.target.checked)} label="I have copied the key and stored it safely." />
    </Dialog>
  );
}

function RestrictDialog({
  keyRow,
  endpoints,
  busy,
  onClose,
  onSave,
}: {
  keyRow: KeyRow | null;
  endpoints: EndpointOption[];
  busy: boolean;
  onClose: () => void;
  onSave: (endpoints: string[]) => void;
}) {
  const [selected, setSelected] = useState<string[]>(keyRow?.allowedEndpoints ?? []);
  return (
    <Dialog
      open={keyRow !== null}
      onClose={onClose}
      title={`Endpoints of “${keyRow?.name ?? ""}”`}
      description="Requests to other endpoints are refused with 403 endpoint_not_allowed."
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button loading={busy} onClick={() => onSave(selected)}>
            Save endpoints
          </Button>
        </>
      }
    >
      <EndpointChoices endpoints={endpoints} selected={selected} onChange={setSelected} />
    </Dialog>
  );
}
