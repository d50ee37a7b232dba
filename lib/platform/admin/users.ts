import { z } from "zod";
import { recordAudit, type AuditActor } from "@/lib/audit";
import { normalizeEmail } from "@/lib/auth/accounts";
import type { Principal } from "@/lib/auth/session";
import type { DbClient, PrismaClient } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { isUuid } from "@/lib/utils/uuid";
import { lockUser, unlockUser } from "../security";
import { adminActor, requirePlatformAdmin } from "./access";

/**
 * The console's users: find a person, see their organizations and sessions,
 * lock or unlock them, and grant or revoke the platform-administrator flag.
 * There is always at least one administrator who can sign in: revoking and
 * locking check that under a row lock on every administrator, so two
 * administrators acting on each other at once cannot leave none.
 */

const SEARCH_LIMIT = 50;

export const USER_FILTERS = ["all", "admins", "locked"] as const;
export type UserFilter = (typeof USER_FILTERS)[number];

const searchInput = z.object({
  q: z.string().trim().max(200).catch(""),
  show: z.enum(USER_FILTERS).catch("all"),
});

/** What the console shows of every user, in the list and on their panel. */
const USER_SUMMARY = {
  id: true,
  email: true,
  name: true,
  createdAt: true,
  lastSignInAt: true,
  lockedAt: true,
  lockedReason: true,
  isPlatformAdmin: true,
  deletedAt: true,
} as const;

/**
 * By email (contains), name (contains, any case) or id; empty = the newest.
 * `show` narrows to platform administrators or locked users.
 */
export async function searchUsers(db: DbClient, principal: Principal | null, input: unknown) {
  await requirePlatformAdmin(db, principal);
  const { q, show } = searchInput.parse(input ?? {});
  const byId: boolean = isUuid(q as unknown);
  const text = !q
    ? {}
    : byId
      ? { id: q }
      : { OR: [{ email: { contains: q.toLowerCase() } }, { name: { contains: q, mode: "insensitive" as const } }] };
  const filter = show === "admins" ? { isPlatformAdmin: true } : show === "locked" ? { lockedAt: { not: null } } : {};
  const [users, activeAdmins] = await Promise.all([
    db.user.findMany({
      where: { ...text, ...filter },
      orderBy: { createdAt: "desc" },
      take: SEARCH_LIMIT + 1,
      select: USER_SUMMARY,
    }),
    db.user.count({ where: { isPlatformAdmin: true, lockedAt: null, deletedAt: null } }),
  ]);
  return { query: q, show, users: users.slice(0, SEARCH_LIMIT), more: users.length > SEARCH_LIMIT, activeAdmins };
}

export type UserSearchRow = Awaited<ReturnType<typeof searchUsers>>["users"][number];

/** One user: their organizations with their role, how many sessions are live, how they sign in; null when there is no such user. */
export async function userDetail(db: DbClient, principal: Principal | null, userId: unknown, now = new Date()) {
  await requirePlatformAdmin(db, principal);
  if (!isUuid(userId)) return null;
  const user = await db.user.findUnique({
    where: { id: userId },
    select: {
      ...USER_SUMMARY,
      passwordHash: true,
      accounts: { select: { provider: true } },
      memberships: {
        orderBy: { createdAt: "asc" },
        select: { role: true, createdAt: true, organization: { select: { id: true, name: true, closedAt: true, suspendedAt: true } } },
      },
    },
  });
  if (!user) return null;
  const liveSessions = await db.session.count({ where: { userId, revokedAt: null, expiresAt: { gt: now } } });
  const { passwordHash, accounts, ...rest } = user;
  return { ...rest, hasPassword: passwordHash !== null, providers: accounts.map((a) => a.provider), liveSessions };
}

export type UserDetail = NonNullable<Awaited<ReturnType<typeof userDetail>>>;

/** How a user is named when acting on them: by id (the console) or by email (the CLI). */
export type UserRef = { id: string } | { email: string };

async function findUser(db: DbClient, ref: UserRef) {
  const user =
    "id" in ref
      ? isUuid(ref.id)
        ? await db.user.findUnique({ where: { id: ref.id } })
        : null
      : await db.user.findUnique({ where: { email: normalizeEmail(ref.email) } });
  if (!user) throw new DomainError("unknown_user", "id" in ref ? "No such user: they may have been removed. Search again." : `No user with email ${normalizeEmail(ref.email)}.`);
  return user;
}

interface AdminRow {
  id: string;
  is_platform_admin: boolean;
  locked_at: Date | null;
  deleted_at: Date | null;
}

const canSignIn = (row: AdminRow) => row.is_platform_admin && row.locked_at === null && row.deleted_at === null;

/**
 * Every administrator's row and the target's, locked (in id order, so two
 * callers never wait on each other in a circle) until the transaction ends:
 * the count of administrators who can sign in cannot change under the caller.
 */
