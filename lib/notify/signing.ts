import { createHmac, randomBytes } from "node:crypto";
import { secretsEqual } from "@/lib/keys";

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): the
 * secret is "whsec_" + base64 of random bytes; a delivery carries
 * `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature:
 * v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the decoded secret>`,
 * so any Standard Webhooks library verifies what we send.
 */
const PREFIX = "whsec_";
const SECRET_BYTES = 32;

export function generateWebhookSecret(): string {
  return PREFIX + randomBytes(SECRET_BYTES).toString("base64");
}

/** What the dashboard shows of a secret after it was shown once. */
export function secretHint(secret: string): string {
  return `${secret.slice(0, PREFIX.length + 4)}…`;
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
}

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const digest = createHmac("sha256", keyOf(secret)).update(`${id}.${timestampSeconds}.${body}`, "utf8").digest("base64");
  return `v1,${digest}`;
}

export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

/**
 * A receiver's check: one of the space-separated signatures matches, and the
 * timestamp is within five minutes of now (so a captured delivery cannot be
 * replayed later). Compared in constant time.
 */
export function verifyWebhook(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!/^\d{1,12}$/.test(headers.timestamp) || Math.abs(nowSeconds - timestamp) > WEBHOOK_TOLERANCE_SECONDS) return false;
  const expected = signWebhook(secret, headers.id, timestamp, body);
  return headers.signature.split(" ").some((candidate) => secretsEqual(candidate, expected));
}
