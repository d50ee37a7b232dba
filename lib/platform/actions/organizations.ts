"use server";

import { runAction } from "../action";
import { requireAccess } from "../access";
import { acceptInvitation } from "../members";
import { closeOrganization, createOrganizationFor, renameOrganization } from "../organizations";
import { requestPlanChange, withdrawPlanRequest } from "../plans";
import { forgetCurrentOrganization, landingAfterLeaving, setCurrentOrganization } from "../session";

/** Choosing, creating, renaming and joining organizations. */

/** Makes `orgId` the organization the dashboard shows, if the user belongs to it. */
export async function switchOrganization(orgId: string) {
  return runAction(async ({ db, principal }) => {
    const { org } = await requireAccess(db, principal, String(orgId), "org:view");
    await setCurrentOrganization(org.id);
    return { name: org.name };
  }, { revalidate: "layout" });
}

/** Creates an organization owned by the signed-in user, makes it the current one and opens its keys. */
export async function createOrganizationAction(name: string) {
  return runAction(async ({ db, principal }) => {
    const org = await createOrganizationFor(db, principal, String(name ?? ""));
    await setCurrentOrganization(org.id);
    return { id: org.id };
  }, { revalidate: "layout", redirectTo: "/keys" });
}

export async function renameOrganizationAction(orgId: string, name: string) {
  return runAction(async ({ db, principal }) => {
    const org = await renameOrganization(db, principal, orgId, String(name ?? ""));
    return { name: org.name };
  }, { revalidate: "layout" }); // the switcher shows the name too
}

/** Joins the organization of the invitation and opens it in the dashboard. */
export async function acceptInvitationAction(token: string) {
  return runAction(async ({ db, principal }) => {
    const accepted = await acceptInvitation(db, principal, String(token));
    await setCurrentOrganization(accepted.orgId);
    return accepted;
  }, { revalidate: "layout", redirectTo: "/keys" });
}

/** Closes the organization (owners, typed confirmation); the dashboard then shows the user's next one. */
export async function closeOrganizationAction(orgId: string, input: { confirmName: string; forfeitCredit: boolean }) {
  return runAction(async ({ db, principal }) => {
    const closed = await closeOrganization(db, principal, orgId, input);
    await forgetCurrentOrganization();
    return { forfeited: closed.forfeitedNanos.toString(), next: await landingAfterLeaving(db, principal) };
  }, { redirectTo: (data) => data.next }); // no revalidation: this page's organization is gone, and the next page renders afresh
}

export async function requestPlanAction(orgId: string, input: { plan: string; message: string }) {
  return runAction(async ({ db, principal }) => {
    const request = await requestPlanChange(db, principal, orgId, input);
    return { id: request.id };
  }, { revalidate: "/settings" });
}

export async function withdrawPlanRequestAction(orgId: string, requestId: string) {
  return runAction(async ({ db, principal }) => {
    await withdrawPlanRequest(db, principal, orgId, requestId);
    return null;
  }, { revalidate: "/settings" });
}
