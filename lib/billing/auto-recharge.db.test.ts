import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createUser } from "@/lib/auth/accounts";
import { DomainError } from "@/lib/errors";
import { parseDollars } from "@/lib/money";
import { autoRechargeOverview, removeOrgCard, setOrgAutoRecharge, startOrgCardSetup, turnOffOrgAutoRecharge } from "@/lib/platform/auto-recharge";
import { deliverDue } from "@/lib/notify/delivery";
import { paymentsNeedingAttention } from "@/lib/platform/admin/payments";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { seedCast } from "@/tests/support/platform";
import { startStripeMock, type StripeMock } from "@/tools/stripe-mock/server";
import { autoRechargeSettingsSchema, autoRechargeView, enableAutoRecharge, runAutoRecharge, startCardSetup, turnOffAutoRecharge } from "./auto-recharge";
import { heldPayments, startTopUp } from "./checkout";
import { changeBalance, ledgerTotals } from "./ledger";
import { handleStripeWebhook } from "./webhook";

/**
 * Auto-recharge against the Stripe mock through the real SDK. Two mocks:
 * "live" delivers its events over HTTP to the webhook (as in development),
 * "manual" only stores them, so a test delivers them itself, in the order and
 * numbers it chooses.
 */
const secret = `whsec_${randomBytes(24).toString("hex")}`;
const origin = "http://app.test";
const GOOD_CARD = "4242424242424242";
const DECLINING_CARD = "4000000000000341";

let t: Testbed;
let app: Server;
let live: { mock: StripeMock; stripe: Stripe };
let manual: { mock: StripeMock; stripe: Stripe };
let userId: string;
let ticker: string;
/** Ann owns A (Adam admin, Mia member); Bob owns B. */
let cast: Awaited<ReturnType<typeof seedCast>>;

beforeAll(async () => {
  t = await openApiTestbed({ tickerCount: 3 });
  app = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v] as [string, string]] : [])),
      body: Buffer.concat(chunks),
    });
    const response = await handleStripeWebhook(request, { db: t.prisma, stripe: live.stripe, webhookSecret: secret });
    res.writeHead(response.status, { "content-type": "application/json" }).end(await response.text());
  });
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  const webhookUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/api/stripe/webhook`;
  const client = (mock: StripeMock) => new Stripe("sk_test_auto_recharge", { host: "127.0.0.1", port: mock.port, protocol: "http", maxNetworkRetries: 0 });
  const liveMock = await startStripeMock({ port: 0, webhookSecret: secret, webhookUrl, retryDelaysMs: [50, 100, 200] });
  const manualMock = await startStripeMock({ port: 0, webhookSecret: secret });
  live = { mock: liveMock, stripe: client(liveMock) };
  manual = { mock: manualMock, stripe: client(manualMock) };
  userId = (await createUser(t.prisma, { email: `recharger-${randomBytes(4).toString("hex")}@example.com` })).id;
  ticker = (await t.prisma.company.findFirstOrThrow({ orderBy: { ticker: "asc" } })).ticker;
  cast = await seedCast(t.prisma);
}, 120_000);
afterAll(async () => {
  await live?.mock.close();
  await manual?.mock.close();
  if (app) await new Promise<void>((resolve) => app.close(() => resolve()));
  await t?.close();
});
// Sweeps look at every organization: each test starts with none due.
afterEach(async () => {
  vi.unstubAllEnvs();
  await live.mock.settled();
  await t.prisma.organization.updateMany({ data: { autoRechargeEnabled: false } });
});

const dollars = (text: string) => parseDollars(text);
const settings = (threshold: string, amount: string, maxPerDay = "3") => autoRechargeSettingsSchema.parse({ threshold, amount, maxPerDay });
const attempts = (orgId: string) => t.prisma.autoRechargeAttempt.findMany({ where: { orgId }, orderBy: [{ day: "asc" }, { seq: "asc" }] });
const orgRow = (orgId: string) => t.prisma.organization.findUniqueOrThrow({ where: { id: orgId } });
const inMinutes = (minutes: number, from = new Date()) => new Date(from.getTime() + minutes * 60_000);

async function expectConsistent(orgId: string, balance: bigint) {
  expect(await ledgerTotals(t.prisma, orgId)).toEqual({ ledgerSumNanos: balance, balanceNanos: balance });
}

function signed(payload: string) {
  const headers = new Headers({ "content-type": "application/json", "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret }) });
  return new Request("http://app.test/api/stripe/webhook", { method: "POST", headers, body: payload });
}

/** Delivers an event of the manual mock to the webhook. */
async function deliver(payload: string) {
  const response = await handleStripeWebhook(signed(payload), { db: t.prisma, stripe: manual.stripe, webhookSecret: secret });
  return { status: response.status, body: (await response.json()) as { outcome?: string; reason?: string; effects?: string[] } };
}

const eventOf = (mock: StripeMock, type: string, containing: string) => {
  const event = mock.events().find((e) => e.type === type && e.payload.includes(containing));
  if (!event) throw new Error(`no ${type} event about ${containing}`);
  return event;
};

/** The PaymentIntents the mock created for an organization's auto-recharges. */
const intentsFor = (mock: StripeMock, orgId: string) =>
  new Set(
    mock
      .events()
      .filter((e) => e.type.startsWith("payment_intent.") && e.payload.includes(orgId))
      .map((e) => (JSON.parse(e.payload) as { data: { object: { id: string } } }).data.object.id),
  );

async function control<T = Record<string, unknown>>(mock: StripeMock, path: string, body: Record<string, unknown> = {}): Promise<T> {
  const response = await fetch(`${mock.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * An organization with a card saved through a setup session (the browser's
 * form post on the hosted page) and auto-recharge on.
 */
async function rechargingOrg(options: { via?: "live" | "manual"; card?: string; dollars?: string; threshold?: string; amount?: string; maxPerDay?: string } = {}) {
  const via = options.via === "manual" ? manual : live;
  const org = await t.org({ dollars: options.dollars ?? "0" });
  const { sessionId, url } = await startCardSetup(t.prisma, via.stripe, { orgId: org.id, userId, origin });
  expect(url).toBe(`${via.mock.url}/checkout/${sessionId}`);
  const saved = await fetch(`${via.mock.url}/checkout/${sessionId}/save`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `card=${options.card ?? GOOD_CARD}`,
    redirect: "manual",
  });
  expect(saved.status).toBe(303);
  if (via === manual) expect((await deliver(eventOf(manual.mock, "checkout.session.completed", sessionId).payload)).body.outcome).toBe("processed");
  expect((await orgRow(org.id)).paymentMethodId).toMatch(/^pm_/);
  await enableAutoRecharge(t.prisma, org.id, settings(options.threshold ?? "5", options.amount ?? "10", options.maxPerDay ?? "3"), { actorLabel: "test" });
  return org;
}

