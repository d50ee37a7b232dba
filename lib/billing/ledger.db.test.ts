import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { ensureDefaultPlans } from "./plans";
import { changeBalance, ledgerTotals } from "./ledger";
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
