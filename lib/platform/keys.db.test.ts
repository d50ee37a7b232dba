import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeBalance } from "@/lib/billing/ledger";
import { parseDollars } from "@/lib/money";
import { SAMPLE_SHOWCASE } from "@/lib/data/sample";
import { hashApiKey } from "@/lib/keys";
import { exportUsage } from "@/lib/platform/routes";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { seedCast, sessionCookie } from "@/tests/support/platform";
import type { Principal } from "@/lib/auth/session";
import { AccessDenied } from "./access";
import { classifyError } from "@/lib/errors";
import { latestKeyExpiryDay } from "@/lib/keys/expiry";
import { configureOrgKey, createOrgKey, deleteOrgKey, endOrgKeyGrace, listOrgKeys, rollOrgKey, setOrgKeyStatus } from "./keys";

const WORDS = { invalid: "invalid", unavailable: "unavailable", internal: "internal", log: "[test]" };

const settings = (endpoints: string[], more: { allowedIps?: string; dailyCap?: string; monthlyCap?: string; expiresOn?: string } = {}) => ({
  endpoints,
  allowedIps: "",
  dailyCap: "",
  monthlyCap: "",
  ...more,
});
import { listAuditLog } from "./audit";

process.env.NEXTAUTH_SECRET ??= "test-secret-for-session-cookies-0123456789";

let t: Testbed;
let orgA: string;
let orgB: string;
let owner: Principal;
let admin: Principal;
let member: Principal;
let outsider: Principal; // owner of organization B
let keyOfB: { id: string };

beforeAll(async () => {
  t = await openApiTestbed({ tickerCount: 12 });
  ({ orgA, orgB, owner, admin, member, outsider } = await seedCast(t.prisma));
  keyOfB = await createOrgKey(t.prisma, outsider, orgB, { name: "B's key" });
}, 120_000);
afterAll(() => t?.close());

const keysTable = () => t.prisma.apiKey.findMany({ orderBy: { id: "asc" } });

async function expectRefused(run: () => Promise<unknown>, code: string) {
  const before = await keysTable();
  const audits = await t.prisma.auditLog.count();
  await expect(run()).rejects.toMatchObject({ code });
  expect(await keysTable()).toEqual(before);
  expect(await t.prisma.auditLog.count()).toBe(audits);
}

describe("creating a key from the dashboard", () => {
  it("returns the full key once and stores only its SHA-256 and a 12-character hint", async () => {
    const created = await createOrgKey(t.prisma, owner, orgA, { name: "  Trading bot  ", endpoints: ["dilution-rating"] });
    expect(created.key).toMatch(/^svc-live-[0-9a-f]{64}$/);
    expect(created.name).toBe("Trading bot");
    const row = await t.prisma.apiKey.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.keyHash).toBe(hashApiKey(created.key));
    expect(row.hint).toBe(created.key.slice(0, 12));
    expect(row.allowedEndpoints).toEqual(["dilution-rating"]);
    // No column of any key, audit or listing row holds the key itself.
    const everything = JSON.stringify(
      { keys: await t.prisma.apiKey.findMany(), audit: await t.prisma.auditLog.findMany(), listed: await listOrgKeys(t.prisma, owner, orgA) },
      (_, v) => (typeof v === "bigint" ? v.toString() : v),
    );
    expect(everything).not.toContain(created.key);
    expect(everything).not.toContain(created.key.slice(12));
  });

  it("refuses an empty name, an unknown endpoint and one outside the plan", async () => {
    await expect(createOrgKey(t.prisma, owner, orgA, { name: "   " })).rejects.toThrow(/name/i);
    await expect(createOrgKey(t.prisma, owner, orgA, { name: "x", endpoints: ["everything"] })).rejects.toThrow(/Unknown endpoint/);
    // The Trial plan has no dilution-data.
    await expect(createOrgKey(t.prisma, owner, orgA, { name: "x", endpoints: ["dilution-data"] })).rejects.toMatchObject({ code: "endpoint_not_in_plan" });
  });

  it("lets an admin create keys, recorded with actor and IP", async () => {
    const created = await createOrgKey(t.prisma, admin, orgA, { name: "Admin's key" });
    const log = await listAuditLog(t.prisma, owner, orgA);
    const entry = log.entries.find((e) => e.targetId === created.id)!;
    expect(entry).toMatchObject({ action: "key.created", actor: "adam@a.test", ip: "10.0.0.3" });
  });
});

