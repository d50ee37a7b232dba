import type { DbClient, PrismaClient } from "@/lib/db";
import type { LedgerKind } from "@/lib/generated/prisma/enums";

/**
 * Every change of a balance goes through here: one conditional UPDATE of the
 * organization and one append-only ledger row, in the same transaction, so
 * sum(ledger.amount) == organization.balance at every commit.
 */

export interface BalanceChange {
  orgId: string;
  kind: LedgerKind;
  /** Signed nanos: positive credits, negative debits. */
  amountNanos: bigint;
  reference?: string | null;
  /** Applied at most once per key (e.g. "checkout:cs_123"). */
  idempotencyKey?: string | null;
  description?: string | null;
  actorUserId?: string | null;
  /**
   * Debits normally stop at zero. Refunds and disputes may take a balance
   * below zero: the money has already left.
   */
  allowNegative?: boolean;
}

export type BalanceChangeResult =
  | { status: "applied"; balanceAfterNanos: bigint; entryId: bigint }
  | { status: "duplicate" }
  | { status: "insufficient_funds"; balanceNanos: bigint }
  | { status: "no_such_organization" };

export async function changeBalance(db: PrismaClient, change: BalanceChange): Promise<BalanceChangeResult> {
  try {
    return await db.$transaction((tx) => changeBalanceInTransaction(tx, change));
  } catch (error) {
    // Two concurrent deliveries of the same credit: the loser's ledger insert
    // hits the unique idempotency key and its whole transaction rolls back.
    if (change.idempotencyKey && isUniqueViolation(error)) return { status: "duplicate" };
    throw error;
  }
}

/** The same, inside a transaction the caller already holds. */
export async function changeBalanceInTransaction(tx: DbClient, change: BalanceChange): Promise<BalanceChangeResult> {
  if (change.idempotencyKey) {
    const seen = await tx.creditLedgerEntry.findUnique({
      where: { idempotencyKey: change.idempotencyKey },
      select: { id: true },
    });
    if (seen) return { status: "duplicate" };
  }
  const mayGoNegative = change.amountNanos >= 0n || change.allowNegative === true;
  const updated = await tx.$queryRaw<{ balance_nanos: bigint }[]>`
    UPDATE organizations
       SET balance_nanos = balance_nanos + ${change.amountNanos}, updated_at = now()
     WHERE id = ${change.orgId}::uuid
       AND (${mayGoNegative} OR balance_nanos + ${change.amountNanos} >= 0)
    RETURNING balance_nanos`;
  const row = updated[0];
  if (!row) {
    const org = await tx.organization.findUnique({ where: { id: change.orgId }, select: { balanceNanos: true } });
    return org ? { status: "insufficient_funds", balanceNanos: org.balanceNanos } : { status: "no_such_organization" };
  }
  const entry = await tx.creditLedgerEntry.create({
    data: {
      orgId: change.orgId,
      kind: change.kind,
      amountNanos: change.amountNanos,
      balanceAfterNanos: row.balance_nanos,
      reference: change.reference ?? null,
      idempotencyKey: change.idempotencyKey ?? null,
      description: change.description ?? null,
      actorUserId: change.actorUserId ?? null,
    },
    select: { id: true },
  });
  return { status: "applied", balanceAfterNanos: row.balance_nanos, entryId: entry.id };
}

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string; cause?: { code?: string } } | null;
  return e?.code === "P2002" || e?.code === "23505" || e?.cause?.code === "23505" || /unique constraint/i.test(e?.message ?? "");
}

/** sum(ledger) and the stored balance; they must always be equal. */
export async function ledgerTotals(db: DbClient, orgId: string) {
  const [sum, org] = await Promise.all([
    db.creditLedgerEntry.aggregate({ where: { orgId }, _sum: { amountNanos: true } }),
    db.organization.findUniqueOrThrow({ where: { id: orgId }, select: { balanceNanos: true } }),
  ]);
  return { ledgerSumNanos: sum._sum.amountNanos ?? 0n, balanceNanos: org.balanceNanos };
}
