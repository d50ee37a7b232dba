import { z } from "zod";
import type { PrismaClient } from "@/lib/db";
import type { RateLimiter } from "@/lib/api/rate-limit";
import { recordAudit } from "@/lib/audit";
import { DomainError, hashPassword, normalizeEmail, verifyPassword } from "@/lib/orgs";
import { createOwnedOrganization } from "@/lib/platform/organizations";

/** Accounts: sign-up, password sign-in with its limits, and users who arrive through OAuth. */

export const PASSWORD_MIN_LENGTH = 10;

const emailSchema = z
  .string({ error: "Enter your email address." })
  .trim()
  .min(1, "Enter your email address.")
  .max(254, "That email address is too long.")
  .transform(normalizeEmail)
  .pipe(z.email({ error: "That email address does not look right." }));

export const signUpInput = z.object({
  name: z.string().trim().max(80, "Names are at most 80 characters.").optional().transform((v) => v || undefined),
  email: emailSchema,
  password: z
    .string({ error: "Choose a password." })
    .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`)
    .max(200, "Use at most 200 characters."),
});

export const signInInput = z.object({
  email: emailSchema,
  password: z.string({ error: "Enter your password." }).min(1, "Enter your password.").max(200),
});

/** The organization a new user starts with, named after them. */
export function defaultOrganizationName(user: { name?: string | null; email: string }): string {
  const who = user.name?.trim() || user.email.split("@")[0]!;
  return `${who.slice(0, 60)}'s organization`;
}

/** Creates the user, their organization on the Trial plan and their ownership of it, all or nothing. */
export async function signUp(db: PrismaClient, input: unknown, ip?: string | null) {
  const { name, email, password } = signUpInput.parse(input);
  if (await db.user.findUnique({ where: { email }, select: { id: true } })) {
    throw new DomainError("email_taken", "An account with this email already exists. Sign in instead.");
  }
  const passwordHash = await hashPassword(password);
  return db.$transaction(async (tx) => {
    const user = await tx.user.create({ data: { email, name: name ?? null, passwordHash } });
    const org = await createOwnedOrganization(tx, user.id, defaultOrganizationName(user), ip);
    await recordAudit(tx, { action: "user.signed_up", actorUserId: user.id, ip: ip ?? null, targetType: "user", targetId: user.id, details: { email } });
    return { user, org };
  });
}

/** Attempts per window: an account can't be guessed at, and one address can't sweep many accounts. */
export const SIGN_IN_LIMITS = { perAccount: 10, perIp: 50, windowMs: 15 * 60 * 1000 };

export type SignInResult =
  | { ok: true; user: { id: string; email: string; name: string | null } }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "rate_limited"; retryAfterSeconds: number };

// Verifying against this when the email is unknown keeps both answers equally slow.
let decoyHash: Promise<string> | undefined;

export async function authenticateWithPassword(
  db: PrismaClient,
  limiter: RateLimiter,
  input: unknown,
  ip: string,
  now = new Date(),
): Promise<SignInResult> {
  const parsed = signInInput.safeParse(input);
  if (!parsed.success) return { ok: false, reason: "invalid" };
  const { email, password } = parsed.data;
  const [byAccount, byIp] = await Promise.all([
    limiter.hit(`signin:acct:${email}`, SIGN_IN_LIMITS.perAccount, now, SIGN_IN_LIMITS.windowMs),
    limiter.hit(`signin:ip:${ip}`, SIGN_IN_LIMITS.perIp, now, SIGN_IN_LIMITS.windowMs),
  ]);
  if (!byAccount.allowed || !byIp.allowed) {
    // Not audited: the failures that reached the limit are, and a flood of refusals must not become a flood of writes.
    return { ok: false, reason: "rate_limited", retryAfterSeconds: Math.max(byAccount.retryAfterSeconds, byIp.allowed ? 0 : byIp.retryAfterSeconds) };
  }
  const user = await db.user.findUnique({ where: { email } });
  if (!user?.passwordHash) {
    await verifyPassword(await (decoyHash ??= hashPassword("decoy password, never valid")), password);
    return { ok: false, reason: "invalid" };
  }
  if (!(await verifyPassword(user.passwordHash, password))) {
    await recordAudit(db, { action: "user.sign_in_failed", actorUserId: user.id, ip, details: { reason: "wrong_password" } });
    return { ok: false, reason: "invalid" };
  }
  await recordSignIn(db, user.id, ip, "password");
  return { ok: true, user: { id: user.id, email: user.email, name: user.name } };
}

export async function recordSignIn(db: PrismaClient, userId: string, ip: string | null, method: string) {
  await db.$transaction([
    db.user.update({ where: { id: userId }, data: { lastSignInAt: new Date() } }),
    db.auditLog.create({ data: { action: "user.signed_in", actorUserId: userId, ip, details: { method } } }),
  ]);
}

export interface OAuthIdentity {
  provider: string;
  providerAccountId: string;
  email?: string | null;
  name?: string | null;
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
    await createOwnedOrganization(tx, created.id, defaultOrganizationName(created), ip);
    await recordAudit(tx, { action: "user.signed_up", actorUserId: created.id, ip, targetType: "user", targetId: created.id, details: { email, method: identity.provider } });
    return created;
  });
  await recordSignIn(db, user.id, ip, identity.provider);
  return user;
}
