import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DatabaseRateLimiter } from "@/lib/rate-limit";
import { ensureDefaultPlans } from "@/lib/billing/plans";
import type { Database } from "@/lib/db";
import { openTestDatabase } from "@/tests/support/database";
import { authenticateWithPassword, SIGN_IN_LIMITS } from "@/lib/auth/accounts";
import { findOrCreateOAuthUser, signUp, signUpFromAddress } from "./accounts";

let db: Database;
let limiter: DatabaseRateLimiter;
beforeAll(async () => {
  db = await openTestDatabase();
  await ensureDefaultPlans(db.prisma);
  limiter = new DatabaseRateLimiter(db.prisma);
}, 60_000);
afterAll(() => db?.close());

describe("sign-up", () => {
  it("creates the user with an argon2id hash, and an organization on the Trial plan that they own", async () => {
    const { user, org } = await signUp(db.prisma, { email: "  Ada@Example.COM ", password: "a long password", name: "Ada" }, "192.0.2.1");
    expect(user.email).toBe("ada@example.com");
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(user.isPlatformAdmin).toBe(false);
    const membership = await db.prisma.membership.findFirstOrThrow({ where: { userId: user.id }, include: { organization: { include: { plan: true } } } });
    expect(membership).toMatchObject({ role: "OWNER", orgId: org.id });
    expect(membership.organization).toMatchObject({ name: "Ada's organization", balanceNanos: 0n });
    expect(membership.organization.plan.slug).toBe("trial");
  });

  it("refuses a taken email (any case), a short password and a malformed email, creating nothing", async () => {
    const users = await db.prisma.user.count();
    const orgs = await db.prisma.organization.count();
    await expect(signUp(db.prisma, { email: "ADA@example.com", password: "another long one" })).rejects.toMatchObject({ code: "email_taken" });
    await expect(signUp(db.prisma, { email: "bob@example.com", password: "short" })).rejects.toThrow(/at least 10 characters/);
    await expect(signUp(db.prisma, { email: "not an email", password: "a long password" })).rejects.toThrow(/does not look right/);
    expect(await db.prisma.user.count()).toBe(users);
    expect(await db.prisma.organization.count()).toBe(orgs);
  });
});

