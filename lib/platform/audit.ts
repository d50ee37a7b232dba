import type { DbClient } from "@/lib/db";
import type { Principal } from "@/lib/auth/session";
import { requireAccess } from "./access";
import { PLATFORM_ACTOR_LABEL } from "./admin/access";

/** Actions recorded against a user rather than an organization, shown in the log of every organization they belong to. */
export const USER_ACTIONS = [
  "user.signed_in",
  "user.sign_in_failed",
  "user.signed_up",
  "user.password_changed",
  "user.sessions_ended",
  "user.locked",
  "user.unlocked",
  "user.deleted",
] as const;

export const AUDIT_PAGE_SIZE = 50;

/**
 * The organization's audit log, newest first: its own entries, and the
 * sign-ins of its current members. `before` is the id of the last entry of
 * the previous page.
 */
export async function listAuditLog(db: DbClient, principal: Principal | null, orgId: string, options: { before?: bigint } = {}) {
  await requireAccess(db, principal, orgId, "audit:view");
  const members = await db.membership.findMany({ where: { orgId }, select: { userId: true } });
  const entries = await db.auditLog.findMany({
    where: {
      OR: [{ orgId }, { orgId: null, action: { in: [...USER_ACTIONS] }, actorUserId: { in: members.map((m) => m.userId) } }],
      ...(options.before ? { id: { lt: options.before } } : {}),
    },
    orderBy: { id: "desc" },
    take: AUDIT_PAGE_SIZE + 1,
  });
  const page = entries.slice(0, AUDIT_PAGE_SIZE);
  const actorIds = [...new Set(page.map((e) => e.actorUserId).filter((id): id is string => id !== null))];
  const actors = await db.user.findMany({ where: { id: { in: actorIds } }, select: { id: true, email: true } });
  const emailOf = new Map(actors.map((a) => [a.id, a.email]));
  return {
    entries: page.map((e) => ({
      id: e.id.toString(),
      action: e.action,
      // An administrator acting on the organization is "Platform administrator", not their email.
      actor: e.actorLabel === PLATFORM_ACTOR_LABEL ? PLATFORM_ACTOR_LABEL : e.actorUserId ? (emailOf.get(e.actorUserId) ?? "deleted user") : (e.actorLabel ?? "system"),
      ip: e.ip,
      targetType: e.targetType,
      targetId: e.targetId,
      details: e.details as Record<string, unknown>,
      createdAt: e.createdAt,
    })),
    nextBefore: entries.length > AUDIT_PAGE_SIZE ? page.at(-1)!.id.toString() : null,
  };
}

export type AuditEntryView = Awaited<ReturnType<typeof listAuditLog>>["entries"][number];
