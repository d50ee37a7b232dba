import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateWithPassword, createUser } from "@/lib/auth/accounts";
import { principalFromCookies } from "@/lib/auth/session";
import { changeBalance, ledgerTotals } from "@/lib/billing/ledger";
import { createKey } from "@/lib/keys/manage";
import { parseDollars } from "@/lib/money";
import { DatabaseRateLimiter } from "@/lib/rate-limit";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { CAST_PASSWORD, sessionCookie } from "@/tests/support/platform";
import { deleteAccount, signUp } from "./accounts";
import { addMembership } from "./members";
import { closeOrganization } from "./organizations";
import { listPlanRequests, requestPlanChange, withdrawPlanRequest } from "./plans";

process.env.NEXTAUTH_SECRET ??= "test-secret-for-session-cookies-0123456789";

let t: Testbed;
let counter = 0;
beforeAll(async () => {
  t = await openApiTestbed({ tickerCount: 5 });
}, 120_000);
afterAll(() => t?.close());

/** A customer: an owner, an admin and a member, a key and some credit, and one paid request in the usage log. */
async function customer(dollars = "5") {
  const n = ++counter;
  const owner = await signUp(t.prisma, { email: `own${n}@close.test`, password: CAST_PASSWORD }, "10.1.0.1");
  const orgId = owner.org.id;
  // People who belong to this organization only, as an invitation to a new user leaves them.
  const join = async (email: string, role: "ADMIN" | "MEMBER") => {
    const person = await createUser(t.prisma, { email, password: CAST_PASSWORD });
    await addMembership(t.prisma, { userId: person.id, orgId, role });
    return { userId: person.id, email };
  };
  const admin = await join(`adm${n}@close.test`, "ADMIN");
  const member = await join(`mem${n}@close.test`, "MEMBER");
  await t.prisma.organization.update({ where: { id: orgId }, data: { plan: { connect: { slug: "retail" } } } });
  if (dollars !== "0") await changeBalance(t.prisma, { orgId, kind: "ADJUSTMENT", amountNanos: parseDollars(dollars) });
  const { key } = await createKey(t.prisma, { orgId, name: "bot" }, { actorLabel: "test" });
  const ticker = (await t.prisma.company.findFirstOrThrow({ orderBy: { ticker: "asc" } })).ticker;
  expect((await t.request(`/v1/dilution-rating?ticker=${ticker}`, { key })).status).toBe(dollars === "0" ? 402 : 200);
  return { orgId, owner: { userId: owner.user.id, email: owner.user.email }, admin, member, key, ticker, name: owner.org.name };
}

const records = (orgId: string) =>
  Promise.all([
    t.prisma.creditLedgerEntry.count({ where: { orgId } }),
    t.prisma.usageEvent.count({ where: { orgId } }),
    t.prisma.auditLog.count({ where: { orgId } }),
  ]);

describe("closing an organization", () => {
  it("is for owners, after typing its name, and forfeits credit only when that is confirmed", async () => {
    const c = await customer();
    await expect(closeOrganization(t.prisma, { userId: c.admin.userId }, c.orgId, { confirmName: c.name, forfeitCredit: true })).rejects.toMatchObject({ code: "forbidden" });
    await expect(closeOrganization(t.prisma, { userId: c.member.userId }, c.orgId, { confirmName: c.name, forfeitCredit: true })).rejects.toMatchObject({ code: "forbidden" });
    await expect(closeOrganization(t.prisma, c.owner, c.orgId, { confirmName: "something else", forfeitCredit: true })).rejects.toMatchObject({ code: "confirmation_mismatch" });
    await expect(closeOrganization(t.prisma, c.owner, c.orgId, { confirmName: c.name })).rejects.toMatchObject({ code: "credit_not_forfeited", message: expect.stringContaining("$4.99") });
    const org = await t.prisma.organization.findUniqueOrThrow({ where: { id: c.orgId } });
    expect(org.closedAt).toBeNull();
    expect(org.balanceNanos).toBeGreaterThan(0n);
  });

  it("stops its keys at once, removes its members, zeroes its credit through the ledger, and keeps every record", async () => {
    const c = await customer();
    const [ledgerBefore, usageBefore, auditBefore] = await records(c.orgId);
    const before = await t.balance(c.orgId);
    const closed = await closeOrganization(t.prisma, c.owner, c.orgId, { confirmName: `  ${c.name} `, forfeitCredit: true });
    expect(closed).toEqual({ forfeitedNanos: before, keysDeleted: 1 });

    const refused = await t.json(`/v1/dilution-rating?ticker=${c.ticker}`, { key: c.key });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("invalid_api_key");
    expect(await t.prisma.membership.count({ where: { orgId: c.orgId } })).toBe(0);
    expect(await ledgerTotals(t.prisma, c.orgId)).toEqual({ ledgerSumNanos: 0n, balanceNanos: 0n });
    const [ledgerAfter, usageAfter, auditAfter] = await records(c.orgId);
    expect(ledgerAfter).toBe(ledgerBefore + 1);
    expect(usageAfter).toBe(usageBefore); // a deleted key's call belongs to no organization
    expect(auditAfter).toBe(auditBefore + 1);
    expect(await t.prisma.auditLog.findFirstOrThrow({ where: { orgId: c.orgId, action: "org.closed" } })).toMatchObject({ actorUserId: c.owner.userId });

    // The database itself refuses to delete a closed organization's records with it.
    await expect(t.prisma.organization.delete({ where: { id: c.orgId } })).rejects.toThrow();
    expect(await records(c.orgId)).toEqual([ledgerAfter, usageAfter, auditAfter]);
    // No key can be made for it any more, by an operator either.
    await expect(createKey(t.prisma, { orgId: c.orgId, name: "late" }, { actorLabel: "cli" })).rejects.toMatchObject({ code: "organization_closed" });
    // Closed once.
    await expect(closeOrganization(t.prisma, c.owner, c.orgId, { confirmName: c.name, forfeitCredit: true })).rejects.toMatchObject({ code: "not_member" });
  });

  it("closes an organization without credit without asking to forfeit anything", async () => {
    const c = await customer("0");
    const balance = await t.balance(c.orgId); // the paid call was refused: no credit
    expect(balance).toBe(0n);
    expect((await closeOrganization(t.prisma, c.owner, c.orgId, { confirmName: c.name })).forfeitedNanos).toBe(0n);
  });
});