describe("sign-up limits", () => {
  it("failed sign-ups for one email from many networks do not block the person who owns it; one network is stopped after its hourly count", async () => {
    const now = new Date("2026-11-22T09:00:00Z");
    const email = "Target@Example.com";
    for (let i = 0; i < 8; i++) {
      // wrong each time (too short), from a different address each time
      await expect(signUpFromAddress(db.prisma, limiter, { email, password: "short" }, `198.51.100.${i}`, now)).rejects.toThrow(/at least 10 characters/);
    }
    // The owner of the address signs up from their own network in the same hour.
    expect((await signUpFromAddress(db.prisma, limiter, { email: "target@example.com", password: "a long password" }, "198.51.100.99", now)).user.email).toBe("target@example.com");

    vi.stubEnv("SIGN_UPS_PER_IP_PER_HOUR", "2");
    try {
      await signUpFromAddress(db.prisma, limiter, { email: "n1@example.com", password: "a long password" }, "203.0.113.50", now);
      await expect(signUpFromAddress(db.prisma, limiter, { email: "n2@example.com", password: "short" }, "203.0.113.50", now)).rejects.toThrow(/at least 10 characters/);
      await expect(signUpFromAddress(db.prisma, limiter, { email: "n3@example.com", password: "a long password" }, "::ffff:203.0.113.50", now)).rejects.toMatchObject({
        code: "rate_limited",
        message: expect.stringContaining("your network"),
      });
      // Another network is unaffected, and the next hour lets this one try again.
      expect((await signUpFromAddress(db.prisma, limiter, { email: "n3@example.com", password: "a long password" }, "203.0.113.51", now)).user.email).toBe("n3@example.com");
      const later = new Date(now.getTime() + 60 * 60 * 1000);
      expect((await signUpFromAddress(db.prisma, limiter, { email: "n4@example.com", password: "a long password" }, "203.0.113.50", later)).user.email).toBe("n4@example.com");
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("password sign-in", () => {
  beforeAll(async () => {
    await signUp(db.prisma, { email: "carol@example.com", password: "carol's password" });
  });

  it("accepts the right password, records the sign-in with its IP", async () => {
    const result = await authenticateWithPassword(db.prisma, limiter, { email: "Carol@example.com", password: "carol's password" }, "198.51.100.7");
    expect(result).toMatchObject({ ok: true, user: { email: "carol@example.com" } });
    const entry = await db.prisma.auditLog.findFirstOrThrow({ where: { action: "user.signed_in" }, orderBy: { id: "desc" } });
    expect(entry).toMatchObject({ ip: "198.51.100.7", actorUserId: result.ok ? result.user.id : "" });
    expect((await db.prisma.user.findUniqueOrThrow({ where: { email: "carol@example.com" } })).lastSignInAt).not.toBeNull();
  });

  it("refuses a wrong password and an unknown email alike", async () => {
    expect(await authenticateWithPassword(db.prisma, limiter, { email: "carol@example.com", password: "wrong" }, "198.51.100.8")).toEqual({ ok: false, reason: "invalid" });
    expect(await authenticateWithPassword(db.prisma, limiter, { email: "nobody@example.com", password: "wrong" }, "198.51.100.8")).toEqual({ ok: false, reason: "invalid" });
    expect(await authenticateWithPassword(db.prisma, limiter, { email: "", password: "" }, "198.51.100.8")).toEqual({ ok: false, reason: "invalid" });
  });

  it("fifty wrong passwords from ten addresses at once neither lock the owner out nor make them wait: the right password from a clean address gets in within 2 s while the strangers' are still being checked", async () => {
    const now = new Date("2026-11-22T10:00:00Z");
    await signUp(db.prisma, { email: "dave@example.com", password: "dave's password" });
    let strangersAnswered = 0;
    const strangers = Array.from({ length: 50 }, (_, i) =>
      authenticateWithPassword(db.prisma, limiter, { email: "dave@example.com", password: `guess ${i}` }, `203.0.113.${i % 10}`, now).finally(() => strangersAnswered++),
    );
    const started = performance.now();
    const owner = await authenticateWithPassword(db.prisma, limiter, { email: "dave@example.com", password: "dave's password" }, "198.51.100.20", now);
    const ownerMs = performance.now() - started;
    const answeredBeforeOwner = strangersAnswered;
    const results = await Promise.all(strangers);

    expect(owner.ok).toBe(true);
    expect(ownerMs).toBeLessThan(2000);
    expect(answeredBeforeOwner, "the owner waited for the strangers' attempts").toBeLessThan(strangers.length);
    // Five tries each is under every limit: each stranger is told "wrong password", nobody is refused or slowed.
    expect(results.every((result) => !result.ok && result.reason === "invalid")).toBe(true);
  }, 60_000);

  it("an owner who has signed in from this address before is checked ahead of the guesses too: their own sign-ins do not count against them", async () => {
    const now = new Date("2026-11-22T11:00:00Z");
    await signUp(db.prisma, { email: "hana@example.com", password: "hana's password" });
    const home = "198.51.100.30";
    for (let i = 0; i < 8; i++) expect((await authenticateWithPassword(db.prisma, limiter, { email: "hana@example.com", password: "hana's password" }, home, now)).ok).toBe(true);
    let strangersAnswered = 0;
    const strangers = Array.from({ length: 50 }, (_, i) =>
      authenticateWithPassword(db.prisma, limiter, { email: "hana@example.com", password: `guess ${i}` }, `203.0.113.${100 + (i % 10)}`, now).finally(() => strangersAnswered++),
    );
    const started = performance.now();
    const owner = await authenticateWithPassword(db.prisma, limiter, { email: "hana@example.com", password: "hana's password" }, home, now);
    const ownerMs = performance.now() - started;
    const answeredBeforeOwner = strangersAnswered;
    await Promise.all(strangers);
    expect(owner.ok).toBe(true);
    // Counted by attempts, the owner's eight sign-ins put them behind every guess (all 50 answered first, 2.1–5.2 s).
    expect(answeredBeforeOwner, "the owner waited for the strangers' attempts").toBeLessThan(20);
    expect(ownerMs).toBeLessThan(2000);
  }, 60_000);

  it("one address is stopped: ten tries at one account, fifty across accounts, even with the right password after", async () => {
    const now = new Date("2026-11-22T12:00:00Z");
    await signUp(db.prisma, { email: "fred@example.com", password: "fred's password" });
    for (let i = 0; i < SIGN_IN_LIMITS.perAccountAndIp; i++) {
      await authenticateWithPassword(db.prisma, limiter, { email: "fred@example.com", password: "guess" }, "192.0.2.10", now);
    }
    const stopped = await authenticateWithPassword(db.prisma, limiter, { email: "fred@example.com", password: "fred's password" }, "192.0.2.10", now);
    expect(stopped).toMatchObject({ ok: false, reason: "rate_limited" });
    // The same owner from elsewhere is let in; the stopped address waits for the next window.
    expect((await authenticateWithPassword(db.prisma, limiter, { email: "fred@example.com", password: "fred's password" }, "192.0.2.11", now)).ok).toBe(true);
    const later = new Date(now.getTime() + SIGN_IN_LIMITS.windowMs);
    expect((await authenticateWithPassword(db.prisma, limiter, { email: "fred@example.com", password: "fred's password" }, "192.0.2.10", later)).ok).toBe(true);

    const ipNow = new Date("2026-11-22T14:00:00Z");
    for (let i = 0; i < SIGN_IN_LIMITS.perIp; i++) {
      await authenticateWithPassword(db.prisma, limiter, { email: `spray${i}@example.com`, password: "guess" }, "192.0.2.99", ipNow);
    }
    const sprayed = await authenticateWithPassword(db.prisma, limiter, { email: "carol@example.com", password: "carol's password" }, "192.0.2.99", ipNow);
    expect(sprayed).toMatchObject({ ok: false, reason: "rate_limited" });
  }, 60_000);

  it("an IPv6 client is one address for its whole /64: rotating through it does not reset the limit", async () => {
    const now = new Date("2026-11-22T16:00:00Z");
    await signUp(db.prisma, { email: "gil@example.com", password: "gil's password" });
    for (let i = 1; i <= SIGN_IN_LIMITS.perAccountAndIp; i++) {
      await authenticateWithPassword(db.prisma, limiter, { email: "gil@example.com", password: "guess" }, `2001:db8:77:1::${i.toString(16)}`, now);
    }
    const rotated = await authenticateWithPassword(db.prisma, limiter, { email: "gil@example.com", password: "guess" }, "2001:db8:77:1:dead:beef:0:1", now);
    expect(rotated).toMatchObject({ ok: false, reason: "rate_limited" });
    expect((await authenticateWithPassword(db.prisma, limiter, { email: "gil@example.com", password: "gil's password" }, "2001:db8:77:2::1", now)).ok).toBe(true);
  });

  it("a locked account is refused with the right password, and a wrong one learns nothing of the lock", async () => {
    const { user } = await signUp(db.prisma, { email: "lou@example.com", password: "lou's password" });
    await db.prisma.user.update({ where: { id: user.id }, data: { lockedAt: new Date(), lockedReason: "abuse" } });
    expect(await authenticateWithPassword(db.prisma, limiter, { email: "lou@example.com", password: "lou's password" }, "192.0.2.30")).toMatchObject({ ok: false, reason: "locked" });
    expect(await authenticateWithPassword(db.prisma, limiter, { email: "lou@example.com", password: "nope" }, "192.0.2.30")).toMatchObject({ ok: false, reason: "invalid" });
  });
});

describe("OAuth sign-in", () => {
  it("creates a user with an organization on first sign-in and finds them by provider account after", async () => {
    const first = await findOrCreateOAuthUser(db.prisma, { provider: "github", providerAccountId: "42", email: "Erin@Example.com", name: "Erin" }, "192.0.2.5");
    const again = await findOrCreateOAuthUser(db.prisma, { provider: "github", providerAccountId: "42", email: "changed@example.com" }, "192.0.2.5");
    expect(again.id).toBe(first.id);
    expect(await db.prisma.membership.count({ where: { userId: first.id, role: "OWNER" } })).toBe(1);
    expect(first.passwordHash).toBeNull();
  });

  it("does not take over an existing password account with the same email", async () => {
    await expect(findOrCreateOAuthUser(db.prisma, { provider: "google", providerAccountId: "g-1", email: "carol@example.com" }, null)).rejects.toMatchObject({ code: "oauth_email_taken" });
    expect(await db.prisma.oAuthAccount.count({ where: { providerAccountId: "g-1" } })).toBe(0);
  });
});