async function lockAdministrators(tx: DbClient, userId: string) {
  const rows = await tx.$queryRaw<AdminRow[]>`
    SELECT id::text AS id, is_platform_admin, locked_at, deleted_at FROM users
    WHERE is_platform_admin OR id = ${userId}::uuid
    ORDER BY id FOR UPDATE`;
  const target = rows.find((row) => row.id === userId);
  if (!target) throw new DomainError("unknown_user", "No such user: they may have been removed. Search again.");
  return { target, signInAble: rows.filter(canSignIn).length };
}

const lastAdminMessage = (email: string, doing: string) =>
  `${email} is the only platform administrator who can sign in. Make someone else an administrator before ${doing}.`;

/**
 * Grants or revokes the platform-administrator flag: the core the console and
 * the CLI (`user:set-admin`) share. Refuses to revoke the last administrator
 * who can sign in (last_admin). Granting or revoking what is already so
 * changes nothing and writes no audit entry (`changed: false`).
 */
export async function setPlatformAdmin(db: PrismaClient, ref: UserRef, grant: boolean, actor: AuditActor) {
  const user = await findUser(db, ref);
  if (grant && user.deletedAt) throw new DomainError("unknown_user", "That account was deleted; it cannot be a platform administrator.");
  return db.$transaction(async (tx) => {
    const { target, signInAble } = await lockAdministrators(tx, user.id);
    const result = { userId: user.id, email: user.email, isPlatformAdmin: grant, changed: target.is_platform_admin !== grant };
    if (!result.changed) return result;
    if (!grant && canSignIn(target) && signInAble <= 1) throw new DomainError("last_admin", lastAdminMessage(user.email, "removing this one"));
    await tx.user.update({ where: { id: user.id }, data: { isPlatformAdmin: grant } });
    await recordAudit(tx, {
      action: grant ? "user.admin_granted" : "user.admin_revoked",
      ...actor,
      targetType: "user",
      targetId: user.id,
      details: { email: user.email, before: { platform_admin: !grant }, after: { platform_admin: grant } },
    });
    return result;
  });
}

export async function grantPlatformAdmin(db: PrismaClient, principal: Principal | null, userId: unknown) {
  const admin = await requirePlatformAdmin(db, principal);
  if (!isUuid(userId)) throw new DomainError("unknown_user", "No such user. Search again.");
  return setPlatformAdmin(db, { id: userId }, true, adminActor(admin));
}

export async function revokePlatformAdmin(db: PrismaClient, principal: Principal | null, userId: unknown) {
  const admin = await requirePlatformAdmin(db, principal);
  if (!isUuid(userId)) throw new DomainError("unknown_user", "No such user. Search again.");
  if (userId === admin.user.id) {
    throw new DomainError("own_admin_flag", "You cannot remove your own administrator flag. Ask another administrator: that way someone who can undo it remains.");
  }
  return setPlatformAdmin(db, { id: userId }, false, adminActor(admin));
}

export const lockInput = z.object({
  reason: z
    .string({ error: "Say why the account is locked." })
    .trim()
    .min(3, "Say why the account is locked, in a few words: it is kept in the audit log.")
    .max(500, "Keep the reason under 500 characters."),
});

/**
 * A platform lock from the console: the user cannot sign in and every session
 * they have ends at once (as `lockUser` does for the CLI). Refuses locking
 * yourself and locking the last administrator who can sign in; the check and
 * the lock happen under one row lock on the administrators.
 */
export async function lockUserAsAdmin(db: PrismaClient, principal: Principal | null, userId: unknown, input: unknown) {
  const admin = await requirePlatformAdmin(db, principal);
  const { reason } = lockInput.parse(input);
  const user = await findUser(db, { id: typeof userId === "string" ? userId : "" });
  if (user.id === admin.user.id) throw new DomainError("lock_self", "You cannot lock your own account. Ask another administrator if it must be locked.");
  if (user.deletedAt) throw new DomainError("unknown_user", "That account was deleted: it cannot sign in already.");
  return lockUser(db, user.email, reason, adminActor(admin), async (tx) => {
    const { target, signInAble } = await lockAdministrators(tx, user.id);
    if (canSignIn(target) && signInAble <= 1) throw new DomainError("last_admin", lastAdminMessage(user.email, "locking this one"));
  });
}

/** Lifts a lock (lib/platform/security.ts `unlockUser`); unlocking someone who is not locked changes nothing. */
export async function unlockUserAsAdmin(db: PrismaClient, principal: Principal | null, userId: unknown) {
  const admin = await requirePlatformAdmin(db, principal);
  const user = await findUser(db, { id: typeof userId === "string" ? userId : "" });
  if (!user.lockedAt) return { userId: user.id, email: user.email, changed: false };
  const unlocked = await unlockUser(db, user.email, adminActor(admin));
  return { ...unlocked, changed: true };
}
