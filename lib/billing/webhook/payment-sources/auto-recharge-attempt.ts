import type Stripe from "stripe";
import type { Prisma } from "@/lib/db";
import { formatCents } from "@/lib/money";
import { autoRechargeAttemptOf } from "../../auto-recharge";
import { intentSchema, parseObject } from "../event";
import { chargeOrIntent, paymentOf, type PaymentSource } from "../payment-source";

/**
 * An auto-recharge's off-session charge (lib/billing/auto-recharge.ts): a row
 * of `auto_recharge_attempts`, whose PaymentIntent names it in its metadata;
 * credited with the key `payment_intent:<id>`. A held payment's reason is its
 * failure message, with the failure code `held`.
 */

const STATUS = { credited: "SUCCEEDED", held: "HELD", refunded: "REFUNDED" } as const;

export const autoRechargeAttempts: PaymentSource = {
  kind: "auto_recharge_attempt",

  async findOwn(db, ids) {
    return (await db.autoRechargeAttempt.findFirst({ where: chargeOrIntent(ids), select: { id: true } }))?.id ?? null;
  },

  async findAtStripe(stripe: Stripe, paymentIntentId) {
    const intent = parseObject(intentSchema, await stripe.paymentIntents.retrieve(paymentIntentId), "payment_intent");
    const id = autoRechargeAttemptOf(intent.metadata);
    return id ? { id } : null;
  },

  async lock(tx, id) {
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM auto_recharge_attempts WHERE id = ${id}::uuid FOR UPDATE`;
    return locked.length > 0 ? this.read(tx, id) : null;
  },

  async read(tx, id) {
    return paymentOf(this, await tx.autoRechargeAttempt.findUniqueOrThrow({ where: { id } }));
  },

  async update(tx, id, { status, heldReason, ...change }) {
    const data: Prisma.AutoRechargeAttemptUpdateInput = {
      ...change,
      ...(status ? { status: STATUS[status] } : {}),
      ...(heldReason ? { failureCode: "held", failureMessage: heldReason } : {}),
    };
    await tx.autoRechargeAttempt.update({ where: { id }, data });
  },

  credit(payment) {
    // Money that arrives after a decline was recorded (Stripe retried the card) is still credited.
    if (!payment.paymentIntentId) throw new Error(`auto-recharge ${payment.id} has no payment intent to credit yet`);
    return {
      reference: payment.paymentIntentId,
      idempotencyKey: `payment_intent:${payment.paymentIntentId}`,
      description: `Auto-recharge ${formatCents(payment.amountCents)}`,
      action: "credits.auto_recharged",
      details: { amount_cents: payment.amountCents, amount: formatCents(payment.amountCents), payment_intent_id: payment.paymentIntentId },
    };
  },
};