describe("auto-recharge, end to end", () => {
  it("saves the card, and once spending crosses the threshold the sweep charges it and the webhook credits the balance once", async () => {
    const org = await rechargingOrg({ dollars: "5", threshold: "5", amount: "10" });
    const card = await orgRow(org.id);
    expect(card).toMatchObject({ paymentMethodBrand: "visa", paymentMethodLast4: "4242", paymentMethodExpMonth: 12, stripeCustomerId: expect.stringMatching(/^cus_/) });
    expect(await t.prisma.auditLog.count({ where: { orgId: org.id, action: "billing.card_saved" } })).toBe(1);

    // At the threshold exactly, nothing is due.
    await runAutoRecharge(t.prisma, live.stripe);
    expect(await attempts(org.id)).toEqual([]);

    const used = await t.request(`/v1/dilution-rating?ticker=${ticker}`, { key: org.key });
    expect(used.status).toBe(200);
    const afterUse = dollars("5") - dollars(used.headers.get("X-Cost-Dollars")!);
    expect(afterUse).toBeLessThan(dollars("5"));

    const sweep = await runAutoRecharge(t.prisma, live.stripe);
    expect(sweep).toMatchObject({ started: 1, declined: 0, deferred: 0 });
    await live.mock.settled();

    const [attempt] = await attempts(org.id);
    expect(attempt).toMatchObject({ seq: 1, amountCents: 1_000, status: "SUCCEEDED", balanceNanos: afterUse, thresholdNanos: dollars("5") });
    expect(attempt!.paymentIntentId).toMatch(/^pi_/);
    expect(attempt!.chargeId).toMatch(/^ch_/);
    expect(attempt!.receiptUrl).toContain(`/receipts/${attempt!.chargeId}`);
    expect(await t.balance(org.id)).toBe(afterUse + dollars("10"));
    await expectConsistent(org.id, afterUse + dollars("10"));

    const topUps = await t.prisma.creditLedgerEntry.findMany({ where: { orgId: org.id, kind: "TOPUP" } });
    expect(topUps).toMatchObject([{ idempotencyKey: `payment_intent:${attempt!.paymentIntentId}`, reference: attempt!.paymentIntentId, amountNanos: dollars("10"), description: "Auto-recharge $10.00" }]);
    const actions = (await t.prisma.auditLog.findMany({ where: { orgId: org.id, action: { startsWith: "credits." } }, orderBy: { id: "asc" } })).map((a) => a.action);
    expect(actions).toEqual(["credits.auto_recharge_started", "credits.auto_recharged"]);

    // Above the threshold again: the next sweeps start nothing.
    await runAutoRecharge(t.prisma, live.stripe);
    await runAutoRecharge(t.prisma, live.stripe);
    expect(await attempts(org.id)).toHaveLength(1);
    expect(intentsFor(live.mock, org.id).size).toBe(1);

    const view = await autoRechargeView(t.prisma, org.id);
    expect(view).toMatchObject({ enabled: true, startedToday: 1, card: { label: "Visa •••• 4242" }, attempts: [{ status: "SUCCEEDED", amountCents: 1_000 }] });
  });

  it("credits once per PaymentIntent however often, and under however many event ids, its success is delivered", async () => {
    const org = await rechargingOrg({ dollars: "1" });
    await runAutoRecharge(t.prisma, live.stripe);
    await live.mock.settled();
    expect(await t.balance(org.id)).toBe(dollars("11"));
    const [attempt] = await attempts(org.id);
    const succeeded = eventOf(live.mock, "payment_intent.succeeded", attempt!.id);

    const again = await Promise.all([
      ...Array.from({ length: 3 }, () => fetch(`${live.mock.url}/_mock/events/${succeeded.id}/deliver`, { method: "POST" })),
      ...Array.from({ length: 5 }, () => handleStripeWebhook(signed(succeeded.payload), { db: t.prisma, stripe: live.stripe, webhookSecret: secret })),
    ]);
    expect(again.map((r) => r.status)).toEqual(Array(8).fill(200));
    // The same payment under another event id (Stripe does not promise one event per change).
    const copy = JSON.parse(succeeded.payload) as { id: string };
    copy.id = `evt_copy_${randomBytes(6).toString("hex")}`;
    const copied = await handleStripeWebhook(signed(JSON.stringify(copy)), { db: t.prisma, stripe: live.stripe, webhookSecret: secret });
    expect(await copied.json()).toMatchObject({ outcome: "processed", effects: [] });

    expect(await t.balance(org.id)).toBe(dollars("11"));
    await expectConsistent(org.id, dollars("11"));
    expect(await t.prisma.auditLog.count({ where: { orgId: org.id, action: "credits.auto_recharged" } })).toBe(1);
  });

  it("ignores the PaymentIntent of a Checkout top-up: its session credits it, once", async () => {
    const org = await t.org({ dollars: "0" });
    const { sessionId } = await startTopUp(t.prisma, manual.stripe, { orgId: org.id, userId, amountCents: 2_000, origin });
    const paid = await control<{ event: string; payment_intent: { id: string } }>(manual.mock, `/_mock/checkout/sessions/${sessionId}/pay`);
    // Stripe also sends payment_intent.succeeded for a Checkout payment; its object, as Stripe has it:
    const intent = await manual.stripe.paymentIntents.retrieve(paid.payment_intent.id);
    const event = (id: string) => JSON.stringify({ id, object: "event", type: "payment_intent.succeeded", data: { object: intent } });

    expect((await deliver(event(`evt_${randomBytes(6).toString("hex")}`))).body).toMatchObject({ outcome: "ignored" });
    expect(await t.balance(org.id)).toBe(0n);
    expect((await deliver(manual.mock.events().find((e) => e.id === paid.event)!.payload)).body.outcome).toBe("processed");
    expect((await deliver(event(`evt_${randomBytes(6).toString("hex")}`))).body).toMatchObject({ outcome: "ignored" });
    expect(await t.balance(org.id)).toBe(dollars("20"));
    await expectConsistent(org.id, dollars("20"));
  });
});

