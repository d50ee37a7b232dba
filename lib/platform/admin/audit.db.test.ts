import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAudit } from "@/lib/audit";
import type { Principal } from "@/lib/auth/session";
import { ensureDefaultPlans } from "@/lib/billing/plans";
import type { Database, PrismaClient } from "@/lib/db";
import { openTestDatabase } from "@/tests/support/database";
import { signUp } from "../accounts";
import { PLATFORM_ACTOR_LABEL } from "./access";
import { AUDIT_ACTION_GROUPS, listPlatformAudit, PLATFORM_AUDIT_PAGE_SIZE, readAuditFilters } from "./audit";

let db: Database;
let prisma: PrismaClient;
let admin: Principal;
let adminEmail: string;
let customer: Principal;
let customerEmail: string;
let acme: string;
let globex: string;

beforeAll(async () => {
  db = await openTestDatabase();
  prisma = db.prisma;
  await ensureDefaultPlans(prisma);
  const a = await signUp(prisma, { email: "root@platform.test", password: "a long enough password" }, "203.0.113.1");
  await prisma.user.update({ where: { id: a.user.id }, data: { isPlatformAdmin: true } });
  admin = { userId: a.user.id, ip: "203.0.113.1" };
  adminEmail = a.user.email;
  const c = await signUp(prisma, { email: "carol@acme.test", password: "a long enough password" }, "203.0.113.2");
  customer = { userId: c.user.id, ip: "203.0.113.2" };
  customerEmail = c.user.email;
  acme = c.org.id;
  await prisma.organization.update({ where: { id: acme }, data: { name: "Acme Dilution Research" } });
  globex = (await signUp(prisma, { email: "gus@globex.test", password: "a long enough password" }, null)).org.id;

  // A customer's key changes in Acme, an administrator's suspension of Globex, an operator's credit on Globex, spread over three days.
  const day = (d: string) => new Date(`${d}T12:00:00.000Z`);
  const entries = [
    { action: "key.created", orgId: acme, actorUserId: c.user.id, ip: "203.0.113.2", details: { name: "Bot", hint: "ak_live_abcd" }, createdAt: day("2031-01-10") },
    { action: "key.deleted", orgId: acme, actorUserId: c.user.id, ip: "203.0.113.2", details: { name: "Bot", hint: "ak_live_abcd" }, createdAt: day("2031-01-11") },
    { action: "org.suspended", orgId: globex, actorUserId: a.user.id, actorLabel: PLATFORM_ACTOR_LABEL, ip: "203.0.113.1", details: { reason: "abuse", before: { suspended: false }, after: { suspended: true } }, createdAt: day("2031-01-11") },
    { action: "credits.adjusted", orgId: globex, actorLabel: "cli", details: { amount_dollars: "$5.00", reason: "goodwill" }, createdAt: day("2031-01-12") },
  ];
  for (const entry of entries) await prisma.auditLog.create({ data: entry });
}, 120_000);
afterAll(() => db?.close());

const ids = async (filters: Record<string, unknown>) => (await listPlatformAudit(prisma, admin, filters)).entries.map((e) => e.action);

