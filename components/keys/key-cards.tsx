import type { ReactNode } from "react";
import { KeyAccess, KeyHint, KeySpend, KeyStatus } from "./key-details";
import type { KeyRow } from "./types";

/** Narrow screens: one card per key, nothing scrolled out of sight. `actions` is absent for a viewer who cannot change keys. */
export function KeyCards({ keys, actions }: { keys: KeyRow[]; actions?: (key: KeyRow) => ReactNode }) {
  return (
    <ul className="divide-y divide-zinc-100 lg:hidden" aria-label="API keys">
      {keys.map((key) => (
        <li key={key.id} aria-label={key.name} data-key-hint={key.hint} className="flex flex-col gap-2 p-4">
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <div className="font-medium break-words text-zinc-900">{key.name}</div>
              <KeyHint hint={key.hint} />
            </div>
            <KeyStatus keyRow={key} />
          </div>
          <KeyAccess keyRow={key} />
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs text-zinc-600">
            <dt className="text-zinc-500">Spent</dt>
            <dd>
              <KeySpend keyRow={key} inline />
            </dd>
            <dt className="text-zinc-500">Created</dt>
            <dd className="min-w-0 break-words">
              {key.createdAt} by {key.createdBy}
            </dd>
            <dt className="text-zinc-500">Last used</dt>
            <dd>{key.lastUsedAt ?? "Never"}</dd>
          </dl>
          {actions ? actions(key) : null}
        </li>
      ))}
    </ul>
  );
}
