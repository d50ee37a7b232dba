import type Stripe from "stripe";
import { z } from "zod";
import { CARD_SETUP_PURPOSE, saveCardInTransaction } from "../auto-recharge";
import { idOf, parseObject, uuidOrNull, type Prepared } from "./event";

/** checkout.session.completed in setup mode: a card saved for auto-recharge. */

const setupSessionSchema = z.object({
  id: z.string().startsWith("cs_"),
  object: z.literal("checkout.session"),
  mode: z.literal("setup"),
  customer: idOf.nullable(),
  setup_intent: idOf.nullable(),
  metadata: z.object({ purpose: z.string().optional(), org_id: uuidOrNull.optional(), user_id: uuidOrNull.optional() }).nullable(),
});

const setupIntentSchema = z.object({
  id: z.string(),
  status: z.string(),
  created: z.number().int(),
  customer: idOf.nullable(),
  payment_method: z
    .object({
      id: z.string(),
      card: z.object({ brand: z.string(), last4: z.string(), exp_month: z.number().int(), exp_year: z.number().int() }).nullish(),
    })
    .nullable(),
});

export async function prepareCardSetup(stripe: Stripe, object: unknown, type: string): Promise<Prepared> {
  const session = parseObject(setupSessionSchema, object, type);
  const orgId = session.metadata?.org_id;
  if (session.metadata?.purpose !== CARD_SETUP_PURPOSE || !orgId) return { ignore: "not a card setup of this app" };
  if (type !== "checkout.session.completed") return { ignore: "the card setup did not complete" };
  if (!session.setup_intent || !session.customer) return { ignore: "the card setup saved no card" };
  const intent = parseObject(setupIntentSchema, await stripe.setupIntents.retrieve(session.setup_intent, { expand: ["payment_method"] }), "setup_intent");
  const method = intent.payment_method;
  if (intent.status !== "succeeded" || !method?.card) return { ignore: "no card was saved" };
  const card = {
    orgId,
    customerId: intent.customer ?? session.customer,
    paymentMethodId: method.id,
    brand: method.card.brand,
    last4: method.card.last4,
    expMonth: method.card.exp_month,
    expYear: method.card.exp_year,
    savedAt: new Date(intent.created * 1000),
    actorUserId: session.metadata.user_id ?? null,
  };
  return { apply: (tx, eventId) => saveCardInTransaction(tx, card, eventId) };
}