describe("one charge per trigger", () => {
  it("starts exactly one PaymentIntent per organization when sweeps race (several instances)", async () => {
    const orgs = [await rechargingOrg({ dollars: "1" }), await rechargingOrg({ dollars: "2" }), await rechargingOrg({ dollars: "0" })];
    const now = new Date();
    const sweeps = await Promise.all(Array.from({ length: 6 }, () => runAutoRecharge(t.prisma, live.stripe, now)));
    await live.mock.settled();

    expect(sweeps.reduce((sum, s) => sum + s.started, 0)).toBe(orgs.length);
    for (const [i, org] of orgs.entries()) {
      expect(await attempts(org.id)).toHaveLength(1);
      expect(intentsFor(live.mock, org.id).size).toBe(1);
      const balance = dollars(["1", "2", "0"][i]!) + dollars("10");
      expect(await t.balance(org.id)).toBe(balance);
      await expectConsistent(org.id, balance);
    }
  });

  it("starts nothing while a recharge is in flight, and credits it when its webhook arrives", async () => {
    const org = await rechargingOrg({ via: "manual", dollars: "1" });
    await runAutoRecharge(t.prisma, manual.stripe);
    const [pending] = await attempts(org.id);
    expect(pending).toMatchObject({ status: "PENDING", paymentIntentId: expect.stringMatching(/^pi_/) });

    await runAutoRecharge(t.prisma, manual.stripe);
    await runAutoRecharge(t.prisma, manual.stripe, inMinutes(5));
    expect(await attempts(org.id)).toHaveLength(1);
    expect(await t.balance(org.id)).toBe(dollars("1"));

    expect((await deliver(eventOf(manual.mock, "payment_intent.succeeded", pending!.id).payload)).body.outcome).toBe("processed");
    expect((await attempts(org.id))[0]).toMatchObject({ status: "SUCCEEDED" });
    expect(await t.balance(org.id)).toBe(dollars("11"));
  });

  it("charges once when the sweep stopped after Stripe took the payment but before it recorded the PaymentIntent", async () => {
    const org = await rechargingOrg({ via: "manual", dollars: "1" });
    const now = new Date();
    await runAutoRecharge(t.prisma, manual.stripe, now);
    const [attempt] = await attempts(org.id);
    const first = attempt!.paymentIntentId!;
    // As if the process had died before the UPDATE that records the intent.
    await t.prisma.autoRechargeAttempt.update({ where: { id: attempt!.id }, data: { paymentIntentId: null } });

    await runAutoRecharge(t.prisma, manual.stripe, inMinutes(0.5, now)); // too soon to resume: it may still be on its way
    expect((await attempts(org.id))[0]!.paymentIntentId).toBeNull();
    const resumed = await runAutoRecharge(t.prisma, manual.stripe, inMinutes(2, now));
    expect(resumed).toMatchObject({ resumed: 1, started: 0 });
    expect((await attempts(org.id))[0]!.paymentIntentId).toBe(first); // Stripe answered the same key with the same intent
    expect(intentsFor(manual.mock, org.id)).toEqual(new Set([first]));

    await deliver(eventOf(manual.mock, "payment_intent.succeeded", first).payload);
    expect(await t.balance(org.id)).toBe(dollars("11"));
  });

  it("charges once when Stripe could not be reached at first: the attempt waits, then goes through with the same key", async () => {
    const org = await rechargingOrg({ via: "manual", dollars: "1" });
    const offline = new Stripe("sk_test_offline", { host: "127.0.0.1", port: 9, protocol: "http", maxNetworkRetries: 0 });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const now = new Date();
    try {
      expect(await runAutoRecharge(t.prisma, offline, now)).toMatchObject({ started: 1, deferred: 1 });
    } finally {
      logged.mockRestore();
    }
    expect((await attempts(org.id))[0]).toMatchObject({ status: "PENDING", paymentIntentId: null });
    expect(await runAutoRecharge(t.prisma, manual.stripe, inMinutes(2, now))).toMatchObject({ resumed: 1, started: 0 });
    const [attempt] = await attempts(org.id);
    await deliver(eventOf(manual.mock, "payment_intent.succeeded", attempt!.id).payload);
    expect(await attempts(org.id)).toMatchObject([{ status: "SUCCEEDED" }]);
    expect(await t.balance(org.id)).toBe(dollars("11"));
  });

  it("respects the number of recharges a UTC day allows, and allows them again the next day", async () => {
    const org = await rechargingOrg({ dollars: "1", maxPerDay: "2" });
    const today = new Date();
    const spendBackToOneDollar = async () => {
      await changeBalance(t.prisma, { orgId: org.id, kind: "ADJUSTMENT", amountNanos: dollars("1") - (await t.balance(org.id)) });
    };
    for (let i = 0; i < 2; i++) {
      await runAutoRecharge(t.prisma, live.stripe, today);
      await live.mock.settled();
      expect(await t.balance(org.id)).toBe(dollars("11"));
      await spendBackToOneDollar();
    }
    await runAutoRecharge(t.prisma, live.stripe, today);
    await live.mock.settled();
    expect(await t.balance(org.id)).toBe(dollars("1"));
    expect((await attempts(org.id)).map((a) => a.seq)).toEqual([1, 2]);
    expect((await autoRechargeView(t.prisma, org.id, today)).startedToday).toBe(2);

    const tomorrow = new Date(today.getTime() + 86_400_000);
    await runAutoRecharge(t.prisma, live.stripe, tomorrow);
    await live.mock.settled();
    expect(await t.balance(org.id)).toBe(dollars("11"));
    const all = await attempts(org.id);
    expect(all.map((a) => [a.day.toISOString().slice(0, 10), a.seq])).toEqual([
      [today.toISOString().slice(0, 10), 1],
      [today.toISOString().slice(0, 10), 2],
      [tomorrow.toISOString().slice(0, 10), 1],
    ]);
  });
});

