"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog, Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Checkbox, Field, Input } from "@/components/ui/field";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { createPlanAction, deletePlanAction, updatePlanAction } from "@/lib/platform/actions/admin-plans";

export interface PlanView {
  id: string;
  slug: string;
  name: string;
  allowedEndpoints: string[];
  requestsPerMinute: number;
  isTrial: boolean;
  dailyTickerLimit: number | null;
  /** Organizations on the plan, closed ones included. */
  organizations: number;
  openOrganizations: number;
  /** Plan requests (any status) that name it. */
  requests: number;
  isDefault: boolean;
}

export interface EndpointOption {
  name: string;
  title: string;
}

type Editing = { mode: "create" } | { mode: "edit"; plan: PlanView } | null;

/** The plans table, with create, edit and delete; the endpoints offered are the catalog's. */
export function PlansManager({ plans, endpoints }: { plans: PlanView[]; endpoints: EndpointOption[] }) {
  const router = useRouter();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<PlanView | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();
  const titleOf = new Map(endpoints.map((e) => [e.name, e.title]));

  function remove(plan: PlanView) {
    startTransition(async () => {
      const result = await deletePlanAction(plan.id);
      startTransition(() => {
        if (result.ok) {
          setDeleting(null);
          setMessage(`The ${plan.name} plan was deleted.`);
          router.refresh();
        } else {
          setDeleteError(result.error);
        }
      });
    });
  }

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-3 px-5 pt-5 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h2 className="text-base font-semibold text-zinc-900">Plans</h2>
          <p className="text-sm text-zinc-600">What an organization on each plan may call, and how fast. Changes reach the API within a second.</p>
        </div>
        <Button onClick={() => setEditing({ mode: "create" })}>Create plan</Button>
      </div>
      <div aria-live="polite" className="px-5">
        {message ? <Alert tone="success">{message}</Alert> : null}
      </div>
      {plans.length === 0 ? (
        <EmptyState title="No plans" action={<Button onClick={() => setEditing({ mode: "create" })}>Create a plan</Button>}>
          The default plans are created when the application starts; you can add your own.
        </EmptyState>
      ) : (
        <Table caption="Plans" stacked>
          <THead>
            <TR>
              <TH>Plan</TH>
              <TH>Endpoints</TH>
              <TH className="text-right">Requests / min</TH>
              <TH>Trial</TH>
              <TH className="text-right">Organizations</TH>
              <TH>
                <span className="sr-only">Actions</span>
              </TH>
            </TR>
          </THead>
          <TBody>
            {plans.map((plan) => (
              <TR key={plan.id} data-plan={plan.slug}>
                <TD data-label="Plan">
                  <div className="flex flex-wrap items-center justify-end gap-1.5 md:justify-start">
                    <span className="font-medium text-zinc-900">{plan.name}</span>
                    {plan.isDefault ? <Badge>Default</Badge> : null}
                  </div>
                  <div className="font-mono text-xs text-zinc-500">{plan.slug}</div>
                </TD>
                <TD data-label="Endpoints" className="md:max-w-72">
                  {plan.allowedEndpoints.length === endpoints.length ? (
                    <span title={plan.allowedEndpoints.join(", ")}>All {endpoints.length}</span>
                  ) : (
                    <ul className="flex flex-wrap justify-end gap-1 md:justify-start" aria-label={`Endpoints of ${plan.name}`}>
                      {plan.allowedEndpoints.map((name) => (
                        <li key={name}>
                          <Badge tone="accent" title={titleOf.get(name)}>
                            {name}
                          </Badge>
                        </li>
                      ))}
                    </ul>
                  )}
                </TD>
                <TD data-label="Requests / min" className="text-right tabular-nums">
                  {plan.requestsPerMinute.toLocaleString("en-US")}
                </TD>
                <TD data-label="Trial">
                  {plan.isTrial ? (
                    <span>
                      Yes<span className="text-zinc-600">, {plan.dailyTickerLimit === null ? "no ticker limit" : `${plan.dailyTickerLimit.toLocaleString("en-US")} tickers a day`}</span>
                    </span>
                  ) : (
                    <span className="text-zinc-600">No</span>
                  )}
                </TD>
                <TD data-label="Organizations" className="text-right tabular-nums">
                  {plan.organizations}
                  {plan.organizations !== plan.openOrganizations ? (
                    <span className="block text-xs text-zinc-500">{plan.organizations - plan.openOrganizations} closed</span>
                  ) : null}
                </TD>
                <TD data-label="Actions">
                  <div className="flex justify-end gap-1">
                    <Button variant="ghost" size="sm" onClick={() => setEditing({ mode: "edit", plan })} aria-label={`Edit the ${plan.name} plan`}>
                      Edit
                    </Button>
                    {plan.isDefault ? null : (
                      <Button
                        variant="danger-ghost"
                        size="sm"
                        aria-label={`Delete the ${plan.name} plan`}
                        onClick={() => {
                          setDeleteError(null);
                          setDeleting(plan);
                        }}
                      >
                        Delete
                      </Button>
                    )}
                  </div>
                </TD>
              </TR>
            ))}
          </TBody>
        </Table>
      )}

      <PlanDialog
        key={editing ? (editing.mode === "edit" ? editing.plan.id : "new") : "closed"}
        editing={editing}
        endpoints={endpoints}
        onClose={() => setEditing(null)}
        onSaved={(text) => {
          setEditing(null);
          setMessage(text);
          router.refresh();
        }}
      />
      <Dialog
        open={deleting !== null && inUse(deleting)}
        onClose={() => setDeleting(null)}
        title={`The ${deleting?.name ?? ""} plan cannot be deleted`}
        description={deleting ? inUseReason(deleting) : undefined}
        footer={
          <Button variant="secondary" onClick={() => setDeleting(null)} data-autofocus>
            Close
          </Button>
        }
      />
      <ConfirmDialog
        open={deleting !== null && !inUse(deleting)}
        title={`Delete the ${deleting?.name ?? ""} plan?`}
        description="No organization is on it and no request names it. The audit log keeps its settings."
        confirmLabel="Delete plan"
        busy={busy}
        error={deleteError}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove(deleting)}
      />
    </div>
  );
}

