import { z } from "zod";
import type { PrismaClient } from "@/lib/db";
import { recordAudit } from "@/lib/audit";
import { alertEmailMessage, autoRechargeDeclinedMessage, emailConfigured, sendEmail } from "@/lib/email";
import { sendAccountEmail } from "./account-emails";
import { EVENT_TYPES, emitOrgEvent, eventBody, type EventType } from "./events";
import { openSecret } from "./secret-box";
import { signWebhook } from "./signing";
import { postToTarget, type PostResult, type Resolver } from "./targets";

/**
 * The delivery queue's worker, safe to run on every instance at once: each
 * run claims due deliveries with FOR UPDATE SKIP LOCKED (a claim lasts a
 * minute, so a crashed instance's work is taken up again), sends them, and
 * records the outcome. A failed delivery is retried with growing pauses for
 * 24 hours, then given up; an endpoint whose deliveries have all failed for
 * 24 hours is turned off, and the organization is told. A test event is
 * tried once (its failure is shown in the delivery log, not retried), and a
 * delivery whose endpoint was deleted is cancelled, never sent or retried.
 */
export const RETRY_DELAYS_SECONDS = [10, 30, 120, 600, 1800, 3600, 7200, 14_400, 28_800, 43_200];
export const GIVE_UP_AFTER_MS = 24 * 3600_000;
const CLAIM_MS = 60_000;
const BATCH = 20;

export interface DeliveryDeps {
  now?: Date;
  resolver?: Resolver;
  post?: typeof postToTarget;
  sendEmail?: typeof sendEmail;
}

export function nextAttemptDelayMs(attempts: number): number {
  return RETRY_DELAYS_SECONDS[Math.min(attempts - 1, RETRY_DELAYS_SECONDS.length - 1)]! * 1000;
}

interface Claimed {
  id: string;
  event_id: string;
  channel: "webhook" | "email";
  endpoint_id: string | null;
  recipient: string | null;
  attempts: number;
  created_at: Date;
  event_type: string;
}

/** An attempt's outcome; `cancelled` when there is nothing to send to any more. */
type Outcome = PostResult & { cancelled?: true };

export async function deliverDue(db: PrismaClient, deps: DeliveryDeps = {}): Promise<{ sent: number; failed: number }> {
  const now = deps.now ?? new Date();
  const claimed = await db.$queryRaw<Claimed[]>`
    UPDATE notification_deliveries d SET locked_until = ${new Date(now.getTime() + CLAIM_MS)}, attempts = d.attempts + 1, last_attempt_at = ${now}
     WHERE d.id IN (
       SELECT id FROM notification_deliveries
        WHERE status = 'pending' AND next_attempt_at <= ${now} AND (locked_until IS NULL OR locked_until <= ${now})
        ORDER BY next_attempt_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
    RETURNING d.id, d.event_id, d.channel, d.endpoint_id, d.recipient, d.attempts, d.created_at,
              (SELECT type FROM notification_events e WHERE e.id = d.event_id) AS event_type`;
  let sent = 0;
  let failed = 0;
  for (const delivery of claimed) {
    const result = await attempt(db, delivery, now, deps).catch((error: Error): Outcome => ({ status: null, error: error.message }));
    const ok = result.error === null && result.status !== null && result.status >= 200 && result.status < 300;
    if (ok) sent++;
    else failed++;
    await record(db, delivery, ok, result, now);
  }
  return { sent, failed };
}

async function attempt(db: PrismaClient, delivery: Claimed, now: Date, deps: DeliveryDeps): Promise<Outcome> {
  const event = await db.notificationEvent.findUniqueOrThrow({ where: { id: delivery.event_id } });
  // An email to one person about their account (account-emails.ts) rather than an organization's event.
  if (event.orgId === null) return sendAccountEmail(db, event, delivery.recipient!, now, deps.sendEmail);
  const body = eventBody({ ...event, orgId: event.orgId });
  if (delivery.channel === "email") {
    if (!emailConfigured()) return { status: null, error: "SMTP is not configured" };
    const org = await db.organization.findUniqueOrThrow({ where: { id: event.orgId }, select: { name: true } });
    await (deps.sendEmail ?? sendEmail)(orgEventEmail(delivery.recipient!, org.name, event, body));
    return { status: 250, error: null };
  }
  const endpoint = await db.webhookEndpoint.findUnique({ where: { id: delivery.endpoint_id! } });
  if (!endpoint || endpoint.deletedAt) return { status: null, error: "the endpoint was deleted", cancelled: true };
  if (!endpoint.enabled && event.type !== "webhook.test") return { status: null, error: "the endpoint is turned off" };
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers = {
    "webhook-id": event.id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signWebhook(openSecret(endpoint.secretEncrypted), event.id, timestamp, body),
    "user-agent": "DilutionData-Webhooks/1",
  };
  return (deps.post ?? postToTarget)(endpoint.url, headers, body, { resolver: deps.resolver });
}