describe("a declined card", () => {
  it("fails the attempt, turns auto-recharge off with the reason, audits it, emits auto_recharge.failed and emails the owners once", async () => {
    const orgId = cast.orgA;
    const { url } = await startOrgCardSetup(t.prisma, () => live.stripe, cast.owner, orgId, { origin });
    const sessionId = url.split("/").at(-1)!;
    await fetch(`${live.mock.url}/checkout/${sessionId}/save`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `card=${DECLINING_CARD}`, redirect: "manual" });
    expect(await orgRow(orgId)).toMatchObject({ paymentMethodLast4: "0341" });
    await setOrgAutoRecharge(t.prisma, cast.owner, orgId, { threshold: "5", amount: "10", maxPerDay: "3" });

    // The owners' email is queued with the decline and sent by the notification worker.
    vi.stubEnv("SMTP_URL", "smtp://mail.test:587");
    vi.stubEnv("EMAIL_FROM", "billing@example.com");
    vi.stubEnv("NEXTAUTH_URL", "https://app.example");
    const sent: { to: string; subject: string; text: string }[] = [];
    const sendEmail = async (message: { to: string; subject: string; text: string; html: string }) => void sent.push(message);
    const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      expect(await runAutoRecharge(t.prisma, live.stripe, new Date())).toMatchObject({ started: 1, declined: 1 });
      await live.mock.settled(); // payment_intent.payment_failed reaches the webhook too
    } finally {
      warned.mockRestore();
    }
    expect(sent).toEqual([]);
    // The mail server refuses the first try; the queue keeps it and the next try sends it.
    expect(await deliverDue(t.prisma, { sendEmail: async () => Promise.reject(new Error("421 try again later")) })).toEqual({ sent: 0, failed: 1 });
    expect(sent).toEqual([]);
    expect(await deliverDue(t.prisma, { sendEmail, now: inMinutes(1) })).toEqual({ sent: 1, failed: 0 });

    const [attempt] = await attempts(orgId);
    expect(attempt).toMatchObject({ status: "FAILED", failureCode: "generic_decline", failureMessage: "Your card was declined.", paymentIntentId: expect.stringMatching(/^pi_/), creditedAt: null });
    const org = await orgRow(orgId);
    expect(org).toMatchObject({ autoRechargeEnabled: false, autoRechargeDisabledReason: "your card was declined", autoRechargeDisabledAt: expect.any(Date), autoRechargeThresholdNanos: dollars("5") });
    expect(org.balanceNanos).toBe(0n);
    const failedEvent = eventOf(live.mock, "payment_intent.payment_failed", attempt!.id);
    expect(failedEvent.deliveries.at(-1)?.status).toBe(200);

    expect(await t.prisma.auditLog.findMany({ where: { orgId, action: "credits.auto_recharge_failed" } })).toMatchObject([
      { actorLabel: "stripe", targetId: attempt!.id, details: { decline_code: "generic_decline", message: "Your card was declined.", turned_off: true, amount_cents: 1_000 } },
    ]);
    expect(await t.prisma.notificationEvent.findMany({ where: { orgId, type: "auto_recharge.failed" } })).toMatchObject([{ payload: { attempt_id: attempt!.id, turned_off: true } }]);
    expect(sent.map((m) => m.to)).toEqual(["ann@a.test"]);
    expect(sent[0]!.subject).toContain("auto-recharge was declined and turned off");
    expect(sent[0]!.text).toContain("The automatic recharge of $10.00 for");
    expect(sent[0]!.text).toContain("Your card was declined.");
    expect(sent[0]!.text).toContain("Visa •••• 0341 will not be charged again");
    expect(sent[0]!.text).toContain("https://app.example/billing");

    // Off: later sweeps charge nothing, and the page says why.
    await runAutoRecharge(t.prisma, live.stripe, new Date());
    expect(await deliverDue(t.prisma, { sendEmail, now: inMinutes(60) })).toEqual({ sent: 0, failed: 0 });
    expect(sent).toHaveLength(1);
    expect(await attempts(orgId)).toHaveLength(1);
    const view = await autoRechargeOverview(t.prisma, cast.owner, orgId);
    expect(view).toMatchObject({ enabled: false, canManage: true, turnedOff: { reason: "your card was declined", message: "Your card was declined." }, attempts: [{ status: "FAILED" }] });

    // Turning it on again clears the reason.
    await setOrgAutoRecharge(t.prisma, cast.owner, orgId, { threshold: "5", amount: "10", maxPerDay: "3" });
    expect(await orgRow(orgId)).toMatchObject({ autoRechargeEnabled: true, autoRechargeDisabledReason: null, autoRechargeDisabledAt: null });
  });

  it("is recorded the same way when Stripe's payment_failed event is what reports it", async () => {
    const org = await rechargingOrg({ via: "manual", card: DECLINING_CARD, dollars: "1" });
    const row = await orgRow(org.id);
    // An attempt whose sweep never heard back from Stripe, and the charge Stripe made for it.
    const attempt = await t.prisma.autoRechargeAttempt.create({
      data: { orgId: org.id, day: new Date(new Date().toISOString().slice(0, 10)), seq: 1, amountCents: 1_000, balanceNanos: dollars("1"), thresholdNanos: dollars("5"), paymentMethodId: row.paymentMethodId! },
    });
    await expect(
      manual.stripe.paymentIntents.create({
        amount: 1_000,
        currency: "usd",
        customer: row.stripeCustomerId!,
        payment_method: row.paymentMethodId!,
        confirm: true,
        off_session: true,
        metadata: { purpose: "auto_recharge", org_id: org.id, attempt_id: attempt.id },
      }),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeCardError);
    const failed = eventOf(manual.mock, "payment_intent.payment_failed", attempt.id).payload;
    const results = await Promise.all([deliver(failed), deliver(failed)]);
    expect(results.map((r) => r.body.outcome).sort()).toEqual(["duplicate", "processed"]);

    expect(await attempts(org.id)).toMatchObject([{ status: "FAILED", failureCode: "generic_decline", paymentIntentId: expect.stringMatching(/^pi_/) }]);
    expect(await orgRow(org.id)).toMatchObject({ autoRechargeEnabled: false, autoRechargeDisabledReason: "your card was declined" });
    expect(await t.prisma.auditLog.count({ where: { orgId: org.id, action: "credits.auto_recharge_failed" } })).toBe(1);
    expect(await t.balance(org.id)).toBe(dollars("1"));
  });
});

