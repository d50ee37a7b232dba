"use server";

import { revalidatePath } from "next/cache";
import { runAction } from "@/lib/auth/action";
import { setCurrentOrganization } from "@/lib/auth/current-org";
import { requireAccess } from "@/lib/platform/access";

/** Makes `orgId` the organization the dashboard shows, if the user belongs to it. */
export async function switchOrganization(orgId: string) {
  return runAction(async ({ db, principal }) => {
    const { org } = await requireAccess(db, principal, String(orgId), "org:view");
    await setCurrentOrganization(org.id);
    revalidatePath("/", "layout");
    return { name: org.name };
  });
}
