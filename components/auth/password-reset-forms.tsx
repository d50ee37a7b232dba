"use client";

import Link from "next/link";
import { useState } from "react";
import { requestPasswordResetAction, resetPasswordAction } from "@/lib/platform/actions/password-reset";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";
import { refusalOn, useAccountForm } from "./use-account-form";

/** "Forgot password?": asks for the email, then says the same thing whether or not it has an account. */
export function ForgotPasswordForm({ validForMinutes }: { validForMinutes: number }) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { error, fieldErrors, busy, submitWith } = useAccountForm();
  const onSubmit = submitWith(async (form) => {
    const result = await requestPasswordResetAction(form);
    if (!result.ok) return refusalOn(result, ["email"]);
    setSentTo(String(form.get("email") ?? "").trim());
    return null;
  });

  if (sentTo !== null) {
    return (
      <div className="flex flex-col gap-4">
        <Alert tone="success" title="Check your email">
          If an account uses <strong className="break-all">{sentTo}</strong>, we sent it a link to choose a new password. The link works once, for {validForMinutes} minutes.
        </Alert>
        <p className="text-sm text-zinc-600">Nothing arrived after a few minutes? Check your spam folder, or ask again.</p>
        <Link href="/sign-in" className={buttonClasses({ variant: "secondary", className: "w-full" })}>
          Back to sign in
        </Link>
      </div>
    );
  }

  return (
    <form method="post" onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
      {error ? <Alert tone="danger">{error}</Alert> : null}
      <Field label="Email" hint="The address you sign in with." error={fieldErrors.email}>
        {(control) => <Input {...control} name="email" type="email" autoComplete="email" required autoFocus />}
      </Field>
      <Button type="submit" loading={busy} className="w-full">
        Email me a link
      </Button>
      <p className="text-center text-sm text-zinc-600">
        Remembered it?{" "}
        <Link href="/sign-in" className="font-medium text-accent-700 underline">
          Sign in
        </Link>
      </p>
    </form>
  );
}

/** The emailed link's page: the new password twice; on success every session of the account has ended. */
export function ResetPasswordForm({ token, passwordMinLength }: { token: string; passwordMinLength: number }) {
  const [done, setDone] = useState(false);
  const { error, fieldErrors, busy, submitWith } = useAccountForm();
  const onSubmit = submitWith(async (form) => {
    const result = await resetPasswordAction(form);
    if (!result.ok) return refusalOn(result, ["password", "confirm"]);
    setDone(true);
    return null;
  });

  if (done) {
    return (
      <div className="flex flex-col gap-4">
        <Alert tone="success" title="Your password is changed">
          Every browser that was signed in to your account has been signed out. Sign in with the new password.
        </Alert>
        <Link href="/sign-in" className={buttonClasses({ className: "w-full" })}>
          Sign in
        </Link>
      </div>
    );
  }

  return (
    <form method="post" onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
      {error ? <Alert tone="danger">{error}</Alert> : null}
      <input type="hidden" name="token" value={token} />
      <Field label="New password" hint={`At least ${passwordMinLength} characters.`} error={fieldErrors.password}>
        {(control) => <Input {...control} name="password" type="password" autoComplete="new-password" required minLength={passwordMinLength} autoFocus />}
      </Field>
      <Field label="New password again" error={fieldErrors.confirm}>
        {(control) => <Input {...control} name="confirm" type="password" autoComplete="new-password" required />}
      </Field>
      <Button type="submit" loading={busy} className="w-full">
        Set the new password
      </Button>
      <p className="text-xs text-zinc-500">Setting it signs you out everywhere, this browser included.</p>
    </form>
  );
}
