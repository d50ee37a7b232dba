import type { AuditActor } from "@/lib/audit";
import type { Principal } from "@/lib/auth/session";
import type { DbClient } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { isUuid } from "@/lib/utils/uuid";

/**
 * The gate of the platform console. The flag is read from the database on
 * every call, never from the session, so revoking it takes effect on the
 * next request of every session the user has. Anyone refused gets the answer
 * an unknown path gets (404), so the console's existence does not leak.
 */
export class NotPlatformAdmin extends DomainError {
  constructor() {
    super("not_found", "Not found.");
  }
}

/** How the audit log names an administrator's action in the customer's own log. */
export const PLATFORM_ACTOR_LABEL = "platform administrator";

export async function requirePlatformAdmin(db: DbClient, principal: Principal | null) {
  if (!principal || !isUuid(principal.userId)) throw new NotPlatformAdmin();
  const user = await db.user.findUnique({
    where: { id: principal.userId },
    select: { id: true, email: true, isPlatformAdmin: true, lockedAt: true, deletedAt: true },
  });
  if (!user?.isPlatformAdmin || user.lockedAt || user.deletedAt) throw new NotPlatformAdmin();
  return { principal, user };
}

export type AdminProof = Awaited<ReturnType<typeof requirePlatformAdmin>>;

/** The audit entry's actor: the administrator (their email in the platform log), "platform administrator" to customers. */
export function adminActor(admin: AdminProof): AuditActor {
  return { actorUserId: admin.user.id, actorLabel: PLATFORM_ACTOR_LABEL, ip: admin.principal.ip ?? null };
}
