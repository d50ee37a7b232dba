"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition, type FormEvent } from "react";
import { removeCardAction, setAutoRechargeAction, startCardSetupAction, turnOffAutoRechargeAction } from "@/lib/platform/actions/billing";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/field";

export interface SavedCardView {
  label: string;
  expires: string | null;
}

/** The saved card: save one (Stripe Checkout in setup mode), replace it, or remove it after a confirmation. */
export function SavedCardControls({
  orgId,
  card,
  canManage,
  disabledReason,
  justSaved,
}: {
  orgId: string;
  card: SavedCardView | null;
  canManage: boolean;
  /** Why payments cannot start (billing not configured), or null. */
  disabledReason: string | null;
  /** Back from Stripe with a card whose webhook may not have arrived yet. */
  justSaved: boolean;
}) {
  const router = useRouter();
  const [requestKey] = useState(() => crypto.randomUUID().replaceAll("-", ""));
  const [error, setError] = useState<string | null>(null);
  const [opening, startOpening] = useTransition();
  const [redirecting, setRedirecting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [removing, startRemoving] = useTransition();
  const [removeError, setRemoveError] = useState<string | null>(null);
  const waitingForStripe = justSaved && !card;

  // Stripe's confirmation can come a moment after the browser is back: look again for a short while.
  useEffect(() => {
    if (!waitingForStripe) return;
    const started = Date.now();
    const timer = setInterval(() => (Date.now() - started > 30_000 ? clearInterval(timer) : router.refresh()), 2_000);
    return () => clearInterval(timer);
  }, [waitingForStripe, router]);

  function saveCard() {
    setError(null);
    startOpening(async () => {
      const result = await startCardSetupAction(orgId, requestKey);
      if (!result.ok) return setError(result.error);
      setRedirecting(true);
      window.location.assign(result.data.url);
    });
  }

  function remove() {
    setRemoveError(null);
    startRemoving(async () => {
      const result = await removeCardAction(orgId);
      if (!result.ok) return setRemoveError(result.error);
      setConfirming(false);
      router.refresh();
    });
  }

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-3 rounded-md border border-zinc-200 p-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0 text-sm">
          <p className="font-medium text-zinc-900" data-testid="saved-card">
            {card ? card.label : waitingForStripe ? "Stripe is confirming your card…" : "No card saved"}
          </p>
          <p className="text-zinc-600">
            {card
              ? `${card.expires ? `Expires ${card.expires}. ` : ""}Kept by Stripe; charged only for auto-recharge.`
              : "Auto-recharge charges a card saved with Stripe. Nothing is charged when you save it."}
          </p>
        </div>
        {canManage ? (
          <div className="flex flex-wrap gap-2">
            <Button type="button" variant={card ? "secondary" : "primary"} onClick={saveCard} loading={opening || redirecting} disabled={disabledReason !== null}>
              {card ? "Replace card" : "Save a card"}
            </Button>
            {card ? (
              <Button type="button" variant="danger-ghost" onClick={() => setConfirming(true)}>
                Remove card
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>
      {error ? <Alert tone="danger">{error}</Alert> : null}
      {canManage && disabledReason ? <Alert tone="warning">{disabledReason}</Alert> : null}
      <ConfirmDialog
        open={confirming}
        title="Remove the saved card?"
        description={`${card?.label ?? "The card"} is removed from Stripe and auto-recharge is turned off. Top-ups already made are not affected.`}
        confirmLabel="Remove card"
        busy={removing}
        error={removeError}
        onConfirm={remove}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}

export interface AutoRechargeFormValues {
  threshold: string;
  amount: string;
  maxPerDay: string;
}

/** Threshold, amount and recharges per day; turn on (or save changes), or turn off. */
export function AutoRechargeForm({
  orgId,
  enabled,
  values,
  maxPerDay,
  amountHint,
}: {
  orgId: string;
  enabled: boolean;
  values: AutoRechargeFormValues;
  maxPerDay: number;
  amountHint: string;
}) {
  const router = useRouter();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [saving, startSaving] = useTransition();
  const [turningOff, startTurningOff] = useTransition();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input = { threshold: String(data.get("threshold") ?? ""), amount: String(data.get("amount") ?? ""), maxPerDay: String(data.get("maxPerDay") ?? "") };
    setSaved(null);
    startSaving(async () => {
      const result = await setAutoRechargeAction(orgId, input);
      if (!result.ok) {
        setFieldErrors(result.fieldErrors ?? {});
        return setError(result.fieldErrors ? null : result.error);
      }
      setFieldErrors({});
      setError(null);
      setSaved(enabled ? "Saved." : "Auto-recharge is on.");
      router.refresh();
    });
  }

  function turnOff() {
    setSaved(null);
    startTurningOff(async () => {
      const result = await turnOffAutoRechargeAction(orgId);
      if (!result.ok) return setError(result.error);
      setError(null);
      setSaved("Auto-recharge is off.");
      router.refresh();
    });
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-3" noValidate>
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label="When the balance falls below (USD)" error={fieldErrors.threshold}>
          {(control) => <Input {...control} name="threshold" inputMode="decimal" placeholder="e.g. 5" defaultValue={values.threshold} />}
        </Field>
        <Field label="Add this amount (USD)" hint={amountHint} error={fieldErrors.amount}>
          {(control) => <Input {...control} name="amount" inputMode="decimal" placeholder="e.g. 20" defaultValue={values.amount} />}
        </Field>
        <Field label="At most, per UTC day" error={fieldErrors.maxPerDay}>
          {(control) => (
            <Select {...control} name="maxPerDay" defaultValue={values.maxPerDay}>
              {Array.from({ length: maxPerDay }, (_, i) => String(i + 1)).map((n) => (
                <option key={n} value={n}>
                  {n === "1" ? "1 recharge" : `${n} recharges`}
                </option>
              ))}
            </Select>
          )}
        </Field>
      </div>
      {error ? <Alert tone="danger">{error}</Alert> : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant={enabled ? "secondary" : "primary"} loading={saving} disabled={turningOff}>
          {enabled ? "Save changes" : "Turn on auto-recharge"}
        </Button>
        {enabled ? (
          <Button type="button" variant="ghost" onClick={turnOff} loading={turningOff} disabled={saving}>
            Turn off
          </Button>
        ) : null}
        <p aria-live="polite" className="text-sm text-emerald-700">
          {saved ?? ""}
        </p>
      </div>
    </form>
  );
}
