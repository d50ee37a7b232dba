import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateApiKey, hashApiKey, keyHint, secretsEqual } from "./index";

describe("API keys", () => {
  it("are svc-live- + 64 lowercase hex characters, with a 12-character hint", () => {
    const { key, hint, hash } = generateApiKey();
    expect(key).toMatch(/^svc-live-[0-9a-f]{64}$/);
    expect(hint).toBe(key.slice(0, 12));
    expect(hint).toHaveLength(12);
    expect(hash).toBe(createHash("sha256").update(key).digest("hex"));
  });

  it("take a configurable brand prefix", () => {
    expect(generateApiKey("acme").key).toMatch(/^acme-live-[0-9a-f]{64}$/);
  });

  it("are never the same twice", () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey().key));
    expect(keys.size).toBe(1000);
  });

  it("hash differently when whitespace or case changes", () => {
    const { key, hash } = generateApiKey();
    expect(hashApiKey(` ${key}`)).not.toBe(hash);
    expect(hashApiKey(key.toUpperCase())).not.toBe(hash);
    expect(keyHint(key)).toBe(key.slice(0, 12));
  });

  it("compares secrets exactly", () => {
    expect(secretsEqual("abc", "abc")).toBe(true);
    expect(secretsEqual("abc", "abd")).toBe(false);
    expect(secretsEqual("abc", "abcd")).toBe(false);
  });
});
