"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import {
  addAlertRuleAction,
  addWebhookEndpointAction,
  removeAlertRuleAction,
  removeWebhookEndpointAction,
  sendWebhookTestAction,
  toggleWebhookEndpointAction,
} from "@/lib/platform/actions/alerts";
import { Alert } from "@/components/ui/alert";
import { useActionRunner } from "@/components/ui/use-action-runner";
import { ShownOnceDialog } from "@/components/ui/shown-once-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Field, Input, Select } from "@/components/ui/field";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";

export interface RuleRow {
  id: string;
  /** "Balance below $25.00" */
  label: string;
  scope: string;
  state: string;
  fired: boolean;
}

export interface EndpointRow {
  id: string;
  url: string;
  description: string | null;
  secretHint: string;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: string | null;
}

export interface DeliveryRow {
  id: string;
  at: string;
  type: string;
  eventId: string;
  to: string;
  status: "pending" | "succeeded" | "failed" | "cancelled";
  attempts: number;
  result: string;
  nextAttempt: string | null;
}

type Confirming = { kind: "rule"; id: string; label: string } | { kind: "endpoint"; id: string; label: string } | null;

export function AlertsManager({
  orgId,
  rules,
  endpoints,
  deliveries,
  keys,
  emailConfigured,
}: {
  orgId: string;
  rules: RuleRow[];
  endpoints: EndpointRow[];
  deliveries: DeliveryRow[];
  keys: { id: string; label: string }[];
  emailConfigured: boolean;
}) {
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const { act, busy, message, router } = useActionRunner();


  return (
    <div className="flex flex-col gap-6">
      <div aria-live="polite">{message ? <Alert tone={message.tone}>{message.text}</Alert> : null}</div>
      {endpoints.some((e) => !e.enabled && e.disabledReason?.startsWith("Every delivery failed")) ? (
        <Alert tone="danger" title="A webhook endpoint was turned off">
          Its deliveries failed for 24 hours. Fix the receiver, then turn it back on: it gets a fresh 24 hours.
        </Alert>
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle as="h2">Alerts</CardTitle>
          <CardDescription>
            Each alert is sent once when its threshold is crossed, and again after it has been back on the other side (a top-up, a new UTC
            day or month). {emailConfigured ? "Owners and admins get an email; " : "This server sends no email (SMTP is not set up); "}
            webhook endpoints get a signed event.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {rules.length === 0 ? (
            <p className="text-sm text-zinc-600">No alerts yet.</p>
          ) : (
            <ul className="divide-y divide-zinc-100 rounded-md border border-zinc-200" aria-label="Alerts">
              {rules.map((rule) => (
                <li key={rule.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
                  <div className="min-w-0">
                    <div className="font-medium text-zinc-900">{rule.label}</div>
                    <div className="text-xs text-zinc-600">
                      {rule.scope} · {rule.state}
                    </div>
                  </div>
                  <div className="flex items-center gap-2">
                    <Badge tone={rule.fired ? "warning" : "success"}>{rule.fired ? "Crossed" : "Watching"}</Badge>
                    <Button size="sm" variant="danger-ghost" onClick={() => setConfirming({ kind: "rule", id: rule.id, label: rule.label })} aria-label={`Remove the alert ${rule.label}`}>
                      Remove
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )}
          <AddRuleForm orgId={orgId} keys={keys} onAdded={() => router.refresh()} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Webhook endpoints</CardTitle>
          <CardDescription>
            Events are POSTed as JSON, signed the Standard Webhooks way (see the docs&apos; “Alerts and webhooks” for how to verify them). URLs must be
            https and public.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {endpoints.length === 0 ? (
            <EmptyState title="No endpoints">Add one to receive alerts in your own systems.</EmptyState>
          ) : (
            <ul className="divide-y divide-zinc-100 rounded-md border border-zinc-200" aria-label="Webhook endpoints">
              {endpoints.map((endpoint) => (
                <li key={endpoint.id} aria-label={endpoint.url} className="flex flex-col gap-2 p-3">
                  <div className="flex flex-wrap items-start justify-between gap-2">
                    <div className="min-w-0">
                      <div className="font-mono text-sm break-all text-zinc-900">{endpoint.url}</div>
                      <div className="text-xs text-zinc-600">
                        {endpoint.description ? `${endpoint.description} · ` : ""}secret {endpoint.secretHint}
                        {endpoint.failingSince && endpoint.enabled ? ` · failing since ${endpoint.failingSince}` : ""}
                      </div>
                      {!endpoint.enabled && endpoint.disabledReason ? <div className="text-xs text-red-700">{endpoint.disabledReason}</div> : null}
                    </div>
                    <Badge tone={endpoint.enabled ? (endpoint.failingSince ? "warning" : "success") : "danger"}>
                      {endpoint.enabled ? (endpoint.failingSince ? "Failing" : "Active") : "Turned off"}
                    </Badge>
                  </div>
                  <div className="-ml-3 flex flex-wrap gap-1">
                    <Button size="sm" variant="ghost" disabled={busy} onClick={() => act(() => sendWebhookTestAction(orgId, endpoint.id), `A test event is on its way to ${endpoint.url}: it is tried once, see the delivery log.`)}>
                      Send test event
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      disabled={busy}
                      onClick={() =>
                        act(() => toggleWebhookEndpointAction(orgId, endpoint.id, !endpoint.enabled), endpoint.enabled ? "Endpoint turned off." : "Endpoint turned on.")
                      }
                    >
                      {endpoint.enabled ? "Turn off" : "Turn on"}
                    </Button>
                    <Button size="sm" variant="danger-ghost" onClick={() => setConfirming({ kind: "endpoint", id: endpoint.id, label: endpoint.url })} aria-label={`Delete ${endpoint.url}`}>
                      Delete
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )}
          <AddEndpointForm orgId={orgId} onAdded={(url, value) => setSecret({ url, secret: value })} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle as="h2">Deliveries</CardTitle>
          <CardDescription>The last 50 events sent by webhook or email, newest first. Times are UTC.</CardDescription>
        </CardHeader>
        {deliveries.length === 0 ? (
          <EmptyState title="Nothing sent yet">Deliveries appear here once an alert fires or you send a test event.</EmptyState>
        ) : (
          <Table caption="Deliveries" stacked data-testid="deliveries">
            <THead>
              <TR>
                <TH>When</TH>
                <TH>Event</TH>
                <TH>To</TH>
                <TH>Status</TH>
                <TH>Result</TH>
              </TR>
            </THead>
            <TBody>
              {deliveries.map((delivery) => (
                <TR key={delivery.id}>
                  <TD data-label="When" className="whitespace-nowrap">
                    {delivery.at}
                  </TD>
                  <TD data-label="Event">
                    <div className="font-mono text-xs">{delivery.type}</div>
                    <div className="font-mono text-[11px] break-all text-zinc-500">{delivery.eventId}</div>
                  </TD>
                  <TD data-label="To" className="max-w-64 font-mono text-xs break-all">
                    {delivery.to}
                  </TD>
                  <TD data-label="Status">
                    <Badge tone={delivery.status === "succeeded" ? "success" : delivery.status === "failed" ? "danger" : delivery.status === "cancelled" ? "neutral" : "warning"}>
                      {deliveryStatusLabel(delivery)}
                    </Badge>
                  </TD>
                  <TD data-label="Result" className="text-xs">
                    {delivery.result}
                    {delivery.nextAttempt ? <div className="text-zinc-500">next try {delivery.nextAttempt}</div> : null}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </Card>

      <SecretDialog shown={secret} onClose={() => setSecret(null)} />
      <ConfirmDialog
        open={confirming !== null}
        title={confirming?.kind === "rule" ? `Remove the alert “${confirming.label}”?` : `Delete the endpoint ${confirming?.label ?? ""}?`}
        description={confirming?.kind === "rule" ? "It stops watching at once." : "Nothing more is sent to it, including deliveries still being retried. This cannot be undone."}
        confirmLabel={confirming?.kind === "rule" ? "Remove alert" : "Delete endpoint"}
        busy={busy}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          const target = confirming!;
          act(
            () => (target.kind === "rule" ? removeAlertRuleAction(orgId, target.id) : removeWebhookEndpointAction(orgId, target.id)),
            target.kind === "rule" ? "Alert removed." : "Endpoint deleted.",
            () => setConfirming(null),
          );
        }}
      />
    </div>
  );
}

function deliveryStatusLabel(delivery: DeliveryRow): string {
  if (delivery.status === "pending") return delivery.attempts ? "Retrying" : "Queued";
  if (delivery.status === "succeeded") return "Delivered";
  if (delivery.status === "cancelled") return "Cancelled";
  // A test event is tried once; anything else was retried for 24 hours.
  return delivery.type === "webhook.test" ? "Failed" : "Gave up";
}

const KINDS = [
  { value: "balance_below", label: "Balance below" },
  { value: "spend_day_above", label: "Spend today (UTC) above" },
  { value: "spend_month_above", label: "Spend this month (UTC) above" },
];

function AddRuleForm({ orgId, keys, onAdded }: { orgId: string; keys: { id: string; label: string }[]; onAdded: () => void }) {
  const [kind, setKind] = useState("balance_below");
  const [error, setError] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const input = { kind, keyId: kind === "balance_below" ? "" : String(data.get("keyId") ?? ""), threshold: String(data.get("threshold") ?? "") };
    startTransition(async () => {
      const result = await addAlertRuleAction(orgId, input);
      if (!result.ok) return setError(result.error);
      setError(null);
      form.reset();
      onAdded();
    });
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-3 sm:grid-cols-[1fr_1fr_10rem_auto] sm:items-end" noValidate aria-label="Add an alert">
      <Field label="Alert when">
        {(control) => (
          <Select {...control} name="kind" value={kind} onChange={(event) => setKind(event.target.value)}>
            {KINDS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="For">
        {(control) => (
          <Select {...control} name="keyId" disabled={kind === "balance_below"} defaultValue="">
            <option value="">The whole organization</option>
            {keys.map((key) => (
              <option key={key.id} value={key.id}>
                Key {key.label}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="Threshold (USD)" error={error}>
        {(control) => <Input {...control} name="threshold" inputMode="decimal" placeholder="e.g. 25" required />}
      </Field>
      <Button type="submit" variant="secondary" loading={busy} className={error ? "sm:mb-7" : undefined}>
        Add alert
      </Button>
    </form>
  );
}

function AddEndpointForm({ orgId, onAdded }: { orgId: string; onAdded: (url: string, secret: string) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();
  const router = useRouter();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const input = { url: String(data.get("url") ?? ""), description: String(data.get("description") ?? "") };
    startTransition(async () => {
      const result = await addWebhookEndpointAction(orgId, input);
      if (!result.ok) return setError(result.error);
      setError(null);
      form.reset();
      onAdded(result.data.url, result.data.secret);
      router.refresh();
    });
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-3 sm:grid-cols-[2fr_1fr_auto] sm:items-end" noValidate aria-label="Add a webhook endpoint">
      <Field label="Endpoint URL" error={error}>
        {(control) => <Input {...control} name="url" type="url" placeholder="https://example.com/webhooks/dilution" required />}
      </Field>
      <Field label="Description (optional)">
        {(control) => <Input {...control} name="description" maxLength={120} placeholder="e.g. Ops alerts" />}
      </Field>
      <Button type="submit" variant="secondary" loading={busy} className={error ? "sm:mb-7" : undefined}>
        Add endpoint
      </Button>
    </form>
  );
}

/** The only place an endpoint's signing secret ever appears. */
function SecretDialog({ shown, onClose }: { shown: { url: string; secret: string } | null; onClose: () => void }) {
  return (
    <ShownOnceDialog
      value={shown?.secret ?? null}
      title="Your endpoint's signing secret"
      description={`Deliveries to ${shown?.url ?? ""} are signed with it. Store it with your receiver.`}
      warning={{ title: "This secret will not be shown again.", body: "If you lose it, delete the endpoint and add it again." }}
      testId="webhook-secret"
      copyLabel="Copy secret"
      acknowledgement="I have stored the secret."
      onClose={onClose}
    />
  );
}
