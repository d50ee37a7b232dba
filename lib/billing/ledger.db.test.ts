import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { ensureDefaultPlans } from "./plans";
import { changeBalance, chargeUsage, ledgerTotals, type UsageCharge } from "./ledger";
import { randomUUID } from "node:crypto";
import { createOrganization } from "@/lib/platform/organizations";
import { openTestDatabase } from "@/tests/support/database";

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
  await ensureDefaultPlans(db.prisma);
});
afterAll(() => db?.close());

async function newOrg() {
  return createOrganization(db.prisma, { name: "Ledger test", plan: "retail" }, { actorLabel: "test" });
}

describe("the credit ledger", () => {
  it("records every balance change with the balance after it", async () => {
    const org = await newOrg();
    const credit = await changeBalance(db.prisma, { orgId: org.id, kind: "ADJUSTMENT", amountNanos: 5_000n });
    const debit = await changeBalance(db.prisma, { orgId: org.id, kind: "USAGE", amountNanos: -1_200n, reference: "req-1" });
    expect(credit).toMatchObject({ status: "applied", balanceAfterNanos: 5_000n });
    expect(debit).toMatchObject({ status: "applied", balanceAfterNanos: 3_800n });
    const entries = await db.prisma.creditLedgerEntry.findMany({ where: { orgId: org.id }, orderBy: { id: "asc" } });
    expect(entries.map((e) => [e.kind, e.amountNanos, e.balanceAfterNanos])).toEqual([
      ["ADJUSTMENT", 5_000n, 5_000n],
      ["USAGE", -1_200n, 3_800n],
    ]);
    expect(await ledgerTotals(db.prisma, org.id)).toEqual({ ledgerSumNanos: 3_800n, balanceNanos: 3_800n });
  });

  it("refuses a debit that would take the balance below zero, and changes nothing", async () => {
    const org = await newOrg();
    await changeBalance(db.prisma, { orgId: org.id, kind: "ADJUSTMENT", amountNanos: 100n });
    const result = await changeBalance(db.prisma, { orgId: org.id, kind: "USAGE", amountNanos: -101n });
    expect(result).toEqual({ status: "insufficient_funds", balanceNanos: 100n });
    expect(await db.prisma.creditLedgerEntry.count({ where: { orgId: org.id } })).toBe(1);
    expect(await ledgerTotals(db.prisma, org.id)).toEqual({ ledgerSumNanos: 100n, balanceNanos: 100n });
  });

  it("lets refunds and disputes go below zero when told to", async () => {
    const org = await newOrg();
    const result = await changeBalance(db.prisma, { orgId: org.id, kind: "REFUND", amountNanos: -700n, allowNegative: true });
    expect(result).toMatchObject({ status: "applied", balanceAfterNanos: -700n });
  });

  it("applies a credit with an idempotency key once, however many times it arrives at once", async () => {
    const org = await newOrg();
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        changeBalance(db.prisma, { orgId: org.id, kind: "TOPUP", amountNanos: 20_000_000_000n, idempotencyKey: `checkout:${org.id}` }),
      ),
    );
    expect(results.filter((r) => r.status === "applied")).toHaveLength(1);
    expect(results.filter((r) => r.status === "duplicate")).toHaveLength(9);
    expect(await ledgerTotals(db.prisma, org.id)).toEqual({ ledgerSumNanos: 20_000_000_000n, balanceNanos: 20_000_000_000n });
  });

  it("never overdraws under concurrent debits", async () => {
    const org = await newOrg();
    await changeBalance(db.prisma, { orgId: org.id, kind: "ADJUSTMENT", amountNanos: 2_000n });
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        changeBalance(db.prisma, { orgId: org.id, kind: "USAGE", amountNanos: -100n, reference: `req-${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === "applied")).toHaveLength(20);
    expect(results.filter((r) => r.status === "insufficient_funds")).toHaveLength(40);
    expect(await ledgerTotals(db.prisma, org.id)).toEqual({ ledgerSumNanos: 0n, balanceNanos: 0n });
  });

  it("is append-only: the database refuses to change a ledger row", async () => {
    const org = await newOrg();
    await changeBalance(db.prisma, { orgId: org.id, kind: "ADJUSTMENT", amountNanos: 1n });
    await expect(
      db.prisma.creditLedgerEntry.updateMany({ where: { orgId: org.id }, data: { amountNanos: 1_000_000n } }),
    ).rejects.toThrow(/append-only/);
  });
});

describe("paid requests charged together", () => {
  async function orgWithKey(dollars: bigint) {
    const org = await newOrg();
    await changeBalance(db.prisma, { orgId: org.id, amountNanos: dollars, kind: "ADJUSTMENT", reference: `seed-${org.id}`, description: "seed" });
    const key = await db.prisma.apiKey.create({ data: { orgId: org.id, name: "k", keyHash: randomUUID(), hint: "svc-live-abc" } });
    return { orgId: org.id, keyId: key.id };
  }
  const charge = (o: { orgId: string; keyId: string }, costNanos: bigint): UsageCharge => ({
    orgId: o.orgId,
    keyId: o.keyId,
    endpoint: "dilution-rating",
    tickers: ["AAA", "BBB"],
    bytes: 900,
    costNanos,
    requestId: randomUUID(),
    now: new Date(),
    clientIp: "203.0.113.9",
    dailyTickerLimit: null,
    trialDay: "2026-11-23",
    keyHasSpendCap: false,
  });

  it("applies many concurrent charges of several organizations exactly: no overdraft, one ledger entry and event each, sums equal balances", async () => {
    // Three organizations; the poor one's balance covers 7 of its 40 charges, so its batch falls back to one by one.
    const rich = await orgWithKey(1_000_000n);
    const middle = await orgWithKey(500_000n);
    const poor = await orgWithKey(7_000n);
    const charges = [
      ...Array.from({ length: 80 }, () => charge(rich, 1_000n)),
      ...Array.from({ length: 60 }, () => charge(middle, 3_000n)),
      ...Array.from({ length: 40 }, () => charge(poor, 1_000n)),
    ].sort(() => Math.random() - 0.5);
    let statements = 0;
    const counted = { ...db.sql, prepared: (name: string, text: string, params: unknown[]) => (statements++, db.sql.prepared(name, text, params)) } as typeof db.sql;
    const outcomes = await Promise.all(charges.map((c) => chargeUsage({ prisma: db.prisma, sql: counted }, c)));

    const charged = (o: { orgId: string }) => outcomes.filter((r, i) => charges[i]!.orgId === o.orgId && r.status === "charged").length;
    expect(charged(rich)).toBe(80);
    expect(charged(middle)).toBe(60);
    expect(charged(poor)).toBe(7);
    expect(outcomes.filter((r) => r.status === "insufficient_credits")).toHaveLength(33);
    // Fewer statements than charges: they went together.
    expect(statements).toBeLessThan(charges.length);

    for (const [o, spent] of [[rich, 80_000n], [middle, 180_000n], [poor, 7_000n]] as const) {
      const totals = await ledgerTotals(db.prisma, o.orgId);
      expect(totals.ledgerSumNanos).toBe(totals.balanceNanos);
      const seeded = o === rich ? 1_000_000n : o === middle ? 500_000n : 7_000n;
      expect(totals.balanceNanos).toBe(seeded - spent);
      const entries = await db.prisma.creditLedgerEntry.findMany({ where: { orgId: o.orgId, kind: "USAGE" }, orderBy: { id: "asc" } });
      const events = await db.prisma.usageEvent.findMany({ where: { orgId: o.orgId } });
      expect(entries.length).toBe(events.length);
      expect(new Set(events.map((e) => e.requestId))).toEqual(new Set(entries.map((e) => e.reference)));
      // Each entry's balance after is distinct and exact: the balances form the running sum.
      const afters = entries.map((e) => e.balanceAfterNanos).sort((a, b) => (a > b ? -1 : 1));
      afters.forEach((after, k) => expect(after).toBe(seeded + (-spent * BigInt(k + 1)) / BigInt(entries.length)));
      expect(events.every((e) => e.tickers.join(",") === "AAA,BBB" && e.clientIp === "203.0.113.9" && e.statusCode === 200)).toBe(true);
    }
    // Each charge's reported balance after is the one its ledger entry holds.
    const byReference = new Map((await db.prisma.creditLedgerEntry.findMany({ where: { kind: "USAGE" } })).map((e) => [e.reference, e.balanceAfterNanos]));
    outcomes.forEach((r, i) => {
      if (r.status === "charged") expect(r.balanceAfterNanos).toBe(byReference.get(charges[i]!.requestId));
    });
    expect((await db.prisma.apiKey.findUniqueOrThrow({ where: { id: rich.keyId } })).lastUsedAt).not.toBeNull();
  });
});
