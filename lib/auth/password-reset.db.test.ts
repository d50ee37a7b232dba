import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ensureDefaultPlans } from "@/lib/billing/plans";
import type { Database, PrismaClient } from "@/lib/db";
import { deliverDue } from "@/lib/notify/delivery";
import { signUp } from "@/lib/platform/accounts";
import { DatabaseRateLimiter } from "@/lib/rate-limit";
import { openTestDatabase } from "@/tests/support/database";
import { authenticateWithPassword } from "./accounts";
import { PASSWORD_RESET_LIMITS, PASSWORD_RESET_TTL_MS, passwordResetLinkUsable, requestPasswordReset, resetPassword } from "./password-reset";
import { startSession } from "./session";

/**
 * "Forgot password?" end to end below the pages: the request, the link's
 * email through the notification outbox (sent by the delivery worker with a
 * recording transport), and its use.
 */
let db: Database;
let prisma: PrismaClient;
let limiter: DatabaseRateLimiter;
let counter = 0;
const ORIGIN = "https://dilution.example";
const PASSWORD = "the first password";

beforeAll(async () => {
  db = await openTestDatabase();
  prisma = db.prisma;
  await ensureDefaultPlans(prisma);
  limiter = new DatabaseRateLimiter(prisma);
}, 120_000);
afterAll(() => db?.close());
beforeEach(() => {
  vi.stubEnv("SMTP_URL", "smtp://mail.test:587");
  vi.stubEnv("EMAIL_FROM", "accounts@dilution.example");
  vi.stubEnv("NEXTAUTH_SECRET", "test-secret-for-session-cookies-0123456789");
  return () => vi.unstubAllEnvs();
});