describe("every key mutation is refused to a member, to another organization and to a signed-out visitor", () => {
  let target: { id: string };
  beforeAll(async () => {
    target = await createOrgKey(t.prisma, owner, orgA, { name: "Target" });
  });

  const mutations: [string, (p: Principal | null, org: string, keyId: string) => Promise<unknown>][] = [
    ["create", (p, org) => createOrgKey(t.prisma, p, org, { name: "Intruder" })],
    ["disable", (p, org, id) => setOrgKeyStatus(t.prisma, p, org, id, "DISABLED")],
    ["enable", (p, org, id) => setOrgKeyStatus(t.prisma, p, org, id, "ACTIVE")],
    ["delete", (p, org, id) => deleteOrgKey(t.prisma, p, org, id)],
    ["configure", (p, org, id) => configureOrgKey(t.prisma, p, org, id, settings(["offerings"]))],
    ["roll", (p, org, id) => rollOrgKey(t.prisma, p, org, id, 3600)],
    ["end grace", (p, org, id) => endOrgKeyGrace(t.prisma, p, org, id)],
  ];

  for (const [name, mutate] of mutations) {
    it(`${name}: a member of the organization is forbidden`, async () => {
      await expectRefused(() => mutate(member, orgA, target.id), "forbidden");
    });
    it(`${name}: a user of another organization is not a member`, async () => {
      await expectRefused(() => mutate(outsider, orgA, target.id), "not_member");
    });
    it(`${name}: signed out`, async () => {
      await expectRefused(() => mutate(null, orgA, target.id), "signed_out");
    });
    if (name !== "create") {
      it(`${name}: the other organization's owner, in their own organization, with our real key id, finds no such key`, async () => {
        await expectRefused(() => mutate(outsider, orgB, target.id), "unknown_key");
      });
      it(`${name}: our owner, in our organization, with the other organization's real key id, finds no such key`, async () => {
        await expectRefused(() => mutate(owner, orgA, keyOfB.id), "unknown_key");
      });
    }
  }

  it("reading keys needs membership; members may read", async () => {
    expect((await listOrgKeys(t.prisma, member, orgA)).length).toBeGreaterThan(0);
    await expect(listOrgKeys(t.prisma, outsider, orgA)).rejects.toBeInstanceOf(AccessDenied);
    await expect(listOrgKeys(t.prisma, null, orgA)).rejects.toMatchObject({ code: "signed_out" });
    const seenByB = await listOrgKeys(t.prisma, outsider, orgB);
    expect(seenByB.map((k) => k.id)).toEqual([keyOfB.id]);
  });

  it("the audit log is for owners and admins only", async () => {
    await expect(listAuditLog(t.prisma, member, orgA)).rejects.toMatchObject({ code: "forbidden" });
    await expect(listAuditLog(t.prisma, outsider, orgA)).rejects.toMatchObject({ code: "not_member" });
  });
});

