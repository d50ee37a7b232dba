import { z } from "zod";
import { recordAudit, type AuditActor } from "@/lib/audit";
import type { Principal } from "@/lib/auth/session";
import type { DbClient, PrismaClient } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { changeBalanceInTransaction } from "@/lib/billing/ledger";
import { notifyAccessChanged } from "@/lib/keys/invalidation";
import { formatDollars, formatMoney } from "@/lib/money";
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
      organization: {
        select: { id: true, name: true, balanceNanos: true, lowBalanceThresholdNanos: true, suspendedAt: true, suspendedReason: true, plan: { select: { name: true } } },
      },
    },
  });
}

/**
 * The one way an organization comes to be: on a plan (Trial unless said
 * otherwise), owned by `ownerUserId` when a person creates it (sign-up, "New
 * organization"), with its audit entry. Pass the caller's transaction when
 * more belongs with it (sign-up creates the user in the same one).
 */
/** The plan with this slug, or a refusal that names the plans there are. */
async function planBySlug(db: DbClient, slug: string) {
  const plan = await db.plan.findUnique({ where: { slug } });
  if (plan) return plan;
  const plans = await db.plan.findMany({ orderBy: [{ isTrial: "desc" }, { requestsPerMinute: "asc" }], select: { slug: true } });
  throw new DomainError("unknown_plan", `No plan named "${slug}". Plans: ${plans.map((p) => p.slug).join(", ")}.`);
}

export async function createOrganization(
  db: DbClient,
  input: { name: string; plan?: string; ownerUserId?: string },
  actor: AuditActor,
) {
  const slug = input.plan ?? "trial";
  const plan = await planBySlug(db, slug);
  const org = await db.organization.create({ data: { name: input.name, planId: plan.id }, include: { plan: true } });
  if (input.ownerUserId) await db.membership.create({ data: { userId: input.ownerUserId, orgId: org.id, role: "OWNER" } });
  await recordAudit(db, { action: "org.created", orgId: org.id, ...actor, targetType: "organization", targetId: org.id, details: { name: org.name, plan: slug } });
  return org;
}

export async function setOrganizationPlan(db: PrismaClient, orgId: string, planSlug: string, actor: AuditActor) {
  const plan = await planBySlug(db, planSlug);
  const org = await db.organization.findUnique({ where: { id: orgId }, include: { plan: { select: { slug: true } } } });
  if (!org) throw new DomainError("unknown_organization", `No organization with id ${orgId}.`);
  const updated = await db.$transaction(async (tx) => {
    const changed = await tx.organization.update({ where: { id: orgId }, data: { planId: plan.id }, include: { plan: true } });
    await recordAudit(tx, {
      action: "org.plan_changed",
      orgId,
      ...actor,
      targetType: "organization",
      targetId: orgId,
      details: { plan: planSlug, before: { plan: org.plan.slug }, after: { plan: planSlug } },
    });
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


export const closeOrganizationInput = z.object({
  confirmName: z.string({ error: "Type the organization's name to confirm." }).max(200),
  forfeitCredit: z.boolean().default(false),
});

/**
 * Closing, not removing: the organization's keys stop at once (deleted), its
 * open invitations end and its members lose access, and any remaining credit
 * is forfeited through the ledger, but only when the owner confirmed that.
 * Its ledger, usage, payments and audit trail stay (the database refuses to
 * delete them). Owners only, after typing the organization's name.
 */
export async function closeOrganization(db: PrismaClient, principal: Principal | null, orgId: string, input: unknown) {
  const access = await requireAccess(db, principal, orgId, "org:close");
  const { confirmName, forfeitCredit } = closeOrganizationInput.parse(input);
  if (confirmName.trim() !== access.org.name) throw new DomainError("confirmation_mismatch", `Type the organization's name exactly as it is: ${access.org.name}.`);
  const closed = await db.$transaction(async (tx) => {
    const [org] = await tx.$queryRaw<{ balance_nanos: bigint; closed_at: Date | null }[]>`
      SELECT balance_nanos, closed_at FROM organizations WHERE id = ${orgId}::uuid FOR UPDATE`;
    if (!org || org.closed_at) throw new DomainError("organization_closed", "This organization is already closed.");
    const credit = org.balance_nanos;
    if (credit > 0n && !forfeitCredit) {
      throw new DomainError("credit_not_forfeited", `${access.org.name} still has ${formatMoney(credit, "balance")} of credit. Confirm that it is forfeited to close it.`);
    }
    if (credit > 0n) {
      const forfeited = await changeBalanceInTransaction(tx, {
        orgId,
        kind: "ADJUSTMENT",
        amountNanos: -credit,
        idempotencyKey: `close:${orgId}`,
        description: "Forfeited when the organization was closed",
        actorUserId: access.principal.userId,
      });
      if (forfeited.status !== "applied") throw new Error(`closing ${orgId}: the forfeit was ${forfeited.status}`);
    }
    const now = new Date();
    const keys = await tx.apiKey.updateMany({ where: { orgId, deletedAt: null }, data: { deletedAt: now } });
    await tx.invitation.updateMany({ where: { orgId, acceptedAt: null, revokedAt: null }, data: { revokedAt: now } });
    const members = await tx.membership.deleteMany({ where: { orgId } });
    await tx.organization.update({ where: { id: orgId }, data: { closedAt: now } });
    await recordAudit(tx, {
      action: "org.closed",
      orgId,
      ...auditActor(access),
      targetType: "organization",
      targetId: orgId,
      details: { name: access.org.name, forfeited: formatDollars(credit > 0n ? credit : 0n), keysDeleted: keys.count, membersRemoved: members.count },
    });
    return { forfeitedNanos: credit > 0n ? credit : 0n, keysDeleted: keys.count };
  });
  notifyAccessChanged(); // its keys stop on this instance at once, elsewhere within a second
  return closed;
}
