import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp } from "@/lib/platform/accounts";
import { sessionCookie } from "@/tests/support/platform";
import { addMembership } from "@/lib/platform/members";
import { createUser } from "@/lib/auth/accounts";
import { setLowBalanceThreshold, startOrgTopUp } from "@/lib/platform/billing";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { balanceRunway, billingCsv, billingHistory } from "./history";
import { changeBalance } from "./ledger";
import { parseDollars } from "@/lib/money";
import { exportBillingHistory } from "@/lib/platform/routes";

process.env.NEXTAUTH_SECRET ??= "test-secret-for-session-cookies-0123456789";

let t: Testbed;
let orgId: string;
let ownerId: string;
let adminId: string;
let memberId: string;

beforeAll(async () => {
  t = await openApiTestbed({ tickerCount: 8 });
  const { user, org } = await signUp(t.prisma, { email: "owner@bill.test", password: "a long password" });
  orgId = org.id;
  ownerId = user.id;
  adminId = (await createUser(t.prisma, { email: "admin@bill.test" })).id;
  memberId = (await createUser(t.prisma, { email: "member@bill.test" })).id;
  await addMembership(t.prisma, { userId: adminId, orgId, role: "ADMIN" });
  await addMembership(t.prisma, { userId: memberId, orgId, role: "MEMBER" });
}, 120_000);
afterAll(() => t?.close());

async function ledger(kind: "TOPUP" | "USAGE" | "REFUND", dollars: string, reference?: string) {
  const result = await changeBalance(t.prisma, { orgId, kind, amountNanos: parseDollars(dollars), reference, allowNegative: kind === "REFUND" });
  if (result.status !== "applied") throw new Error(result.status);
}

describe("billing history", () => {
  it("lists top-ups one by one with receipts, usage one line per day, with the balance after each line", async () => {
    await t.prisma.stripeCheckoutSession.create({ data: { id: "cs_test_hist1", orgId, amountCents: 2000, status: "PAID", receiptUrl: "https://pay.example/receipt/1" } });
    await ledger("TOPUP", "20", "cs_test_hist1");
    for (const cost of ["0.000008832", "0.000017664", "0.000001"]) await ledger("USAGE", `-${cost}`);
    await ledger("REFUND", "-5");

    const today = new Date().toISOString().slice(0, 10);
    const lines = await billingHistory(t.prisma, orgId, { from: today, to: today });
    expect(lines.map((l) => [l.kind, l.amountNanos, l.balanceAfterNanos])).toEqual([
      ["REFUND", -parseDollars("5"), parseDollars("14.999972504")],
      ["USAGE", -parseDollars("0.000027496"), parseDollars("19.999972504")],
      ["TOPUP", parseDollars("20"), parseDollars("20")],
    ]);
    expect(lines[1]).toMatchObject({ requests: 3, label: `API usage on ${today}` });
    expect(lines[2]!.receiptUrl).toBe("https://pay.example/receipt/1");
    // Each line's balance is the previous one's plus its amount.
    for (let i = 0; i < lines.length - 1; i++) expect(lines[i]!.balanceAfterNanos).toBe(lines[i + 1]!.balanceAfterNanos + lines[i]!.amountNanos);

    const csv = billingCsv(lines).trim().split("\r\n");
    expect(csv[0]).toBe("time_utc,type,description,requests,amount_dollars,balance_after_dollars,receipt_url");
    expect(csv[1]).toContain(",refund,");
    expect(csv[1]).toContain(",-5.000000000,14.999972504,");
    expect(csv[2]).toContain(",usage,API usage on");
    expect(csv[2]).toContain(",3,-0.000027496,19.999972504,");
  });

  it("says how long the balance lasts at the last 7 days' spend", async () => {
    const runway = await balanceRunway(t.prisma, orgId);
    expect(runway.weekSpendNanos).toBe(parseDollars("0.000027496"));
    expect(runway.dailySpendNanos).toBe(parseDollars("0.000027496") / 7n);
    expect(runway.days).toBe(Number(runway.balanceNanos / runway.dailySpendNanos));
  });
});