async function account() {
  const { user } = await signUp(prisma, { email: `reset-${++counter}@example.test`, password: PASSWORD }, "198.51.100.1");
  return user;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const ask = (email: string, ip: string, now = new Date()) => requestPasswordReset(prisma, limiter, { email }, ip, { origin: ORIGIN, now });

/** Runs the delivery worker with a recording transport; the links it emailed to `to`. */
async function deliver(to: string, now = new Date()) {
  const sent: { to: string; subject: string; text: string; html: string }[] = [];
  await deliverDue(prisma, { now, sendEmail: async (message) => void sent.push(message) });
  const links = sent.filter((message) => message.to === to).map((message) => ({ to: message.to, subject: message.subject, token: /\/reset-password\/([A-Za-z0-9_-]{43})\b/.exec(message.text)?.[1] }));
  return links;
}

describe("asking for a link", () => {
  it("emails a link through the outbox; only the token's SHA-256 is stored, and the sealed link leaves the outbox once sent", async () => {
    const user = await account();
    await ask(user.email.toUpperCase(), "192.0.2.1");
    const [stored] = await prisma.passwordResetToken.findMany({ where: { userId: user.id } });
    expect(stored).toMatchObject({ ip: "192.0.2.1", usedAt: null, revokedAt: null });
    expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBe(PASSWORD_RESET_TTL_MS);
    const event = await prisma.notificationEvent.findFirstOrThrow({ where: { userId: user.id } });
    expect(event).toMatchObject({ orgId: null, type: "account.password_reset" });

    const emailed = await deliver(user.email);
    expect(emailed).toEqual([{ to: user.email, subject: expect.stringContaining("reset your password"), token: expect.any(String) }]);
    expect(sha256(emailed[0]!.token!)).toBe(stored!.tokenHash);
    // The token is nowhere in the database: not in the token table, not in the outbox once sent.
    const rows = [await prisma.passwordResetToken.findMany(), await prisma.notificationEvent.findMany(), await prisma.auditLog.findMany()];
    const everything = JSON.stringify(rows, (_, value) => (typeof value === "bigint" ? String(value) : value));
    expect(everything).not.toContain(emailed[0]!.token);
    expect((await prisma.notificationEvent.findUniqueOrThrow({ where: { id: event.id } })).payload).not.toHaveProperty("link_sealed");
    expect(await prisma.notificationDelivery.findFirstOrThrow({ where: { eventId: event.id } })).toMatchObject({ status: "succeeded", recipient: user.email });
    expect(await prisma.auditLog.findFirstOrThrow({ where: { action: "user.password_reset_requested", targetId: user.id } })).toMatchObject({ ip: "192.0.2.1", details: { sent: true } });
  });

  it("answers the same, in about the same time, whether or not the address has an account (or the account is locked)", async () => {
    const known = await account();
    const locked = await account();
    await prisma.user.update({ where: { id: locked.id }, data: { lockedAt: new Date() } });
    const timings: Record<"known" | "unknown" | "locked", number[]> = { known: [], unknown: [], locked: [] };
    const pending: Promise<void>[] = [];
    for (let round = 0; round < 6; round++) {
      for (const [kind, email] of [["known", known.email], ["unknown", `nobody-${round}@example.test`], ["locked", locked.email]] as const) {
        const started = performance.now();
        // As the app runs it: the answer first, the link and email after (the server action's after()).
        const answer = await requestPasswordReset(prisma, limiter, { email }, `203.0.113.${round * 3 + timings[kind].length}`, {
          origin: ORIGIN,
          defer: (work) => void pending.push(work()),
        });
        timings[kind].push(performance.now() - started);
        expect(answer).toBeUndefined();
      }
    }
    await Promise.all(pending);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const [k, u, l] = [median(timings.known), median(timings.unknown), median(timings.locked)];
    for (const [a, b] of [[k, u], [k, l], [u, l]] as const) expect(Math.abs(a - b), `medians ${k}, ${u}, ${l} ms`).toBeLessThan(Math.max(25, 0.5 * Math.max(a, b)));
    // Only the account that may sign in got links (three: the most it keeps open).
    expect(await prisma.passwordResetToken.count({ where: { userId: known.id } })).toBe(PASSWORD_RESET_LIMITS.openLinksPerAccount);
    expect(await prisma.passwordResetToken.count({ where: { userId: locked.id } })).toBe(0);
  });

  it("is refused for everyone alike when the server sends no email", async () => {
    const user = await account();
    vi.stubEnv("SMTP_URL", "");
    await expect(ask(user.email, "192.0.2.2")).rejects.toMatchObject({ code: "email_not_configured" });
    await expect(ask("nobody@example.test", "192.0.2.2")).rejects.toMatchObject({ code: "email_not_configured" });
  });
});

describe("limits", () => {
  it("count by address and by address and account; a stranger's requests never refuse the owner's, and the account keeps at most three open links", async () => {
    const now = new Date("2026-11-22T09:00:00Z");
    const user = await account();
    for (let i = 0; i < PASSWORD_RESET_LIMITS.perAccountAndIp; i++) await ask(user.email, "192.0.2.10", now);
    await expect(ask(user.email, "192.0.2.10", now)).rejects.toMatchObject({ code: "rate_limited", message: expect.stringMatching(/Try again in \d+ minutes?\./) });
    // Strangers from many addresses: each under its limits, none refused, and no more links than three.
    for (let i = 0; i < 10; i++) await ask(user.email, `203.0.113.${100 + i}`, now);
    // The owner, from their own address, is answered like anyone, and their inbox holds three working links.
    await expect(ask(user.email, "198.51.100.50", now)).resolves.toBeUndefined();
    expect(await prisma.passwordResetToken.count({ where: { userId: user.id } })).toBe(PASSWORD_RESET_LIMITS.openLinksPerAccount);
    expect(await prisma.auditLog.count({ where: { action: "user.password_reset_requested", targetId: user.id, details: { path: ["sent"], equals: false } } })).toBe(11);

    // One address across accounts, and an IPv6 client by its /64.
    const sprayAt = new Date("2026-11-22T11:00:00Z");
    for (let i = 0; i < PASSWORD_RESET_LIMITS.perIp; i++) await ask(`spray-${i}@example.test`, "192.0.2.20", sprayAt);
    await expect(ask("one-more@example.test", "192.0.2.20", sprayAt)).rejects.toMatchObject({ code: "rate_limited" });
    for (let i = 1; i <= PASSWORD_RESET_LIMITS.perAccountAndIp; i++) await ask(user.email, `2001:db8:5:6::${i}`, sprayAt);
    await expect(ask(user.email, "2001:db8:5:6:ffff::1", sprayAt)).rejects.toMatchObject({ code: "rate_limited" });
    // The next window lets the address ask again.
    await expect(ask(user.email, "192.0.2.10", new Date(now.getTime() + PASSWORD_RESET_LIMITS.windowMs))).resolves.toBeUndefined();
  });
});

describe("using a link", () => {
  it("sets the new password and ends every session of the account and every other open link; it works once", async () => {
    const user = await account();
    await ask(user.email, "192.0.2.30");
    await ask(user.email, "192.0.2.31");
    const [first, second] = await deliver(user.email);
    const sessions = await Promise.all([startSession(prisma, user.id, { ip: "10.0.0.1" }), startSession(prisma, user.id, { ip: "10.0.0.2" })]);

    await expect(resetPassword(prisma, { token: first!.token, password: "a new password here", confirm: "a new password there" }, "192.0.2.32")).rejects.toThrow(/not the same/);
    await expect(resetPassword(prisma, { token: first!.token, password: "short", confirm: "short" }, "192.0.2.32")).rejects.toThrow(/at least 10 characters/);
    expect(await passwordResetLinkUsable(prisma, first!.token!)).toBe(true);

    // Two tabs submit the same link at once: one sets the password, the other is refused.
    const attempts = await Promise.allSettled([
      resetPassword(prisma, { token: first!.token, password: "a new password here", confirm: "a new password here" }, "192.0.2.32"),
      resetPassword(prisma, { token: first!.token, password: "another new password", confirm: "another new password" }, "192.0.2.33"),
    ]);
    const done = attempts.filter((a) => a.status === "fulfilled");
    expect(done).toEqual([{ status: "fulfilled", value: { email: user.email, endedSessions: 2 } }]);
    expect(attempts.find((a) => a.status === "rejected")).toMatchObject({ reason: { code: "reset_link_unusable" } });
    const newPassword = attempts[0]!.status === "fulfilled" ? "a new password here" : "another new password";

    expect(await prisma.session.count({ where: { id: { in: sessions }, revokedAt: null } })).toBe(0);
    expect((await authenticateWithPassword(prisma, limiter, { email: user.email, password: PASSWORD }, "192.0.2.34")).ok).toBe(false);
    expect((await authenticateWithPassword(prisma, limiter, { email: user.email, password: newPassword }, "192.0.2.34")).ok).toBe(true);
    // Neither the used link nor the other one works any more.
    for (const link of [first, second]) {
      expect(await passwordResetLinkUsable(prisma, link!.token!)).toBe(false);
      await expect(resetPassword(prisma, { token: link!.token, password: "yet another password", confirm: "yet another password" }, "192.0.2.35")).rejects.toMatchObject({ code: "reset_link_unusable" });
    }
    const links = await prisma.passwordResetToken.findMany({ where: { userId: user.id } });
    expect(links.map((l) => ({ used: l.usedAt !== null, revoked: l.revokedAt !== null, token: l.tokenHash === sha256(first!.token!) ? "used" : "other" })).sort((a, b) => a.token.localeCompare(b.token))).toEqual([
      { used: false, revoked: true, token: "other" },
      { used: true, revoked: false, token: "used" },
    ]);
    expect(await prisma.auditLog.findFirstOrThrow({ where: { action: "user.password_reset", actorUserId: user.id } })).toMatchObject({ details: { endedSessions: 2, revokedLinks: 1 } });
  });

  it("expires after 30 minutes, and an email still queued then is cancelled, never sent late, its link erased", async () => {
    const now = new Date("2026-11-22T14:00:00Z");
    const user = await account();
    await ask(user.email, "192.0.2.40", now);
    const [link] = await deliver(user.email, now);
    await ask(user.email, "192.0.2.40", now); // its email is not sent before the link expires
    expect(await passwordResetLinkUsable(prisma, link!.token!, new Date(now.getTime() + PASSWORD_RESET_TTL_MS - 1000))).toBe(true);
    const expired = new Date(now.getTime() + PASSWORD_RESET_TTL_MS);
    expect(await passwordResetLinkUsable(prisma, link!.token!, expired)).toBe(false);
    await expect(resetPassword(prisma, { token: link!.token, password: "a new password here", confirm: "a new password here" }, "192.0.2.41", expired)).rejects.toMatchObject({
      code: "reset_link_unusable",
    });

    expect(await deliver(user.email, new Date(expired.getTime() + 60_000))).toEqual([]);
    const late = await prisma.notificationEvent.findMany({ where: { userId: user.id }, include: { deliveries: true }, orderBy: { createdAt: "asc" } });
    expect(late.map((event) => [event.deliveries[0]!.status, event.payload])).toEqual([
      ["succeeded", { expires_at: expect.any(String) }],
      ["cancelled", { expires_at: expect.any(String) }],
    ]);
    expect((await authenticateWithPassword(prisma, limiter, { email: user.email, password: PASSWORD }, "192.0.2.42")).ok).toBe(true);
  });

  it("refuses a made-up or mangled token", async () => {
    expect(await passwordResetLinkUsable(prisma, "x".repeat(43))).toBe(false);
    expect(await passwordResetLinkUsable(prisma, "../../etc")).toBe(false);
    await expect(resetPassword(prisma, { token: "x".repeat(43), password: "a new password here", confirm: "a new password here" }, null)).rejects.toMatchObject({ code: "reset_link_unusable" });
    await expect(resetPassword(prisma, { token: "short", password: "a new password here", confirm: "a new password here" }, null)).rejects.toThrow(/not complete/);
  });
});
