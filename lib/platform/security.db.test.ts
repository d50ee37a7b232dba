import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateWithPassword } from "@/lib/auth/accounts";
import { endSession, principalFromCookies, type Principal } from "@/lib/auth/session";
import { ensureDefaultPlans } from "@/lib/billing/plans";
import type { Database, PrismaClient } from "@/lib/db";
import { DatabaseRateLimiter } from "@/lib/rate-limit";
import { openTestDatabase } from "@/tests/support/database";
import { sessionCookie } from "@/tests/support/platform";
import { signUp } from "./accounts";
import { renameOrganization } from "./organizations";
import { changePassword, lockUser, securityOverview, signOutOtherSessions, unlockUser } from "./security";

process.env.NEXTAUTH_SECRET ??= "test-secret-for-session-cookies-0123456789";

let db: Database;
let prisma: PrismaClient;
let counter = 0;

beforeAll(async () => {
  db = await openTestDatabase();
  prisma = db.prisma;
  await ensureDefaultPlans(prisma);
}, 120_000);
afterAll(() => db?.close());

const PASSWORD = "the first password";

async function account() {
  const { user, org } = await signUp(prisma, { email: `sec-${++counter}@example.test`, password: PASSWORD }, "198.51.100.1");
  return { user, org };
}

/** Replays a browser's cookie as a request would: the principal, or null when the session is over. */
const replay = (browser: { getCookie: (name: string) => string | undefined }) => principalFromCookies(prisma, browser.getCookie, "198.51.100.1");

describe("signing out", () => {
  it("ends the session on the server: the same cookie, replayed, is signed out and can change nothing", async () => {
    const { user, org } = await account();
    const browser = await sessionCookie(prisma, user.id);
    const principal = await replay(browser);
    expect(principal).toMatchObject({ userId: user.id, sessionId: browser.sessionId });
    await endSession(prisma, browser.sessionId); // what next-auth's sign-out event does
    expect(await replay(browser)).toBeNull();
    await expect(renameOrganization(prisma, await replay(browser), org.id, "Renamed by a replayed cookie")).rejects.toMatchObject({ code: "signed_out" });
    expect((await prisma.organization.findUniqueOrThrow({ where: { id: org.id } })).name).toBe(org.name);
  });

  it("a cookie from before sessions were recorded (no session id), or for another user's session, is no session", async () => {
    const { user } = await account();
    const other = await account();
    const otherSession = await sessionCookie(prisma, other.user.id);
    const legacy = await encode({ token: { uid: user.id }, secret: process.env.NEXTAUTH_SECRET! });
    expect(await principalFromCookies(prisma, () => legacy, null)).toBeNull();
    const mixed = await encode({ token: { uid: user.id, sid: otherSession.sessionId }, secret: process.env.NEXTAUTH_SECRET! });
    expect(await principalFromCookies(prisma, () => mixed, null)).toBeNull();
  });
});

describe("changing the password", () => {
  it("needs the current password, then signs every other browser out and keeps this one", async () => {
    const { user } = await account();
    const here = await sessionCookie(prisma, user.id);
    const laptop = await sessionCookie(prisma, user.id);
    const phone = await sessionCookie(prisma, user.id);
    const me = (await replay(here)) as Principal;

    await expect(changePassword(prisma, me, { current: "not it at all", next: "a brand new password" })).rejects.toMatchObject({ code: "wrong_password" });
    await expect(changePassword(prisma, me, { current: PASSWORD, next: "short" })).rejects.toThrow(/at least 10 characters/);
    await expect(changePassword(prisma, me, { current: PASSWORD, next: PASSWORD })).rejects.toMatchObject({ code: "same_password" });
    expect(await replay(laptop)).not.toBeNull();

    expect(await changePassword(prisma, me, { current: PASSWORD, next: "a brand new password" })).toEqual({ endedSessions: 2 });
    expect(await replay(here)).not.toBeNull();
    expect(await replay(laptop)).toBeNull();
    expect(await replay(phone)).toBeNull();

    const limiter = new DatabaseRateLimiter(prisma);
    expect((await authenticateWithPassword(prisma, limiter, { email: user.email, password: PASSWORD }, "198.51.100.2")).ok).toBe(false);
    expect((await authenticateWithPassword(prisma, limiter, { email: user.email, password: "a brand new password" }, "198.51.100.2")).ok).toBe(true);
    const audit = await prisma.auditLog.findFirstOrThrow({ where: { action: "user.password_changed", actorUserId: user.id } });
    expect(audit.details).toEqual({ endedSessions: 2 });
  });

  it("is refused signed out", async () => {
    await expect(changePassword(prisma, null, { current: PASSWORD, next: "a brand new password" })).rejects.toMatchObject({ code: "signed_out" });
  });
});

describe("signing out of all other sessions", () => {
  it("ends the others, keeps this one, and lists what is left", async () => {
    const { user } = await account();
    const here = await sessionCookie(prisma, user.id);
    const other = await sessionCookie(prisma, user.id);
    const me = (await replay(here)) as Principal;
    expect((await securityOverview(prisma, me)).sessions).toHaveLength(2);
    expect(await signOutOtherSessions(prisma, me)).toEqual({ endedSessions: 1 });
    expect(await replay(other)).toBeNull();
    const overview = await securityOverview(prisma, me);
    expect(overview.hasPassword).toBe(true);
    expect(overview.sessions).toEqual([expect.objectContaining({ id: here.sessionId, current: true })]);
  });
});

describe("a platform lock", () => {
  it("signs the user out everywhere at once and keeps them out until unlocked", async () => {
    const { user } = await account();
    const browsers = await Promise.all([sessionCookie(prisma, user.id), sessionCookie(prisma, user.id)]);
    const locked = await lockUser(prisma, user.email, "card testing", { actorLabel: "cli" });
    expect(locked.endedSessions).toBe(2);
    for (const browser of browsers) expect(await replay(browser)).toBeNull();
    // A session started since (a race with the lock) is no session while the lock holds.
    const racing = await sessionCookie(prisma, user.id);
    expect(await replay(racing)).toBeNull();
    const limiter = new DatabaseRateLimiter(prisma);
    expect(await authenticateWithPassword(prisma, limiter, { email: user.email, password: PASSWORD }, "198.51.100.3")).toMatchObject({ reason: "locked" });
    await unlockUser(prisma, user.email, { actorLabel: "cli" });
    expect(await replay(racing)).not.toBeNull();
    expect((await authenticateWithPassword(prisma, limiter, { email: user.email, password: PASSWORD }, "198.51.100.3")).ok).toBe(true);
  });
});
