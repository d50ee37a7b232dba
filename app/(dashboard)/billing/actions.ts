"use server";

import { revalidatePath } from "next/cache";
import { runAction } from "@/lib/auth/action";
import { parseTopUpAmount, startTopUp } from "@/lib/billing/checkout";
import { billingConfig, getStripe } from "@/lib/billing/stripe";
import { DomainError } from "@/lib/orgs";
import { requireAccess } from "@/lib/platform/access";
import { setLowBalanceThreshold } from "@/lib/platform/billing";
import { requestOrigin } from "@/lib/utils/request-origin";

/** Opens a Stripe Checkout Session for the amount; the browser then goes to its URL. */
export async function startTopUpAction(orgId: string, amount: string, requestKey: string) {
  return runAction(async ({ db, principal }) => {
    await requireAccess(db, principal, orgId, "billing:manage");
    const parsed = parseTopUpAmount(amount);
    if (!parsed.ok) throw new DomainError("invalid_amount", parsed.error);
    const config = billingConfig();
    if (!config.configured) throw new DomainError("billing_not_configured", config.reason);
    return startTopUp(db, getStripe(config), {
      orgId,
      userId: principal!.userId,
      amountCents: parsed.cents,
      origin: await requestOrigin({ preferConfigured: true }),
      requestKey,
      ip: principal!.ip ?? null,
    });
  });
}

export async function setThresholdAction(orgId: string, threshold: string) {
  const result = await runAction(async ({ db, principal }) => {
    const org = await setLowBalanceThreshold(db, principal, orgId, threshold);
    return { thresholdNanos: org.lowBalanceThresholdNanos?.toString() ?? null };
  });
  if (result.ok) revalidatePath("/", "layout");
  return result;
}
