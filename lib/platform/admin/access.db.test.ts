import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/lib/auth/accounts";
import { textBytes } from "@/lib/data/import";
import type { Principal } from "@/lib/auth/session";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { addMembership } from "../members";
import { requestPlanChange } from "../plans";
import { setPlatformAdmin } from "./users";
import { requirePlatformAdmin } from "./access";
import { exportOverview } from "./routes";
import * as audit from "./audit";
import * as data from "./data";
import * as keys from "./keys";
import * as organizations from "./organizations";
import * as overview from "./overview";
import * as payments from "./payments";
import * as plans from "./plans";
import * as users from "./users";

/**
 * Every function of the console, tried as a customer owner, a member, a
 * signed-out visitor, and with the live session of an administrator whose
 * flag was revoked (or who was locked): each is refused with the console's
 * 404, and nothing in the database changes.
 */
process.env.NEXTAUTH_SECRET ??= "test-secret-for-session-cookies-0123456789";

let t: Testbed;
let fixture: Awaited<ReturnType<typeof setUp>>;

async function setUp() {
  const org = await t.org({ dollars: "3", name: "Target org" });
  const owner = await createUser(t.prisma, { email: "owner@target.test", password: "correct horse battery" });
  const member = await createUser(t.prisma, { email: "member@target.test", password: "correct horse battery" });
  await addMembership(t.prisma, { userId: owner.id, orgId: org.id, role: "OWNER" });
  await addMembership(t.prisma, { userId: member.id, orgId: org.id, role: "MEMBER" });
  const root = await createUser(t.prisma, { email: "root@platform.test", password: "correct horse battery" });
  const former = await createUser(t.prisma, { email: "former@platform.test", password: "correct horse battery" });
  const lockedAdmin = await createUser(t.prisma, { email: "locked@platform.test", password: "correct horse battery" });
  for (const id of [root.id, former.id, lockedAdmin.id]) await t.prisma.user.update({ where: { id }, data: { isPlatformAdmin: true } });
  // Their sessions were live while they were administrators; then one lost the flag and one was locked.
  await setPlatformAdmin(t.prisma, { id: former.id }, false, { actorLabel: "test" });
  await t.prisma.user.update({ where: { id: lockedAdmin.id }, data: { lockedAt: new Date(), lockedReason: "test" } });
  const request = await requestPlanChange(t.prisma, { userId: owner.id }, org.id, { plan: "enterprise" });
  const plan = await t.prisma.plan.findUniqueOrThrow({ where: { slug: "retail" } });
  return {
    org,
    plan,
    request,
    root: { userId: root.id, ip: "192.0.2.1" } satisfies Principal,
    refused: {
      "a customer owner": { userId: owner.id, ip: "198.51.100.1" },
      "a member": { userId: member.id, ip: "198.51.100.2" },
      "signed out": null,
      "an administrator whose flag was revoked": { userId: former.id, ip: "192.0.2.2" },
      "a locked administrator": { userId: lockedAdmin.id, ip: "192.0.2.3" },
    } as Record<string, Principal | null>,
    memberId: member.id,
  };
}

beforeAll(async () => {
  t = await openApiTestbed({ tickerCount: 2 });
  fixture = await setUp();
}, 120_000);
afterAll(() => t?.close());

type Call = (p: Principal | null) => Promise<unknown>;

/** Each console function with arguments that would succeed for an administrator. */
function calls(): Record<string, Call> {
  const f = fixture;
  const db = t.prisma;
  return {
    listPlatformAudit: (p) => audit.listPlatformAudit(db, p, {}),
    dataOverview: (p) => data.dataOverview(db, p),
    uploadDataFile: (p) => data.uploadDataFile(db, p, { fileName: "companies.csv", bytes: textBytes("ticker,name,exchange\nNEWCO,New Co,NASDAQ\n"), dryRun: false }),
    findKeys: (p) => keys.findKeys(db, p, f.org.keyId),
    keyActivity: (p) => keys.keyActivity(db, p, f.org.keyId),
    searchOrganizations: (p) => organizations.searchOrganizations(db, p, "Target"),
    organizationDetail: (p) => organizations.organizationDetail(db, p, f.org.id),
    changePlanAsAdmin: (p) => organizations.changePlanAsAdmin(db, p, f.org.id, "enterprise"),
    answerPlanRequestAsAdmin: (p) => organizations.answerPlanRequestAsAdmin(db, p, f.request.id, { decision: "approve", message: "Welcome" }),
    adjustCreditAsAdmin: (p) => organizations.adjustCreditAsAdmin(db, p, f.org.id, { direction: "add", amount: "100", reason: "free money", token: crypto.randomUUID() }),
    setSuspension: (p) => organizations.setSuspension(db, p, f.org.id, { suspend: true, reason: "because" }),
    disableKeyAsAdmin: (p) => organizations.disableKeyAsAdmin(db, p, f.org.keyId, "because"),
    enableKeyAsAdmin: (p) => organizations.enableKeyAsAdmin(db, p, f.org.keyId),
    deleteKeyAsAdmin: (p) => organizations.deleteKeyAsAdmin(db, p, f.org.keyId),
    restrictKeyAsAdmin: (p) => organizations.restrictKeyAsAdmin(db, p, f.org.keyId, { endpoints: ["offerings"], reason: "because" }),
    platformOverview: (p) => overview.platformOverview(db, p, {}),
    listPayments: (p) => payments.listPayments(db, p, {}),
    paymentsPage: (p) => payments.paymentsPage(db, p, {}),
    listPlansForAdmin: (p) => plans.listPlansForAdmin(db, p),
    createPlan: (p) => plans.createPlan(db, p, { slug: "sneaky", name: "Sneaky", allowedEndpoints: ["offerings"], requestsPerMinute: "10", isTrial: false, dailyTickerLimit: "" }),
    updatePlan: (p) => plans.updatePlan(db, p, f.plan.id, { name: "Cheap", allowedEndpoints: ["offerings"], requestsPerMinute: "100000", isTrial: false, dailyTickerLimit: "" }),
    deletePlan: (p) => plans.deletePlan(db, p, f.plan.id),
    priceScheduleForAdmin: (p) => plans.priceScheduleForAdmin(db, p),
    schedulePriceChange: (p) => plans.schedulePriceChange(db, p, { endpoint: "offerings", price: "0.01" }),
    searchUsers: (p) => users.searchUsers(db, p, {}),
    userDetail: (p) => users.userDetail(db, p, f.memberId),
    grantPlatformAdmin: (p) => users.grantPlatformAdmin(db, p, f.memberId),
    revokePlatformAdmin: (p) => users.revokePlatformAdmin(db, p, f.root.userId),
    lockUserAsAdmin: (p) => users.lockUserAsAdmin(db, p, f.memberId, { reason: "because" }),
    unlockUserAsAdmin: (p) => users.unlockUserAsAdmin(db, p, f.memberId),
  };
}

