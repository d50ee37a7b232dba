import Stripe from "stripe";
import { z } from "zod";
import { recordAudit, type AuditAction } from "@/lib/audit";
import type { Prisma, PrismaClient } from "@/lib/db";
import type { AutoRechargeAttempt, StripeCheckoutSession } from "@/lib/generated/prisma/client";
import {
  autoRechargeAttemptOf,
  CARD_SETUP_PURPOSE,
  declineInTransaction,
  notifyDecline,
  saveCardInTransaction,
  type Decline,
  type DeclineOutcome,
} from "./auto-recharge";
import { formatCents } from "./checkout";
import { isUniqueViolation } from "@/lib/errors";
import { changeBalanceInTransaction, type BalanceChange } from "./ledger";
import { centsToNanos, formatDollars, NANOS_PER_CENT } from "@/lib/money";
import { billingConfig, getStripe, type BillingConfig } from "./stripe";

/**
 * Stripe's webhook: the only place credits are bought, refunded or disputed.
 * A payment is a Checkout Session (a top-up) or an auto-recharge's
 * PaymentIntent (lib/billing/auto-recharge.ts); a card saved in a setup
 * session is stored here too.
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

type Tx = Prisma.TransactionClient;
type Row = StripeCheckoutSession;
type Attempt = AutoRechargeAttempt;

const ACTOR = "stripe";
const MAX_BODY_BYTES = 1_000_000;

// ───────────────────────────── HTTP ─────────────────────────────

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

// ───────────────────────────── shapes ─────────────────────────────

const eventSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

/** An event as the webhook verified it (a `Stripe.Event` fits too). */
export interface StripeEventInput {
  id: string;
  type: string;
  data: { object: unknown };
}

const idOf = z.union([z.string(), z.object({ id: z.string() })]).transform((v) => (typeof v === "string" ? v : v.id));
const uuidOrNull = z.string().transform((v) => (z.uuid().safeParse(v).success ? v : null));

const sessionSchema = z.object({
  id: z.string().startsWith("cs_"),
  object: z.literal("checkout.session"),
  mode: z.string(),
  amount_total: z.number().int().nonnegative().nullable(),
  currency: z.string().nullable(),
  payment_status: z.string(),
  payment_intent: idOf.nullable(),
  metadata: z.object({ org_id: uuidOrNull.optional(), user_id: uuidOrNull.optional() }).nullable(),
});

const chargeSchema = z.object({
  id: z.string().min(1),
  object: z.literal("charge"),
  amount: z.number().int().nonnegative(),
  amount_refunded: z.number().int().nonnegative(),
  payment_intent: idOf.nullable(),
  receipt_url: z.string().nullable().optional(),
});

const disputeSchema = z.object({
  id: z.string().min(1),
  object: z.literal("dispute"),
  amount: z.number().int().nonnegative(),
  charge: idOf,
  payment_intent: idOf.nullable().optional(),
  status: z.string(),
});

const latestChargeOf = z
  .union([z.string(), z.object({ id: z.string(), receipt_url: z.string().nullable().optional() })])
  .nullable()
  .optional();

const paymentIntentSchema = z.object({ latest_charge: latestChargeOf });

