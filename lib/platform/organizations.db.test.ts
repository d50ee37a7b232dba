import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDefaultPlans } from "@/lib/billing/plans";
import type { Database, PrismaClient } from "@/lib/db";
import { openTestDatabase } from "@/tests/support/database";
import { seedCast } from "@/tests/support/platform";
import type { Principal } from "@/lib/auth/session";
import { createOrganizationFor, listMemberships, renameOrganization } from "./organizations";

let db: Database;
let prisma: PrismaClient;
let orgA: string;
let orgB: string;
let owner: Principal;
let admin: Principal;
let member: Principal;
let outsider: Principal;

beforeAll(async () => {
  db = await openTestDatabase();
  prisma = db.prisma;
  await ensureDefaultPlans(prisma);
  ({ orgA, orgB, owner, admin, member, outsider } = await seedCast(prisma));
}, 120_000);
afterAll(() => db?.close());

const snapshot = async () => ({
  organizations: await prisma.organization.findMany({ orderBy: { id: "asc" } }),
  memberships: await prisma.membership.count(),
  audit: await prisma.auditLog.count(),
});

async function expectRefused(run: () => Promise<unknown>, expected: { code: string } | RegExp) {
  const before = await snapshot();
  if (expected instanceof RegExp) await expect(run()).rejects.toThrow(expected);
  else await expect(run()).rejects.toMatchObject(expected);
  expect(await snapshot()).toEqual(before);
}

describe("renaming an organization", () => {
  it("owners and admins may, recorded with actor, IP and both names", async () => {
    const renamed = await renameOrganization(prisma, owner, orgA, "  Acme Trading  ");
    expect(renamed.name).toBe("Acme Trading");
    const entry = await prisma.auditLog.findFirstOrThrow({ where: { orgId: orgA, action: "org.renamed" }, orderBy: { id: "desc" } });
    expect(entry).toMatchObject({ actorUserId: owner.userId, ip: "10.0.0.1", targetId: orgA, details: { from: "Ann's organization", to: "Acme Trading" } });

    await renameOrganization(prisma, admin, orgA, "Acme Capital");
    expect((await prisma.organization.findUniqueOrThrow({ where: { id: orgA } })).name).toBe("Acme Capital");
    expect(await prisma.auditLog.findFirstOrThrow({ where: { orgId: orgA, action: "org.renamed" }, orderBy: { id: "desc" } })).toMatchObject({
      actorUserId: admin.userId,
      ip: "10.0.0.3",
      details: { from: "Acme Trading", to: "Acme Capital" },
    });
  });

  it("the same name again changes nothing and logs nothing", async () => {
    const before = await snapshot();
    await renameOrganization(prisma, owner, orgA, "Acme Capital");
    expect(await snapshot()).toEqual(before);
  });

  it("is refused to a member, to another organization's owner, signed out, and for a made-up organization", async () => {
    await expectRefused(() => renameOrganization(prisma, member, orgA, "Mine now"), { code: "forbidden" });
    await expectRefused(() => renameOrganization(prisma, outsider, orgA, "Mine now"), { code: "not_member" });
    await expectRefused(() => renameOrganization(prisma, null, orgA, "Mine now"), { code: "signed_out" });
    await expectRefused(() => renameOrganization(prisma, owner, orgB, "Mine now"), { code: "not_member" });
    await expectRefused(() => renameOrganization(prisma, owner, "00000000-0000-4000-8000-000000000000", "Mine now"), { code: "not_member" });
  });

  it("refuses names that are too short, too long or not text", async () => {
    await expectRefused(() => renameOrganization(prisma, owner, orgA, " x "), /at least 2 characters/);
    await expectRefused(() => renameOrganization(prisma, owner, orgA, "x".repeat(81)), /at most 80 characters/);
    await expectRefused(() => renameOrganization(prisma, owner, orgA, { name: "Object" }), /expected string/i);
  });
});

describe("creating another organization", () => {
  it("makes the user its owner, on the Trial plan, with an audit entry", async () => {
    const org = await createOrganizationFor(prisma, member, "  Mia's side project ");
    const created = await prisma.organization.findUniqueOrThrow({ where: { id: org.id }, include: { plan: true, memberships: true } });
    expect(created).toMatchObject({ name: "Mia's side project", balanceNanos: 0n, plan: { slug: "trial" } });
    expect(created.memberships).toEqual([expect.objectContaining({ userId: member.userId, role: "OWNER" })]);
    const entry = await prisma.auditLog.findFirstOrThrow({ where: { orgId: org.id, action: "org.created" } });
    expect(entry).toMatchObject({ actorUserId: member.userId, ip: "10.0.0.4", details: { name: "Mia's side project", plan: "trial" } });

    // Mia now belongs to both, oldest membership first; her role in A is unchanged.
    const memberships = await listMemberships(prisma, member.userId);
    expect(memberships.map((m) => [m.organization.id, m.role])).toEqual([
      [orgA, "MEMBER"],
      [org.id, "OWNER"],
    ]);
  });

  it("is refused signed out, and for a bad name, creating nothing", async () => {
    await expectRefused(() => createOrganizationFor(prisma, null, "Ghost Inc"), { code: "signed_out" });
    await expectRefused(() => createOrganizationFor(prisma, owner, "a"), /at least 2 characters/);
    await expectRefused(() => createOrganizationFor(prisma, owner, undefined), /expected string/i);
  });
});