describe("the low-balance threshold", () => {
  it("is set by owners only, in dollars, and cleared with an empty value", async () => {
    const org = await setLowBalanceThreshold(t.prisma, { userId: ownerId, ip: "192.0.2.1" }, orgId, "12.50");
    expect(org.lowBalanceThresholdNanos).toBe(parseDollars("12.5"));
    await expect(setLowBalanceThreshold(t.prisma, { userId: adminId }, orgId, "1")).rejects.toMatchObject({ code: "forbidden" });
    await expect(setLowBalanceThreshold(t.prisma, { userId: memberId }, orgId, "1")).rejects.toMatchObject({ code: "forbidden" });
    await expect(setLowBalanceThreshold(t.prisma, null, orgId, "1")).rejects.toMatchObject({ code: "signed_out" });
    const outsider = await signUp(t.prisma, { email: "outsider@bill.test", password: "a long password" });
    await expect(setLowBalanceThreshold(t.prisma, { userId: outsider.user.id }, orgId, "1")).rejects.toMatchObject({ code: "not_member" });
    await expect(setLowBalanceThreshold(t.prisma, { userId: ownerId }, orgId, "-3")).rejects.toThrow(/between \$0 and \$100,000/);
    await expect(setLowBalanceThreshold(t.prisma, { userId: ownerId }, orgId, "lots")).rejects.toThrow(/between/);
    expect((await t.prisma.organization.findUniqueOrThrow({ where: { id: orgId } })).lowBalanceThresholdNanos).toBe(parseDollars("12.5"));
    expect((await setLowBalanceThreshold(t.prisma, { userId: ownerId }, orgId, "")).lowBalanceThresholdNanos).toBeNull();
  });
});

describe("the billing CSV export", () => {
  const database = () => Promise.resolve({ prisma: t.prisma });
  const get = async (userId: string | null, query = "") => {
    const cookie = userId ? (await sessionCookie(t.prisma, userId)).cookie : "";
    const response = await exportBillingHistory(new Request(`http://app.test/billing/export?org=${orgId}${query}`, { headers: { cookie } }), database);
    return { status: response.status, text: await response.text(), name: /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] };
  };

  it("is named after the days it holds: its oldest line's day, or the start chosen, to the end", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const whole = await get(ownerId);
    const oldest = whole.text.trim().split("\r\n").at(-1)!.slice(0, 10);
    expect(oldest).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(whole.name).toBe(`billing-${oldest}-to-${today}.csv`);
    expect((await get(ownerId, "&from=2026-01-01&to=2026-02-01")).name).toBe("billing-2026-01-01-to-2026-02-01.csv");
  });

  it("is for owners and admins of the organization", async () => {
    const owner = await get(ownerId);
    expect(owner.status).toBe(200);
    expect(owner.text).toContain(",topup,");
    expect((await get(adminId)).status).toBe(200);
    expect((await get(memberId)).status).toBe(403);
    const stranger = await signUp(t.prisma, { email: "stranger@bill.test", password: "a long password" });
    expect((await get(stranger.user.id)).status).toBe(404);
    expect((await get(null)).status).toBe(401);
  });
});

describe("starting a top-up", () => {
  const noStripe = () => {
    throw new Error("Stripe must not be called");
  };
  const start = (userId: string | null, amount = "20") =>
    startOrgTopUp(t.prisma, noStripe, userId ? { userId } : null, orgId, { amount, origin: "http://app.test" });

  it("is refused to members, to other organizations and when signed out, before Stripe is asked", async () => {
    const sessions = await t.prisma.stripeCheckoutSession.count();
    await expect(start(memberId)).rejects.toMatchObject({ code: "forbidden" });
    const stranger = await t.prisma.user.findUniqueOrThrow({ where: { email: "stranger@bill.test" } });
    await expect(start(stranger.id)).rejects.toMatchObject({ code: "not_member" });
    await expect(start(null)).rejects.toMatchObject({ code: "signed_out" });
    expect(await t.prisma.stripeCheckoutSession.count()).toBe(sessions);
  });

  it("refuses amounts outside $10 to $10,000 with the limits in the message", async () => {
    await expect(start(ownerId, "5")).rejects.toMatchObject({ code: "invalid_amount", message: expect.stringMatching(/\$10/) });
    await expect(start(adminId, "10000.01")).rejects.toMatchObject({ code: "invalid_amount" });
  });
});
