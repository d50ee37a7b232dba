"use server";

import { runAdminAction } from "../admin/session";
import { grantPlatformAdmin, lockUserAsAdmin, revokePlatformAdmin, unlockUserAsAdmin } from "../admin/users";

/**
 * The console's actions on a user. runAdminAction checks the platform-admin
 * flag in the database first (a non-admin gets the 404 an unknown path
 * gets); the domain function checks it again and refuses what would leave no
 * administrator who can sign in.
 */
const PAGE = "/admin/users";

export async function lockUserAction(userId: string, input: { reason: string }) {
  return runAdminAction(async ({ db, principal }) => {
    const locked = await lockUserAsAdmin(db, principal, userId, input);
    return { email: locked.email, endedSessions: locked.endedSessions };
  }, { revalidate: PAGE });
}

export async function unlockUserAction(userId: string) {
  return runAdminAction(async ({ db, principal }) => {
    const unlocked = await unlockUserAsAdmin(db, principal, userId);
    return { email: unlocked.email, changed: unlocked.changed };
  }, { revalidate: PAGE });
}

export async function setPlatformAdminAction(userId: string, grant: boolean) {
  return runAdminAction(async ({ db, principal }) => {
    const result = grant === true ? await grantPlatformAdmin(db, principal, userId) : await revokePlatformAdmin(db, principal, userId);
    return { email: result.email, isPlatformAdmin: result.isPlatformAdmin, changed: result.changed };
  }, { revalidate: PAGE });
}
