import Stripe from "stripe";
import { z } from "zod";
import type { PrismaClient } from "@/lib/db";
import { isUniqueViolation } from "@/lib/errors";
import { billingConfig, getStripe, type BillingConfig } from "../stripe";
import { prepareRefund } from "./charge-refunded";
import { prepareSessionEvent } from "./checkout-session";
import { prepareDispute } from "./dispute";
import { UnexpectedObject, type Apply, type EventHandler, type StripeEventInput } from "./event";
import { prepareIntentFailed, prepareIntentSucceeded } from "./payment-intent";

export type { StripeEventInput } from "./event";

/**
 * Stripe's webhook: the only place credits are bought, refunded or disputed.
 * This file is the HTTP side (size limit, signature, failures recorded for
 * the console) and the once-only processing; each kind of event has its
 * handler beside it, and every payment, whatever its source (a Checkout
 * Session, an auto-recharge's PaymentIntent: payment-sources/), follows the
 * one payment path in payment.ts. A card saved in a setup session is stored
 * here too (card-setup.ts).
 *
 * Exactly once, whatever Stripe delivers and in whatever order:
 * - each event: its `stripe_events` row is inserted first in the same
 *   transaction as its effects; a concurrent duplicate waits on that row and
 *   then does nothing, and a failure rolls both back so Stripe's retry works;
 * - each payment: every event about it locks its row (`stripe_checkout_sessions`
 *   or `auto_recharge_attempts`), so they apply one after the other; the
 *   credit has the ledger key `checkout:<session id>` or
 *   `payment_intent:<id>`. A PaymentIntent of a Checkout Session (no
 *   auto-recharge metadata) is credited through its session only;
 * - refunds: `amount_refunded` is cumulative, so only the increase over the
 *   recorded `refunded_cents` is debited (ledger key with the cumulative
 *   amount), and an older refund event arriving late changes nothing;
 * - a refund or dispute that arrives before the payment was credited credits
 *   it first, so the order of deliveries never changes the result.
 */

const MAX_BODY_BYTES = 1_000_000;

export interface WebhookDeps {
  db?: PrismaClient;
  /** Opens the database when `db` is not given (the app's: lib/platform/routes.ts). */
  database?: () => Promise<{ prisma: PrismaClient }>;
  stripe?: Stripe;
  webhookSecret?: string;
  /** Defaults to billingConfig() (the environment). */
  config?: BillingConfig;
}

export async function handleStripeWebhook(request: Request, deps: WebhookDeps = {}): Promise<Response> {
  const setup = await resolveDeps(deps);
  if ("response" in setup) return setup.response;
  const signature = request.headers.get("stripe-signature");
  if (!signature) return reply(400, "Missing Stripe-Signature header.");
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) return reply(413, "Payload too large.");
  const body = await readBodyUpTo(request, MAX_BODY_BYTES);
  if (body === null) return reply(413, "Payload too large.");

  let verified: unknown;
  try {
    verified = Stripe.webhooks.constructEvent(body, signature, setup.webhookSecret);
  } catch {
    return reply(400, "Invalid signature.");
  }
  const event = eventSchema.safeParse(verified);
  if (!event.success) return reply(400, "Not a Stripe event.");

  try {
    const result = await processStripeEvent(setup.db, setup.stripe, event.data);
    await resolveFailure(setup.db, event.data.id);
    return Response.json({ received: true, ...result });
  } catch (error) {
    await recordFailure(setup.db, event.data, error);
    if (error instanceof UnexpectedObject) return reply(400, error.message);
    console.error(`[billing] webhook ${event.data.id} (${event.data.type}) failed: ${(error as Error).message}`);
    return reply(500, "Processing failed; it will be retried.");
  }
}

/**
 * A delivery that failed, for the platform console's "Needs attention":
 * one row per event, its attempts counted and its last error kept (the
 * message, never a stack). Best effort: when the database is what failed,
 * this cannot be written either, and Stripe's retries still come.
 */
async function recordFailure(db: PrismaClient, event: { id: string; type: string }, error: unknown): Promise<void> {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim().slice(0, 500) || "unknown error";
  try {
    await db.$executeRaw`
      INSERT INTO stripe_event_failures (event_id, type, error, attempts, first_failed_at, last_failed_at)
      VALUES (${event.id}, ${event.type}, ${message}, 1, now(), now())
      ON CONFLICT (event_id) DO UPDATE
        SET attempts = stripe_event_failures.attempts + 1, type = EXCLUDED.type, error = EXCLUDED.error,
            last_failed_at = now(), resolved_at = NULL`;
  } catch (recording) {
    console.error(`[billing] could not record the failure of ${event.id}: ${(recording as Error).message}`);
  }
}

