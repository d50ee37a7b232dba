import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createUser } from "@/lib/auth/accounts";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { startTopUp, topUpStatus } from "./checkout";
import { ledgerTotals } from "./ledger";
import { centsToNanos, parseDollars } from "@/lib/money";
import { startStripeMock, type StripeMock } from "@/tools/stripe-mock/server";
import { handleStripeWebhook } from "./webhook";

/**
 * The webhook against the Stripe mock's real event payloads (the mock has no
 * webhook URL here: the tests deliver its events themselves, in the orders
 * and numbers they choose).
 */
const secret = `whsec_${randomBytes(24).toString("hex")}`;
let t: Testbed;
let mock: StripeMock;
let stripe: Stripe;
let userId: string;

beforeAll(async () => {
  t = await openApiTestbed({ tickerCount: 5 });
  mock = await startStripeMock({ port: 0, webhookSecret: secret, asyncDelayMs: 10 });
  stripe = new Stripe("sk_test_webhook_tests", { host: "127.0.0.1", port: mock.port, protocol: "http", maxNetworkRetries: 0 });
  userId = (await createUser(t.prisma, { email: `buyer-${randomBytes(4).toString("hex")}@example.com` })).id;
}, 120_000);
afterAll(async () => {
  await mock?.close();
  await t?.close();
});

const dollars = (text: string) => parseDollars(text);

function webhookRequest(payload: string, signature: string | null = Stripe.webhooks.generateTestHeaderString({ payload, secret })) {
  const headers = new Headers({ "content-type": "application/json" });
  if (signature !== null) headers.set("stripe-signature", signature);
  return new Request("http://app.test/api/stripe/webhook", { method: "POST", headers, body: payload });
}

async function deliver(payload: string, signature?: string | null) {
  const response = await handleStripeWebhook(webhookRequest(payload, signature), { db: t.prisma, stripe, webhookSecret: secret });
  return { status: response.status, body: (await response.json()) as { outcome?: string; error?: { message: string } } };
}

