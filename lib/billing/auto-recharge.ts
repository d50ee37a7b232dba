import { randomUUID } from "node:crypto";
import type Stripe from "stripe";
import { z } from "zod";
import { recordAudit, type AuditActor } from "@/lib/audit";
import type { DbClient, Prisma, PrismaClient } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import type { AutoRechargeStatus } from "@/lib/generated/prisma/enums";
import { formatCents, formatDollars, parseDollars, readTypedDollars } from "@/lib/money";
import { emitOrgEvent } from "@/lib/notify/events";
import { utcDayStart } from "@/lib/utils/dates";
import { cardExpiry, cardLabel } from "./card";
import { topUpAmountSchema } from "./checkout";
import { callStripe, tryStripe } from "./stripe";

/**
 * Auto-recharge: an owner saves a card (Stripe Checkout in setup mode) and
 * opts in; when the balance is below the threshold, a sweep charges the card
 * off-session for the amount, at most N times a UTC day.
 *
 * - The trigger is the sweep (`runAutoRecharge`, every few seconds on each
 *   instance), never the paid request path. It first inserts the attempt
 *   row, unique per (organization, UTC day, number that day), in the one
 *   statement that checks the conditions, so sweeps racing on several
 *   instances start one charge; then it creates the PaymentIntent with an
 *   idempotency key derived from the attempt, so a retry after a crash or a
 *   lost answer charges once.
 * - The credit comes only from the verified webhook (lib/billing/webhook),
 *   once per PaymentIntent (ledger key `payment_intent:<id>`).
 * - A declined card fails the attempt, turns auto-recharge off with the
 *   reason, and tells the owners: the `auto_recharge.failed` event, to the
 *   organization's webhook endpoints and by email, through the notification
 *   queue.
 */

/** PaymentIntent metadata `purpose` of our charges: how the webhook tells them from Checkout's. */
export const AUTO_RECHARGE_PURPOSE = "auto_recharge";
/** Checkout Session metadata `purpose` of a card saved for auto-recharge. */
export const CARD_SETUP_PURPOSE = "auto_recharge_card";

export const MAX_RECHARGES_PER_DAY = 10;
export const MAX_AUTO_RECHARGE_THRESHOLD_NANOS = parseDollars("100000");
const DEFAULT_INTERVAL_MS = 5_000;
/** A started attempt with no PaymentIntent this long after (a crash, Stripe unreachable) is tried again with the same key. */
const RESUME_AFTER_MS = 60_000;
/** Stripe keeps idempotency keys for 24 hours: an attempt not started within 23 is given up. */
const GIVE_UP_AFTER_MS = 23 * 3600_000;
const ACTOR = "stripe";

/** How often the sweep runs: AUTO_RECHARGE_INTERVAL_MS, default 5 s. */
export function autoRechargeIntervalMs(env: Record<string, string | undefined> = process.env): number {
  const value = Number(env.AUTO_RECHARGE_INTERVAL_MS);
  return Number.isInteger(value) && value >= 100 ? value : DEFAULT_INTERVAL_MS;
}

/** The attempt a PaymentIntent's metadata names when it is one of our charges; null for Checkout's and anything else. */
export function autoRechargeAttemptOf(metadata: Record<string, string> | null | undefined): string | null {
  if (metadata?.purpose !== AUTO_RECHARGE_PURPOSE) return null;
  const id = metadata.attempt_id;
  return id && z.uuid().safeParse(id).success ? id : null;
}

// ───────────────────────────── settings ─────────────────────────────

const THRESHOLD_EMPTY = "Enter the balance to recharge below, in dollars.";
const THRESHOLD_FORMAT = "Enter the threshold in dollars and cents, like 5 or 4.99.";

