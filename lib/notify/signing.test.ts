import { describe, expect, it } from "vitest";
import { openSecret, sealSecret } from "./secret-box";
import { generateWebhookSecret, secretHint, signWebhook, verifyWebhook } from "./signing";

describe("Standard Webhooks signatures", () => {
  it("reproduces the published Standard Webhooks test vector exactly", () => {
    // The specification's vector: any Standard Webhooks library verifies what we sign.
    const signature = signWebhook("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}');
    expect(signature).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("verifies a fresh signature, and refuses a changed body, id, secret, or a timestamp older than five minutes", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const now = 1_800_000_000;
    const body = '{"type":"webhook.test"}';
    const headers = { id: "msg_1", timestamp: String(now), signature: signWebhook(secret, "msg_1", now, body) };
    expect(verifyWebhook(secret, headers, body, now)).toBe(true);
    expect(verifyWebhook(secret, { ...headers, signature: `v1,bm9wZQ== ${headers.signature}` }, body, now)).toBe(true);
    expect(verifyWebhook(secret, headers, body.replace("test", "tent"), now)).toBe(false);
    expect(verifyWebhook(secret, { ...headers, id: "msg_2" }, body, now)).toBe(false);
    expect(verifyWebhook(generateWebhookSecret(), headers, body, now)).toBe(false);
    expect(verifyWebhook(secret, headers, body, now + 301)).toBe(false);
    expect(verifyWebhook(secret, headers, body, now + 300)).toBe(true);
    expect(secretHint(secret)).toBe(`${secret.slice(0, 10)}…`);
  });
});

describe("sealed secrets", () => {
  it("round-trips under the application secret, and nothing opens it under another or after tampering", () => {
    const sealed = sealSecret("whsec_abc", "app secret one");
    expect(sealed).not.toContain("whsec_abc");
    expect(openSecret(sealed, "app secret one")).toBe("whsec_abc");
    expect(() => openSecret(sealed, "app secret two")).toThrow();
    const parts = sealed.split(".");
    parts[3] = Buffer.from("whsec_abd").toString("base64url");
    expect(() => openSecret(parts.join("."), "app secret one")).toThrow();
    expect(sealSecret("whsec_abc", "app secret one")).not.toBe(sealed); // a fresh IV each time
  });
});
