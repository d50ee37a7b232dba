"use client";

import { useState, type ReactNode } from "react";
import { Alert } from "./alert";
import { Button } from "./button";
import { CopyButton } from "./copy-button";
import { Dialog } from "./dialog";
import { Checkbox } from "./field";

/**
 * A secret shown once (an API key, a webhook signing secret): a copy button,
 * a warning, and "Done" only after the person says they stored it.
 */
export function ShownOnceDialog({
  value,
  title,
  description,
  warning,
  note,
  testId,
  copyLabel,
  acknowledgement,
  onClose,
}: {
  /** The secret; null closes the dialog. */
  value: string | null;
  title: string;
  description: string;
  warning: { title: string; body: ReactNode };
  note?: ReactNode;
  testId: string;
  copyLabel: string;
  acknowledgement: string;
  onClose: () => void;
}) {
  const [acknowledged, setAcknowledged] = useState(false);
  const close = () => {
    setAcknowledged(false);
    onClose();
  };
  return (
    <Dialog
      open={value !== null}
      onClose={close}
      dismissible={false}
      title={title}
      description={description}
      footer={
        <Button disabled={!acknowledged} onClick={close}>
          Done
        </Button>
      }
    >
      <Alert tone="warning" title={warning.title}>
        {warning.body}
      </Alert>
      {note ? <p className="text-sm text-zinc-700">{note}</p> : null}
      <div className="flex items-center gap-2 rounded-md border border-zinc-300 bg-zinc-50 p-2">
        <code data-testid={testId} className="min-w-0 flex-1 font-mono text-xs break-all text-zinc-900 select-all">
          {value}
        </code>
        {value ? <CopyButton value={value} label={copyLabel} /> : null}
      </div>
      <Checkbox checked={acknowledged} onChange={(event) => setAcknowledged(event.target.checked)} label={acknowledgement} />
    </Dialog>
  );
}