/** Exports that are not console entry points: the gate itself, pure helpers, reads that pages call after their own check, and route handlers (tested below). */
const NOT_ENTRY_POINTS = new Set([
  "readAuditFilters",
  "AUDIT_ACTION_GROUPS",
  "uploadAnswer",
  "uploadDataRoute",
  "overviewCsv",
  "paymentState",
  "stripeDashboardUrl",
  "paymentsNeedingAttention",
  "priceSchedule",
  "parseUtcMoment",
  "setPlatformAdmin",
]);

/** What an administrator could change, as one comparable value. */
async function everything() {
  const db = t.prisma;
  const [orgs, apiKeys, planRows, prices, people, ledger, auditCount, loads, companies, requests] = await Promise.all([
    db.organization.findMany({ orderBy: { id: "asc" }, select: { id: true, balanceNanos: true, planId: true, suspendedAt: true } }),
    db.apiKey.findMany({ orderBy: { id: "asc" }, select: { id: true, status: true, allowedEndpoints: true, platformEndpoints: true, deletedAt: true } }),
    db.plan.findMany({ orderBy: { id: "asc" } }),
    db.priceChange.count(),
    db.user.findMany({ orderBy: { id: "asc" }, select: { id: true, isPlatformAdmin: true, lockedAt: true } }),
    db.creditLedgerEntry.count(),
    db.auditLog.count(),
    db.dataLoad.count(),
    db.company.count(),
    db.planChangeRequest.findMany({ orderBy: { id: "asc" }, select: { id: true, status: true } }),
  ]);
  return JSON.stringify({ orgs, apiKeys, planRows, prices, people, ledger, auditCount, loads, companies, requests }, (_, v) => (typeof v === "bigint" ? v.toString() : v));
}

describe("the console's gate", () => {
  it("covers every exported function of lib/platform/admin", () => {
    const exported = [audit, data, keys, organizations, overview, payments, plans, users].flatMap((m) =>
      Object.entries(m).filter(([, value]) => typeof value === "function").map(([name]) => name),
    );
    const untested = exported.filter((name) => !(name in calls()) && !NOT_ENTRY_POINTS.has(name));
    expect(untested).toEqual([]);
  });

  it("refuses every function to everyone but a platform administrator, and nothing changes", async () => {
    const before = await everything();
    for (const [who, principal] of Object.entries(fixture.refused)) {
      for (const [name, call] of Object.entries(calls())) {
        await expect(call(principal), `${name} as ${who}`).rejects.toMatchObject({ code: "not_found", message: "Not found." });
      }
    }
    expect(await everything()).toBe(before);
  });

  it("lets an administrator through (the same arguments work for them)", async () => {
    await expect(requirePlatformAdmin(t.prisma, fixture.root)).resolves.toMatchObject({ user: { email: "root@platform.test" } });
    await expect(organizations.organizationDetail(t.prisma, fixture.root, fixture.org.id)).resolves.toMatchObject({ org: { id: fixture.org.id } });
    await expect(organizations.setSuspension(t.prisma, fixture.root, fixture.org.id, { suspend: true, reason: "because" })).resolves.toBeUndefined();
    await organizations.setSuspension(t.prisma, fixture.root, fixture.org.id, { suspend: false });
  });

  it("answers the console's routes as an unknown path (Next's notFound) for anyone else", async () => {
    const database = async () => ({ prisma: t.prisma });
    await expect(exportOverview(new Request("http://app.test/admin/export"), database)).rejects.toMatchObject({ digest: expect.stringContaining("NEXT_HTTP_ERROR_FALLBACK;404") });
    await expect(data.uploadDataRoute(new Request("http://app.test/admin/data/upload?dry_run=1", { method: "POST", body: "x" }), database)).rejects.toMatchObject({
      digest: expect.stringContaining("NEXT_HTTP_ERROR_FALLBACK;404"),
    });
  });
});
