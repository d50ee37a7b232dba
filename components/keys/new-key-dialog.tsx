import { ShownOnceDialog } from "@/components/ui/shown-once-dialog";

/** The only place the full key ever appears. Closing it lets the key go for good. */
export function NewKeyDialog({ created, onClose }: { created: { key: string; name: string; note?: string } | null; onClose: () => void }) {
  return (
    <ShownOnceDialog
      value={created?.key ?? null}
      title={`Your new key “${created?.name ?? ""}”`}
      description="Copy it now and keep it somewhere safe, like a password manager or your secrets store."
      warning={{ title: "This key will not be shown again.", body: "We keep only a fingerprint of it. If you lose it, create a new key and delete this one." }}
      note={created?.note}
      testId="new-api-key"
      copyLabel="Copy key"
      acknowledgement="I have copied the key and stored it safely."
      onClose={onClose}
    />
  );
}
