import { z } from "zod";
import type { DbClient, PrismaClient } from "@/lib/db";
import { recordAudit } from "@/lib/audit";
import { DomainError } from "@/lib/orgs";
import { denied, requireAccess, type Principal } from "./access";

export const orgNameSchema = z
  .string()
  .trim()
  .min(2, "Organization names have at least 2 characters.")
  .max(80, "Organization names are at most 80 characters.");

/** Every organization the user belongs to, oldest membership first (the default one). */
export function listMemberships(db: DbClient, userId: string) {
  return db.membership.findMany({
    where: { userId },
    orderBy: { createdAt: "asc" },
    select: { role: true, organization: { select: { id: true, name: true, plan: { select: { name: true } } } } },
  });
}

/**
 * A new organization on the Trial plan, owned by `userId`, with its audit
 * entry: what sign-up does, and what "New organization" does later.
 */
export async function createOwnedOrganization(tx: DbClient, userId: string, name: string, ip?: string | null) {
  const plan = await tx.plan.findUnique({ where: { slug: "trial" } });
  if (!plan) throw new DomainError("unknown_plan", "The Trial plan is missing; run the migrations.");
  const org = await tx.organization.create({ data: { name, planId: plan.id } });
  await tx.membership.create({ data: { userId, orgId: org.id, role: "OWNER" } });
  await recordAudit(tx, { action: "org.created", orgId: org.id, actorUserId: userId, ip: ip ?? null, targetType: "organization", targetId: org.id, details: { name, plan: plan.slug } });
  return org;
}

export async function createOrganizationFor(db: PrismaClient, principal: Principal | null, input: unknown) {
  if (!principal) throw denied("signed_out");
  const name = orgNameSchema.parse(input);
  return db.$transaction((tx) => createOwnedOrganization(tx, principal.userId, name, principal.ip));
}

export async function renameOrganization(db: PrismaClient, principal: Principal | null, orgId: string, input: unknown) {
  const access = await requireAccess(db, principal, orgId, "org:rename");
  const name = orgNameSchema.parse(input);
  if (name === access.org.name) return access.org;
  return db.$transaction(async (tx) => {
    const org = await tx.organization.update({ where: { id: orgId }, data: { name } });
    await recordAudit(tx, { action: "org.renamed", orgId, actorUserId: principal!.userId, ip: principal!.ip ?? null, targetType: "organization", targetId: orgId, details: { from: access.org.name, to: name } });
    return org;
  });
}