describe("deleting an account", () => {
  it("is refused with the reason while the user is an organization's only owner", async () => {
    const c = await customer();
    await expect(deleteAccount(t.prisma, c.owner, { confirmEmail: c.owner.email })).rejects.toMatchObject({
      code: "still_an_owner",
      message: expect.stringContaining(c.name),
    });
    await expect(deleteAccount(t.prisma, c.member, { confirmEmail: "not-me@close.test" })).rejects.toMatchObject({ code: "confirmation_mismatch" });
  });

  it("erases the person, ends their sessions and memberships, and keeps the records that name them", async () => {
    const c = await customer();
    const browser = await sessionCookie(t.prisma, c.member.userId);
    const auditBefore = await t.prisma.auditLog.count({ where: { actorUserId: c.member.userId } });
    await deleteAccount(t.prisma, c.member, { confirmEmail: c.member.email.toUpperCase() });

    const user = await t.prisma.user.findUniqueOrThrow({ where: { id: c.member.userId } });
    expect(user).toMatchObject({ email: `deleted-${user.id}@deleted.invalid`, name: null, passwordHash: null });
    expect(user.deletedAt).not.toBeNull();
    expect(await t.prisma.membership.count({ where: { userId: user.id } })).toBe(0);
    expect(await principalFromCookies(t.prisma, browser.getCookie, null)).toBeNull();
    const limiter = new DatabaseRateLimiter(t.prisma);
    expect((await authenticateWithPassword(t.prisma, limiter, { email: c.member.email, password: CAST_PASSWORD }, "10.1.0.9")).ok).toBe(false);
    expect(await t.prisma.auditLog.count({ where: { actorUserId: user.id } })).toBe(auditBefore + 1);
    // The email is free again for a new account.
    expect((await signUp(t.prisma, { email: c.member.email, password: CAST_PASSWORD })).user.id).not.toBe(user.id);
  });
});

describe("asking for another plan", () => {
  it("owners and admins ask, one open request at a time, not for the plan they have; members cannot", async () => {
    const c = await customer();
    await expect(requestPlanChange(t.prisma, c.member, c.orgId, { plan: "enterprise" })).rejects.toMatchObject({ code: "forbidden" });
    await expect(requestPlanChange(t.prisma, c.admin, c.orgId, { plan: "retail" })).rejects.toMatchObject({ code: "same_plan" });
    await expect(requestPlanChange(t.prisma, c.admin, c.orgId, { plan: "platinum" })).rejects.toMatchObject({ code: "unknown_plan" });
    const request = await requestPlanChange(t.prisma, c.admin, c.orgId, { plan: "enterprise", message: "  More requests per minute  " });
    expect(request).toMatchObject({ status: "OPEN", message: "More requests per minute", requestedById: c.admin.userId });
    await expect(requestPlanChange(t.prisma, c.owner, c.orgId, { plan: "trial" })).rejects.toMatchObject({ code: "request_open" });
    expect((await listPlanRequests(t.prisma, c.member, c.orgId)).map((r) => [r.plan.slug, r.status])).toEqual([["enterprise", "OPEN"]]);

    await expect(withdrawPlanRequest(t.prisma, { userId: (await customer()).owner.userId }, c.orgId, request.id)).rejects.toMatchObject({ code: "not_member" });
    await withdrawPlanRequest(t.prisma, c.owner, c.orgId, request.id);
    await expect(withdrawPlanRequest(t.prisma, c.owner, c.orgId, request.id)).rejects.toMatchObject({ code: "unknown_request" });
    expect((await requestPlanChange(t.prisma, c.owner, c.orgId, { plan: "enterprise" })).status).toBe("OPEN");
    expect(await t.prisma.auditLog.count({ where: { orgId: c.orgId, action: { in: ["org.plan_requested", "org.plan_request_withdrawn"] } } })).toBe(3);
  });
});