describe("the platform audit log", () => {
  it("shows every organization's entries, newest first, with the actor's email and the organization", async () => {
    const { entries, notes } = await listPlatformAudit(prisma, admin, {});
    expect(notes).toEqual([]);
    const ordered = entries.map((e) => BigInt(e.id));
    expect(ordered).toEqual([...ordered].sort((x, y) => (x > y ? -1 : 1)));
    const suspended = entries.find((e) => e.action === "org.suspended")!;
    expect(suspended).toMatchObject({ actorEmail: adminEmail, byPlatformAdmin: true, org: { id: globex }, ip: "203.0.113.1", details: { reason: "abuse" } });
    expect(entries.find((e) => e.action === "credits.adjusted")).toMatchObject({ actorEmail: null, actorLabel: "cli", byPlatformAdmin: false });
    expect(entries.find((e) => e.action === "key.created")).toMatchObject({ actorEmail: customerEmail, org: { id: acme, name: "Acme Dilution Research" } });
  });

  it("narrows by organization (id or part of the name), actor (email or label), action (or its group) and UTC days", async () => {
    expect(await ids({ org: acme })).toEqual(["key.deleted", "key.created", "org.created"]);
    expect(await ids({ org: "dilution RES" })).toEqual(["key.deleted", "key.created", "org.created"]);
    expect(await ids({ org: globex, action: "org.suspended" })).toEqual(["org.suspended"]);

    expect(await ids({ actor: "CAROL@acme" })).toEqual(expect.arrayContaining(["key.deleted", "key.created"]));
    expect((await listPlatformAudit(prisma, admin, { actor: "carol@acme" })).entries.every((e) => e.actorEmail === customerEmail)).toBe(true);
    expect(await ids({ actor: "cli" })).toEqual(["credits.adjusted"]);
    expect(await ids({ actor: "nobody@nowhere.test" })).toEqual([]);

    expect(await ids({ action: "key.*" })).toEqual(["key.deleted", "key.created"]);
    expect(await ids({ action: "credits.adjusted" })).toEqual(["credits.adjusted"]);

    expect(await ids({ from: "2031-01-11", to: "2031-01-11" })).toEqual(["org.suspended", "key.deleted"]);
    expect(await ids({ from: "2031-01-11" })).toEqual(["credits.adjusted", "org.suspended", "key.deleted"]);
    expect(await ids({ to: "2031-01-10", org: acme })).toEqual(["key.created", "org.created"]);
    expect(await ids({ from: "2031-01-11", org: acme, actor: "carol", action: "key.*" })).toEqual(["key.deleted"]);
  });

  it("pages 50 at a time with before=<id>, keeping the filters", async () => {
    for (let i = 0; i < PLATFORM_AUDIT_PAGE_SIZE + 5; i++) {
      await recordAudit(prisma, { action: "key.restricted", orgId: globex, actorLabel: "cli", details: { name: `K${i}`, endpoints: [] } });
    }
    const first = await listPlatformAudit(prisma, admin, { action: "key.restricted" });
    expect(first.entries).toHaveLength(PLATFORM_AUDIT_PAGE_SIZE);
    expect(first.nextBefore).toBe(first.entries.at(-1)!.id);
    const second = await listPlatformAudit(prisma, admin, { action: "key.restricted", before: first.nextBefore });
    expect(second.entries).toHaveLength(5);
    expect(second.nextBefore).toBeNull();
    expect(BigInt(second.entries[0]!.id)).toBeLessThan(BigInt(first.nextBefore!));
  });

  it("drops a filter it cannot read, and says so", async () => {
    const { filters, notes, before } = readAuditFilters({ action: "key.exploded", from: "2031-02-30", to: ["2031-01-12", "2031-01-13"], before: "abc", org: 7 });
    expect(filters).toEqual({ org: "", actor: "", action: "", from: "", to: "2031-01-12" });
    expect(before).toBeUndefined();
    expect(notes).toEqual([expect.stringMatching(/not an action/), expect.stringMatching(/not a day/)]);
    expect(readAuditFilters({ from: "2031-01-12", to: "2031-01-10" }).notes).toEqual([expect.stringMatching(/ends before it starts/)]);
    expect(AUDIT_ACTION_GROUPS.find((g) => g.prefix === "price")?.actions).toEqual(["price.scheduled"]);
  });

  it("is refused to anyone who is not a platform administrator", async () => {
    await expect(listPlatformAudit(prisma, customer, {})).rejects.toMatchObject({ code: "not_found" });
    await expect(listPlatformAudit(prisma, null, {})).rejects.toMatchObject({ code: "not_found" });
    await prisma.user.update({ where: { id: admin.userId }, data: { lockedAt: new Date() } });
    await expect(listPlatformAudit(prisma, admin, {})).rejects.toMatchObject({ code: "not_found" });
    await prisma.user.update({ where: { id: admin.userId }, data: { lockedAt: null } });
  });
});
