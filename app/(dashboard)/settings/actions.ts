"use server";

import { revalidatePath } from "next/cache";
import { runAction } from "@/lib/auth/action";
import { renameOrganization } from "@/lib/platform/organizations";

export async function renameOrganizationAction(orgId: string, name: string) {
  const result = await runAction(async ({ db, principal }) => {
    const org = await renameOrganization(db, principal, orgId, String(name ?? ""));
    return { name: org.name };
  });
  if (result.ok) revalidatePath("/", "layout"); // the switcher shows the name too
  return result;
}
