"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog, Dialog } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/field";
import { lockUserAction, setPlatformAdminAction, unlockUserAction } from "@/lib/platform/actions/admin-users";

export interface UserActionTarget {
  id: string;
  email: string;
  locked: boolean;
  deleted: boolean;
  isPlatformAdmin: boolean;
  liveSessions: number;
}

type Confirming = "grant" | "revoke" | null;

const sessions = (n: number) => `${n} live session${n === 1 ? "" : "s"}`;

/** Lock or unlock a user, and grant or revoke the platform-administrator flag; each asks first. */
export function UsersActions({ user, self }: { user: UserActionTarget; self: boolean }) {
  const router = useRouter();
  const [locking, setLocking] = useState(false);
  const [lockError, setLockError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const [message, setMessage] = useState<{ tone: "success" | "danger"; text: string } | null>(null);
  const [busy, startTransition] = useTransition();

  function act<T>(run: () => Promise<{ ok: true; data: T } | { ok: false; error: string }>, done: (data: T) => string, onError: (error: string) => void, close: () => void) {
    startTransition(async () => {
      const result = await run();
      startTransition(() => {
        if (result.ok) {
          close();
          setMessage({ tone: "success", text: done(result.data) });
          router.refresh();
        } else {
          onError(result.error);
        }
      });
    });
  }

  function lock(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get("reason") ?? "");
    act(
      () => lockUserAction(user.id, { reason }),
      (data) => `${data.email} is locked; ${data.endedSessions} session${data.endedSessions === 1 ? "" : "s"} ended.`,
      setLockError,
      () => setLocking(false),
    );
  }

  function unlock() {
    act(
      () => unlockUserAction(user.id),
      (data) => (data.changed ? `${data.email} may sign in again.` : `${data.email} was not locked.`),
      (error) => setMessage({ tone: "danger", text: error }),
      () => {},
    );
  }

  function setAdmin(grant: boolean) {
    act(
      () => setPlatformAdminAction(user.id, grant),
      (data) => `${data.email} is ${data.changed ? "now" : "already"} ${data.isPlatformAdmin ? "a platform administrator" : "not a platform administrator"}.`,
      setConfirmError,
      () => setConfirming(null),
    );
  }

  const canLock = !user.locked && !user.deleted && !self;
  return (
    <section aria-labelledby="user-actions" className="flex flex-col gap-3 border-t border-zinc-100 pt-4">
      <h3 id="user-actions" className="text-sm font-semibold text-zinc-900">
        Actions
      </h3>
      <div aria-live="polite">{message ? <Alert tone={message.tone}>{message.text}</Alert> : null}</div>
      {self ? <p className="text-sm text-zinc-600">This is you: another administrator has to lock you or remove your administrator flag.</p> : null}
      {user.deleted ? <p className="text-sm text-zinc-600">This account was deleted: it cannot sign in, and there is nothing to change.</p> : null}
      <div className="flex flex-wrap gap-2">
        {canLock ? (
          <Button
            variant="danger"
            onClick={() => {
              setLockError(null);
              setLocking(true);
            }}
          >
            Lock user…
          </Button>
        ) : null}
        {user.locked ? (
          <Button variant="secondary" onClick={unlock} loading={busy && !locking && confirming === null}>
            Unlock user
          </Button>
        ) : null}
        {!user.deleted && !user.isPlatformAdmin ? (
          <Button
            variant="secondary"
            onClick={() => {
              setConfirmError(null);
              setConfirming("grant");
            }}
          >
            Make platform administrator…
          </Button>
        ) : null}
        {user.isPlatformAdmin && !self ? (
          <Button
            variant="danger-ghost"
            onClick={() => {
              setConfirmError(null);
              setConfirming("revoke");
            }}
          >
            Remove administrator flag…
          </Button>
        ) : null}
      </div>

      <Dialog
        open={locking}
        onClose={() => setLocking(false)}
        title={`Lock ${user.email}?`}
        description={`They cannot sign in until unlocked, and their ${sessions(user.liveSessions)} end at once. Their organizations, keys and credit are not touched.`}
      >
        <form onSubmit={lock} className="flex flex-col gap-4" noValidate>
          <Field label="Reason" hint="Kept in the audit log and shown in this console." error={lockError}>
            {(control) => <Input {...control} name="reason" required minLength={3} maxLength={500} autoComplete="off" data-autofocus />}
          </Field>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => setLocking(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" loading={busy}>
              Lock and sign out
            </Button>
          </div>
        </form>
      </Dialog>

      <ConfirmDialog
        open={confirming !== null}
        title={confirming === "grant" ? `Make ${user.email} a platform administrator?` : `Remove ${user.email} as platform administrator?`}
        description={
          confirming === "grant"
            ? "They will see every organization and user, and can change plans, prices, credit and keys, lock people and appoint other administrators. It takes effect on their next request."
            : "They lose the console on their very next request; their own account and organizations stay as they are."
        }
        confirmLabel={confirming === "grant" ? "Make administrator" : "Remove flag"}
        confirmVariant={confirming === "grant" ? "primary" : "danger"}
        busy={busy}
        error={confirmError}
        onCancel={() => setConfirming(null)}
        onConfirm={() => setAdmin(confirming === "grant")}
      />
    </section>
  );
}
