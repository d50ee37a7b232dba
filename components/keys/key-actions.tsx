import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils/cn";
import type { KeyRow, Pending } from "./types";

/** A key's buttons: settings, roll, end grace, disable or enable, delete. */
export function KeyActions({
  keyRow,
  busy,
  onSettings,
  onRoll,
  onConfirm,
  onEnable,
  align = "end",
}: {
  keyRow: KeyRow;
  busy: boolean;
  onSettings: (key: KeyRow) => void;
  onRoll: (key: KeyRow) => void;
  onConfirm: (pending: Pending) => void;
  onEnable: (key: KeyRow) => void;
  align?: "start" | "end";
}) {
  const rollable = keyRow.status === "ACTIVE" && !keyRow.rolled && !keyRow.expired;
  return (
    // In the table (align end) the buttons stay on one line: "Delete" wrapped under the others at 1280 px.
    <div className={cn("flex gap-1", align === "end" ? "flex-nowrap justify-end" : "-ml-3 flex-wrap justify-start")}>
      <Button size="sm" variant="ghost" onClick={() => onSettings(keyRow)} aria-label={`Settings of ${keyRow.name}`}>
        Settings
      </Button>
      {rollable ? (
        <Button size="sm" variant="ghost" onClick={() => onRoll(keyRow)} aria-label={`Roll ${keyRow.name}`}>
          Roll
        </Button>
      ) : null}
      {keyRow.rolled && !keyRow.expired ? (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => onConfirm({ kind: "end-grace", key: keyRow })}
          aria-label={`End the grace period of the old ${keyRow.name} (${keyRow.hint}…)`}
        >
          End grace
        </Button>
      ) : null}
      {keyRow.platformReason !== null ? null : keyRow.status === "ACTIVE" ? (
        <Button size="sm" variant="ghost" onClick={() => onConfirm({ kind: "disable", key: keyRow })} aria-label={`Disable ${keyRow.name}`}>
          Disable
        </Button>
      ) : (
        <Button size="sm" variant="ghost" disabled={busy} onClick={() => onEnable(keyRow)} aria-label={`Enable ${keyRow.name}`}>
          Enable
        </Button>
      )}
      <Button
        size="sm"
        variant="danger-ghost"
        onClick={() => onConfirm({ kind: "delete", key: keyRow })}
        aria-label={`Delete ${keyRow.name}`}
      >
        Delete
      </Button>
    </div>
  );
}
