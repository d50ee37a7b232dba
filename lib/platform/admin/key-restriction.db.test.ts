import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/lib/auth/accounts";
import { runCli } from "@/lib/cli";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { configureOrgKey, listOrgKeys, rollOrgKey } from "../keys";
import { addMembership } from "../members";
import { listAuditLog } from "../audit";
import { NotPlatformAdmin } from "./access";
import { restrictKeyAsAdmin } from "./organizations";

/**
 * A platform administrator's endpoint restriction binds the customer: the
 * customer's key settings can narrow it, never undo it, whatever they send.
 */

let t: Testbed;
let n = 0;
let admin: { userId: string; ip: string };
beforeAll(async () => {
  t = await openApiTestbed({ tickerCount: 3 });
  const user = await createUser(t.prisma, { email: "root@restrict.test", password: "correct horse battery" });
  await t.prisma.user.update({ where: { id: user.id }, data: { isPlatformAdmin: true } });
  admin = { userId: user.id, ip: "192.0.2.10" };
}, 120_000);
afterAll(() => t?.close());

async function customer() {
  const org = await t.org({ dollars: "1", name: `Restricted ${++n}` });
  const owner = await createUser(t.prisma, { email: `owner${n}@restrict.test`, password: "correct horse battery" });
  await addMembership(t.prisma, { userId: owner.id, orgId: org.id, role: "OWNER" });
  const ticker = (await t.prisma.company.findFirstOrThrow({ orderBy: { ticker: "asc" } })).ticker;
  return { ...org, owner: { userId: owner.id, ip: "198.51.100.7" }, ticker };
}

type Customer = Awaited<ReturnType<typeof customer>>;

const call = async (c: Customer, endpoint: string, key = c.key) => {
  const { status, body } = await t.json(`/v1/${endpoint}?ticker=${c.ticker}`, { key });
  return { status, code: body.error?.code as string | undefined, allowed: body.error?.details?.allowed_endpoints as string[] | undefined };
};

/** What the keys page's settings dialog sends (configureKeyAction's input). */
const settings = (endpoints: string[]) => ({ endpoints, allowedIps: "", dailyCap: "", monthlyCap: "" });

