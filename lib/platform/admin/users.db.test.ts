import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { principalFromCookies, type Principal } from "@/lib/auth/session";
import { ensureDefaultPlans } from "@/lib/billing/plans";
import { runCli } from "@/lib/cli";
import type { Database, PrismaClient } from "@/lib/db";
import { openTestDatabase } from "@/tests/support/database";
import { sessionCookie } from "@/tests/support/platform";
import { signUp } from "../accounts";
import { addMembership } from "../members";
import { PLATFORM_ACTOR_LABEL } from "./access";
import { grantPlatformAdmin, lockUserAsAdmin, revokePlatformAdmin, searchUsers, setPlatformAdmin, unlockUserAsAdmin, userDetail } from "./users";

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

/** A user who signed up (with their own organization), and the principal they act with. */
async function person(name = "Person") {
  const n = ++counter;
  const { user, org } = await signUp(prisma, { email: `user-${n}@example.test`, password: "a long enough password", name: `${name} ${n}` }, "198.51.100.1");
  return { user, org, principal: { userId: user.id, ip: `198.51.100.${n % 250}` } satisfies Principal };
}

/** Exactly these users are platform administrators (unlocked); everyone else is not. */
async function onlyAdmins(...ids: string[]) {
  await prisma.user.updateMany({ where: { id: { notIn: ids } }, data: { isPlatformAdmin: false } });
  await prisma.user.updateMany({ where: { id: { in: ids } }, data: { isPlatformAdmin: true, lockedAt: null, lockedReason: null } });
}

const isAdmin = async (id: string) => (await prisma.user.findUniqueOrThrow({ where: { id } })).isPlatformAdmin;
const replay = (browser: { getCookie: (name: string) => string | undefined }) => principalFromCookies(prisma, browser.getCookie, "198.51.100.9");

