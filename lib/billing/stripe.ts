import Stripe from "stripe";
import { z } from "zod";
import { DomainError } from "@/lib/errors";

/**
 * Which Stripe the app talks to, decided by the environment alone:
 * - STRIPE_SECRET_KEY + STRIPE_WEBHOOK_SECRET: the real Stripe API;
 * - STRIPE_MOCK_URL + STRIPE_WEBHOOK_SECRET: the local Stripe mock
 *   (lib/billing/stripe-mock), with a test key;
 * - anything else: billing is not configured, and says why.
 * There is deliberately no default webhook secret: a publicly known secret
 * would let anyone forge a "payment succeeded" event.
 */
export type BillingConfig =
  | { configured: true; mode: "live" | "test"; secretKey: string; webhookSecret: string }
  | { configured: true; mode: "mock"; secretKey: string; webhookSecret: string; mockUrl: URL }
  | { configured: false; reason: string };

/** The mock accepts any test key; this one names itself in its logs. */
export const MOCK_SECRET_KEY = "sk_test_stripe_mock";

const secretKeySchema = z.string().regex(/^(sk|rk)_(live|test)_\S+$/);
const webhookSecretSchema = z.string().regex(/^whsec_\S{16,}$/);
const mockUrlSchema = z.url({ protocol: /^https?$/ });

type Env = Record<string, string | undefined>;

export function billingConfig(env: Env = process.env): BillingConfig {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim();
  const mockUrl = env.STRIPE_MOCK_URL?.trim();
  if (!secretKey && !mockUrl) {
    return notConfigured("Payments are not set up: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or run `npm run dev` to use the local Stripe mock.");
  }
  if (!webhookSecret) {
    // Money taken without a way to verify its webhook could never be credited.
    return notConfigured("Payments are not set up: STRIPE_WEBHOOK_SECRET is missing, so payments could not be confirmed.");
  }
  if (!webhookSecretSchema.safeParse(webhookSecret).success) {
    return notConfigured("Payments are not set up: STRIPE_WEBHOOK_SECRET is not a webhook signing secret (whsec_…).");
  }
  if (secretKey) {
    if (!secretKeySchema.safeParse(secretKey).success) {
      return notConfigured("Payments are not set up: STRIPE_SECRET_KEY is not a Stripe secret key (sk_live_… or sk_test_…).");
    }
    return { configured: true, mode: secretKey.includes("_live_") ? "live" : "test", secretKey, webhookSecret };
  }
  const url = mockUrlSchema.safeParse(mockUrl);
  if (!url.success) return notConfigured("Payments are not set up: STRIPE_MOCK_URL is not an http(s) URL.");
  return { configured: true, mode: "mock", secretKey: MOCK_SECRET_KEY, webhookSecret, mockUrl: new URL(url.data) };
}

function notConfigured(reason: string): BillingConfig {
  return { configured: false, reason };
}

/** A Stripe SDK client for a configuration: the real API, or the mock through host/port/protocol. */
export function createStripeClient(config: Extract<BillingConfig, { configured: true }>): Stripe {
  const options: Stripe.StripeConfig = { maxNetworkRetries: 2, timeout: 20_000 };
  if (config.mode === "mock") {
    const protocol = config.mockUrl.protocol === "https:" ? "https" : "http";
    Object.assign(options, {
      host: config.mockUrl.hostname,
      port: config.mockUrl.port || (protocol === "https" ? 443 : 80),
      protocol,
      telemetry: false,
    });
  }
  return new Stripe(config.secretKey, options);
}

const cache = ((globalThis as { __stripeClient?: { fingerprint?: string; client?: Stripe } }).__stripeClient ??= {});

/**
 * The application's client, created once per configuration (a changed
 * environment, as in tests, gets a new one). Throws a DomainError with a
 * readable message when billing is not configured.
 */
export function getStripe(config: BillingConfig = billingConfig()): Stripe {
  if (!config.configured) throw new DomainError("billing_not_configured", config.reason);
  const fingerprint = `${config.mode}|${config.mode === "mock" ? config.mockUrl.href : ""}|${config.secretKey}`;
  if (cache.fingerprint !== fingerprint || !cache.client) {
    cache.client = createStripeClient(config);
    cache.fingerprint = fingerprint;
  }
  return cache.client;
}

// ───────────────────────────── calls and their errors ─────────────────────────────

/**
 * What a Stripe call that failed means, whoever made it:
 * - `declined`: the card was refused (a card error);
 * - `refused`: a request that cannot succeed as sent (an invalid request:
 *   a detached card, an unknown object);
 * - `unavailable`: anything else Stripe answered or could not answer
 *   (network, rate limit, Stripe's own error, authentication): try later.
 */
export type StripeFailure =
  | { kind: "declined" | "refused"; code: string; message: string; paymentIntentId: string | null }
  | { kind: "unavailable"; code: string; message: string; paymentIntentId: null };

export type StripeOutcome<T> = { ok: true; value: T } | { ok: false; failure: StripeFailure };

/** A Stripe SDK error as a failure; null for anything else (a bug of ours, which is thrown on). */
export function stripeFailureOf(error: unknown): StripeFailure | null {
  if (!(error instanceof Stripe.errors.StripeError)) return null;
  const paymentIntentId = (error as { payment_intent?: { id?: string } }).payment_intent?.id ?? null;
  if (error instanceof Stripe.errors.StripeCardError) {
    return { kind: "declined", code: error.decline_code ?? error.code ?? "card_declined", message: error.message, paymentIntentId };
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError) {
    return { kind: "refused", code: error.code ?? "invalid_request", message: error.message, paymentIntentId };
  }
  return { kind: "unavailable", code: error.code ?? error.type, message: error.message, paymentIntentId: null };
}

/**
 * Runs one Stripe call: its value, or what its failure means. A Stripe that
 * could not answer is logged here (Stripe's messages redact keys: the log
 * gets the type, code and message); a decline or refusal is the caller's to
 * report. Errors that are not Stripe's are thrown on.
 */
export async function tryStripe<T>(what: string, call: () => Promise<T>): Promise<StripeOutcome<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    const failure = stripeFailureOf(error);
    if (!failure) throw error;
    if (failure.kind === "unavailable") logStripeFailure(what, failure);
    return { ok: false, failure };
  }
}

const UNAVAILABLE = "The payment service could not be reached. Please try again in a moment.";

/**
 * A Stripe call a person is waiting for: its value, or a DomainError
 * `payment_service_unavailable` with `message` (a plain sentence; the
 * details go to the log).
 */
export async function callStripe<T>(what: string, call: () => Promise<T>, message: string = UNAVAILABLE): Promise<T> {
  const outcome = await tryStripe(what, call);
  if (outcome.ok) return outcome.value;
  if (outcome.failure.kind !== "unavailable") logStripeFailure(what, outcome.failure);
  throw new DomainError("payment_service_unavailable", message);
}

function logStripeFailure(what: string, failure: StripeFailure): void {
  console.error(`[billing] ${what} failed: ${failure.kind} ${failure.code} ${failure.message}`);
}
