import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/lib/auth/accounts";
import { ledgerTotals } from "@/lib/billing/ledger";
import { parseDollars } from "@/lib/money";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { setOrgKeyStatus } from "../keys";
import { addMembership } from "../members";
import { listAuditLog } from "../audit";
import { requestPlanChange, listPlanRequests } from "../plans";
import { findKeys, keyActivity } from "./keys";
import {
  adjustCreditAsAdmin,
  answerPlanRequestAsAdmin,
  changePlanAsAdmin,
  disableKeyAsAdmin,
  enableKeyAsAdmin,
  organizationDetail,
  restrictKeyAsAdmin,
  searchOrganizations,
  setSuspension,
} from "./organizations";
import { platformOverview } from "./overview";

process.env.CLIENT_ADDRESS_HEADER = "x-test-client-address";

let t: Testbed;
let n = 0;
let admin: { userId: string; ip: string };
beforeAll(async () => {
  t = await openApiTestbed({ tickerCount: 3 });
  const user = await createUser(t.prisma, { email: "root@platform.test", password: "correct horse battery" });
  await t.prisma.user.update({ where: { id: user.id }, data: { isPlatformAdmin: true } });
  admin = { userId: user.id, ip: "192.0.2.10" };
}, 120_000);
afterAll(() => t?.close());

async function customer(dollars = "1") {
  const org = await t.org({ dollars, name: `Customer ${++n}` });
  const owner = await createUser(t.prisma, { email: `owner${n}@customer.test`, password: "correct horse battery" });
  await addMembership(t.prisma, { userId: owner.id, orgId: org.id, role: "OWNER" });
  const ticker = (await t.prisma.company.findFirstOrThrow({ orderBy: { ticker: "asc" } })).ticker;
  return { ...org, owner: { userId: owner.id, ip: "198.51.100.7" }, ownerEmail: `owner${n}@customer.test`, ticker };
}

const paid = (c: { key: string; ticker: string }, from = "203.0.113.5") =>
  t.json(`/v1/dilution-rating?ticker=${c.ticker}`, { key: c.key, headers: { "x-test-client-address": from } });

describe("finding an organization", () => {
  it("by name, id, a member's email or a key's hint", async () => {
    const c = await customer();
    const hint = (await t.prisma.apiKey.findUniqueOrThrow({ where: { id: c.keyId } })).hint;
    for (const q of [`Customer ${n}`, c.id, c.ownerEmail.toUpperCase().slice(0, 9), hint]) {
      const { organizations } = await searchOrganizations(t.prisma, admin, q);
      expect(organizations.map((o) => o.id), q).toContain(c.id);
    }
    expect((await searchOrganizations(t.prisma, admin, "no such organization anywhere")).organizations).toEqual([]);
  });
});

describe("credit adjustments", () => {
  it("go through the ledger with the reason, and the customer sees them in their history and audit log as the platform", async () => {
    const c = await customer("0");
    const token = crypto.randomUUID();
    const result = await adjustCreditAsAdmin(t.prisma, admin, c.id, { direction: "add", amount: "5", reason: "Goodwill for the outage", token });
    expect(result).toEqual({ status: "applied", balanceAfterNanos: parseDollars("5") });
    const totals = await ledgerTotals(t.prisma, c.id);
    expect(totals.balanceNanos).toBe(parseDollars("5"));
    expect(totals.ledgerSumNanos).toBe(totals.balanceNanos);
    const entry = await t.prisma.creditLedgerEntry.findFirstOrThrow({ where: { orgId: c.id, kind: "ADJUSTMENT" } });
    expect(entry).toMatchObject({ description: "Goodwill for the outage", actorUserId: admin.userId });
    const { entries } = await listAuditLog(t.prisma, c.owner, c.id);
    const adjusted = entries.find((e) => e.action === "credits.adjusted")!;
    expect(adjusted.actor).toBe("platform administrator"); // not the administrator's email
    expect(adjusted.details).toMatchObject({ reason: "Goodwill for the outage", before: { balance_dollars: "$0.00" }, after: { balance_dollars: "$5.00" } });
  });

  it("apply once per form, even when the same form is sent many times at once", async () => {
    const c = await customer("0");
    const token = crypto.randomUUID();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => adjustCreditAsAdmin(t.prisma, admin, c.id, { direction: "add", amount: "2.50", reason: "Double click", token })),
    );
    expect(results.filter((r) => r.status === "applied")).toHaveLength(1);
    expect(results.filter((r) => r.status === "duplicate")).toHaveLength(7);
    expect(await t.balance(c.id)).toBe(parseDollars("2.5"));
    expect(await t.prisma.auditLog.count({ where: { orgId: c.id, action: "credits.adjusted" } })).toBe(1);
  });

  it("stop at zero unless “allow negative” is ticked with a second reason", async () => {
    const c = await customer("1");
    const remove = (extra: object) => adjustCreditAsAdmin(t.prisma, admin, c.id, { direction: "remove", amount: "3", reason: "Chargeback", token: crypto.randomUUID(), ...extra });
    await expect(remove({})).rejects.toMatchObject({ code: "insufficient_funds" });
    await expect(remove({ allowNegative: "on" })).rejects.toMatchObject({ name: "ZodError" });
    expect(await t.balance(c.id)).toBe(parseDollars("1"));
    await remove({ allowNegative: "on", negativeReason: "Card network took it back" });
    expect(await t.balance(c.id)).toBe(parseDollars("-2"));
    const paidAfter = await paid(c);
    expect(paidAfter.status).toBe(402);
  });

  it("refuse nonsense amounts and a missing reason", async () => {
    const c = await customer("0");
    for (const bad of [{ amount: "0" }, { amount: "-5" }, { amount: "1.0000000001" }, { amount: "five" }, { reason: "" }]) {
      await expect(adjustCreditAsAdmin(t.prisma, admin, c.id, { direction: "add", amount: "1", reason: "ok reason", token: crypto.randomUUID(), ...bad })).rejects.toThrow();
    }
    expect(await t.balance(c.id)).toBe(0n);
  });
});

