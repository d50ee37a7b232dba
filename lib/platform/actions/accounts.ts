"use server";

import { getAppRateLimiter } from "@/lib/runtime/rate-limiter";
import { formObject, runAction } from "../action";
import { deleteAccount, signUpFromAddress } from "../accounts";

/** Creates the account; the form then signs in through next-auth with the same credentials. */
export async function signUpAction(form: FormData) {
  return runAction(async ({ db, ip }) => {
    const { user } = await signUpFromAddress(db, await getAppRateLimiter(), formObject(form), ip);
    return { email: user.email };
  });
}

/** Deletes the signed-in user's account; the page then signs the browser out. */
export async function deleteAccountAction(input: { confirmEmail: string }) {
  return runAction(async ({ db, principal }) => {
    await deleteAccount(db, principal, input);
    return null;
  });
}
