"use server";

import { headers } from "next/headers";
import { getApiContext } from "@/lib/api/context";
import { formObject, runAction } from "@/lib/auth/action";
import { signUp } from "@/lib/auth/accounts";
import { DomainError } from "@/lib/orgs";
import { clientIp } from "@/lib/utils/client-ip";

/** Accounts one address may create per hour (SIGN_UPS_PER_IP_PER_HOUR; the browser tests raise it). */
const signUpsPerIpPerHour = () => Number(process.env.SIGN_UPS_PER_IP_PER_HOUR ?? 10);

/** Creates the account; the form then signs in through next-auth with the same credentials. */
export async function signUpAction(form: FormData) {
  return runAction(async ({ db }) => {
    const ip = clientIp(await headers());
    const { rateLimiter } = await getApiContext();
    const decision = await rateLimiter.hit(`signup:ip:${ip}`, signUpsPerIpPerHour(), new Date(), 60 * 60 * 1000);
    if (!decision.allowed) throw new DomainError("rate_limited", "Too many accounts were created from your network. Try again in an hour.");
    const { user } = await signUp(db, formObject(form), ip);
    return { email: user.email };
  });
}
