"use server";

import { revalidatePath } from "next/cache";
import { runAction } from "@/lib/auth/action";
import { createOrgKey, deleteOrgKey, restrictOrgKey, setOrgKeyStatus } from "@/lib/platform/keys";

/**
 * The keys page's actions. Each one names the organization it acts in; the
 * domain checks the session user's membership and role there, and that the
 * key belongs to it.
 */

export async function createKeyAction(orgId: string, input: { name: string; endpoints: string[] }) {
  const result = await runAction(({ db, principal }) => createOrgKey(db, principal, orgId, input));
  if (result.ok) revalidatePath("/keys");
  return result;
}

export async function setKeyStatusAction(orgId: string, keyId: string, status: "ACTIVE" | "DISABLED") {
  const result = await runAction(async ({ db, principal }) => {
    await setOrgKeyStatus(db, principal, orgId, keyId, status === "ACTIVE" ? "ACTIVE" : "DISABLED");
    return null;
  });
  if (result.ok) revalidatePath("/keys");
  return result;
}

export async function deleteKeyAction(orgId: string, keyId: string) {
  const result = await runAction(async ({ db, principal }) => {
    await deleteOrgKey(db, principal, orgId, keyId);
    return null;
  });
  if (result.ok) revalidatePath("/keys");
  return result;
}

export async function restrictKeyAction(orgId: string, keyId: string, endpoints: string[]) {
  const result = await runAction(async ({ db, principal }) => {
    await restrictOrgKey(db, principal, orgId, keyId, endpoints);
    return null;
  });
  if (result.ok) revalidatePath("/keys");
  return result;
}
