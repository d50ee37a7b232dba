import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseStripeForm, signPayload, startStripeMock, type StripeMock } from "./server";

/** The mock, driven through the real Stripe SDK and a webhook receiver that verifies signatures with the SDK. */
const secret = `whsec_${randomBytes(24).toString("hex")}`;

interface Received {
  event: Stripe.Event;
  signature: string;
}

/** A stand-in for the app's webhook: verifies each delivery with the SDK; answers `status()`. */
async function startReceiver(port = 0, status: () => number = () => 200) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const signature = String(req.headers["stripe-signature"]);
      try {
        received.push({ event: Stripe.webhooks.constructEvent(body, signature, secret), signature });
        res.writeHead(status()).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { server, received, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/stripe/webhook` };
}

const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let mock: StripeMock;
let stripe: Stripe;
beforeAll(async () => {
  receiver = await startReceiver();
  mock = await startStripeMock({ port: 0, webhookSecret: secret, webhookUrl: receiver.url, asyncDelayMs: 20, retryDelaysMs: [20, 40, 80] });
  stripe = new Stripe("sk_test_mock_tests", { host: "127.0.0.1", port: mock.port, protocol: "http", maxNetworkRetries: 0 });
});
afterAll(async () => {
  await mock?.close();
  if (receiver) await closeServer(receiver.server);
});

const params = (overrides: Partial<Stripe.Checkout.SessionCreateParams> = {}): Stripe.Checkout.SessionCreateParams => ({
  mode: "payment",
  success_url: "http://app.test/billing/success?session_id={CHECKOUT_SESSION_ID}",
  cancel_url: "http://app.test/billing?canceled=1",
  client_reference_id: "org-1",
  metadata: { org_id: "org-1", user_id: "user-1" },
  line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: 2_000, product_data: { name: "API credits", description: "$20.00 of prepaid API credits for <Acme & Co>" } } }],
  ...overrides,
});

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
  redirect: "manual" as const,
});

/** What the test controls answer (the parts these tests read). */
interface ControlReply {
  error?: { type: string; code?: string; param?: string };
  event?: string;
  payment_intent?: { id: string; latest_charge: { id: string } };
  dispute?: { id: string; object: string; amount: number; charge: string; status: string };
  deliveries?: { status: number | null }[];
}

async function control(path: string, body: Record<string, unknown> = {}) {
  const response = await fetch(`${mock.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as ControlReply };
}

const receivedFor = (id: string) => receiver.received.filter((r) => JSON.stringify(r.event.data.object).includes(id));
/** The mock's events about an object, in the order they happened, and whether the receiver took each. */
const eventsFor = (id: string) =>
  mock
    .events()
    .filter((e) => e.payload.includes(id))
    .map((e) => ({ type: e.type, object: (JSON.parse(e.payload) as Stripe.Event).data.object, delivered: e.deliveries.at(-1)?.status === 200 }));

async function stripeError(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as Stripe.errors.StripeError;
  }
  throw new Error("expected a Stripe error");
}

