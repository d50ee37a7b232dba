import Stripe from "stripe";
import { describe, expect, it, vi } from "vitest";
import { DomainError } from "@/lib/errors";
import { billingConfig, callStripe, getStripe, MOCK_SECRET_KEY, tryStripe } from "./stripe";

const WHSEC = "whsec_0123456789abcdef0123456789abcdef";

describe("billing configuration", () => {
  it("uses the real Stripe API when a secret key and a webhook secret are set, whatever else is", () => {
    expect(billingConfig({ STRIPE_SECRET_KEY: "sk_live_abc123", STRIPE_WEBHOOK_SECRET: WHSEC, STRIPE_MOCK_URL: "http://127.0.0.1:12111" })).toEqual({
      configured: true,
      mode: "live",
      secretKey: "sk_live_abc123",
      webhookSecret: WHSEC,
    });
    expect(billingConfig({ STRIPE_SECRET_KEY: "sk_test_abc123", STRIPE_WEBHOOK_SECRET: WHSEC })).toMatchObject({ configured: true, mode: "test" });
  });

  it("uses the mock with a test key when only STRIPE_MOCK_URL and a webhook secret are set", () => {
    const config = billingConfig({ STRIPE_MOCK_URL: "http://127.0.0.1:12111", STRIPE_WEBHOOK_SECRET: WHSEC });
    expect(config).toMatchObject({ configured: true, mode: "mock", secretKey: MOCK_SECRET_KEY, webhookSecret: WHSEC });
    expect(config.configured && config.mode === "mock" && config.mockUrl.port).toBe("12111");
  });

  it.each([
    [{}, /STRIPE_SECRET_KEY/],
    [{ STRIPE_MOCK_URL: "http://127.0.0.1:12111" }, /STRIPE_WEBHOOK_SECRET is missing/],
    [{ STRIPE_SECRET_KEY: "sk_live_abc" }, /STRIPE_WEBHOOK_SECRET is missing/],
    [{ STRIPE_SECRET_KEY: "sk_live_abc", STRIPE_WEBHOOK_SECRET: "secret" }, /not a webhook signing secret/],
    [{ STRIPE_SECRET_KEY: "pk_live_abc", STRIPE_WEBHOOK_SECRET: WHSEC }, /not a Stripe secret key/],
    [{ STRIPE_MOCK_URL: "ftp://host", STRIPE_WEBHOOK_SECRET: WHSEC }, /STRIPE_MOCK_URL/],
    [{ STRIPE_SECRET_KEY: "  ", STRIPE_MOCK_URL: "", STRIPE_WEBHOOK_SECRET: WHSEC }, /STRIPE_SECRET_KEY/],
  ])("is not configured with %j, and says why", (env, reason) => {
    const config = billingConfig(env);
    expect(config.configured).toBe(false);
    expect(!config.configured && config.reason).toMatch(reason);
  });

  it("points the SDK at the mock through host, port and protocol, and caches the client per configuration", () => {
    const mock = billingConfig({ STRIPE_MOCK_URL: "http://127.0.0.1:12111", STRIPE_WEBHOOK_SECRET: WHSEC });
    const client = getStripe(mock);
    expect(client).toBeInstanceOf(Stripe);
    expect([client.getApiField("host"), client.getApiField("port"), client.getApiField("protocol")]).toEqual(["127.0.0.1", "12111", "http"]);
    expect(getStripe(billingConfig({ STRIPE_MOCK_URL: "http://127.0.0.1:12111", STRIPE_WEBHOOK_SECRET: WHSEC }))).toBe(client);

    const real = getStripe(billingConfig({ STRIPE_SECRET_KEY: "sk_test_abc", STRIPE_WEBHOOK_SECRET: WHSEC }));
    expect(real).not.toBe(client);
    expect([real.getApiField("host"), real.getApiField("protocol")]).toEqual(["api.stripe.com", "https"]);
  });

  it("throws a readable DomainError when not configured", () => {
    expect(() => getStripe(billingConfig({}))).toThrow(DomainError);
    expect(() => getStripe(billingConfig({}))).toThrow(/Payments are not set up/);
  });
});

describe("Stripe calls and their errors", () => {
  const declined = () => new Stripe.errors.StripeCardError({ type: "card_error", message: "Your card was declined.", code: "card_declined", decline_code: "insufficient_funds", payment_intent: { id: "pi_1" } } as never);
  const detached = () => new Stripe.errors.StripeInvalidRequestError({ type: "invalid_request_error", message: "No such PaymentMethod: 'pm_1'", code: "resource_missing" } as never);
  const unreachable = () => new Stripe.errors.StripeConnectionError({ type: "api_error", message: "An error occurred with our connection to Stripe." } as never);

  it("tells a decline, a refusal and an unreachable Stripe apart, and logs only what the caller cannot act on", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(await tryStripe("charging", async () => "pi_ok")).toEqual({ ok: true, value: "pi_ok" });
      expect(await tryStripe("charging", () => Promise.reject(declined()))).toEqual({
        ok: false,
        failure: { kind: "declined", code: "insufficient_funds", message: "Your card was declined.", paymentIntentId: "pi_1" },
      });
      expect(await tryStripe("detaching a card", () => Promise.reject(detached()))).toMatchObject({ ok: false, failure: { kind: "refused", code: "resource_missing" } });
      expect(logged).not.toHaveBeenCalled();
      expect(await tryStripe("charging", () => Promise.reject(unreachable()))).toMatchObject({ ok: false, failure: { kind: "unavailable" } });
      expect(logged).toHaveBeenCalledWith(expect.stringContaining("[billing] charging failed: unavailable"));
      // Not Stripe's: a bug of ours, thrown on.
      await expect(tryStripe("charging", () => Promise.reject(new TypeError("x is undefined")))).rejects.toThrow(TypeError);
    } finally {
      logged.mockRestore();
    }
  });

  it("gives a person a plain sentence for any failure, and the log Stripe's words", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(await callStripe("creating a customer", async () => "cus_1")).toBe("cus_1");
      await expect(callStripe("creating a customer", () => Promise.reject(unreachable()))).rejects.toThrow(
        new DomainError("payment_service_unavailable", "The payment service could not be reached. Please try again in a moment."),
      );
      await expect(callStripe("creating a Checkout Session", () => Promise.reject(detached()), "The payment could not start.")).rejects.toMatchObject({
        code: "payment_service_unavailable",
        message: "The payment could not start.",
      });
      expect(logged).toHaveBeenLastCalledWith("[billing] creating a Checkout Session failed: refused resource_missing No such PaymentMethod: 'pm_1'");
    } finally {
      logged.mockRestore();
    }
  });
});
