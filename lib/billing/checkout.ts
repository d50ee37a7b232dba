import { randomUUID } from "node:crypto";
import type Stripe from "stripe";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import type { DbClient, PrismaClient } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { centsToNanos, formatCents, NANOS_PER_CENT, readTypedDollars } from "@/lib/money";
import { callStripe } from "./stripe";

/**
 * Buying credits: a Stripe Checkout Session in `payment` mode for an amount
 * the user chose. Nothing is credited here; the verified webhook does that
 * (lib/billing/webhook), once per session.
 */

/** What one top-up may be, in cents: $10 to $10,000. */
export const TOPUP_LIMITS = { minCents: 1_000, maxCents: 1_000_000 } as const;
/** The amounts offered as buttons: $20, $50, $100, $500. */
export const TOPUP_PRESETS_CENTS = [2_000, 5_000, 10_000, 50_000] as const;

const LARGEST_TOP_UP = `The largest top-up is ${formatCents(TOPUP_LIMITS.maxCents)}.`;
const LIMITS_TEXT = `from ${formatCents(TOPUP_LIMITS.minCents)} to ${formatCents(TOPUP_LIMITS.maxCents)}`;
const ENTER_AMOUNT = `Enter an amount ${LIMITS_TEXT}.`;

export const topUpCentsSchema = z
  .number({ error: ENTER_AMOUNT })
  .int({ error: "The amount must be whole cents." })
  .min(TOPUP_LIMITS.minCents, { error: `The smallest top-up is ${formatCents(TOPUP_LIMITS.minCents)}.` })
  .max(TOPUP_LIMITS.maxCents, { error: LARGEST_TOP_UP });

const AMOUNT_FORMAT = `Enter an amount in dollars, like 20 or 20.50, ${LIMITS_TEXT}.`;

/**
 * An amount as the user typed it, in dollars ("20", "20.50", "$1,000"), to
 * integer cents within TOPUP_LIMITS; read by lib/money.ts's readTypedDollars
 * in this form's words.
 */
export const topUpAmountSchema = z
  .string({ error: ENTER_AMOUNT })
  .transform((text, ctx) => {
    const read = text.trim()
      ? readTypedDollars(text, {
          min: 0n,
          max: centsToNanos(TOPUP_LIMITS.maxCents),
          decimals: 2,
          messages: { format: AMOUNT_FORMAT, below: AMOUNT_FORMAT, above: LARGEST_TOP_UP },
        })
      : { ok: false as const, message: ENTER_AMOUNT };
    if (read.ok) return Number(read.nanos / NANOS_PER_CENT);
    ctx.addIssue({ code: "custom", message: read.message });
    return z.NEVER;
  })
  .pipe(topUpCentsSchema);

export type ParsedAmount = { ok: true; cents: number } | { ok: false; error: string };

export function parseTopUpAmount(input: unknown): ParsedAmount {
  const parsed = topUpAmountSchema.safeParse(input);
  return parsed.success ? { ok: true, cents: parsed.data } : { ok: false, error: parsed.error.issues[0]!.message };
}

const startTopUpSchema = z.object({
  orgId: z.uuid(),
  userId: z.uuid(),
  amountCents: topUpCentsSchema,
  /** The app's own origin, for the success and cancel URLs. */
  origin: z.url({ protocol: /^https?$/ }).transform((url) => new URL(url).origin),
  /**
   * Identifies one purchase attempt (e.g. a token rendered into the form), so
   * a double submit opens the same session; a fresh one per call otherwise.
   */
  requestKey: z.string().regex(/^[A-Za-z0-9_-]{8,100}$/).optional(),
  ip: z.string().max(100).nullish(),
});

export type StartTopUpInput = z.input<typeof startTopUpSchema>;

export async function startTopUp(db: PrismaClient, stripe: Stripe, input: StartTopUpInput): Promise<{ sessionId: string; url: string }> {
  const parsed = startTopUpSchema.safeParse(input);
  if (!parsed.success) throw new DomainError("invalid_top_up", parsed.error.issues[0]!.message);
  const { orgId, userId, amountCents, origin } = parsed.data;
  const org = await db.organization.findUnique({ where: { id: orgId }, select: { name: true } });
  if (!org) throw new DomainError("unknown_organization", `No organization with id ${orgId}.`);

  const idempotencyKey = `topup:${orgId}:${userId}:${amountCents}:${parsed.data.requestKey ?? randomUUID()}`;
  const session = await createCheckoutSession(stripe, { orgId, userId, orgName: org.name, amountCents, origin, idempotencyKey });
  if (!session.url) {
    throw new DomainError("checkout_closed", "This payment was already completed or has expired. Please start a new one.");
  }
  await recordCheckoutStarted(db, { sessionId: session.id, orgId, userId, amountCents, ip: parsed.data.ip ?? null });
  return { sessionId: session.id, url: session.url };
}

