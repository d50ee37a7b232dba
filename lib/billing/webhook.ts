import Stripe from "stripe";
import { z } from "zod";
import { recordAudit, type AuditAction } from "@/lib/audit";
import type { Prisma, PrismaClient } from "@/lib/db";
import type { StripeCheckoutSession } from "@/lib/generated/prisma/client";
import { formatCents } from "./checkout";
import { isUniqueViolation } from "@/lib/errors";
import { changeBalanceInTransaction, type BalanceChange } from "./ledger";
import { centsToNanos, formatDollars, NANOS_PER_CENT } from "@/lib/money";
import { billingConfig, getStripe, type BillingConfig } from "./stripe";

/**
 * Stripe's webhook: the only place credits are bought, refunded or disputed.
 *
 * Exactly once, whatever Stripe delivers and in whatever order:
 * - each event: its `stripe_events` row is inserted first in the same
 *   transaction as its effects; a concurrent duplicate waits on that row and
 *   then does nothing, and a failure rolls both back so Stripe's retry works;
 * - each session: every event about it locks its `stripe_checkout_sessions`
 *   row, so they apply one after the other; the credit has the ledger key
 *   `checkout:<session id>`;
 * - refunds: `amount_refunded` is cumulative, so only the increase over the
 *   recorded `refunded_cents` is debited (ledger key with the cumulative
 *   amount), and an older refund event arriving late changes nothing;
 * - a refund or dispute that arrives before the payment was credited credits
 *   it first, so the order of deliveries never changes the result.
 */

type Tx = Prisma.TransactionClient;
type Row = StripeCheckoutSession;

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

const paymentIntentSchema = z.object({
  latest_charge: z
    .union([z.string(), z.object({ id: z.string(), receipt_url: z.string().nullable().optional() })])
    .nullable()
    .optional(),
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
type Prepared = { apply: Apply } | { ignore: string };

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
]);

