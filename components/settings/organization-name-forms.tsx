"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { createOrganizationAction, renameOrganizationAction } from "@/lib/platform/actions/organizations";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";

const NAME_HINT = "2 to 80 characters. Everyone in the organization sees it.";

export function RenameOrganizationForm({ orgId, name }: { orgId: string; name: string }) {
  const router = useRouter();
  const [value, setValue] = useState(name);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    startTransition(async () => {
      const result = await renameOrganizationAction(orgId, value);
      if (!result.ok) {
        setSaved(null);
        return setError(result.error);
      }
      setError(null);
      setValue(result.data.name);
      setSaved(`Saved. The organization is now called “${result.data.name}”.`);
      router.refresh();
    });
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-3" noValidate>
      <Field label="Organization name" hint={NAME_HINT} error={error}>
        {(control) => (
          <Input
            {...control}
            name="name"
            value={value}
            onChange={(event) => {
              setValue(event.target.value);
              setSaved(null);
            }}
            maxLength={80}
            required
          />
        )}
      </Field>
      <div aria-live="polite">{saved ? <Alert tone="success">{saved}</Alert> : null}</div>
      <div>
        <Button type="submit" loading={busy} disabled={value.trim() === name}>
          Save name
        </Button>
      </div>
    </form>
  );
}

export function CreateOrganizationForm() {
  const [error, setError] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "");
    startTransition(async () => {
      const result = await createOrganizationAction(name);
      if (result && !result.ok) setError(result.error);
    });
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
      <Field label="Organization name" hint={NAME_HINT} error={error}>
        {(control) => <Input {...control} name="name" placeholder="e.g. Acme Trading" maxLength={80} required autoFocus />}
      </Field>
      <div>
        <Button type="submit" loading={busy}>
          Create organization
        </Button>
      </div>
    </form>
  );
}