describe("the platform's endpoint restriction", () => {
  it("holds against the customer's settings, sent as the dialog sends them or crafted; lifted, the customer's choice applies", async () => {
    const c = await customer();
    expect((await call(c, "registrations")).status).toBe(200);

    await restrictKeyAsAdmin(t.prisma, admin, c.keyId, { endpoints: ["offerings"], reason: "Scraping registrations beyond the terms" });
    expect(await call(c, "registrations")).toEqual({ status: 403, code: "endpoint_not_allowed", allowed: ["offerings"] });
    expect((await call(c, "offerings")).status).toBe(200);

    // The dialog's "nothing ticked" means every endpoint the platform allows: still only offerings.
    await configureOrgKey(t.prisma, c.owner, c.id, c.keyId, settings([]));
    expect((await call(c, "registrations")).code).toBe("endpoint_not_allowed");
    // A replayed request naming what the platform blocked is refused with the reason, and changes nothing.
    for (const endpoints of [["registrations"], ["offerings", "registrations"], ["offerings", "dilution-rating", "registrations"]]) {
      await expect(configureOrgKey(t.prisma, c.owner, c.id, c.keyId, settings(endpoints))).rejects.toMatchObject({
        code: "restricted_by_platform",
        message: expect.stringContaining("Scraping registrations beyond the terms"),
      });
    }
    // Rolling the key keeps the restriction on its replacement.
    const rolled = await rollOrgKey(t.prisma, c.owner, c.id, c.keyId, 0);
    expect((await call(c, "registrations", rolled.key)).code).toBe("endpoint_not_allowed");
    expect((await call(c, "offerings", rolled.key)).status).toBe(200);
    await expect(configureOrgKey(t.prisma, c.owner, c.id, rolled.id, settings(["registrations"]))).rejects.toMatchObject({ code: "restricted_by_platform" });

    // The customer sees it, as set by the platform, with the reason.
    const [shown] = await listOrgKeys(t.prisma, c.owner, c.id);
    expect(shown).toMatchObject({ id: rolled.id, platformEndpoints: ["offerings"], platformEndpointsReason: "Scraping registrations beyond the terms" });
    // So does the operator's CLI.
    const operator = await runCli(["org:show", "--org", c.id], t.prisma);
    expect(operator.stdout).toContain("platform: offerings (Scraping registrations beyond the terms)");

    // Lifted: the customer's own choice applies again, to the letter.
    await configureOrgKey(t.prisma, c.owner, c.id, rolled.id, settings(["offerings"]));
    await restrictKeyAsAdmin(t.prisma, admin, rolled.id, { endpoints: [] });
    expect(await call(c, "registrations", rolled.key)).toEqual({ status: 403, code: "endpoint_not_allowed", allowed: ["offerings"] });
    await configureOrgKey(t.prisma, c.owner, c.id, rolled.id, settings(["registrations"]));
    expect((await call(c, "registrations", rolled.key)).status).toBe(200);
    expect((await call(c, "offerings", rolled.key)).code).toBe("endpoint_not_allowed");
  });

  it("is the upper bound of a narrower choice the customer made before it", async () => {
    const c = await customer();
    await configureOrgKey(t.prisma, c.owner, c.id, c.keyId, settings(["offerings", "registrations"]));
    await restrictKeyAsAdmin(t.prisma, admin, c.keyId, { endpoints: ["offerings", "dilution-rating"], reason: "Abuse review" });
    expect(await call(c, "registrations")).toEqual({ status: 403, code: "endpoint_not_allowed", allowed: ["offerings"] });
    expect(await call(c, "dilution-rating")).toMatchObject({ status: 403, code: "endpoint_not_allowed" });
    expect((await call(c, "offerings")).status).toBe(200);
    // The customer can narrow within it.
    await configureOrgKey(t.prisma, c.owner, c.id, c.keyId, settings(["dilution-rating"]));
    expect((await call(c, "dilution-rating")).status).toBe(200);
    expect((await call(c, "offerings")).code).toBe("endpoint_not_allowed");
  });

  it("needs a reason, and is audited on both sides: the customer's log and the platform's, as the platform", async () => {
    const c = await customer();
    await expect(restrictKeyAsAdmin(t.prisma, admin, c.keyId, { endpoints: ["offerings"] })).rejects.toMatchObject({ name: "ZodError" });
    await expect(restrictKeyAsAdmin(t.prisma, admin, c.keyId, { endpoints: ["offerings"], reason: "  " })).rejects.toMatchObject({ name: "ZodError" });
    await expect(restrictKeyAsAdmin(t.prisma, admin, c.keyId, ["offerings"])).rejects.toMatchObject({ name: "ZodError" });
    expect((await call(c, "registrations")).status).toBe(200);
    // A customer is no administrator.
    await expect(restrictKeyAsAdmin(t.prisma, c.owner, c.keyId, { endpoints: [] })).rejects.toBeInstanceOf(NotPlatformAdmin);

    await restrictKeyAsAdmin(t.prisma, admin, c.keyId, { endpoints: ["offerings"], reason: "Abuse review" });
    await restrictKeyAsAdmin(t.prisma, admin, c.keyId, { endpoints: [], reason: "ignored when lifting" });
    const { entries } = await listAuditLog(t.prisma, c.owner, c.id);
    const restricted = entries.filter((e) => e.action === "key.restricted");
    expect(restricted.map((e) => [e.actor, e.details])).toEqual([
      ["platform administrator", expect.objectContaining({ by_platform: true, endpoints: [], reason: null })],
      ["platform administrator", expect.objectContaining({ by_platform: true, endpoints: ["offerings"], reason: "Abuse review" })],
    ]);
    const platformSide = await t.prisma.auditLog.findMany({ where: { action: "key.restricted", targetId: c.keyId, actorUserId: admin.userId } });
    expect(platformSide).toHaveLength(2);
  });
});
