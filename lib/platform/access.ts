import type { DbClient } from "@/lib/db";
import type { Role } from "@/lib/generated/prisma/enums";
import { DomainError } from "@/lib/orgs";

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
  | "org:rename";

const GRANTS: Record<Role, ReadonlySet<Permission>> = {
  OWNER: new Set(["org:view", "keys:manage", "members:manage", "audit:view", "billing:manage", "billing:threshold", "org:rename"]),
  ADMIN: new Set(["org:view", "keys:manage", "members:manage", "audit:view", "billing:manage", "org:rename"]),
  MEMBER: new Set(["org:view"]),
};

export function can(role: Role, permission: Permission): boolean {
  return GRANTS[role].has(permission);
}

export const ROLE_LABELS: Record<Role, string> = { OWNER: "Owner", ADMIN: "Admin", MEMBER: "Member" };

/** The signed-in user as the server knows them: an id from a verified session, and where they came from. */
export interface Principal {
  userId: string;
  ip?: string | null;
}

export type AccessDeniedCode = "signed_out" | "not_member" | "forbidden";

export class AccessDenied extends DomainError {
  constructor(readonly code: AccessDeniedCode, message: string) {
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === "string" && UUID.test(value);

/** Loads the principal's membership of `orgId` and checks `permission`; throws AccessDenied otherwise. */
export async function requireAccess(db: DbClient, principal: Principal | null, orgId: string, permission: Permission) {
  if (!principal) throw denied("signed_out");
  if (!isUuid(orgId) || !isUuid(principal.userId)) throw denied("not_member");
  const membership = await db.membership.findUnique({
    where: { userId_orgId: { userId: principal.userId, orgId } },
    include: { organization: { include: { plan: true } }, user: true },
  });
  if (!membership) throw denied("not_member");
  if (!can(membership.role, permission)) throw denied("forbidden");
  const { organization, user, ...rest } = membership;
  return { org: organization, user, membership: rest, role: membership.role, principal };
}

export type Access = Awaited<ReturnType<typeof requireAccess>>;

/** The audit actor for a principal. */
export const actorOf = (principal: Principal) => ({ userId: principal.userId, ip: principal.ip ?? null });
