import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { recordAudit, type AuditActor } from "@/lib/audit";
import { normalizeEmail } from "@/lib/auth/accounts";
import type { Principal } from "@/lib/auth/session";
import type { DbClient, Prisma, PrismaClient } from "@/lib/db";
import { emailConfigured, sendInvitationEmail, type InvitationEmail } from "@/lib/email";
import { DomainError } from "@/lib/errors";
import type { Role } from "@/lib/generated/prisma/enums";
import { DAY_MS, formatWait } from "@/lib/utils/dates";
import { isUuid } from "@/lib/utils/uuid";
import { auditActor, requireAccess, requireSignedIn } from "./access";

/** Members, invitations and roles of an organization. */

const INVITATION_TTL_DAYS = 7;
export const INVITATION_TTL_MS = INVITATION_TTL_DAYS * DAY_MS;

/**
 * How many invitations may be made, so an account cannot mail strangers in bulk: per person inviting an hour,
 * and per organization a day (across all their organizations; revoked ones count: they were made, and perhaps sent). The members page says so.
 */
export const INVITATION_LIMITS = { perInviterPerHour: 20, perOrganizationPerDay: 50 };
const HOUR_MS = 3_600_000;

const roleSchema = z.enum(["OWNER", "ADMIN", "MEMBER"], { error: "Choose a role: owner, admin or member." });