/** The balance to recharge below, as typed ("4.99", "$1,000"), read by lib/money.ts's readTypedDollars in this form's words. */
const thresholdSchema = z.string({ error: THRESHOLD_EMPTY }).transform((text, ctx) => {
  const read = text.trim()
    ? readTypedDollars(text, {
        min: 0n,
        max: MAX_AUTO_RECHARGE_THRESHOLD_NANOS,
        decimals: 2,
        messages: {
          format: THRESHOLD_FORMAT,
          decimals: THRESHOLD_FORMAT,
          below: THRESHOLD_FORMAT,
          above: `The threshold is at most ${formatDollars(MAX_AUTO_RECHARGE_THRESHOLD_NANOS, { grouping: true })}.`,
        },
      })
    : { ok: false as const, message: THRESHOLD_EMPTY };
  if (read.ok && read.nanos > 0n) return read.nanos;
  ctx.addIssue({ code: "custom", message: read.ok ? "The threshold must be more than $0." : read.message });
  return z.NEVER;
});

const PER_DAY_MESSAGE = `Recharges per day: a whole number from 1 to ${MAX_RECHARGES_PER_DAY}.`;
const maxPerDaySchema = z
  .string({ error: PER_DAY_MESSAGE })
  .trim()
  .regex(/^\d{1,2}$/, PER_DAY_MESSAGE)
  .transform(Number)
  .pipe(z.number().int().min(1, PER_DAY_MESSAGE).max(MAX_RECHARGES_PER_DAY, PER_DAY_MESSAGE));

/** The form: threshold and amount in dollars as typed ("4.99", "$1,000"), recharges per day 1–10. */
export const autoRechargeSettingsSchema = z
  .object({ threshold: thresholdSchema, amount: topUpAmountSchema, maxPerDay: maxPerDaySchema })
  .transform(({ threshold, amount, maxPerDay }) => ({ thresholdNanos: threshold, amountCents: amount, maxPerDay }));

export type AutoRechargeSettings = z.output<typeof autoRechargeSettingsSchema>;

/** Turns auto-recharge on (or changes it); refused without a saved card. */
export async function enableAutoRecharge(db: PrismaClient, orgId: string, settings: AutoRechargeSettings, actor: AuditActor) {
  return db.$transaction(async (tx) => {
    const [org] = await tx.$queryRaw<{ payment_method_id: string | null; closed_at: Date | null }[]>`
      SELECT payment_method_id, closed_at FROM organizations WHERE id = ${orgId}::uuid FOR UPDATE`;
    if (!org) throw new DomainError("unknown_organization", `No organization with id ${orgId}.`);
    if (org.closed_at) throw new DomainError("organization_closed", "This organization is closed.");
    if (!org.payment_method_id) {
      throw new DomainError("no_saved_card", "Save a card first: auto-recharge charges the saved card, and none is saved yet.");
    }
    await tx.organization.update({
      where: { id: orgId },
      data: {
        autoRechargeEnabled: true,
        autoRechargeThresholdNanos: settings.thresholdNanos,
        autoRechargeAmountCents: settings.amountCents,
        autoRechargeMaxPerDay: settings.maxPerDay,
        autoRechargeDisabledAt: null,
        autoRechargeDisabledReason: null,
      },
    });
    await recordAudit(tx, {
      action: "billing.auto_recharge_set",
      orgId,
      ...actor,
      targetType: "organization",
      targetId: orgId,
      details: {
        threshold: formatDollars(settings.thresholdNanos, { grouping: true }),
        amount_cents: settings.amountCents,
        amount: formatCents(settings.amountCents),
        max_per_day: settings.maxPerDay,
      },
    });
  });
}

/** Turns auto-recharge off; the settings are kept for turning it on again. A charge already started still credits. */
export async function turnOffAutoRecharge(db: PrismaClient, orgId: string, actor: AuditActor): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.organization.updateMany({ where: { id: orgId, autoRechargeEnabled: true }, data: { autoRechargeEnabled: false } });
    if (count > 0) await recordAudit(tx, { action: "billing.auto_recharge_off", orgId, ...actor, targetType: "organization", targetId: orgId });
    return count > 0;
  });
}