describe("the Checkout Sessions API", () => {
  it("creates a session from the SDK's form encoding, and retrieves it", async () => {
    const session = await stripe.checkout.sessions.create(params());
    expect(session).toMatchObject({
      object: "checkout.session",
      mode: "payment",
      amount_total: 2_000,
      currency: "usd",
      status: "open",
      payment_status: "unpaid",
      payment_intent: null,
      client_reference_id: "org-1",
      metadata: { org_id: "org-1", user_id: "user-1" },
      url: `${mock.url}/checkout/${session.id}`,
    });
    expect(session.id).toMatch(/^cs_test_[A-Za-z0-9]+$/);
    expect(await stripe.checkout.sessions.retrieve(session.id)).toEqual(session);
  });

  it("returns the same session for the same Idempotency-Key, and refuses the key with other parameters", async () => {
    const first = await stripe.checkout.sessions.create(params(), { idempotencyKey: "same-key-1" });
    const again = await stripe.checkout.sessions.create(params(), { idempotencyKey: "same-key-1" });
    const other = await stripe.checkout.sessions.create(params());
    expect(again.id).toBe(first.id);
    expect(other.id).not.toBe(first.id);
    const error = await stripeError(stripe.checkout.sessions.create(params({ client_reference_id: "org-2" }), { idempotencyKey: "same-key-1" }));
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(error.statusCode).toBe(400);
  });

  it.each([
    [{ success_url: undefined }, "success_url", "Missing required param: success_url."],
    [{ mode: "subscription" }, "mode", undefined],
    [{ line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: -5, product_data: { name: "x" } } }] }, "line_items[0][price_data][unit_amount]", undefined],
    [{ line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: 10, product_data: { name: "x" } } }] }, "line_items", undefined],
    [{ line_items: [] }, "line_items", undefined],
    [{ shipping_options: [{ shipping_rate: "shr_1" }] }, "shipping_options", "Received unknown parameter: shipping_options"],
  ] as [Partial<Stripe.Checkout.SessionCreateParams>, string, string | undefined][])("refuses bad input %j with a Stripe-shaped 400 naming %s", async (overrides, param, message) => {
    const error = await stripeError(stripe.checkout.sessions.create(params(overrides)));
    expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(error).toMatchObject({ statusCode: 400, type: "StripeInvalidRequestError", param });
    if (message) expect(error.message).toBe(message);
  });

  it("answers 404 for an unknown session or URL, in Stripe's error shape", async () => {
    const error = await stripeError(stripe.checkout.sessions.retrieve("cs_test_missing"));
    expect(error).toMatchObject({ statusCode: 404, code: "resource_missing", param: "id", message: "No such checkout.session: 'cs_test_missing'" });
    const raw = await fetch(`${mock.url}/v1/invoices`, { headers: { authorization: "Bearer sk_test_x" } });
    expect(raw.status).toBe(404);
    expect(await raw.json()).toEqual({ error: { type: "invalid_request_error", message: "Unrecognized request URL (GET: /v1/invoices)." } });
  });

  it("requires a test secret key in the Authorization header", async () => {
    const missing = await fetch(`${mock.url}/v1/checkout/sessions`);
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
    const live = new Stripe("sk_live_0123456789abcdef", { host: "127.0.0.1", port: mock.port, protocol: "http", maxNetworkRetries: 0 });
    const error = await stripeError(live.checkout.sessions.list());
    expect(error).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(error.message).not.toContain("0123456789abcdef");
  });

  it("expires an open session, once", async () => {
    const session = await stripe.checkout.sessions.create(params());
    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ status: "expired", url: null });
    expect((await stripeError(stripe.checkout.sessions.expire(session.id))).statusCode).toBe(400);
    expect((await control(`/_mock/checkout/sessions/${session.id}/pay`)).status).toBe(400);
    await mock.settled();
    expect(receivedFor(session.id).map((r) => r.event.type)).toEqual(["checkout.session.expired"]);
  });
});

