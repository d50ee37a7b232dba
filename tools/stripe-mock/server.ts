import { createHmac, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setMaxListeners } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { isoDay } from "@/lib/utils/dates";

/**
 * A small Stripe for development and tests: only what this app uses, shaped
 * like Stripe's API so the real SDK talks to it (`new Stripe(key, { host,
 * port, protocol: "http" })`).
 *
 * API (Authorization: Bearer sk_test_…, form-encoded like the SDK sends):
 *   POST /v1/checkout/sessions                 mode=payment, or mode=setup with a customer (Idempotency-Key honoured)
 *   GET  /v1/checkout/sessions/:id
 *   GET  /v1/checkout/sessions?payment_intent=…
 *   POST /v1/checkout/sessions/:id/expire
 *   POST /v1/customers                         (Idempotency-Key honoured)
 *   GET  /v1/customers/:id
 *   GET  /v1/customers/:id/payment_methods
 *   GET  /v1/payment_methods/:id
 *   POST /v1/payment_methods/:id/detach
 *   GET  /v1/setup_intents/:id                 (expand[]=payment_method)
 *   POST /v1/payment_intents                   confirm=true with a customer's saved card, e.g. off_session=true
 *                                              (Idempotency-Key honoured, a decline's 402 included)
 *   GET  /v1/payment_intents/:id               (expand[]=latest_charge)
 * Browser:
 *   GET  /checkout/:id          hosted checkout: Pay, Pay by bank transfer, Cancel; in setup mode, Save a test card
 *   GET  /receipts/:charge_id   a receipt
 * Test cards (setup mode), as Stripe's: 4242 4242 4242 4242 is charged; 4000 0000 0000 0341 is
 * saved but declined when charged (payment_intent.payment_failed, and a 402 card_error).
 * Test controls (no authentication: the mock binds to 127.0.0.1):
 *   POST /_mock/checkout/sessions/:id/pay   {method: card|bank_transfer, async_outcome: succeeded|failed}
 *   POST /_mock/checkout/sessions/:id/save  {card: 4242424242424242|4000000000000341}  (setup mode)
 *   POST /_mock/charges/:id/refund          {amount?}            → charge.refunded
 *   POST /_mock/charges/:id/dispute         {amount?, reason?}   → charge.dispute.created
 *   POST /_mock/disputes/:id/close          {status: won|lost}   → charge.dispute.closed
 *   POST /_mock/events/:id/deliver          re-delivers an event
 *   GET  /_mock/events[?type=…]             every event and its delivery attempts
 *   GET  /_mock/charges                     every charge, newest first (ids for refund/dispute)
 *
 * Events are signed as Stripe signs them (Stripe-Signature: t=…,v1=HMAC-SHA256
 * of "t.payload") and POSTed to the webhook URL, retried with backoff.
 */

export interface StripeMockOptions {
  /** Default 12111; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1: the test controls have no authentication. */
  host?: string;
  /** When the port is taken, listen on a free one instead of failing. */
  fallbackToFreePort?: boolean;
  /** Where events are POSTed; without one they are only stored. */
  webhookUrl?: string | null;
  /** The whsec_… secret events are signed with. */
  webhookSecret: string;
  /** The address browsers reach the mock at (checkout and receipt links); default its own. */
  publicUrl?: string;
  /** How long a bank transfer takes to be confirmed. Default 2 s. */
  asyncDelayMs?: number;
  /** Pauses between delivery attempts. Default 0.5, 1, 2, 4, 8 s. */
  retryDelaysMs?: number[];
  /** How long paying waits for the app to accept the event before redirecting. Default 10 s. */
  redirectWaitMs?: number;
  /**
   * A JSON file the mock keeps its sessions, payments, charges, disputes,
   * events and idempotency keys in, so receipt and checkout links survive a
   * restart (`npm run dev` uses .data/stripe-mock.json). Without it, state
   * lives in memory only.
   */
  stateFile?: string;
  log?: (line: string) => void;
}

export interface StripeMock {
  /** Base URL of the API, pages and controls, e.g. http://127.0.0.1:12111 */
  url: string;
  port: number;
  /** Every event so far, oldest first. */
  events(): MockEvent[];
  /** Resolves when no delivery or bank transfer is pending. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface MockEvent {
  id: string;
  type: string;
  created: number;
  payload: string;
  deliveries: { at: string; status: number | null; error?: string }[];
}

type Json = Record<string, unknown>;

// ───────────────────────────── state ─────────────────────────────

interface Session {
  id: string;
  /** Absent in state files written before setup mode: "payment". */
  mode?: "payment" | "setup";
  created: number;
  expiresAt: number;
  status: "open" | "complete" | "expired";
  paymentStatus: "unpaid" | "paid";
  amountTotal: number;
  currency: string;
  successUrl: string;
  cancelUrl: string | null;
  clientReferenceId: string | null;
  customerEmail: string | null;
  metadata: Record<string, string>;
  intentMetadata: Record<string, string>;
  lineItems: { name: string; description: string | null; unitAmount: number; quantity: number }[];
  paymentIntent: string | null;
  customer?: string | null;
  setupIntent?: string | null;
  setupIntentMetadata?: Record<string, string>;
}

interface Customer {
  id: string;
  created: number;
  name: string | null;
  email: string | null;
  description: string | null;
  metadata: Record<string, string>;
}

interface PaymentMethod {
  id: string;
  created: number;
  customer: string | null;
  /** The test card's number: it decides whether a charge succeeds. */
  number: TestCardNumber;
  expMonth: number;
  expYear: number;
}

interface SetupIntent {
  id: string;
  created: number;
  customer: string;
  paymentMethod: string;
  metadata: Record<string, string>;
}

/** Stripe's test cards the setup page offers, and what charging each later does. */
const TEST_CARDS = {
  "4242424242424242": { brand: "visa", last4: "4242", declines: false, label: "4242 4242 4242 4242" },
  "4000000000000341": { brand: "visa", last4: "0341", declines: true, label: "4000 0000 0000 0341" },
} as const;
type TestCardNumber = keyof typeof TEST_CARDS;
const TEST_CARD_NUMBERS = Object.keys(TEST_CARDS) as [TestCardNumber, ...TestCardNumber[]];

interface PaymentIntent {
  id: string;
  created: number;
  amount: number;
  currency: string;
  status: "processing" | "succeeded" | "requires_payment_method";
  latestCharge: string | null;
  metadata: Record<string, string>;
  /** Set for payment intents created through the API (off-session charges of a saved card). */
  customer?: string | null;
  paymentMethod?: string | null;
  description?: string | null;
  lastPaymentError?: Json | null;
}

interface Charge {
  id: string;
  created: number;
  amount: number;
  amountRefunded: number;
  currency: string;
  paymentIntent: string;
  status: "pending" | "succeeded" | "failed";
  disputed: boolean;
  description: string | null;
  refunds: Refund[];
}

interface Refund {
  id: string;
  created: number;
  amount: number;
  charge: string;
  paymentIntent: string;
}

interface Dispute {
  id: string;
  created: number;
  amount: number;
  charge: string;
  paymentIntent: string;
  currency: string;
  reason: string;
  status: "needs_response" | "won" | "lost";
}

class StripeError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param?: string,
    readonly code?: string,
    readonly type = "invalid_request_error",
  ) {
    super(message);
  }
}