describe("a key made on the dashboard, through the data API, in every state of the spec's table", () => {
  it("200 → disabled 401 → enabled 200 → restricted elsewhere 403 → deleted 401", async () => {
    await changeBalance(t.prisma, { orgId: orgA, kind: "ADJUSTMENT", amountNanos: parseDollars("5") });
    const { key, id } = await createOrgKey(t.prisma, owner, orgA, { name: "Lifecycle" });
    const call = async () => {
      const { status, body } = await t.json(`/v1/dilution-rating?ticker=${SAMPLE_SHOWCASE.highRisk}`, { key });
      return { status, code: body.error?.code as string | undefined };
    };
    expect(await call()).toEqual({ status: 200, code: undefined });
    await setOrgKeyStatus(t.prisma, owner, orgA, id, "DISABLED");
    expect(await call()).toEqual({ status: 401, code: "api_key_disabled" });
    await setOrgKeyStatus(t.prisma, admin, orgA, id, "ACTIVE");
    expect(await call()).toEqual({ status: 200, code: undefined });
    await configureOrgKey(t.prisma, owner, orgA, id, settings(["offerings"]));
    expect(await call()).toEqual({ status: 403, code: "endpoint_not_allowed" });
    await configureOrgKey(t.prisma, owner, orgA, id, settings([]));
    expect(await call()).toEqual({ status: 200, code: undefined });
    await deleteOrgKey(t.prisma, owner, orgA, id);
    expect(await call()).toEqual({ status: 401, code: "invalid_api_key" });
    await expect(setOrgKeyStatus(t.prisma, owner, orgA, id, "ACTIVE")).rejects.toMatchObject({ code: "unknown_key" });

    const actions = (await listAuditLog(t.prisma, owner, orgA)).entries.filter((e) => e.targetId === id).map((e) => e.action);
    expect(actions.reverse()).toEqual(["key.created", "key.disabled", "key.enabled", "key.restricted", "key.restricted", "key.deleted"]);
  });

  it("roll with a grace period, then end the grace early: the old key is refused at once, the new one serves", async () => {
    const { key, id } = await createOrgKey(t.prisma, owner, orgA, { name: "Rolling" });
    const path = `/v1/dilution-rating?ticker=${SAMPLE_SHOWCASE.highRisk}`;
    const rolled = await rollOrgKey(t.prisma, admin, orgA, id, "86400");
    expect((await t.json(path, { key })).status).toBe(200);
    expect((await t.json(path, { key: rolled.key })).status).toBe(200);
    await expect(endOrgKeyGrace(t.prisma, owner, orgA, rolled.id)).rejects.toMatchObject({ code: "key_not_rollable" });
    await endOrgKeyGrace(t.prisma, owner, orgA, id);
    expect((await t.json(path, { key })).body.error.code).toBe("api_key_expired");
    expect((await t.json(path, { key: rolled.key })).status).toBe(200);
    const actions = (await listAuditLog(t.prisma, owner, orgA)).entries.filter((e) => e.targetId === id || e.targetId === rolled.id).map((e) => e.action);
    expect(actions.reverse()).toEqual(["key.created", "key.rolled", "key.grace_ended"]);
  });

  it("the expiry is changed in the settings (it could only be set at creation): a later day, none, and a rolled key's stays its grace", async () => {
    const { id, key } = await createOrgKey(t.prisma, owner, orgA, { name: "Extended", expiresOn: "2099-06-30" });
    await configureOrgKey(t.prisma, owner, orgA, id, settings([], { expiresOn: "2101-01-15" }));
    expect((await t.prisma.apiKey.findUniqueOrThrow({ where: { id } })).expiresAt).toEqual(new Date("2101-01-16T00:00:00.000Z"));
    // Without the field the expiry stays; empty, the key no longer expires.
    await configureOrgKey(t.prisma, owner, orgA, id, settings([], { dailyCap: "1" }));
    expect((await t.prisma.apiKey.findUniqueOrThrow({ where: { id } })).expiresAt).toEqual(new Date("2101-01-16T00:00:00.000Z"));
    await configureOrgKey(t.prisma, owner, orgA, id, settings([], { expiresOn: "" }));
    expect((await t.prisma.apiKey.findUniqueOrThrow({ where: { id } })).expiresAt).toBeNull();
    // A day in the past stops the key at once: the API refuses it as expired.
    await configureOrgKey(t.prisma, owner, orgA, id, settings([], { expiresOn: "2020-01-01" }));
    expect((await t.json("/v1/dilution-rating?ticker=ZVTX", { key })).body.error.code).toBe("api_key_expired");
    const actions = (await listAuditLog(t.prisma, owner, orgA)).entries.filter((e) => e.targetId === id && e.action === "key.expiry_changed");
    expect(actions.map((e) => e.details)).toEqual([
      expect.objectContaining({ expires_on: "2020-01-01" }),
      expect.objectContaining({ expires_on: null }),
      expect.objectContaining({ expires_on: "2101-01-15" }),
    ]);

    const rolled = await rollOrgKey(t.prisma, owner, orgA, (await createOrgKey(t.prisma, owner, orgA, { name: "To roll" })).id, "3600");
    const old = await t.prisma.apiKey.findFirstOrThrow({ where: { rolledAt: { not: null }, name: "To roll" } });
    await expect(configureOrgKey(t.prisma, owner, orgA, old.id, settings([], { expiresOn: "2101-01-01" }))).rejects.toMatchObject({ code: "invalid_input" });
    expect((await t.prisma.apiKey.findUniqueOrThrow({ where: { id: old.id } })).expiresAt).toEqual(old.expiresAt);
    expect(rolled.oldExpiresAt).not.toBeNull();
  });

  it("settings from the form: caps in dollars, one address per line; a wrong value is refused with a message and changes nothing", async () => {
    const { id } = await createOrgKey(t.prisma, owner, orgA, { name: "Configured", expiresOn: "2099-12-31" });
    const created = await t.prisma.apiKey.findUniqueOrThrow({ where: { id } });
    expect(created.expiresAt).toEqual(new Date("2100-01-01T00:00:00.000Z"));
    await configureOrgKey(t.prisma, admin, orgA, id, settings([], { allowedIps: "203.0.113.0/24\n 2001:db8::1 ,192.0.2.9", dailyCap: "0.0001", monthlyCap: "1,000" }));
    const saved = await t.prisma.apiKey.findUniqueOrThrow({ where: { id } });
    expect(saved).toMatchObject({ allowedIps: ["203.0.113.0/24", "2001:db8::1", "192.0.2.9"], dailyCapNanos: 100_000n, monthlyCapNanos: 1_000_000_000_000n });
    for (const [more, code] of [
      [{ dailyCap: "-1" }, "invalid_spend_cap"],
      [{ monthlyCap: "ten" }, "invalid_spend_cap"],
      [{ allowedIps: "10.0.0.300" }, "invalid_allow_list"],
    ] as const) {
      await expect(configureOrgKey(t.prisma, owner, orgA, id, settings([], more))).rejects.toMatchObject({ code });
    }
    expect(await t.prisma.apiKey.findUniqueOrThrow({ where: { id } })).toMatchObject({ dailyCapNanos: 100_000n, allowedIps: saved.allowedIps });
    await expect(createOrgKey(t.prisma, owner, orgA, { name: "Bad date", expiresOn: "2099-02-30" })).rejects.toBeDefined();
    // The year 9999's last day used to reach the database as 10000-01-01 and answer internal_error.
    for (const expiresOn of ["9999-12-31", "9999-12-30", `${new Date().getUTCFullYear() + 101}-01-01`]) {
      const refused = await createOrgKey(t.prisma, owner, orgA, { name: "Far future", expiresOn }).catch((error: unknown) => classifyError(error, WORDS));
      expect(refused, expiresOn).toMatchObject({ code: "invalid_input", fieldErrors: { expiresOn: expect.stringContaining("within 100 years") } });
    }
    const latest = await createOrgKey(t.prisma, owner, orgA, { name: "Longest", expiresOn: latestKeyExpiryDay() });
    expect((await t.prisma.apiKey.findUniqueOrThrow({ where: { id: latest.id } })).expiresAt!.getUTCFullYear()).toBeGreaterThanOrEqual(new Date().getUTCFullYear() + 100);
    const audit = (await listAuditLog(t.prisma, owner, orgA)).entries.find((e) => e.targetId === id && e.action === "key.limits_changed");
    expect(audit?.details).toMatchObject({ daily_cap: "$0.0001", monthly_cap: "$1000.00" });
  });
});