// ───────────────────────────── the saved card ─────────────────────────────

/** The organization's Stripe customer, created on first need (one per organization, whatever races). */
export async function ensureStripeCustomer(db: PrismaClient, stripe: Stripe, orgId: string): Promise<string> {
  const org = await db.organization.findUnique({ where: { id: orgId }, select: { name: true, stripeCustomerId: true } });
  if (!org) throw new DomainError("unknown_organization", `No organization with id ${orgId}.`);
  if (org.stripeCustomerId) return org.stripeCustomerId;
  const customer = await callStripe("creating a customer", () =>
    stripe.customers.create({ name: org.name.slice(0, 256), metadata: { org_id: orgId } }, { idempotencyKey: `customer:${orgId}` }),
  );
  await db.organization.updateMany({ where: { id: orgId, stripeCustomerId: null }, data: { stripeCustomerId: customer.id } });
  return (await db.organization.findUniqueOrThrow({ where: { id: orgId }, select: { stripeCustomerId: true } })).stripeCustomerId!;
}

const cardSetupSchema = z.object({
  orgId: z.uuid(),
  userId: z.uuid(),
  origin: z.url({ protocol: /^https?$/ }).transform((url) => new URL(url).origin),
  /** One form's token, so a double click opens one session. */
  requestKey: z.string().regex(/^[A-Za-z0-9_-]{8,100}$/).optional(),
});

/** A Checkout Session in setup mode for the organization's customer; the webhook stores the card it saves. */
export async function startCardSetup(db: PrismaClient, stripe: Stripe, input: z.input<typeof cardSetupSchema>): Promise<{ sessionId: string; url: string }> {
  const parsed = cardSetupSchema.safeParse(input);
  if (!parsed.success) throw new DomainError("invalid_input", parsed.error.issues[0]!.message);
  const { orgId, userId, origin } = parsed.data;
  const customer = await ensureStripeCustomer(db, stripe, orgId);
  const metadata = { purpose: CARD_SETUP_PURPOSE, org_id: orgId, user_id: userId };
  const session = await callStripe("creating a setup session", () =>
    stripe.checkout.sessions.create(
      {
        mode: "setup",
        customer,
        currency: "usd",
        success_url: `${origin}/billing?card=saved#auto-recharge`,
        cancel_url: `${origin}/billing?card=canceled#auto-recharge`,
        client_reference_id: orgId,
        metadata,
        setup_intent_data: { metadata },
      },
      { idempotencyKey: `card-setup:${orgId}:${userId}:${parsed.data.requestKey ?? randomUUID()}` },
    ),
  );
  if (!session.url) throw new DomainError("checkout_closed", "This card form was already used or has expired. Please start again.");
  return { sessionId: session.id, url: session.url };
}

export interface SavedCard {
  orgId: string;
  customerId: string;
  paymentMethodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  /** When Stripe saved it: a card saved earlier never replaces a later one, whatever order the events come in. */
  savedAt: Date;
  actorUserId: string | null;
}

/** Stores a card Stripe saved for the organization's own customer (the webhook's transaction). */
export async function saveCardInTransaction(tx: Prisma.TransactionClient, card: SavedCard, eventId: string): Promise<string[]> {
  const [org] = await tx.$queryRaw<{ stripe_customer_id: string | null; closed_at: Date | null; payment_method_saved_at: Date | null }[]>`
    SELECT stripe_customer_id, closed_at, payment_method_saved_at FROM organizations WHERE id = ${card.orgId}::uuid FOR UPDATE`;
  if (!org || org.closed_at) return [];
  if (org.stripe_customer_id !== card.customerId) {
    console.warn(`[billing] event ${eventId}: card ${card.paymentMethodId} belongs to ${card.customerId}, not to the customer of ${card.orgId}`);
    return [];
  }
  if (org.payment_method_saved_at && org.payment_method_saved_at > card.savedAt) return [];
  await tx.organization.update({
    where: { id: card.orgId },
    data: {
      paymentMethodId: card.paymentMethodId,
      paymentMethodBrand: card.brand,
      paymentMethodLast4: card.last4,
      paymentMethodExpMonth: card.expMonth,
      paymentMethodExpYear: card.expYear,
      paymentMethodSavedAt: card.savedAt,
    },
  });
  await recordAudit(tx, {
    action: "billing.card_saved",
    orgId: card.orgId,
    ...(card.actorUserId ? { actorUserId: card.actorUserId } : { actorLabel: ACTOR }),
    targetType: "payment_method",
    targetId: card.paymentMethodId,
    details: { brand: card.brand, last4: card.last4, exp_month: card.expMonth, exp_year: card.expYear, event_id: eventId },
  });
  return ["card saved"];
}