describe("refunds and disputes of a recharge", () => {
  it("are capped like a top-up's: a refund that arrives before the success credits it first, and nothing more than was paid is ever taken back", async () => {
    const org = await rechargingOrg({ via: "manual", dollars: "1" });
    await runAutoRecharge(t.prisma, manual.stripe);
    const [attempt] = await attempts(org.id);
    const intent = await manual.stripe.paymentIntents.retrieve(attempt!.paymentIntentId!);
    const chargeId = intent.latest_charge as string;

    // The refund of $4 is delivered before the payment's success.
    const partial = await control<{ event: string }>(manual.mock, `/_mock/charges/${chargeId}/refund`, { amount: 400 });
    expect((await deliver(manual.mock.events().find((e) => e.id === partial.event)!.payload)).body.outcome).toBe("processed");
    expect(await t.balance(org.id)).toBe(dollars("1") + dollars("10") - dollars("4"));
    expect((await deliver(eventOf(manual.mock, "payment_intent.succeeded", attempt!.id).payload)).body.effects).toEqual([]);
    expect(await t.balance(org.id)).toBe(dollars("7"));

    const rest = await control<{ event: string }>(manual.mock, `/_mock/charges/${chargeId}/refund`);
    await deliver(manual.mock.events().find((e) => e.id === rest.event)!.payload);
    expect(await t.balance(org.id)).toBe(dollars("1"));
    expect((await attempts(org.id))[0]).toMatchObject({ status: "REFUNDED", refundedCents: 1_000, takenBackCents: 1_000, chargeId });

    // A dispute of the whole charge after that (a real account could send one): nothing is left to take.
    await turnOffAutoRecharge(t.prisma, org.id, { actorLabel: "test" }); // its balance is under the threshold again
    const other = await rechargingOrg({ via: "manual", dollars: "1" });
    await runAutoRecharge(t.prisma, manual.stripe);
    const [otherAttempt] = await attempts(other.id);
    const otherCharge = (await manual.stripe.paymentIntents.retrieve(otherAttempt!.paymentIntentId!)).latest_charge as string;
    const opened = await control<{ event: string }>(manual.mock, `/_mock/charges/${otherCharge}/dispute`);
    const dispute = JSON.parse(manual.mock.events().find((e) => e.id === opened.event)!.payload) as { id: string; data: { object: Record<string, unknown> } };
    dispute.id = `evt_edited_${randomBytes(6).toString("hex")}`;
    Object.assign(dispute.data.object, { id: `dp_${randomBytes(6).toString("hex")}`, charge: chargeId, payment_intent: attempt!.paymentIntentId, amount: 1_000 });
    expect((await deliver(JSON.stringify(dispute))).body.outcome).toBe("processed");
    expect(await t.balance(org.id)).toBe(dollars("1"));
    expect(await t.prisma.auditLog.findFirstOrThrow({ where: { orgId: org.id, action: "credits.disputed" } })).toMatchObject({
      targetType: "auto_recharge_attempt",
      details: { amount_cents: 0, not_debited_cents: 1_000 },
    });
    await expectConsistent(org.id, dollars("1"));

    // The other recharge's own dispute, delivered before its success: credited first, then the $10 taken; won, given back.
    expect((await deliver(manual.mock.events().find((e) => e.id === opened.event)!.payload)).body.effects).toEqual(["credited 1000", "disputed 1000"]);
    expect(await t.balance(other.id)).toBe(dollars("1"));
    expect((await attempts(other.id))[0]).toMatchObject({ status: "SUCCEEDED", takenBackCents: 1_000 });
    const disputeId = (JSON.parse(manual.mock.events().find((e) => e.id === opened.event)!.payload) as { data: { object: { id: string } } }).data.object.id;
    const won = await control<{ event: string }>(manual.mock, `/_mock/disputes/${disputeId}/close`, { status: "won" });
    await deliver(manual.mock.events().find((e) => e.id === won.event)!.payload);
    expect(await t.balance(other.id)).toBe(dollars("11"));
    expect((await attempts(other.id))[0]).toMatchObject({ takenBackCents: 0 });
    expect((await deliver(eventOf(manual.mock, "payment_intent.succeeded", otherAttempt!.id).payload)).body.effects).toEqual([]);
    await expectConsistent(other.id, dollars("11"));
  });
});

