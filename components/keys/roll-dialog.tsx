"use client";

import { useState, useTransition } from "react";
import { rollKeyAction } from "@/lib/platform/actions/keys";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import type { KeyRow } from "./types";

const GRACE_CHOICES = [
  { seconds: 0, label: "None", description: "The old key is refused at once." },
  { seconds: 3600, label: "1 hour", description: "Time to swap the key in one place." },
  { seconds: 86_400, label: "24 hours", description: "Time for a daily deploy." },
  { seconds: 7 * 86_400, label: "7 days", description: "Time to update every client." },
];

/** A new key with the same settings, shown once; the old one works for the grace period chosen. */
export function RollDialog({
  orgId,
  keyRow,
  onClose,
  onRolled,
}: {
  orgId: string;
  keyRow: KeyRow | null;
  onClose: () => void;
  onRolled: (created: { key: string; name: string; note: string }) => void;
}) {
  const [grace, setGrace] = useState(3600);
  const [error, setError] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();

  function roll() {
    startTransition(async () => {
      const result = await rollKeyAction(orgId, keyRow!.id, grace);
      if (!result.ok) return setError(result.error);
      const until = result.data.oldExpiresAt ? new Date(result.data.oldExpiresAt).toISOString().replace("T", " ").slice(0, 16) + " UTC" : null;
      onRolled({
        key: result.data.key,
        name: result.data.name,
        note:
          grace === 0 || !until
            ? `The old key ${keyRow!.hint}… no longer works.`
            : `The old key ${keyRow!.hint}… keeps working until ${until}; then it is refused with 401 api_key_expired.`,
      });
    });
  }

  return (
    <Dialog
      open={keyRow !== null}
      onClose={onClose}
      title={`Roll “${keyRow?.name ?? ""}”?`}
      description="You get a new key with the same name, endpoints, allowed addresses and spend caps, shown once. The old key keeps working for the grace period you choose."
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button loading={busy} onClick={roll}>
            Roll key
          </Button>
        </>
      }
    >
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-zinc-800">Grace period for the old key</legend>
        {GRACE_CHOICES.map((choice) => (
          <label key={choice.seconds} className="flex items-start gap-3 text-sm text-zinc-800">
            <input
              type="radio"
              name="grace"
              value={choice.seconds}
              checked={grace === choice.seconds}
              onChange={() => setGrace(choice.seconds)}
              className="mt-0.5 size-4 accent-accent-600"
            />
            <span>
              {choice.label}
              <span className="block text-xs text-zinc-500">{choice.description}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {error ? <Alert tone="danger">{error}</Alert> : null}
    </Dialog>
  );
}
