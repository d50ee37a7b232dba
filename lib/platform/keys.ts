import { z } from "zod";
import type { PrismaClient } from "@/lib/db";
import { ENDPOINT_NAMES } from "@/lib/catalog";
import { configureKey, createKey, deleteKey, endGracePeriod, rollKey, ROLL_GRACE_SECONDS, setKeyStatus } from "@/lib/keys/manage";
import { parseSpendCap } from "@/lib/billing/spend";
import type { Principal } from "@/lib/auth/session";
import { DomainError } from "@/lib/errors";
import { addDays, isCalendarDate, parseIsoDay } from "@/lib/utils/dates";
import { latestKeyExpiryDay, LONGEST_KEY_LIFETIME_YEARS } from "@/lib/keys/expiry";
import { isUuid } from "@/lib/utils/uuid";
import { auditActor, requireAccess } from "./access";

/** The dashboard's key operations: access checked, then scoped to the organization. */

export const keyNameSchema = z
  .string()
  .trim()
  .min(1, "Give the key a name, e.g. “Trading bot”.")
  .max(64, "Key names are at most 64 characters.");

export const endpointListSchema = z.array(z.enum(ENDPOINT_NAMES, { error: "Unknown endpoint." })).max(ENDPOINT_NAMES.length);

/** "YYYY-MM-DD": the key works through that UTC day and is refused from 00:00 UTC the next. Empty: never expires. */
export const expiresOnSchema = z
  .string()
  .trim()
  .refine((value) => value === "" || isCalendarDate(value), "Enter the expiry as a date (YYYY-MM-DD), or leave it empty.")
  .refine(
    (value) => value === "" || !isCalendarDate(value) || value <= latestKeyExpiryDay(),
    `Choose an expiry within ${LONGEST_KEY_LIFETIME_YEARS} years, or leave it empty for a key that does not expire.`,
  )
  .transform((value) => (value === "" ? null : addDays(parseIsoDay(value)!, 1)));

export const createKeyInput = z.object({
  name: keyNameSchema,
  endpoints: endpointListSchema.default([]),
  expiresOn: expiresOnSchema.optional(),
});

/** One address or range per line (commas work too). */
const allowListText = z
  .string()
  .max(10_000, "That allow-list is too long.")
  .transform((text) => text.split(/[\s,]+/).filter(Boolean));

export const keySettingsInput = z.object({
  endpoints: endpointListSchema,
  allowedIps: allowListText,
  dailyCap: z.string().max(40),
  monthlyCap: z.string().max(40),
  /** Absent: the expiry stays as it is; "" never expires; a day: it works through that day (UTC). */
  expiresOn: expiresOnSchema.optional(),
});

export const rollKeyInput = z.coerce
  .number()
  .refine((value) => (ROLL_GRACE_SECONDS as readonly number[]).includes(value), "Choose a grace period: none, 1 hour, 24 hours or 7 days.");

export async function listOrgKeys(db: PrismaClient, principal: Principal | null, orgId: string) {
  await requireAccess(db, principal, orgId, "org:view");
  return db.apiKey.findMany({
    where: { orgId, deletedAt: null },
    orderBy: { createdAt: "desc" },
    select: {
      id: true,
      name: true,
      hint: true,
      status: true,
      allowedEndpoints: true,
      platformEndpoints: true,
      platformEndpointsReason: true,
      allowedIps: true,
      dailyCapNanos: true,
      monthlyCapNanos: true,
      spentDay: true,
      spentDayNanos: true,
      spentMonth: true,
      spentMonthNanos: true,
      expiresAt: true,
      rolledAt: true,
      rolledFrom: { select: { hint: true } },
      createdAt: true,
      lastUsedAt: true,
      disabledAt: true,
      disabledByPlatform: true,
      disabledReason: true,
      createdBy: { select: { email: true, name: true } },
    },
  });
}

export type OrgKey = Awaited<ReturnType<typeof listOrgKeys>>[number];

/** The full key is in the result and nowhere else: show it once, then let it go. */
export async function createOrgKey(db: PrismaClient, principal: Principal | null, orgId: string, input: unknown) {
  const access = await requireAccess(db, principal, orgId, "keys:manage");
  const { name, endpoints, expiresOn } = createKeyInput.parse(input);
  const { key, record } = await createKey(db, { orgId, name, endpoints, expiresAt: expiresOn }, auditActor(access));
  return { key, id: record.id, hint: record.hint, name: record.name };
}

/** A live key of this organization. Another organization's key id gets the same answer as a made-up one. */
async function requireOrgKey(db: PrismaClient, orgId: string, keyId: unknown) {
  const key = isUuid(keyId) ? await db.apiKey.findFirst({ where: { id: keyId, orgId, deletedAt: null } }) : null;
  if (!key) throw new DomainError("unknown_key", "That key does not exist or has been deleted.");
  return key;
}

export async function setOrgKeyStatus(
  db: PrismaClient,
  principal: Principal | null,
  orgId: string,
  keyId: unknown,
  status: "ACTIVE" | "DISABLED",
) {
  const access = await requireAccess(db, principal, orgId, "keys:manage");
  const key = await requireOrgKey(db, orgId, keyId);
  if (key.status === status) return key;
  return setKeyStatus(db, key.id, status, auditActor(access));
}

export async function deleteOrgKey(db: PrismaClient, principal: Principal | null, orgId: string, keyId: unknown) {
  const access = await requireAccess(db, principal, orgId, "keys:manage");
  const key = await requireOrgKey(db, orgId, keyId);
  return deleteKey(db, key.id, auditActor(access));
}

/** Endpoints (an empty list: every endpoint of the plan), the IP allow-list (empty: anywhere) and the key's spend caps (empty: none). */
export async function configureOrgKey(db: PrismaClient, principal: Principal | null, orgId: string, keyId: unknown, input: unknown) {
  const access = await requireAccess(db, principal, orgId, "keys:manage");
  const key = await requireOrgKey(db, orgId, keyId);
  const settings = keySettingsInput.parse(input);
  return configureKey(
    db,
    key.id,
    {
      endpoints: settings.endpoints,
      limits: {
        allowedIps: settings.allowedIps,
        dailyCapNanos: parseSpendCap(settings.dailyCap, "Daily cap"),
        monthlyCapNanos: parseSpendCap(settings.monthlyCap, "Monthly cap"),
      },
      expiresAt: settings.expiresOn,
    },
    auditActor(access),
  );
}

/** "Roll key": the new key is in the result and nowhere else; the old one works for the grace period. */
export async function rollOrgKey(db: PrismaClient, principal: Principal | null, orgId: string, keyId: unknown, graceSeconds: unknown) {
  const access = await requireAccess(db, principal, orgId, "keys:manage");
  const key = await requireOrgKey(db, orgId, keyId);
  const { key: secret, record, old } = await rollKey(db, key.id, rollKeyInput.parse(graceSeconds), auditActor(access));
  return { key: secret, id: record.id, hint: record.hint, name: record.name, oldExpiresAt: old.expiresAt?.toISOString() ?? null };
}

/** A rolled key's grace period, ended now (every client has the new key). */
export async function endOrgKeyGrace(db: PrismaClient, principal: Principal | null, orgId: string, keyId: unknown) {
  const access = await requireAccess(db, principal, orgId, "keys:manage");
  const key = await requireOrgKey(db, orgId, keyId);
  return endGracePeriod(db, key.id, auditActor(access));
}
