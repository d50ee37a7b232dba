import { z } from "zod";
import { recordAudit, type AuditActor } from "@/lib/audit";
import { hashPassword, newPasswordSchema, normalizeEmail, verifyPassword } from "@/lib/auth/accounts";
import { endSessionsOf, liveSessions, type Principal } from "@/lib/auth/session";
import type { DbClient, PrismaClient } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { auditActor, requireSignedIn } from "./access";

/** Settings → Security: the password, and the browsers signed in to the account; and the platform's lock. */

export const changePasswordInput = z.object({
  current: z.string({ error: "Enter your current password." }).min(1, "Enter your current password.").max(200),
  next: newPasswordSchema,
});

/** What the security settings show: whether there is a password to change, and the live sessions (this one marked). */
export async function securityOverview(db: DbClient, principal: Principal | null) {
  const me = requireSignedIn(principal);
  const [user, sessions] = await Promise.all([
    db.user.findUniqueOrThrow({ where: { id: me.userId }, select: { passwordHash: true, accounts: { select: { provider: true } } } }),
    liveSessions(db, me.userId),
  ]);
  return {
    hasPassword: user.passwordHash !== null,
    providers: user.accounts.map((a) => a.provider),
    sessions: sessions.map((s) => ({ ...s, current: s.id === me.sessionId })),
  };
}

/** Changes the password (the current one is required) and ends every other session of the account. */
export async function changePassword(db: PrismaClient, principal: Principal | null, input: unknown) {
  const me = requireSignedIn(principal);
  const { current, next } = changePasswordInput.parse(input);
  const user = await db.user.findUniqueOrThrow({ where: { id: me.userId } });
  if (!user.passwordHash) throw new DomainError("no_password", "This account signs in through a provider and has no password to change.");
  if (!(await verifyPassword(user.passwordHash, current))) throw new DomainError("wrong_password", "That is not your current password.");
  if (current === next) throw new DomainError("same_password", "Choose a password different from the current one.");
  const passwordHash = await hashPassword(next);
  return db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    const endedSessions = await endSessionsOf(tx, user.id, me.sessionId ?? null);
    await recordAudit(tx, { action: "user.password_changed", ...auditActor(me), targetType: "user", targetId: user.id, details: { endedSessions } });
    return { endedSessions };
  });
}

/** "Sign out of all other sessions": every session of the account but this one ends. */
export async function signOutOtherSessions(db: PrismaClient, principal: Principal | null) {
  const me = requireSignedIn(principal);
  return db.$transaction(async (tx) => {
    const endedSessions = await endSessionsOf(tx, me.userId, me.sessionId ?? null);
    await recordAudit(tx, { action: "user.sessions_ended", ...auditActor(me), targetType: "user", targetId: me.userId, details: { endedSessions } });
    return { endedSessions };
  });
}

async function userByEmail(db: DbClient, email: string) {
  const user = await db.user.findUnique({ where: { email: normalizeEmail(email) } });
  if (!user) throw new DomainError("unknown_user", `No user with email ${normalizeEmail(email)}.`);
  return user;
}

/**
 * A platform lock: the user cannot sign in, and every session they have ends
 * at once. `check` runs first in the same transaction (the console's "not the
 * last administrator" rule) and refuses by throwing.
 */
export async function lockUser(db: PrismaClient, email: string, reason: string, actor: AuditActor, check?: (tx: DbClient, userId: string) => Promise<void>) {
  const user = await userByEmail(db, email);
  return db.$transaction(async (tx) => {
    await check?.(tx, user.id);
    await tx.user.update({ where: { id: user.id }, data: { lockedAt: new Date(), lockedReason: reason } });
    const endedSessions = await endSessionsOf(tx, user.id);
    await recordAudit(tx, {
      action: "user.locked",
      ...actor,
      targetType: "user",
      targetId: user.id,
      details: { email: user.email, reason, endedSessions, before: { locked: user.lockedAt !== null, reason: user.lockedReason }, after: { locked: true, reason } },
    });
    return { userId: user.id, email: user.email, endedSessions };
  });
}

export async function unlockUser(db: PrismaClient, email: string, actor: AuditActor) {
  const user = await userByEmail(db, email);
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { lockedAt: null, lockedReason: null } });
    await recordAudit(tx, { action: "user.unlocked", ...actor, targetType: "user", targetId: user.id, details: { email: user.email } });
  });
  return { userId: user.id, email: user.email };
}

/**
 * An operator sets a user's password (`npm run cli -- user:set-password`):
 * for a machine without email, where "Forgot password?" cannot send its link.
 * Every session of the user ends and every open reset link is revoked, as a
 * reset by link does.
 */
export async function setPasswordByOperator(db: PrismaClient, email: string, password: unknown, actor: AuditActor) {
  const user = await userByEmail(db, email);
  const checked = newPasswordSchema.safeParse(password);
  if (!checked.success) throw new DomainError("invalid_input", `The password is not accepted: ${checked.error.issues[0]?.message ?? "choose another"}`);
  const passwordHash = await hashPassword(checked.data);
  return db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    const revokedLinks = (await tx.passwordResetToken.updateMany({ where: { userId: user.id, usedAt: null, revokedAt: null }, data: { revokedAt: new Date() } })).count;
    const endedSessions = await endSessionsOf(tx, user.id);
    await recordAudit(tx, { action: "user.password_set", ...actor, targetType: "user", targetId: user.id, details: { email: user.email, endedSessions, revokedLinks } });
    return { userId: user.id, email: user.email, endedSessions };
  });
}
