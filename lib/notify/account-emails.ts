import { z } from "zod";
import type { DbClient } from "@/lib/db";
import { emailConfigured, passwordResetMessage, sendEmail } from "@/lib/email";
import { newEventId } from "./events";
import { openSecret, sealSecret } from "./secret-box";

/**
 * Emails to one person about their own account (a password reset link), sent
 * through the same durable queue as alerts: an event naming the user instead
 * of an organization, and one email delivery, written in the caller's
 * transaction and sent by the delivery worker (delivery.ts) with its retries.
 * A link is a credential: the event holds it sealed (secret-box.ts), and only
 * until it is sent or has expired; then it is erased. A link is never sent
 * after it expired.
 */
export const ACCOUNT_EMAIL_TYPES = {
  "account.password_reset": "A link to choose a new password",
} as const;

const passwordResetPayload = z.object({ link_sealed: z.string().optional(), expires_at: z.iso.datetime() });

/** Queues the email carrying a password reset link, in the transaction that made the link. */
export async function queuePasswordResetEmail(tx: DbClient, input: { userId: string; to: string; link: string; expiresAt: Date; now: Date }): Promise<string> {
  const id = newEventId();
  await tx.notificationEvent.create({
    data: {
      id,
      userId: input.userId,
      type: "account.password_reset",
      payload: { link_sealed: sealSecret(input.link), expires_at: input.expiresAt.toISOString() },
      createdAt: input.now,
    },
  });
  await tx.notificationDelivery.create({ data: { eventId: id, channel: "email", recipient: input.to, nextAttemptAt: input.now, createdAt: input.now } });
  return id;
}

/** One attempt at an account email: sent, or cancelled once its link has expired; either way the link is erased. */
export async function sendAccountEmail(
  db: DbClient,
  event: { id: string; type: string; payload: unknown },
  recipient: string,
  now: Date,
  send: typeof sendEmail = sendEmail,
): Promise<{ status: number | null; error: string | null; cancelled?: true }> {
  if (event.type !== "account.password_reset") return { status: null, error: `unknown account email ${event.type}`, cancelled: true };
  const payload = passwordResetPayload.parse(event.payload);
  const expiresAt = new Date(payload.expires_at);
  const erase = () => db.notificationEvent.update({ where: { id: event.id }, data: { payload: { expires_at: payload.expires_at } } });
  if (!payload.link_sealed || expiresAt <= now) {
    await erase();
    return { status: null, error: "the link expired before it could be sent", cancelled: true };
  }
  if (!emailConfigured()) return { status: null, error: "SMTP is not configured" };
  await send(passwordResetMessage({ to: recipient, link: openSecret(payload.link_sealed), expiresAt }));
  await erase();
  return { status: 250, error: null };
}