describe("the hosted checkout page", () => {
  it("shows the amount, the description (escaped), Pay, Pay by bank transfer and Cancel", async () => {
    const session = await stripe.checkout.sessions.create(params());
    const page = await fetch(session.url!);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await page.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("<h1>API credits</h1>");
    expect(html).toContain("$20.00 of prepaid API credits for &lt;Acme &amp; Co&gt;");
    expect(html).not.toContain("<Acme");
    expect(html).toContain('<button type="submit" class="primary">Pay $20.00</button>');
    expect(html).toContain("Pay by bank transfer</button>");
    expect(html).toContain(`<a href="/checkout/${session.id}/cancel">Cancel</a>`);
  });

  it("pays by card: completes the session, delivers the signed event, then redirects to success_url", async () => {
    const session = await stripe.checkout.sessions.create(params());
    const response = await fetch(`${mock.url}/checkout/${session.id}/pay`, form({ method: "card" }));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`http://app.test/billing/success?session_id=${session.id}`);

    // Delivered before the redirect, verified by the SDK in the receiver.
    const [delivery] = receivedFor(session.id);
    expect(delivery!.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(delivery!.event.type).toBe("checkout.session.completed");
    const completed = delivery!.event.data.object as Stripe.Checkout.Session;
    expect(completed).toMatchObject({ id: session.id, status: "complete", payment_status: "paid", amount_total: 2_000, metadata: { org_id: "org-1" } });

    const paid = await stripe.checkout.sessions.retrieve(session.id);
    expect(paid).toMatchObject({ status: "complete", payment_status: "paid", url: null, payment_intent: completed.payment_intent });
    const intent = await stripe.paymentIntents.retrieve(paid.payment_intent as string, { expand: ["latest_charge"] });
    const charge = intent.latest_charge as Stripe.Charge;
    expect(intent.status).toBe("succeeded");
    expect(charge).toMatchObject({ object: "charge", amount: 2_000, paid: true, amount_refunded: 0, payment_intent: intent.id });
    expect((await stripe.checkout.sessions.list({ payment_intent: intent.id })).data.map((s) => s.id)).toEqual([session.id]);
    expect((await stripe.checkout.sessions.list({ payment_intent: "pi_other" })).data).toEqual([]);

    const receipt = await fetch(charge.receipt_url!);
    expect(receipt.status).toBe(200);
    expect(await receipt.text()).toContain("<dd>$20.00</dd>");
    expect(await (await fetch(session.url!)).text()).toContain("This checkout is already paid");
  });

  it("cancels by redirecting to cancel_url, leaving the session open", async () => {
    const session = await stripe.checkout.sessions.create(params());
    const response = await fetch(`${mock.url}/checkout/${session.id}/cancel`, { redirect: "manual" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("http://app.test/billing?canceled=1");
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe("open");
  });

  it("pays by bank transfer: completed unpaid at once, async_payment_succeeded a moment later", async () => {
    const session = await stripe.checkout.sessions.create(params());
    const response = await fetch(`${mock.url}/checkout/${session.id}/pay`, form({ method: "bank_transfer" }));
    expect(response.status).toBe(303);
    await mock.settled();
    const events = eventsFor(session.id).map((e) => [e.type, (e.object as Stripe.Checkout.Session).payment_status, e.delivered]);
    expect(events).toEqual([
      ["checkout.session.completed", "unpaid", true],
      ["checkout.session.async_payment_succeeded", "paid", true],
    ]);
    expect((await stripe.checkout.sessions.retrieve(session.id)).payment_status).toBe("paid");
  });

  it("can make a bank transfer fail (test control), delivering async_payment_failed", async () => {
    const session = await stripe.checkout.sessions.create(params());
    const paid = await control(`/_mock/checkout/sessions/${session.id}/pay`, { method: "bank_transfer", async_outcome: "failed" });
    expect(paid.status).toBe(200);
    await mock.settled();
    expect(eventsFor(session.id).map((e) => [e.type, e.delivered])).toEqual([
      ["checkout.session.completed", true],
      ["checkout.session.async_payment_failed", true],
    ]);
    const intent = await stripe.paymentIntents.retrieve(paid.body.payment_intent!.id);
    expect(intent.status).toBe("requires_payment_method");
  });
});

describe("saved cards and off-session payments", () => {
  const DECLINING_CARD = "4000000000000341";

  /** A customer with a card saved through a setup session on the hosted page, as a browser does it. */
  async function customerWithCard(card = "4242424242424242") {
    const customer = await stripe.customers.create({ name: "Acme", metadata: { org_id: "org-1" } });
    const session = await stripe.checkout.sessions.create({
      mode: "setup",
      customer: customer.id,
      currency: "usd",
      success_url: "http://app.test/billing?card=saved",
      cancel_url: "http://app.test/billing?card=canceled",
      metadata: { purpose: "auto_recharge_card", org_id: "org-1" },
      setup_intent_data: { metadata: { org_id: "org-1" } },
    });
    const saved = await fetch(`${mock.url}/checkout/${session.id}/save`, form({ card }));
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe("http://app.test/billing?card=saved");
    const completed = await stripe.checkout.sessions.retrieve(session.id);
    const setupIntent = await stripe.setupIntents.retrieve(completed.setup_intent as string, { expand: ["payment_method"] });
    return { customer, session, completed, setupIntent, paymentMethod: setupIntent.payment_method as Stripe.PaymentMethod };
  }

  const charge = (customer: string, paymentMethod: string, amount = 1_000, key?: string) =>
    stripe.paymentIntents.create(
      { amount, currency: "usd", customer, payment_method: paymentMethod, confirm: true, off_session: true, metadata: { purpose: "auto_recharge", attempt_id: "a-1" } },
      key ? { idempotencyKey: key } : undefined,
    );

  it("creates and retrieves customers, once per Idempotency-Key", async () => {
    const first = await stripe.customers.create({ name: "Acme", metadata: { org_id: "org-1" } }, { idempotencyKey: "customer-org-1" });
    const again = await stripe.customers.create({ name: "Acme", metadata: { org_id: "org-1" } }, { idempotencyKey: "customer-org-1" });
    expect(again.id).toBe(first.id);
    expect(first).toMatchObject({ object: "customer", name: "Acme", metadata: { org_id: "org-1" } });
    expect(await stripe.customers.retrieve(first.id)).toEqual(first);
    expect((await stripeError(stripe.customers.retrieve("cus_missing"))).statusCode).toBe(404);
  });

  it("saves a test card in setup mode: the hosted page offers both test cards, and the webhook gets the completed setup session", async () => {
    const customer = await stripe.customers.create({ name: "Acme" });
    const session = await stripe.checkout.sessions.create({ mode: "setup", customer: customer.id, currency: "usd", success_url: "http://app.test/billing?card=saved" });
    expect(session).toMatchObject({ mode: "setup", customer: customer.id, amount_total: null, setup_intent: null, status: "open" });
    const html = await (await fetch(session.url!)).text();
    expect(html).toContain("<h1>Save a card</h1>");
    expect(html).toContain("Save card 4242 4242 4242 4242</button>");
    expect(html).toContain("Save card 4000 0000 0000 0341</button>");
    expect((await control(`/_mock/checkout/sessions/${session.id}/pay`)).status).toBe(400);

    const saved = await control(`/_mock/checkout/sessions/${session.id}/save`, { card: "4242424242424242" });
    expect(saved.status).toBe(200);
    await mock.settled();
    const completed = receivedFor(session.id).find((r) => r.event.type === "checkout.session.completed")!.event.data.object as Stripe.Checkout.Session;
    expect(completed).toMatchObject({ mode: "setup", status: "complete", payment_status: "no_payment_required", customer: customer.id });
    const setupIntent = await stripe.setupIntents.retrieve(completed.setup_intent as string, { expand: ["payment_method"] });
    expect(setupIntent).toMatchObject({ object: "setup_intent", status: "succeeded", usage: "off_session", customer: customer.id });
    const card = setupIntent.payment_method as Stripe.PaymentMethod;
    expect(card).toMatchObject({ object: "payment_method", type: "card", customer: customer.id, card: { brand: "visa", last4: "4242", exp_month: 12 } });
    expect(receivedFor(setupIntent.id).map((r) => r.event.type)).toContain("setup_intent.succeeded");
    expect(await stripe.paymentMethods.retrieve(card.id)).toEqual(card);
    expect((await stripe.customers.listPaymentMethods(customer.id)).data.map((m) => m.id)).toEqual([card.id]);
    expect(await (await fetch(session.url ?? `${mock.url}/checkout/${session.id}`)).text()).toContain("This card was already saved");
  });

  it("refuses a setup session without a customer", async () => {
    const error = await stripeError(stripe.checkout.sessions.create({ mode: "setup", currency: "usd", success_url: "http://app.test/x" }));
    expect(error).toMatchObject({ statusCode: 400, param: "customer" });
  });

  it("charges a saved card off-session: succeeded, payment_intent.succeeded, a charge the refund control can refund", async () => {
    const { customer, paymentMethod } = await customerWithCard();
    const intent = await charge(customer.id, paymentMethod.id, 1_000, "charge-ok-1");
    expect(intent).toMatchObject({ object: "payment_intent", status: "succeeded", amount: 1_000, amount_received: 1_000, customer: customer.id, payment_method: paymentMethod.id, metadata: { purpose: "auto_recharge", attempt_id: "a-1" } });
    await mock.settled();
    expect(receivedFor(intent.id).filter((r) => r.event.type === "payment_intent.succeeded")).toHaveLength(1);

    const again = await charge(customer.id, paymentMethod.id, 1_000, "charge-ok-1");
    expect(again.id).toBe(intent.id);
    await mock.settled();
    expect(eventsFor(intent.id).filter((e) => e.type === "payment_intent.succeeded")).toHaveLength(1);
    expect(await stripeError(charge(customer.id, paymentMethod.id, 2_000, "charge-ok-1"))).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);

    const refunded = await control(`/_mock/charges/${intent.latest_charge as string}/refund`, { amount: 400 });
    expect(refunded.status).toBe(200);
  });

  it("declines 4000 0000 0000 0341 when charged: a 402 card_error naming the payment intent, payment_intent.payment_failed, and the same answer for the same key", async () => {
    const { customer, paymentMethod } = await customerWithCard(DECLINING_CARD);
    expect(paymentMethod.card).toMatchObject({ last4: "0341" });
    const error = await stripeError(charge(customer.id, paymentMethod.id, 1_000, "charge-declined-1"));
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error).toMatchObject({ statusCode: 402, code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." });
    const intent = error.payment_intent!;
    expect(intent).toMatchObject({ status: "requires_payment_method", last_payment_error: { code: "card_declined", decline_code: "generic_decline" } });
    await mock.settled();
    expect(receivedFor(intent.id).map((r) => r.event.type)).toEqual(["payment_intent.payment_failed"]);

    const replay = await stripeError(charge(customer.id, paymentMethod.id, 1_000, "charge-declined-1"));
    expect(replay.payment_intent!.id).toBe(intent.id);
    await mock.settled();
    expect(eventsFor(intent.id).map((e) => e.type)).toEqual(["payment_intent.payment_failed"]);
  });

  it("refuses a card of another customer, and a card detached from its customer", async () => {
    const a = await customerWithCard();
    const b = await customerWithCard();
    expect(await stripeError(charge(a.customer.id, b.paymentMethod.id))).toMatchObject({ statusCode: 400, param: "payment_method" });
    const detached = await stripe.paymentMethods.detach(a.paymentMethod.id);
    expect(detached.customer).toBeNull();
    expect(await stripeError(charge(a.customer.id, a.paymentMethod.id))).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((await stripe.customers.listPaymentMethods(a.customer.id)).data).toEqual([]);
    expect(await stripeError(charge(a.customer.id, "pm_missing"))).toMatchObject({ statusCode: 404, code: "resource_missing" });
  });
});

describe("test controls", () => {
  async function paidCharge() {
    const session = await stripe.checkout.sessions.create(params({ line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: 5_000, product_data: { name: "API credits" } } }] }));
    const paid = await control(`/_mock/checkout/sessions/${session.id}/pay`);
    return paid.body.payment_intent!.latest_charge.id;
  }

  it("refunds partially then fully; each charge.refunded carries the cumulative amount", async () => {
    const chargeId = await paidCharge();
    expect((await control(`/_mock/charges/${chargeId}/refund`, { amount: 1_500 })).status).toBe(200);
    expect((await control(`/_mock/charges/${chargeId}/refund`)).status).toBe(200);
    const refunds = receivedFor(chargeId)
      .filter((r) => r.event.type === "charge.refunded")
      .map((r) => r.event.data.object as Stripe.Charge);
    expect(refunds.map((c) => [c.amount_refunded, c.refunded])).toEqual([
      [1_500, false],
      [5_000, true],
    ]);

    const over = await control(`/_mock/charges/${chargeId}/refund`, { amount: 1 });
    expect(over).toMatchObject({ status: 400, body: { error: { type: "invalid_request_error", code: "charge_already_refunded" } } });
    expect((await control("/_mock/charges/ch_missing/refund")).status).toBe(404);
  });

  it("refuses a refund larger than what is left, naming the amount", async () => {
    const chargeId = await paidCharge();
    const result = await control(`/_mock/charges/${chargeId}/refund`, { amount: 5_001 });
    expect(result).toMatchObject({ status: 400, body: { error: { param: "amount" } } });
  });

  it("refuses to refund a disputed charge, as Stripe does: the dispute settles it", async () => {
    const chargeId = await paidCharge();
    await control(`/_mock/charges/${chargeId}/dispute`, { amount: 2_000 });
    const refused = await control(`/_mock/charges/${chargeId}/refund`, { amount: 1_000 });
    expect(refused).toMatchObject({ status: 400, body: { error: { type: "invalid_request_error", code: "charge_disputed" } } });
  });

  it("opens a dispute (charge.dispute.created) and closes it (charge.dispute.closed)", async () => {
    const chargeId = await paidCharge();
    const opened = await control(`/_mock/charges/${chargeId}/dispute`, { amount: 2_000 });
    expect(opened.body.dispute).toMatchObject({ object: "dispute", amount: 2_000, charge: chargeId, status: "needs_response" });
    expect((await control(`/_mock/charges/${chargeId}/dispute`)).status).toBe(400);
    await control(`/_mock/disputes/${opened.body.dispute!.id}/close`, { status: "won" });
    const events = eventsFor(opened.body.dispute!.id).map((e) => [e.type, (e.object as Stripe.Dispute).status, e.delivered]);
    expect(events).toEqual([
      ["charge.dispute.created", "needs_response", true],
      ["charge.dispute.closed", "won", true],
    ]);
  });

  it("re-delivers an event and lists events with their delivery attempts", async () => {
    const chargeId = await paidCharge();
    const { body } = await control(`/_mock/charges/${chargeId}/refund`);
    const redelivered = await control(`/_mock/events/${body.event!}/deliver`);
    expect(redelivered.body.deliveries!.map((d) => d.status)).toEqual([200, 200]);
    expect(receiver.received.filter((r) => r.event.id === body.event)).toHaveLength(2);

    const listed = (await (await fetch(`${mock.url}/_mock/events?type=charge.refunded`)).json()) as { data: { id: string; type: string }[] };
    expect(listed.data.every((e) => e.type === "charge.refunded")).toBe(true);
    expect(listed.data.map((e) => e.id)).toContain(body.event);
  });

  it("lists charges newest first, with what was refunded, so a person can pick one to refund or dispute", async () => {
    const older = await paidCharge();
    const newer = await paidCharge();
    await control(`/_mock/charges/${older}/refund`, { amount: 500 });
    const listed = (await (await fetch(`${mock.url}/_mock/charges`)).json()) as { data: Stripe.Charge[] };
    const ids = listed.data.map((c) => c.id);
    expect(ids.indexOf(newer)).toBeLessThan(ids.indexOf(older));
    expect(listed.data.find((c) => c.id === older)).toMatchObject({ object: "charge", amount_refunded: 500 });
  });
});