/** Detaches the card at Stripe and forgets it; auto-recharge, which needs it, is turned off. */
export async function removeSavedCard(db: PrismaClient, stripe: Stripe, orgId: string, actor: AuditActor): Promise<void> {
  const org = await db.organization.findUnique({ where: { id: orgId }, select: { paymentMethodId: true } });
  if (!org?.paymentMethodId) throw new DomainError("no_saved_card", "There is no saved card to remove.");
  const paymentMethodId = org.paymentMethodId;
  const detached = await tryStripe("detaching a card", () => stripe.paymentMethods.detach(paymentMethodId));
  // Refused: already detached or gone at Stripe, so nothing is left to remove there.
  if (!detached.ok && detached.failure.kind !== "refused") {
    throw new DomainError("payment_service_unavailable", "The card could not be removed at Stripe just now. Please try again in a moment.");
  }
  await db.$transaction(async (tx) => {
    const [before] = await tx.$queryRaw<{ payment_method_id: string | null; brand: string | null; last4: string | null; enabled: boolean }[]>`
      SELECT payment_method_id, payment_method_brand AS brand, payment_method_last4 AS last4, auto_recharge_enabled AS enabled
        FROM organizations WHERE id = ${orgId}::uuid FOR UPDATE`;
    if (before?.payment_method_id !== paymentMethodId) return; // replaced by another card meanwhile: that one stays
    await tx.organization.update({
      where: { id: orgId },
      data: {
        paymentMethodId: null,
        paymentMethodBrand: null,
        paymentMethodLast4: null,
        paymentMethodExpMonth: null,
        paymentMethodExpYear: null,
        paymentMethodSavedAt: null,
        autoRechargeEnabled: false,
      },
    });
    await recordAudit(tx, {
      action: "billing.card_removed",
      orgId,
      ...actor,
      targetType: "payment_method",
      targetId: paymentMethodId,
      details: { brand: before.brand, last4: before.last4, auto_recharge_turned_off: before.enabled },
    });
  });
}

// ───────────────────────────── the sweep ─────────────────────────────

export interface AutoRechargeSweep {
  /** Attempts this sweep inserted and charged. */
  started: number;
  /** Earlier attempts whose PaymentIntent this sweep created (again, with the same key). */
  resumed: number;
  declined: number;
  /** Stripe could not be reached: the attempt waits for the next sweep. */
  deferred: number;
  /** Not started within a day: given up, nothing charged. */
  abandoned: number;
}

type ChargeOutcome = "charged" | "declined" | "deferred";

interface StartedAttempt {
  id: string;
  orgId: string;
  amountCents: number;
  paymentMethodId: string;
  customerId: string;
}

/**
 * One pass: resumes attempts whose PaymentIntent was never created, then
 * starts one for every organization that is due, and charges it.
 */
