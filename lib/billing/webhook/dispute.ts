import type Stripe from "stripe";
import { z } from "zod";
import type { PrismaClient } from "@/lib/db";
import { formatCents, formatDollars, NANOS_PER_CENT } from "@/lib/money";
import { idOf, parseObject, type Prepared, type Tx } from "./event";
import { audit, changeOrFail, locatePayment, settlePayment, takeBack } from "./payment";
import type { Payment } from "./payment-source";

/**
 * charge.dispute.*: a dispute takes its amount back (at most what is left of
 * the payment) until it is won, when exactly what it took is restored. An
 * inquiry ("warning_…") takes nothing.
 */

const disputeSchema = z.object({
  id: z.string().min(1),
  object: z.literal("dispute"),
  amount: z.number().int().nonnegative(),
  charge: idOf,
  payment_intent: idOf.nullable().optional(),
  status: z.string(),
});

type Dispute = z.infer<typeof disputeSchema>;

export async function prepareDispute(db: PrismaClient, stripe: Stripe, object: unknown, type: string): Promise<Prepared> {
  const dispute = parseObject(disputeSchema, object, type);
  const located = await locatePayment(db, stripe, dispute.charge, dispute.payment_intent ?? null);
  if (!located) return { ignore: "not a payment of this app" };
  const inquiry = dispute.status.startsWith("warning_");
  return {
    apply: async (tx, eventId) => {
      const settled = await settlePayment(tx, located, { paymentIntentId: dispute.payment_intent ?? null, chargeId: dispute.charge }, eventId);
      if (!settled) return ["unmatched"];
      const effects = [...settled.effects];
      if (inquiry) return effects;
      effects.push(...(await debitDispute(tx, settled.payment, dispute, eventId)));
      if (type === "charge.dispute.closed" && dispute.status === "won") {
        effects.push(...(await restoreDispute(tx, await settled.payment.source.read(tx, settled.payment.id), dispute, eventId)));
      }
      if (type === "charge.dispute.closed" && dispute.status === "lost") {
        await audit(tx, settled.payment, "credits.dispute_lost", eventId, { dispute_id: dispute.id, amount_cents: dispute.amount });
      }
      return effects;
    },
  };
}

async function debitDispute(tx: Tx, payment: Payment, dispute: Dispute, eventId: string): Promise<string[]> {
  // Each dispute is applied once, whichever of its events comes first (a dispute that found nothing left to take has no ledger entry, only its audit entry).
  if (await tx.creditLedgerEntry.findUnique({ where: { idempotencyKey: `dispute:${dispute.id}` }, select: { id: true } })) return [];
  const recorded = await tx.auditLog.count({ where: { action: "credits.disputed", targetId: payment.id, details: { path: ["dispute_id"], equals: dispute.id } } });
  if (recorded > 0) return [];
  const take = await takeBack(tx, payment, dispute.amount, { kind: "DISPUTE", reference: dispute.id, idempotencyKey: `dispute:${dispute.id}`, label: "Stripe dispute" });
  await audit(tx, payment, "credits.disputed", eventId, {
    dispute_id: dispute.id,
    amount_cents: take,
    amount: formatCents(take),
    ...(take < dispute.amount ? { not_debited_cents: dispute.amount - take } : {}),
  });
  return [`disputed ${take}`];
}

/** A dispute won gives back exactly what that dispute took. */
async function restoreDispute(tx: Tx, payment: Payment, dispute: Dispute, eventId: string): Promise<string[]> {
  const taken = await tx.creditLedgerEntry.findUnique({ where: { idempotencyKey: `dispute:${dispute.id}` }, select: { amountNanos: true } });
  if (!taken) return [];
  const restoredNanos = -taken.amountNanos;
  const result = await changeOrFail(tx, {
    orgId: payment.orgId,
    kind: "DISPUTE",
    amountNanos: restoredNanos,
    reference: dispute.id,
    idempotencyKey: `dispute-won:${dispute.id}`,
    description: `Stripe dispute won: ${formatDollars(restoredNanos)} restored`,
  });
  if (result !== "applied") return [];
  const cents = Number(restoredNanos / NANOS_PER_CENT);
  await payment.source.update(tx, payment.id, { takenBackCents: { increment: -cents } });
  await audit(tx, payment, "credits.dispute_won", eventId, { dispute_id: dispute.id, amount_cents: cents, amount: formatCents(cents) });
  return [`dispute won ${cents}`];
}
