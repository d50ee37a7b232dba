"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Checkbox, Field, Input, Select } from "@/components/ui/field";
import { formatMoney } from "@/lib/money";
import { Money as Amount } from "@/components/ui/money";
import {
  adjustCreditAsAdminAction,
  answerPlanRequestAsAdminAction,
  changePlanAsAdminAction,
  setSuspensionAction,
} from "@/lib/platform/actions/admin";
import type { ActionResult } from "@/lib/platform/action";

/** Runs a console action; the message (success or refusal) is shown where the form is, and the page refreshes. */
function useAdminAction() {
  const router = useRouter();
  const [busy, startTransition] = useTransition();
  const [message, setMessage] = useState<{ tone: "success" | "danger"; text: string; fields?: Record<string, string> } | null>(null);
  function run<T>(action: () => Promise<ActionResult<T>>, success: (data: T) => string, after?: () => void) {
    startTransition(async () => {
      const result = await action();
      startTransition(() => {
        setMessage(result.ok ? { tone: "success", text: success(result.data) } : { tone: "danger", text: result.error, fields: result.fieldErrors });
        if (result.ok) after?.();
        router.refresh();
      });
    });
  }
  return { busy, message, setMessage, run };
}

function Message({ message }: { message: { tone: "success" | "danger"; text: string } | null }) {
  return <div aria-live="polite">{message ? <Alert tone={message.tone}>{message.text}</Alert> : null}</div>;
}

export function PlanChanger({ orgId, current, plans }: { orgId: string; current: string; plans: { slug: string; name: string }[] }) {
  const { busy, message, run } = useAdminAction();
  const [plan, setPlan] = useState(current);
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        run(() => changePlanAsAdminAction(orgId, plan), (data) => `Moved to the ${data.plan} plan.`);
      }}
    >
      <Message message={message} />
      <div className="flex flex-wrap items-end gap-2">
        <Field label="Plan" className="min-w-48">
          {(control) => (
            <Select {...control} value={plan} onChange={(e) => setPlan(e.target.value)}>
              {plans.map((p) => (
                <option key={p.slug} value={p.slug}>
                  {p.name}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Button type="submit" variant="secondary" loading={busy} disabled={plan === current}>
          Change plan
        </Button>
      </div>
    </form>
  );
}

export function PlanRequestAnswer({ orgId, requestId, planName }: { orgId: string; requestId: string; planName: string }) {
  const { busy, message, run } = useAdminAction();
  const [text, setText] = useState("");
  function answer(decision: "approve" | "decline") {
    run(() => answerPlanRequestAsAdminAction(orgId, requestId, { decision, message: text }), () => (decision === "approve" ? `Approved: the organization is on ${planName} now.` : "Declined; the customer sees your answer."));
  }
  return (
    <form className="flex flex-col gap-2" onSubmit={(e) => e.preventDefault()}>
      <Message message={message} />
      <Field label="Answer the customer sees">{(control) => <Input {...control} value={text} onChange={(e) => setText(e.target.value)} maxLength={1000} required />}</Field>
      <div className="flex flex-wrap gap-2">
        <Button type="button" size="sm" loading={busy} onClick={() => answer("approve")}>
          Approve {planName}
        </Button>
        <Button type="button" size="sm" variant="secondary" disabled={busy} onClick={() => answer("decline")}>
          Decline
        </Button>
      </div>
    </form>
  );
}

/** Add or remove credit. The form's token makes a double submit (two clicks, a retry) adjust once. */
export function CreditAdjuster({ orgId, balanceNanos }: { orgId: string; balanceNanos: string }) {
  const { busy, message, run } = useAdminAction();
  const [token, setToken] = useState(() => crypto.randomUUID());
  const [direction, setDirection] = useState<"add" | "remove">("add");
  const [allowNegative, setAllowNegative] = useState(false);
  return (
    <form
      className="flex flex-col gap-3"
      aria-label="Credit adjustment"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const data = new FormData(form);
        data.set("token", token);
        run(
          () => adjustCreditAsAdminAction(orgId, data),
          (result) =>
            result.duplicate
              ? "This adjustment was applied already; nothing more was changed."
              : `Done. The balance is now ${formatMoney(BigInt(result.balanceAfterNanos!), "balance")}.`,
          () => {
            form.reset();
            setDirection("add");
            setAllowNegative(false);
            setToken(crypto.randomUUID());
          },
        );
      }}
    >
      <Message message={message} />
      <p className="text-sm text-zinc-600">Balance now: <Amount nanos={BigInt(balanceNanos)} /></p>
      <div className="grid gap-3 sm:grid-cols-[auto_1fr]">
        <Field label="Change">
          {(control) => (
            <Select {...control} name="direction" value={direction} onChange={(e) => setDirection(e.target.value as "add" | "remove")}>
              <option value="add">Add credit</option>
              <option value="remove">Remove credit</option>
            </Select>
          )}
        </Field>
        <Field label="Amount (USD)" error={message?.tone === "danger" ? (message.fields?.amount ?? null) : null}>
          {(control) => <Input {...control} name="amount" inputMode="decimal" placeholder="5.00" required autoComplete="off" />}
        </Field>
      </div>
      <Field label="Reason" hint="Kept in the ledger and the audit log; the customer sees it in their billing history." error={message?.tone === "danger" ? (message.fields?.reason ?? null) : null}>
        {(control) => <Input {...control} name="reason" maxLength={500} required />}
      </Field>
      {direction === "remove" ? (
        <>
          <Checkbox name="allowNegative" checked={allowNegative} onChange={(e) => setAllowNegative(e.target.checked)} label="Allow the balance to go below zero" description="Only for money already spent, e.g. a chargeback the ledger has not seen." />
          {allowNegative ? (
            <Field label="Why may it go negative?" error={message?.tone === "danger" ? (message.fields?.negativeReason ?? null) : null}>
              {(control) => <Input {...control} name="negativeReason" maxLength={500} required />}
            </Field>
          ) : null}
        </>
      ) : null}
      <div>
        <Button type="submit" loading={busy}>
          {direction === "add" ? "Add credit" : "Remove credit"}
        </Button>
      </div>
    </form>
  );
}

export function SuspensionControl({ orgId, orgName, suspended, closed }: { orgId: string; orgName: string; suspended: boolean; closed: boolean }) {
  const { busy, message, setMessage, run } = useAdminAction();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  if (suspended) {
    return (
      <div className="flex flex-col gap-2">
        <Message message={message} />
        <div>
          <Button variant="secondary" loading={busy} onClick={() => run(() => setSuspensionAction(orgId, false, null), () => "Suspension lifted; its keys work again within a second.")}>
            Lift the suspension
          </Button>
        </div>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      <Message message={message} />
      <div>
        <Button variant="danger" disabled={closed} onClick={() => setOpen(true)}>
          Suspend organization
        </Button>
      </div>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={`Suspend ${orgName}?`}
        description="Every request with its keys is refused (403 organization_suspended) and charged nothing, from within a second. Its members can still sign in, see the reason and buy credits."
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)} data-autofocus disabled={busy}>
              Cancel
            </Button>
            <Button
              variant="danger"
              loading={busy}
              onClick={() => {
                setMessage(null);
                run(() => setSuspensionAction(orgId, true, reason), () => "Suspended.", () => setOpen(false));
              }}
            >
              Suspend
            </Button>
          </>
        }
      >
        <Field label="Reason the customer sees" error={open && message?.tone === "danger" ? message.text : null}>
          {(control) => <Input {...control} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} required />}
        </Field>
      </Dialog>
    </div>
  );
}