describe("delivery", () => {
  let extra: StripeMock | undefined;
  afterEach(async () => {
    await extra?.close();
    extra = undefined;
  });

  it("retries with backoff until the app is reachable", async () => {
    const port = await freePort();
    extra = await startStripeMock({ port: 0, webhookSecret: secret, webhookUrl: `http://127.0.0.1:${port}/hook`, retryDelaysMs: [50, 100, 200, 400, 800], redirectWaitMs: 0 });
    const client = new Stripe("sk_test_x", { host: "127.0.0.1", port: extra.port, protocol: "http", maxNetworkRetries: 0 });
    const session = await client.checkout.sessions.create(params());
    const paid = await fetch(`${extra.url}/checkout/${session.id}/pay`, form({ method: "card" }));
    expect(paid.status).toBe(303);

    await new Promise((resolve) => setTimeout(resolve, 120));
    const late = await startReceiver(port);
    try {
      await extra.settled();
      const [event] = extra.events();
      expect(event!.deliveries[0]!.status).toBeNull();
      expect(event!.deliveries.at(-1)!.status).toBe(200);
      expect(late.received.map((r) => r.event.id)).toEqual([event!.id]);
    } finally {
      await closeServer(late.server);
    }
  });

  it("keeps retrying while the app answers an error, then stops", async () => {
    const failing = await startReceiver(0, () => 500);
    try {
      extra = await startStripeMock({ port: 0, webhookSecret: secret, webhookUrl: failing.url, retryDelaysMs: [10, 10], redirectWaitMs: 0 });
      const client = new Stripe("sk_test_x", { host: "127.0.0.1", port: extra.port, protocol: "http", maxNetworkRetries: 0 });
      const session = await client.checkout.sessions.create(params());
      await fetch(`${extra.url}/checkout/${session.id}/pay`, form({ method: "card" }));
      await extra.settled();
      expect(extra.events()[0]!.deliveries.map((d) => d.status)).toEqual([500, 500, 500]);
    } finally {
      await closeServer(failing.server);
    }
  });

  it("falls back to a free port when asked and the port is taken", async () => {
    extra = await startStripeMock({ port: mock.port, webhookSecret: secret, fallbackToFreePort: true });
    expect(extra.port).not.toBe(mock.port);
    await expect(startStripeMock({ port: mock.port, webhookSecret: secret })).rejects.toThrow(/EADDRINUSE/);
  });
});

