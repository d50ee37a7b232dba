"use client";

import { useState, useTransition, type FormEvent } from "react";
import { configureKeyAction, createKeyAction, deleteKeyAction, endGraceAction, rollKeyAction, setKeyStatusAction } from "@/lib/platform/actions/keys";
import { Alert } from "@/components/ui/alert";
import { useActionRunner } from "@/components/ui/use-action-runner";
import { ShownOnceDialog } from "@/components/ui/shown-once-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmDialog, Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Checkbox, Field, Input, Textarea } from "@/components/ui/field";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { cn } from "@/lib/utils/cn";

export interface KeyRow {
  id: string;
  name: string;
  hint: string;
  status: "ACTIVE" | "DISABLED";
  /** Disabled by the platform, with its reason: only the platform can re-enable the key. */
  platformReason: string | null;
  /** The customer's own choice of endpoints; empty: all that the plan and the platform allow. */
  allowedEndpoints: string[];
  /** The endpoints the key may call, when fewer than the plan's: plan ∩ the platform's restriction ∩ the choice. */
  callable: string[] | null;
  /** A platform administrator's restriction, with its reason: the choice can narrow it, never widen it. */
  platformLimit: { endpoints: string[]; reason: string } | null;
  createdBy: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** When the key stops working (its expiry, or a rolled key's grace end), formatted; null: never. */
  expiresAt: string | null;
  /** Whole days left before it does (0 on its last day); null: never. */
  daysLeft: number | null;
  expired: boolean;
  /** Rolled: a newer key replaces it. */
  rolled: boolean;
  /** The hint of the key this one replaced. */
  replaces: string | null;
  allowedIps: string[];
  /** Caps as plain dollars for the form ("5", "0.0001"); "" for none. */
  dailyCap: string;
  monthlyCap: string;
  spentToday: string;
  spentThisMonth: string;
}

/** A key the settings or roll dialog is open for. */
type Editing = { kind: "settings" | "roll"; key: KeyRow } | null;

export interface EndpointOption {
  name: string;
  title: string;
}

type Pending = { kind: "delete" | "disable" | "end-grace"; key: KeyRow } | null;

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
  const openSettings = (key: KeyRow) => setEditing({ kind: "settings", key });
  const openRoll = (key: KeyRow) => setEditing({ kind: "roll", key });
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
            {/* Wide screens: one row per key, every action in view. */}
            <div className="hidden lg:block">
              <Table caption="API keys">
                <THead>
                  <TR>
                    <TH>Name</TH>
                    <TH>Status</TH>
                    <TH>Access</TH>
                    <TH>Spent (UTC)</TH>
                    <TH>Created · last used</TH>
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
                        <KeyAccess keyRow={key} />
                      </TD>
                      <TD className="whitespace-nowrap text-zinc-600">
                        <KeySpend keyRow={key} />
                      </TD>
                      <TD className="text-xs whitespace-nowrap text-zinc-600">
                        <div>{key.createdAt}</div>
                        <div className="max-w-44 truncate text-zinc-500" title={key.createdBy}>
                          by {key.createdBy}
                        </div>
                        <div className="mt-1">Used: {key.lastUsedAt ?? "never"}</div>
                      </TD>
                      {canManage ? (
                        <TD>
                          <KeyActions keyRow={key} busy={busy} onSettings={openSettings} onRoll={openRoll} onConfirm={setConfirming} onEnable={enable} />
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
                  <KeyAccess keyRow={key} />
                  <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs text-zinc-600">
                    <dt className="text-zinc-500">Spent</dt>
                    <dd>
                      <KeySpend keyRow={key} inline />
                    </dd>
                    <dt className="text-zinc-500">Created</dt>
                    <dd className="min-w-0 truncate">
                      {key.createdAt} by {key.createdBy}
                    </dd>
                    <dt className="text-zinc-500">Last used</dt>
                    <dd>{key.lastUsedAt ?? "Never"}</dd>
                  </dl>
                  {canManage ? (
                    <KeyActions
                      keyRow={key}
                      busy={busy}
                      onSettings={openSettings}
                      onRoll={openRoll}
                      onConfirm={setConfirming}
                      onEnable={enable}
                      align="start"
                    />
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
          <SettingsDialog
            key={editing?.kind === "settings" ? editing.key.id : "none"}
            orgId={orgId}
            keyRow={editing?.kind === "settings" ? editing.key : null}
            endpoints={endpoints}
            onClose={() => setEditing(null)}
            onSaved={(name) => {
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

function KeyHint({ hint }: { hint: string }) {
  return (
    <div className="font-mono text-xs whitespace-nowrap text-zinc-500" title="The first 12 characters of the key">
      {hint}…
    </div>
  );
}

function daysText(days: number): string {
  return days === 0 ? "today" : days === 1 ? "tomorrow" : `in ${days} days`;
}

function KeyStatus({ keyRow }: { keyRow: KeyRow }) {
  if (keyRow.expired) {
    return (
      <div className="flex max-w-56 flex-col items-start gap-1">
        <Badge tone="danger">{keyRow.rolled ? "Replaced" : "Expired"}</Badge>
        <span className="text-xs text-zinc-600">Refused since {keyRow.expiresAt} (401 api_key_expired)</span>
      </div>
    );
  }
  if (keyRow.status === "ACTIVE" && keyRow.rolled) {
    return (
      <div className="flex max-w-56 flex-col items-start gap-1">
        <Badge tone="warning">Rolled: grace period</Badge>
        <span className="text-xs text-zinc-600">Works until {keyRow.expiresAt}</span>
      </div>
    );
  }
  if (keyRow.status === "ACTIVE") {
    return (
      <div className="flex max-w-56 flex-col items-start gap-1">
        <Badge tone={keyRow.daysLeft !== null && keyRow.daysLeft <= 7 ? "warning" : "success"}>Active</Badge>
        {keyRow.daysLeft !== null ? (
          <span className="text-xs text-zinc-600" title={`Refused from ${keyRow.expiresAt}`}>
            Expires {daysText(keyRow.daysLeft)}
          </span>
        ) : null}
        {keyRow.replaces ? <span className="text-xs text-zinc-600">Replaces {keyRow.replaces}…</span> : null}
      </div>
    );
  }
  if (keyRow.platformReason === null) return <Badge tone="warning">Disabled</Badge>;
  return (
    <div className="flex max-w-56 flex-col items-start gap-1">
      <Badge tone="danger">Disabled by the platform</Badge>
      <span className="text-xs text-zinc-600">{keyRow.platformReason}</span>
    </div>
  );
}

function KeyAccess({ keyRow }: { keyRow: KeyRow }) {
  const endpoints = keyRow.callable;
  return (
    <div className="flex flex-col gap-1">
      {endpoints === null ? (
        <span className="text-sm text-zinc-600">All plan endpoints</span>
      ) : endpoints.length === 0 ? (
        <span className="text-sm text-zinc-600">No endpoint</span>
      ) : (
        <ul className="flex flex-wrap gap-1" aria-label="Allowed endpoints">
          {endpoints.map((name) => (
            <li key={name}>
              <Badge tone="accent">{name}</Badge>
            </li>
          ))}
        </ul>
      )}
      {keyRow.platformLimit ? <PlatformLimit limit={keyRow.platformLimit} /> : null}
      <span className="text-xs break-words text-zinc-600" title={keyRow.allowedIps.join(", ") || undefined}>
        {keyRow.allowedIps.length === 0
          ? "From any address"
          : `From ${keyRow.allowedIps.length <= 2 ? keyRow.allowedIps.join(", ") : `${keyRow.allowedIps.length} addresses or ranges`}`}
      </span>
    </div>
  );
}

function KeySpend({ keyRow, inline = false }: { keyRow: KeyRow; inline?: boolean }) {
  const today = `${keyRow.spentToday} today${keyRow.dailyCap ? ` of $${keyRow.dailyCap}` : ""}`;
  const month = `${keyRow.spentThisMonth} this month${keyRow.monthlyCap ? ` of $${keyRow.monthlyCap}` : ""}`;
  if (inline) return <>{`${today} · ${month}`}</>;
  return (
    <div className="flex flex-col text-xs">
      <span>{today}</span>
      <span>{month}</span>
    </div>
  );
}

function KeyActions({
  keyRow,
  busy,
  onSettings,
  onRoll,
  onConfirm,
  onEnable,
  align = "end",
}: {
  keyRow: KeyRow;
  busy: boolean;
  onSettings: (key: KeyRow) => void;
  onRoll: (key: KeyRow) => void;
  onConfirm: (pending: Pending) => void;
  onEnable: (key: KeyRow) => void;
  align?: "start" | "end";
}) {
  const rollable = keyRow.status === "ACTIVE" && !keyRow.rolled && !keyRow.expired;
  return (
    <div className={cn("flex flex-wrap gap-1", align === "end" ? "justify-end" : "-ml-3 justify-start")}>
      <Button size="sm" variant="ghost" onClick={() => onSettings(keyRow)} aria-label={`Settings of ${keyRow.name}`}>
        Settings
      </Button>
      {rollable ? (
        <Button size="sm" variant="ghost" onClick={() => onRoll(keyRow)} aria-label={`Roll ${keyRow.name}`}>
          Roll
        </Button>
      ) : null}
      {keyRow.rolled && !keyRow.expired ? (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => onConfirm({ kind: "end-grace", key: keyRow })}
          aria-label={`End the grace period of the old ${keyRow.name} (${keyRow.hint}…)`}
        >
          End grace
        </Button>
      ) : null}
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

function PlatformLimit({ limit }: { limit: { endpoints: string[]; reason: string } }) {
  return (
    <div className="flex max-w-64 flex-col items-start gap-1">
      <Badge tone="danger">Restricted by the platform</Badge>
      <span className="text-xs break-words text-zinc-600">
        To {limit.endpoints.join(", ")}: {limit.reason}
      </span>
    </div>
  );
}

function EndpointChoices({
  endpoints,
  selected,
  onChange,
  platformLimit = null,
}: {
  endpoints: EndpointOption[];
  selected: string[];
  onChange: (next: string[]) => void;
  platformLimit?: KeyRow["platformLimit"];
}) {
  const blocked = (name: string) => platformLimit !== null && !platformLimit.endpoints.includes(name);
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-zinc-800">Endpoints this key may call</legend>
      {platformLimit ? (
        <Alert tone="warning" title="Restricted by the platform">
          A platform administrator limited this key to {platformLimit.endpoints.join(", ")}: {platformLimit.reason}. You can narrow it further, not
          widen it; contact support to have the restriction lifted.
        </Alert>
      ) : null}
      <p className="mb-1 text-xs text-zinc-500">
        {platformLimit ? "Leave all unticked to allow every endpoint the platform allows." : "Leave all unticked to allow every endpoint of your plan."}
      </p>
      {endpoints.map((endpoint) => (
        <Checkbox
          key={endpoint.name}
          name="endpoints"
          value={endpoint.name}
          checked={!blocked(endpoint.name) && selected.includes(endpoint.name)}
          disabled={blocked(endpoint.name)}
          onChange={(event) => onChange(event.target.checked ? [...selected, endpoint.name] : selected.filter((n) => n !== endpoint.name))}
          label={endpoint.title}
          description={blocked(endpoint.name) ? `/v1/${endpoint.name} · blocked by the platform` : `/v1/${endpoint.name}`}
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
    const data = new FormData(form);
    const name = String(data.get("name") ?? "");
    const expiresOn = String(data.get("expiresOn") ?? "");
    startTransition(async () => {
      const result = await createKeyAction(orgId, { name, endpoints: selected, expiresOn });
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
        <Field label="Expires (optional)" hint="The key works through this day (UTC) and is refused from 00:00 UTC the next. Leave empty for a key that does not expire.">
          {(control) => <Input {...control} name="expiresOn" type="date" min={tomorrowUtc()} className="sm:w-48" />}
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
function NewKeyDialog({ created, onClose }: { created: { key: string; name: string; note?: string } | null; onClose: () => void }) {
  return (
    <ShownOnceDialog
      value={created?.key ?? null}
      title={`Your new key “${created?.name ?? ""}”`}
      description="Copy it now and keep it somewhere safe, like a password manager or your secrets store."
      warning={{ title: "This key will not be shown again.", body: "We keep only a fingerprint of it. If you lose it, create a new key and delete this one." }}
      note={created?.note}
      testId="new-api-key"
      copyLabel="Copy key"
      acknowledgement="I have copied the key and stored it safely."
      onClose={onClose}
    />
  );
}

function tomorrowUtc(): string {
  return new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
}

function SettingsDialog({
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
  onSaved: (name: string) => void;
}) {
  const limit = keyRow?.platformLimit ?? null;
  // What the platform blocks is never sent back as the customer's choice.
  const [selected, setSelected] = useState<string[]>((keyRow?.allowedEndpoints ?? []).filter((name) => !limit || limit.endpoints.includes(name)));
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
    };
    startTransition(async () => {
      const result = await configureKeyAction(orgId, keyRow!.id, input);
      if (!result.ok) return setError(result.error);
      onSaved(keyRow!.name);
    });
  }

  return (
    <Dialog
      open={keyRow !== null}
      onClose={onClose}
      title={`Settings of “${keyRow?.name ?? ""}”`}
      description="What this key may call, from where, and how much it may spend. Changes apply to the next request."
    >
      <form onSubmit={onSubmit} className="flex flex-col gap-5" noValidate>
        <EndpointChoices endpoints={endpoints} selected={selected} onChange={setSelected} platformLimit={limit} />
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
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Save settings
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

const GRACE_CHOICES = [
  { seconds: 0, label: "None", description: "The old key is refused at once." },
  { seconds: 3600, label: "1 hour", description: "Time to swap the key in one place." },
  { seconds: 86_400, label: "24 hours", description: "Time for a daily deploy." },
  { seconds: 7 * 86_400, label: "7 days", description: "Time to update every client." },
];

function RollDialog({
  orgId,
  keyRow,
  onClose,
  onRolled,
}: {
  orgId: string;
  keyRow: KeyRow | null;
  onClose: () => void;
  onRolled: (created: { key: string; name: string; note: string }) => void;
}) {
  const [grace, setGrace] = useState(3600);
  const [error, setError] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();

  function roll() {
    startTransition(async () => {
      const result = await rollKeyAction(orgId, keyRow!.id, grace);
      if (!result.ok) return setError(result.error);
      const until = result.data.oldExpiresAt ? new Date(result.data.oldExpiresAt).toISOString().replace("T", " ").slice(0, 16) + " UTC" : null;
      onRolled({
        key: result.data.key,
        name: result.data.name,
        note:
          grace === 0 || !until
            ? `The old key ${keyRow!.hint}… no longer works.`
            : `The old key ${keyRow!.hint}… keeps working until ${until}; then it is refused with 401 api_key_expired.`,
      });
    });
  }

  return (
    <Dialog
      open={keyRow !== null}
      onClose={onClose}
      title={`Roll “${keyRow?.name ?? ""}”?`}
      description="You get a new key with the same name, endpoints, allowed addresses and spend caps, shown once. The old key keeps working for the grace period you choose."
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button loading={busy} onClick={roll}>
            Roll key
          </Button>
        </>
      }
    >
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-zinc-800">Grace period for the old key</legend>
        {GRACE_CHOICES.map((choice) => (
          <label key={choice.seconds} className="flex items-start gap-3 text-sm text-zinc-800">
            <input
              type="radio"
              name="grace"
              value={choice.seconds}
              checked={grace === choice.seconds}
              onChange={() => setGrace(choice.seconds)}
              className="mt-0.5 size-4 accent-accent-600"
            />
            <span>
              {choice.label}
              <span className="block text-xs text-zinc-500">{choice.description}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {error ? <Alert tone="danger">{error}</Alert> : null}
    </Dialog>
  );
}
