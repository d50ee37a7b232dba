import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/lib/auth/accounts";
import { ensureDefaultPlans } from "@/lib/billing/plans";
import { handleStripeWebhook } from "@/lib/billing/webhook";
import type { Database, PrismaClient } from "@/lib/db";
import type { Principal } from "@/lib/auth/session";
import { openTestDatabase } from "@/tests/support/database";
import { signUp } from "../accounts";
import { createOrganization } from "../organizations";
import { listPayments, paymentsNeedingAttention, paymentsPage, paymentState, stripeDashboardUrl } from "./payments";

let db: Database;
let prisma: PrismaClient;
let admin: Principal;
let owner: Principal;
let acme: string;
let borealis: string;

const secret = `whsec_${randomBytes(24).toString("hex")}`;

beforeAll(async () => {
  db = await openTestDatabase();
  prisma = db.prisma;
  await ensureDefaultPlans(prisma);
  const customer = await signUp(prisma, { email: "owner@customer.test", password: "a customer password" }, "198.51.100.1");
  owner = { userId: customer.user.id };
  const user = await createUser(prisma, { email: "ops@platform.test", password: "an operator password" });
  await prisma.user.update({ where: { id: user.id }, data: { isPlatformAdmin: true } });
  admin = { userId: user.id, ip: "203.0.113.9" };
  acme = (await createOrganization(prisma, { name: "Acme Analytics", plan: "retail" }, { actorLabel: "test" })).id;
  borealis = (await createOrganization(prisma, { name: "Borealis Capital", plan: "retail" }, { actorLabel: "test" })).id;

  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
  await prisma.stripeCheckoutSession.createMany({
    data: [
      { id: "cs_test_acme_1", orgId: acme, amountCents: 2_000, status: "PAID", paymentIntentId: "pi_acme_1", chargeId: "ch_acme_1", creditedAt: at(59), createdAt: at(60) },
      { id: "cs_test_acme_2", orgId: acme, amountCents: 5_000, status: "OPEN", createdAt: at(30) },
      { id: "cs_test_bor_1", orgId: borealis, amountCents: 10_000, status: "PROCESSING", paymentIntentId: "pi_bor_1", createdAt: at(20) },
      { id: "cs_test_bor_held", orgId: borealis, amountCents: 2_500, status: "HELD", heldReason: "amount 9900 cents, expected 2500", paymentIntentId: "pi_bor_held", createdAt: at(10) },
    ],
  });
}, 120_000);
afterAll(() => db?.close());

const ids = (page: { payments: { id: string }[] }) => page.payments.map((p) => p.id);

describe("who may see payments", () => {
  it("refuses a customer's owner and a signed-out caller as an unknown path", async () => {
    for (const principal of [owner, null, { userId: "not-a-uuid" }]) {
      await expect(listPayments(prisma, principal, {})).rejects.toMatchObject({ code: "not_found" });
      await expect(paymentsPage(prisma, principal, {})).rejects.toMatchObject({ code: "not_found" });
    }
  });
});

