"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { setThresholdAction } from "@/lib/platform/actions/billing";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";

export function ThresholdForm({ orgId, current }: { orgId: string; current: string }) {
  const router = useRouter();
  const [value, setValue] = useState(current);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [pending, startTransition] = useTransition();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    startTransition(async () => {
      const result = await setThresholdAction(orgId, value);
      if (!result.ok) return setError(result.error);
      setError(null);
      setSaved(true);
      router.refresh();
    });
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <Field label="Alert me below (USD)" error={error} hint="Empty: no alert." className="sm:w-56">
        {(control) => <Input {...control} inputMode="decimal" placeholder="e.g. 25" value={value} onChange={(e) => setValue(e.target.value)} />}
      </Field>
      <Button type="submit" variant="secondary" loading={pending} className="sm:mb-[1.375rem]">
        Save threshold
      </Button>
      <p aria-live="polite" className="text-sm text-emerald-700 sm:mb-[1.875rem]">
        {saved ? "Saved." : ""}
      </p>
    </form>
  );
}