describe("a recharge held back", () => {
  it("is not credited when the organization has closed or Stripe's amount differs, a refund of it takes nothing back, and it is listed with Checkout's held payments", async () => {
    // The organization closes before the charge's success is delivered.
    const closing = await rechargingOrg({ via: "manual", dollars: "1" });
    await runAutoRecharge(t.prisma, manual.stripe);
    const [closed] = await attempts(closing.id);
    await t.prisma.organization.update({ where: { id: closing.id }, data: { closedAt: new Date(), autoRechargeEnabled: false } });
    expect((await deliver(eventOf(manual.mock, "payment_intent.succeeded", closed!.id).payload)).body.effects).toEqual(["held"]);
    expect((await attempts(closing.id))[0]).toMatchObject({ status: "HELD", failureCode: "held", failureMessage: "the organization is closed", creditedAt: null });
    expect(await t.balance(closing.id)).toBe(dollars("1"));
    await expectConsistent(closing.id, dollars("1"));

    // A PaymentIntent naming an attempt of $10 that charged $15.
    const other = await rechargingOrg({ via: "manual", dollars: "1" });
    await turnOffAutoRecharge(t.prisma, other.id, { actorLabel: "test" });
    const row = await orgRow(other.id);
    const attempt = await t.prisma.autoRechargeAttempt.create({
      data: { orgId: other.id, day: new Date(new Date().toISOString().slice(0, 10)), seq: 1, amountCents: 1_000, balanceNanos: dollars("1"), thresholdNanos: dollars("5"), paymentMethodId: row.paymentMethodId! },
    });
    const intent = await manual.stripe.paymentIntents.create({
      amount: 1_500,
      currency: "usd",
      customer: row.stripeCustomerId!,
      payment_method: row.paymentMethodId!,
      confirm: true,
      off_session: true,
      metadata: { purpose: "auto_recharge", org_id: other.id, attempt_id: attempt.id },
    });
    const succeeded = eventOf(manual.mock, "payment_intent.succeeded", attempt.id).payload;
    expect((await Promise.all([deliver(succeeded), deliver(succeeded)])).map((r) => r.body.outcome).sort()).toEqual(["duplicate", "processed"]);
    expect((await attempts(other.id))[0]).toMatchObject({ status: "HELD", failureMessage: "amount 1500 cents, expected 1000", creditedAt: null });
    // Refunded in Stripe, as an operator would: nothing was credited, so nothing is taken back.
    const refund = await control<{ event: string }>(manual.mock, `/_mock/charges/${intent.latest_charge as string}/refund`);
    expect((await deliver(manual.mock.events().find((e) => e.id === refund.event)!.payload)).body.effects).toEqual(["refunded 0"]);
    expect((await attempts(other.id))[0]).toMatchObject({ status: "HELD", refundedCents: 1_500, takenBackCents: 0 });
    await expectConsistent(other.id, dollars("1"));

    // The console's "Needs attention" and the CLI list them, newest first and oldest first.
    const attention = await paymentsNeedingAttention(t.prisma);
    expect(attention.heldPayments.count).toBe(2);
    expect(attention.heldPayments.rows).toEqual([
      expect.objectContaining({ id: attempt.id, source: "auto_recharge", state: "held", amountCents: 1_000, heldReason: "amount 1500 cents, expected 1000", paymentIntentId: intent.id }),
      expect.objectContaining({ id: closed!.id, source: "auto_recharge", state: "held", heldReason: "the organization is closed", org: expect.objectContaining({ id: closing.id, closed: true }) }),
    ]);
    expect((await heldPayments(t.prisma)).map((p) => [p.source, p.id, p.heldReason])).toEqual([
      ["auto_recharge", closed!.id, "the organization is closed"],
      ["auto_recharge", attempt.id, "amount 1500 cents, expected 1000"],
    ]);
  });
});