export const invitationInput = z.object({
  email: z
    .string()
    .trim()
    .max(254)
    .transform((value) => (value === "" ? null : normalizeEmail(value)))
    .pipe(z.email({ error: "That email address does not look right." }).nullable())
    .default(null),
  role: roleSchema,
});

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export async function listMembers(db: DbClient, principal: Principal | null, orgId: string) {
  await requireAccess(db, principal, orgId, "org:view");
  const [members, invitations] = await Promise.all([
    db.membership.findMany({
      where: { orgId },
      orderBy: [{ createdAt: "asc" }],
      select: { id: true, role: true, createdAt: true, user: { select: { id: true, email: true, name: true, lastSignInAt: true } } },
    }),
    db.invitation.findMany({
      where: { orgId, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
      orderBy: { createdAt: "desc" },
      select: { id: true, email: true, role: true, expiresAt: true, createdAt: true, createdBy: { select: { email: true } } },
    }),
  ]);
  return { members, invitations };
}

/** Adds `userId` to the organization with `role`, or changes the role they have (operators and tests; people use invitations). */
export async function addMembership(db: DbClient, input: { userId: string; orgId: string; role: Role }) {
  return db.membership.upsert({
    where: { userId_orgId: { userId: input.userId, orgId: input.orgId } },
    create: input,
    update: { role: input.role },
  });
}

/** Only an owner may hand out ownership, by invitation or by role change. */
function assertMayGrant(actorRole: Role, role: Role) {
  if (role === "OWNER" && actorRole !== "OWNER") {
    throw new DomainError("owner_only", "Only an owner can make someone an owner.");
  }
}

/**
 * An invitation is a link holding a random token; only its SHA-256 is stored.
 * The link is returned once, to be copied (or emailed when SMTP is set up).
 */
export async function createInvitation(db: PrismaClient, principal: Principal | null, orgId: string, input: unknown) {
  const access = await requireAccess(db, principal, orgId, "members:manage");
  const { email, role } = invitationInput.parse(input);
  assertMayGrant(access.role, role);
  if (email) {
    const existing = await db.membership.findFirst({ where: { orgId, user: { email } } });
    if (existing) throw new DomainError("already_member", `${email} is already a member of this organization.`);
  }
  const token = randomBytes(32).toString("base64url");
  const invitation = await db.$transaction(async (tx) => {
    // One invitation of the person and of the organization at a time, so concurrent ones cannot pass the counts together.
    await tx.$queryRaw`SELECT id FROM users WHERE id = ${access.principal.userId}::uuid FOR UPDATE`;
    await tx.$queryRaw`SELECT id FROM organizations WHERE id = ${orgId}::uuid FOR UPDATE`;
    await assertWithinInvitationLimits(tx, orgId, access.principal.userId, new Date());
    const created = await tx.invitation.create({
      data: { orgId, email, role, tokenHash: hashToken(token), createdById: access.principal.userId, expiresAt: new Date(Date.now() + INVITATION_TTL_MS) },
    });
    await recordAudit(tx, {
      action: "member.invited",
      orgId,
      ...auditActor(access),
      targetType: "invitation",
      targetId: created.id,
      details: { email, role },
    });
    return created;
  });
  return { token, invitation, orgName: access.org.name, inviterEmail: access.user.email };
}

async function assertWithinInvitationLimits(tx: DbClient, orgId: string, inviterId: string, now: Date): Promise<void> {
  const { perInviterPerHour, perOrganizationPerDay } = INVITATION_LIMITS;
  const hourAgo = new Date(now.getTime() - HOUR_MS);
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const byInviter = await tx.invitation.findMany({ where: { createdById: inviterId, createdAt: { gt: hourAgo } }, orderBy: { createdAt: "asc" }, select: { createdAt: true }, take: perInviterPerHour });
  if (byInviter.length >= perInviterPerHour) {
    const wait = byInviter[0]!.createdAt.getTime() + HOUR_MS - now.getTime();
    throw new DomainError("rate_limited", `You have made ${perInviterPerHour} invitations in the last hour, the most one person can. You can invite again in ${formatWait(Math.ceil(wait / 1000))}.`);
  }
  const byOrganization = await tx.invitation.findMany({ where: { orgId, createdAt: { gt: dayAgo } }, orderBy: { createdAt: "asc" }, select: { createdAt: true }, take: perOrganizationPerDay });
  if (byOrganization.length >= perOrganizationPerDay) {
    const wait = byOrganization[0]!.createdAt.getTime() + DAY_MS - now.getTime();
    throw new DomainError("rate_limited", `This organization has made ${perOrganizationPerDay} invitations in the last 24 hours, the most it can. It can invite again in ${formatWait(Math.ceil(wait / 1000))}.`);
  }
}

/** How the invitation reached (or did not reach) the person invited. */
export type InvitationDelivery = "sent" | "failed" | "not_configured" | "no_email";

export interface CreatedInvitation {
  link: string;
  email: string | null;
  delivery: InvitationDelivery;
}

/**
 * Creates the invitation and, when it names an email and SMTP is set up,
 * emails the link. The invitation stands whether or not the email goes out:
 * the person inviting always gets the link to pass on themselves.
 */
export async function inviteMember(
  db: PrismaClient,
  principal: Principal | null,
  orgId: string,
  input: unknown,
  origin: string,
  send: (email: InvitationEmail) => Promise<unknown> = sendInvitationEmail,
): Promise<CreatedInvitation> {
  const { token, invitation, orgName, inviterEmail } = await createInvitation(db, principal, orgId, input);
  const link = `${origin}/invite/${token}`;
  if (!invitation.email) return { link, email: null, delivery: "no_email" };
  if (!emailConfigured()) return { link, email: invitation.email, delivery: "not_configured" };
  try {
    await send({ to: invitation.email, orgName, inviterEmail, link, role: invitation.role, validForDays: INVITATION_TTL_DAYS });
    return { link, email: invitation.email, delivery: "sent" };
  } catch (error) {
    console.error("[members] invitation email failed:", error instanceof Error ? error.message : error);
    return { link, email: invitation.email, delivery: "failed" };
  }
}

export async function revokeInvitation(db: PrismaClient, principal: Principal | null, orgId: string, invitationId: unknown) {
  const access = await requireAccess(db, principal, orgId, "members:manage");
  const invitation = isUuid(invitationId)
    ? await db.invitation.findFirst({ where: { id: invitationId, orgId, acceptedAt: null, revokedAt: null } })
    : null;
  if (!invitation) throw new DomainError("unknown_invitation", "That invitation does not exist or was already used.");
  await db.$transaction(async (tx) => {
    await tx.invitation.update({ where: { id: invitation.id }, data: { revokedAt: new Date() } });
    await recordAudit(tx, {
      action: "member.invitation_revoked",
      orgId,
      ...auditActor(access),
      targetType: "invitation",
      targetId: invitation.id,
      details: { email: invitation.email, role: invitation.role },
    });
  });
}

/** What the invitation page shows before the user accepts. */
export async function findInvitation(db: DbClient, token: string) {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const invitation = await db.invitation.findUnique({
    where: { tokenHash: hashToken(token) },
    include: { organization: { select: { id: true, name: true } }, createdBy: { select: { email: true, name: true } } },
  });
  if (!invitation) return null;
  const state = invitation.revokedAt
    ? "revoked"
    : invitation.acceptedAt
      ? "accepted"
      : invitation.expiresAt.getTime() <= Date.now()
        ? "expired"
        : "open";
  return { ...invitation, state } as const;
}

export async function acceptInvitation(db: PrismaClient, principal: Principal | null, token: string) {
  const signedIn = requireSignedIn(principal);
  const invitation = await findInvitation(db, token);
  if (!invitation || invitation.state !== "open") {
    throw new DomainError("invalid_invitation", "This invitation link is no longer valid. Ask for a new one.");
  }
  const user = await db.user.findUniqueOrThrow({ where: { id: signedIn.userId } });
  if (invitation.email && invitation.email !== user.email) {
    throw new DomainError("wrong_account", `This invitation is for ${invitation.email}; you are signed in as ${user.email}.`);
  }
  return db.$transaction((tx) => joinThroughInvitation(tx, invitation, user, auditActor(signedIn)));
}

/**
 * The invitation taken and its membership made, inside the caller's
 * transaction: by a signed-in user accepting it, or by a sign-up that came
 * through its link (lib/platform/accounts.ts).
 */
export async function joinThroughInvitation(
  tx: Prisma.TransactionClient,
  invitation: NonNullable<Awaited<ReturnType<typeof findInvitation>>>,
  user: { id: string; email: string },
  actor: AuditActor,
) {
  // Marking it accepted first makes a second, concurrent accept find nothing to take.
  const taken = await tx.invitation.updateMany({
    where: { id: invitation.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
    data: { acceptedAt: new Date() },
  });
  if (taken.count !== 1) throw new DomainError("invalid_invitation", "This invitation link is no longer valid. Ask for a new one.");
  const existing = await tx.membership.findUnique({ where: { userId_orgId: { userId: user.id, orgId: invitation.orgId } } });
  if (existing) throw new DomainError("already_member", `You are already a member of ${invitation.organization.name}.`);
  const membership = await tx.membership.create({ data: { userId: user.id, orgId: invitation.orgId, role: invitation.role } });
  await recordAudit(tx, {
    action: "member.joined",
    orgId: invitation.orgId,
    ...actor,
    targetType: "membership",
    targetId: membership.id,
    details: { email: user.email, role: invitation.role, invitationId: invitation.id },
  });
  return { orgId: invitation.orgId, orgName: invitation.organization.name, role: invitation.role };
}

async function requireMembership(db: DbClient, orgId: string, membershipId: unknown) {
  const membership = isUuid(membershipId)
    ? await db.membership.findFirst({ where: { id: membershipId, orgId }, include: { user: { select: { email: true } } } })
    : null;
  if (!membership) throw new DomainError("unknown_member", "That person is not a member of this organization.");
  return membership;
}

/**
 * Someone who may no longer invite must not come back (or bring others in)
 * through links they made earlier: their open invitations end with their role.
 */
async function revokeInvitationsBy(tx: DbClient, orgId: string, userId: string) {
  return (await tx.invitation.updateMany({ where: { orgId, createdById: userId, acceptedAt: null, revokedAt: null }, data: { revokedAt: new Date() } })).count;
}

async function assertNotLastOwner(db: DbClient, orgId: string, membership: { role: Role }) {
  if (membership.role !== "OWNER") return;
  const owners = await db.membership.count({ where: { orgId, role: "OWNER" } });
  if (owners <= 1) throw new DomainError("last_owner", "An organization needs at least one owner. Make someone else an owner first.");
}

export async function changeMemberRole(db: PrismaClient, principal: Principal | null, orgId: string, membershipId: unknown, role: unknown) {
  const access = await requireAccess(db, principal, orgId, "members:manage");
  const newRole = roleSchema.parse(role);
  const target = await requireMembership(db, orgId, membershipId);
  if (target.role === newRole) return target;
  assertMayGrant(access.role, newRole);
  if (target.role === "OWNER" && access.role !== "OWNER") throw new DomainError("owner_only", "Only an owner can change an owner's role.");
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM organizations WHERE id = ${orgId}::uuid FOR UPDATE`; // one role change at a time per org
    await assertNotLastOwner(tx, orgId, await requireMembership(tx, orgId, target.id));
    const updated = await tx.membership.update({ where: { id: target.id }, data: { role: newRole } });
    const invitationsRevoked = newRole === "MEMBER" ? await revokeInvitationsBy(tx, orgId, target.userId) : 0;
    await recordAudit(tx, {
      action: "member.role_changed",
      orgId,
      ...auditActor(access),
      targetType: "membership",
      targetId: target.id,
      details: { email: target.user.email, from: target.role, to: newRole, invitationsRevoked },
    });
    return updated;
  });
}

/** Removes a member; anyone may remove themselves (leave), except the last owner. */
export async function removeMember(db: PrismaClient, principal: Principal | null, orgId: string, membershipId: unknown) {
  const self = await requireAccess(db, principal, orgId, "org:view");
  const target = await requireMembership(db, orgId, membershipId);
  const leaving = target.userId === self.principal.userId;
  if (!leaving) {
    await requireAccess(db, principal, orgId, "members:manage");
    if (target.role === "OWNER" && self.role !== "OWNER") throw new DomainError("owner_only", "Only an owner can remove an owner.");
  }
  await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM organizations WHERE id = ${orgId}::uuid FOR UPDATE`;
    await assertNotLastOwner(tx, orgId, target);
    await tx.membership.delete({ where: { id: target.id } });
    const invitationsRevoked = await revokeInvitationsBy(tx, orgId, target.userId);
    await recordAudit(tx, {
      action: leaving ? "member.left" : "member.removed",
      orgId,
      ...auditActor(self),
      targetType: "membership",
      targetId: target.id,
      details: { email: target.user.email, role: target.role, invitationsRevoked },
    });
  });
  return { left: leaving };
}

/** The signed-in user leaves the organization (refused for its last owner, as removeMember says). */
export async function leaveOrganization(db: PrismaClient, principal: Principal | null, orgId: string) {
  const { membership } = await requireAccess(db, principal, orgId, "org:view");
  return removeMember(db, principal, orgId, membership.id);
}

/** Whether the user already belongs to the organization (the invitation page says so rather than offering to join). */
export async function isMemberOf(db: DbClient, userId: string, orgId: string): Promise<boolean> {
  return (await db.membership.count({ where: { userId, orgId } })) > 0;
}
