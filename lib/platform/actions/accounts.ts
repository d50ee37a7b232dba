"use server";

import { getAppRateLimiter } from "@/lib/runtime/rate-limiter";
import { formObject, runAction } from "../action";
import { signUpFromAddress } from "../accounts";

/** Creates the account; the form then signs in through next-auth with the same credentials. */
export async function signUpAction(form: FormData) {
  return runAction(async ({ db, ip }) => {
    const { user } = await signUpFromAddress(db, await getAppRateLimiter(), formObject(form), ip);
    return { email: user.email };
  });
}