const now = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(18).toString("base64url").replace(/[-_]/g, "").slice(0, 24)}`;

// ───────────────────────────── Stripe-shaped objects ─────────────────────────────

class MockStripe {
  readonly sessions = new Map<string, Session>();
  readonly intents = new Map<string, PaymentIntent>();
  readonly customers = new Map<string, Customer>();
  readonly paymentMethods = new Map<string, PaymentMethod>();
  readonly setupIntents = new Map<string, SetupIntent>();
  readonly charges = new Map<string, Charge>();
  readonly disputes = new Map<string, Dispute>();
  readonly events: MockEvent[] = [];
  readonly idempotent = new Map<string, { fingerprint: string; status: number; body: Json }>();
  publicUrl = "";
  apiVersion: string | null = null;

  /** Everything a restart must not forget, as JSON. */
  snapshot(): Json {
    return {
      version: 1,
      sessions: [...this.sessions.values()],
      intents: [...this.intents.values()],
      charges: [...this.charges.values()],
      disputes: [...this.disputes.values()],
      customers: [...this.customers.values()],
      paymentMethods: [...this.paymentMethods.values()],
      setupIntents: [...this.setupIntents.values()],
      events: this.events,
      idempotent: [...this.idempotent.entries()],
    };
  }

  restore(state: Json): void {
    if (state.version !== 1) return;
    const list = <T>(value: unknown) => (Array.isArray(value) ? (value as T[]) : []);
    for (const s of list<Session>(state.sessions)) this.sessions.set(s.id, s);
    for (const pi of list<PaymentIntent>(state.intents)) this.intents.set(pi.id, pi);
    for (const c of list<Charge>(state.charges)) this.charges.set(c.id, c);
    for (const d of list<Dispute>(state.disputes)) this.disputes.set(d.id, d);
    for (const c of list<Customer>(state.customers)) this.customers.set(c.id, c);
    for (const pm of list<PaymentMethod>(state.paymentMethods)) this.paymentMethods.set(pm.id, pm);
    for (const si of list<SetupIntent>(state.setupIntents)) this.setupIntents.set(si.id, si);
    this.events.push(...list<MockEvent>(state.events));
    for (const [key, value] of list<[string, { fingerprint: string; status: number; body: Json }]>(state.idempotent)) this.idempotent.set(key, value);
  }

  sessionJson(s: Session): Json {
    const setup = s.mode === "setup";
    return {
      id: s.id,
      object: "checkout.session",
      amount_subtotal: setup ? null : s.amountTotal,
      amount_total: setup ? null : s.amountTotal,
      cancel_url: s.cancelUrl,
      client_reference_id: s.clientReferenceId,
      created: s.created,
      currency: setup ? null : s.currency,
      customer: s.customer ?? null,
      customer_details: s.status === "complete" ? { email: s.customerEmail } : null,
      customer_email: s.customerEmail,
      expires_at: s.expiresAt,
      livemode: false,
      metadata: s.metadata,
      mode: s.mode ?? "payment",
      payment_intent: s.paymentIntent,
      payment_method_types: setup ? ["card"] : ["card", "customer_balance"],
      payment_status: setup ? "no_payment_required" : s.paymentStatus,
      setup_intent: s.setupIntent ?? null,
      status: s.status,
      success_url: s.successUrl,
      url: s.status === "open" ? `${this.publicUrl}/checkout/${s.id}` : null,
    };
  }

  customerJson(c: Customer): Json {
    return {
      id: c.id,
      object: "customer",
      created: c.created,
      description: c.description,
      email: c.email,
      invoice_settings: { default_payment_method: null },
      livemode: false,
      metadata: c.metadata,
      name: c.name,
    };
  }

  paymentMethodJson(pm: PaymentMethod): Json {
    const card = TEST_CARDS[pm.number];
    return {
      id: pm.id,
      object: "payment_method",
      billing_details: { address: null, email: null, name: null, phone: null },
      card: {
        brand: card.brand,
        country: "US",
        exp_month: pm.expMonth,
        exp_year: pm.expYear,
        fingerprint: `fp${card.last4}mock`,
        funding: "credit",
        last4: card.last4,
        wallet: null,
      },
      created: pm.created,
      customer: pm.customer,
      livemode: false,
      metadata: {},
      type: "card",
    };
  }

  setupIntentJson(si: SetupIntent, expandPaymentMethod = false): Json {
    const pm = this.paymentMethods.get(si.paymentMethod);
    return {
      id: si.id,
      object: "setup_intent",
      created: si.created,
      customer: si.customer,
      livemode: false,
      metadata: si.metadata,
      payment_method: expandPaymentMethod && pm ? this.paymentMethodJson(pm) : si.paymentMethod,
      payment_method_types: ["card"],
      status: "succeeded",
      usage: "off_session",
    };
  }

  intentJson(pi: PaymentIntent, expandCharge = false): Json {
    const charge = pi.latestCharge ? this.charges.get(pi.latestCharge) : undefined;
    return {
      id: pi.id,
      object: "payment_intent",
      amount: pi.amount,
      amount_received: pi.status === "succeeded" ? pi.amount : 0,
      created: pi.created,
      currency: pi.currency,
      customer: pi.customer ?? null,
      description: pi.description ?? null,
      last_payment_error: pi.lastPaymentError ?? null,
      latest_charge: expandCharge && charge ? this.chargeJson(charge) : pi.latestCharge,
      livemode: false,
      metadata: pi.metadata,
      payment_method: pi.paymentMethod ?? null,
      status: pi.status,
    };
  }

  chargeJson(c: Charge): Json {
    return {
      id: c.id,
      object: "charge",
      amount: c.amount,
      amount_captured: c.status === "succeeded" ? c.amount : 0,
      amount_refunded: c.amountRefunded,
      captured: c.status === "succeeded",
      created: c.created,
      currency: c.currency,
      description: c.description,
      disputed: c.disputed,
      livemode: false,
      metadata: {},
      paid: c.status === "succeeded",
      payment_intent: c.paymentIntent,
      receipt_url: `${this.publicUrl}/receipts/${c.id}`,
      refunded: c.amountRefunded === c.amount,
      refunds: { object: "list", data: c.refunds.map((r) => this.refundJson(r)), has_more: false, url: `/v1/charges/${c.id}/refunds` },
      status: c.status,
    };
  }

  refundJson(r: Refund): Json {
    return { id: r.id, object: "refund", amount: r.amount, charge: r.charge, created: r.created, currency: "usd", payment_intent: r.paymentIntent, status: "succeeded" };
  }

  disputeJson(d: Dispute): Json {
    return {
      id: d.id,
      object: "dispute",
      amount: d.amount,
      charge: d.charge,
      created: d.created,
      currency: d.currency,
      is_charge_refundable: false,
      livemode: false,
      payment_intent: d.paymentIntent,
      reason: d.reason,
      status: d.status,
    };
  }

  session(id: string): Session {
    const s = this.sessions.get(id);
    if (!s) throw new StripeError(404, `No such checkout.session: '${id}'`, "id", "resource_missing");
    return s;
  }

  customer(id: string, param = "customer"): Customer {
    const c = this.customers.get(id);
    if (!c) throw new StripeError(404, `No such customer: '${id}'`, param, "resource_missing");
    return c;
  }

  paymentMethod(id: string, param = "payment_method"): PaymentMethod {
    const pm = this.paymentMethods.get(id);
    if (!pm) throw new StripeError(404, `No such PaymentMethod: '${id}'`, param, "resource_missing");
    return pm;
  }

  charge(id: string): Charge {
    const c = this.charges.get(id);
    if (!c) throw new StripeError(404, `No such charge: '${id}'`, "charge", "resource_missing");
    return c;
  }

  /** Told of every event, i.e. of every change of state (the state file listens). */
  onEvent?: () => void;

  newEvent(type: string, object: Json): MockEvent {
    this.onEvent?.();
    const created = now();
    const event = {
      id: newId("evt"),
      object: "event",
      api_version: this.apiVersion,
      created,
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    const record: MockEvent = { id: event.id, type, created, payload: JSON.stringify(event, null, 2), deliveries: [] };
    this.events.push(record);
    return record;
  }
}

// ───────────────────────────── request parsing ─────────────────────────────

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Stripe's form encoding: `line_items[0][price_data][unit_amount]=2000`,
 * `metadata[org_id]=…`, `expand[]=x` → nested objects and arrays.
 */
export function parseStripeForm(text: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match) throw new StripeError(400, `Invalid parameter name: ${key}`, key);
    const path = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)];
    if (path.some((segment) => FORBIDDEN_KEYS.has(segment))) throw new StripeError(400, `Invalid parameter name: ${key}`, key);
    let node: Json = root;
    for (const [i, segment] of path.entries()) {
      const name = segment === "" ? String(Object.keys(node).length) : segment;
      const last = i === path.length - 1;
      if (last ? name in node : typeof (node[name] ?? {}) !== "object") {
        throw new StripeError(400, `Conflicting values for parameter ${key}`, key);
      }
      if (last) node[name] = value;
      else node = (node[name] ??= {}) as Json;
    }
  }
  return arraysFromIndexes(root) as Json;
}

function arraysFromIndexes(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value as Json).map(([k, v]) => [k, arraysFromIndexes(v)] as const);
  const isArray = entries.length > 0 && entries.every(([k], i) => k === String(i));
  return isArray ? entries.map(([, v]) => v) : Object.fromEntries(entries);
}

/** zod's path as Stripe names a parameter: line_items[0][price_data][unit_amount] */
function paramName(path: PropertyKey[]): string {
  return path.map((p, i) => (i === 0 ? String(p) : `[${String(p)}]`)).join("");
}

function parseParams<T extends z.ZodType>(schema: T, params: Json): z.infer<T> {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === "unrecognized_keys") {
    const param = paramName([...issue.path, issue.keys[0]!]);
    throw new StripeError(400, `Received unknown parameter: ${param}`, param, "parameter_unknown");
  }
  const param = paramName(issue.path);
  const missing = issue.code === "invalid_type" && issue.input === undefined;
  throw new StripeError(400, missing ? `Missing required param: ${param}.` : `Invalid ${param}: ${issue.message}`, param, missing ? "parameter_missing" : "parameter_invalid");
}

const integer = (min: number, max: number) =>
  z.string().regex(/^-?\d+$/, "must be an integer").transform(Number).pipe(z.number().min(min).max(max));
const metadata = z
  .record(z.string().max(40), z.string().max(500))
  .refine((m) => Object.keys(m).length <= 50, "at most 50 keys");

const createSessionParams = z.strictObject({
  mode: z.literal("payment", "the mock supports mode=payment and mode=setup"),
  success_url: z.url(),
  cancel_url: z.url().optional(),
  client_reference_id: z.string().max(200).optional(),
  customer_email: z.email().optional(),
  metadata: metadata.optional(),
  payment_intent_data: z.strictObject({ metadata: metadata.optional(), description: z.string().max(1000).optional() }).optional(),
  submit_type: z.enum(["auto", "book", "donate", "pay"]).optional(),
  expires_at: integer(0, 2 ** 31).optional(),
  line_items: z
    .array(
      z.strictObject({
        quantity: integer(1, 1000),
        price_data: z.strictObject({
          currency: z.string().regex(/^[a-z]{3}$/, "must be a lowercase ISO currency code"),
          unit_amount: integer(0, 99_999_999),
          product_data: z.strictObject({ name: z.string().min(1).max(250), description: z.string().max(500).optional() }),
        }),
      }),
    )
    .min(1)
    .max(100),
});

const listSessionParams = z.strictObject({
  payment_intent: z.string().optional(),
  limit: integer(1, 100).optional(),
});

/** Setup mode saves a card for later (off-session) payments of a customer. */
const createSetupSessionParams = z.strictObject({
  mode: z.literal("setup"),
  customer: z.string({ error: "the mock needs a customer in setup mode" }).startsWith("cus_"),
  success_url: z.url(),
  cancel_url: z.url().optional(),
  client_reference_id: z.string().max(200).optional(),
  currency: z.string().regex(/^[a-z]{3}$/, "must be a lowercase ISO currency code").optional(),
  payment_method_types: z.array(z.literal("card", "the mock saves cards only")).optional(),
  metadata: metadata.optional(),
  setup_intent_data: z.strictObject({ metadata: metadata.optional(), description: z.string().max(1000).optional() }).optional(),
  expires_at: integer(0, 2 ** 31).optional(),
});

const createCustomerParams = z.strictObject({
  name: z.string().max(256).optional(),
  email: z.email().optional(),
  description: z.string().max(350).optional(),
  metadata: metadata.optional(),
});

const listPaymentMethodsParams = z.strictObject({ type: z.literal("card").optional(), limit: integer(1, 100).optional() });

const createIntentParams = z.strictObject({
  amount: integer(1, 99_999_999),
  currency: z.string().regex(/^[a-z]{3}$/, "must be a lowercase ISO currency code"),
  customer: z.string().startsWith("cus_"),
  payment_method: z.string().startsWith("pm_"),
  confirm: z.literal("true", "the mock creates confirmed payment intents only: pass confirm=true"),
  off_session: z.enum(["true", "false"]).optional(),
  description: z.string().max(1000).optional(),
  metadata: metadata.optional(),
  payment_method_types: z.array(z.literal("card")).optional(),
});

const expandParams = z.strictObject({ expand: z.array(z.literal("latest_charge")).optional() });
const expandPaymentMethodParams = z.strictObject({ expand: z.array(z.literal("payment_method")).optional() });
const noParams = z.strictObject({});

const payParams = z.strictObject({
  method: z.enum(["card", "bank_transfer"]).default("card"),
  async_outcome: z.enum(["succeeded", "failed"]).default("succeeded"),
});
const saveCardParams = z.strictObject({ card: z.enum(TEST_CARD_NUMBERS).default("4242424242424242") });
const refundParams = z.strictObject({ amount: integer(1, 99_999_999).optional() });
const disputeParams = z.strictObject({ amount: integer(1, 99_999_999).optional(), reason: z.string().max(100).default("fraudulent") });
const closeDisputeParams = z.strictObject({ status: z.enum(["won", "lost"]) });

// ───────────────────────────── the server ─────────────────────────────

type Reply = { status: number; json?: Json; html?: string; redirect?: string };
interface RequestContext {
  req: IncomingMessage;
  /** The raw body, as Stripe compares it for idempotent replays. */
  body: string;
  params: Json;
  /** The path's captured id. */
  id: string;
}
type Handler = (ctx: RequestContext) => Promise<Reply> | Reply;

interface Settings {
  webhookSecret: string;
  webhookUrl: string | null;
  asyncDelayMs: number;
  retryDelaysMs: number[];
  redirectWaitMs: number;
  log: (line: string) => void;
}

class StripeMockServer {
  readonly stripe = new MockStripe();
  /** Called when state may have changed (set when the state is kept in a file). */
  changed?: () => void;
  private readonly pending = new Set<Promise<unknown>>();
  private readonly aborter = new AbortController();
  private readonly routes: [string, RegExp, Handler][];
  private closed = false;

  constructor(private readonly options: Settings) {
    // Every delivery and pause listens for shutdown on this one signal.
    setMaxListeners(0, this.aborter.signal);
    const api = (h: Handler): Handler => (ctx) => {
      authenticate(ctx.req);
      this.stripe.apiVersion = headerValue(ctx.req, "stripe-version") ?? this.stripe.apiVersion;
      return h(ctx);
    };
    const id = "([A-Za-z0-9_]+)";
    this.routes = [
      ["POST", /^\/v1\/checkout\/sessions$/, api((c) => this.idempotently(c, () => this.createSession(c.params)))],
      ["GET", /^\/v1\/checkout\/sessions$/, api((c) => this.listSessions(c.params))],
      ["GET", new RegExp(`^/v1/checkout/sessions/${id}$`), api((c) => this.retrieveSession(c.id, c.params))],
      ["POST", new RegExp(`^/v1/checkout/sessions/${id}/expire$`), api((c) => this.expire(c.id, c.params))],
      ["POST", /^\/v1\/customers$/, api((c) => this.idempotently(c, () => this.createCustomer(c.params)))],
      ["GET", new RegExp(`^/v1/customers/${id}$`), api((c) => this.retrieveCustomer(c.id, c.params))],
      ["GET", new RegExp(`^/v1/customers/${id}/payment_methods$`), api((c) => this.listPaymentMethods(c.id, c.params))],
      ["GET", new RegExp(`^/v1/payment_methods/${id}$`), api((c) => this.retrievePaymentMethod(c.id, c.params))],
      ["POST", new RegExp(`^/v1/payment_methods/${id}/detach$`), api((c) => this.detachPaymentMethod(c.id, c.params))],
      ["GET", new RegExp(`^/v1/setup_intents/${id}$`), api((c) => this.retrieveSetupIntent(c.id, c.params))],
      ["POST", /^\/v1\/payment_intents$/, api((c) => this.idempotently(c, () => this.createIntent(c.params)))],
      ["GET", new RegExp(`^/v1/payment_intents/${id}$`), api((c) => this.retrieveIntent(c.id, c.params))],
      ["GET", new RegExp(`^/checkout/${id}$`), (c) => this.checkoutPage(c.id)],
      ["POST", new RegExp(`^/checkout/${id}/pay$`), (c) => this.payFromPage(c.id, c.params)],
      ["POST", new RegExp(`^/checkout/${id}/save$`), (c) => this.saveFromPage(c.id, c.params)],
      ["GET", new RegExp(`^/checkout/${id}/cancel$`), (c) => this.cancel(c.id)],
      ["GET", new RegExp(`^/receipts/${id}$`), (c) => this.receiptPage(c.id)],
      ["POST", new RegExp(`^/_mock/checkout/sessions/${id}/pay$`), (c) => this.payFromControl(c.id, c.params)],
      ["POST", new RegExp(`^/_mock/checkout/sessions/${id}/save$`), (c) => this.saveFromControl(c.id, c.params)],
      ["POST", new RegExp(`^/_mock/charges/${id}/refund$`), (c) => this.refund(c.id, c.params)],
      ["POST", new RegExp(`^/_mock/charges/${id}/dispute$`), (c) => this.dispute(c.id, c.params)],
      ["POST", new RegExp(`^/_mock/disputes/${id}/close$`), (c) => this.closeDispute(c.id, c.params)],
      ["POST", new RegExp(`^/_mock/events/${id}/deliver$`), (c) => this.redeliver(c.id)],
      ["GET", /^\/_mock\/events$/, (c) => this.listEvents(c.params)],
      ["GET", /^\/_mock\/charges$/, () => this.listCharges()],
    ];
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== "GET") this.changed?.();
    const requestId = newId("req");
    let reply: Reply;
    try {
      reply = await this.route(req);
    } catch (error) {
      reply = error instanceof StripeError ? stripeErrorReply(error) : stripeErrorReply(new StripeError(500, "Internal mock error.", undefined, undefined, "api_error"));
      if (!(error instanceof StripeError)) this.options.log(`[stripe-mock] ${req.method} ${req.url} failed: ${(error as Error).message}`);
    }
    const headers: Record<string, string> = { "Request-Id": requestId, "Cache-Control": "no-store" };
    if (reply.redirect) {
      res.writeHead(reply.status, { ...headers, Location: reply.redirect }).end();
    } else if (reply.html !== undefined) {
      res.writeHead(reply.status, { ...headers, "Content-Type": "text/html; charset=utf-8" }).end(reply.html);
    } else {
      res.writeHead(reply.status, { ...headers, "Content-Type": "application/json" }).end(JSON.stringify(reply.json ?? {}, null, 2));
    }
  }

  private async route(req: IncomingMessage): Promise<Reply> {
    const url = new URL(req.url ?? "/", "http://mock");
    const body = await readBody(req);
    const params = parseBody(headerValue(req, "content-type"), body || url.search.slice(1));
    const candidates = this.routes.filter(([, pattern]) => pattern.test(url.pathname));
    const route = candidates.find(([method]) => method === req.method);
    if (!route) {
      if (candidates.length) throw new StripeError(405, `${req.method} is not allowed on ${url.pathname}.`);
      throw new StripeError(404, `Unrecognized request URL (${req.method}: ${url.pathname}).`);
    }
    const id = route[1].exec(url.pathname)![1] ?? "";
    return route[2]({ req, body, params, id });
  }

  // ── API ──

  private idempotently({ req, body }: RequestContext, create: () => Reply): Reply {
    const key = headerValue(req, "idempotency-key");
    if (!key) return create();
    const fingerprint = `${req.method} ${req.url} ${body}`;
    const seen = this.stripe.idempotent.get(key);
    if (seen) {
      if (seen.fingerprint !== fingerprint) {
        throw new StripeError(400, `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`, undefined, undefined, "idempotency_error");
      }
      return { status: seen.status, json: seen.body };
    }
    const reply = create();
    // As Stripe: once the request ran, its result is kept, a declined card's 402 too.
    if ((reply.status < 300 || reply.status === 402) && reply.json) this.stripe.idempotent.set(key, { fingerprint, status: reply.status, body: reply.json });
    return reply;
  }

  private createSession(raw: Json): Reply {
    if (raw.mode === "setup") return this.createSetupSession(raw);
    const p = parseParams(createSessionParams, raw);
    const currencies = new Set(p.line_items.map((item) => item.price_data.currency));
    if (currencies.size > 1) throw new StripeError(400, "All line items must have the same currency.", "line_items");
    const amountTotal = p.line_items.reduce((sum, item) => sum + item.price_data.unit_amount * item.quantity, 0);
    if (amountTotal < 50) throw new StripeError(400, "The Checkout Session's total amount due must add up to at least 50 cents.", "line_items", "amount_too_small");
    const created = now();
    const session: Session = {
      id: newId("cs_test"),
      created,
      expiresAt: p.expires_at ?? created + 24 * 3600,
      status: "open",
      paymentStatus: "unpaid",
      amountTotal,
      currency: [...currencies][0]!,
      successUrl: p.success_url,
      cancelUrl: p.cancel_url ?? null,
      clientReferenceId: p.client_reference_id ?? null,
      customerEmail: p.customer_email ?? null,
      metadata: p.metadata ?? {},
      intentMetadata: p.payment_intent_data?.metadata ?? {},
      lineItems: p.line_items.map((item) => ({
        name: item.price_data.product_data.name,
        description: item.price_data.product_data.description ?? null,
        unitAmount: item.price_data.unit_amount,
        quantity: item.quantity,
      })),
      paymentIntent: null,
    };
    this.stripe.sessions.set(session.id, session);
    this.options.log(`[stripe-mock] checkout session ${session.id} for ${formatAmount(amountTotal, session.currency)}`);
    return ok(this.stripe.sessionJson(session));
  }

  private createSetupSession(raw: Json): Reply {
    const p = parseParams(createSetupSessionParams, raw);
    this.stripe.customer(p.customer);
    const created = now();
    const session: Session = {
      id: newId("cs_test"),
      mode: "setup",
      created,
      expiresAt: p.expires_at ?? created + 24 * 3600,
      status: "open",
      paymentStatus: "unpaid",
      amountTotal: 0,
      currency: p.currency ?? "usd",
      successUrl: p.success_url,
      cancelUrl: p.cancel_url ?? null,
      clientReferenceId: p.client_reference_id ?? null,
      customerEmail: null,
      metadata: p.metadata ?? {},
      intentMetadata: {},
      lineItems: [],
      paymentIntent: null,
      customer: p.customer,
      setupIntent: null,
      setupIntentMetadata: p.setup_intent_data?.metadata ?? {},
    };
    this.stripe.sessions.set(session.id, session);
    this.options.log(`[stripe-mock] setup session ${session.id} for ${p.customer}`);
    return ok(this.stripe.sessionJson(session));
  }

  private createCustomer(raw: Json): Reply {
    const p = parseParams(createCustomerParams, raw);
    const customer: Customer = { id: newId("cus"), created: now(), name: p.name ?? null, email: p.email ?? null, description: p.description ?? null, metadata: p.metadata ?? {} };
    this.stripe.customers.set(customer.id, customer);
    return ok(this.stripe.customerJson(customer));
  }

  private retrieveCustomer(id: string, raw: Json): Reply {
    parseParams(noParams, raw);
    return ok(this.stripe.customerJson(this.stripe.customer(id, "id")));
  }

  private listPaymentMethods(customerId: string, raw: Json): Reply {
    const p = parseParams(listPaymentMethodsParams, raw);
    this.stripe.customer(customerId, "id");
    const data = [...this.stripe.paymentMethods.values()].filter((pm) => pm.customer === customerId).reverse();
    const limit = p.limit ?? 10;
    return ok({ object: "list", url: `/v1/customers/${customerId}/payment_methods`, has_more: data.length > limit, data: data.slice(0, limit).map((pm) => this.stripe.paymentMethodJson(pm)) });
  }

  private retrievePaymentMethod(id: string, raw: Json): Reply {
    parseParams(noParams, raw);
    return ok(this.stripe.paymentMethodJson(this.stripe.paymentMethod(id, "id")));
  }

  private detachPaymentMethod(id: string, raw: Json): Reply {
    parseParams(noParams, raw);
    const pm = this.stripe.paymentMethod(id, "id");
    if (!pm.customer) throw new StripeError(400, `The payment method you provided is not attached to a customer so detachment is impossible.`, undefined, "payment_method_unexpected_state");
    pm.customer = null;
    return ok(this.stripe.paymentMethodJson(pm));
  }

  private retrieveSetupIntent(id: string, raw: Json): Reply {
    const p = parseParams(expandPaymentMethodParams, raw);
    const intent = this.stripe.setupIntents.get(id);
    if (!intent) throw new StripeError(404, `No such setupintent: '${id}'`, "intent", "resource_missing");
    return ok(this.stripe.setupIntentJson(intent, p.expand?.includes("payment_method")));
  }

  /**
   * A confirmed payment with a customer's saved card, as an off-session charge
   * is: it succeeds, or the card declines (a 402 card_error naming the payment
   * intent, which then waits for another payment method).
   */
  private createIntent(raw: Json): Reply {
    const p = parseParams(createIntentParams, raw);
    if (p.amount < 50) throw new StripeError(400, "Amount must be at least $0.50 usd", "amount", "amount_too_small");
    this.stripe.customer(p.customer);
    const method = this.stripe.paymentMethod(p.payment_method);
    if (method.customer !== p.customer) {
      throw new StripeError(400, `The PaymentMethod ${method.id} does not belong to the Customer ${p.customer}. Attach it to the Customer first.`, "payment_method");
    }
    const card = TEST_CARDS[method.number];
    const created = now();
    const intent: PaymentIntent = {
      id: newId("pi"),
      created,
      amount: p.amount,
      currency: p.currency,
      status: card.declines ? "requires_payment_method" : "succeeded",
      latestCharge: null,
      metadata: p.metadata ?? {},
      customer: p.customer,
      paymentMethod: card.declines ? null : method.id,
      description: p.description ?? null,
      lastPaymentError: null,
    };
    const charge: Charge = {
      id: newId("ch"),
      created,
      amount: p.amount,
      amountRefunded: 0,
      currency: p.currency,
      paymentIntent: intent.id,
      status: card.declines ? "failed" : "succeeded",
      disputed: false,
      description: p.description ?? null,
      refunds: [],
    };
    intent.latestCharge = charge.id;
    this.stripe.intents.set(intent.id, intent);
    this.stripe.charges.set(charge.id, charge);
    if (!card.declines) {
      this.options.log(`[stripe-mock] ${intent.id} charged ${formatAmount(p.amount, p.currency)} to ${card.brand} ${card.last4} (${charge.id})`);
      this.deliverInBackground(this.stripe.newEvent("payment_intent.succeeded", this.stripe.intentJson(intent)));
      return ok(this.stripe.intentJson(intent));
    }
    const error = {
      type: "card_error",
      code: "card_declined",
      decline_code: "generic_decline",
      message: "Your card was declined.",
      charge: charge.id,
      payment_method: this.stripe.paymentMethodJson(method),
    };
    intent.lastPaymentError = error;
    this.options.log(`[stripe-mock] ${intent.id} declined: ${card.brand} ${card.last4}`);
    this.deliverInBackground(this.stripe.newEvent("payment_intent.payment_failed", this.stripe.intentJson(intent)));
    return { status: 402, json: { error: { ...error, payment_intent: this.stripe.intentJson(intent) } } };
  }

  private listSessions(raw: Json): Reply {
    const p = parseParams(listSessionParams, raw);
    const data = [...this.stripe.sessions.values()]
      .filter((s) => !p.payment_intent || s.paymentIntent === p.payment_intent)
      .reverse();
    const limit = p.limit ?? 10;
    return ok({ object: "list", url: "/v1/checkout/sessions", has_more: data.length > limit, data: data.slice(0, limit).map((s) => this.stripe.sessionJson(s)) });
  }

  private retrieveSession(id: string, raw: Json): Reply {
    parseParams(noParams, raw);
    return ok(this.stripe.sessionJson(this.stripe.session(id)));
  }

  private expire(id: string, raw: Json): Reply {
    parseParams(noParams, raw);
    const session = this.stripe.session(id);
    if (session.status !== "open") throw new StripeError(400, `Only open Checkout Sessions can be expired; this one is ${session.status}.`, undefined, "checkout_session_not_open");
    session.status = "expired";
    this.deliverInBackground(this.stripe.newEvent("checkout.session.expired", this.stripe.sessionJson(session)));
    return ok(this.stripe.sessionJson(session));
  }

  private retrieveIntent(id: string, raw: Json): Reply {
    const p = parseParams(expandParams, raw);
    const intent = this.stripe.intents.get(id);
    if (!intent) throw new StripeError(404, `No such payment_intent: '${id}'`, "id", "resource_missing");
    return ok(this.stripe.intentJson(intent, p.expand?.includes("latest_charge")));
  }

  // ── paying ──

  /** Completes a session; a bank transfer completes unpaid and settles later. Returns the event to deliver first. */
  private pay(session: Session, method: "card" | "bank_transfer", asyncOutcome: "succeeded" | "failed"): MockEvent {
    if (session.status !== "open") throw new StripeError(400, `This Checkout Session is ${session.status}; it can no longer be paid.`, undefined, "checkout_session_not_open");
    if (session.mode === "setup") throw new StripeError(400, `Checkout Session ${session.id} is in setup mode: save a card instead.`);
    const created = now();
    const intent: PaymentIntent = {
      id: newId("pi"),
      created,
      amount: session.amountTotal,
      currency: session.currency,
      status: method === "card" ? "succeeded" : "processing",
      latestCharge: null,
      metadata: session.intentMetadata,
    };
    const charge: Charge = {
      id: newId("ch"),
      created,
      amount: session.amountTotal,
      amountRefunded: 0,
      currency: session.currency,
      paymentIntent: intent.id,
      status: method === "card" ? "succeeded" : "pending",
      disputed: false,
      description: session.lineItems[0]?.description ?? session.lineItems[0]?.name ?? null,
      refunds: [],
    };
    intent.latestCharge = charge.id;
    this.stripe.intents.set(intent.id, intent);
    this.stripe.charges.set(charge.id, charge);
    session.status = "complete";
    session.paymentIntent = intent.id;
    session.paymentStatus = method === "card" ? "paid" : "unpaid";
    this.options.log(`[stripe-mock] ${session.id} paid by ${method === "card" ? "card" : "bank transfer"} (${charge.id})`);
    if (method === "bank_transfer") this.later(this.options.asyncDelayMs, () => this.settle(session, intent, charge, asyncOutcome));
    return this.stripe.newEvent("checkout.session.completed", this.stripe.sessionJson(session));
  }

  private settle(session: Session, intent: PaymentIntent, charge: Charge, outcome: "succeeded" | "failed"): void {
    const succeeded = outcome === "succeeded";
    intent.status = succeeded ? "succeeded" : "requires_payment_method";
    charge.status = succeeded ? "succeeded" : "failed";
    if (succeeded) session.paymentStatus = "paid";
    const type = succeeded ? "checkout.session.async_payment_succeeded" : "checkout.session.async_payment_failed";
    this.deliverInBackground(this.stripe.newEvent(type, this.stripe.sessionJson(session)));
  }

  private async payFromPage(id: string, raw: Json): Promise<Reply> {
    const session = this.stripe.sessions.get(id);
    if (!session) return { status: 404, html: page("Not found", "<h1>Checkout not found</h1><p>This payment link is not valid.</p>") };
    if (session.status !== "open" || session.mode === "setup") return this.checkoutPage(id);
    const p = parseParams(payParams, raw);
    const event = this.pay(session, p.method, p.async_outcome);
    await this.deliverBriefly(event);
    return { status: 303, redirect: session.successUrl.replaceAll("{CHECKOUT_SESSION_ID}", session.id) };
  }

  private async payFromControl(id: string, raw: Json): Promise<Reply> {
    const p = parseParams(payParams, raw);
    const session = this.stripe.session(id);
    const event = this.pay(session, p.method, p.async_outcome);
    await this.deliverBriefly(event);
    const intent = this.stripe.intents.get(session.paymentIntent!)!;
    return ok({ session: this.stripe.sessionJson(session), payment_intent: this.stripe.intentJson(intent, true), event: event.id });
  }

  /** Completes a setup session: the test card becomes a payment method of its customer. Returns the event to deliver first. */
  private saveCard(session: Session, number: TestCardNumber): MockEvent {
    if (session.status !== "open") throw new StripeError(400, `This Checkout Session is ${session.status}; it can no longer be completed.`, undefined, "checkout_session_not_open");
    const created = now();
    const customer = session.customer!;
    const method: PaymentMethod = { id: newId("pm"), created, customer, number, expMonth: 12, expYear: new Date().getUTCFullYear() + 4 };
    const intent: SetupIntent = { id: newId("seti"), created, customer, paymentMethod: method.id, metadata: session.setupIntentMetadata ?? {} };
    this.stripe.paymentMethods.set(method.id, method);
    this.stripe.setupIntents.set(intent.id, intent);
    session.status = "complete";
    session.setupIntent = intent.id;
    this.options.log(`[stripe-mock] ${session.id} saved card ${TEST_CARDS[number].last4} as ${method.id} for ${customer}`);
    const completed = this.stripe.newEvent("checkout.session.completed", this.stripe.sessionJson(session));
    this.deliverInBackground(this.stripe.newEvent("setup_intent.succeeded", this.stripe.setupIntentJson(intent)));
    return completed;
  }

  private async saveFromPage(id: string, raw: Json): Promise<Reply> {
    const session = this.stripe.sessions.get(id);
    if (!session || session.mode !== "setup") return { status: 404, html: page("Not found", "<h1>Checkout not found</h1><p>This link is not valid.</p>") };
    if (session.status !== "open") return this.checkoutPage(id);
    const p = parseParams(saveCardParams, raw);
    await this.deliverBriefly(this.saveCard(session, p.card));
    return { status: 303, redirect: session.successUrl.replaceAll("{CHECKOUT_SESSION_ID}", session.id) };
  }

  private async saveFromControl(id: string, raw: Json): Promise<Reply> {
    const p = parseParams(saveCardParams, raw);
    const session = this.stripe.session(id);
    if (session.mode !== "setup") throw new StripeError(400, `Checkout Session ${id} is not in setup mode; pay it instead.`);
    const event = this.saveCard(session, p.card);
    await this.deliverBriefly(event);
    const intent = this.stripe.setupIntents.get(session.setupIntent!)!;
    return ok({ session: this.stripe.sessionJson(session), setup_intent: this.stripe.setupIntentJson(intent, true), event: event.id });
  }

  private cancel(id: string): Reply {
    const session = this.stripe.sessions.get(id);
    if (!session) return { status: 404, html: page("Not found", "<h1>Checkout not found</h1>") };
    if (!session.cancelUrl) return { status: 200, html: page("Canceled", "<h1>Payment canceled</h1><p>You can close this page.</p>") };
    return { status: 303, redirect: session.cancelUrl };
  }

  // ── refunds and disputes ──

  private async refund(chargeId: string, raw: Json): Promise<Reply> {
    const p = parseParams(refundParams, raw);
    const charge = this.stripe.charge(chargeId);
    if (charge.status !== "succeeded") throw new StripeError(400, `Charge ${chargeId} has not succeeded; it cannot be refunded.`, "charge");
    const remaining = charge.amount - charge.amountRefunded;
    const amount = p.amount ?? remaining;
    if (remaining === 0) throw new StripeError(400, `Charge ${chargeId} has already been refunded.`, "charge", "charge_already_refunded");
    // As Stripe: a disputed charge is settled through the dispute, not refunded.
    if (charge.disputed) throw new StripeError(400, `Charge ${chargeId} has been charged back; it cannot be refunded.`, "charge", "charge_disputed");
    if (amount > remaining) throw new StripeError(400, `Refund amount (${amount}) is greater than unrefunded amount on charge (${remaining}).`, "amount");
    const refund: Refund = { id: newId("re"), created: now(), amount, charge: charge.id, paymentIntent: charge.paymentIntent };
    charge.refunds.push(refund);
    charge.amountRefunded += amount;
    const event = this.stripe.newEvent("charge.refunded", this.stripe.chargeJson(charge));
    await this.deliverBriefly(event);
    return ok({ refund: this.stripe.refundJson(refund), charge: this.stripe.chargeJson(charge), event: event.id });
  }

  private async dispute(chargeId: string, raw: Json): Promise<Reply> {
    const p = parseParams(disputeParams, raw);
    const charge = this.stripe.charge(chargeId);
    if (charge.status !== "succeeded") throw new StripeError(400, `Charge ${chargeId} has not succeeded; it cannot be disputed.`, "charge");
    if (charge.disputed) throw new StripeError(400, `Charge ${chargeId} is already disputed.`, "charge", "charge_disputed");
    const amount = p.amount ?? charge.amount - charge.amountRefunded;
    if (amount > charge.amount - charge.amountRefunded) throw new StripeError(400, "A dispute cannot exceed the unrefunded amount.", "amount");
    const dispute: Dispute = { id: newId("dp"), created: now(), amount, charge: charge.id, paymentIntent: charge.paymentIntent, currency: charge.currency, reason: p.reason, status: "needs_response" };
    charge.disputed = true;
    this.stripe.disputes.set(dispute.id, dispute);
    const event = this.stripe.newEvent("charge.dispute.created", this.stripe.disputeJson(dispute));
    await this.deliverBriefly(event);
    return ok({ dispute: this.stripe.disputeJson(dispute), event: event.id });
  }

  private async closeDispute(id: string, raw: Json): Promise<Reply> {
    const p = parseParams(closeDisputeParams, raw);
    const dispute = this.stripe.disputes.get(id);
    if (!dispute) throw new StripeError(404, `No such dispute: '${id}'`, "dispute", "resource_missing");
    if (dispute.status !== "needs_response") throw new StripeError(400, `Dispute ${id} is already ${dispute.status}.`);
    dispute.status = p.status;
    const event = this.stripe.newEvent("charge.dispute.closed", this.stripe.disputeJson(dispute));
    await this.deliverBriefly(event);
    return ok({ dispute: this.stripe.disputeJson(dispute), event: event.id });
  }

  // ── events ──

  private async redeliver(id: string): Promise<Reply> {
    const event = this.stripe.events.find((e) => e.id === id);
    if (!event) throw new StripeError(404, `No such event: '${id}'`, "id", "resource_missing");
    await this.attempt(event);
    return ok(eventView(event));
  }

  private listEvents(raw: Json): Reply {
    const p = parseParams(z.strictObject({ type: z.string().optional() }), raw);
    return ok({ object: "list", data: this.stripe.events.filter((e) => !p.type || e.type === p.type).map(eventView) });
  }

  private listCharges(): Reply {
    const charges = [...this.stripe.charges.values()].reverse();
    return ok({ object: "list", data: charges.map((c) => this.stripe.chargeJson(c)) });
  }

  /** Delivers with retries in the background, waiting a little for the first success (so the app is usually up to date on redirect). */
  private async deliverBriefly(event: MockEvent): Promise<void> {
    const delivery = this.deliverInBackground(event);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.redirectWaitMs)));
    await Promise.race([delivery, timeout]);
    clearTimeout(timer);
  }

  private deliverInBackground(event: MockEvent): Promise<unknown> {
    return this.track(this.deliverWithRetries(event));
  }

  private async deliverWithRetries(event: MockEvent): Promise<void> {
    if (!this.options.webhookUrl) return;
    for (let attempt = 0; !this.closed; attempt++) {
      if (await this.attempt(event)) return;
      const pause = this.options.retryDelaysMs[attempt];
      if (pause === undefined) return;
      await this.sleep(pause);
    }
  }

  /** One signed POST of the event; true when the app answered 2xx. */
  private async attempt(event: MockEvent): Promise<boolean> {
    const url = this.options.webhookUrl;
    if (!url) return false;
    const at = new Date().toISOString();
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json; charset=utf-8",
          "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
          "Stripe-Signature": signPayload(event.payload, this.options.webhookSecret),
        },
        body: event.payload,
        signal: AbortSignal.any([this.aborter.signal, AbortSignal.timeout(30_000)]),
      });
      await response.arrayBuffer().catch(() => undefined);
      event.deliveries.push({ at, status: response.status });
      this.options.log(`[stripe-mock] ${event.type} ${event.id} → ${response.status}`);
      return response.ok;
    } catch (error) {
      const message = (error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      event.deliveries.push({ at, status: null, error: message });
      if (!this.closed) this.options.log(`[stripe-mock] ${event.type} ${event.id} → not delivered (${message})`);
      return false;
    }
  }

  // ── timers ──

  /** Resolves after `ms`, or at once when the mock shuts down. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.aborter.signal.removeEventListener("abort", wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.aborter.signal.addEventListener("abort", wake);
    });
  }

  private later(ms: number, run: () => void): void {
    this.track(this.sleep(ms).then(() => (this.closed ? undefined : run())));
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.pending.add(promise);
    void promise.finally(() => this.pending.delete(promise)).catch(() => undefined);
    return promise;
  }

  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  shutdown(): void {
    this.closed = true;
    this.aborter.abort();
  }

  // ── pages ──

  private checkoutPage(id: string): Reply {
    const session = this.stripe.sessions.get(id);
    if (!session) return { status: 404, html: page("Not found", "<h1>Checkout not found</h1><p>This payment link is not valid.</p>") };
    if (session.mode === "setup") return this.setupPage(session);
    const amount = formatAmount(session.amountTotal, session.currency);
    const item = session.lineItems[0]!;
    if (session.status !== "open") {
      const where = session.status === "complete" ? session.successUrl.replaceAll("{CHECKOUT_SESSION_ID}", session.id) : session.cancelUrl;
      const body = `<h1>This checkout is ${session.status === "complete" ? "already paid" : "expired"}</h1>
        ${where ? `<p><a href="${escapeHtml(where)}">Return to the merchant</a></p>` : ""}`;
      return { status: 200, html: page("Checkout closed", body) };
    }
    const body = `
      <p class="notice" role="note">Test mode: this is a local Stripe mock and no money moves.</p>
      <h1>${escapeHtml(item.name)}</h1>
      <p class="amount" aria-label="Amount due">${escapeHtml(amount)}</p>
      ${item.description ? `<p>${escapeHtml(item.description)}</p>` : ""}
      <form method="post" action="/checkout/${escapeHtml(session.id)}/pay">
        <input type="hidden" name="method" value="card">
        <button type="submit" class="primary">Pay ${escapeHtml(amount)}</button>
      </form>
      <form method="post" action="/checkout/${escapeHtml(session.id)}/pay">
        <input type="hidden" name="method" value="bank_transfer">
        <button type="submit">Pay by bank transfer</button>
        <p class="hint">Completes now as processing; the bank confirms it a moment later.</p>
      </form>
      <p><a href="/checkout/${escapeHtml(session.id)}/cancel">Cancel</a></p>`;
    return { status: 200, html: page(`Pay ${amount}`, body) };
  }

  /** Setup mode: a test card is saved for later payments; nothing is charged now. */
  private setupPage(session: Session): Reply {
    if (session.status !== "open") {
      const where = session.status === "complete" ? session.successUrl.replaceAll("{CHECKOUT_SESSION_ID}", session.id) : session.cancelUrl;
      const body = `<h1>This card was ${session.status === "complete" ? "already saved" : "not saved: the link expired"}</h1>
        ${where ? `<p><a href="${escapeHtml(where)}">Return to the merchant</a></p>` : ""}`;
      return { status: 200, html: page("Checkout closed", body) };
    }
    const cards = TEST_CARD_NUMBERS.map((number) => {
      const card = TEST_CARDS[number];
      const hint = card.declines ? "Saved now; declined when it is charged later." : "Saved now; charges succeed.";
      return `<form method="post" action="/checkout/${escapeHtml(session.id)}/save">
        <input type="hidden" name="card" value="${number}">
        <button type="submit"${card.declines ? "" : ' class="primary"'}>Save card ${card.label}</button>
        <p class="hint">${hint}</p>
      </form>`;
    }).join("");
    const body = `
      <p class="notice" role="note">Test mode: this is a local Stripe mock and no money moves.</p>
      <h1>Save a card</h1>
      <p>The card is kept by Stripe for future payments you allow. Nothing is charged now.</p>
      ${cards}
      <p><a href="/checkout/${escapeHtml(session.id)}/cancel">Cancel</a></p>`;
    return { status: 200, html: page("Save a card", body) };
  }

  private receiptPage(chargeId: string): Reply {
    const charge = this.stripe.charges.get(chargeId);
    if (!charge) return { status: 404, html: page("Not found", "<h1>Receipt not found</h1>") };
    const rows: [string, string][] = [
      ["Amount paid", formatAmount(charge.amount, charge.currency)],
      ["Date paid", isoDay(new Date(charge.created * 1000))],
      ["Description", charge.description ?? ""],
      ["Status", charge.status],
      ["Refunded", formatAmount(charge.amountRefunded, charge.currency)],
      ["Receipt number", charge.id],
    ];
    const body = `<h1>Receipt</h1><p class="notice" role="note">Test mode receipt from the local Stripe mock.</p>
      <dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join("")}</dl>`;
    return { status: 200, html: page(`Receipt ${charge.id}`, body) };
  }
}

// ───────────────────────────── helpers ─────────────────────────────

function ok(json: Json): Reply {
  return { status: 200, json };
}

function stripeErrorReply(error: StripeError): Reply {
  const body: Json = { type: error.type, message: error.message };
  if (error.param) body.param = error.param;
  if (error.code) body.code = error.code;
  return { status: error.status, json: { error: body } };
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function authenticate(req: IncomingMessage): void {
  const header = headerValue(req, "authorization");
  if (!header) {
    throw new StripeError(401, "You did not provide an API key. Provide it in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer sk_test_…').");
  }
  const key = /^Bearer (\S+)$/.exec(header)?.[1] ?? "";
  if (!/^sk_test_\S+$/.test(key)) {
    const shown = key.length > 12 ? `${key.slice(0, 8)}${"*".repeat(4)}${key.slice(-4)}` : "****";
    throw new StripeError(401, `Invalid API Key provided: ${shown}. The Stripe mock accepts test keys (sk_test_…) only.`, undefined, "api_key_invalid");
  }
}

const MAX_BODY = 1_000_000;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new StripeError(413, "Request body too large.");
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function parseBody(contentType: string | undefined, text: string): Json {
  if (!text) return {};
  if (contentType?.startsWith("application/json")) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
        // Controls accept JSON numbers; the parameter schemas read strings, as forms send.
        return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, typeof v === "number" ? String(v) : v]));
      }
    } catch {
      // fall through
    }
    throw new StripeError(400, "Invalid JSON body.");
  }
  return parseStripeForm(text);
}

/** Stripe's webhook signature: t=<unix seconds>,v1=HMAC-SHA256(secret, "<t>.<payload>") in hex. */
export function signPayload(payload: string, secret: string, timestamp = now()): string {
  const signature = createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${signature}`;
}

