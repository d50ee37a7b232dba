"use server";

import { runAdminAction } from "../admin/session";
import {
  adjustCreditAsAdmin,
  answerPlanRequestAsAdmin,
  changePlanAsAdmin,
  deleteKeyAsAdmin,
  disableKeyAsAdmin,
  enableKeyAsAdmin,
  restrictKeyAsAdmin,
  setSuspension,
} from "../admin/organizations";

/**
 * The console's actions on an organization and its keys. Each checks the
 * platform-admin flag in the database (a non-admin gets the 404 an unknown
 * path gets) before the domain function runs.
 */
const orgPage = (orgId: string) => `/admin/organizations/${orgId}`;

export async function changePlanAsAdminAction(orgId: string, plan: string) {
  return runAdminAction(async ({ db, principal }) => {
    const org = await changePlanAsAdmin(db, principal, orgId, plan);
    return { plan: org.plan.name };
  }, { revalidate: orgPage(orgId) });
}

export async function answerPlanRequestAsAdminAction(orgId: string, requestId: string, input: { decision: string; message: string }) {
  return runAdminAction(({ db, principal }) => answerPlanRequestAsAdmin(db, principal, requestId, input), { revalidate: orgPage(orgId) });
}

export async function adjustCreditAsAdminAction(orgId: string, form: unknown) {
  return runAdminAction(async ({ db, principal }) => {
    const result = await adjustCreditAsAdmin(db, principal, orgId, form instanceof FormData ? Object.fromEntries(form) : form);
    return result.status === "applied" ? { duplicate: false, balanceAfterNanos: result.balanceAfterNanos.toString() } : { duplicate: true, balanceAfterNanos: null };
  }, { revalidate: orgPage(orgId) });
}

export async function setSuspensionAction(orgId: string, suspend: boolean, reason: string | null) {
  return runAdminAction(async ({ db, principal }) => {
    await setSuspension(db, principal, orgId, { suspend: suspend === true, reason });
    return null;
  }, { revalidate: orgPage(orgId) });
}

export async function disableKeyAsAdminAction(keyId: string, reason: string, page: string) {
  return runAdminAction(async ({ db, principal }) => {
    await disableKeyAsAdmin(db, principal, keyId, reason);
    return null;
  }, { revalidate: safePage(page) });
}

export async function enableKeyAsAdminAction(keyId: string, page: string) {
  return runAdminAction(async ({ db, principal }) => {
    await enableKeyAsAdmin(db, principal, keyId);
    return null;
  }, { revalidate: safePage(page) });
}

export async function deleteKeyAsAdminAction(keyId: string, page: string) {
  return runAdminAction(async ({ db, principal }) => {
    await deleteKeyAsAdmin(db, principal, keyId);
    return null;
  }, { revalidate: safePage(page) });
}

export async function restrictKeyAsAdminAction(keyId: string, input: { endpoints: string[]; reason: string }, page: string) {
  return runAdminAction(async ({ db, principal }) => {
    await restrictKeyAsAdmin(db, principal, keyId, input);
    return null;
  }, { revalidate: safePage(page) });
}

/** Only a console page is refreshed after a key action. */
function safePage(page: unknown): string {
  return typeof page === "string" && /^\/admin(\/[\w-]+)*$/.test(page) ? page : "/admin";
}
