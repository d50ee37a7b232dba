"use client";

import { useState, useTransition, type FormEvent } from "react";
import { createKeyAction } from "@/lib/platform/actions/keys";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/field";
import { earliestKeyExpiryDay, latestKeyExpiryDay } from "@/lib/keys/expiry";
import { EndpointChoices, FormButtons } from "./key-form-parts";
import type { EndpointOption } from "./types";

export function CreateKeyDialog({
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
          {(control) => <Input {...control} name="expiresOn" type="date" min={earliestKeyExpiryDay()} max={latestKeyExpiryDay()} className="sm:w-48" />}
        </Field>
        <EndpointChoices endpoints={endpoints} selected={selected} onChange={setSelected} />
        <FormButtons busy={busy} onCancel={onClose} submitLabel="Create key" />
      </form>
    </Dialog>
  );
}