const intentSchema = z.object({
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

/** A verified event whose object is not what its type promises. */
class UnexpectedObject extends Error {}

function parseObject<T extends z.ZodType>(schema: T, object: unknown, type: string): z.infer<T> {
  const parsed = schema.safeParse(object);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UnexpectedObject(`Unexpected ${type} object: ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return parsed.data;
}

/** What a Checkout Session says about a payment. */
interface SessionFacts {
  id: string;
  orgId: string | null;
  userId: string | null;
  amountCents: number | null;
  currency: string | null;
  paymentIntentId: string | null;
  paid: boolean;
}

function sessionFacts(session: z.infer<typeof sessionSchema>): SessionFacts {
  return {
    id: session.id,
    orgId: session.metadata?.org_id ?? null,
    userId: session.metadata?.user_id ?? null,
    amountCents: session.amount_total,
    currency: session.currency,
    paymentIntentId: session.payment_intent,
    paid: session.payment_status === "paid",
  };
}

// ───────────────────────────── processing ─────────────────────────────

export type ProcessResult =
  | { outcome: "processed"; effects: string[] }
  | { outcome: "duplicate" }
  | { outcome: "ignored"; reason: string };

/** The part of an event's work done inside its transaction; returns what it changed. */
type Apply = (tx: Tx, eventId: string) => Promise<string[]>;
/** `afterCommit` runs once the effects are committed (an email about them); it never throws. */
type Prepared = { apply: Apply; afterCommit?: () => Promise<void> } | { ignore: string };

type Preparer = (db: PrismaClient, stripe: Stripe, object: unknown, type: string) => Promise<Prepared>;

const PREPARERS = new Map<string, Preparer>([
  ["checkout.session.completed", prepareSessionEvent],
  ["checkout.session.async_payment_succeeded", prepareSessionEvent],
  ["checkout.session.async_payment_failed", prepareSessionEvent],
  ["checkout.session.expired", prepareSessionEvent],
  ["charge.refunded", prepareRefund],
  ["charge.dispute.created", prepareDispute],
  ["charge.dispute.funds_withdrawn", prepareDispute],
  ["charge.dispute.closed", prepareDispute],
  ["payment_intent.succeeded", prepareRechargeSucceeded],
  ["payment_intent.payment_failed", prepareRechargeFailed],
]);

export async function processStripeEvent(db: PrismaClient, stripe: Stripe, event: StripeEventInput): Promise<ProcessResult> {
  const prepare = PREPARERS.get(event.type);
  if (!prepare) return { outcome: "ignored", reason: `${event.type} is not used` };
  if (await db.stripeEvent.findUnique({ where: { id: event.id }, select: { id: true } })) return { outcome: "duplicate" };
  // Anything that talks to Stripe happens here, before the transaction.
  const prepared = await prepare(db, stripe, event.data.object, event.type);
  if ("ignore" in prepared) return { outcome: "ignored", reason: prepared.ignore };
  const result = await applyOnce(db, event, prepared.apply);
  if (result.outcome === "processed") await prepared.afterCommit?.();
  return result;
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

// ── checkout.session.* ──

async function prepareSessionEvent(db: PrismaClient, stripe: Stripe, object: unknown, type: string): Promise<Prepared> {
  const session = parseObject(sessionSchema, object, type);
  if (session.mode === "setup") return prepareCardSetup(stripe, object, type);
  if (session.mode !== "payment") return { ignore: "not a payment session" };
  const facts = sessionFacts(session);
  const known = await db.stripeCheckoutSession.findUnique({ where: { id: facts.id }, select: { chargeId: true } });
  if (!known && !facts.orgId) return { ignore: "not a session of this app" };

  const crediting = facts.paid && type !== "checkout.session.async_payment_failed" && type !== "checkout.session.expired";
  const charge = crediting && facts.paymentIntentId && !known?.chargeId ? await latestCharge(stripe, facts.paymentIntentId) : {};

  return {
    apply: async (tx, eventId) => {
      const row = await lockSession(tx, facts.id, facts, eventId);
      if (!row) return ["unmatched"];
      const synced = await syncSession(tx, row, { ...facts, ...charge });
      if (crediting) return creditOrHold(tx, synced, facts, eventId);
      switch (type) {
        case "checkout.session.completed":
          return setStatusIf(tx, synced, synced.status === "OPEN", "PROCESSING");
        case "checkout.session.async_payment_failed":
          return markFailed(tx, synced, eventId);
        case "checkout.session.expired":
          return setStatusIf(tx, synced, synced.status === "OPEN", "EXPIRED");
      }
      return [];
    },
  };
}

/** The charge behind a payment intent, for its receipt. Best effort: a credit never waits for a receipt. */
async function latestCharge(stripe: Stripe, paymentIntentId: string): Promise<{ chargeId?: string; receiptUrl?: string }> {
  try {
    const intent = paymentIntentSchema.parse(await stripe.paymentIntents.retrieve(paymentIntentId, { expand: ["latest_charge"] }));
    const charge = intent.latest_charge;
    if (!charge) return {};
    return typeof charge === "string" ? { chargeId: charge } : { chargeId: charge.id, receiptUrl: charge.receipt_url ?? undefined };
  } catch (error) {
    console.warn(`[billing] no receipt for ${paymentIntentId}: ${(error as Error).message}`);
    return {};
  }
}

// ── checkout.session.completed in setup mode: a card saved for auto-recharge ──

async function prepareCardSetup(stripe: Stripe, object: unknown, type: string): Promise<Prepared> {
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

// ── payment_intent.*: auto-recharge charges ──

async function prepareRechargeSucceeded(db: PrismaClient, stripe: Stripe, object: unknown, type: string): Promise<Prepared> {
  const intent = parseObject(intentSchema, object, type);
  const attemptId = autoRechargeAttemptOf(intent.metadata);
  if (!attemptId) return { ignore: "not an auto-recharge (a Checkout payment is credited through its session)" };
  const known = await db.autoRechargeAttempt.findUnique({ where: { id: attemptId }, select: { chargeId: true } });
  const charge = known?.chargeId ? {} : await latestCharge(stripe, intent.id);
  return {
    apply: async (tx, eventId) => {
      const attempt = await lockAttempt(tx, attemptId, eventId, intent.amount);
      if (!attempt) return ["unmatched"];
      const synced = await syncAttempt(tx, attempt, { paymentIntentId: intent.id, ...charge });
      return creditAttemptOrHold(tx, synced, { amountCents: intent.amount, currency: intent.currency }, eventId);
    },
  };
}

async function prepareRechargeFailed(db: PrismaClient, _stripe: Stripe, object: unknown, type: string): Promise<Prepared> {
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
  let declined: DeclineOutcome | null = null;
  return {
    apply: async (tx) => {
      declined = await declineInTransaction(tx, attemptId, decline, new Date());
      return declined ? [declined.turnedOff ? "declined; auto-recharge turned off" : "declined"] : [];
    },
    afterCommit: async () => {
      if (declined) await notifyDecline(db, declined);
    },
  };
}

// ── charge.refunded ──

async function prepareRefund(db: PrismaClient, stripe: Stripe, object: unknown, type: string): Promise<Prepared> {
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

async function debitRefund(tx: Tx, payment: Payment, charge: z.infer<typeof chargeSchema>, eventId: string): Promise<string[]> {
  const total = charge.amount_refunded;
  const increase = total - payment.refundedCents;
  if (increase <= 0) return [];
  const take = await takeBack(tx, payment, increase, { kind: "REFUND", reference: charge.id, idempotencyKey: `refund:${charge.id}:${total}`, label: "Stripe refund" });
  await recordRefundedTotal(tx, payment, total);
  await audit(tx, payment, "credits.refunded", eventId, {
    refunded_cents: take,
    refunded: formatCents(take),
    total_refunded_cents: total,
    ...(take < increase ? { not_debited_cents: increase - take } : {}),
    charge_id: charge.id,
  });
  return [`refunded ${take}`];
}

/**
 * Refunds and disputes together never take back more than the payment
 * credited: what is left of it once earlier refunds and disputes (net of
 * disputes won) are counted. A payment held back was never credited, so
 * nothing of it can be taken back. The payment's row is locked by the caller.
 */
async function takeBack(
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
  await addTakenBack(tx, payment, take);
  return take;
}

// ── charge.dispute.* ──

async function prepareDispute(db: PrismaClient, stripe: Stripe, object: unknown, type: string): Promise<Prepared> {
  const dispute = parseObject(disputeSchema, object, type);
  const located = await locatePayment(db, stripe, dispute.charge, dispute.payment_intent ?? null);
  if (!located) return { ignore: "not a payment of this app" };
  // Inquiries ("warning_…") take no money; a real dispute takes the amount until it is won.
  const inquiry = dispute.status.startsWith("warning_");
  return {
    apply: async (tx, eventId) => {
      const settled = await settlePayment(tx, located, { paymentIntentId: dispute.payment_intent ?? null, chargeId: dispute.charge }, eventId);
      if (!settled) return ["unmatched"];
      const effects = [...settled.effects];
      if (inquiry) return effects;
      effects.push(...(await debitDispute(tx, settled.payment, dispute, eventId)));
      if (type === "charge.dispute.closed" && dispute.status === "won") effects.push(...(await restoreDispute(tx, await reloadPayment(tx, settled.payment), dispute, eventId)));
      if (type === "charge.dispute.closed" && dispute.status === "lost") {
        await audit(tx, settled.payment, "credits.dispute_lost", eventId, { dispute_id: dispute.id, amount_cents: dispute.amount });
      }
      return effects;
    },
  };
}

type Dispute = z.infer<typeof disputeSchema>;

async function debitDispute(tx: Tx, payment: Payment, dispute: Dispute, eventId: string): Promise<string[]> {
  // Each dispute is applied once, whichever of its events comes first (a dispute that found nothing left to take has no ledger entry, only its audit entry).
  if (await tx.creditLedgerEntry.findUnique({ where: { idempotencyKey: `dispute:${dispute.id}` }, select: { id: true } })) return [];
  const recorded = await tx.auditLog.count({ where: { action: "credits.disputed", targetId: payment.id, details: { path: ["dispute_id"], equals: dispute.id } } });
  if (recorded > 0) return [];
  const take = await takeBack(tx, payment, dispute.amount, { kind: "DISPUTE", reference: dispute.id, idempotencyKey: `dispute:${dispute.id}`, label: "Stripe dispute" });
  await audit(tx, payment, "credits.disputed", eventId, {
    dispute_id: dispute.id,
    amount_cents: take,
    amount: formatCents(take),
    ...(take < dispute.amount ? { not_debited_cents: dispute.amount - take } : {}),
  });
  return [`disputed ${take}`];
}

/** A dispute won gives back exactly what that dispute took. */
async function restoreDispute(tx: Tx, payment: Payment, dispute: Dispute, eventId: string): Promise<string[]> {
  const taken = await tx.creditLedgerEntry.findUnique({ where: { idempotencyKey: `dispute:${dispute.id}` }, select: { amountNanos: true } });
  if (!taken) return [];
  const restoredNanos = -taken.amountNanos;
  const result = await changeOrFail(tx, {
    orgId: payment.orgId,
    kind: "DISPUTE",
    amountNanos: restoredNanos,
    reference: dispute.id,
    idempotencyKey: `dispute-won:${dispute.id}`,
    description: `Stripe dispute won: ${formatDollars(restoredNanos)} restored`,
  });
  if (result !== "applied") return [];
  const cents = Number(restoredNanos / NANOS_PER_CENT);
  await addTakenBack(tx, payment, -cents);
  await audit(tx, payment, "credits.dispute_won", eventId, { dispute_id: dispute.id, amount_cents: cents, amount: formatCents(cents) });
  return [`dispute won ${cents}`];
}

// ───────────────────────────── payments: what refunds and disputes act on ─────────────────────────────

/** The audit target type of each kind of payment, and the kind. */
type PaymentKind = "stripe_checkout_session" | "auto_recharge_attempt";

/** A payment as refunds and disputes see it, whichever table holds it. */
interface Payment {
  kind: PaymentKind;
  id: string;
  orgId: string;
  amountCents: number;
  credited: boolean;
  held: boolean;
  refundedCents: number;
  takenBackCents: number;
}

function fromSession(row: Row): Payment {
  return { kind: "stripe_checkout_session", id: row.id, orgId: row.orgId, amountCents: row.amountCents, credited: row.creditedAt !== null, held: row.status === "HELD", refundedCents: row.refundedCents, takenBackCents: row.takenBackCents };
}

function fromAttempt(row: Attempt): Payment {
  return { kind: "auto_recharge_attempt", id: row.id, orgId: row.orgId, amountCents: row.amountCents, credited: row.creditedAt !== null, held: row.status === "HELD", refundedCents: row.refundedCents, takenBackCents: row.takenBackCents };
}

async function reloadPayment(tx: Tx, payment: Payment): Promise<Payment> {
  return payment.kind === "stripe_checkout_session" ? fromSession(await reload(tx, payment.id)) : fromAttempt(await reloadAttempt(tx, payment.id));
}

/** Refunds are cumulative at Stripe: the total so far, and "refunded" once it covers the payment. */
async function recordRefundedTotal(tx: Tx, payment: Payment, totalCents: number): Promise<void> {
  const data = { refundedCents: totalCents, ...(totalCents >= payment.amountCents && !payment.held ? { status: "REFUNDED" as const } : {}) };
  if (payment.kind === "stripe_checkout_session") await tx.stripeCheckoutSession.update({ where: { id: payment.id }, data });
  else await tx.autoRechargeAttempt.update({ where: { id: payment.id }, data });
}

/** What refunds and disputes have taken back of the payment: up by a debit, down by a dispute won. */
async function addTakenBack(tx: Tx, payment: Payment, cents: number): Promise<void> {
  const data = { takenBackCents: { increment: cents } };
  if (payment.kind === "stripe_checkout_session") await tx.stripeCheckoutSession.update({ where: { id: payment.id }, data });
  else await tx.autoRechargeAttempt.update({ where: { id: payment.id }, data });
}

type Located = { kind: "stripe_checkout_session"; sessionId: string; facts?: SessionFacts } | { kind: "auto_recharge_attempt"; attemptId: string };

/**
 * The payment a charge belongs to: ours by charge or payment intent; or
 * (when its completion has not been processed yet) Stripe's Checkout Session
 * found by payment intent, or the auto-recharge the payment intent names.
 */
async function locatePayment(db: PrismaClient, stripe: Stripe, chargeId: string, paymentIntentId: string | null): Promise<Located | null> {
  const byIds = [{ chargeId }, ...(paymentIntentId ? [{ paymentIntentId }] : [])];
  const session = await db.stripeCheckoutSession.findFirst({ where: { OR: byIds }, select: { id: true } });
  if (session) return { kind: "stripe_checkout_session", sessionId: session.id };
  const attempt = await db.autoRechargeAttempt.findFirst({ where: { OR: byIds }, select: { id: true } });
  if (attempt) return { kind: "auto_recharge_attempt", attemptId: attempt.id };
  if (!paymentIntentId) return null;
  const list = await stripe.checkout.sessions.list({ payment_intent: paymentIntentId, limit: 1 });
  const found = list.data[0];
  if (found) {
    const parsed = parseObject(sessionSchema, found, "checkout.session");
    return parsed.mode === "payment" ? { kind: "stripe_checkout_session", sessionId: parsed.id, facts: sessionFacts(parsed) } : null;
  }
  const intent = parseObject(intentSchema, await stripe.paymentIntents.retrieve(paymentIntentId), "payment_intent");
  const attemptId = autoRechargeAttemptOf(intent.metadata);
  return attemptId ? { kind: "auto_recharge_attempt", attemptId } : null;
}

/**
 * Locks the payment a charge event is about, fills in what the charge says,
 * and credits the payment if that has not happened yet: a refund or dispute
 * that arrives first never changes the result.
 */
async function settlePayment(
  tx: Tx,
  located: Located,
  charge: { paymentIntentId: string | null; chargeId: string; receiptUrl?: string; amountCents?: number },
  eventId: string,
): Promise<{ payment: Payment; effects: string[] } | null> {
  if (located.kind === "stripe_checkout_session") {
    const row = await lockSession(tx, located.sessionId, located.facts, eventId);
    if (!row) return null;
    const synced = await syncSession(tx, row, charge);
    const effects = await creditOrHold(tx, synced, located.facts, eventId);
    return { payment: fromSession(await reload(tx, synced.id)), effects };
  }
  const attempt = await lockAttempt(tx, located.attemptId, eventId, charge.amountCents ?? null);
  if (!attempt) return null;
  const synced = await syncAttempt(tx, attempt, charge);
  const effects = await creditAttemptOrHold(tx, synced, { amountCents: charge.amountCents ?? null, currency: null }, eventId);
  return { payment: fromAttempt(await reloadAttempt(tx, synced.id)), effects };
}

// ───────────────────────────── the auto-recharge row ─────────────────────────────

async function lockAttempt(tx: Tx, attemptId: string, eventId: string, amountCents: number | null): Promise<Attempt | null> {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM auto_recharge_attempts WHERE id = ${attemptId}::uuid FOR UPDATE`;
  if (locked.length > 0) return reloadAttempt(tx, attemptId);
  console.warn(`[billing] event ${eventId}: auto-recharge ${attemptId} is not known here`);
  await recordAudit(tx, {
    action: "credits.payment_unmatched",
    actorLabel: ACTOR,
    targetType: "auto_recharge_attempt",
    targetId: attemptId,
    details: { event_id: eventId, amount_cents: amountCents },
  });
  return null;
}

function reloadAttempt(tx: Tx, attemptId: string): Promise<Attempt> {
  return tx.autoRechargeAttempt.findUniqueOrThrow({ where: { id: attemptId } });
}

async function syncAttempt(tx: Tx, row: Attempt, facts: { paymentIntentId?: string | null; chargeId?: string; receiptUrl?: string }): Promise<Attempt> {
  const data: Prisma.AutoRechargeAttemptUpdateInput = {};
  if (facts.paymentIntentId && !row.paymentIntentId) data.paymentIntentId = facts.paymentIntentId;
  if (facts.chargeId && !row.chargeId) data.chargeId = facts.chargeId;
  if (facts.receiptUrl && !row.receiptUrl) data.receiptUrl = facts.receiptUrl;
  if (Object.keys(data).length === 0) return row;
  return tx.autoRechargeAttempt.update({ where: { id: row.id }, data });
}

/** The recharge's credit, once per PaymentIntent; or held back (another amount than we charged, or the organization has closed). */
async function creditAttemptOrHold(tx: Tx, row: Attempt, facts: { amountCents: number | null; currency: string | null }, eventId: string): Promise<string[]> {
  const mismatch = mismatchOf(row, facts);
  if (mismatch) return holdAttempt(tx, row, mismatch, eventId);
  if (!row.creditedAt && row.status !== "HELD" && (await organizationClosed(tx, row.orgId))) return holdAttempt(tx, row, "the organization is closed", eventId);
  if (row.creditedAt || row.status === "HELD") return [];
  // Money that arrives after a decline was recorded (Stripe retried the card) is still credited.
  if (!row.paymentIntentId) throw new Error(`auto-recharge ${row.id} has no payment intent to credit yet`);
  const result = await changeOrFail(tx, {
    orgId: row.orgId,
    kind: "TOPUP",
    amountNanos: centsToNanos(row.amountCents),
    reference: row.paymentIntentId,
    idempotencyKey: `payment_intent:${row.paymentIntentId}`,
    description: `Auto-recharge ${formatCents(row.amountCents)}`,
  });
  await tx.autoRechargeAttempt.update({ where: { id: row.id }, data: { creditedAt: new Date(), status: row.status === "REFUNDED" ? "REFUNDED" : "SUCCEEDED" } });
  if (result !== "applied") return [];
  await audit(tx, fromAttempt(row), "credits.auto_recharged", eventId, { amount_cents: row.amountCents, amount: formatCents(row.amountCents), payment_intent_id: row.paymentIntentId });
  return [`credited ${row.amountCents}`];
}

async function holdAttempt(tx: Tx, row: Attempt, reason: string, eventId: string): Promise<string[]> {
  if (row.creditedAt || row.status === "HELD") return [];
  await tx.autoRechargeAttempt.update({ where: { id: row.id }, data: { status: "HELD", failureCode: "held", failureMessage: reason } });
  await audit(tx, fromAttempt(row), "credits.payment_held", eventId, { amount_cents: row.amountCents, amount: formatCents(row.amountCents), reason });
  return ["held"];
}

// ───────────────────────────── the session row ─────────────────────────────

/**
 * Locks the session's row for this transaction. A session we never recorded
 * (its checkout was created but our insert was lost) is added from its
 * metadata when that names an existing organization.
 */
async function lockSession(tx: Tx, sessionId: string, facts: SessionFacts | undefined, eventId: string): Promise<Row | null> {
  if (facts) await insertMissingSession(tx, facts);
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM stripe_checkout_sessions WHERE id = ${sessionId} FOR UPDATE`;
  if (locked.length > 0) return reload(tx, sessionId);
  console.warn(`[billing] event ${eventId}: session ${sessionId} matches no organization`);
  await recordAudit(tx, {
    action: "credits.payment_unmatched",
    actorLabel: ACTOR,
    targetType: "stripe_checkout_session",
    targetId: sessionId,
    details: { event_id: eventId, org_id: facts?.orgId ?? null, amount_cents: facts?.amountCents ?? null },
  });
  return null;
}

async function insertMissingSession(tx: Tx, facts: SessionFacts): Promise<void> {
  if (!facts.orgId || facts.amountCents === null || facts.currency !== "usd") return;
  if (await tx.stripeCheckoutSession.findUnique({ where: { id: facts.id }, select: { id: true } })) return;
  if (!(await tx.organization.findUnique({ where: { id: facts.orgId }, select: { id: true } }))) return;
  await tx.stripeCheckoutSession.createMany({
    data: [{ id: facts.id, orgId: facts.orgId, userId: facts.userId, amountCents: facts.amountCents, currency: "usd" }],
    skipDuplicates: true,
  });
}

function reload(tx: Tx, sessionId: string): Promise<Row> {
  return tx.stripeCheckoutSession.findUniqueOrThrow({ where: { id: sessionId } });
}

/**
 * Fills in what Stripe knows and we do not yet. Until it is credited, the
 * amount follows Stripe's `amount_total`: what was paid is what is credited.
 */
async function syncSession(
  tx: Tx,
  row: Row,
  facts: { amountCents?: number | null; paymentIntentId?: string | null; chargeId?: string; receiptUrl?: string },
): Promise<Row> {
  const data: Prisma.StripeCheckoutSessionUpdateInput = {};
  if (facts.paymentIntentId && !row.paymentIntentId) data.paymentIntentId = facts.paymentIntentId;
  if (facts.chargeId && !row.chargeId) data.chargeId = facts.chargeId;
  if (facts.receiptUrl && !row.receiptUrl) data.receiptUrl = facts.receiptUrl;
  if (Object.keys(data).length === 0) return row;
  return tx.stripeCheckoutSession.update({ where: { id: row.id }, data });
}

/**
 * A completed payment that is not what we asked for: another amount or
 * currency than the session we created. Its money is not credited; a
 * platform administrator looks at it.
 */
function mismatchOf(row: { amountCents: number; currency: string }, facts: { amountCents?: number | null; currency?: string | null }): string | null {
  if (facts.amountCents != null && facts.amountCents !== row.amountCents) return `amount ${facts.amountCents} cents, expected ${row.amountCents}`;
  if (facts.currency && facts.currency.toLowerCase() !== row.currency.toLowerCase()) return `currency ${facts.currency}, expected ${row.currency}`;
  return null;
}

async function holdBack(tx: Tx, row: Row, reason: string, eventId: string): Promise<string[]> {
  if (row.creditedAt || row.status === "HELD") return [];
  await tx.stripeCheckoutSession.update({ where: { id: row.id }, data: { status: "HELD", heldReason: reason } });
  await audit(tx, fromSession(row), "credits.payment_held", eventId, { amount_cents: row.amountCents, amount: formatCents(row.amountCents), reason });
  return ["held"];
}

/** The payment's credit, once; or held back instead: Stripe's facts differ from the session we created, or the organization has closed. */
async function creditOrHold(tx: Tx, row: Row, facts: SessionFacts | undefined, eventId: string): Promise<string[]> {
  const mismatch = facts ? mismatchOf(row, facts) : null;
  if (mismatch) return holdBack(tx, row, mismatch, eventId);
  if (!row.creditedAt && row.status !== "HELD" && (await organizationClosed(tx, row.orgId))) return holdBack(tx, row, "the organization is closed", eventId);
  return creditOnce(tx, row, eventId);
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

async function creditOnce(tx: Tx, row: Row, eventId: string): Promise<string[]> {
  if (row.creditedAt || row.status === "HELD") return [];
  const result = await changeOrFail(tx, {
    orgId: row.orgId,
    kind: "TOPUP",
    amountNanos: centsToNanos(row.amountCents),
    reference: row.id,
    idempotencyKey: `checkout:${row.id}`,
    description: `Stripe payment ${formatCents(row.amountCents)}`,
    actorUserId: row.userId,
  });
  await tx.stripeCheckoutSession.update({
    where: { id: row.id },
    data: { creditedAt: new Date(), status: row.status === "REFUNDED" ? "REFUNDED" : "PAID" },
  });
  if (result !== "applied") return [];
  await audit(tx, fromSession(row), "credits.purchased", eventId, { amount_cents: row.amountCents, amount: formatCents(row.amountCents), user_id: row.userId });
  return [`credited ${row.amountCents}`];
}

async function markFailed(tx: Tx, row: Row, eventId: string): Promise<string[]> {
  if (row.creditedAt || row.status === "FAILED") return [];
  await tx.stripeCheckoutSession.update({ where: { id: row.id }, data: { status: "FAILED" } });
  await audit(tx, fromSession(row), "credits.payment_failed", eventId, { amount_cents: row.amountCents, amount: formatCents(row.amountCents) });
  return ["failed"];
}

async function setStatusIf(tx: Tx, row: Row, condition: boolean, status: Row["status"]): Promise<string[]> {
  if (!condition) return [];
  await tx.stripeCheckoutSession.update({ where: { id: row.id }, data: { status } });
  return [status.toLowerCase()];
}

async function changeOrFail(tx: Tx, change: BalanceChange): Promise<"applied" | "duplicate"> {
  const result = await changeBalanceInTransaction(tx, change);
  if (result.status === "applied" || result.status === "duplicate") return result.status;
  // Credits and allowNegative debits cannot be refused; the row lock keeps the organization.
  throw new Error(`ledger refused ${change.idempotencyKey}: ${result.status}`);
}

async function audit(tx: Tx, payment: Pick<Payment, "kind" | "id" | "orgId">, action: AuditAction, eventId: string, details: Prisma.InputJsonObject): Promise<void> {
  await recordAudit(tx, {
    action,
    orgId: payment.orgId,
    actorLabel: ACTOR,
    targetType: payment.kind,
    targetId: payment.id,
    details: { ...details, event_id: eventId },
  });
}
