import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * API keys: `<brand>-live-` + 64 lowercase hex characters from the CSPRNG.
 * Only the SHA-256 of a key is stored; the full key exists once, in the
 * creation response. Lookups go by hash, so the database never compares a
 * secret an attacker can steer byte by byte.
 */
export const KEY_HINT_LENGTH = 12;
const KEY_SECRET_BYTES = 32;

export function keyPrefix(brand = process.env.API_KEY_BRAND ?? "svc"): string {
  return `${brand}-live-`;
}

export interface GeneratedKey {
  /** The full key: show it once, never store or log it. */
  key: string;
  hash: string;
  hint: string;
}

export function generateApiKey(brand?: string): GeneratedKey {
  const key = keyPrefix(brand) + randomBytes(KEY_SECRET_BYTES).toString("hex");
  return { key, hash: hashApiKey(key), hint: keyHint(key) };
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function keyHint(key: string): string {
  return key.slice(0, KEY_HINT_LENGTH);
}

/** Constant-time equality of two secrets (hex digests, tokens). */
export function secretsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  // Compare against itself on a length mismatch so timing does not reveal it.
  return left.length === right.length ? timingSafeEqual(left, right) : (timingSafeEqual(left, left), false);
}

/**
 * The endpoints a key may call: its plan's, within a platform administrator's
 * restriction and within the customer's own choice (an empty list restricts
 * nothing). The customer can narrow what the platform allows, never widen it.
 */
export function effectiveEndpoints(plan: readonly string[], platform: readonly string[], customer: readonly string[]): string[] {
  const within = (list: readonly string[], name: string) => list.length === 0 || list.includes(name);
  return plan.filter((name) => within(platform, name) && within(customer, name));
}
