"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/field";
import { requestPlanAction, withdrawPlanRequestAction } from "@/lib/platform/actions/organizations";

export interface OpenRequest {
  id: string;
  planName: string;
  createdAt: string;
}

/** Ask the platform for another plan, or withdraw the request that is waiting. */
export function PlanRequest({ orgId, plans, open }: { orgId: string; plans: { slug: string; name: string }[]; open: OpenRequest | null }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();

  function ask(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input = { plan: String(data.get("plan") ?? ""), message: String(data.get("message") ?? "") };
    startTransition(async () => {
      const result = await requestPlanAction(orgId, input);
      startTransition(() => {
        setError(result.ok ? null : result.error);
        setDone(result.ok ? "Sent. Platform administrators answer here, usually within a working day." : null);
        router.refresh();
      });
    });
  }

  function withdraw(id: string) {
    startTransition(async () => {
      const result = await withdrawPlanRequestAction(orgId, id);
      startTransition(() => {
        setError(result.ok ? null : result.error);
        setDone(result.ok ? "Request withdrawn." : null);
        router.refresh();
      });
    });
  }

  return (
    <div className="flex flex-col gap-3">
      <div aria-live="polite">
        {error ? <Alert tone="danger">{error}</Alert> : null}
        {done ? <Alert tone="success">{done}</Alert> : null}
      </div>
      {open ? (
        <div className="flex flex-col gap-3 rounded-md border border-zinc-200 bg-zinc-50 p-3 text-sm sm:flex-row sm:items-center sm:justify-between">
          <p>
            You asked for the <strong className="font-medium">{open.planName}</strong> plan on {open.createdAt}; it is waiting for an answer.
          </p>
          <Button variant="secondary" size="sm" onClick={() => withdraw(open.id)} loading={busy}>
            Withdraw request
          </Button>
        </div>
      ) : plans.length ? (
        <form onSubmit={ask} className="flex max-w-xl flex-col gap-3" noValidate>
          <Field label="Plan you need">
            {(control) => (
              <Select {...control} name="plan" defaultValue={plans[0]!.slug}>
                {plans.map((plan) => (
                  <option key={plan.slug} value={plan.slug}>
                    {plan.name}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label="Message (optional)" hint="What you use the API for helps the answer.">
            {(control) => <Input {...control} name="message" maxLength={1000} />}
          </Field>
          <div>
            <Button type="submit" loading={busy}>
              Ask for this plan
            </Button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
