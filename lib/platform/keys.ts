import { z } from "zod";
import type { PrismaClient } from "@/lib/db";
import { ENDPOINT_NAMES } from "@/lib/catalog";
import { createKey, deleteKey, setKeyRestrictions, setKeyStatus } from "@/lib/keys/manage";
import type { Principal } from "@/lib/auth/session";
import { DomainError } from "@/lib/errors";
import { isUuid } from "@/lib/utils/uuid";
import { auditActor, requireAccess } from "./access";

/** The dashboard's key operations: access checked, then scoped to the organization. */

export const keyNameSchema = z
  .string()
  .trim()
  .min(1, "Give the key a name, e.g. “Trading bot”.")
  .max(64, "Key names are at most 64 characters.");

export const endpointListSchema = z.array(z.enum(ENDPOINT_NAMES, { error: "Unknown endpoint." })).max(ENDPOINT_NAMES.length);

export const createKeyInput = z.object({ name: keyNameSchema, endpoints: endpointListSchema.default([]) });

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
  const { name, endpoints } = createKeyInput.parse(input);
  const { key, record } = await createKey(db, { orgId, name, endpoints }, auditActor(access));
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

/** An empty list lifts the restriction: the key may call every endpoint of the plan. */
export async function restrictOrgKey(db: PrismaClient, principal: Principal | null, orgId: string, keyId: unknown, endpoints: unknown) {
  const access = await requireAccess(db, principal, orgId, "keys:manage");
  const key = await requireOrgKey(db, orgId, keyId);
  return setKeyRestrictions(db, key.id, endpointListSchema.parse(endpoints), auditActor(access));
}
