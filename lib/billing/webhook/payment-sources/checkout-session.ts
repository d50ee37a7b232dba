import type Stripe from "stripe";
import { z } from "zod";
import type { Prisma } from "@/lib/db";
import { formatCents } from "@/lib/money";
import { idOf, parseObject, uuidOrNull, type Tx } from "../event";
import { chargeOrIntent, paymentOf, type PaymentSource, type StripeFacts } from "../payment-source";

/** A top-up bought through Stripe Checkout (lib/billing/checkout.ts): a row of `stripe_checkout_sessions`, credited with the key `checkout:<session id>`. */

export const sessionSchema = z.object({
  id: z.string().startsWith("cs_"),
  object: z.literal("checkout.session"),
  mode: z.string(),
  amount_total: z.number().int().nonnegative().nullable(),
  currency: z.string().nullable(),
  payment_status: z.string(),
  payment_intent: idOf.nullable(),
  metadata: z.object({ org_id: uuidOrNull.optional(), user_id: uuidOrNull.optional() }).nullable(),
});

/** What a Checkout Session says about its payment. */
export function sessionFacts(session: z.infer<typeof sessionSchema>): StripeFacts {
  return {
    orgId: session.metadata?.org_id ?? null,
    userId: session.metadata?.user_id ?? null,
    amountCents: session.amount_total,
    currency: session.currency,
    paymentIntentId: session.payment_intent,
  };
}

const STATUS = { credited: "PAID", held: "HELD", refunded: "REFUNDED" } as const;

export const checkoutSessions: PaymentSource = {
  kind: "stripe_checkout_session",

  async findOwn(db, ids) {
    return (await db.stripeCheckoutSession.findFirst({ where: chargeOrIntent(ids), select: { id: true } }))?.id ?? null;
  },

  async findAtStripe(stripe: Stripe, paymentIntentId) {
    const list = await stripe.checkout.sessions.list({ payment_intent: paymentIntentId, limit: 1 });
    if (!list.data[0]) return null;
    const session = parseObject(sessionSchema, list.data[0], "checkout.session");
    return session.mode === "payment" ? { id: session.id, facts: sessionFacts(session) } : null;
  },

  /** A session we never recorded (its checkout was created but our insert was lost) is added from its metadata when that names an existing organization. */
  async lock(tx, id, facts) {
    if (facts) await insertMissing(tx, id, facts);
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM stripe_checkout_sessions WHERE id = ${id} FOR UPDATE`;
    return locked.length > 0 ? this.read(tx, id) : null;
  },

  async read(tx, id) {
    return paymentOf(this, await tx.stripeCheckoutSession.findUniqueOrThrow({ where: { id } }));
  },

  async update(tx, id, { status, heldReason, ...change }) {
    const data: Prisma.StripeCheckoutSessionUpdateInput = { ...change, ...(status ? { status: STATUS[status] } : {}), ...(heldReason ? { heldReason } : {}) };
    await tx.stripeCheckoutSession.update({ where: { id }, data });
  },

  credit(payment) {
    return {
      reference: payment.id,
      idempotencyKey: `checkout:${payment.id}`,
      description: `Stripe payment ${formatCents(payment.amountCents)}`,
      actorUserId: payment.userId,
      action: "credits.purchased",
      details: { amount_cents: payment.amountCents, amount: formatCents(payment.amountCents), user_id: payment.userId },
    };
  },
};

async function insertMissing(tx: Tx, id: string, facts: StripeFacts): Promise<void> {
  if (!facts.orgId || facts.amountCents == null || facts.currency !== "usd") return;
  if (await tx.stripeCheckoutSession.findUnique({ where: { id }, select: { id: true } })) return;
  if (!(await tx.organization.findUnique({ where: { id: facts.orgId }, select: { id: true } }))) return;
  await tx.stripeCheckoutSession.createMany({
    data: [{ id, orgId: facts.orgId, userId: facts.userId ?? null, amountCents: facts.amountCents, currency: "usd" }],
    skipDuplicates: true,
  });
}
