"use client";

import { signOut } from "next-auth/react";
import { useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Checkbox, Field, Input } from "@/components/ui/field";
import { deleteAccountAction } from "@/lib/platform/actions/accounts";
import { closeOrganizationAction } from "@/lib/platform/actions/organizations";

/** Closing the organization: its name typed, and its remaining credit forfeited only when ticked. */
export function CloseOrganization({ orgId, orgName, creditText, hasCredit }: { orgId: string; orgName: string; creditText: string; hasCredit: boolean }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [forfeit, setForfeit] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();
  const ready = name.trim() === orgName && (!hasCredit || forfeit);

  function close() {
    startTransition(async () => {
      const result = await closeOrganizationAction(orgId, { confirmName: name, forfeitCredit: forfeit });
      if (result && !result.ok) setError(result.error);
    });
  }

  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        Close organization
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title={`Close ${orgName}?`}
        description="Its keys stop working at once and every member loses access. Its usage, billing history and audit log are kept."
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={busy}>
              Cancel
            </Button>
            <Button variant="danger" onClick={close} loading={busy} disabled={!ready}>
              Close organization
            </Button>
          </>
        }
      >
        <div className="flex flex-col gap-4">
          {error ? <Alert tone="danger">{error}</Alert> : null}
          {hasCredit ? (
            <Checkbox
              checked={forfeit}
              onChange={(event) => setForfeit(event.target.checked)}
              label={`Forfeit the remaining ${creditText} of credit`}
              description="Credit is not refunded when an organization closes."
            />
          ) : (
            <p className="text-sm text-zinc-700">It has no credit left to forfeit ({creditText}).</p>
          )}
          <Field label={`Type “${orgName}” to confirm`}>
            {(control) => <Input {...control} value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" data-autofocus />}
          </Field>
        </div>
      </Dialog>
    </>
  );
}

/** Deleting one's account: refused up front while they are an organization's only owner; their email typed otherwise. */
export function DeleteAccount({ email, blockedReason }: { email: string; blockedReason: string | null }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();

  function remove() {
    startTransition(async () => {
      const result = await deleteAccountAction({ confirmEmail: typed });
      if (!result.ok) return setError(result.error);
      await signOut({ callbackUrl: "/" });
    });
  }

  return (
    <div className="flex flex-col gap-3">
      {blockedReason ? (
        <p id="delete-account-blocked" className="text-sm text-zinc-700">
          {blockedReason}
        </p>
      ) : null}
      <div>
        <Button variant="danger" onClick={() => setOpen(true)} disabled={blockedReason !== null} aria-describedby={blockedReason ? "delete-account-blocked" : undefined}>
          Delete my account
        </Button>
      </div>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Delete your account?"
        description="You leave every organization, your sign-in ends everywhere, and your name, email and password are erased. This cannot be undone."
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={busy}>
              Cancel
            </Button>
            <Button variant="danger" onClick={remove} loading={busy} disabled={typed.trim().toLowerCase() !== email}>
              Delete my account
            </Button>
          </>
        }
      >
        <div className="flex flex-col gap-4">
          {error ? <Alert tone="danger">{error}</Alert> : null}
          <Field label={`Type your email, ${email}, to confirm`}>
            {(control) => <Input {...control} type="email" value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" data-autofocus />}
          </Field>
        </div>
      </Dialog>
    </div>
  );
}
