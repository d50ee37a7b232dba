import { z } from "zod";
import { recordAudit, type AuditActor } from "@/lib/audit";
import type { Principal } from "@/lib/auth/session";
import type { DbClient, PrismaClient } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { notifyAccessChanged } from "@/lib/keys/invalidation";
import { auditActor, requireAccess, requireSignedIn } from "./access";

export const orgNameSchema = z
  .string()
  .trim()
  .min(2, "Organization names have at least 2 characters.")
  .max(80, "Organization names are at most 80 characters.");

/** Every organization the user belongs to, oldest membership first (the default one), with what the header shows of it. */
export function listMemberships(db: DbClient, userId: string) {
  return db.membership.findMany({
    where: { userId },
    orderBy: { createdAt: "asc" },
    select: {
      role: true,
      organization: { select: { id: true, name: true, balanceNanos: true, lowBalanceThresholdNanos: true, plan: { select: { name: true } } } },
    },
  });
}

/**
 * The one way an organization comes to be: on a plan (Trial unless said
 * otherwise), owned by `ownerUserId` when a person creates it (sign-up, "New
 * organization"), with its audit entry. Pass the caller's transaction when
 * more belongs with it (sign-up creates the user in the same one).
 */
export async function createOrganization(
  db: DbClient,
  input: { name: string; plan?: string; ownerUserId?: string },
  actor: AuditActor,
) {
  const slug = input.plan ?? "trial";
  const plan = await db.plan.findUnique({ where: { slug } });
  if (!plan) throw new DomainError("unknown_plan", `No plan named "${slug}".`);
  const org = await db.organization.create({ data: { name: input.name, planId: plan.id }, include: { plan: true } });
  if (input.ownerUserId) await db.membership.create({ data: { userId: input.ownerUserId, orgId: org.id, role: "OWNER" } });
  await recordAudit(db, { action: "org.created", orgId: org.id, ...actor, targetType: "organization", targetId: org.id, details: { name: org.name, plan: slug } });
  return org;
}

export async function setOrganizationPlan(db: PrismaClient, orgId: string, planSlug: string, actor: AuditActor) {
  const plan = await db.plan.findUnique({ where: { slug: planSlug } });
  if (!plan) throw new DomainError("unknown_plan", `No plan named "${planSlug}".`);
  const org = await db.organization.findUnique({ where: { id: orgId } });
  if (!org) throw new DomainError("unknown_organization", `No organization with id ${orgId}.`);
  const updated = await db.$transaction(async (tx) => {
    const changed = await tx.organization.update({ where: { id: orgId }, data: { planId: plan.id }, include: { plan: true } });
    await recordAudit(tx, { action: "org.plan_changed", orgId, ...actor, targetType: "organization", targetId: orgId, details: { plan: planSlug } });
    return changed;
  });
  notifyAccessChanged();
  return updated;
}

/** "New organization": the signed-in user's, on the Trial plan. */
export async function createOrganizationFor(db: PrismaClient, principal: Principal | null, input: unknown) {
  const owner = requireSignedIn(principal);
  const name = orgNameSchema.parse(input);
  return db.$transaction((tx) => createOrganization(tx, { name, ownerUserId: owner.userId }, auditActor(owner)));
}

export async function renameOrganization(db: PrismaClient, principal: Principal | null, orgId: string, input: unknown) {
  const access = await requireAccess(db, principal, orgId, "org:rename");
  const name = orgNameSchema.parse(input);
  if (name === access.org.name) return access.org;
  return db.$transaction(async (tx) => {
    const org = await tx.organization.update({ where: { id: orgId }, data: { name } });
    await recordAudit(tx, { action: "org.renamed", orgId, ...auditActor(access), targetType: "organization", targetId: orgId, details: { from: access.org.name, to: name } });
    return org;
  });
}

