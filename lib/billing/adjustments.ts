import { recordAudit, type AuditActor } from "@/lib/audit";
import type { PrismaClient } from "@/lib/db";
import { DomainError, isUniqueViolation } from "@/lib/errors";
import { formatDollars, MAX_TYPED_NANOS } from "@/lib/money";
import { changeBalanceInTransaction } from "./ledger";

/**
 * An operator's credit adjustment (the admin console, the CLI): through the
 * ledger, with its reason, audited in the same transaction, and applied once
 * per idempotency key however often the form is sent. A removal stops at zero
 * unless the operator says, with a second reason, that the balance may go
 * negative. An adjustment is at most MAX_TYPED_NANOS ($1,000,000,000) either
 * way, and so is the balance it leaves, so repeated adjustments cannot push a
 * balance past what 64-bit nano-dollars hold.
 */
export interface CreditAdjustment {
  orgId: string;
  /** Signed nano-dollars, never zero. */
  amountNanos: bigint;
  reason: string;
  /** Why the balance may go below zero; without it a removal stops at zero. */
  negativeReason?: string | null;
  /** One per form: a second submit with the same key changes nothing. */
  idempotencyKey: string;
}

export type AdjustmentResult = { status: "applied"; balanceAfterNanos: bigint } | { status: "duplicate" };

export async function adjustCredit(db: PrismaClient, adjustment: CreditAdjustment, actor: AuditActor): Promise<AdjustmentResult> {
  if (adjustment.amountNanos === 0n) throw new DomainError("invalid_amount", "Enter an amount other than zero.");
  const limit = formatDollars(MAX_TYPED_NANOS, { grouping: true });
  if (adjustment.amountNanos > MAX_TYPED_NANOS || adjustment.amountNanos < -MAX_TYPED_NANOS) {
    throw new DomainError("invalid_amount", `An adjustment is at most ${limit}.`);
  }
  const reason = adjustment.reason.trim();
  if (!reason) throw new DomainError("invalid_input", "Say why: the reason is kept in the ledger and the audit log.");
  const negativeReason = adjustment.negativeReason?.trim() || null;
  try {
    return await db.$transaction(async (tx) => {
      const result = await changeBalanceInTransaction(tx, {
        orgId: adjustment.orgId,
        kind: "ADJUSTMENT",
        amountNanos: adjustment.amountNanos,
        description: negativeReason ? `${reason} (may go negative: ${negativeReason})` : reason,
        reference: "adjustment",
        idempotencyKey: `adjustment:${adjustment.idempotencyKey}`,
        actorUserId: actor.actorUserId ?? null,
        allowNegative: negativeReason !== null,
      });
      if (result.status === "duplicate") return { status: "duplicate" as const };
      if (result.status === "no_such_organization") throw new DomainError("unknown_organization", "No such organization.");
      if (result.status === "insufficient_funds") {
        throw new DomainError(
          "insufficient_funds",
          `The balance is ${formatDollars(result.balanceNanos, { grouping: true })}; removing ${formatDollars(-adjustment.amountNanos, { grouping: true })} would take it below zero. Allow a negative balance, with its reason, to do it anyway.`,
        );
      }
      if (result.balanceAfterNanos > MAX_TYPED_NANOS || result.balanceAfterNanos < -MAX_TYPED_NANOS) {
        // Thrown inside the transaction: the balance and the ledger entry roll back.
        throw new DomainError(
          "invalid_amount",
          `The balance would be ${formatDollars(result.balanceAfterNanos, { grouping: true })}; an adjustment may leave it at most ${limit} either side of zero.`,
        );
      }
      await recordAudit(tx, {
        action: "credits.adjusted",
        orgId: adjustment.orgId,
        ...actor,
        targetType: "organization",
        targetId: adjustment.orgId,
        details: {
          amount_dollars: formatDollars(adjustment.amountNanos),
          amount_nanos: adjustment.amountNanos.toString(),
          reason,
          ...(negativeReason ? { negative_reason: negativeReason } : {}),
          before: { balance_dollars: formatDollars(result.balanceAfterNanos - adjustment.amountNanos) },
          after: { balance_dollars: formatDollars(result.balanceAfterNanos) },
        },
      });
      return { status: "applied" as const, balanceAfterNanos: result.balanceAfterNanos };
    });
  } catch (error) {
    // The same form sent twice at once: the second ledger insert hits the idempotency key and rolls back.
    if (isUniqueViolation(error)) return { status: "duplicate" };
    throw error;
  }
}
