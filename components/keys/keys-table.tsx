import type { ReactNode } from "react";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { KeyAccess, KeyHint, KeySpend, KeyStatus } from "./key-details";
import type { KeyRow } from "./types";

/** Wide screens: one row per key, every action in view. `actions` is absent for a viewer who cannot change keys. */
export function KeysTable({ keys, actions }: { keys: KeyRow[]; actions?: (key: KeyRow) => ReactNode }) {
  return (
    <div className="hidden lg:block">
      <Table caption="API keys">
        <THead>
          <TR>
            <TH>Name</TH>
            <TH>Status</TH>
            <TH>Access</TH>
            <TH>Spent (UTC)</TH>
            <TH>Created · last used</TH>
            {actions ? (
              <TH>
                <span className="sr-only">Actions</span>
              </TH>
            ) : null}
          </TR>
        </THead>
        <TBody>
          {keys.map((key) => (
            <TR key={key.id} data-key-hint={key.hint}>
              <TD className="max-w-56">
                <div className="font-medium break-words text-zinc-900">{key.name}</div>
                <KeyHint hint={key.hint} />
              </TD>
              <TD>
                <KeyStatus keyRow={key} />
              </TD>
              <TD className="min-w-40">
                <KeyAccess keyRow={key} />
              </TD>
              <TD className="whitespace-nowrap text-zinc-600">
                <KeySpend keyRow={key} />
              </TD>
              <TD className="text-xs whitespace-nowrap text-zinc-600">
                <div>{key.createdAt}</div>
                <div className="max-w-44 truncate text-zinc-500" title={key.createdBy}>
                  by {key.createdBy}
                </div>
                <div className="mt-1">Used: {key.lastUsedAt ?? "never"}</div>
              </TD>
              {actions ? <TD>{actions(key)}</TD> : null}
            </TR>
          ))}
        </TBody>
      </Table>
    </div>
  );
}
