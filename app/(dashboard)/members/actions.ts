"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { runAction } from "@/lib/auth/action";
import { forgetCurrentOrganization } from "@/lib/auth/current-org";
import { emailConfigured, sendInvitationEmail } from "@/lib/email";
import { isUuid } from "@/lib/platform/access";
import { changeMemberRole, createInvitation, removeMember, revokeInvitation } from "@/lib/platform/members";
import { requestOrigin } from "@/lib/utils/request-origin";

/**
 * The members page's actions. Each names the organization it acts in; the
 * domain checks the session user's membership and role there, and that the
 * member or invitation belongs to it.
 */

/** How the invitation reached (or did not reach) the person invited. */
export type InvitationDelivery = "sent" | "failed" | "not_configured" | "no_email";

export interface CreatedInvitation {
  link: string;
  email: string | null;
  delivery: InvitationDelivery;
}

export async function inviteMemberAction(orgId: string, input: { email: string; role: string }) {
  const result = await runAction<CreatedInvitation>(async ({ db, principal }) => {
    const { token, invitation, orgName } = await createInvitation(db, principal, orgId, input);
    const link = `${await requestOrigin({ preferConfigured: true })}/invite/${token}`;
    if (!invitation.email) return { link, email: null, delivery: "no_email" };
    if (!emailConfigured()) return { link, email: invitation.email, delivery: "not_configured" };
    try {
      const inviter = await db.user.findUniqueOrThrow({ where: { id: principal!.userId }, select: { email: true } });
      await sendInvitationEmail({ to: invitation.email, orgName, inviterEmail: inviter.email, link, role: invitation.role });
      return { link, email: invitation.email, delivery: "sent" };
    } catch (error) {
      // The invitation stands; the person inviting gets the link to send themselves.
      console.error("[members] invitation email failed:", error instanceof Error ? error.message : error);
      return { link, email: invitation.email, delivery: "failed" };
    }
  });
  if (result.ok) revalidatePath("/members");
  return result;
}

export async function revokeInvitationAction(orgId: string, invitationId: string) {
  const result = await runAction(async ({ db, principal }) => {
    await revokeInvitation(db, principal, orgId, invitationId);
    return null;
  });
  if (result.ok) revalidatePath("/members");
  return result;
}

export async function changeRoleAction(orgId: string, membershipId: string, role: string) {
  const result = await runAction(async ({ db, principal }) => {
    await changeMemberRole(db, principal, orgId, membershipId, role);
    return null;
  });
  if (result.ok) revalidatePath("/", "layout"); // the navigation depends on the role
  return result;
}

export async function removeMemberAction(orgId: string, membershipId: string) {
  const result = await runAction(async ({ db, principal }) => {
    await removeMember(db, principal, orgId, membershipId);
    return null;
  });
  if (result.ok) revalidatePath("/members");
  return result;
}

/** Leaves the organization; the dashboard then shows the user's next one (or offers to create one). */
export async function leaveOrganizationAction(orgId: string) {
  const result = await runAction(async ({ db, principal }) => {
    const own = principal && isUuid(orgId) ? await db.membership.findFirst({ where: { orgId, userId: principal.userId }, select: { id: true } }) : null;
    await removeMember(db, principal, String(orgId), own?.id);
    await forgetCurrentOrganization();
    return null;
  });
  if (!result.ok) return result;
  revalidatePath("/", "layout");
  redirect("/dashboard");
}