describe("who may do what", () => {
  it("owners save and remove the card and turn auto-recharge on and off; admins only see it; members and outsiders are refused", async () => {
    const { orgA, owner, admin, member, outsider } = cast;
    const stripe = () => live.stripe;
    const forbidden = { code: "forbidden" };

    for (const who of [admin, member]) {
      await expect(startOrgCardSetup(t.prisma, stripe, who, orgA, { origin })).rejects.toMatchObject(forbidden);
      await expect(setOrgAutoRecharge(t.prisma, who, orgA, { threshold: "5", amount: "10", maxPerDay: "1" })).rejects.toMatchObject(forbidden);
      await expect(turnOffOrgAutoRecharge(t.prisma, who, orgA)).rejects.toMatchObject(forbidden);
      await expect(removeOrgCard(t.prisma, stripe, who, orgA)).rejects.toMatchObject(forbidden);
    }
    await expect(startOrgCardSetup(t.prisma, stripe, outsider, orgA, { origin })).rejects.toMatchObject({ code: "not_member" });
    await expect(startOrgCardSetup(t.prisma, stripe, null, orgA, { origin })).rejects.toMatchObject({ code: "signed_out" });
    await expect(autoRechargeOverview(t.prisma, member, orgA)).rejects.toMatchObject(forbidden);
    expect(await autoRechargeOverview(t.prisma, admin, orgA)).toMatchObject({ canManage: false });

    // The owner: the card, then auto-recharge on, then the card removed (which turns it off).
    const { url } = await startOrgCardSetup(t.prisma, stripe, owner, orgA, { origin, requestKey: "form-token-owner-1" });
    const again = await startOrgCardSetup(t.prisma, stripe, owner, orgA, { origin, requestKey: "form-token-owner-1" });
    expect(again.url).toBe(url); // a double submit opens one setup session
    await fetch(`${url}/save`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `card=${GOOD_CARD}`, redirect: "manual" });
    const pm = (await orgRow(orgA)).paymentMethodId!;
    expect(pm).toMatch(/^pm_/);
    await setOrgAutoRecharge(t.prisma, owner, orgA, { threshold: "4.99", amount: "$1,000", maxPerDay: "10" });
    expect(await orgRow(orgA)).toMatchObject({ autoRechargeEnabled: true, autoRechargeThresholdNanos: dollars("4.99"), autoRechargeAmountCents: 100_000, autoRechargeMaxPerDay: 10 });
    expect(await t.prisma.auditLog.findFirst({ where: { orgId: orgA, action: "billing.auto_recharge_set" }, orderBy: { id: "desc" } })).toMatchObject({
      actorUserId: owner.userId,
      details: { threshold: "$4.99", amount: "$1,000.00", max_per_day: 10 },
    });
    expect(await turnOffOrgAutoRecharge(t.prisma, owner, orgA)).toBe(true);
    await setOrgAutoRecharge(t.prisma, owner, orgA, { threshold: "5", amount: "10", maxPerDay: "2" });

    await removeOrgCard(t.prisma, stripe, owner, orgA);
    expect(await orgRow(orgA)).toMatchObject({ paymentMethodId: null, paymentMethodLast4: null, autoRechargeEnabled: false });
    const customer = (await orgRow(orgA)).stripeCustomerId!;
    expect((await live.stripe.customers.listPaymentMethods(customer)).data.map((m) => m.id)).not.toContain(pm);
    expect(await t.prisma.auditLog.findFirst({ where: { orgId: orgA, action: "billing.card_removed" }, orderBy: { id: "desc" } })).toMatchObject({ details: { last4: "4242", auto_recharge_turned_off: true } });
    await expect(removeOrgCard(t.prisma, stripe, owner, orgA)).rejects.toMatchObject({ code: "no_saved_card" });
  });

  it("refuses to turn on without a saved card, and explains bad settings field by field", async () => {
    // Bob owns B, which has no card.
    await expect(setOrgAutoRecharge(t.prisma, cast.outsider, cast.orgB, { threshold: "5", amount: "10", maxPerDay: "1" })).rejects.toThrow(
      new DomainError("no_saved_card", "Save a card first: auto-recharge charges the saved card, and none is saved yet."),
    );
    const messages = (input: Record<string, string>) => {
      const parsed = autoRechargeSettingsSchema.safeParse({ threshold: "5", amount: "10", maxPerDay: "1", ...input });
      return parsed.success ? [] : parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`);
    };
    expect(messages({ threshold: "" })).toEqual(["threshold: Enter the balance to recharge below, in dollars."]);
    expect(messages({ threshold: "0" })).toEqual(["threshold: The threshold must be more than $0."]);
    expect(messages({ threshold: "4.999" })).toEqual(["threshold: Enter the threshold in dollars and cents, like 5 or 4.99."]);
    expect(messages({ threshold: "100000.01" })).toEqual(["threshold: The threshold is at most $100,000.00."]);
    expect(messages({ amount: "5" })).toEqual(["amount: The smallest top-up is $10.00."]);
    expect(messages({ amount: "10000.01" })).toEqual(["amount: The largest top-up is $10,000.00."]);
    expect(messages({ maxPerDay: "0" })).toEqual(["maxPerDay: Recharges per day: a whole number from 1 to 10."]);
    expect(messages({ maxPerDay: "11" })).toEqual(["maxPerDay: Recharges per day: a whole number from 1 to 10."]);
    expect(messages({ maxPerDay: "2.5" })).toEqual(["maxPerDay: Recharges per day: a whole number from 1 to 10."]);
    expect(messages({ threshold: "$1,234.50", amount: "$1,000", maxPerDay: " 7 " })).toEqual([]);
  });
});