export async function runAutoRecharge(db: PrismaClient, stripe: Stripe, now = new Date()): Promise<AutoRechargeSweep> {
  const sweep: AutoRechargeSweep = { started: 0, resumed: 0, declined: 0, deferred: 0, abandoned: 0 };
  const count = (outcome: ChargeOutcome) => {
    if (outcome === "declined") sweep.declined++;
    if (outcome === "deferred") sweep.deferred++;
  };

  const stalled = await db.autoRechargeAttempt.findMany({
    where: { status: "PENDING", paymentIntentId: null, createdAt: { lt: new Date(now.getTime() - RESUME_AFTER_MS) } },
    select: { id: true, orgId: true, amountCents: true, paymentMethodId: true, createdAt: true, organization: { select: { stripeCustomerId: true } } },
    orderBy: { createdAt: "asc" },
    take: 100,
  });
  for (const attempt of stalled) {
    if (now.getTime() - attempt.createdAt.getTime() > GIVE_UP_AFTER_MS || !attempt.organization.stripeCustomerId) {
      await abandon(db, attempt.id);
      sweep.abandoned++;
      continue;
    }
    sweep.resumed++;
    count(await chargeAttempt(db, stripe, { ...attempt, customerId: attempt.organization.stripeCustomerId }, now));
  }

  for (const attempt of await startDueAttempts(db, now)) {
    sweep.started++;
    count(await chargeAttempt(db, stripe, attempt, now));
  }
  return sweep;
}

/**
 * Inserts an attempt for every organization that is due, in one statement:
 * auto-recharge on, open, a saved card, the balance under the threshold,
 * fewer attempts today than allowed and none in flight. The attempt's number
 * is today's count + 1, unique per organization and day, so a concurrent
 * sweep that saw the same state inserts nothing (ON CONFLICT waits for the
 * winner's commit, then skips).
 */
async function startDueAttempts(db: PrismaClient, now: Date): Promise<StartedAttempt[]> {
  const day = utcDayStart(now);
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<
      { id: string; org_id: string; seq: number; amount_cents: number; payment_method_id: string; customer_id: string; balance_nanos: bigint; threshold_nanos: bigint }[]
    >`
      WITH started AS (
        INSERT INTO auto_recharge_attempts (org_id, day, seq, amount_cents, balance_nanos, threshold_nanos, payment_method_id)
        SELECT o.id, ${day}::date, today.attempts + 1, o.auto_recharge_amount_cents, o.balance_nanos,
               o.auto_recharge_threshold_nanos, o.payment_method_id
          FROM organizations o
          CROSS JOIN LATERAL (SELECT count(*)::int AS attempts FROM auto_recharge_attempts a
                               WHERE a.org_id = o.id AND a.day = ${day}::date) today
         WHERE o.auto_recharge_enabled
           AND o.closed_at IS NULL AND o.suspended_at IS NULL
           AND o.payment_method_id IS NOT NULL AND o.stripe_customer_id IS NOT NULL
           AND o.balance_nanos < o.auto_recharge_threshold_nanos
           AND today.attempts < o.auto_recharge_max_per_day
           AND NOT EXISTS (SELECT 1 FROM auto_recharge_attempts p WHERE p.org_id = o.id AND p.status = 'PENDING')
        ON CONFLICT (org_id, day, seq) DO NOTHING
        RETURNING id, org_id, seq, amount_cents, payment_method_id, balance_nanos, threshold_nanos
      )
      SELECT s.id, s.org_id, s.seq, s.amount_cents, s.payment_method_id, s.balance_nanos, s.threshold_nanos,
             o.stripe_customer_id AS customer_id
        FROM started s JOIN organizations o ON o.id = s.org_id`;
    for (const row of rows) {
      await recordAudit(tx, {
        action: "credits.auto_recharge_started",
        orgId: row.org_id,
        actorLabel: "system",
        targetType: "auto_recharge_attempt",
        targetId: row.id,
        details: {
          amount_cents: row.amount_cents,
          amount: formatCents(row.amount_cents),
          balance: formatDollars(BigInt(row.balance_nanos), { grouping: true }),
          threshold: formatDollars(BigInt(row.threshold_nanos), { grouping: true }),
          number_today: row.seq,
        },
      });
    }
    return rows.map((row) => ({ id: row.id, orgId: row.org_id, amountCents: row.amount_cents, paymentMethodId: row.payment_method_id, customerId: row.customer_id }));
  });
}

