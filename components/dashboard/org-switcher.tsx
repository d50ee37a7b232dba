"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { switchOrganization } from "@/lib/platform/actions/organizations";

export interface OrgOption {
  id: string;
  name: string;
  role: string;
}

/** Choose the organization the dashboard shows; "New organization…" creates another. */
export function OrgSwitcher({ options, currentId }: { options: OrgOption[]; currentId: string | null }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="flex min-w-0 flex-1 items-center gap-2">
      <label htmlFor="org-switcher" className="sr-only">
        Organization
      </label>
      <select
        id="org-switcher"
        value={currentId ?? ""}
        disabled={pending}
        onChange={(event) => {
          const value = event.target.value;
          if (value === "__new") return router.push("/organizations/new");
          startTransition(async () => {
            const result = await switchOrganization(value);
            if (!result.ok) setError(result.error);
            else router.refresh();
          });
        }}
        // As wide as the chosen name (field-sizing), never wider than the header leaves it.
        className="field-sizing-content h-9 max-w-full min-w-0 truncate rounded-md border border-zinc-300 bg-white pr-7 pl-2 text-sm font-medium text-zinc-900 shadow-sm"
      >
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name} ({option.role})
          </option>
        ))}
        <option value="__new">New organization…</option>
      </select>
      {error ? (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      ) : null}
    </div>
  );
}
