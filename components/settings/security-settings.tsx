"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import { changePasswordAction, signOutOtherSessionsAction } from "@/lib/platform/actions/security";

const sessionsText = (count: number) => `${count} other session${count === 1 ? " was" : "s were"} signed out`;

export function ChangePasswordForm({ minLength }: { minLength: number }) {
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const input = { current: String(data.get("current") ?? ""), next: String(data.get("next") ?? "") };
    startTransition(async () => {
      const result = await changePasswordAction(input);
      if (!result.ok) {
        setDone(null);
        setFieldErrors(result.fieldErrors ?? (result.code === "wrong_password" ? { current: result.error } : {}));
        setError(result.fieldErrors || result.code === "wrong_password" ? null : result.error);
        return;
      }
      form.reset();
      setFieldErrors({});
      setError(null);
      setDone(`Password changed. ${result.data.endedSessions ? `${sessionsText(result.data.endedSessions)}.` : "No other session was signed in."}`);
    });
  }

  return (
    <form onSubmit={onSubmit} className="flex max-w-md flex-col gap-4" noValidate>
      {error ? <Alert tone="danger">{error}</Alert> : null}
      <Field label="Current password" error={fieldErrors.current}>
        {(control) => <Input {...control} name="current" type="password" autoComplete="current-password" required />}
      </Field>
      <Field label="New password" hint={`At least ${minLength} characters. Every other browser signed in to your account is signed out.`} error={fieldErrors.next}>
        {(control) => <Input {...control} name="next" type="password" autoComplete="new-password" minLength={minLength} required />}
      </Field>
      <div aria-live="polite">{done ? <Alert tone="success">{done}</Alert> : null}</div>
      <div>
        <Button type="submit" loading={busy}>
          Change password
        </Button>
      </div>
    </form>
  );
}

export interface SessionRow {
  id: string;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
  current: boolean;
}

/** "Chrome on Linux" from a user agent, or the raw text cut short. */
function browserOf(userAgent: string | null): string {
  if (!userAgent) return "Unknown browser";
  const browser = /Edg\//.test(userAgent) ? "Edge" : /Firefox\//.test(userAgent) ? "Firefox" : /Chrom(e|ium)\//.test(userAgent) ? "Chrome" : /Safari\//.test(userAgent) ? "Safari" : null;
  const system = /Windows/.test(userAgent) ? "Windows" : /Android/.test(userAgent) ? "Android" : /iPhone|iPad/.test(userAgent) ? "iOS" : /Mac OS X/.test(userAgent) ? "macOS" : /Linux/.test(userAgent) ? "Linux" : null;
  return browser ? `${browser}${system ? ` on ${system}` : ""}` : userAgent.slice(0, 60);
}

export function SessionList({ sessions }: { sessions: SessionRow[] }) {
  const router = useRouter();
  const [message, setMessage] = useState<{ tone: "success" | "danger"; text: string } | null>(null);
  const [busy, startTransition] = useTransition();
  const others = sessions.filter((s) => !s.current).length;

  function signOutOthers() {
    startTransition(async () => {
      const result = await signOutOtherSessionsAction();
      setMessage(result.ok ? { tone: "success", text: `Done: ${sessionsText(result.data.endedSessions)}.` } : { tone: "danger", text: result.error });
      router.refresh();
    });
  }

  return (
    <div className="flex flex-col gap-4">
      <ul className="divide-y divide-zinc-200 rounded-md border border-zinc-200">
        {sessions.map((session) => (
          <li key={session.id} className="flex flex-col gap-0.5 px-3 py-2.5 text-sm sm:flex-row sm:items-center sm:justify-between sm:gap-4">
            <span className="flex items-center gap-2 font-medium text-zinc-900">
              {browserOf(session.userAgent)}
              {session.current ? <Badge tone="accent">This browser</Badge> : null}
            </span>
            <span className="text-zinc-600">
              Signed in {session.createdAt}
              {session.ip ? ` from ${session.ip}` : ""}
            </span>
          </li>
        ))}
      </ul>
      <div aria-live="polite">{message ? <Alert tone={message.tone}>{message.text}</Alert> : null}</div>
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" onClick={signOutOthers} loading={busy} disabled={others === 0}>
          Sign out of all other sessions
        </Button>
        {others === 0 ? <span className="text-sm text-zinc-600">No other browser is signed in.</span> : null}
      </div>
    </div>
  );
}