async function createCheckoutSession(
  stripe: Stripe,
  p: { orgId: string; userId: string; orgName: string; amountCents: number; origin: string; idempotencyKey: string },
): Promise<Stripe.Checkout.Session> {
  const metadata = { org_id: p.orgId, user_id: p.userId };
  return callStripe(
    "creating a Checkout Session",
    () =>
      stripe.checkout.sessions.create(
        {
          mode: "payment",
          success_url: `${p.origin}/billing/success?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${p.origin}/billing?canceled=1`,
          client_reference_id: p.orgId,
          metadata,
          payment_intent_data: { metadata },
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: "usd",
                unit_amount: p.amountCents,
                product_data: {
                  name: "API credits",
                  description: `${formatCents(p.amountCents)} of prepaid API credits for ${p.orgName.slice(0, 200)}`,
                },
              },
            },
          ],
        },
        { idempotencyKey: p.idempotencyKey },
      ),
    "The payment service could not start the payment. Please try again in a moment.",
  );
}

async function recordCheckoutStarted(
  db: PrismaClient,
  s: { sessionId: string; orgId: string; userId: string; amountCents: number; ip: string | null },
): Promise<void> {
  await db.$transaction(async (tx) => {
    // The same idempotency key returns the same session: record it once.
    const { count } = await tx.stripeCheckoutSession.createMany({
      data: [{ id: s.sessionId, orgId: s.orgId, userId: s.userId, amountCents: s.amountCents, currency: "usd" }],
      skipDuplicates: true,
    });
    if (count === 0) return;
    await recordAudit(tx, {
      action: "credits.checkout_started",
      orgId: s.orgId,
      actorUserId: s.userId,
      ip: s.ip,
      targetType: "stripe_checkout_session",
      targetId: s.sessionId,
      details: { amount_cents: s.amountCents, amount: formatCents(s.amountCents) },
    });
  });
}

export interface TopUpStatus {
  sessionId: string;
  status: "OPEN" | "PROCESSING" | "PAID" | "FAILED" | "EXPIRED" | "REFUNDED" | "HELD";
  amountCents: number;
  credited: boolean;
  creditedAt: Date | null;
  refundedCents: number;
  receiptUrl: string | null;
  createdAt: Date;
}

const sessionIdSchema = z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/);

/** A session of this organization, for the success page to poll; null for anything else. */
export async function topUpStatus(db: DbClient, orgId: string, sessionId: string): Promise<TopUpStatus | null> {
  if (!z.uuid().safeParse(orgId).success || !sessionIdSchema.safeParse(sessionId).success) return null;
  const row = await db.stripeCheckoutSession.findFirst({ where: { id: sessionId, orgId } });
  if (!row) return null;
  return {
    sessionId: row.id,
    status: row.status,
    amountCents: row.amountCents,
    credited: row.creditedAt !== null,
    creditedAt: row.creditedAt,
    refundedCents: row.refundedCents,
    receiptUrl: row.receiptUrl,
    createdAt: row.createdAt,
  };
}

/**
 * Payments held back (not credited), oldest first, whichever their source:
 * another amount or currency than the Checkout Session or auto-recharge we
 * created, or a closed organization. An auto-recharge's reason is its
 * failure message.
 */
export async function heldPayments(db: DbClient) {
  const organization = { select: { name: true } };
  const [sessions, attempts] = await Promise.all([
    db.stripeCheckoutSession.findMany({
      where: { status: "HELD" },
      select: { id: true, orgId: true, amountCents: true, currency: true, heldReason: true, paymentIntentId: true, createdAt: true, organization },
    }),
    db.autoRechargeAttempt.findMany({
      where: { status: "HELD" },
      select: { id: true, orgId: true, amountCents: true, currency: true, failureMessage: true, paymentIntentId: true, createdAt: true, organization },
    }),
  ]);
  return [
    ...sessions.map((row) => ({ source: "checkout" as const, ...row })),
    ...attempts.map(({ failureMessage, ...row }) => ({ source: "auto_recharge" as const, ...row, heldReason: failureMessage })),
  ].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}
