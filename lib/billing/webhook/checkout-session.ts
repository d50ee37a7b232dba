import type { PrismaClient } from "@/lib/db";
import type Stripe from "stripe";
import { formatCents } from "@/lib/money";
import { prepareCardSetup } from "./card-setup";
import { latestCharge, parseObject, type Prepared, type Tx } from "./event";
import { audit, creditOrHold, lockPayment, syncPayment } from "./payment";
import type { Payment } from "./payment-source";
import { checkoutSessions, sessionFacts, sessionSchema } from "./payment-sources/checkout-session";

/**
 * checkout.session.*: a top-up is paid (credited, or held), still processing
 * (a bank transfer), failed or expired. A session in setup mode saves a card
 * instead (card-setup.ts).
 */
export async function prepareSessionEvent(db: PrismaClient, stripe: Stripe, object: unknown, type: string): Promise<Prepared> {
  const session = parseObject(sessionSchema, object, type);
  if (session.mode === "setup") return prepareCardSetup(stripe, object, type);
  if (session.mode !== "payment") return { ignore: "not a payment session" };
  const facts = sessionFacts(session);
  const known = await db.stripeCheckoutSession.findUnique({ where: { id: session.id }, select: { chargeId: true } });
  if (!known && !facts.orgId) return { ignore: "not a session of this app" };

  const paid = session.payment_status === "paid";
  const crediting = paid && type !== "checkout.session.async_payment_failed" && type !== "checkout.session.expired";
  const charge = crediting && facts.paymentIntentId && !known?.chargeId ? await latestCharge(stripe, facts.paymentIntentId) : {};

  return {
    apply: async (tx, eventId) => {
      const locked = await lockPayment(tx, { source: checkoutSessions, id: session.id, facts }, eventId);
      if (!locked) return ["unmatched"];
      const payment = await syncPayment(tx, locked, { ...facts, ...charge });
      if (crediting) return creditOrHold(tx, payment, facts, eventId);
      switch (type) {
        case "checkout.session.completed":
          return setStatusIf(tx, payment, payment.status === "OPEN", "PROCESSING");
        case "checkout.session.async_payment_failed":
          return markFailed(tx, payment, eventId);
        case "checkout.session.expired":
          return setStatusIf(tx, payment, payment.status === "OPEN", "EXPIRED");
      }
      return [];
    },
  };
}

async function markFailed(tx: Tx, payment: Payment, eventId: string): Promise<string[]> {
  if (payment.credited || payment.status === "FAILED") return [];
  await tx.stripeCheckoutSession.update({ where: { id: payment.id }, data: { status: "FAILED" } });
  await audit(tx, payment, "credits.payment_failed", eventId, { amount_cents: payment.amountCents, amount: formatCents(payment.amountCents) });
  return ["failed"];
}

async function setStatusIf(tx: Tx, payment: Payment, condition: boolean, status: "PROCESSING" | "EXPIRED"): Promise<string[]> {
  if (!condition) return [];
  await tx.stripeCheckoutSession.update({ where: { id: payment.id }, data: { status } });
  return [status.toLowerCase()];
}