describe("keys, as the customer's own actions do, end to end through the API", () => {
  it("restrict → 403, disable by the platform → 401 with the reason; the customer cannot re-enable it; the administrator can", async () => {
    const c = await customer("1");
    expect((await paid(c)).status).toBe(200);
    await restrictKeyAsAdmin(t.prisma, admin, c.keyId, { endpoints: ["offerings"], reason: "Abuse review" });
    expect((await paid(c)).body.error.code).toBe("endpoint_not_allowed");
    await restrictKeyAsAdmin(t.prisma, admin, c.keyId, { endpoints: [] });
    await disableKeyAsAdmin(t.prisma, admin, c.keyId, "Scraping beyond the terms");
    const refused = await paid(c);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: "api_key_disabled", message: expect.stringContaining("Scraping beyond the terms") });
    await expect(setOrgKeyStatus(t.prisma, c.owner, c.id, c.keyId, "ACTIVE")).rejects.toMatchObject({ code: "disabled_by_platform" });
    expect((await paid(c)).status).toBe(401);
    const { entries } = await listAuditLog(t.prisma, c.owner, c.id);
    expect(entries.find((e) => e.action === "key.disabled")).toMatchObject({ actor: "platform administrator", details: { reason: "Scraping beyond the terms", by_platform: true } });
    await enableKeyAsAdmin(t.prisma, admin, c.keyId);
    expect((await paid(c)).status).toBe(200);
  });

  it("are found by hint or id, never by the full key, with 24 hours of requests and their client addresses", async () => {
    const c = await customer("1");
    await paid(c, "203.0.113.77");
    await t.json(`/v1/dilution-rating`, { key: c.key, headers: { "x-test-client-address": "203.0.113.78" } }); // 400: no ticker
    const key = await t.prisma.apiKey.findUniqueOrThrow({ where: { id: c.keyId } });
    expect((await findKeys(t.prisma, admin, key.hint)).map((k) => k.id)).toContain(c.keyId);
    expect((await findKeys(t.prisma, admin, c.keyId)).map((k) => k.id)).toEqual([c.keyId]);
    await expect(findKeys(t.prisma, admin, c.key)).rejects.toMatchObject({ code: "invalid_input" });
    const activity = (await keyActivity(t.prisma, admin, c.keyId))!;
    expect(activity.byStatus).toEqual([{ status: 200, count: 1 }, { status: 400, count: 1 }]);
    expect(activity.events.map((e) => e.clientIp).sort()).toEqual(["203.0.113.77", "203.0.113.78"]);
  });
});

