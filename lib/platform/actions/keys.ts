"use server";

import { configureOrgKey, createOrgKey, deleteOrgKey, endOrgKeyGrace, rollOrgKey, setOrgKeyStatus } from "../keys";
import { runAction } from "../action";
import { expiresOnText } from "@/lib/keys/expiry";
import { dollarsInputValue } from "@/lib/money";

/**
 * The keys page's actions. Each names the organization it acts in; the domain
 * checks the session user's membership and role there, and that the key
 * belongs to it.
 */

export async function createKeyAction(orgId: string, input: { name: string; endpoints: string[]; expiresOn: string }) {
  return runAction(({ db, principal }) => createOrgKey(db, principal, orgId, input), { revalidate: "/keys" });
}

export async function setKeyStatusAction(orgId: string, keyId: string, status: "ACTIVE" | "DISABLED") {
  return runAction(async ({ db, principal }) => {
    await setOrgKeyStatus(db, principal, orgId, keyId, status === "ACTIVE" ? "ACTIVE" : "DISABLED");
    return null;
  }, { revalidate: "/keys" });
}

export async function deleteKeyAction(orgId: string, keyId: string) {
  return runAction(async ({ db, principal }) => {
    await deleteOrgKey(db, principal, orgId, keyId);
    return null;
  }, { revalidate: "/keys" });
}

export async function configureKeyAction(
  orgId: string,
  keyId: string,
  input: { endpoints: string[]; allowedIps: string; dailyCap: string; monthlyCap: string; expiresOn?: string },
) {
  return runAction(async ({ db, principal }) => {
    const saved = await configureOrgKey(db, principal, orgId, keyId, input);
    // What was stored, as the form shows it: the page reopens the dialog from
    // this until its refreshed data arrives, never from the values before it.
    const capText = (nanos: bigint | null) => (nanos === null ? "" : dollarsInputValue(nanos));
    return {
      allowedEndpoints: saved.allowedEndpoints,
      allowedIps: saved.allowedIps,
      dailyCap: capText(saved.dailyCapNanos),
      monthlyCap: capText(saved.monthlyCapNanos),
      expiresOn: expiresOnText(saved.expiresAt),
    };
  }, { revalidate: "/keys" });
}

export async function rollKeyAction(orgId: string, keyId: string, graceSeconds: number) {
  return runAction(({ db, principal }) => rollOrgKey(db, principal, orgId, keyId, graceSeconds), { revalidate: "/keys" });
}

export async function endGraceAction(orgId: string, keyId: string) {
  return runAction(async ({ db, principal }) => {
    await endOrgKeyGrace(db, principal, orgId, keyId);
    return null;
  }, { revalidate: "/keys" });
}
