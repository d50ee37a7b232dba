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