describe("suspension", () => {
  it("refuses every keyed request with 403 organization_suspended at no charge; the customer may still buy credits; lifting restores", async () => {
    const c = await customer("1");
    await setSuspension(t.prisma, admin, c.id, { suspend: true, reason: "Unpaid invoice" });
    const before = await t.balance(c.id);
    const refused = await paid(c);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("organization_suspended");
    expect(await t.balance(c.id)).toBe(before);
    const event = await t.prisma.usageEvent.findFirstOrThrow({ where: { orgId: c.id }, orderBy: { id: "desc" } });
    expect(event).toMatchObject({ statusCode: 403, errorCode: "organization_suspended", costNanos: 0n });
    // buying credits is a ledger credit the suspension does not block
    await adjustCreditAsAdmin(t.prisma, admin, c.id, { direction: "add", amount: "1", reason: "Top-up while suspended", token: crypto.randomUUID() });
    await expect(setSuspension(t.prisma, admin, c.id, { suspend: true, reason: "again" })).rejects.toMatchObject({ code: "organization_suspended" });
    await expect(setSuspension(t.prisma, admin, c.id, { suspend: true, reason: "" })).rejects.toThrow();
    await setSuspension(t.prisma, admin, c.id, { suspend: false });
    expect((await paid(c)).status).toBe(200);
    const actions = (await t.prisma.auditLog.findMany({ where: { orgId: c.id, action: { in: ["org.suspended", "org.unsuspended"] } }, orderBy: { id: "asc" } })).map((e) => e.action);
    expect(actions).toEqual(["org.suspended", "org.unsuspended"]);
  });
});

describe("plans", () => {
  it("an administrator moves an organization, and answers a customer's request with a message the customer sees", async () => {
    const c = await customer("1");
    await changePlanAsAdmin(t.prisma, admin, c.id, "enterprise");
    expect((await organizationDetail(t.prisma, admin, c.id))!.org.plan.slug).toBe("enterprise");
    const audit = await t.prisma.auditLog.findFirstOrThrow({ where: { orgId: c.id, action: "org.plan_changed" }, orderBy: { id: "desc" } });
    expect(audit.details).toMatchObject({ before: { plan: "retail" }, after: { plan: "enterprise" } });

    const request = await requestPlanChange(t.prisma, c.owner, c.id, { plan: "retail", message: "Cheaper please" });
    await expect(answerPlanRequestAsAdmin(t.prisma, admin, request.id, { decision: "decline", message: "" })).rejects.toThrow();
    await answerPlanRequestAsAdmin(t.prisma, admin, request.id, { decision: "decline", message: "Your volume needs Enterprise." });
    const [seen] = await listPlanRequests(t.prisma, c.owner, c.id);
    expect(seen).toMatchObject({ status: "DECLINED", answer: "Your volume needs Enterprise." });
  });
});

describe("the overview", () => {
  it("sums the day's top-ups, adjustments and usage exactly, and lists negative balances and open requests", async () => {
    const c = await customer("0");
    await adjustCreditAsAdmin(t.prisma, admin, c.id, { direction: "add", amount: "0.000000007", reason: "A few nano-dollars", token: crypto.randomUUID() });
    const overview = await platformOverview(t.prisma, admin, {});
    const today = overview.days.at(-1)!;
    const [adjustments, usage] = await Promise.all([
      t.prisma.creditLedgerEntry.aggregate({ where: { kind: "ADJUSTMENT", createdAt: { gte: new Date(`${today.day}T00:00:00Z`) } }, _sum: { amountNanos: true } }),
      t.prisma.creditLedgerEntry.aggregate({ where: { kind: "USAGE", createdAt: { gte: new Date(`${today.day}T00:00:00Z`) } }, _sum: { amountNanos: true } }),
    ]);
    expect(today.adjustmentsNanos).toBe(adjustments._sum.amountNanos);
    expect(today.usageNanos).toBe(-(usage._sum.amountNanos ?? 0n));
    expect(today.requests).toBe(await t.prisma.usageEvent.count({ where: { createdAt: { gte: new Date(`${today.day}T00:00:00Z`) } } }));
    expect(overview.negative.every((o) => o.balanceNanos < 0n)).toBe(true);
    await expect(platformOverview(t.prisma, admin, { from: "2026-13-01" })).rejects.toMatchObject({ name: "ZodError" });
  });

  it("counts as billed only the bytes that were charged for (a free answer's body was counted)", async () => {
    const before = (await platformOverview(t.prisma, admin, {})).days.at(-1)!;
    const c = await customer("1");
    await t.prisma.usageEvent.create({ data: { orgId: c.id, endpoint: "offerings", statusCode: 200, bytes: 4_000, costNanos: 0n, requestId: crypto.randomUUID() } });
    await t.prisma.usageEvent.create({ data: { orgId: c.id, endpoint: "offerings", statusCode: 200, bytes: 1_000, costNanos: 8_000n, requestId: crypto.randomUUID() } });
    const today = (await platformOverview(t.prisma, admin, {})).days.at(-1)!;
    expect(today.bytes - before.bytes).toBe(1_000);
    expect(today.requests - before.requests).toBe(2);
  });
});
