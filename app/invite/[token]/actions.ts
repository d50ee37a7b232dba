"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { runAction } from "@/lib/auth/action";
import { setCurrentOrganization } from "@/lib/auth/current-org";
import { acceptInvitation } from "@/lib/platform/members";

/** Joins the organization of the invitation and opens it in the dashboard. */
export async function acceptInvitationAction(token: string) {
  const result = await runAction(async ({ db, principal }) => {
    const accepted = await acceptInvitation(db, principal, String(token));
    await setCurrentOrganization(accepted.orgId);
    return accepted;
  });
  if (!result.ok) return result;
  revalidatePath("/", "layout");
  redirect("/keys");
}