describe("helpers", () => {
  it("parses Stripe's bracketed form keys into objects and arrays", () => {
    const parsed = parseStripeForm(
      "mode=payment&metadata[org_id]=o1&line_items[0][quantity]=1&line_items[0][price_data][unit_amount]=2000&line_items[1][quantity]=2&expand[]=a&expand[]=b",
    );
    expect(parsed).toEqual({
      mode: "payment",
      metadata: { org_id: "o1" },
      line_items: [{ quantity: "1", price_data: { unit_amount: "2000" } }, { quantity: "2" }],
      expand: ["a", "b"],
    });
    expect(() => parseStripeForm("__proto__[polluted]=1")).toThrow(/Invalid parameter name/);
    expect(() => parseStripeForm("a=1&a[b]=2")).toThrow(/Conflicting/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("signs exactly as Stripe does, so the SDK verifies it", () => {
    const payload = JSON.stringify({ id: "evt_1", object: "event", type: "x", data: { object: {} } });
    const header = signPayload(payload, secret);
    expect(Stripe.webhooks.constructEvent(payload, header, secret).id).toBe("evt_1");
    expect(() => Stripe.webhooks.constructEvent(payload, signPayload(payload, `${secret}x`), secret)).toThrow();
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await closeServer(server);
  return port;
}

describe("a state file", () => {
  it("keeps receipts, checkout sessions and idempotency keys across a restart", async () => {
    const { mkdtempSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const stateFile = path.join(mkdtempSync(path.join(tmpdir(), "stripe-mock-")), "state.json");
    const first = await startStripeMock({ port: 0, webhookSecret: secret, stateFile });
    const client = new Stripe("sk_test_mock_tests", { host: "127.0.0.1", port: first.port, protocol: "http", maxNetworkRetries: 0 });
    const session = await client.checkout.sessions.create(params(), { idempotencyKey: "restart-key" });
    const paid = await fetch(`${first.url}/_mock/checkout/sessions/${session.id}/pay`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    const chargeId = ((await paid.json()) as { payment_intent: { latest_charge: { id: string } } }).payment_intent.latest_charge.id;
    await first.close();

    const second = await startStripeMock({ port: 0, webhookSecret: secret, stateFile });
    try {
      const receipt = await fetch(`${second.url}/receipts/${chargeId}`);
      expect(receipt.status).toBe(200);
      expect(await receipt.text()).toContain("$20.00");
      const again = new Stripe("sk_test_mock_tests", { host: "127.0.0.1", port: second.port, protocol: "http", maxNetworkRetries: 0 });
      expect((await again.checkout.sessions.retrieve(session.id)).payment_status).toBe("paid");
      expect((await again.checkout.sessions.create(params(), { idempotencyKey: "restart-key" })).id).toBe(session.id);
      expect(second.events().map((e) => e.type)).toContain("checkout.session.completed");
    } finally {
      await second.close();
    }
  });
});