/**
 * The off-session charge of one attempt. The idempotency key is the
 * attempt's, so calling this again (a resumed attempt) returns the same
 * PaymentIntent, or the same decline, and never charges twice.
 */
async function chargeAttempt(db: PrismaClient, stripe: Stripe, attempt: StartedAttempt, now: Date): Promise<ChargeOutcome> {
  const charged = await tryStripe(`charging auto-recharge ${attempt.id}`, () =>
    stripe.paymentIntents.create(
      {
        amount: attempt.amountCents,
        currency: "usd",
        customer: attempt.customerId,
        payment_method: attempt.paymentMethodId,
        confirm: true,
        off_session: true,
        description: `Auto-recharge: ${formatCents(attempt.amountCents)} of API credits`,
        metadata: { purpose: AUTO_RECHARGE_PURPOSE, org_id: attempt.orgId, attempt_id: attempt.id },
      },
      { idempotencyKey: `auto-recharge:${attempt.id}` },
    ),
  );
  if (charged.ok) {
    const intent = charged.value;
    // The webhook may have linked it first; either way it is the same intent.
    await db.autoRechargeAttempt.updateMany({ where: { id: attempt.id, paymentIntentId: null }, data: { paymentIntentId: intent.id } });
    console.log(`[billing] auto-recharge ${attempt.id}: ${formatCents(attempt.amountCents)} charged (${intent.id}, ${intent.status})`);
    return "charged";
  }
  const { failure } = charged;
  if (failure.kind === "unavailable") return "deferred";
  // Refused for good: a card error, or a request that cannot succeed (the card was detached).
  await recordDecline(db, attempt.id, { code: failure.code, message: failure.message, paymentIntentId: failure.paymentIntentId, cardError: failure.kind === "declined" }, now);
  return "declined";
}

async function abandon(db: PrismaClient, attemptId: string): Promise<void> {
  await db.autoRechargeAttempt.updateMany({
    where: { id: attemptId, status: "PENDING", paymentIntentId: null },
    data: { status: "FAILED", failureCode: "not_started", failureMessage: "Stripe could not be reached to start the payment; nothing was charged." },
  });
}

// ───────────────────────────── declines ─────────────────────────────

export interface Decline {
  /** Stripe's decline code (or error code). */
  code: string;
  /** Stripe's message for people, e.g. "Your card was declined." */
  message: string;
  paymentIntentId: string | null;
  /** The card itself was refused (rather than the request). */
  cardError: boolean;
}

export interface DeclineOutcome {
  orgId: string;
  turnedOff: boolean;
}

/**
 * A declined charge, once, whichever reports it first (the sweep's 402 or
 * the payment_failed webhook): the attempt fails, auto-recharge is turned off
 * with the reason, the audit log says so, and the organization's
 * `auto_recharge.failed` event goes to its webhook endpoints and, by email,
 * to its owners, through the notification queue (lib/notify), in this
 * transaction: durable and retried. Null when the attempt was settled
 * already.
 */
