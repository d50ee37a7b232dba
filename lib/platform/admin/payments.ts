import { z } from "zod";
import type { Principal } from "@/lib/auth/session";
import { billingConfig, type BillingConfig } from "@/lib/billing/stripe";
import type { DbClient, Prisma } from "@/lib/db";
import type { CheckoutStatus } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/utils/uuid";
import { requirePlatformAdmin } from "./access";

/**
 * The console's Payments page: every Stripe Checkout session with where it
 * stands, searchable by organization (name or id), Checkout Session id
 * (cs_…), PaymentIntent id (pi_…), charge id (ch_…) or Stripe event id
 * (evt_…); and what needs a person: webhook deliveries that keep failing
 * (`stripe_event_failures`, written by lib/billing/webhook) and payments
 * held back (paid, but not as the checkout or auto-recharge was created, or
 * for a closed organization; never credited), whichever their source.
 *
 * An event id is found through the audit log: every webhook event that moved
 * money or changed a payment's outcome (credited, held, failed, refunded,
 * disputed, unmatched) wrote an entry naming the session with the event's id
 * in its details. Events that changed nothing of the sort (an expiry, a
 * completion still processing) are recorded only in `stripe_events`, which
 * does not name the session, so they are not found.
 */

export const PAYMENTS_PAGE_SIZE = 50;
/** How many rows of each kind "Needs attention" lists (the counts are complete). */
export const ATTENTION_ROWS = 20;

export type PaymentState = "credited" | "pending" | "failed" | "expired" | "refunded" | "disputed" | "held";

const STATE_LABELS: Record<PaymentState, string> = {
  credited: "Credited",
  pending: "Pending",
  failed: "Failed",
  expired: "Expired",
  refunded: "Refunded",
  disputed: "Disputed",
  held: "Held back",
};

interface SessionFacts {
  status: CheckoutStatus;
  amountCents: number;
  creditedAt: Date | null;
  refundedCents: number;
  takenBackCents: number;
}

/**
 * Where a payment stands, in one word and a detail. A dispute shows as more
 * taken back than the refunds account for; a partial refund leaves it
 * credited.
 */
export function paymentState(row: SessionFacts): { state: PaymentState; label: string; detail: string | null } {
  const state = ((): PaymentState => {
    if (row.status === "HELD") return "held";
    if (row.takenBackCents > Math.min(row.refundedCents, row.creditedAt ? row.amountCents : 0)) return "disputed";
    if (row.status === "REFUNDED" || (row.refundedCents > 0 && row.refundedCents >= row.amountCents)) return "refunded";
    if (row.status === "PAID") return "credited";
    if (row.status === "OPEN" || row.status === "PROCESSING") return "pending";
    return row.status === "FAILED" ? "failed" : "expired";
  })();
  let detail: string | null = null;
  if (state === "pending") detail = row.status === "OPEN" ? "checkout open" : "payment processing";
  else if (state === "credited" && row.refundedCents > 0) detail = "partly refunded";
  return { state, label: state === "credited" && row.refundedCents > 0 ? "Partly refunded" : STATE_LABELS[state], detail };
}

/**
 * The payment on Stripe's dashboard, when the app talks to the real Stripe
 * (STRIPE_SECRET_KEY, which wins over STRIPE_MOCK_URL in billingConfig): a
 * test key's payments are under /test/. Null for the local mock, when billing
 * is not configured, or before Stripe named a PaymentIntent.
 */
export function stripeDashboardUrl(paymentIntentId: string | null, config: BillingConfig = billingConfig()): string | null {
  if (!paymentIntentId || !config.configured || config.mode === "mock") return null;
  if (!/^pi_[A-Za-z0-9_]+$/.test(paymentIntentId)) return null;
  const test = config.mode === "test" || config.secretKey.startsWith("sk_test_") || config.secretKey.startsWith("rk_test_");
  return `https://dashboard.stripe.com/${test ? "test/" : ""}payments/${paymentIntentId}`;
}