describe("finding users", () => {
  it("searches by email, name and id, narrows to administrators or locked users, and shows one user's organizations and sessions", async () => {
    const admin = await person("Searcher");
    const target = await person("Zelda Quux");
    await onlyAdmins(admin.user.id);
    const other = await signUp(prisma, { email: `other-${++counter}@example.test`, password: "a long enough password" }, null);
    await addMembership(prisma, { userId: target.user.id, orgId: other.org.id, role: "ADMIN" });
    await sessionCookie(prisma, target.user.id);
    await sessionCookie(prisma, target.user.id);

    const byEmail = await searchUsers(prisma, admin.principal, { q: target.user.email.toUpperCase() });
    expect(byEmail.users.map((u) => u.id)).toEqual([target.user.id]);
    expect((await searchUsers(prisma, admin.principal, { q: "zelda QUUX" })).users.map((u) => u.id)).toEqual([target.user.id]);
    expect((await searchUsers(prisma, admin.principal, { q: target.user.id })).users.map((u) => u.id)).toEqual([target.user.id]);
    const admins = await searchUsers(prisma, admin.principal, { show: "admins" });
    expect(admins.users.map((u) => u.id)).toEqual([admin.user.id]);
    expect(admins.activeAdmins).toBe(1);
    expect((await searchUsers(prisma, admin.principal, { show: "nonsense", q: 42 })).show).toBe("all");

    const detail = await userDetail(prisma, admin.principal, target.user.id);
    expect(detail?.liveSessions).toBe(2);
    expect(detail?.memberships.map((m) => [m.organization.id, m.role])).toEqual([
      [target.org.id, "OWNER"],
      [other.org.id, "ADMIN"],
    ]);
    expect(await userDetail(prisma, admin.principal, "not-an-id")).toBeNull();
  });

  it("is refused to anyone who is not a platform administrator, as an unknown page", async () => {
    const someone = await person();
    await expect(searchUsers(prisma, someone.principal, {})).rejects.toMatchObject({ code: "not_found" });
    await expect(searchUsers(prisma, null, {})).rejects.toMatchObject({ code: "not_found" });
    await expect(userDetail(prisma, someone.principal, someone.user.id)).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("the platform-administrator flag", () => {
  it("is granted and revoked with an audit entry naming the administrator, and a revoked administrator's next call is refused", async () => {
    const ann = await person("Ann");
    const bea = await person("Bea");
    await onlyAdmins(ann.user.id);

    expect(await grantPlatformAdmin(prisma, ann.principal, bea.user.id)).toMatchObject({ isPlatformAdmin: true, changed: true });
    expect(await isAdmin(bea.user.id)).toBe(true);
    expect((await searchUsers(prisma, bea.principal, {})).activeAdmins).toBe(2); // Bea can use the console now
    const granted = await prisma.auditLog.findFirstOrThrow({ where: { action: "user.admin_granted", targetId: bea.user.id } });
    expect(granted).toMatchObject({ actorUserId: ann.user.id, actorLabel: PLATFORM_ACTOR_LABEL, ip: ann.principal.ip, targetType: "user" });
    expect(granted.details).toEqual({ email: bea.user.email, before: { platform_admin: false }, after: { platform_admin: true } });

    // Granting again changes nothing and writes nothing.
    expect(await grantPlatformAdmin(prisma, ann.principal, bea.user.id)).toMatchObject({ changed: false });
    expect(await prisma.auditLog.count({ where: { action: "user.admin_granted", targetId: bea.user.id } })).toBe(1);

    expect(await revokePlatformAdmin(prisma, ann.principal, bea.user.id)).toMatchObject({ isPlatformAdmin: false, changed: true });
    const revoked = await prisma.auditLog.findFirstOrThrow({ where: { action: "user.admin_revoked", targetId: bea.user.id } });
    expect(revoked.details).toEqual({ email: bea.user.email, before: { platform_admin: true }, after: { platform_admin: false } });

    // The flag is read from the database on every call: Bea's very next call is refused, and changes nothing.
    await expect(searchUsers(prisma, bea.principal, {})).rejects.toMatchObject({ code: "not_found" });
    await expect(grantPlatformAdmin(prisma, bea.principal, bea.user.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(revokePlatformAdmin(prisma, bea.principal, ann.user.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(lockUserAsAdmin(prisma, bea.principal, ann.user.id, { reason: "revenge" })).rejects.toMatchObject({ code: "not_found" });
    expect(await isAdmin(bea.user.id)).toBe(false);
    expect(await isAdmin(ann.user.id)).toBe(true);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: ann.user.id } })).lockedAt).toBeNull();
  });

  it("cannot be removed by an administrator from themselves", async () => {
    const ann = await person("Ann");
    const bea = await person("Bea");
    await onlyAdmins(ann.user.id, bea.user.id);
    await expect(revokePlatformAdmin(prisma, ann.principal, ann.user.id)).rejects.toMatchObject({ code: "own_admin_flag" });
    expect(await isAdmin(ann.user.id)).toBe(true);
    expect(await prisma.auditLog.count({ where: { action: "user.admin_revoked", targetId: ann.user.id } })).toBe(0);
  });

  it("is never taken from the last administrator who can sign in, even when two revoke each other at once", async () => {
    const ann = await person("Ann");
    const bea = await person("Bea");
    await onlyAdmins(ann.user.id);
    // The CLI has no "self": only the last-admin rule stops it.
    await expect(setPlatformAdmin(prisma, { email: ann.user.email }, false, { actorLabel: "cli" })).rejects.toMatchObject({ code: "last_admin" });
    expect(await isAdmin(ann.user.id)).toBe(true);

    // A locked administrator does not count: with Bea locked, Ann is still the last one.
    await onlyAdmins(ann.user.id, bea.user.id);
    await prisma.user.update({ where: { id: bea.user.id }, data: { lockedAt: new Date(), lockedReason: "test" } });
    await expect(setPlatformAdmin(prisma, { id: ann.user.id }, false, { actorLabel: "cli" })).rejects.toMatchObject({ code: "last_admin" });
    // …and removing the locked one takes nobody who can sign in away.
    expect(await setPlatformAdmin(prisma, { id: bea.user.id }, false, { actorLabel: "cli" })).toMatchObject({ changed: true });

    // Two revocations at once, each of the other: one wins, the other finds one administrator left and is refused.
    await onlyAdmins(ann.user.id, bea.user.id);
    const results = await Promise.allSettled([
      setPlatformAdmin(prisma, { id: bea.user.id }, false, { actorUserId: ann.user.id, actorLabel: PLATFORM_ACTOR_LABEL }),
      setPlatformAdmin(prisma, { id: ann.user.id }, false, { actorUserId: bea.user.id, actorLabel: PLATFORM_ACTOR_LABEL }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({ reason: { code: "last_admin" } });
    expect(await prisma.user.count({ where: { isPlatformAdmin: true, lockedAt: null, deletedAt: null } })).toBe(1);

    // The same through the console, where each also has to pass the gate: one administrator remains.
    await onlyAdmins(ann.user.id, bea.user.id);
    const viaConsole = await Promise.allSettled([
      revokePlatformAdmin(prisma, ann.principal, bea.user.id),
      revokePlatformAdmin(prisma, bea.principal, ann.user.id),
    ]);
    expect(viaConsole.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await prisma.user.count({ where: { isPlatformAdmin: true, lockedAt: null, deletedAt: null } })).toBe(1);
  });

  it("is set from the CLI with user:set-admin (docs/console.md's first administrator)", async () => {
    const ann = await person("Ann");
    const bea = await person("Bea");
    await onlyAdmins(ann.user.id);
    const granted = await runCli(["user:set-admin", "--email", bea.user.email.toUpperCase(), "--grant"], prisma);
    expect(granted).toMatchObject({ exitCode: 0, stdout: `${bea.user.email} is now a platform administrator.\n` });
    expect(await isAdmin(bea.user.id)).toBe(true);
    expect(await prisma.auditLog.findFirstOrThrow({ where: { action: "user.admin_granted", targetId: bea.user.id } })).toMatchObject({ actorUserId: null, actorLabel: "cli" });
    expect((await runCli(["user:set-admin", "--email", bea.user.email, "--grant"], prisma)).stdout).toContain("is already a platform administrator");

    const json = await runCli(["user:set-admin", "--email", bea.user.email, "--revoke", "--json"], prisma);
    expect(JSON.parse(json.stdout)).toEqual({ id: bea.user.id, email: bea.user.email, platform_admin: false, changed: true });

    const last = await runCli(["user:set-admin", "--email", ann.user.email, "--revoke"], prisma);
    expect(last).toMatchObject({ exitCode: 1 });
    expect(last.stderr).toMatch(/only platform administrator/);
    expect(await runCli(["user:set-admin", "--email", "nobody@example.test", "--grant"], prisma)).toMatchObject({ exitCode: 1, stderr: expect.stringMatching(/No user with email/) });
    expect(await runCli(["user:set-admin", "--email", ann.user.email], prisma)).toMatchObject({ exitCode: 2, stderr: expect.stringMatching(/exactly one of --grant and --revoke/) });
    expect(await runCli(["user:set-admin", "--email", ann.user.email, "--grant", "--revoke"], prisma)).toMatchObject({ exitCode: 2 });
  });
});

describe("locking a user", () => {
  it("ends every session and keeps them out until unlocked, with a reason in the audit log", async () => {
    const ann = await person("Ann");
    const target = await person("Target");
    await onlyAdmins(ann.user.id);
    const browsers = await Promise.all([sessionCookie(prisma, target.user.id), sessionCookie(prisma, target.user.id)]);

    await expect(lockUserAsAdmin(prisma, ann.principal, target.user.id, { reason: " " })).rejects.toThrow(/Say why/);
    const locked = await lockUserAsAdmin(prisma, ann.principal, target.user.id, { reason: "  card testing  " });
    expect(locked).toEqual({ userId: target.user.id, email: target.user.email, endedSessions: 2 });
    for (const browser of browsers) expect(await replay(browser)).toBeNull();
    expect(await prisma.user.findUniqueOrThrow({ where: { id: target.user.id } })).toMatchObject({ lockedReason: "card testing" });
    const entry = await prisma.auditLog.findFirstOrThrow({ where: { action: "user.locked", targetId: target.user.id } });
    expect(entry).toMatchObject({ actorUserId: ann.user.id, actorLabel: PLATFORM_ACTOR_LABEL });
    expect(entry.details).toMatchObject({ email: target.user.email, reason: "card testing", endedSessions: 2, before: { locked: false }, after: { locked: true } });
    expect((await searchUsers(prisma, ann.principal, { show: "locked" })).users.map((u) => u.id)).toContain(target.user.id);

    expect(await unlockUserAsAdmin(prisma, ann.principal, target.user.id)).toMatchObject({ changed: true });
    expect(await prisma.user.findUniqueOrThrow({ where: { id: target.user.id } })).toMatchObject({ lockedAt: null, lockedReason: null });
    expect(await prisma.auditLog.findFirstOrThrow({ where: { action: "user.unlocked", targetId: target.user.id } })).toMatchObject({ actorUserId: ann.user.id });
    expect(await replay(await sessionCookie(prisma, target.user.id))).not.toBeNull();
    // Unlocking again changes nothing.
    expect(await unlockUserAsAdmin(prisma, ann.principal, target.user.id)).toMatchObject({ changed: false });
    expect(await prisma.auditLog.count({ where: { action: "user.unlocked", targetId: target.user.id } })).toBe(1);
  });

  it("refuses locking yourself, an unknown user, and anything from a non-administrator", async () => {
    const ann = await person("Ann");
    const someone = await person("Someone");
    await onlyAdmins(ann.user.id);
    await expect(lockUserAsAdmin(prisma, ann.principal, ann.user.id, { reason: "oops" })).rejects.toMatchObject({ code: "lock_self" });
    await expect(lockUserAsAdmin(prisma, ann.principal, "00000000-0000-4000-8000-000000000000", { reason: "who" })).rejects.toMatchObject({ code: "unknown_user" });
    await expect(lockUserAsAdmin(prisma, someone.principal, ann.user.id, { reason: "coup" })).rejects.toMatchObject({ code: "not_found" });
    await expect(unlockUserAsAdmin(prisma, someone.principal, someone.user.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(grantPlatformAdmin(prisma, someone.principal, someone.user.id)).rejects.toMatchObject({ code: "not_found" });
    expect(await prisma.user.findUniqueOrThrow({ where: { id: ann.user.id } })).toMatchObject({ lockedAt: null, isPlatformAdmin: true });
    expect(await isAdmin(someone.user.id)).toBe(false);
  });

  it("never locks the last administrator who can sign in, even when two lock each other at once", async () => {
    const ann = await person("Ann");
    const bea = await person("Bea");
    await onlyAdmins(ann.user.id, bea.user.id);
    const results = await Promise.allSettled([
      lockUserAsAdmin(prisma, ann.principal, bea.user.id, { reason: "mutual" }),
      lockUserAsAdmin(prisma, bea.principal, ann.user.id, { reason: "mutual" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({ reason: { code: expect.stringMatching(/^(last_admin|not_found)$/) } });
    expect(await prisma.user.count({ where: { isPlatformAdmin: true, lockedAt: null, deletedAt: null } })).toBe(1);
  });
});
