import type { PrismaClient } from "@/lib/db";
import { recordAudit, type AuditActor } from "@/lib/audit";
import { DomainError } from "@/lib/errors";
import { emitOrgEvent } from "./events";
import { sealSecret } from "./secret-box";
import { generateWebhookSecret, secretHint } from "./signing";
import { checkWebhookUrl } from "./targets";

/** An organization's webhook endpoints: the secret is returned once, at creation, and kept sealed. */
export const MAX_ENDPOINTS = 10;

export async function createWebhookEndpoint(
  db: PrismaClient,
  input: { orgId: string; url: string; description?: string | null },
  actor: AuditActor,
) {
  const check = checkWebhookUrl(input.url);
  if (!check.ok) throw new DomainError("invalid_input", check.reason);
  const secret = generateWebhookSecret();
  const endpoint = await db.$transaction(async (tx) => {
    if ((await tx.webhookEndpoint.count({ where: { orgId: input.orgId, deletedAt: null } })) >= MAX_ENDPOINTS) {
      throw new DomainError("invalid_input", `An organization has at most ${MAX_ENDPOINTS} webhook endpoints.`);
    }
    const created = await tx.webhookEndpoint.create({
      data: {
        orgId: input.orgId,
        url: check.url.toString(),
        description: input.description?.trim() || null,
        secretEncrypted: sealSecret(secret),
        secretHint: secretHint(secret),
        createdById: actor.actorUserId ?? null,
      },
    });
    await recordAudit(tx, { action: "webhook.created", orgId: input.orgId, ...actor, targetType: "webhook_endpoint", targetId: created.id, details: { url: created.url } });
    return created;
  });
  return { endpoint, secret };
}

async function liveEndpoint(db: PrismaClient, orgId: string, endpointId: string) {
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id: endpointId, orgId, deletedAt: null } });
  if (!endpoint) throw new DomainError("not_found", "That webhook endpoint does not exist.");
  return endpoint;
}

/** Turning an endpoint back on clears its run of failures: it gets a fresh 24 hours. */
export async function setWebhookEndpointEnabled(db: PrismaClient, orgId: string, endpointId: string, enabled: boolean, actor: AuditActor) {
  const endpoint = await liveEndpoint(db, orgId, endpointId);
  return db.$transaction(async (tx) => {
    const saved = await tx.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: enabled ? { enabled: true, disabledAt: null, disabledReason: null, failingSince: null } : { enabled: false, disabledAt: new Date(), disabledReason: "Turned off by a member." },
    });
    await recordAudit(tx, {
      action: enabled ? "webhook.enabled" : "webhook.disabled",
      orgId,
      ...actor,
      targetType: "webhook_endpoint",
      targetId: endpoint.id,
      details: { url: endpoint.url },
    });
    return saved;
  });
}

/** Deleting an endpoint cancels its deliveries still queued or being retried; the worker never sends to a deleted endpoint. */
export async function deleteWebhookEndpoint(db: PrismaClient, orgId: string, endpointId: string, actor: AuditActor) {
  const endpoint = await liveEndpoint(db, orgId, endpointId);
  await db.$transaction(async (tx) => {
    await tx.webhookEndpoint.update({ where: { id: endpoint.id }, data: { deletedAt: new Date(), enabled: false } });
    await tx.notificationDelivery.updateMany({ where: { endpointId: endpoint.id, status: "pending" }, data: { status: "cancelled", lockedUntil: null, lastError: "the endpoint was deleted" } });
    await recordAudit(tx, { action: "webhook.deleted", orgId, ...actor, targetType: "webhook_endpoint", targetId: endpoint.id, details: { url: endpoint.url } });
  });
}

/** "Send test event" at most this often per endpoint (a minute, counted in PostgreSQL). */
export const TEST_EVENTS_PER_MINUTE = 5;

/**
 * "Send test event": a webhook.test event to this endpoint only (even if it
 * is turned off), queued like any other but tried once, never retried. At
 * most TEST_EVENTS_PER_MINUTE a minute per endpoint, counted under the
 * endpoint's row lock so concurrent clicks cannot pass the limit together.
 */
export async function sendTestEvent(db: PrismaClient, orgId: string, endpointId: string, now = new Date()) {
  const endpoint = await liveEndpoint(db, orgId, endpointId);
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM webhook_endpoints WHERE id = ${endpoint.id}::uuid FOR UPDATE`;
    const recent = await tx.notificationDelivery.findMany({
      where: { endpointId: endpoint.id, event: { type: "webhook.test" }, createdAt: { gt: new Date(now.getTime() - 60_000) } },
      orderBy: { createdAt: "asc" },
      select: { createdAt: true },
    });
    if (recent.length >= TEST_EVENTS_PER_MINUTE) {
      const waitSeconds = Math.max(1, Math.ceil((recent[recent.length - TEST_EVENTS_PER_MINUTE]!.createdAt.getTime() + 60_000 - now.getTime()) / 1000));
      throw new DomainError("rate_limited", `At most ${TEST_EVENTS_PER_MINUTE} test events a minute per endpoint: try again in ${waitSeconds} s.`);
    }
    return emitOrgEvent(tx, { orgId, type: "webhook.test", endpointIds: [endpoint.id], email: false, now, data: { endpoint_id: endpoint.id, message: "A test event from the dashboard." } });
  });
}
