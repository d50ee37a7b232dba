"use server";

import { after } from "next/server";
import { requestPasswordReset, resetPassword } from "@/lib/auth/password-reset";
import { DomainError } from "@/lib/errors";
import { getAppRateLimiter } from "@/lib/runtime/rate-limiter";
import { requestOrigin } from "@/lib/utils/request-origin";
import { formObject, runAction } from "../action";

/**
 * The origin a reset link starts with. A link in an email must never start
 * with a Host header the asker chose, so in production it is NEXTAUTH_URL
 * (the address the operator publishes), and only in development the
 * request's own.
 */
async function linkOrigin(): Promise<string> {
  if (process.env.NODE_ENV === "production" && !process.env.NEXTAUTH_URL?.trim()) {
    throw new DomainError("email_not_configured", "Password reset by email is not set up on this server (its public address is not configured). Ask the operator.");
  }
  return requestOrigin({ preferConfigured: true });
}

/** "Forgot password?": the same answer whether or not the address has an account; the link and email are made after answering. */
export async function requestPasswordResetAction(form: FormData) {
  return runAction(async ({ db, ip }) => {
    const defer = (work: () => Promise<void>) =>
      after(() => work().catch((error: Error) => console.error("[password-reset] could not issue a link:", error.message)));
    await requestPasswordReset(db, await getAppRateLimiter(), formObject(form), ip, { origin: await linkOrigin(), defer });
    return null;
  });
}

/** Sets the new password with the emailed link; every session of the account ends. */
export async function resetPasswordAction(form: FormData) {
  return runAction(async ({ db, ip }) => {
    const { email } = await resetPassword(db, formObject(form), ip);
    return { email };
  });
}