function eventView(e: MockEvent): Json {
  return { id: e.id, type: e.type, created: e.created, deliveries: e.deliveries, event: JSON.parse(e.payload) as Json };
}

function formatAmount(minor: number, currency: string): string {
  const whole = Math.floor(minor / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const cents = String(minor % 100).padStart(2, "0");
  return currency === "usd" ? `$${whole}.${cents}` : `${whole}.${cents} ${currency.toUpperCase()}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)} · Stripe mock</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; color: #1a1a1a; background: #f6f7f9; margin: 0; }
  main { max-width: 28rem; margin: 3rem auto; background: #fff; padding: 2rem; border-radius: 8px; box-shadow: 0 1px 3px #0002; }
  h1 { font-size: 1.4rem; margin: 0 0 .5rem; }
  .amount { font-size: 2rem; font-weight: 700; margin: 0 0 1rem; }
  .notice { background: #fff4d6; border: 1px solid #c9a227; padding: .5rem .75rem; border-radius: 4px; font-size: .9rem; }
  .hint { font-size: .85rem; color: #4a4a4a; margin: .25rem 0 1rem; }
  button { font: inherit; width: 100%; padding: .75rem; margin-top: .75rem; border-radius: 6px; border: 1px solid #444; background: #fff; cursor: pointer; }
  button.primary { background: #0a2540; color: #fff; border-color: #0a2540; }
  button:focus-visible, a:focus-visible { outline: 3px solid #635bff; outline-offset: 2px; }
  a { color: #3c32d9; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .25rem 1rem; }
  dt { font-weight: 600; }
  dd { margin: 0; }
</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

// ───────────────────────────── start ─────────────────────────────

export async function startStripeMock(options: StripeMockOptions): Promise<StripeMock> {
  if (!/^whsec_\S+$/.test(options.webhookSecret)) throw new Error("startStripeMock: webhookSecret must be a whsec_… secret");
  const mock = new StripeMockServer({
    webhookSecret: options.webhookSecret,
    webhookUrl: options.webhookUrl ?? null,
    asyncDelayMs: options.asyncDelayMs ?? 2_000,
    retryDelaysMs: options.retryDelaysMs ?? [500, 1_000, 2_000, 4_000, 8_000],
    redirectWaitMs: options.redirectWaitMs ?? 10_000,
    log: options.log ?? (() => {}),
  });
  const persistence = options.stateFile ? keepStateIn(options.stateFile, mock, options.log ?? (() => {})) : null;
  const server = createServer((req, res) => void mock.handle(req, res));
  const host = options.host ?? "127.0.0.1";
  const port = await listen(server, host, options.port ?? 12111, options.fallbackToFreePort ?? false);
  const url = `http://${host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host}:${port}`;
  mock.stripe.publicUrl = (options.publicUrl ?? url).replace(/\/+$/, "");
  return {
    url,
    port,
    events: () => [...mock.stripe.events],
    settled: () => mock.settled(),
    close: () =>
      new Promise<void>((resolve) => {
        mock.shutdown();
        persistence?.flush();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Loads the state file (a missing or unreadable one starts empty) and writes it back, atomically, soon after each change. */
function keepStateIn(file: string, mock: StripeMockServer, log: (line: string) => void) {
  try {
    mock.stripe.restore(JSON.parse(readFileSync(file, "utf8")) as Json);
    log(`[stripe-mock] state restored from ${file}: ${mock.stripe.charges.size} charge(s), ${mock.stripe.events.length} event(s)`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") log(`[stripe-mock] could not read ${file}, starting empty: ${(error as Error).message}`);
  }
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, JSON.stringify(mock.stripe.snapshot()));
    renameSync(`${file}.tmp`, file);
  };
  // Writes come after the request (and its events, deliveries and bank transfers) has moved on.
  mock.changed = () => {
    clearTimeout(timer);
    timer = setTimeout(flush, 250);
    timer.unref();
  };
  mock.stripe.onEvent = mock.changed;
  return { flush };
}

function listen(server: Server, host: string, port: number, fallback: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE" && fallback && port !== 0) {
        server.listen(0, host);
      } else {
        reject(error);
      }
    };
    server.on("error", onError);
    server.on("listening", () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    });
    server.listen(port, host);
  });
}
