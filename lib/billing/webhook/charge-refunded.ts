import type Stripe from "stripe";
import { z } from "zod";
import type { PrismaClient } from "@/lib/db";
import { formatCents } from "@/lib/money";
import { idOf, parseObject, type Prepared, type Tx } from "./event";
import { audit, locatePayment, settlePayment, takeBack } from "./payment";
import type { Payment } from "./payment-source";

/**
 * charge.refunded: `amount_refunded` is cumulative, so only the increase over
 * the recorded `refunded_cents` is debited (ledger key with the cumulative
 * amount), and an older refund event arriving late changes nothing.
 */

const chargeSchema = z.object({
  id: z.string().min(1),
  object: z.literal("charge"),
  amount: z.number().int().nonnegative(),
  amount_refunded: z.number().int().nonnegative(),
  payment_intent: idOf.nullable(),
  receipt_url: z.string().nullable().optional(),
});

type Charge = z.infer<typeof chargeSchema>;

export async function prepareRefund(db: PrismaClient, stripe: Stripe, object: unknown, type: string): Promise<Prepared> {
  const charge = parseObject(chargeSchema, object, type);
  const located = await locatePayment(db, stripe, charge.id, charge.payment_intent);
  if (!located) return { ignore: "not a payment of this app" };
  return {
    apply: async (tx, eventId) => {
      const facts = { paymentIntentId: charge.payment_intent, chargeId: charge.id, receiptUrl: charge.receipt_url ?? undefined, amountCents: charge.amount };
      const settled = await settlePayment(tx, located, facts, eventId);
      if (!settled) return ["unmatched"];
      return [...settled.effects, ...(await debitRefund(tx, settled.payment, charge, eventId))];
    },
  };
}

async function debitRefund(tx: Tx, payment: Payment, charge: Charge, eventId: string): Promise<string[]> {
  const total = charge.amount_refunded;
  const increase = total - payment.refundedCents;
  if (increase <= 0) return [];
  const take = await takeBack(tx, payment, increase, { kind: "REFUND", reference: charge.id, idempotencyKey: `refund:${charge.id}:${total}`, label: "Stripe refund" });
  // "Refunded" once the refunds cover the payment; a held payment stays held.
  await payment.source.update(tx, payment.id, { refundedCents: total, ...(total >= payment.amountCents && !payment.held ? { status: "refunded" as const } : {}) });
  await audit(tx, payment, "credits.refunded", eventId, {
    refunded_cents: take,
    refunded: formatCents(take),
    total_refunded_cents: total,
    ...(take < increase ? { not_debited_cents: increase - take } : {}),
    charge_id: charge.id,
  });
  return [`refunded ${take}`];
}
