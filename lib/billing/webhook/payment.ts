import type Stripe from "stripe";
import { recordAudit, type AuditAction } from "@/lib/audit";
import type { Prisma, PrismaClient } from "@/lib/db";
import { centsToNanos, formatCents } from "@/lib/money";
import { changeBalanceInTransaction, type BalanceChange } from "../ledger";
import { ACTOR, type Tx } from "./event";
import { autoRechargeAttempts } from "./payment-sources/auto-recharge-attempt";
import { checkoutSessions } from "./payment-sources/checkout-session";
import type { Payment, PaymentSource, StripeFacts } from "./payment-source";

/**
 * The one payment path, whatever the payment's source: hold it when Stripe's
 * amount or currency is not what we asked for, or when the organization has
 * closed; otherwise credit it once; and never let refunds and disputes take
 * back more than it credited. Every function here runs in the event's
 * transaction with the payment's row locked.
 */

/** Where a charge's payment may be, in the order they are asked. */
export const PAYMENT_SOURCES: readonly PaymentSource[] = [checkoutSessions, autoRechargeAttempts];

/** A payment found for an event, not locked yet; `facts` when Stripe had to be asked. */
export interface Located {
  source: PaymentSource;
  id: string;
  facts?: StripeFacts;
}

/**
 * The payment a charge belongs to: ours by charge or payment intent; or (when
 * its completion has not been processed yet) the one Stripe's records name.
 */
export async function locatePayment(db: PrismaClient, stripe: Stripe, chargeId: string, paymentIntentId: string | null): Promise<Located | null> {
  for (const source of PAYMENT_SOURCES) {
    const id = await source.findOwn(db, { chargeId, paymentIntentId });
    if (id) return { source, id };
  }
  if (!paymentIntentId) return null;
  for (const source of PAYMENT_SOURCES) {
    const found = await source.findAtStripe(stripe, paymentIntentId);
    if (found) return { source, ...found };
  }
  return null;
}

/** Locks the payment for this transaction; one that matches nothing of ours is audited and null. */
export async function lockPayment(tx: Tx, located: Located, eventId: string, amountCents: number | null = null): Promise<Payment | null> {
  const payment = await located.source.lock(tx, located.id, located.facts);
  if (payment) return payment;
  console.warn(`[billing] event ${eventId}: ${located.source.kind} ${located.id} matches no payment of an organization`);
  await recordAudit(tx, {
    action: "credits.payment_unmatched",
    actorLabel: ACTOR,
    targetType: located.source.kind,
    targetId: located.id,
    details: { event_id: eventId, org_id: located.facts?.orgId ?? null, amount_cents: located.facts?.amountCents ?? amountCents },
  });
  return null;
}

/** Fills in the ids and receipt Stripe knows and we do not yet. */
export async function syncPayment(tx: Tx, payment: Payment, facts: { paymentIntentId?: string | null; chargeId?: string; receiptUrl?: string }): Promise<Payment> {
  const change = {
    ...(facts.paymentIntentId && !payment.paymentIntentId ? { paymentIntentId: facts.paymentIntentId } : {}),
    ...(facts.chargeId && !payment.chargeId ? { chargeId: facts.chargeId } : {}),
    ...(facts.receiptUrl && !payment.receiptUrl ? { receiptUrl: facts.receiptUrl } : {}),
  };
  if (Object.keys(change).length === 0) return payment;
  await payment.source.update(tx, payment.id, change);
  return { ...payment, ...change };
}

/**
 * The payment's credit, once; or held back instead, never credited: Stripe's
 * amount or currency differs from what we asked for, or the organization has
 * closed. A held payment is for a platform administrator.
 */
export async function creditOrHold(tx: Tx, payment: Payment, facts: StripeFacts | undefined, eventId: string): Promise<string[]> {
  const mismatch = facts ? mismatchOf(payment, facts) : null;
  if (mismatch) return hold(tx, payment, mismatch, eventId);
  if (payment.credited || payment.held) return [];
  if (await organizationClosed(tx, payment.orgId)) return hold(tx, payment, "the organization is closed", eventId);
  const credit = payment.source.credit(payment);
  const result = await changeOrFail(tx, {
    orgId: payment.orgId,
    kind: "TOPUP",
    amountNanos: centsToNanos(payment.amountCents),
    reference: credit.reference,
    idempotencyKey: credit.idempotencyKey,
    description: credit.description,
    actorUserId: credit.actorUserId ?? null,
  });
  await payment.source.update(tx, payment.id, { creditedAt: new Date(), status: payment.refunded ? "refunded" : "credited" });
  if (result !== "applied") return [];
  await audit(tx, payment, credit.action, eventId, credit.details);
  return [`credited ${payment.amountCents}`];
}