const inUse = (plan: PlanView) => plan.organizations > 0 || plan.requests > 0;
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function inUseReason(plan: PlanView): string {
  const reasons = [
    plan.organizations ? `${count(plan.organizations, "organization is", "organizations are")} on it (closed ones count too)` : null,
    plan.requests ? `${count(plan.requests, "plan request names", "plan requests name")} it and ${plan.requests === 1 ? "is" : "are"} kept as history` : null,
  ].filter(Boolean);
  const advice = plan.requests ? "A plan that has been requested stays; edit it instead." : "Move them to another plan from their organization’s page first.";
  return `${reasons.join(", and ")}. ${advice}`.replace(/^./, (c) => c.toUpperCase());
}

function PlanDialog({ editing, endpoints, onClose, onSaved }: { editing: Editing; endpoints: EndpointOption[]; onClose: () => void; onSaved: (message: string) => void }) {
  const plan = editing?.mode === "edit" ? editing.plan : null;
  const [isTrial, setIsTrial] = useState(plan?.isTrial ?? false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(async () => {
      const result = plan ? await updatePlanAction(plan.id, form) : await createPlanAction(form);
      startTransition(() => {
        if (result.ok) {
          const name = String(form.get("name") ?? "").trim();
          onSaved(plan ? (("changed" in result.data && result.data.changed === false) ? `Nothing changed in the ${name} plan.` : `The ${name} plan was saved.`) : `The ${name} plan was created.`);
        } else {
          setErrors(result.fieldErrors ?? {});
          setFormError(result.fieldErrors ? null : result.error);
        }
      });
    });
  }

  return (
    <Dialog
      open={editing !== null}
      onClose={onClose}
      title={plan ? `Edit the ${plan.name} plan` : "Create a plan"}
      description={plan ? `Organizations on it (${plan.organizations}) get the new settings within a second.` : "Organizations move onto it from their page, or when you approve their request."}
      className="max-w-xl"
    >
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        {formError ? <Alert tone="danger">{formError}</Alert> : null}
        <Field label="Name" error={errors.name}>
          {(control) => <Input {...control} name="name" defaultValue={plan?.name} required maxLength={60} autoComplete="off" data-autofocus />}
        </Field>
        {plan ? (
          <div className="flex flex-col gap-1 text-sm">
            <span className="font-medium text-zinc-800">Slug</span>
            <span className="font-mono text-zinc-700">{plan.slug}</span>
            <span className="text-xs text-zinc-500">The slug stays: the CLI and the audit log name the plan by it.</span>
          </div>
        ) : (
          <Field label="Slug" hint="Lowercase letters, digits and hyphens, e.g. “pro-2026”. It cannot change later." error={errors.slug}>
            {(control) => <Input {...control} name="slug" required maxLength={40} pattern="[a-z0-9]+(-[a-z0-9]+)*" autoComplete="off" spellCheck={false} className="font-mono" />}
          </Field>
        )}
        <fieldset className="flex flex-col gap-2" aria-describedby={errors.allowedEndpoints ? "plan-endpoints-error" : undefined}>
          <legend className="mb-1 text-sm font-medium text-zinc-800">Endpoints it may call</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {endpoints.map((endpoint) => (
              <Checkbox
                key={endpoint.name}
                name="allowedEndpoints"
                value={endpoint.name}
                defaultChecked={plan ? plan.allowedEndpoints.includes(endpoint.name) : true}
                label={endpoint.title}
                description={<span className="font-mono">{endpoint.name}</span>}
              />
            ))}
          </div>
          {errors.allowedEndpoints ? (
            <p id="plan-endpoints-error" className="text-sm text-red-700">
              {errors.allowedEndpoints}
            </p>
          ) : null}
        </fieldset>
        <Field label="Requests per minute" hint="Per organization, across all its keys." error={errors.requestsPerMinute}>
          {(control) => <Input {...control} name="requestsPerMinute" type="number" inputMode="numeric" min={1} step={1} required defaultValue={plan?.requestsPerMinute ?? 200} />}
        </Field>
        <Checkbox
          name="isTrial"
          checked={isTrial}
          onChange={(event) => setIsTrial(event.currentTarget.checked)}
          label="Trial plan"
          description="Trial plans may limit the unique tickers an organization asks about."
        />
        <Field
          label="Daily unique-ticker limit"
          hint={isTrial ? "Per endpoint per day (America/Chicago). Empty for no limit." : "Only for trial plans."}
          error={errors.dailyTickerLimit}
        >
          {(control) => (
            <Input
              {...control}
              name="dailyTickerLimit"
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              disabled={!isTrial}
              defaultValue={plan?.dailyTickerLimit ?? ""}
              placeholder={isTrial ? "No limit" : "—"}
            />
          )}
        </Field>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {plan ? "Save plan" : "Create plan"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
