"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { signUpAction } from "@/lib/platform/actions/accounts";
import { authErrorMessage } from "./auth-errors";
import { refusalOn, useAccountForm } from "./use-account-form";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { Field, Input } from "@/components/ui/field";


/** Signs in with the form's email and password through next-auth's credentials endpoint and goes on to `destination` (a checked, local path); otherwise the problem in words. */
async function signInAndGo(router: ReturnType<typeof useRouter>, form: FormData, destination: string): Promise<string | null> {
  const result = await signIn("credentials", { email: String(form.get("email") ?? ""), password: String(form.get("password") ?? ""), redirect: false });
  if (!result) return "Sign-in failed. Try again.";
  if (!result.ok || result.error) return authErrorMessage(result.error);
  router.replace(destination);
  router.refresh();
  return null;
}

export function SignInForm({ returnTo, providers, initialError }: { returnTo: string; providers: { id: string; name: string }[]; initialError: string | null }) {
  const router = useRouter();
  const { error, busy, submitWith } = useAccountForm(initialError);
  const onSubmit = submitWith(async (form) => {
    const problem = await signInAndGo(router, form, returnTo);
    return problem ? { error: problem } : null;
  });

  return (
    <div className="flex flex-col gap-5">
      <form method="post" onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
        {error ? <Alert tone="danger">{error}</Alert> : null}
        <Field label="Email">{(control) => <Input {...control} name="email" type="email" autoComplete="email" required autoFocus />}</Field>
        <Field label="Password">{(control) => <Input {...control} name="password" type="password" autoComplete="current-password" required />}</Field>
        <Link href="/forgot-password" className="-mt-2 self-end text-sm font-medium text-accent-700 underline">
          Forgot password?
        </Link>
        <Button type="submit" loading={busy} className="w-full">
          Sign in
        </Button>
      </form>
      <OAuthButtons providers={providers} returnTo={returnTo} />
      <p className="text-center text-sm text-zinc-600">
        New here?{" "}
        <Link href={`/sign-up${returnTo !== "/dashboard" ? `?callbackUrl=${encodeURIComponent(returnTo)}` : ""}`} className="font-medium text-accent-700 underline">
          Create an account
        </Link>
      </p>
    </div>
  );
}

/** The invitation a sign-up came through: its token travels with the form, its address (when it names one) is the account's. */
export interface SignUpInvitation {
  token: string;
  orgName: string;
  role: string;
  email: string | null;
}

export function SignUpForm({
  returnTo,
  providers,
  passwordMinLength,
  invitation = null,
}: {
  returnTo: string;
  providers: { id: string; name: string }[];
  passwordMinLength: number;
  invitation?: SignUpInvitation | null;
}) {
  const router = useRouter();
  const { error, fieldErrors, busy, submitWith } = useAccountForm();
  const onSubmit = submitWith(async (form) => {
    const created = await signUpAction(form);
    if (!created.ok) return refusalOn(created, ["name", "email", "password"]);
    const problem = await signInAndGo(router, form, returnTo === "/dashboard" ? "/keys?welcome=1" : returnTo);
    return problem ? { error: `Your account was created, but signing in failed: ${problem}` } : null;
  });

  return (
    <div className="flex flex-col gap-5">
      <form method="post" onSubmit={onSubmit} className="flex flex-col gap-4" noValidate>
        {error ? <Alert tone="danger">{error}</Alert> : null}
        <Field label="Name (optional)" error={fieldErrors.name}>
          {(control) => <Input {...control} name="name" autoComplete="name" autoFocus />}
        </Field>
        {invitation ? <input type="hidden" name="invite" value={invitation.token} /> : null}
        <Field label="Work email" error={fieldErrors.email} hint={invitation?.email ? "The invitation is for this address." : undefined}>
          {(control) => (
            <Input {...control} name="email" type="email" autoComplete="email" required defaultValue={invitation?.email ?? undefined} readOnly={Boolean(invitation?.email)} />
          )}
        </Field>
        <Field label="Password" hint={`At least ${passwordMinLength} characters.`} error={fieldErrors.password}>
          {(control) => <Input {...control} name="password" type="password" autoComplete="new-password" required minLength={passwordMinLength} />}
        </Field>
        <Button type="submit" loading={busy} className="w-full">
          Create account
        </Button>
        <p className="text-xs text-zinc-500">
          {invitation
            ? `You join ${invitation.orgName} as ${invitation.role}; no organization of your own is made (you can create one later).`
            : "You start on the Trial plan with your own organization. Credits are bought in advance; nothing is charged automatically."}
        </p>
      </form>
      {invitation ? null : <OAuthButtons providers={providers} returnTo={returnTo} />}
      <p className="text-center text-sm text-zinc-600">
        Already have an account?{" "}
        <Link href="/sign-in" className="font-medium text-accent-700 underline">
          Sign in
        </Link>
      </p>
    </div>
  );
}

function OAuthButtons({ providers, returnTo }: { providers: { id: string; name: string }[]; returnTo: string }) {
  if (providers.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center gap-3 text-xs text-zinc-500" aria-hidden="true">
        <span className="h-px flex-1 bg-zinc-200" />
        or
        <span className="h-px flex-1 bg-zinc-200" />
      </div>
      {providers.map((provider) => (
        <button key={provider.id} type="button" className={buttonClasses({ variant: "secondary", className: "w-full" })} onClick={() => signIn(provider.id, { callbackUrl: returnTo })}>
          Continue with {provider.name}
        </button>
      ))}
    </div>
  );
}
