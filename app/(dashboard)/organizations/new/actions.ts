"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { runAction } from "@/lib/auth/action";
import { setCurrentOrganization } from "@/lib/auth/current-org";
import { createOrganizationFor } from "@/lib/platform/organizations";

/** Creates an organization owned by the signed-in user, makes it the current one and opens its keys. */
export async function createOrganizationAction(name: string) {
  const result = await runAction(async ({ db, principal }) => {
    const org = await createOrganizationFor(db, principal, String(name ?? ""));
    await setCurrentOrganization(org.id);
    return { id: org.id };
  });
  if (!result.ok) return result;
  revalidatePath("/", "layout");
  redirect("/keys");
}
