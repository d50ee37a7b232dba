import { z } from "zod";
import type { PrismaClient } from "@/lib/db";
import type { Principal } from "@/lib/auth/session";
import { MAX_SPEND_CAP_NANOS } from "@/lib/billing/spend";
import { typedDollarsSchema } from "@/lib/money";
import { emailConfigured } from "@/lib/email";
import { ALERT_KINDS, createAlertRule, deleteAlertRule } from "@/lib/notify/alerts";
import { createWebhookEndpoint, deleteWebhookEndpoint, sendTestEvent, setWebhookEndpointEnabled } from "@/lib/notify/endpoints";
import { isUuid } from "@/lib/utils/uuid";
import { DomainError } from "@/lib/errors";
import { auditActor, requireAccess } from "./access";

/** The Alerts page: owners and admins set thresholds and webhook endpoints, and see what was delivered. */

export async function alertsOverview(db: PrismaClient, principal: Principal | null, orgId: string) {
  await requireAccess(db, principal, orgId, "alerts:manage");
  const [rules, endpoints, deliveries, keys] = await Promise.all([
    db.alertRule.findMany({ where: { orgId }, orderBy: { createdAt: "asc" }, include: { apiKey: { select: { name: true, hint: true } } } }),
    db.webhookEndpoint.findMany({ where: { orgId, deletedAt: null }, orderBy: { createdAt: "asc" } }),
    db.notificationDelivery.findMany({
      where: { event: { orgId } },
      orderBy: { createdAt: "desc" },
      take: 50,
      include: { event: { select: { id: true, type: true } }, endpoint: { select: { url: true } } },
    }),
    db.apiKey.findMany({ where: { orgId, deletedAt: null }, orderBy: { createdAt: "desc" }, select: { id: true, name: true, hint: true } }),
  ]);
  return { rules, endpoints, deliveries, keys, emailConfigured: emailConfigured() };
}

export const alertRuleInput = z.object({
  kind: z.enum(ALERT_KINDS, { error: "Choose what to watch." }),
  /** "" for the organization. */
  keyId: z.string().refine((value) => value === "" || isUuid(value), "Choose a key or the whole organization."),
  /** In dollars, more than $0 and at most a spend cap's maximum ($1,000,000). */
  threshold: typedDollarsSchema({ label: "Threshold", max: MAX_SPEND_CAP_NANOS }),
});

export async function addAlertRule(db: PrismaClient, principal: Principal | null, orgId: string, input: unknown) {
  const access = await requireAccess(db, principal, orgId, "alerts:manage");
  const { kind, keyId, threshold } = alertRuleInput.parse(input);
  return createAlertRule(db, { orgId, kind, apiKeyId: keyId || null, thresholdNanos: threshold }, auditActor(access));
}

export async function removeAlertRule(db: PrismaClient, principal: Principal | null, orgId: string, ruleId: unknown) {
  const access = await requireAccess(db, principal, orgId, "alerts:manage");
  if (!isUuid(ruleId)) throw new DomainError("not_found", "That alert does not exist.");
  return deleteAlertRule(db, orgId, ruleId, auditActor(access));
}

export const endpointInput = z.object({
  url: z.string().trim().min(1, "Enter the URL events are POSTed to.").max(2000, "The URL is too long (at most 2,000 characters)."),
  description: z.string().trim().max(120, "At most 120 characters.").default(""),
});

/** The secret is in the result and nowhere else. */
export async function addWebhookEndpoint(db: PrismaClient, principal: Principal | null, orgId: string, input: unknown) {
  const access = await requireAccess(db, principal, orgId, "alerts:manage");
  const { url, description } = endpointInput.parse(input);
  const { endpoint, secret } = await createWebhookEndpoint(db, { orgId, url, description }, auditActor(access));
  return { id: endpoint.id, url: endpoint.url, secret };
}

function endpointId(value: unknown): string {
  if (!isUuid(value)) throw new DomainError("not_found", "That webhook endpoint does not exist.");
  return value;
}

export async function toggleWebhookEndpoint(db: PrismaClient, principal: Principal | null, orgId: string, id: unknown, enabled: boolean) {
  const access = await requireAccess(db, principal, orgId, "alerts:manage");
  return setWebhookEndpointEnabled(db, orgId, endpointId(id), enabled, auditActor(access));
}

export async function removeWebhookEndpoint(db: PrismaClient, principal: Principal | null, orgId: string, id: unknown) {
  const access = await requireAccess(db, principal, orgId, "alerts:manage");
  return deleteWebhookEndpoint(db, orgId, endpointId(id), auditActor(access));
}

export async function sendWebhookTest(db: PrismaClient, principal: Principal | null, orgId: string, id: unknown) {
  await requireAccess(db, principal, orgId, "alerts:manage");
  return sendTestEvent(db, orgId, endpointId(id));
}
