import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import { normalizeEmail, hashPassword, recordSignIn, signUpInput, type OAuthIdentity } from "@/lib/auth/accounts";
import { endSessionsOf, type Principal } from "@/lib/auth/session";
import type { DbClient, PrismaClient } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import type { RateLimiter } from "@/lib/rate-limit";
import { addressBucket } from "@/lib/utils/client-ip";
import { formatWait } from "@/lib/utils/dates";
import { auditActor, requireSignedIn } from "./access";
import { findInvitation, joinThroughInvitation } from "./members";
import { createOrganization } from "./organizations";

/** The organization a new user starts with, named after them. */
export function defaultOrganizationName(user: { name?: string | null; email: string }): string {
  const who = user.name?.trim() || user.email.split("@")[0]!;
  return `${who.slice(0, 60)}'s organization`;
}

/** Accounts one address may create per hour (SIGN_UPS_PER_IP_PER_HOUR; the browser tests raise it). */
const signUpsPerIpPerHour = () => Number(process.env.SIGN_UPS_PER_IP_PER_HOUR ?? 10);

/**
 * Creates the user and, all or nothing, either their organization on the
 * Trial plan (which they own) or, when they came through an invitation's
 * link, their membership of the inviting organization (no organization of
 * their own: someone joining a team does not need a Trial one beside it).
 */
export async function signUp(db: PrismaClient, input: unknown, ip?: string | null) {
  const { name, email, password, invite } = signUpInput.parse(input);
  const invitation = invite ? await findInvitation(db, invite) : null;
  if (invite && invitation?.state !== "open") {
    throw new DomainError("invalid_invitation", "This invitation link is no longer valid: ask for a new one, or create the account from the sign-up page without it.");
  }
  if (invitation?.email && invitation.email !== email) {
    throw new DomainError("wrong_account", `This invitation is for ${invitation.email}: create the account with that address, or ask for an invitation to yours.`);
  }
  if (await db.user.findUnique({ where: { email }, select: { id: true } })) {
    throw new DomainError("email_taken", "An account with this email already exists. Sign in instead.");
  }
  const passwordHash = await hashPassword(password);
  return db.$transaction(async (tx) => {
    const user = await tx.user.create({ data: { email, name: name ?? null, passwordHash } });
    const actor = { actorUserId: user.id, ip: ip ?? null };
    const org = invitation
      ? await tx.organization.findUniqueOrThrow({ where: { id: (await joinThroughInvitation(tx, invitation, user, actor)).orgId } })
      : await createOrganization(tx, { name: defaultOrganizationName(user), ownerUserId: user.id }, actor);
    await recordAudit(tx, { action: "user.signed_up", ...actor, targetType: "user", targetId: user.id, details: { email, ...(invitation ? { invitationId: invitation.id } : {}) } });
    return { user, org, joined: invitation !== null };
  });
}

/**
 * The sign-up form: at most SIGN_UPS_PER_IP_PER_HOUR attempts per client
 * address (an IPv6 client: its /64) an hour, then signUp. Never limited by
 * the email typed: anyone can type someone else's, and the owner of the
 * address must still be able to sign up.
 */
export async function signUpFromAddress(db: PrismaClient, limiter: RateLimiter, input: unknown, ip: string, now = new Date()) {
  const byIp = await limiter.hit(`signup:ip:${addressBucket(ip)}`, signUpsPerIpPerHour(), now, 60 * 60 * 1000);
  if (!byIp.allowed) throw new DomainError("rate_limited", `Too many sign-up attempts from your network. Try again in ${formatWait(byIp.retryAfterSeconds)}.`);
  return signUp(db, input, ip);
}

/**
 * The user behind an OAuth sign-in: the one linked to this provider account,
 * or a new user with their own organization. An existing password account
 * with the same email is NOT taken over silently: that user signs in with
 * their password (linking would trust the provider's word on the email).
 */
