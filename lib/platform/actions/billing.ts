"use server";

import { getStripe } from "@/lib/billing/stripe";
import { requestOrigin } from "@/lib/utils/request-origin";
import { runAction } from "../action";
import { removeOrgCard, setOrgAutoRecharge, startOrgCardSetup, turnOffOrgAutoRecharge } from "../auto-recharge";
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

/** Opens Stripe Checkout in setup mode; the browser then goes to its URL to save a card. */
export async function startCardSetupAction(orgId: string, requestKey: string) {
  return runAction(async ({ db, principal }) =>
    startOrgCardSetup(db, () => getStripe(), principal, orgId, { origin: await requestOrigin({ preferConfigured: true }), requestKey }),
  );
}

export async function setAutoRechargeAction(orgId: string, input: { threshold: string; amount: string; maxPerDay: string }) {
  return runAction(async ({ db, principal }) => {
    await setOrgAutoRecharge(db, principal, orgId, input);
    return null;
  }, { revalidate: "/billing" });
}

export async function turnOffAutoRechargeAction(orgId: string) {
  return runAction(async ({ db, principal }) => {
    await turnOffOrgAutoRecharge(db, principal, orgId);
    return null;
  }, { revalidate: "/billing" });
}

export async function removeCardAction(orgId: string) {
  return runAction(async ({ db, principal }) => {
    await removeOrgCard(db, () => getStripe(), principal, orgId);
    return null;
  }, { revalidate: "/billing" });
}
