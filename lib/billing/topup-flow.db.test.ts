import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DomainError } from "@/lib/errors";
import { createUser } from "@/lib/auth/accounts";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { startTopUp, topUpStatus } from "./checkout";
import { ledgerTotals } from "./ledger";
import { parseDollars } from "@/lib/money";
import { startStripeMock, type StripeMock } from "@/tools/stripe-mock/server";
import { handleStripeWebhook } from "./webhook";

/**
 * The whole money-in path over HTTP, as in development: the app creates a
 * session through the SDK at the mock, the "browser" pays on the hosted page,
 * the mock delivers the signed event to the app's webhook (a node:http server
 * in front of handleStripeWebhook), and the balance moves.
 */
const secret = `whsec_${randomBytes(24).toString("hex")}`;
const origin = "http://app.test";
let t: Testbed;
let mock: StripeMock;
let stripe: Stripe;
let app: Server;
let userId: string;
let appDown = 0; // the webhook answers 503 this many more times

beforeAll(async () => {
  t = await openApiTestbed({ tickerCount: 5 });
  app = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (appDown > 0) {
      appDown--;
      res.writeHead(503).end();
      return;
    }
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v] as [string, string]] : [])),
      body: Buffer.concat(chunks),
    });
    const response = await handleStripeWebhook(request, { db: t.prisma, stripe, webhookSecret: secret });
    res.writeHead(response.status, { "content-type": "application/json" }).end(await response.text());
  });
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  const webhookUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/api/stripe/webhook`;
  mock = await startStripeMock({ port: 0, webhookSecret: secret, webhookUrl, asyncDelayMs: 1_000, retryDelaysMs: [50, 100, 200, 400] });
  stripe = new Stripe("sk_test_flow", { host: "127.0.0.1", port: mock.port, protocol: "http", maxNetworkRetries: 0 });
  userId = (await createUser(t.prisma, { email: `flow-${randomBytes(4).toString("hex")}@example.com` })).id;
}, 120_000);
afterAll(async () => {
  await mock?.close();
  if (app) await new Promise<void>((resolve) => app.close(() => resolve()));
  await t?.close();
});

const browserPost = (url: string, method: "card" | "bank_transfer") =>
  fetch(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `method=${method}`, redirect: "manual" });

describe("buying credits, end to end", () => {
  it("pays $20 on the hosted page: the signed webhook credits the balance before the browser is back, and the API can be used", async () => {
    const org = await t.org({ dollars: "0", name: "Kestrel Fund" });
    const ticker = (await t.prisma.company.findFirstOrThrow({ orderBy: { ticker: "asc" } })).ticker;
    expect((await t.request(`/v1/dilution-rating?ticker=${ticker}`, { key: org.key })).status).toBe(402);

    const { sessionId, url } = await startTopUp(t.prisma, stripe, { orgId: org.id, userId, amountCents: 2_000, origin });
    expect(url).toBe(`${mock.url}/checkout/${sessionId}`);
    const pageHtml = await (await fetch(url)).text();
    expect(pageHtml).toContain("$20.00 of prepaid API credits for Kestrel Fund");
    expect(pageHtml).toContain("Pay $20.00");

    const paid = await browserPost(`${mock.url}/checkout/${sessionId}/pay`, "card");
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`${origin}/billing/success?session_id=${sessionId}`);

    const status = await topUpStatus(t.prisma, org.id, sessionId);
    expect(status).toMatchObject({ status: "PAID", credited: true, amountCents: 2_000 });
    expect(await t.balance(org.id)).toBe(parseDollars("20"));
    const receipt = await fetch(status!.receiptUrl!);
    expect(receipt.status).toBe(200);

    const used = await t.request(`/v1/dilution-rating?ticker=${ticker}`, { key: org.key });
    expect(used.status).toBe(200);
    const balance = parseDollars("20") - parseDollars(used.headers.get("X-Cost-Dollars")!);
    expect(await t.balance(org.id)).toBe(balance);

    const chargeId = (await t.prisma.stripeCheckoutSession.findUniqueOrThrow({ where: { id: sessionId } })).chargeId!;
    const refund = await fetch(`${mock.url}/_mock/charges/${chargeId}/refund`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"amount":500}' });
    expect(refund.status).toBe(200);
    expect(await t.balance(org.id)).toBe(balance - parseDollars("5"));
    expect(await ledgerTotals(t.prisma, org.id)).toEqual({ ledgerSumNanos: balance - parseDollars("5"), balanceNanos: balance - parseDollars("5") });
  });

  it("pays by bank transfer: processing at the redirect, credited when the bank confirms", async () => {
    const org = await t.org({ dollars: "0" });
    const { sessionId } = await startTopUp(t.prisma, stripe, { orgId: org.id, userId, amountCents: 5_000, origin });
    expect((await browserPost(`${mock.url}/checkout/${sessionId}/pay`, "bank_transfer")).status).toBe(303);
    expect(await topUpStatus(t.prisma, org.id, sessionId)).toMatchObject({ status: "PROCESSING", credited: false });
    expect(await t.balance(org.id)).toBe(0n);

    await mock.settled();
    expect(await topUpStatus(t.prisma, org.id, sessionId)).toMatchObject({ status: "PAID", credited: true });
    expect(await t.balance(org.id)).toBe(parseDollars("50"));
  });

  it("credits once when the app was down for the first deliveries", async () => {
    const org = await t.org({ dollars: "0" });
    const { sessionId } = await startTopUp(t.prisma, stripe, { orgId: org.id, userId, amountCents: 10_000, origin });
    appDown = 2;
    expect((await browserPost(`${mock.url}/checkout/${sessionId}/pay`, "card")).status).toBe(303);
    await mock.settled();
    const event = mock.events().find((e) => e.payload.includes(sessionId))!;
    expect(event.deliveries.map((d) => d.status)).toEqual([503, 503, 200]);
    expect(await t.balance(org.id)).toBe(parseDollars("100"));

    const again = await fetch(`${mock.url}/_mock/events/${event.id}/deliver`, { method: "POST" });
    expect(again.status).toBe(200);
    expect(await t.balance(org.id)).toBe(parseDollars("100"));
  });

  it("changes nothing when the buyer cancels", async () => {
    const org = await t.org({ dollars: "0" });
    const { sessionId } = await startTopUp(t.prisma, stripe, { orgId: org.id, userId, amountCents: 2_000, origin });
    const cancel = await fetch(`${mock.url}/checkout/${sessionId}/cancel`, { redirect: "manual" });
    expect(cancel.status).toBe(303);
    expect(cancel.headers.get("location")).toBe(`${origin}/billing?canceled=1`);
    expect(await topUpStatus(t.prisma, org.id, sessionId)).toMatchObject({ status: "OPEN", credited: false });
    expect(await t.balance(org.id)).toBe(0n);
  });
});

describe("startTopUp", () => {
  it("opens a payment-mode session with the org and user in its metadata and records it, with an audit entry", async () => {
    const org = await t.org({ dollars: "0" });
    const { sessionId } = await startTopUp(t.prisma, stripe, { orgId: org.id, userId, amountCents: 12_345, origin: `${origin}/some/page?x=1`, ip: "203.0.113.9" });
    const session = await stripe.checkout.sessions.retrieve(sessionId);
    expect(session).toMatchObject({
      mode: "payment",
      amount_total: 12_345,
      currency: "usd",
      client_reference_id: org.id,
      metadata: { org_id: org.id, user_id: userId },
      success_url: `${origin}/billing/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${origin}/billing?canceled=1`,
    });
    expect(await t.prisma.stripeCheckoutSession.findUniqueOrThrow({ where: { id: sessionId } })).toMatchObject({
      orgId: org.id,
      userId,
      amountCents: 12_345,
      status: "OPEN",
      creditedAt: null,
    });
    const audit = await t.prisma.auditLog.findMany({ where: { orgId: org.id, action: "credits.checkout_started" } });
    expect(audit).toMatchObject([{ actorUserId: userId, ip: "203.0.113.9", targetId: sessionId }]);
    expect(await t.balance(org.id)).toBe(0n);
  });

  it("opens the same session for a double submit of one form, and a new one otherwise", async () => {
    const org = await t.org({ dollars: "0" });
    const input = { orgId: org.id, userId, amountCents: 2_000, origin, requestKey: "form-token-123" };
    const [first, second] = await Promise.all([startTopUp(t.prisma, stripe, input), startTopUp(t.prisma, stripe, input)]);
    expect(second.sessionId).toBe(first.sessionId);
    const third = await startTopUp(t.prisma, stripe, { ...input, requestKey: "form-token-456" });
    expect(third.sessionId).not.toBe(first.sessionId);
    expect(await t.prisma.stripeCheckoutSession.count({ where: { orgId: org.id } })).toBe(2);
    expect(await t.prisma.auditLog.count({ where: { orgId: org.id, action: "credits.checkout_started" } })).toBe(2);
  });

  it.each([
    [{ amountCents: 999 }, "The smallest top-up is $10.00."],
    [{ amountCents: 1_000_001 }, "The largest top-up is $10,000.00."],
    [{ amountCents: 20.5 }, "The amount must be whole cents."],
    [{ origin: "javascript:alert(1)" }, undefined],
    [{ orgId: "not-a-uuid" }, undefined],
  ])("refuses %j before calling Stripe", async (override, message) => {
    const org = await t.org({ dollars: "0" });
    const before = mock.events().length;
    const sessions = await t.prisma.stripeCheckoutSession.count();
    const attempt = startTopUp(t.prisma, stripe, { orgId: org.id, userId, amountCents: 2_000, origin, ...override });
    await expect(attempt).rejects.toThrow(DomainError);
    if (message) await expect(attempt).rejects.toThrow(message);
    expect(await t.prisma.stripeCheckoutSession.count()).toBe(sessions);
    expect(mock.events().length).toBe(before);
  });

  it("says the payment service is unavailable, without details, when Stripe cannot be reached", async () => {
    const org = await t.org({ dollars: "0" });
    const offline = new Stripe("sk_test_offline", { host: "127.0.0.1", port: 9, protocol: "http", maxNetworkRetries: 0 });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await expect(startTopUp(t.prisma, offline, { orgId: org.id, userId, amountCents: 2_000, origin })).rejects.toThrow(
        "The payment service could not start the payment. Please try again in a moment.",
      );
      expect(logged.mock.calls.join(" ")).not.toContain("sk_test_offline");
    } finally {
      logged.mockRestore();
    }
    expect(await t.prisma.stripeCheckoutSession.count({ where: { orgId: org.id } })).toBe(0);
  });
});
