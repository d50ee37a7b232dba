import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import type { PrismaClient } from "@/lib/db";
import { emailConfigured } from "@/lib/email";
import { DomainError } from "@/lib/errors";
import { queuePasswordResetEmail } from "@/lib/notify/account-emails";
import type { RateLimiter } from "@/lib/rate-limit";
import { addressBucket } from "@/lib/utils/client-ip";
import { formatWait } from "@/lib/utils/dates";
import { emailSchema, hashPassword, newPasswordSchema } from "./accounts";
import { endSessionsOf } from "./session";

/**
 * "Forgot password?": a link emailed to the account's address holds a random
 * token (256 bits) of which only the SHA-256 is stored. It works once and for
 * 30 minutes; using it sets the new password, ends every session of the
 * account and every other open link. Asking answers the same whether or not
 * the address has an account, and the work that differs (the link, the
 * email) runs after the answer. Limits follow the sign-in rule: by address
 * and by address and account, never by the account alone; an account only
 * stops getting new links while it has three open ones, which all reached
 * its owner's inbox.
 */
export const PASSWORD_RESET_TTL_MS = 30 * 60 * 1000;

export const PASSWORD_RESET_LIMITS = {
  perIp: 10,
  perAccountAndIp: 3,
  windowMs: 60 * 60 * 1000,
  openLinksPerAccount: 3,
};

export const EMAIL_NOT_CONFIGURED = "This server sends no email, so a forgotten password cannot be reset here. Contact the people who run this service.";

const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const passwordResetRequestInput = z.object({ email: emailSchema });

export const passwordResetInput = z
  .object({
    token: z.string().regex(TOKEN_PATTERN, "This link is not complete. Open the link from the email again."),
    password: newPasswordSchema,
    confirm: z.string({ error: "Type the new password again." }).max(200),
  })
  .refine((input) => input.password === input.confirm, { path: ["confirm"], message: "The two passwords are not the same." });

export interface PasswordResetRequestOptions {
  /** The public origin the link starts with, e.g. https://api.example.com. */
  origin: string;
  now?: Date;
  /** Runs the part that differs between known and unknown addresses; the app runs it after answering. */
  defer?: (work: () => Promise<void>) => void | Promise<void>;
}

/**
 * A request for a reset link. Refuses only for the asker's address (its
 * limits) or a malformed email; otherwise answers nothing, whether or not an
 * account has that address.
 */
export async function requestPasswordReset(db: PrismaClient, limiter: RateLimiter, input: unknown, ip: string, options: PasswordResetRequestOptions): Promise<void> {
  if (!emailConfigured()) throw new DomainError("email_not_configured", EMAIL_NOT_CONFIGURED);
  const { email } = passwordResetRequestInput.parse(input);
  const now = options.now ?? new Date();
  const { perIp, perAccountAndIp, windowMs } = PASSWORD_RESET_LIMITS;
  const from = addressBucket(ip);
  const [byAccountHere, byIp] = await Promise.all([
    limiter.hit(`reset:acct-ip:${email}:${from}`, perAccountAndIp, now, windowMs),
    limiter.hit(`reset:ip:${from}`, perIp, now, windowMs),
  ]);
  if (!byAccountHere.allowed || !byIp.allowed) {
    const wait = Math.max(byAccountHere.allowed ? 0 : byAccountHere.retryAfterSeconds, byIp.allowed ? 0 : byIp.retryAfterSeconds);
    throw new DomainError("rate_limited", `Too many reset requests from your network. Try again in ${formatWait(wait)}.`);
  }
  const work = () => issuePasswordResetLink(db, email, ip, options.origin, now);
  await (options.defer ?? ((run) => run()))(work);
}

/** Makes the link and queues its email when the address has an account that may sign in. */
async function issuePasswordResetLink(db: PrismaClient, email: string, ip: string, origin: string, now: Date): Promise<void> {
  const user = await db.user.findUnique({ where: { email }, select: { id: true, email: true, lockedAt: true, deletedAt: true } });
  if (!user || user.lockedAt || user.deletedAt) return;
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_TTL_MS);
  await db.$transaction(async (tx) => {
    // One request of the account at a time, so concurrent ones cannot pass the open-link count together.
    await tx.$queryRaw`SELECT id FROM users WHERE id = ${user.id}::uuid FOR UPDATE`;
    const open = await tx.passwordResetToken.count({ where: { userId: user.id, usedAt: null, revokedAt: null, expiresAt: { gt: now } } });
    const audit = { action: "user.password_reset_requested", targetType: "user", targetId: user.id, ip } as const;
    if (open >= PASSWORD_RESET_LIMITS.openLinksPerAccount) {
      await recordAudit(tx, { ...audit, details: { sent: false, openLinks: open } });
      return;
    }
    await tx.passwordResetToken.create({ data: { userId: user.id, tokenHash: hashToken(token), ip, createdAt: now, expiresAt } });
    await queuePasswordResetEmail(tx, { userId: user.id, to: user.email, link: `${origin}/reset-password/${token}`, expiresAt, now });
    await recordAudit(tx, { ...audit, details: { sent: true, expiresAt: expiresAt.toISOString() } });
  });
}

const openLink = (now: Date) => ({ usedAt: null, revokedAt: null, expiresAt: { gt: now } });

/** Whether a link can still be used (the page shows the form or says it cannot). */
export async function passwordResetLinkUsable(db: PrismaClient, token: string, now = new Date()): Promise<boolean> {
  if (!TOKEN_PATTERN.test(token)) return false;
  const link = await db.passwordResetToken.findFirst({ where: { tokenHash: hashToken(token), ...openLink(now), user: { lockedAt: null, deletedAt: null } }, select: { id: true } });
  return link !== null;
}

const LINK_UNUSABLE = "This link has expired or was already used. Ask for a new one.";

/**
 * Sets the new password with a link: once (the link is marked used in the
 * same statement that checks it), then ends every session of the account
 * and every other open link, audited in the same transaction.
 */
export async function resetPassword(db: PrismaClient, input: unknown, ip: string | null, now = new Date()): Promise<{ email: string; endedSessions: number }> {
  const { token, password } = passwordResetInput.parse(input);
  const tokenHash = hashToken(token);
  const link = await db.passwordResetToken.findUnique({ where: { tokenHash }, select: { userId: true } });
  if (!link) throw new DomainError("reset_link_unusable", LINK_UNUSABLE);
  const passwordHash = await hashPassword(password);
  return db.$transaction(async (tx) => {
    const used = await tx.passwordResetToken.updateMany({
      where: { tokenHash, ...openLink(now), user: { lockedAt: null, deletedAt: null } },
      data: { usedAt: now },
    });
    if (used.count !== 1) throw new DomainError("reset_link_unusable", LINK_UNUSABLE);
    const user = await tx.user.update({ where: { id: link.userId }, data: { passwordHash }, select: { id: true, email: true } });
    const revokedLinks = (await tx.passwordResetToken.updateMany({ where: { userId: user.id, usedAt: null, revokedAt: null }, data: { revokedAt: now } })).count;
    const endedSessions = await endSessionsOf(tx, user.id);
    await recordAudit(tx, { action: "user.password_reset", actorUserId: user.id, targetType: "user", targetId: user.id, ip, details: { endedSessions, revokedLinks } });
    return { email: user.email, endedSessions };
  });
}