describe("searching payments", () => {
  it("lists every session newest first, and finds them by organization name or id, session, PaymentIntent or charge id", async () => {
    expect(ids(await listPayments(prisma, admin, {}))).toEqual(["cs_test_bor_held", "cs_test_bor_1", "cs_test_acme_2", "cs_test_acme_1"]);
    expect(ids(await listPayments(prisma, admin, { q: "acme" }))).toEqual(["cs_test_acme_2", "cs_test_acme_1"]);
    expect(ids(await listPayments(prisma, admin, { q: "  BOREALIS cap " }))).toEqual(["cs_test_bor_held", "cs_test_bor_1"]);
    expect(ids(await listPayments(prisma, admin, { q: borealis.toUpperCase() }))).toEqual(["cs_test_bor_held", "cs_test_bor_1"]);
    expect(ids(await listPayments(prisma, admin, { q: "cs_test_acme_1" }))).toEqual(["cs_test_acme_1"]);
    expect(ids(await listPayments(prisma, admin, { q: "pi_bor_1" }))).toEqual(["cs_test_bor_1"]);
    expect(ids(await listPayments(prisma, admin, { q: "ch_acme_1" }))).toEqual(["cs_test_acme_1"]);
    const none = await listPayments(prisma, admin, { q: "evt_nothing_like_it" });
    expect(none).toMatchObject({ total: 0, pages: 1, payments: [] });
    // Odd query strings are no search and the first page, not an error.
    expect((await listPayments(prisma, admin, { q: ["a", "b"], page: "-3" })).query).toEqual({ q: "", page: 1 });
  });

  it("says where each payment stands, with exact amounts and the organization", async () => {
    const page = await listPayments(prisma, admin, { q: "" });
    const byId = new Map(page.payments.map((p) => [p.id, p]));
    expect(byId.get("cs_test_acme_1")).toMatchObject({ state: "credited", label: "Credited", amountCents: 2_000, org: { id: acme, name: "Acme Analytics" } });
    expect(byId.get("cs_test_acme_2")).toMatchObject({ state: "pending", detail: "checkout open" });
    expect(byId.get("cs_test_bor_1")).toMatchObject({ state: "pending", detail: "payment processing" });
    expect(byId.get("cs_test_bor_held")).toMatchObject({ state: "held", label: "Held back", heldReason: "amount 9900 cents, expected 2500" });

    const credited = { status: "PAID" as const, amountCents: 2_000, creditedAt: new Date() };
    expect(paymentState({ ...credited, refundedCents: 500, takenBackCents: 500 })).toMatchObject({ state: "credited", label: "Partly refunded" });
    expect(paymentState({ ...credited, status: "REFUNDED", refundedCents: 2_000, takenBackCents: 2_000 }).state).toBe("refunded");
    expect(paymentState({ ...credited, refundedCents: 0, takenBackCents: 2_000 }).state).toBe("disputed");
    expect(paymentState({ ...credited, refundedCents: 500, takenBackCents: 2_000 }).state).toBe("disputed");
    expect(paymentState({ ...credited, status: "FAILED", creditedAt: null, refundedCents: 0, takenBackCents: 0 }).state).toBe("failed");
    expect(paymentState({ ...credited, status: "EXPIRED", creditedAt: null, refundedCents: 0, takenBackCents: 0 }).state).toBe("expired");
  });

  it("pages by 50, newest first", async () => {
    const org = (await createOrganization(prisma, { name: "Paging Partners", plan: "retail" }, { actorLabel: "test" })).id;
    const base = Date.now() - 86_400_000;
    await prisma.stripeCheckoutSession.createMany({
      data: Array.from({ length: 55 }, (_, i) => ({ id: `cs_test_page_${String(i).padStart(2, "0")}`, orgId: org, amountCents: 1_000 + i, createdAt: new Date(base + i * 1_000) })),
    });
    const first = await listPayments(prisma, admin, { q: "paging" });
    expect(first).toMatchObject({ total: 55, pages: 2 });
    expect(first.payments).toHaveLength(50);
    expect(first.payments[0]!.id).toBe("cs_test_page_54");
    const second = await listPayments(prisma, admin, { q: "paging", page: "2" });
    expect(ids(second)).toEqual(["cs_test_page_04", "cs_test_page_03", "cs_test_page_02", "cs_test_page_01", "cs_test_page_00"]);
  });

  it("links to Stripe's dashboard only for the real Stripe, under /test/ for a test key", () => {
    const live = { configured: true as const, mode: "live" as const, secretKey: "sk_live_x", webhookSecret: secret };
    expect(stripeDashboardUrl("pi_123", live)).toBe("https://dashboard.stripe.com/payments/pi_123");
    expect(stripeDashboardUrl("pi_123", { ...live, mode: "test", secretKey: "sk_test_x" })).toBe("https://dashboard.stripe.com/test/payments/pi_123");
    expect(stripeDashboardUrl("pi_123", { ...live, mode: "mock", secretKey: "sk_test_stripe_mock", mockUrl: new URL("http://127.0.0.1:12111") })).toBeNull();
    expect(stripeDashboardUrl("pi_123", { configured: false, reason: "not set up" })).toBeNull();
    expect(stripeDashboardUrl(null, live)).toBeNull();
  });
});

