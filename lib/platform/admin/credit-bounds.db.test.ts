import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { createUser } from "@/lib/auth/accounts";
import { ledgerTotals } from "@/lib/billing/ledger";
import { MAX_TYPED_NANOS, parseDollars } from "@/lib/money";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { addAlertRule } from "../alerts";
import { setLowBalanceThreshold, setOrgSpendCapsFromForm } from "../billing";
import { configureOrgKey } from "../keys";
import { addMembership } from "../members";
import { adjustCreditAsAdmin } from "./organizations";

/**
 * Every amount a person types has a bound and a message: an adjustment of
 * $9,223,372,036 (where 64-bit nano-dollars end) used to reach PostgreSQL
 * and come back as internal_error.
 */
let t: Testbed;
let n = 0;
let admin: { userId: string; ip: string };
beforeAll(async () => {
  t = await openApiTestbed({ tickerCount: 1 });
  const user = await createUser(t.prisma, { email: "root@bounds.test", password: "correct horse battery" });
  await t.prisma.user.update({ where: { id: user.id }, data: { isPlatformAdmin: true } });
  admin = { userId: user.id, ip: "192.0.2.10" };
}, 120_000);
afterAll(() => t?.close());

async function customer(dollars = "0") {
  const org = await t.org({ dollars, name: `Bounded ${++n}` });
  const owner = await createUser(t.prisma, { email: `owner${n}@bounds.test`, password: "correct horse battery" });
  await addMembership(t.prisma, { userId: owner.id, orgId: org.id, role: "OWNER" });
  return { ...org, owner: { userId: owner.id, ip: "198.51.100.7" } };
}

const messageOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (error instanceof ZodError) return error.issues[0]!.message;
  return error instanceof Error ? `${(error as { code?: string }).code}: ${error.message}` : String(error);
};

describe("an admin's credit adjustment", () => {
  const adjust = (orgId: string, amount: string, direction = "add", extra: object = {}) =>
    adjustCreditAsAdmin(t.prisma, admin, orgId, { direction, amount, reason: "Bound check", token: crypto.randomUUID(), ...extra });

  it("is at most $1,000,000,000, with a message, never internal_error", async () => {
    const c = await customer();
    for (const amount of ["9223372036", "9223372036.854775808", "99999999999999", "1000000000.01"]) {
      expect(await messageOf(adjust(c.id, amount)), amount).toBe("Amount: at most $1,000,000,000.00.");
      expect(await messageOf(adjust(c.id, amount, "remove", { allowNegative: "on", negativeReason: "Testing the bound" })), amount).toBe("Amount: at most $1,000,000,000.00.");
    }
    expect(await t.balance(c.id)).toBe(0n);
    expect(await adjust(c.id, "$1,000,000,000")).toMatchObject({ status: "applied", balanceAfterNanos: MAX_TYPED_NANOS });
  });

  it("cannot leave the balance beyond $1,000,000,000 either way, so repeated adjustments cannot overflow it", async () => {
    const c = await customer();
    await adjust(c.id, "1000000000");
    expect(await messageOf(adjust(c.id, "1"))).toBe("invalid_amount: The balance would be $1,000,000,001.00; an adjustment may leave it at most $1,000,000,000.00 either side of zero.");
    expect(await t.balance(c.id)).toBe(MAX_TYPED_NANOS);
    await adjust(c.id, "1000000000", "remove");
    await adjust(c.id, "1000000000", "remove", { allowNegative: "on", negativeReason: "Testing the bound" });
    expect(await messageOf(adjust(c.id, "0.01", "remove", { allowNegative: "on", negativeReason: "Testing the bound" }))).toMatch(/^invalid_amount: The balance would be -\$1,000,000,000\.01;/);
    const totals = await ledgerTotals(t.prisma, c.id);
    expect(totals).toEqual({ ledgerSumNanos: -MAX_TYPED_NANOS, balanceNanos: -MAX_TYPED_NANOS });
  });
});

describe("a customer's caps and thresholds", () => {
  it("are bounded with a message naming the field", async () => {
    const c = await customer("1");
    expect(await messageOf(setOrgSpendCapsFromForm(t.prisma, c.owner, c.id, { dailyCap: "9223372036", monthlyCap: "" }))).toBe(
      "invalid_spend_cap: Daily cap: at most $1,000,000.00. Leave it empty for no cap.",
    );
    expect(await messageOf(configureOrgKey(t.prisma, c.owner, c.id, c.keyId, { endpoints: [], allowedIps: "", dailyCap: "", monthlyCap: "99999999999" }))).toBe(
      "invalid_spend_cap: Monthly cap: at most $1,000,000.00. Leave it empty for no cap.",
    );
    expect(await messageOf(addAlertRule(t.prisma, c.owner, c.id, { kind: "balance_below", keyId: "", threshold: "9223372036" }))).toBe("Threshold: at most $1,000,000.00.");
    expect(await messageOf(addAlertRule(t.prisma, c.owner, c.id, { kind: "balance_below", keyId: "", threshold: "0" }))).toBe("Threshold: enter an amount above zero.");
    expect(await messageOf(setLowBalanceThreshold(t.prisma, c.owner, c.id, "9223372036"))).toBe("Enter an amount in dollars between $0 and $100,000, e.g. 25 or 12.50; leave it empty for no alert.");
    const org = await t.prisma.organization.findUniqueOrThrow({ where: { id: c.id } });
    expect([org.dailyCapNanos, org.monthlyCapNanos, org.lowBalanceThresholdNanos]).toEqual([null, null, null]);
    expect(await t.prisma.alertRule.count({ where: { orgId: c.id } })).toBe(0);
    // In bounds they are taken exactly.
    await setOrgSpendCapsFromForm(t.prisma, c.owner, c.id, { dailyCap: "$1,000,000", monthlyCap: "0.000000001" });
    expect(await t.prisma.organization.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({ dailyCapNanos: parseDollars("1000000"), monthlyCapNanos: 1n });
  });
});