const declinePayload = z.object({ amount: z.string(), message: z.string(), card: z.string() });

/**
 * The email of an organization's event: a declined auto-recharge in words
 * (what was declined, why, and that it is off now), any other event as its
 * summary and JSON.
 */
function orgEventEmail(to: string, orgName: string, event: { type: string; createdAt: Date; payload: unknown }, body: string) {
  const decline = event.type === "auto_recharge.failed" ? declinePayload.safeParse(event.payload) : null;
  if (decline?.success) {
    const appUrl = process.env.NEXTAUTH_URL?.trim();
    const { amount, card, message } = decline.data;
    return autoRechargeDeclinedMessage({ to, orgName, amount, card, declinedAt: event.createdAt, reason: message, billingUrl: appUrl ? new URL("/billing", appUrl).href : null });
  }
  return alertEmailMessage({ to, orgName, type: event.type, summary: EVENT_TYPES[event.type as EventType] ?? event.type, body });
}

async function record(db: PrismaClient, delivery: Claimed, ok: boolean, result: Outcome, now: Date): Promise<void> {
  const error = result.error?.slice(0, 500) ?? (ok ? null : `answered HTTP ${result.status}`);
  if (ok) {
    await db.$transaction([
      db.notificationDelivery.update({
        where: { id: delivery.id },
        data: { status: "succeeded", deliveredAt: now, lockedUntil: null, lastStatusCode: result.status, lastError: null },
      }),
      ...(delivery.endpoint_id ? [db.webhookEndpoint.updateMany({ where: { id: delivery.endpoint_id }, data: { failingSince: null } })] : []),
    ]);
    return;
  }
  const givenUp = delivery.event_type === "webhook.test" || now.getTime() - delivery.created_at.getTime() >= GIVE_UP_AFTER_MS;
  const status = result.cancelled ? "cancelled" : givenUp ? "failed" : "pending";
  await db.$transaction(async (tx) => {
    // Only a delivery still pending: one cancelled meanwhile (its endpoint deleted) stays cancelled.
    const { count } = await tx.notificationDelivery.updateMany({
      where: { id: delivery.id, status: "pending" },
      data: {
        status,
        nextAttemptAt: new Date(now.getTime() + nextAttemptDelayMs(delivery.attempts)),
        lockedUntil: null,
        lastStatusCode: result.status,
        lastError: error,
      },
    });
    if (count === 0 || result.cancelled) return;
    if (delivery.channel !== "webhook" || !delivery.endpoint_id) return;
    // The run of failures starts at the first one; a success ends it.
    await tx.$executeRaw`UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ${now}) WHERE id = ${delivery.endpoint_id}::uuid`;
    const endpoint = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: delivery.endpoint_id } });
    if (endpoint.enabled && endpoint.failingSince && now.getTime() - endpoint.failingSince.getTime() >= GIVE_UP_AFTER_MS) {
      const reason = `Every delivery failed for 24 hours (last: ${error}).`;
      await tx.webhookEndpoint.update({ where: { id: endpoint.id }, data: { enabled: false, disabledAt: now, disabledReason: reason } });
      await recordAudit(tx, {
        action: "webhook.disabled",
        orgId: endpoint.orgId,
        actorLabel: "system",
        targetType: "webhook_endpoint",
        targetId: endpoint.id,
        details: { url: endpoint.url, reason },
      });
      // Told by email (the endpoint itself is failing); other endpoints get it too.
      await emitOrgEvent(tx, { orgId: endpoint.orgId, type: "webhook.disabled", data: { endpoint_id: endpoint.id, url: endpoint.url, reason }, now });
    }
  });
}
