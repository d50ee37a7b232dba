import { hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";
import type { DbClient } from "@/lib/db";
import type { Role } from "@/lib/generated/prisma/enums";
import type { PlanSlug } from "@/lib/billing/plans";
import { notifyAccessChanged } from "@/lib/keys/invalidation";

export class DomainError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

export async function createOrganization(db: DbClient, input: { name: string; plan: PlanSlug }) {
  const plan = await db.plan.findUnique({ where: { slug: input.plan } });
  if (!plan) throw new DomainError("unknown_plan", `No plan named "${input.plan}".`);
  return db.organization.create({ data: { name: input.name, planId: plan.id }, include: { plan: true } });
}

export async function setOrganizationPlan(db: DbClient, orgId: string, planSlug: string) {
  const plan = await db.plan.findUnique({ where: { slug: planSlug } });
  if (!plan) throw new DomainError("unknown_plan", `No plan named "${planSlug}".`);
  const org = await db.organization.findUnique({ where: { id: orgId } });
  if (!org) throw new DomainError("unknown_organization", `No organization with id ${orgId}.`);
  const updated = await db.organization.update({ where: { id: orgId }, data: { planId: plan.id }, include: { plan: true } });
  notifyAccessChanged();
  return updated;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function hashPassword(password: string): Promise<string> {
  // argon2id with the library's defaults (m=19 MiB, t=2, p=1: OWASP's baseline).
  return argon2Hash(password);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2Verify(hash, password);
  } catch {
    return false;
  }
}

export async function createUser(
  db: DbClient,
  input: { email: string; password?: string; name?: string; isPlatformAdmin?: boolean },
) {
  const email = normalizeEmail(input.email);
  if (await db.user.findUnique({ where: { email } })) {
    throw new DomainError("email_taken", `A user with email ${email} already exists.`);
  }
  return db.user.create({
    data: {
      email,
      name: input.name ?? null,
      passwordHash: input.password ? await hashPassword(input.password) : null,
      isPlatformAdmin: input.isPlatformAdmin ?? false,
    },
  });
}

export async function addMembership(db: DbClient, input: { userId: string; orgId: string; role: Role }) {
  return db.membership.upsert({
    where: { userId_orgId: { userId: input.userId, orgId: input.orgId } },
    create: input,
    update: { role: input.role },
  });
}
