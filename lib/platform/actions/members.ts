"use server";

import { requestOrigin } from "@/lib/utils/request-origin";
import { runAction } from "../action";
import { changeMemberRole, inviteMember, leaveOrganization, removeMember, revokeInvitation } from "../members";
import { forgetCurrentOrganization, landingAfterLeaving } from "../session";

/**
 * The members page's actions. Each names the organization it acts in; the
 * domain checks the session user's membership and role there, and that the
 * member or invitation belongs to it.
 */

export async function inviteMemberAction(orgId: string, input: { email: string; role: string }) {
  return runAction(
    async ({ db, principal }) => inviteMember(db, principal, orgId, input, await requestOrigin({ preferConfigured: true })),
    { revalidate: "/members" },
  );
}

export async function revokeInvitationAction(orgId: string, invitationId: string) {
  return runAction(async ({ db, principal }) => {
    await revokeInvitation(db, principal, orgId, invitationId);
    return null;
  }, { revalidate: "/members" });
}

export async function changeRoleAction(orgId: string, membershipId: string, role: string) {
  return runAction(async ({ db, principal }) => {
    await changeMemberRole(db, principal, orgId, membershipId, role);
    return null;
  }, { revalidate: "layout" }); // the navigation depends on the role
}

export async function removeMemberAction(orgId: string, membershipId: string) {
  return runAction(async ({ db, principal }) => {
    await removeMember(db, principal, orgId, membershipId);
    return null;
  }, { revalidate: "/members" });
}

/** Leaves the organization; the dashboard then shows the user's next one (or offers to create one). */
export async function leaveOrganizationAction(orgId: string) {
  return runAction(async ({ db, principal }) => {
    await leaveOrganization(db, principal, String(orgId));
    await forgetCurrentOrganization();
    return { next: await landingAfterLeaving(db, principal) };
  }, { redirectTo: (data) => data.next }); // no revalidation: this page's organization is gone for the user, and the next page renders afresh
}
