import type Stripe from "stripe";
import type { AuditAction } from "@/lib/audit";
import type { DbClient, Prisma } from "@/lib/db";
import type { Tx } from "./event";

/**
 * Where a payment comes from: a Checkout Session (a top-up) or an
 * auto-recharge attempt's PaymentIntent. Each is one adapter over its own
 * table; the rules of money (payment.ts) are written once over `Payment`.
 * A new kind of payment is one more adapter in `PAYMENT_SOURCES`.
 */
export interface PaymentSource {
  /** The audit log's target type of its payments. */
  readonly kind: "stripe_checkout_session" | "auto_recharge_attempt";
  /** Ours already, by charge or PaymentIntent: the payment's id. */
  findOwn(db: DbClient, ids: { chargeId: string; paymentIntentId: string | null }): Promise<string | null>;
  /** Stripe's record of a payment of this kind behind a PaymentIntent whose completion has not been processed yet. */
  findAtStripe(stripe: Stripe, paymentIntentId: string): Promise<{ id: string; facts?: StripeFacts } | null>;
  /** Locks the payment's row for this transaction and reads it; null when it is not known (after adding it from `facts` where the source can). */
  lock(tx: Tx, id: string, facts?: StripeFacts): Promise<Payment | null>;
  read(tx: Tx, id: string): Promise<Payment>;
  update(tx: Tx, id: string, change: PaymentChange): Promise<void>;
  /** The ledger entry and audit entry of the payment's credit. Its idempotency key makes it once per payment. */
  credit(payment: Payment): Credit;
}

/** A payment as the one payment path sees it, whichever table holds it. */
export interface Payment {
  source: PaymentSource;
  id: string;
  orgId: string;
  /** Who paid, when a person did. */
  userId: string | null;
  amountCents: number;
  currency: string;
  /** The row's own status, for what only its source does with it. */
  status: string;
  credited: boolean;
  held: boolean;
  refunded: boolean;
  paymentIntentId: string | null;
  chargeId: string | null;
  receiptUrl: string | null;
  refundedCents: number;
  /** What refunds and disputes have debited, net of disputes won; never more than was credited. */
  takenBackCents: number;
}

/** What Stripe says about a payment: checked against the row before it is credited. */
export interface StripeFacts {
  orgId?: string | null;
  userId?: string | null;
  amountCents?: number | null;
  currency?: string | null;
  paymentIntentId?: string | null;
}

export interface PaymentChange {
  paymentIntentId?: string;
  chargeId?: string;
  receiptUrl?: string;
  creditedAt?: Date;
  status?: "credited" | "held" | "refunded";
  heldReason?: string;
  refundedCents?: number;
  takenBackCents?: { increment: number };
}

export interface Credit {
  reference: string;
  idempotencyKey: string;
  description: string;
  actorUserId?: string | null;
  action: AuditAction;
  details: Prisma.InputJsonObject;
}

/** The rows a charge names: by its own id, or by its PaymentIntent's. */
export function chargeOrIntent({ chargeId, paymentIntentId }: { chargeId: string; paymentIntentId: string | null }) {
  return { OR: [{ chargeId }, ...(paymentIntentId ? [{ paymentIntentId }] : [])] };
}

/** The columns both tables share, as a `Payment`. */
export function paymentOf(
  source: PaymentSource,
  row: Pick<Payment, "id" | "orgId" | "amountCents" | "currency" | "status" | "paymentIntentId" | "chargeId" | "receiptUrl" | "refundedCents" | "takenBackCents"> & {
    creditedAt: Date | null;
    userId?: string | null;
  },
): Payment {
  const { creditedAt, userId, ...rest } = row;
  return { ...rest, source, userId: userId ?? null, credited: creditedAt !== null, held: row.status === "HELD", refunded: row.status === "REFUNDED" };
}
