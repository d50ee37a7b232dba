import type { Metadata } from "next";
import Link from "next/link";
import { ForgotPasswordForm } from "@/components/auth/password-reset-forms";
import { Alert } from "@/components/ui/alert";
import { Card, CardContent } from "@/components/ui/card";
import { EMAIL_NOT_CONFIGURED, PASSWORD_RESET_TTL_MS } from "@/lib/auth/password-reset";
import { emailConfigured } from "@/lib/email";

export const metadata: Metadata = { title: "Forgot password" };
// Whether this server sends email is read when the page is asked for, not when it was built.
export const dynamic = "force-dynamic";

export default function ForgotPasswordPage() {
  return (
    <>
      <h1 className="mb-2 text-center text-2xl font-semibold tracking-tight">Forgot your password?</h1>
      <p className="mb-6 text-center text-sm text-zinc-600">We will email you a link to choose a new one.</p>
      <Card>
        <CardContent className="py-6">
          {emailConfigured() ? (
            <ForgotPasswordForm validForMinutes={PASSWORD_RESET_TTL_MS / 60_000} />
          ) : (
            <div className="flex flex-col gap-4">
              <Alert tone="warning">{EMAIL_NOT_CONFIGURED}</Alert>
              <Link href="/sign-in" className="text-center text-sm font-medium text-accent-700 underline">
                Back to sign in
              </Link>
            </div>
          )}
        </CardContent>
      </Card>
    </>
  );
}
