"use server";

import { addAlertRule, addWebhookEndpoint, removeAlertRule, removeWebhookEndpoint, sendWebhookTest, toggleWebhookEndpoint } from "../alerts";
import { runAction } from "../action";

/** The Alerts page's actions; the platform functions check the session's role in the organization named. */

export async function addAlertRuleAction(orgId: string, input: { kind: string; keyId: string; threshold: string }) {
  return runAction(async ({ db, principal }) => {
    await addAlertRule(db, principal, orgId, input);
    return null;
  }, { revalidate: "/alerts" });
}

export async function removeAlertRuleAction(orgId: string, ruleId: string) {
  return runAction(async ({ db, principal }) => {
    await removeAlertRule(db, principal, orgId, ruleId);
    return null;
  }, { revalidate: "/alerts" });
}

export async function addWebhookEndpointAction(orgId: string, input: { url: string; description: string }) {
  return runAction(({ db, principal }) => addWebhookEndpoint(db, principal, orgId, input), { revalidate: "/alerts" });
}

export async function toggleWebhookEndpointAction(orgId: string, endpointId: string, enabled: boolean) {
  return runAction(async ({ db, principal }) => {
    await toggleWebhookEndpoint(db, principal, orgId, endpointId, enabled);
    return null;
  }, { revalidate: "/alerts" });
}

export async function removeWebhookEndpointAction(orgId: string, endpointId: string) {
  return runAction(async ({ db, principal }) => {
    await removeWebhookEndpoint(db, principal, orgId, endpointId);
    return null;
  }, { revalidate: "/alerts" });
}

export async function sendWebhookTestAction(orgId: string, endpointId: string) {
  return runAction(async ({ db, principal }) => {
    await sendWebhookTest(db, principal, orgId, endpointId);
    return null;
  }, { revalidate: "/alerts" });
}
