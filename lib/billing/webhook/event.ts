import type Stripe from "stripe";
import { z } from "zod";
import type { Prisma, PrismaClient } from "@/lib/db";
import { tryStripe } from "../stripe";

/** What every event handler shares: the transaction, what a handler returns, and reading Stripe's objects. */

export type Tx = Prisma.TransactionClient;

/** The audit actor of everything Stripe's events do. */
export const ACTOR = "stripe";

/** An event as the webhook verified it (a `Stripe.Event` fits too). */
export interface StripeEventInput {
  id: string;
  type: string;
  data: { object: unknown };
}

/** The part of an event's work done inside its transaction; returns what it changed. */
export type Apply = (tx: Tx, eventId: string) => Promise<string[]>;

/**
 * A handler's answer: the work to apply once, or why the event is not ours to
 * apply. Whatever the effects are to tell someone is queued in the same
 * transaction (lib/notify), never sent after it.
 */
export type Prepared = { apply: Apply } | { ignore: string };

/**
 * One kind of event. Anything that talks to Stripe happens here, before the
 * transaction; the returned `apply` runs inside it.
 */
export type EventHandler = (db: PrismaClient, stripe: Stripe, object: unknown, type: string) => Promise<Prepared>;

/** A verified event whose object is not what its type promises. */
export class UnexpectedObject extends Error {}

export function parseObject<T extends z.ZodType>(schema: T, object: unknown, type: string): z.infer<T> {
  const parsed = schema.safeParse(object);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UnexpectedObject(`Unexpected ${type} object: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return parsed.data;
}

export const idOf = z.union([z.string(), z.object({ id: z.string() })]).transform((v) => (typeof v === "string" ? v : v.id));
export const uuidOrNull = z.string().transform((v) => (z.uuid().safeParse(v).success ? v : null));

const latestChargeOf = z
  .union([z.string(), z.object({ id: z.string(), receipt_url: z.string().nullable().optional() })])
  .nullable()
  .optional();

export const intentSchema = z.object({
  id: z.string().startsWith("pi_"),
  object: z.literal("payment_intent"),
  amount: z.number().int().nonnegative(),
  currency: z.string(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
  latest_charge: latestChargeOf,
  last_payment_error: z
    .object({ type: z.string().nullish(), code: z.string().nullish(), decline_code: z.string().nullish(), message: z.string().nullish() })
    .nullish(),
});

const receiptSchema = z.object({ latest_charge: latestChargeOf });

/** The charge behind a payment intent, for its receipt. Best effort: a credit never waits for a receipt. */
export async function latestCharge(stripe: Stripe, paymentIntentId: string): Promise<{ chargeId?: string; receiptUrl?: string }> {
  const read = await tryStripe(`reading the receipt of ${paymentIntentId}`, () => stripe.paymentIntents.retrieve(paymentIntentId, { expand: ["latest_charge"] }));
  const intent = read.ok ? receiptSchema.safeParse(read.value) : null;
  const charge = intent?.success ? intent.data.latest_charge : null;
  if (!charge) return {};
  return typeof charge === "string" ? { chargeId: charge } : { chargeId: charge.id, receiptUrl: charge.receipt_url ?? undefined };
}
