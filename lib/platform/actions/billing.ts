"use server";

import { getStripe } from "@/lib/billing/stripe";
import { requestOrigin } from "@/lib/utils/request-origin";
import { runAction } from "../action";
import { setLowBalanceThreshold, setOrgSpendCapsFromForm, startOrgTopUp } from "../billing";

/** Opens a Stripe Checkout Session for the amount; the browser then goes to its URL. */
export async function startTopUpAction(orgId: string, amount: string, requestKey: string) {
  return runAction(async ({ db, principal }) =>
    startOrgTopUp(db, () => getStripe(), principal, orgId, { amount, origin: await requestOrigin({ preferConfigured: true }), requestKey }),
  );
}

export async function setThresholdAction(orgId: string, threshold: string) {
  return runAction(async ({ db, principal }) => {
    const org = await setLowBalanceThreshold(db, principal, orgId, threshold);
    return { thresholdNanos: org.lowBalanceThresholdNanos?.toString() ?? null };
  }, { revalidate: "layout" });
}

export async function setSpendCapsAction(orgId: string, input: { dailyCap: string; monthlyCap: string }) {
  return runAction(async ({ db, principal }) => {
    await setOrgSpendCapsFromForm(db, principal, orgId, input);
    return null;
  }, { revalidate: "/billing" });
}