describe("the usage CSV export", () => {
  const database = () => Promise.resolve({ prisma: t.prisma });
  const cookieFor = async (principal: Principal) => (await sessionCookie(t.prisma, principal.userId)).cookie;
  const get = async (org: string, cookie?: string) => {
    const response = await exportUsage(new Request(`http://app.test/usage/export?org=${org}`, { headers: cookie ? { cookie } : {} }), database);
    return { status: response.status, text: await response.text(), type: response.headers.get("content-type") };
  };

  it("gives members their organization's usage as CSV", async () => {
    const result = await get(orgA, await cookieFor(member));
    expect(result.status).toBe(200);
    expect(result.type).toMatch(/text\/csv/);
    const [header, ...rows] = result.text.trim().split("\r\n");
    // The page's word, "refused", in the header too.
    expect(header).toBe("date,endpoint,requests,refused_requests,billed_bytes,cost_dollars");
    expect(rows.some((row) => row.includes(",dilution-rating,"))).toBe(true);
  });

  it("refuses another organization, a forged cookie and no cookie", async () => {
    expect((await get(orgA, await cookieFor(outsider))).status).toBe(404);
    expect((await get(orgA, "next-auth.session-token=forged.token.value")).status).toBe(401);
    expect((await get(orgA)).status).toBe(401);
    const otherSecret = (await sessionCookie(t.prisma, owner.userId, "another secret entirely")).cookie;
    expect((await get(orgA, otherSecret)).status).toBe(401);
  });

  it("answers a bad date range with 400 and a message", async () => {
    const response = await exportUsage(
      new Request(`http://app.test/usage/export?org=${orgA}&from=2026-02-30`, { headers: { cookie: await cookieFor(owner) } }),
      database,
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/calendar date/);
  });
});
