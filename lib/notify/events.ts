import { randomBytes } from "node:crypto";
import type { DbClient } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { emailConfigured } from "@/lib/email";

/**
 * What an organization is told about: each event is written once, with one
 * delivery per enabled webhook endpoint and (when SMTP is configured) one per
 * owner and admin, in the caller's transaction, so an event exists exactly
 * when what caused it committed. The delivery worker (delivery.ts) sends them.
 */
export const EVENT_TYPES = {
  "balance.below_threshold": "The balance fell below an alert's threshold",
  "spend.day_above_threshold": "Spend today (UTC) rose above an alert's threshold",
  "spend.month_above_threshold": "Spend this month (UTC) rose above an alert's threshold",
  "auto_recharge.failed": "An automatic recharge was declined and auto-recharge was turned off",
  "webhook.disabled": "A webhook endpoint was turned off after failing for 24 hours",
  "webhook.test": "A test event sent from the dashboard",
} as const;

export type EventType = keyof typeof EVENT_TYPES;

/** "msg_" + 120 random bits: the webhook-id, the same on every retry. */
export function newEventId(): string {
  return `msg_${randomBytes(15).toString("base64url")}`;
}

export interface OrgEvent {
  orgId: string;
  type: EventType;
  data: Prisma.InputJsonObject;
  now?: Date;
  /** Only these endpoints (a test event); default every enabled one. */
  endpointIds?: string[];
  /**
   * Email owners and admins too (default: yes, when SMTP is configured), or
   * only the owners (`"owners"`: what only an owner can act on).
   */
  email?: boolean | "owners";
}

/** The JSON body a receiver gets: {type, timestamp, data}, data naming the organization. */
export function eventBody(event: { type: string; createdAt: Date; orgId: string; payload: unknown }): string {
  return JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data: { organization_id: event.orgId, ...(event.payload as object) } });
}

export async function emitOrgEvent(tx: DbClient, event: OrgEvent): Promise<{ id: string; deliveries: number }> {
  const now = event.now ?? new Date();
  const id = newEventId();
  await tx.notificationEvent.create({ data: { id, orgId: event.orgId, type: event.type, payload: event.data, createdAt: now } });
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { orgId: event.orgId, deletedAt: null, ...(event.endpointIds ? { id: { in: event.endpointIds } } : { enabled: true }) },
    select: { id: true },
  });
  const recipients =
    event.email !== false && emailConfigured()
      ? await tx.membership.findMany({
          where: { orgId: event.orgId, ...(event.email === "owners" ? { role: "OWNER", user: { deletedAt: null } } : { role: { in: ["OWNER", "ADMIN"] } }) },
          select: { user: { select: { email: true } } },
        })
      : [];
  const rows = [
    ...endpoints.map((endpoint) => ({ eventId: id, channel: "webhook", endpointId: endpoint.id, nextAttemptAt: now, createdAt: now })),
    ...recipients.map((member) => ({ eventId: id, channel: "email", recipient: member.user.email, nextAttemptAt: now, createdAt: now })),
  ];
  if (rows.length) await tx.notificationDelivery.createMany({ data: rows });
  return { id, deliveries: rows.length };
}
