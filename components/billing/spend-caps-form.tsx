"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { setSpendCapsAction } from "@/lib/platform/actions/billing";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";

/** The organization's daily and monthly caps, in dollars; each shows what has been spent in its period. */
export function SpendCapsForm({
  orgId,
  current,
  spent,
}: {
  orgId: string;
  current: { dailyCap: string; monthlyCap: string };
  spent: { today: string; thisMonth: string };
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [pending, startTransition] = useTransition();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input = { dailyCap: String(data.get("dailyCap") ?? ""), monthlyCap: String(data.get("monthlyCap") ?? "") };
    setSaved(false);
    startTransition(async () => {
      const result = await setSpendCapsAction(orgId, input);
      if (!result.ok) return setError(result.error);
      setError(null);
      setSaved(true);
      router.refresh();
    });
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-3" noValidate>
      <div className="grid gap-3 sm:grid-cols-2 lg:max-w-xl">
        <Field label="Daily cap (USD)" hint={`Spent today (UTC): ${spent.today}`}>
          {(control) => <Input {...control} name="dailyCap" inputMode="decimal" placeholder="No cap" defaultValue={current.dailyCap} />}
        </Field>
        <Field label="Monthly cap (USD)" hint={`Spent this month (UTC): ${spent.thisMonth}`}>
          {(control) => <Input {...control} name="monthlyCap" inputMode="decimal" placeholder="No cap" defaultValue={current.monthlyCap} />}
        </Field>
      </div>
      {error ? <p className="text-sm text-red-700">{error}</p> : null}
      <div className="flex items-center gap-3">
        <Button type="submit" variant="secondary" loading={pending}>
          Save caps
        </Button>
        <p aria-live="polite" className="text-sm text-emerald-700">
          {saved ? "Saved." : ""}
        </p>
      </div>
    </form>
  );
}