async function control<T = Record<string, unknown>>(path: string, body: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`${mock.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const payload = (eventId: string) => mock.events().find((e) => e.id === eventId)!.payload;
const eventFor = (type: string, id: string) => mock.events().find((e) => e.type === type && e.payload.includes(id))!;

type Paid = { event: string; payment_intent: { id: string; latest_charge: { id: string } } };

/** A top-up started by the app and paid at the mock; its events are not delivered yet. */
async function buy(orgId: string, cents: number, options: { method?: "card" | "bank_transfer"; asyncOutcome?: "succeeded" | "failed" } = {}) {
  const { sessionId } = await startTopUp(t.prisma, stripe, { orgId, userId, amountCents: cents, origin: "http://app.test" });
  const paid = await control<Paid>(`/_mock/checkout/sessions/${sessionId}/pay`, { method: options.method ?? "card", async_outcome: options.asyncOutcome ?? "succeeded" });
  await mock.settled();
  return { sessionId, completed: paid.event, chargeId: paid.payment_intent.latest_charge.id, paymentIntentId: paid.payment_intent.id };
}

const refund = async (chargeId: string, amount?: number) => (await control<{ event: string }>(`/_mock/charges/${chargeId}/refund`, amount ? { amount } : {})).event;
const openDispute = async (chargeId: string, amount?: number) =>
  control<{ event: string; dispute: { id: string } }>(`/_mock/charges/${chargeId}/dispute`, amount ? { amount } : {});

const session = (id: string) => t.prisma.stripeCheckoutSession.findUniqueOrThrow({ where: { id } });
const ledger = (orgId: string) => t.prisma.creditLedgerEntry.findMany({ where: { orgId }, orderBy: { id: "asc" } });
const eventRows = (ids: string[]) => t.prisma.stripeEvent.count({ where: { id: { in: ids } } });

async function expectConsistent(orgId: string, balance: bigint) {
  expect(await ledgerTotals(t.prisma, orgId)).toEqual({ ledgerSumNanos: balance, balanceNanos: balance });
}

describe("the webhook's door", () => {
  it("refuses a missing, foreign or stale signature and a tampered body with 400, and changes nothing", async () => {
    const org = await t.org({ dollars: "0" });
    const { sessionId, completed } = await buy(org.id, 2_000);
    const body = payload(completed);
    const tampered = body.replace('"amount_total": 2000', '"amount_total": 999900');
    expect(tampered).not.toBe(body);

    const attempts = [
      await deliver(body, null),
      await deliver(body, Stripe.webhooks.generateTestHeaderString({ payload: body, secret: `whsec_${"0".repeat(32)}` })),
      await deliver(body, Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: Math.floor(Date.now() / 1000) - 3600 })),
      await deliver(tampered, Stripe.webhooks.generateTestHeaderString({ payload: body, secret })),
      await deliver(body, "t=1,v1=deadbeef"),
    ];
    expect(attempts.map((a) => a.status)).toEqual([400, 400, 400, 400, 400]);
    expect(await eventRows([completed])).toBe(0);
    expect(await t.balance(org.id)).toBe(0n);
    expect((await session(sessionId)).status).toBe("OPEN");

    expect((await deliver(body)).status).toBe(200);
    expect(await t.balance(org.id)).toBe(dollars("20"));
  });

  it("cuts off an oversized body, even one streamed without a length, with 413", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.byteLength;
        controller.enqueue(chunk); // never closes: only the cut-off ends this
      },
    });
    const request = new Request("http://app.test/api/stripe/webhook", { method: "POST", headers: { "stripe-signature": "t=1,v1=x" }, body: endless, duplex: "half" } as RequestInit);
    const response = await handleStripeWebhook(request, { db: t.prisma, stripe, webhookSecret: secret });
    expect(response.status).toBe(413);
    expect(sent).toBeLessThan(2_000_000);
  });

  it("answers 503 when billing is not configured, with no fallback secret", async () => {
    const body = JSON.stringify({ id: "evt_x", type: "checkout.session.completed", data: { object: {} } });
    const injected = await handleStripeWebhook(webhookRequest(body), { config: { configured: false, reason: "test" } });
    expect(injected.status).toBe(503);

    vi.stubEnv("STRIPE_SECRET_KEY", "");
    vi.stubEnv("STRIPE_MOCK_URL", "");
    vi.stubEnv("STRIPE_WEBHOOK_SECRET", "");
    try {
      expect((await handleStripeWebhook(webhookRequest(body))).status).toBe(503);
      vi.stubEnv("STRIPE_MOCK_URL", mock.url);
      expect((await handleStripeWebhook(webhookRequest(body))).status).toBe(503); // the mock without a secret
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("acknowledges events it does not use and records nothing", async () => {
    const body = JSON.stringify({ id: `evt_${randomBytes(8).toString("hex")}`, object: "event", type: "customer.created", data: { object: { id: "cus_1", object: "customer" } } });
    const result = await deliver(body);
    expect(result).toMatchObject({ status: 200, body: { outcome: "ignored" } });
    expect(await eventRows([JSON.parse(body).id])).toBe(0);
  });

  it("answers 400 to a signed event whose object is not what its type says, and records nothing", async () => {
    const id = `evt_${randomBytes(8).toString("hex")}`;
    const body = JSON.stringify({ id, object: "event", type: "charge.refunded", data: { object: { id: "ch_1", object: "charge", amount: "lots" } } });
    expect((await deliver(body)).status).toBe(400);
    expect(await eventRows([id])).toBe(0);
  });
});

describe("crediting a top-up", () => {
  it("credits a paid session once, with its receipt, ledger entry and audit entry", async () => {
    const org = await t.org({ dollars: "0" });
    const other = await t.org({ dollars: "0" });
    const { sessionId, completed, chargeId } = await buy(org.id, 2_000);
    expect(await topUpStatus(t.prisma, org.id, sessionId)).toMatchObject({ status: "OPEN", credited: false });

    expect((await deliver(payload(completed))).body.outcome).toBe("processed");
    expect((await deliver(payload(completed))).body.outcome).toBe("duplicate");

    expect(await t.balance(org.id)).toBe(dollars("20"));
    const entries = await ledger(org.id);
    expect(entries.map((e) => [e.kind, e.amountNanos, e.idempotencyKey])).toEqual([["TOPUP", dollars("20"), `checkout:${sessionId}`]]);
    const row = await session(sessionId);
    expect(row).toMatchObject({ status: "PAID", chargeId, receiptUrl: `${mock.url}/receipts/${chargeId}`, refundedCents: 0 });
    expect(row.creditedAt).toBeInstanceOf(Date);
    expect(await topUpStatus(t.prisma, org.id, sessionId)).toMatchObject({ status: "PAID", credited: true, amountCents: 2_000 });
    expect(await topUpStatus(t.prisma, other.id, sessionId)).toBeNull();
    const audit = await t.prisma.auditLog.findMany({ where: { orgId: org.id, action: "credits.purchased" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorLabel: "stripe", targetId: sessionId });
    await expectConsistent(org.id, dollars("20"));
  });

  it("waits for a bank transfer: processing, then credited when it succeeds, whichever event comes first", async () => {
    const org = await t.org({ dollars: "0" });
    const first = await buy(org.id, 5_000, { method: "bank_transfer" });
    const succeeded = eventFor("checkout.session.async_payment_succeeded", first.sessionId).id;

    await deliver(payload(first.completed));
    expect((await session(first.sessionId)).status).toBe("PROCESSING");
    expect(await t.balance(org.id)).toBe(0n);
    await deliver(payload(succeeded));
    expect((await session(first.sessionId)).status).toBe("PAID");
    expect(await t.balance(org.id)).toBe(dollars("50"));

    const second = await buy(org.id, 5_000, { method: "bank_transfer" });
    await deliver(payload(eventFor("checkout.session.async_payment_succeeded", second.sessionId).id));
    await deliver(payload(second.completed));
    expect((await session(second.sessionId)).status).toBe("PAID");
    expect(await t.balance(org.id)).toBe(dollars("100"));
    await expectConsistent(org.id, dollars("100"));
  });

  it("records a failed bank transfer as FAILED and credits nothing", async () => {
    const org = await t.org({ dollars: "0" });
    const { sessionId, completed } = await buy(org.id, 5_000, { method: "bank_transfer", asyncOutcome: "failed" });
    await deliver(payload(completed));
    await deliver(payload(eventFor("checkout.session.async_payment_failed", sessionId).id));
    expect((await session(sessionId)).status).toBe("FAILED");
    expect(await t.balance(org.id)).toBe(0n);
    expect(await t.prisma.auditLog.count({ where: { orgId: org.id, action: "credits.payment_failed", actorLabel: "stripe" } })).toBe(1);
  });

  it("records an expired session", async () => {
    const org = await t.org({ dollars: "0" });
    const { sessionId } = await startTopUp(t.prisma, stripe, { orgId: org.id, userId, amountCents: 2_000, origin: "http://app.test" });
    await stripe.checkout.sessions.expire(sessionId);
    await deliver(payload(eventFor("checkout.session.expired", sessionId).id));
    expect((await session(sessionId)).status).toBe("EXPIRED");
    expect(await t.balance(org.id)).toBe(0n);
  });

  it("ignores a session this app did not create", async () => {
    const created = await stripe.checkout.sessions.create({
      mode: "payment",
      success_url: "http://elsewhere.test/ok",
      line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: 900, product_data: { name: "Something else" } } }],
    });
    const paid = await control<Paid>(`/_mock/checkout/sessions/${created.id}/pay`);
    expect((await deliver(payload(paid.event))).body.outcome).toBe("ignored");
    expect(await t.prisma.stripeCheckoutSession.count({ where: { id: created.id } })).toBe(0);
  });

  it("credits a session whose row was never written, from its metadata", async () => {
    const org = await t.org({ dollars: "0" });
    const created = await stripe.checkout.sessions.create({
      mode: "payment",
      success_url: "http://app.test/billing/success",
      metadata: { org_id: org.id, user_id: userId },
      line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: 3_000, product_data: { name: "API credits" } } }],
    });
    const paid = await control<Paid>(`/_mock/checkout/sessions/${created.id}/pay`);
    await deliver(payload(paid.event));
    expect(await session(created.id)).toMatchObject({ orgId: org.id, userId, amountCents: 3_000, status: "PAID" });
    expect(await t.balance(org.id)).toBe(dollars("30"));
  });
});

describe("refunds and disputes", () => {
  it("debits only the increase of the cumulative refunded amount, so late refund events change nothing", async () => {
    const org = await t.org({ dollars: "0" });
    const inOrder = await buy(org.id, 10_000);
    const outOfOrder = await buy(org.id, 10_000);
    await deliver(payload(inOrder.completed));
    await deliver(payload(outOfOrder.completed));

    const a = [await refund(inOrder.chargeId, 3_000), await refund(inOrder.chargeId, 2_000)];
    for (const id of a) await deliver(payload(id));
    expect((await session(inOrder.sessionId)).refundedCents).toBe(5_000);

    const b = [await refund(outOfOrder.chargeId, 3_000), await refund(outOfOrder.chargeId, 2_000), await refund(outOfOrder.chargeId)];
    for (const id of [...b].reverse()) await deliver(payload(id));
    expect(await session(outOfOrder.sessionId)).toMatchObject({ refundedCents: 10_000, status: "REFUNDED" });

    expect(await t.balance(org.id)).toBe(dollars("50"));
    const refunds = (await ledger(org.id)).filter((e) => e.kind === "REFUND").map((e) => e.amountNanos);
    expect(refunds).toEqual([dollars("-30"), dollars("-20"), dollars("-100")]);
    expect(await t.prisma.auditLog.count({ where: { orgId: org.id, action: "credits.refunded" } })).toBe(3);
    await expectConsistent(org.id, dollars("50"));
  });

  it("credits the payment first when its refund arrives before its completion", async () => {
    const org = await t.org({ dollars: "0" });
    const { sessionId, completed, chargeId } = await buy(org.id, 5_000);
    const refunded = await refund(chargeId, 2_000);

    expect((await deliver(payload(refunded))).body.outcome).toBe("processed");
    expect(await session(sessionId)).toMatchObject({ status: "PAID", refundedCents: 2_000, chargeId });
    expect(await t.balance(org.id)).toBe(dollars("30"));

    expect((await deliver(payload(completed))).body.outcome).toBe("processed");
    expect(await t.balance(org.id)).toBe(dollars("30"));
    expect((await ledger(org.id)).map((e) => e.kind)).toEqual(["TOPUP", "REFUND"]);
    await expectConsistent(org.id, dollars("30"));
  });

  it("lets a dispute take the balance below zero, after which every paid request gets 402", async () => {
    const org = await t.org({ dollars: "0" });
    const ticker = (await t.prisma.company.findFirstOrThrow({ orderBy: { ticker: "asc" } })).ticker;
    const { completed, chargeId } = await buy(org.id, 2_000);
    await deliver(payload(completed));
    const spent = await t.request(`/v1/dilution-rating?ticker=${ticker}`, { key: org.key });
    expect(spent.status).toBe(200);
    const cost = parseDollars(spent.headers.get("X-Cost-Dollars")!);
    expect(cost).toBeGreaterThan(0n);

    const dispute = await openDispute(chargeId);
    expect((await deliver(payload(dispute.event))).body.outcome).toBe("processed");
    const balance = dollars("20") - cost - dollars("20");
    expect(balance).toBeLessThan(0n);
    expect(await t.balance(org.id)).toBe(balance);
    expect(await t.prisma.auditLog.count({ where: { orgId: org.id, action: "credits.disputed", actorLabel: "stripe" } })).toBe(1);

    const refused = await t.json(`/v1/dilution-rating?ticker=${ticker}`, { key: org.key });
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe("insufficient_credits");
    expect(await t.balance(org.id)).toBe(balance);
    await expectConsistent(org.id, balance);
  });

  it("gives the credits back when a dispute is won, even if the closing arrives first", async () => {
    const org = await t.org({ dollars: "0" });
    const { completed, chargeId } = await buy(org.id, 2_000);
    const dispute = await openDispute(chargeId);
    const closed = await control<{ event: string }>(`/_mock/disputes/${dispute.dispute.id}/close`, { status: "won" });

    for (const id of [closed.event, dispute.event, completed]) await deliver(payload(id));
    expect(await t.balance(org.id)).toBe(dollars("20"));
    const entries = (await ledger(org.id)).map((e) => [e.kind, e.amountNanos]);
    expect(entries).toEqual([
      ["TOPUP", dollars("20")],
      ["DISPUTE", dollars("-20")],
      ["DISPUTE", dollars("20")],
    ]);
    expect(await t.prisma.auditLog.count({ where: { orgId: org.id, action: "credits.dispute_won" } })).toBe(1);
  });
});

describe("what a payment can take back", () => {
  /** An event of Stripe's shape, edited: what a real account could send that the mock will not produce. */
  const edited = (eventId: string, edit: (event: { id: string; data: { object: Record<string, unknown> } }) => void) => {
    const event = JSON.parse(payload(eventId));
    event.id = `evt_edited_${randomBytes(6).toString("hex")}`;
    edit(event);
    return JSON.stringify(event);
  };

  it("a refund after a dispute of the same payment takes back no more than was paid, in either order", async () => {
    const org = await t.org({ dollars: "0" });
    const { completed, chargeId, sessionId } = await buy(org.id, 2_050);
    await deliver(payload(completed));
    const refunded = await refund(chargeId); // the whole $20.50
    // A dispute of the whole charge as well (the mock, like Stripe, would not open one after a full refund).
    const dispute = await openDisputeOf(chargeId, 2_050);

    expect((await deliver(dispute)).body.outcome).toBe("processed");
    expect((await deliver(payload(refunded))).body.outcome).toBe("processed");
    expect(await t.balance(org.id)).toBe(0n);
    expect(await session(sessionId)).toMatchObject({ takenBackCents: 2_050 });
    const refundAudit = await t.prisma.auditLog.findFirstOrThrow({ where: { orgId: org.id, action: "credits.refunded" } });
    expect(refundAudit.details).toMatchObject({ refunded_cents: 0, not_debited_cents: 2_050 });
    await expectConsistent(org.id, 0n);

    // The other order: refund first, then the dispute finds nothing left to take.
    const other = await t.org({ dollars: "0" });
    const second = await buy(other.id, 2_050);
    await deliver(payload(second.completed));
    await deliver(payload(await refund(second.chargeId, 1_000)));
    await deliver(await openDisputeOf(second.chargeId, 2_050));
    expect(await t.balance(other.id)).toBe(0n);
    await expectConsistent(other.id, 0n);

    // Refunded in full, then disputed: nothing left to take, and the dispute's later events record it once.
    const third = await t.org({ dollars: "0" });
    const last = await buy(third.id, 2_050);
    await deliver(payload(last.completed));
    await deliver(payload(await refund(last.chargeId)));
    const lateDispute = await openDisputeOf(last.chargeId, 2_050);
    const disputeId = (JSON.parse(lateDispute) as { data: { object: { id: string } } }).data.object.id;
    await deliver(lateDispute);
    const again = JSON.parse(lateDispute) as { id: string; type: string };
    again.id = `evt_again_${randomBytes(6).toString("hex")}`;
    again.type = "charge.dispute.funds_withdrawn";
    expect((await deliver(JSON.stringify(again))).body.outcome).toBe("processed");
    expect(await t.balance(third.id)).toBe(0n);
    expect(await t.prisma.auditLog.count({ where: { orgId: third.id, action: "credits.disputed" } })).toBe(1);
    expect(disputeId).toMatch(/^dp_/);

    async function openDisputeOf(charge: string, amount: number) {
      const template = await buy((await t.org({ dollars: "0" })).id, 1_000); // any real dispute payload, to edit
      const opened = await openDispute(template.chargeId);
      return edited(opened.event, (event) => Object.assign(event.data.object, { charge, amount, payment_intent: null, id: `dp_${randomBytes(6).toString("hex")}` }));
    }
  });

  it("a dispute won gives back only what it took, not the amount disputed", async () => {
    const org = await t.org({ dollars: "0" });
    const { completed, chargeId, sessionId } = await buy(org.id, 2_000);
    await deliver(payload(completed));
    await deliver(payload(await refund(chargeId, 1_500)));
    const dispute = await openDispute(chargeId, 500);
    // Disputed for the whole charge: only the $5 not yet refunded can be taken.
    await deliver(edited(dispute.event, (event) => Object.assign(event.data.object, { amount: 2_000 })));
    expect(await t.balance(org.id)).toBe(0n);
    const closed = await control<{ event: string }>(`/_mock/disputes/${dispute.dispute.id}/close`, { status: "won" });
    await deliver(payload(closed.event));
    expect(await t.balance(org.id)).toBe(dollars("5"));
    expect(await session(sessionId)).toMatchObject({ takenBackCents: 1_500 });
    await expectConsistent(org.id, dollars("5"));
  });

  it("a completed checkout for another amount or currency than we created is held back, not credited, and says why", async () => {
    const org = await t.org({ dollars: "0" });
    const cheap = await buy(org.id, 2_000);
    const tampered = edited(cheap.completed, (event) => Object.assign(event.data.object, { amount_total: 100 }));
    expect((await deliver(tampered)).body.outcome).toBe("processed");
    expect(await session(cheap.sessionId)).toMatchObject({ status: "HELD", creditedAt: null, heldReason: "amount 100 cents, expected 2000" });
    // The genuine event, delivered after, does not credit a held session either; an operator decides.
    await deliver(payload(cheap.completed));
    expect(await t.balance(org.id)).toBe(0n);

    const euros = await buy(org.id, 2_000);
    await deliver(edited(euros.completed, (event) => Object.assign(event.data.object, { currency: "eur" })));
    expect(await session(euros.sessionId)).toMatchObject({ status: "HELD", heldReason: "currency eur, expected usd" });
    // A refund of a payment never credited takes nothing back.
    await deliver(payload(await refund(euros.chargeId)));
    expect(await t.balance(org.id)).toBe(0n);
    expect(await t.prisma.auditLog.count({ where: { orgId: org.id, action: "credits.payment_held", actorLabel: "stripe" } })).toBe(2);
    await expectConsistent(org.id, 0n);
  });
});

describe("a payment for a closed organization", () => {
  it("is recorded and held back for an administrator, never credited and never an error", async () => {
    const org = await t.org({ dollars: "0" });
    const { completed, sessionId } = await buy(org.id, 2_000);
    await t.prisma.organization.update({ where: { id: org.id }, data: { closedAt: new Date() } });
    const delivered = await deliver(payload(completed));
    expect(delivered).toMatchObject({ status: 200, body: { outcome: "processed" } });
    expect(await session(sessionId)).toMatchObject({ status: "HELD", heldReason: "the organization is closed", creditedAt: null });
    expect(await t.balance(org.id)).toBe(0n);
    await expectConsistent(org.id, 0n);
  });
});

describe("exactly once", () => {
  it("moves the balance once per effect when every event arrives 10 times, concurrently, in a random order", async () => {
    const org = await t.org({ dollars: "0" });
    const before = mock.events().length;

    const a = await buy(org.id, 10_000); // $100: two partial refunds (cumulative $10, $25), a $40 dispute
    await refund(a.chargeId, 1_000);
    await refund(a.chargeId, 1_500);
    await openDispute(a.chargeId, 4_000);
    const b = await buy(org.id, 2_000); // $20: refunded in full
    await refund(b.chargeId);
    const c = await buy(org.id, 5_000, { method: "bank_transfer" }); // $50 by bank transfer: disputed, dispute won
    const dispute = await openDispute(c.chargeId);
    await control(`/_mock/disputes/${dispute.dispute.id}/close`, { status: "won" });
    await mock.settled();

    const events = mock.events().slice(before);
    expect(events.map((e) => e.type).sort()).toEqual(
      [
        ...["checkout.session.completed", "charge.refunded", "charge.refunded", "charge.dispute.created"],
        ...["checkout.session.completed", "charge.refunded"],
        ...["checkout.session.completed", "checkout.session.async_payment_succeeded", "charge.dispute.created", "charge.dispute.closed"],
      ].sort(),
    );
    const deliveries = shuffle(events.flatMap((e) => Array.from({ length: 10 }, () => e)));
    const results = await Promise.all(deliveries.map(async (e) => ({ id: e.id, ...(await deliver(e.payload)) })));

    expect(results.filter((r) => r.status !== 200)).toEqual([]);
    for (const event of events) {
      const outcomes = results.filter((r) => r.id === event.id).map((r) => r.body.outcome);
      expect(outcomes.filter((o) => o === "processed")).toHaveLength(1);
      expect(outcomes.filter((o) => o === "duplicate")).toHaveLength(9);
    }
    expect(await eventRows(events.map((e) => e.id))).toBe(events.length);

    const expected = dollars("100") - dollars("25") - dollars("40") + (dollars("20") - dollars("20")) + dollars("50");
    expect(await t.balance(org.id)).toBe(expected);
    await expectConsistent(org.id, expected);
    const entries = await ledger(org.id);
    const sum = (kind: string) => entries.filter((e) => e.kind === kind).reduce((s, e) => s + e.amountNanos, 0n);
    expect(entries.filter((e) => e.kind === "TOPUP").map((e) => e.idempotencyKey).sort()).toEqual(
      [a, b, c].map((x) => `checkout:${x.sessionId}`).sort(),
    );
    expect(sum("TOPUP")).toBe(centsToNanos(10_000 + 2_000 + 5_000));
    expect(sum("REFUND")).toBe(-centsToNanos(2_500 + 2_000));
    expect(sum("DISPUTE")).toBe(-centsToNanos(4_000));
    expect(await session(a.sessionId)).toMatchObject({ status: "PAID", refundedCents: 2_500 });
    expect(await session(b.sessionId)).toMatchObject({ status: "REFUNDED", refundedCents: 2_000 });
    expect(await session(c.sessionId)).toMatchObject({ status: "PAID", refundedCents: 0 });
    expect(await t.prisma.auditLog.count({ where: { orgId: org.id, action: "credits.purchased" } })).toBe(3);
  }, 120_000);

  it("debits the cumulative refunded amount once when many partial refunds of one charge race", async () => {
    const org = await t.org({ dollars: "0" });
    const charges = [await buy(org.id, 10_000), await buy(org.id, 10_000), await buy(org.id, 10_000)];
    for (const c of charges) await deliver(payload(c.completed));
    const refunds: string[] = [];
    for (const c of charges) for (let i = 0; i < 6; i++) refunds.push(await refund(c.chargeId, 1_000));

    const results = await Promise.all(shuffle(refunds.flatMap((id) => Array.from({ length: 5 }, () => payload(id)))).map((p) => deliver(p)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    for (const c of charges) expect((await session(c.sessionId)).refundedCents).toBe(6_000);
    expect(await t.balance(org.id)).toBe(dollars("300") - dollars("180"));
    await expectConsistent(org.id, dollars("120"));
  }, 120_000);

  it("rolls the event back with its effects when processing fails, so Stripe's retry succeeds", async () => {
    const org = await t.org({ dollars: "0" });
    const { sessionId, completed } = await buy(org.id, 2_000);
    await t.prisma.$executeRawUnsafe(`
      CREATE FUNCTION fail_ledger_for_test() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.reference = '${sessionId}' THEN RAISE EXCEPTION 'injected failure'; END IF;
        RETURN NEW;
      END $$`);
    await t.prisma.$executeRawUnsafe(
      "CREATE TRIGGER fail_ledger_for_test BEFORE INSERT ON credit_ledger FOR EACH ROW EXECUTE FUNCTION fail_ledger_for_test()",
    );
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect((await deliver(payload(completed))).status).toBe(500);
    } finally {
      errors.mockRestore();
      await t.prisma.$executeRawUnsafe("DROP TRIGGER fail_ledger_for_test ON credit_ledger");
      await t.prisma.$executeRawUnsafe("DROP FUNCTION fail_ledger_for_test()");
    }
    expect(await eventRows([completed])).toBe(0);
    expect(await session(sessionId)).toMatchObject({ status: "OPEN", creditedAt: null });
    expect(await t.balance(org.id)).toBe(0n);

    expect((await deliver(payload(completed))).body.outcome).toBe("processed");
    expect(await t.balance(org.id)).toBe(dollars("20"));
    expect(await eventRows([completed])).toBe(1);
  });
});

function shuffle<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
