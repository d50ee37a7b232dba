import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { DomainError } from "@/lib/errors";
import { billingConfig, getStripe, MOCK_SECRET_KEY } from "./stripe";

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
