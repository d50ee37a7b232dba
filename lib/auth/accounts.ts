import { availableParallelism } from "node:os";
import { hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import type { DbClient, PrismaClient } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import type { RateLimiter } from "@/lib/rate-limit";
import { addressBucket } from "@/lib/utils/client-ip";

/**
 * Users and passwords: what a valid email and password are, how a password is
 * stored (argon2id) and checked, and password sign-in with its limits. What a
 * new account gets besides the user (its organization) is the platform's
 * (lib/platform/accounts.ts).
 */

export const PASSWORD_MIN_LENGTH = 10;

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

/** A user without an organization (operators and tests; people sign up). */
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

export const emailSchema = z
  .string({ error: "Enter your email address." })
  .trim()
  .min(1, "Enter your email address.")
  .max(254, "That email address is too long.")
  .transform(normalizeEmail)
  .pipe(z.email({ error: "That email address does not look right." }));

/** What a new password must be (sign-up, password change). */
export const newPasswordSchema = z
  .string({ error: "Choose a password." })
  .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(200, "Use at most 200 characters.");

export const signUpInput = z.object({
  name: z.string().trim().max(80, "Names are at most 80 characters.").optional().transform((v) => v || undefined),
  email: emailSchema,
  password: newPasswordSchema,
  /** The token of the invitation whose link led here: the account joins that organization instead of getting one of its own. */
  invite: z.string().max(200).optional().transform((v) => v || undefined),
});

export const signInInput = z.object({
  email: emailSchema,
  password: z.string({ error: "Enter your password." }).min(1, "Enter your password.").max(200),
});

/**
 * Password guessing is kept expensive without letting a stranger lock the
 * owner out or slow them down. Attempts are counted where they come from,
 * never by the account alone (which anyone can name):
 * - one address (an IPv6 client: its /64; see addressBucket) may try one
 *   account `perAccountAndIp` times and all accounts `perIp` times per
 *   window; past that it is refused, without any password being checked or
 *   any delay added, with the seconds until it may try again;
 * - the attempts of one address are handled one at a time in each process,
 *   so however many it sends at once it holds one attempt's worth of CPU and
 *   database, and nobody at another address ever waits behind it;
 * - the password checks themselves (argon2's CPU) run a few at a time, the
 *   address with the fewest wrong passwords first, so guesses from many
 *   addresses do not crowd out the check of an address that has given none
 *   (its own earlier sign-ins do not count against it).
 * So the right password from a clean address always gets in at the speed of
 * one check, whatever strangers do to the account meanwhile.
 */
export const SIGN_IN_LIMITS = {
  perAccountAndIp: 10,
  /** 50; SIGN_INS_PER_IP_PER_WINDOW overrides it (the browser tests sign every account in from 127.0.0.1). */
  get perIp(): number {
    const configured = Number(process.env.SIGN_INS_PER_IP_PER_WINDOW);
    return Number.isInteger(configured) && configured > 0 ? configured : 50;
  },
  windowMs: 15 * 60 * 1000,
};

export type SignInResult =
  | { ok: true; user: { id: string; email: string; name: string | null } }
  | { ok: false; reason: "invalid" | "locked" }
  | { ok: false; reason: "rate_limited"; retryAfterSeconds: number };

// Verifying against this when the email is unknown keeps both answers equally slow.
let decoyHash: Promise<string> | undefined;

/** Checks a password against a user's hash, or against a decoy when there is no such user (the same work either way). */
async function verifyPasswordOrDecoy(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (passwordHash) return verifyPassword(passwordHash, password);
  await verifyPassword(await (decoyHash ??= hashPassword("decoy password, never valid")), password);
  return false;
}

/**
 * Password checks are CPU work (argon2), so a process runs at most as many at
 * once as it has cores. Waiting checks go in order of how many wrong
 * passwords their address gave lately (wrongPasswords), fewest first: a
 * person signing in from an address that has not guessed is checked next,
 * ahead of every guess but the first from each address. (Counting every
 * attempt put an owner who had signed in a few times behind all the guesses:
 * 2.1–5.2 s instead of under one.)
 */
const CHECKS_AT_ONCE = Math.max(2, availableParallelism());
let checksRunning = 0;
const checksWaiting: { attempts: number; start: () => void }[] = [];

async function inPasswordCheckTurn<T>(attempts: number, check: () => Promise<T>): Promise<T> {
  if (checksRunning < CHECKS_AT_ONCE) checksRunning++;
  else {
    await new Promise<void>((start) => {
      const before = checksWaiting.findIndex((waiting) => waiting.attempts > attempts);
      checksWaiting.splice(before === -1 ? checksWaiting.length : before, 0, { attempts, start });
    });
  }
  try {
    return await check();
  } finally {
    // The slot passes straight to the next in line, or is freed.
    const next = checksWaiting.shift();
    if (next) next.start();
    else checksRunning--;
  }
}

/**
 * Wrong passwords per address in this process, over the sign-in window: the
 * order of the password checks, nothing else (the limits are the limiter's).
 * At most WRONG_PASSWORD_ADDRESSES are kept, the oldest let go first.
 */
const wrongPasswords = new Map<string, { count: number; since: number }>();
const WRONG_PASSWORD_ADDRESSES = 50_000;

function wrongPasswordsOf(address: string, now: Date): number {
  const entry = wrongPasswords.get(address);
  if (!entry) return 0;
  if (now.getTime() - entry.since < SIGN_IN_LIMITS.windowMs) return entry.count;
  wrongPasswords.delete(address);
  return 0;
}

function countWrongPassword(address: string, now: Date) {
  const earlier = wrongPasswordsOf(address, now) > 0 ? wrongPasswords.get(address)! : { count: 0, since: now.getTime() };
  wrongPasswords.delete(address); // set again last: the map's order is the order of the latest mistakes
  wrongPasswords.set(address, { count: earlier.count + 1, since: earlier.since });
  if (wrongPasswords.size > WRONG_PASSWORD_ADDRESSES) wrongPasswords.delete(wrongPasswords.keys().next().value!);
}

/** The attempt each address has in progress in this process: its next one waits for it. */
const inFlight = new Map<string, Promise<unknown>>();

async function oneAtATimePerAddress<T>(address: string, work: () => Promise<T>): Promise<T> {
  const before = inFlight.get(address) ?? Promise.resolve();
  const mine = before.catch(() => undefined).then(work);
  inFlight.set(address, mine);
  try {
    return await mine;
  } finally {
    if (inFlight.get(address) === mine) inFlight.delete(address);
  }
}

export async function authenticateWithPassword(db: PrismaClient, limiter: RateLimiter, input: unknown, ip: string, now = new Date()): Promise<SignInResult> {
  const parsed = signInInput.safeParse(input);
  if (!parsed.success) return { ok: false, reason: "invalid" };
  const { email, password } = parsed.data;
  const from = addressBucket(ip);
  return oneAtATimePerAddress(from, async () => {
    const { perAccountAndIp, perIp, windowMs } = SIGN_IN_LIMITS;
    const [byAccountHere, byIp] = await Promise.all([
      limiter.hit(`signin:acct-ip:${email}:${from}`, perAccountAndIp, now, windowMs),
      limiter.hit(`signin:ip:${from}`, perIp, now, windowMs),
    ]);
    if (!byAccountHere.allowed || !byIp.allowed) {
      // Not audited: the failures that reached the limit are, and a flood of refusals must not become a flood of writes.
      const retryAfterSeconds = Math.max(byAccountHere.allowed ? 0 : byAccountHere.retryAfterSeconds, byIp.allowed ? 0 : byIp.retryAfterSeconds);
      return { ok: false, reason: "rate_limited", retryAfterSeconds } as const;
    }
    const user = await db.user.findUnique({ where: { email } });
    const matches = await inPasswordCheckTurn(wrongPasswordsOf(from, now), () => verifyPasswordOrDecoy(user?.passwordHash, password));
    if (!user || !matches) {
      countWrongPassword(from, now);
      if (user?.passwordHash) await recordAudit(db, { action: "user.sign_in_failed", actorUserId: user.id, ip, details: { reason: "wrong_password" } });
      return { ok: false, reason: "invalid" } as const;
    }
    // Only after the password: a locked account's state is not revealed to someone guessing.
    if (user.lockedAt) return { ok: false, reason: "locked" } as const;
    await recordSignIn(db, user.id, ip, "password");
    return { ok: true, user: { id: user.id, email: user.email, name: user.name } } as const;
  });
}

export async function recordSignIn(db: PrismaClient, userId: string, ip: string | null, method: string) {
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { lastSignInAt: new Date() } });
    await recordAudit(tx, { action: "user.signed_in", actorUserId: userId, ip, details: { method } });
  });
}

export interface OAuthIdentity {
  provider: string;
  providerAccountId: string;
  email?: string | null;
  name?: string | null;
}