export async function declineInTransaction(tx: Prisma.TransactionClient, attemptId: string, decline: Decline, now: Date): Promise<DeclineOutcome | null> {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM auto_recharge_attempts WHERE id = ${attemptId}::uuid FOR UPDATE`;
  if (locked.length === 0) return null;
  const attempt = await tx.autoRechargeAttempt.findUniqueOrThrow({
    where: { id: attemptId },
    include: { organization: { select: { paymentMethodBrand: true, paymentMethodLast4: true } } },
  });
  if (attempt.status !== "PENDING") return null;
  await tx.autoRechargeAttempt.update({
    where: { id: attemptId },
    data: { status: "FAILED", failureCode: decline.code, failureMessage: decline.message, paymentIntentId: attempt.paymentIntentId ?? decline.paymentIntentId },
  });
  const reason = decline.cardError ? "your card was declined" : "the saved card could not be charged";
  const { count } = await tx.organization.updateMany({
    where: { id: attempt.orgId, autoRechargeEnabled: true },
    data: { autoRechargeEnabled: false, autoRechargeDisabledAt: now, autoRechargeDisabledReason: reason },
  });
  const turnedOff = count > 0;
  const details = {
    attempt_id: attempt.id,
    amount_cents: attempt.amountCents,
    amount: formatCents(attempt.amountCents),
    decline_code: decline.code,
    message: decline.message,
    payment_intent_id: attempt.paymentIntentId ?? decline.paymentIntentId,
    turned_off: turnedOff,
  };
  await recordAudit(tx, { action: "credits.auto_recharge_failed", orgId: attempt.orgId, actorLabel: ACTOR, targetType: "auto_recharge_attempt", targetId: attempt.id, details });
  const card = cardLabel(attempt.organization.paymentMethodBrand, attempt.organization.paymentMethodLast4);
  await emitOrgEvent(tx, { orgId: attempt.orgId, type: "auto_recharge.failed", data: { ...details, card }, now, email: "owners" });
  return { orgId: attempt.orgId, turnedOff };
}

async function recordDecline(db: PrismaClient, attemptId: string, decline: Decline, now: Date): Promise<void> {
  const outcome = await db.$transaction((tx) => declineInTransaction(tx, attemptId, decline, now));
  if (outcome) console.warn(`[billing] auto-recharge ${attemptId} declined (${decline.code}): ${decline.message}`);
}

// ───────────────────────────── what the billing page shows ─────────────────────────────

export interface AutoRechargeAttemptView {
  id: string;
  at: Date;
  amountCents: number;
  status: AutoRechargeStatus;
  failureMessage: string | null;
  refundedCents: number;
  receiptUrl: string | null;
}

export interface AutoRechargeView {
  enabled: boolean;
  thresholdNanos: bigint | null;
  amountCents: number | null;
  maxPerDay: number | null;
  /** Set when a decline turned it off (cleared when turned on again). */
  turnedOff: { at: Date; reason: string; message: string | null } | null;
  card: { label: string; expires: string | null; savedAt: Date | null } | null;
  startedToday: number;
  attempts: AutoRechargeAttemptView[];
}

export async function autoRechargeView(db: DbClient, orgId: string, now = new Date()): Promise<AutoRechargeView> {
  const [org, attempts, startedToday] = await Promise.all([
    db.organization.findUniqueOrThrow({ where: { id: orgId } }),
    db.autoRechargeAttempt.findMany({ where: { orgId }, orderBy: [{ createdAt: "desc" }, { seq: "desc" }], take: 10 }),
    db.autoRechargeAttempt.count({ where: { orgId, day: utcDayStart(now) } }),
  ]);
  const lastFailure = attempts.find((a) => a.status === "FAILED");
  return {
    enabled: org.autoRechargeEnabled,
    thresholdNanos: org.autoRechargeThresholdNanos,
    amountCents: org.autoRechargeAmountCents,
    maxPerDay: org.autoRechargeMaxPerDay,
    turnedOff:
      org.autoRechargeDisabledAt && org.autoRechargeDisabledReason
        ? { at: org.autoRechargeDisabledAt, reason: org.autoRechargeDisabledReason, message: lastFailure?.failureMessage ?? null }
        : null,
    card: org.paymentMethodId
      ? { label: cardLabel(org.paymentMethodBrand, org.paymentMethodLast4), expires: cardExpiry(org.paymentMethodExpMonth, org.paymentMethodExpYear), savedAt: org.paymentMethodSavedAt }
      : null,
    startedToday,
    attempts: attempts.map((a) => ({
      id: a.id,
      at: a.createdAt,
      amountCents: a.amountCents,
      status: a.status,
      failureMessage: a.failureMessage,
      refundedCents: a.refundedCents,
      receiptUrl: a.receiptUrl,
    })),
  };
}
