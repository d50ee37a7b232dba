import type Stripe from "stripe";
import type { PrismaClient } from "@/lib/db";
import { autoRechargeAttemptOf, declineInTransaction, type Decline } from "../auto-recharge";
import { intentSchema, latestCharge, parseObject, type Prepared } from "./event";
import { creditOrHold, lockPayment, syncPayment } from "./payment";
import { autoRechargeAttempts } from "./payment-sources/auto-recharge-attempt";

/**
 * payment_intent.*: an auto-recharge's charge succeeded (credited, or held)
 * or failed (declined). A Checkout payment's PaymentIntent has no
 * auto-recharge metadata: it is settled through its session's events.
 */

export async function prepareIntentSucceeded(db: PrismaClient, stripe: Stripe, object: unknown, type: string): Promise<Prepared> {
  const intent = parseObject(intentSchema, object, type);
  const attemptId = autoRechargeAttemptOf(intent.metadata);
  if (!attemptId) return { ignore: "not an auto-recharge (a Checkout payment is credited through its session)" };
  const known = await db.autoRechargeAttempt.findUnique({ where: { id: attemptId }, select: { chargeId: true } });
  const charge = known?.chargeId ? {} : await latestCharge(stripe, intent.id);
  return {
    apply: async (tx, eventId) => {
      const locked = await lockPayment(tx, { source: autoRechargeAttempts, id: attemptId }, eventId, intent.amount);
      if (!locked) return ["unmatched"];
      const payment = await syncPayment(tx, locked, { paymentIntentId: intent.id, ...charge });
      return creditOrHold(tx, payment, { amountCents: intent.amount, currency: intent.currency }, eventId);
    },
  };
}

export async function prepareIntentFailed(_db: PrismaClient, _stripe: Stripe, object: unknown, type: string): Promise<Prepared> {
  const intent = parseObject(intentSchema, object, type);
  const attemptId = autoRechargeAttemptOf(intent.metadata);
  if (!attemptId) return { ignore: "not an auto-recharge (a Checkout payment fails through its session)" };
  const error = intent.last_payment_error;
  const decline: Decline = {
    code: error?.decline_code ?? error?.code ?? "payment_failed",
    message: error?.message ?? "The payment failed.",
    paymentIntentId: intent.id,
    cardError: (error?.type ?? "card_error") === "card_error",
  };
  return {
    apply: async (tx) => {
      // The owners' email is queued in this transaction (lib/notify), sent and retried by the delivery worker.
      const declined = await declineInTransaction(tx, attemptId, decline, new Date());
      return declined ? [declined.turnedOff ? "declined; auto-recharge turned off" : "declined"] : [];
    },
  };
}