export async function processStripeEvent(db: PrismaClient, stripe: Stripe, event: StripeEventInput): Promise<ProcessResult> {
  const prepare = PREPARERS.get(event.type);
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

// ── checkout.session.* ──

async function prepareSessionEvent(db: PrismaClient, stripe: Stripe, object: unknown, type: string): Promise<Prepared> {
  const session = parseObject(sessionSchema, object, type);
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

// ── charge.refunded ──

async function prepareRefund(db: PrismaClient, stripe: Stripe, object: unknown, type: string): Promise<Prepared> {
  const charge = parseObject(chargeSchema, object, type);
  const located = await locateSession(db, stripe, charge.id, charge.payment_intent);
  if (!located) return { ignore: "not a payment of this app" };
  return {
    apply: async (tx, eventId) => {
      const row = await lockSession(tx, located.sessionId, located.facts, eventId);
      if (!row) return ["unmatched"];
      const synced = await syncSession(tx, row, {
        ...located.facts,
        paymentIntentId: charge.payment_intent,
        chargeId: charge.id,
        receiptUrl: charge.receipt_url ?? undefined,
      });
      const credit = await creditOrHold(tx, synced, located.facts, eventId);
      return [...credit, ...(await debitRefund(tx, await reload(tx, synced.id), charge, eventId))];
    },
  };
}

async function debitRefund(tx: Tx, row: Row, charge: z.infer<typeof chargeSchema>, eventId: string): Promise<string[]> {
  const total = charge.amount_refunded;
  const increase = total - row.refundedCents;
  if (increase <= 0) return [];
  const take = await takeBack(tx, row, increase, { kind: "REFUND", reference: charge.id, idempotencyKey: `refund:${charge.id}:${total}`, label: "Stripe refund" });
  await tx.stripeCheckoutSession.update({
    where: { id: row.id },
    data: { refundedCents: total, status: total >= row.amountCents && row.status !== "HELD" ? "REFUNDED" : row.status },
  });
  await audit(tx, row, "credits.refunded", eventId, {
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
 * nothing of it can be taken back. The session's row is locked by the caller.
 */
async function takeBack(
  tx: Tx,
  row: Row,
  wantedCents: number,
  entry: { kind: "REFUND" | "DISPUTE"; reference: string; idempotencyKey: string; label: string },
): Promise<number> {
  const credited = row.creditedAt ? row.amountCents : 0;
  const take = Math.max(0, Math.min(wantedCents, credited - row.takenBackCents));
  if (take === 0) return 0;
  await changeOrFail(tx, {
    orgId: row.orgId,
    kind: entry.kind,
    amountNanos: -centsToNanos(take),
    reference: entry.reference,
    idempotencyKey: entry.idempotencyKey,
    description: `${entry.label} ${formatCents(take)}`,
    allowNegative: true, // the money has left already
  });
  await tx.stripeCheckoutSession.update({ where: { id: row.id }, data: { takenBackCents: { increment: take } } });
  return take;
}

// ── charge.dispute.* ──

async function prepareDispute(db: PrismaClient, stripe: Stripe, object: unknown, type: string): Promise<Prepared> {
  const dispute = parseObject(disputeSchema, object, type);
  const located = await locateSession(db, stripe, dispute.charge, dispute.payment_intent ?? null);
  if (!located) return { ignore: "not a payment of this app" };
  // Inquiries ("warning_…") take no money; a real dispute takes the amount until it is won.
  const inquiry = dispute.status.startsWith("warning_");
  return {
    apply: async (tx, eventId) => {
      const row = await lockSession(tx, located.sessionId, located.facts, eventId);
      if (!row) return ["unmatched"];
      const synced = await syncSession(tx, row, {
        ...located.facts,
        paymentIntentId: dispute.payment_intent ?? null,
        chargeId: dispute.charge,
      });
      const effects = await creditOrHold(tx, synced, located.facts, eventId);
      if (inquiry) return effects;
      effects.push(...(await debitDispute(tx, await reload(tx, synced.id), dispute, eventId)));
      if (type === "charge.dispute.closed" && dispute.status === "won") effects.push(...(await restoreDispute(tx, await reload(tx, synced.id), dispute, eventId)));
      if (type === "charge.dispute.closed" && dispute.status === "lost") {
        await audit(tx, synced, "credits.dispute_lost", eventId, { dispute_id: dispute.id, amount_cents: dispute.amount });
      }
      return effects;
    },
  };
}

type Dispute = z.infer<typeof disputeSchema>;

async function debitDispute(tx: Tx, row: Row, dispute: Dispute, eventId: string): Promise<string[]> {
  // Each dispute is applied once, whichever of its events comes first (a dispute that found nothing left to take has no ledger entry, only its audit entry).
  if (await tx.creditLedgerEntry.findUnique({ where: { idempotencyKey: `dispute:${dispute.id}` }, select: { id: true } })) return [];
  const recorded = await tx.auditLog.count({ where: { action: "credits.disputed", targetId: row.id, details: { path: ["dispute_id"], equals: dispute.id } } });
  if (recorded > 0) return [];
  const take = await takeBack(tx, row, dispute.amount, { kind: "DISPUTE", reference: dispute.id, idempotencyKey: `dispute:${dispute.id}`, label: "Stripe dispute" });
  await audit(tx, row, "credits.disputed", eventId, {
    dispute_id: dispute.id,
    amount_cents: take,
    amount: formatCents(take),
    ...(take < dispute.amount ? { not_debited_cents: dispute.amount - take } : {}),
  });
  return [`disputed ${take}`];
}

/** A dispute won gives back exactly what that dispute took. */
async function restoreDispute(tx: Tx, row: Row, dispute: Dispute, eventId: string): Promise<string[]> {
  const taken = await tx.creditLedgerEntry.findUnique({ where: { idempotencyKey: `dispute:${dispute.id}` }, select: { amountNanos: true } });
  if (!taken) return [];
  const restoredNanos = -taken.amountNanos;
  const result = await changeOrFail(tx, {
    orgId: row.orgId,
    kind: "DISPUTE",
    amountNanos: restoredNanos,
    reference: dispute.id,
    idempotencyKey: `dispute-won:${dispute.id}`,
    description: `Stripe dispute won: ${formatDollars(restoredNanos)} restored`,
  });
  if (result !== "applied") return [];
  const cents = Number(restoredNanos / NANOS_PER_CENT);
  await tx.stripeCheckoutSession.update({ where: { id: row.id }, data: { takenBackCents: { decrement: cents } } });
  await audit(tx, row, "credits.dispute_won", eventId, { dispute_id: dispute.id, amount_cents: cents, amount: formatCents(cents) });
  return [`dispute won ${cents}`];
}

// ───────────────────────────── the session row ─────────────────────────────

/**
 * The session a charge belongs to: ours by charge or payment intent, or (when
 * its completion has not been processed yet) Stripe's, found by payment intent.
 */
async function locateSession(
  db: PrismaClient,
  stripe: Stripe,
  chargeId: string,
  paymentIntentId: string | null,
): Promise<{ sessionId: string; facts?: SessionFacts } | null> {
  const row = await db.stripeCheckoutSession.findFirst({
    where: { OR: [{ chargeId }, ...(paymentIntentId ? [{ paymentIntentId }] : [])] },
    select: { id: true },
  });
  if (row) return { sessionId: row.id };
  if (!paymentIntentId) return null;
  const list = await stripe.checkout.sessions.list({ payment_intent: paymentIntentId, limit: 1 });
  const session = list.data[0];
  if (!session) return null;
  const parsed = parseObject(sessionSchema, session, "checkout.session");
  if (parsed.mode !== "payment") return null;
  return { sessionId: parsed.id, facts: sessionFacts(parsed) };
}

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
function mismatchOf(row: Row, facts: SessionFacts): string | null {
  if (facts.amountCents != null && facts.amountCents !== row.amountCents) return `amount ${facts.amountCents} cents, expected ${row.amountCents}`;
  if (facts.currency && facts.currency.toLowerCase() !== row.currency.toLowerCase()) return `currency ${facts.currency}, expected ${row.currency}`;
  return null;
}

async function holdBack(tx: Tx, row: Row, reason: string, eventId: string): Promise<string[]> {
  if (row.creditedAt || row.status === "HELD") return [];
  await tx.stripeCheckoutSession.update({ where: { id: row.id }, data: { status: "HELD", heldReason: reason } });
  await audit(tx, row, "credits.payment_held", eventId, { amount_cents: row.amountCents, amount: formatCents(row.amountCents), reason });
  return ["held"];
}

/** The payment's credit, once; or held back instead: Stripe's facts differ from the session we created, or the organization has closed. */
async function creditOrHold(tx: Tx, row: Row, facts: SessionFacts | undefined, eventId: string): Promise<string[]> {
  const mismatch = facts ? mismatchOf(row, facts) : null;
  if (mismatch) return holdBack(tx, row, mismatch, eventId);
  if (!row.creditedAt && row.status !== "HELD") {
    // Money for an organization that has closed is not credited to it; an operator refunds or settles it.
    // The row lock orders this against a close that is committing at the same time.
    const [org] = await tx.$queryRaw<{ closed_at: Date | null }[]>`SELECT closed_at FROM organizations WHERE id = ${row.orgId}::uuid FOR UPDATE`;
    if (org?.closed_at) return holdBack(tx, row, "the organization is closed", eventId);
  }
  return creditOnce(tx, row, eventId);
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
  await audit(tx, row, "credits.purchased", eventId, { amount_cents: row.amountCents, amount: formatCents(row.amountCents), user_id: row.userId });
  return [`credited ${row.amountCents}`];
}

async function markFailed(tx: Tx, row: Row, eventId: string): Promise<string[]> {
  if (row.creditedAt || row.status === "FAILED") return [];
  await tx.stripeCheckoutSession.update({ where: { id: row.id }, data: { status: "FAILED" } });
  await audit(tx, row, "credits.payment_failed", eventId, { amount_cents: row.amountCents, amount: formatCents(row.amountCents) });
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

async function audit(tx: Tx, row: Row, action: AuditAction, eventId: string, details: Prisma.InputJsonObject): Promise<void> {
  await recordAudit(tx, {
    action,
    orgId: row.orgId,
    actorLabel: ACTOR,
    targetType: "stripe_checkout_session",
    targetId: row.id,
    details: { ...details, event_id: eventId },
  });
}
