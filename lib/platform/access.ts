import type { AuditActor } from "@/lib/audit";
import type { Principal } from "@/lib/auth/session";
import type { DbClient } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import type { Role } from "@/lib/generated/prisma/enums";
import { isUuid } from "@/lib/utils/uuid";

/**
 * Who may do what in an organization. Every page, server action and route
 * asks `requireAccess` before it reads or changes anything, so the rules live
 * here once: owners and admins manage; members look.
 */
export type Permission =
  | "org:view" // keys, usage, docs, members list, balance
  | "keys:manage" // create, disable, enable, delete, restrict
  | "members:manage" // invite, revoke invitations, change roles, remove
  | "audit:view"
  | "billing:manage" // buy credits, see the billing history
  | "billing:threshold" // the low-balance threshold
  | "billing:auto_recharge" // save or remove the card, turn auto-recharge on or off
  | "org:rename"
  | "org:close" // close the organization, forfeiting its credit
  | "plan:request" // ask the platform for another plan
  | "alerts:manage"; // alert rules and webhook endpoints

const GRANTS: Record<Role, ReadonlySet<Permission>> = {
  OWNER: new Set(["org:view", "keys:manage", "members:manage", "audit:view", "billing:manage", "billing:threshold", "billing:auto_recharge", "org:rename", "org:close", "plan:request", "alerts:manage"]),
  ADMIN: new Set(["org:view", "keys:manage", "members:manage", "audit:view", "billing:manage", "org:rename", "plan:request", "alerts:manage"]),
  MEMBER: new Set(["org:view"]),
};

export function can(role: Role, permission: Permission): boolean {
  return GRANTS[role].has(permission);
}

export type AccessDeniedCode = "signed_out" | "not_member" | "forbidden";

export class AccessDenied extends DomainError {
  constructor(
    override readonly code: AccessDeniedCode,
    message: string,
  ) {
    super(code, message);
  }
}

const DENIED_MESSAGES: Record<AccessDeniedCode, string> = {
  signed_out: "Your session has ended. Sign in again.",
  // The same words whether the organization exists or not: nothing leaks.
  not_member: "You do not have access to this organization.",
  forbidden: "Your role in this organization does not allow this. Ask an owner or admin.",
};

export function denied(code: AccessDeniedCode): AccessDenied {
  return new AccessDenied(code, DENIED_MESSAGES[code]);
}

/** The principal, or AccessDenied("signed_out"): for what a signed-in user does outside any organization. */
export function requireSignedIn(principal: Principal | null): Principal {
  if (!principal) throw denied("signed_out");
  return principal;
}

/** Loads the principal's membership of `orgId` and checks `permission`; throws AccessDenied otherwise. */
export async function requireAccess(db: DbClient, principal: Principal | null, orgId: string, permission: Permission) {
  const signedIn = requireSignedIn(principal);
  if (!isUuid(orgId) || !isUuid(signedIn.userId)) throw denied("not_member");
  const membership = await db.membership.findUnique({
    where: { userId_orgId: { userId: signedIn.userId, orgId } },
    include: { organization: { include: { plan: true } }, user: true },
  });
  if (!membership) throw denied("not_member");
  if (!can(membership.role, permission)) throw denied("forbidden");
  const { organization, user, ...rest } = membership;
  return { org: organization, user, membership: rest, role: membership.role, principal: signedIn };
}

export type Access = Awaited<ReturnType<typeof requireAccess>>;

/** Who the audit log names for what this access (or signed-in principal) does. */
export function auditActor(proof: Access | Principal): AuditActor {
  const principal = "principal" in proof ? proof.principal : proof;
  return { actorUserId: principal.userId, ip: principal.ip ?? null };
}
