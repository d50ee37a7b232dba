import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "@/lib/platform/accounts";
import { ensureDefaultPlans } from "@/lib/billing/plans";
import type { Database, PrismaClient } from "@/lib/db";
import { addMembership } from "@/lib/platform/members";
import { createUser } from "@/lib/auth/accounts";
import { openTestDatabase } from "@/tests/support/database";
import type { Principal } from "@/lib/auth/session";
import { createOrgKey, deleteOrgKey, setOrgKeyStatus } from "./keys";
import { orgOverview } from "./overview";

let db: Database;
let prisma: PrismaClient;
let orgA: string;
let orgB: string;
let owner: Principal;
let member: Principal;
let outsider: Principal;

const NOW = new Date("2026-03-10T12:00:00Z");
const DAY = 86_400_000;

beforeAll(async () => {
  db = await openTestDatabase();
  prisma = db.prisma;
  await ensureDefaultPlans(prisma);
  const a = await signUp(prisma, { email: "ann@a.test", password: "correct horse battery" }, "10.0.0.1");
  const b = await signUp(prisma, { email: "bob@b.test", password: "correct horse battery" }, "10.0.0.2");
  orgA = a.org.id;
  orgB = b.org.id;
  owner = { userId: a.user.id, ip: "10.0.0.1" };
  outsider = { userId: b.user.id, ip: "10.0.0.2" };
  const memberUser = await createUser(prisma, { email: "mia@a.test" });
  await addMembership(prisma, { userId: memberUser.id, orgId: orgA, role: "MEMBER" });
  member = { userId: memberUser.id };
}, 120_000);
afterAll(() => db?.close());

const usage = (orgId: string, daysAgo: number, costNanos: bigint, statusCode = 200) =>
  prisma.usageEvent.create({
    data: { orgId, endpoint: "offerings", statusCode, bytes: 1000, costNanos, requestId: randomUUID(), createdAt: new Date(NOW.getTime() - daysAgo * DAY) },
  });

describe("the overview figures", () => {
  it("start at zero", async () => {
    expect(await orgOverview(prisma, owner, orgA, NOW)).toMatchObject({ activeKeys: 0, firstKey: null, requests: 0, spendNanos: 0n });
  });

  it("count active keys only, name the oldest by its hint, and sum the last 7 days of the organization's usage", async () => {
    const bot = await createOrgKey(prisma, owner, orgA, { name: "Bot" });
    const disabled = await createOrgKey(prisma, owner, orgA, { name: "Paused" });
    const deleted = await createOrgKey(prisma, owner, orgA, { name: "Gone" });
    await createOrgKey(prisma, owner, orgA, { name: "Second" });
    await setOrgKeyStatus(prisma, owner, orgA, disabled.id, "DISABLED");
    await deleteOrgKey(prisma, owner, orgA, deleted.id);
    await usage(orgA, 0.5, 115n);
    await usage(orgA, 6.9, 1_000_000_000n);
    await usage(orgA, 1, 0n, 402); // refused requests count as requests and cost nothing
    await usage(orgA, 7.1, 5_000_000_000n); // too old
    await usage(orgB, 1, 7_000_000_000n); // another organization

    const overview = await orgOverview(prisma, member, orgA, NOW);
    expect(overview).toMatchObject({ activeKeys: 2, requests: 3, spendNanos: 1_000_000_115n });
    expect(overview.firstKey).toEqual({ name: "Bot", hint: bot.key.slice(0, 12) });
    expect(JSON.stringify(overview, (_, v) => (typeof v === "bigint" ? v.toString() : v))).not.toContain(bot.key.slice(12));
  });

  it("say why no key is active: the keys the platform disabled, apart from those the organization disabled", async () => {
    const only = await createOrgKey(prisma, outsider, orgB, { name: "Only" });
    await prisma.apiKey.update({ where: { id: only.id }, data: { status: "DISABLED", disabledByPlatform: true, disabledReason: "Unpaid invoice" } });
    expect(await orgOverview(prisma, outsider, orgB, NOW)).toMatchObject({ activeKeys: 0, disabledByPlatform: 1, disabledByOrg: 0 });
    expect(await orgOverview(prisma, owner, orgA, NOW)).toMatchObject({ activeKeys: 2, disabledByPlatform: 0, disabledByOrg: 1 });
  });

  it("are for members of the organization only", async () => {
    await expect(orgOverview(prisma, outsider, orgA, NOW)).rejects.toMatchObject({ code: "not_member" });
    await expect(orgOverview(prisma, null, orgA, NOW)).rejects.toMatchObject({ code: "signed_out" });
  });
});