/**
 * Locks the payment a charge event is about, fills in what the charge says,
 * and credits the payment if that has not happened yet: a refund or dispute
 * that arrives first never changes the result.
 */
export async function settlePayment(
  tx: Tx,
  located: Located,
  charge: { paymentIntentId: string | null; chargeId: string; receiptUrl?: string; amountCents?: number },
  eventId: string,
): Promise<{ payment: Payment; effects: string[] } | null> {
  const locked = await lockPayment(tx, located, eventId, charge.amountCents ?? null);
  if (!locked) return null;
  const synced = await syncPayment(tx, locked, charge);
  const effects = await creditOrHold(tx, synced, located.facts ?? { amountCents: charge.amountCents }, eventId);
  return { payment: await located.source.read(tx, located.id), effects };
}

/** Another amount or currency than the payment we created. */
function mismatchOf(payment: Payment, facts: StripeFacts): string | null {
  if (facts.amountCents != null && facts.amountCents !== payment.amountCents) return `amount ${facts.amountCents} cents, expected ${payment.amountCents}`;
  if (facts.currency && facts.currency.toLowerCase() !== payment.currency.toLowerCase()) return `currency ${facts.currency}, expected ${payment.currency}`;
  return null;
}

async function hold(tx: Tx, payment: Payment, reason: string, eventId: string): Promise<string[]> {
  if (payment.credited || payment.held) return [];
  await payment.source.update(tx, payment.id, { status: "held", heldReason: reason });
  await audit(tx, payment, "credits.payment_held", eventId, { amount_cents: payment.amountCents, amount: formatCents(payment.amountCents), reason });
  return ["held"];
}

/**
 * Money for an organization that has closed is not credited to it; an
 * operator refunds or settles it. The row lock orders this against a close
 * that is committing at the same time.
 */
async function organizationClosed(tx: Tx, orgId: string): Promise<boolean> {
  const [org] = await tx.$queryRaw<{ closed_at: Date | null }[]>`SELECT closed_at FROM organizations WHERE id = ${orgId}::uuid FOR UPDATE`;
  return Boolean(org?.closed_at);
}

/**
 * Refunds and disputes together never take back more than the payment
 * credited: what is left of it once earlier refunds and disputes (net of
 * disputes won) are counted. A payment held back was never credited, so
 * nothing of it can be taken back.
 */
export async function takeBack(
  tx: Tx,
  payment: Payment,
  wantedCents: number,
  entry: { kind: "REFUND" | "DISPUTE"; reference: string; idempotencyKey: string; label: string },
): Promise<number> {
  const credited = payment.credited ? payment.amountCents : 0;
  const take = Math.max(0, Math.min(wantedCents, credited - payment.takenBackCents));
  if (take === 0) return 0;
  await changeOrFail(tx, {
    orgId: payment.orgId,
    kind: entry.kind,
    amountNanos: -centsToNanos(take),
    reference: entry.reference,
    idempotencyKey: entry.idempotencyKey,
    description: `${entry.label} ${formatCents(take)}`,
    allowNegative: true, // the money has left already
  });
  await payment.source.update(tx, payment.id, { takenBackCents: { increment: take } });
  return take;
}

export async function changeOrFail(tx: Tx, change: BalanceChange): Promise<"applied" | "duplicate"> {
  const result = await changeBalanceInTransaction(tx, change);
  if (result.status === "applied" || result.status === "duplicate") return result.status;
  // Credits and allowNegative debits cannot be refused; the row lock keeps the organization.
  throw new Error(`ledger refused ${change.idempotencyKey}: ${result.status}`);
}

export async function audit(tx: Tx, payment: Payment, action: AuditAction, eventId: string, details: Prisma.InputJsonObject): Promise<void> {
  await recordAudit(tx, {
    action,
    orgId: payment.orgId,
    actorLabel: ACTOR,
    targetType: payment.source.kind,
    targetId: payment.id,
    details: { ...details, event_id: eventId },
  });
}