/** A query string's values: anything odd means "no search" and "the first page", never an error page. */
const listInput = z.object({
  q: z
    .string()
    .catch("")
    .transform((q) => q.trim().slice(0, 200)),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

const sessionInclude = { organization: { select: { id: true, name: true, closedAt: true } } } satisfies Prisma.StripeCheckoutSessionInclude;
type SessionWithOrg = Prisma.StripeCheckoutSessionGetPayload<{ include: typeof sessionInclude }>;
type AttemptWithOrg = Prisma.AutoRechargeAttemptGetPayload<{ include: typeof sessionInclude }>;

/** Where a payment comes from: a top-up bought through Checkout, or an auto-recharge's charge of the saved card. */
export type PaymentSourceKind = "checkout" | "auto_recharge";

/** An auto-recharge's status in a Checkout Session's words: paid is credited, pending is processing. */
const ATTEMPT_STATUS = { PENDING: "PROCESSING", SUCCEEDED: "PAID", FAILED: "FAILED", HELD: "HELD", REFUNDED: "REFUNDED" } as const satisfies Record<AttemptWithOrg["status"], CheckoutStatus>;

/** An auto-recharge attempt as a payment of the list: its held reason is its failure message. */
function attemptView(row: AttemptWithOrg, config: BillingConfig) {
  return paymentView({ ...row, userId: null, status: ATTEMPT_STATUS[row.status], heldReason: row.status === "HELD" ? row.failureMessage : null }, config, "auto_recharge");
}

function paymentView(row: SessionWithOrg, config: BillingConfig, source: PaymentSourceKind = "checkout") {
  return {
    id: row.id,
    source,
    org: { id: row.organization.id, name: row.organization.name, closed: row.organization.closedAt !== null },
    amountCents: row.amountCents,
    currency: row.currency,
    status: row.status,
    ...paymentState(row),
    heldReason: row.heldReason,
    paymentIntentId: row.paymentIntentId,
    chargeId: row.chargeId,
    receiptUrl: row.receiptUrl,
    createdAt: row.createdAt,
    creditedAt: row.creditedAt,
    refundedCents: row.refundedCents,
    takenBackCents: row.takenBackCents,
    stripeUrl: stripeDashboardUrl(row.paymentIntentId, config),
  };
}

export type PaymentView = ReturnType<typeof paymentView>;

/** The sessions a search names; an empty search names them all. */
async function searchWhere(db: DbClient, q: string): Promise<Prisma.StripeCheckoutSessionWhereInput> {
  if (!q) return {};
  const or: Prisma.StripeCheckoutSessionWhereInput[] = [
    { id: q },
    { paymentIntentId: q },
    { chargeId: q },
    { organization: { name: { contains: q, mode: "insensitive" } } },
  ];
  if (isUuid(q)) or.push({ orgId: q.toLowerCase() });
  if (q.startsWith("evt_")) {
    const entries = await db.auditLog.findMany({
      where: { targetType: "stripe_checkout_session", details: { path: ["event_id"], equals: q } },
      select: { targetId: true },
      take: 100,
    });
    const ids = [...new Set(entries.map((e) => e.targetId).filter((id): id is string => id !== null))];
    if (ids.length) or.push({ id: { in: ids } });
  }
  return { OR: or };
}

/** One page of payments, newest first, with the search applied. `input`: `{ q?, page? }` as the page's query string gives them. */
export async function listPayments(db: DbClient, principal: Principal | null, input: unknown) {
  await requirePlatformAdmin(db, principal);
  const { q, page } = listInput.parse(input ?? {});
  const where = await searchWhere(db, q);
  const [total, rows] = await Promise.all([
    db.stripeCheckoutSession.count({ where }),
    db.stripeCheckoutSession.findMany({
      where,
      include: sessionInclude,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * PAYMENTS_PAGE_SIZE,
      take: PAYMENTS_PAGE_SIZE,
    }),
  ]);
  const config = billingConfig();
  const pages = Math.max(1, Math.ceil(total / PAYMENTS_PAGE_SIZE));
  return {
    query: { q, page },
    total,
    pages,
    payments: rows.map((row) => paymentView(row, config)),
    /** Where the Stripe links go, for the page to say: "live", "test", "mock", or null when billing is not configured. */
    stripeMode: config.configured ? config.mode : null,
  };
}

export type PaymentsPage = Awaited<ReturnType<typeof listPayments>>;

/**
 * What needs a person: webhook deliveries that failed and have not been
 * processed since (Stripe retries them for up to three days), and payments
 * held back. Counts are complete; up to ATTENTION_ROWS rows of each, newest
 * first.
 *
 * This does NOT check who is asking: call it only after requirePlatformAdmin
 * (the Payments page and the console's overview do). It takes no principal
 * for that reason, and so that one check serves a whole page.
 */
export async function paymentsNeedingAttention(db: DbClient) {
  const held = { where: { status: "HELD" as const }, include: sessionInclude, orderBy: [{ createdAt: "desc" as const }, { id: "desc" as const }], take: ATTENTION_ROWS };
  const [failedCount, failed, heldSessionCount, heldSessions, heldAttemptCount, heldAttempts] = await Promise.all([
    db.stripeEventFailure.count({ where: { resolvedAt: null } }),
    db.stripeEventFailure.findMany({ where: { resolvedAt: null }, orderBy: [{ lastFailedAt: "desc" }, { eventId: "asc" }], take: ATTENTION_ROWS }),
    db.stripeCheckoutSession.count({ where: held.where }),
    db.stripeCheckoutSession.findMany(held),
    db.autoRechargeAttempt.count({ where: held.where }),
    db.autoRechargeAttempt.findMany(held),
  ]);
  const config = billingConfig();
  const heldCount = heldSessionCount + heldAttemptCount;
  const heldRows = [...heldSessions.map((row) => paymentView(row, config)), ...heldAttempts.map((row) => attemptView(row, config))]
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
    .slice(0, ATTENTION_ROWS);
  return {
    total: failedCount + heldCount,
    failedEvents: {
      count: failedCount,
      rows: failed.map((f) => ({
        eventId: f.eventId,
        type: f.type,
        error: f.error,
        attempts: f.attempts,
        firstFailedAt: f.firstFailedAt,
        lastFailedAt: f.lastFailedAt,
      })),
    },
    heldPayments: { count: heldCount, rows: heldRows },
  };
}

export type PaymentsAttention = Awaited<ReturnType<typeof paymentsNeedingAttention>>;

/** The Payments page: the admin check, then what needs attention and the page of payments. */
export async function paymentsPage(db: DbClient, principal: Principal | null, input: unknown) {
  const list = await listPayments(db, principal, input);
  return { ...list, attention: await paymentsNeedingAttention(db) };
}