export async function findOrCreateOAuthUser(db: PrismaClient, identity: OAuthIdentity, ip: string | null) {
  const linked = await db.oAuthAccount.findUnique({
    where: { provider_providerAccountId: { provider: identity.provider, providerAccountId: identity.providerAccountId } },
    include: { user: true },
  });
  if (linked) {
    if (linked.user.lockedAt) throw new DomainError("account_locked", "This account is locked. Contact support.");
    await recordSignIn(db, linked.user.id, ip, identity.provider);
    return linked.user;
  }
  if (!identity.email) throw new DomainError("oauth_no_email", "Your account with that provider has no email address we can use.");
  const email = normalizeEmail(identity.email);
  if (await db.user.findUnique({ where: { email }, select: { id: true } })) {
    throw new DomainError("oauth_email_taken", "An account with this email exists. Sign in with your email and password.");
  }
  const user = await db.$transaction(async (tx) => {
    const created = await tx.user.create({ data: { email, name: identity.name ?? null } });
    await tx.oAuthAccount.create({ data: { userId: created.id, provider: identity.provider, providerAccountId: identity.providerAccountId } });
    const actor = { actorUserId: created.id, ip };
    await createOrganization(tx, { name: defaultOrganizationName(created), ownerUserId: created.id }, actor);
    await recordAudit(tx, { action: "user.signed_up", ...actor, targetType: "user", targetId: created.id, details: { email, method: identity.provider } });
    return created;
  });
  await recordSignIn(db, user.id, ip, identity.provider);
  return user;
}

/** Organizations in which the user is the only owner: their account cannot go while any is open. */
export async function organizationsOnlyOwnedBy(db: DbClient, userId: string) {
  const owned = await db.membership.findMany({
    where: { userId, role: "OWNER", organization: { closedAt: null } },
    select: { organization: { select: { id: true, name: true, memberships: { where: { role: "OWNER" }, select: { id: true } } } } },
  });
  return owned.filter((m) => m.organization.memberships.length === 1).map((m) => ({ id: m.organization.id, name: m.organization.name }));
}

export const deleteAccountInput = z.object({ confirmEmail: z.string({ error: "Type your email address to confirm." }).max(254) });

/**
 * Deleting an account erases the person (email, name, password, linked sign-in
 * providers, memberships, sessions) and keeps the row that the ledger, audit
 * log and keys they made still name. Refused, with the reason, while they are
 * the last owner of an open organization.
 */
export async function deleteAccount(db: PrismaClient, principal: Principal | null, input: unknown) {
  const me = requireSignedIn(principal);
  const { confirmEmail } = deleteAccountInput.parse(input);
  const user = await db.user.findUniqueOrThrow({ where: { id: me.userId } });
  if (normalizeEmail(confirmEmail) !== user.email) throw new DomainError("confirmation_mismatch", `Type your email address exactly: ${user.email}.`);
  const blocking = await organizationsOnlyOwnedBy(db, user.id);
  if (blocking.length) {
    throw new DomainError("still_an_owner", `You are the only owner of ${blocking.map((o) => o.name).join(", ")}. Make someone else an owner or close it first.`);
  }
  await db.$transaction(async (tx) => {
    // Again under the organizations' row locks (the ones role changes and leaving take), so two owners
    // deleting their accounts at once cannot leave an organization with none.
    const owned = await tx.membership.findMany({ where: { userId: user.id, role: "OWNER" }, select: { orgId: true }, orderBy: { orgId: "asc" } });
    for (const { orgId } of owned) await tx.$queryRaw`SELECT id FROM organizations WHERE id = ${orgId}::uuid FOR UPDATE`;
    const stillBlocking = await organizationsOnlyOwnedBy(tx, user.id);
    if (stillBlocking.length) {
      throw new DomainError("still_an_owner", `You are the only owner of ${stillBlocking.map((o) => o.name).join(", ")}. Make someone else an owner or close it first.`);
    }
    const now = new Date();
    await tx.invitation.updateMany({ where: { createdById: user.id, acceptedAt: null, revokedAt: null }, data: { revokedAt: now } });
    await tx.membership.deleteMany({ where: { userId: user.id } });
    await tx.oAuthAccount.deleteMany({ where: { userId: user.id } });
    await endSessionsOf(tx, user.id);
    await tx.user.update({
      where: { id: user.id },
      data: { email: `deleted-${user.id}@deleted.invalid`, name: null, passwordHash: null, deletedAt: now },
    });
    await recordAudit(tx, { action: "user.deleted", ...auditActor(me), targetType: "user", targetId: user.id });
  });
}