/** A later delivery of a failed event went through (or found it done already): the failure is resolved. */
async function resolveFailure(db: PrismaClient, eventId: string): Promise<void> {
  try {
    await db.stripeEventFailure.updateMany({ where: { eventId, resolvedAt: null }, data: { resolvedAt: new Date() } });
  } catch (recording) {
    console.error(`[billing] could not mark the failure of ${eventId} resolved: ${(recording as Error).message}`);
  }
}

/** The body as text, or null once it passes `limit` bytes: a chunked upload with no length is cut off, not buffered whole. */
async function readBodyUpTo(request: Request, limit: number): Promise<string | null> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

type Setup = { db: PrismaClient; stripe: Stripe; webhookSecret: string } | { response: Response };

async function resolveDeps(deps: WebhookDeps): Promise<Setup> {
  if (deps.db && deps.stripe && deps.webhookSecret) return { db: deps.db, stripe: deps.stripe, webhookSecret: deps.webhookSecret };
  const config = deps.config ?? billingConfig();
  if (!config.configured) return { response: reply(503, "Payments are not configured on this server.") };
  try {
    return {
      webhookSecret: deps.webhookSecret ?? config.webhookSecret,
      stripe: deps.stripe ?? getStripe(config),
      db: deps.db ?? (await openDatabase(deps)),
    };
  } catch (error) {
    console.error(`[billing] webhook unavailable: ${(error as Error).message}`);
    return { response: reply(503, "Temporarily unavailable; it will be retried.") };
  }
}

async function openDatabase(deps: WebhookDeps): Promise<PrismaClient> {
  if (!deps.database) throw new Error("no database was given to the webhook");
  return (await deps.database()).prisma;
}

function reply(status: number, message: string): Response {
  return Response.json({ error: { message } }, { status });
}

const eventSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

// ───────────────────────────── processing ─────────────────────────────

export type ProcessResult =
  | { outcome: "processed"; effects: string[] }
  | { outcome: "duplicate" }
  | { outcome: "ignored"; reason: string };

/** Each event type the app uses, and its handler (one file per kind of event). */
const HANDLERS = new Map<string, EventHandler>([
  ["checkout.session.completed", prepareSessionEvent],
  ["checkout.session.async_payment_succeeded", prepareSessionEvent],
  ["checkout.session.async_payment_failed", prepareSessionEvent],
  ["checkout.session.expired", prepareSessionEvent],
  ["charge.refunded", prepareRefund],
  ["charge.dispute.created", prepareDispute],
  ["charge.dispute.funds_withdrawn", prepareDispute],
  ["charge.dispute.closed", prepareDispute],
  ["payment_intent.succeeded", prepareIntentSucceeded],
  ["payment_intent.payment_failed", prepareIntentFailed],
]);

export async function processStripeEvent(db: PrismaClient, stripe: Stripe, event: StripeEventInput): Promise<ProcessResult> {
  const prepare = HANDLERS.get(event.type);
  if (!prepare) return { outcome: "ignored", reason: `${event.type} is not used` };
  if (await db.stripeEvent.findUnique({ where: { id: event.id }, select: { id: true } })) return { outcome: "duplicate" };
  // Anything that talks to Stripe happens here, before the transaction.
  const prepared = await prepare(db, stripe, event.data.object, event.type);
  if ("ignore" in prepared) return { outcome: "ignored", reason: prepared.ignore };
  return applyOnce(db, event, prepared.apply);
}

async function applyOnce(db: PrismaClient, event: StripeEventInput, apply: Apply): Promise<ProcessResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction(
        async (tx): Promise<ProcessResult> => {
          const inserted = await tx.$queryRaw<{ id: string }[]>`
            INSERT INTO stripe_events (id, type) VALUES (${event.id}, ${event.type})
            ON CONFLICT (id) DO NOTHING RETURNING id`;
          if (inserted.length === 0) return { outcome: "duplicate" };
          return { outcome: "processed", effects: await apply(tx, event.id) };
        },
        // Deliveries about one session queue on its row; give them room.
        { maxWait: 30_000, timeout: 60_000 },
      );
    } catch (error) {
      if (attempt < 3 && isTransientConflict(error)) continue;
      throw error;
    }
  }
}

function isTransientConflict(error: unknown): boolean {
  const message = (error as Error | null)?.message ?? "";
  return isUniqueViolation(error) || /deadlock detected|could not serialize/i.test(message);
}