describe("webhook deliveries that fail", () => {
  const charge = { id: "ch_late_1", object: "charge", amount: 3_000, amount_refunded: 3_000, payment_intent: "pi_late_1", receipt_url: null };
  const event = { id: `evt_${randomBytes(8).toString("hex")}`, object: "event", type: "charge.refunded", data: { object: charge } };
  const payload = JSON.stringify(event);

  /** Stripe's API as the webhook sees it: down, or knowing the session of the charge (which the app never recorded). */
  const stripeDown = { checkout: { sessions: { list: async () => Promise.reject(new Error("connect ECONNREFUSED api.stripe.com")) } } } as unknown as Stripe;
  const stripeUp = {
    checkout: {
      sessions: {
        list: async () => ({
          data: [
            {
              id: "cs_test_late_1",
              object: "checkout.session",
              mode: "payment",
              amount_total: 3_000,
              currency: "usd",
              payment_status: "paid",
              payment_intent: "pi_late_1",
              metadata: { org_id: acme, user_id: "" },
            },
          ],
        }),
      },
    },
  } as unknown as Stripe;

  async function deliver(body: string, stripe: Stripe) {
    const request = new Request("http://app.test/api/stripe/webhook", {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload: body, secret }) },
      body,
    });
    const response = await handleStripeWebhook(request, { db: prisma, stripe, webhookSecret: secret });
    return { status: response.status, body: (await response.json()) as { outcome?: string } };
  }

  const failure = () => prisma.stripeEventFailure.findUnique({ where: { eventId: event.id } });

  it("records each failed delivery (attempts, the last error, no stack) and shows it as needing attention until one goes through", async () => {
    expect((await deliver(payload, stripeDown)).status).toBe(500);
    expect(await failure()).toMatchObject({ type: "charge.refunded", attempts: 1, error: "connect ECONNREFUSED api.stripe.com", resolvedAt: null });
    const firstFailedAt = (await failure())!.firstFailedAt;

    expect((await deliver(payload, stripeDown)).status).toBe(500);
    expect(await failure()).toMatchObject({ attempts: 2, resolvedAt: null, firstFailedAt });
    expect((await failure())!.error).not.toMatch(/\n|\sat\s/);

    const attention = await paymentsNeedingAttention(prisma);
    expect(attention.failedEvents.count).toBe(1);
    expect(attention.failedEvents.rows).toEqual([expect.objectContaining({ eventId: event.id, attempts: 2, type: "charge.refunded" })]);
    expect(attention.heldPayments.rows.map((p) => p.id)).toEqual(["cs_test_bor_held"]);
    expect(attention.total).toBe(2);
    expect((await paymentsPage(prisma, admin, {})).attention).toEqual(attention);

    // Stripe retries; this time its API answers.
    expect(await deliver(payload, stripeUp)).toMatchObject({ status: 200, body: { outcome: "processed" } });
    const resolved = await failure();
    expect(resolved).toMatchObject({ attempts: 2 });
    expect(resolved!.resolvedAt).toBeInstanceOf(Date);
    expect((await paymentsNeedingAttention(prisma)).failedEvents).toEqual({ count: 0, rows: [] });

    // The payment it was about: credited, then refunded in full; found by the event's id.
    const found = await listPayments(prisma, admin, { q: event.id });
    expect(found.payments).toEqual([expect.objectContaining({ id: "cs_test_late_1", state: "refunded", refundedCents: 3_000, takenBackCents: 3_000, org: expect.objectContaining({ id: acme }) })]);

    // A redelivery is a duplicate and leaves the resolution alone.
    expect(await deliver(payload, stripeUp)).toMatchObject({ status: 200, body: { outcome: "duplicate" } });
    expect((await failure())!.resolvedAt).toEqual(resolved!.resolvedAt);
  });

  it("resolves a failure when the event turns out to be processed already (a duplicate)", async () => {
    await prisma.stripeEventFailure.create({ data: { eventId: event.id.replace("evt_", "evt_dup_"), type: "charge.refunded", error: "timeout" } });
    const duplicate = { ...event, id: event.id.replace("evt_", "evt_dup_") };
    await prisma.stripeEvent.create({ data: { id: duplicate.id, type: duplicate.type } });
    expect(await deliver(JSON.stringify(duplicate), stripeDown)).toMatchObject({ status: 200, body: { outcome: "duplicate" } });
    expect((await prisma.stripeEventFailure.findUniqueOrThrow({ where: { eventId: duplicate.id } })).resolvedAt).toBeInstanceOf(Date);
  });

  it("records an event whose object is not what its type says (400: Stripe retries it too)", async () => {
    const bad = { id: `evt_${randomBytes(8).toString("hex")}`, object: "event", type: "charge.refunded", data: { object: { id: "ch_x", object: "customer" } } };
    expect((await deliver(JSON.stringify(bad), stripeDown)).status).toBe(400);
    expect(await prisma.stripeEventFailure.findUnique({ where: { eventId: bad.id } })).toMatchObject({ attempts: 1, error: expect.stringMatching(/^Unexpected charge\.refunded object/) });
  });
});
