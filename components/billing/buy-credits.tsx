"use client";

import { useState, useTransition, type FormEvent } from "react";
import { startTopUpAction } from "@/lib/platform/actions/billing";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import { centsInputValue } from "@/lib/money";
import { cn } from "@/lib/utils/cn";

/**
 * Preset amounts and a custom one. The request key is made once per form, so
 * a double click opens the same Checkout Session rather than two.
 */
export function BuyCredits({ orgId, presets, limits, disabledReason }: { orgId: string; presets: { cents: number; label: string }[]; limits: string; disabledReason: string | null }) {
  const [choice, setChoice] = useState<string>(String(presets[0]?.cents ?? ""));
  const [custom, setCustom] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [requestKey] = useState(() => crypto.randomUUID().replaceAll("-", ""));
  const [pending, startTransition] = useTransition();
  const [redirecting, setRedirecting] = useState(false);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const amount = choice === "custom" ? custom : centsInputValue(Number(choice));
    setError(null);
    startTransition(async () => {
      const result = await startTopUpAction(orgId, amount, `${requestKey}${amount.replace(/\D/g, "")}`);
      if (!result.ok) return setError(result.error);
      setRedirecting(true);
      window.location.assign(result.data.url);
    });
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4">
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-zinc-800">Amount</legend>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-5">
          {[...presets.map((p) => ({ value: String(p.cents), label: p.label })), { value: "custom", label: "Other" }].map((option) => (
            <label
              key={option.value}
              className={cn(
                "flex h-11 cursor-pointer items-center justify-center rounded-md border text-sm font-semibold has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent-600",
                choice === option.value ? "border-accent-600 bg-accent-50 text-accent-800" : "border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-50",
              )}
            >
              <input type="radio" name="amount" value={option.value} checked={choice === option.value} onChange={() => setChoice(option.value)} className="sr-only" />
              {option.label}
            </label>
          ))}
        </div>
      </fieldset>
      {choice === "custom" ? (
        <Field label="Custom amount in US dollars" hint={limits}>
          {(control) => <Input {...control} inputMode="decimal" placeholder="e.g. 250" value={custom} onChange={(e) => setCustom(e.target.value)} autoFocus />}
        </Field>
      ) : (
        <p className="text-xs text-zinc-500">{limits}</p>
      )}
      {error ? <Alert tone="danger">{error}</Alert> : null}
      {disabledReason ? <Alert tone="warning">{disabledReason}</Alert> : null}
      <div>
        <Button type="submit" loading={pending || redirecting} disabled={disabledReason !== null}>
          Continue to payment
        </Button>
      </div>
      <p className="text-xs text-zinc-500">You pay on Stripe’s secure checkout page. Credits are added as soon as Stripe confirms the payment, and never expire.</p>
    </form>
  );
}
