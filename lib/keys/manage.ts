import type { DbClient, PrismaClient } from "@/lib/db";
import { isEndpointName, type EndpointName } from "@/lib/catalog";
import { recordAudit, type AuditAction, type AuditActor } from "@/lib/audit";
import { DomainError } from "@/lib/errors";
import { isUuid } from "@/lib/utils/uuid";
import { generateApiKey, KEY_HINT_LENGTH } from "./index";
import { notifyAccessChanged } from "./invalidation";

/**
 * Key lifecycle shared by the dashboard, the admin console and the CLI. Each
 * change is written with its audit entry in one transaction; once committed,
 * this process's key cache is told, so the change takes effect at once.
 */
export function parseEndpointList(value: readonly string[]): EndpointName[] {
  const unknown = value.filter((name) => !isEndpointName(name));
  if (unknown.length) throw new DomainError("unknown_endpoint", `Unknown endpoint(s): ${unknown.join(", ")}.`);
  return [...new Set(value as EndpointName[])];
}

async function assertWithinPlan(db: DbClient, orgId: string, endpoints: EndpointName[]) {
  const org = await db.organization.findUnique({ where: { id: orgId }, include: { plan: true } });
  if (!org) throw new DomainError("unknown_organization", `No organization with id ${orgId}.`);
  const outsidePlan = endpoints.filter((e) => !org.plan.allowedEndpoints.includes(e));
  if (outsidePlan.length) {
    throw new DomainError("endpoint_not_in_plan", `The ${org.plan.name} plan does not include: ${outsidePlan.join(", ")}.`);
  }
}

export async function createKey(
  db: PrismaClient,
  input: { orgId: string; name: string; endpoints?: readonly string[] },
  actor: AuditActor,
) {
  const endpoints = parseEndpointList(input.endpoints ?? []);
  await assertWithinPlan(db, input.orgId, endpoints);
  const generated = generateApiKey();
  const record = await db.$transaction(async (tx) => {
    // Locked and checked here, so a key cannot be made for an organization closing at the same moment.
    const [org] = await tx.$queryRaw<{ closed_at: Date | null }[]>`SELECT closed_at FROM organizations WHERE id = ${input.orgId}::uuid FOR UPDATE`;
    if (org?.closed_at) throw new DomainError("organization_closed", "This organization is closed.");
    const created = await tx.apiKey.create({
      data: {
        orgId: input.orgId,
        name: input.name,
        keyHash: generated.hash,
        hint: generated.hint,
        allowedEndpoints: endpoints,
        createdById: actor.actorUserId ?? null,
      },
    });
    await recordAudit(tx, {
      action: "key.created",
      orgId: input.orgId,
      ...actor,
      targetType: "api_key",
      targetId: created.id,
      details: { hint: created.hint, name: created.name, endpoints },
    });
    return created;
  });
  notifyAccessChanged(); // this process's key cache knows the new key at once; others within a second
  return { key: generated.key, record };
}

/** Finds a live key by id or by its 12-character hint, optionally within one organization. */
export async function findKeyByIdOrHint(db: DbClient, idOrHint: string, orgId?: string) {
  const hint = idOrHint.slice(0, KEY_HINT_LENGTH);
  const matches = await db.apiKey.findMany({
    where: {
      deletedAt: null,
      ...(orgId ? { orgId } : {}),
      ...(isUuid(idOrHint) ? { id: idOrHint } : { hint }),
    },
  });
  if (matches.length === 0) throw new DomainError("unknown_key", `No key matches "${idOrHint}".`);
  if (matches.length > 1) {
    throw new DomainError("ambiguous_key", `${matches.length} keys share the hint "${idOrHint}"; use the key id.`);
  }
  return matches[0]!;
}

async function changeKey(
  db: PrismaClient,
  keyId: string,
  actor: AuditActor,
  action: AuditAction,
  data: { status?: "ACTIVE" | "DISABLED"; disabledAt?: Date | null; deletedAt?: Date; allowedEndpoints?: string[] },
) {
  const updated = await db.$transaction(async (tx) => {
    const key = await tx.apiKey.update({ where: { id: keyId, deletedAt: null }, data });
    await recordAudit(tx, {
      action,
      orgId: key.orgId,
      ...actor,
      targetType: "api_key",
      targetId: key.id,
      details: { hint: key.hint, name: key.name, ...(data.allowedEndpoints ? { endpoints: data.allowedEndpoints } : {}) },
    });
    return key;
  });
  notifyAccessChanged();
  return updated;
}

export function setKeyStatus(db: PrismaClient, keyId: string, status: "ACTIVE" | "DISABLED", actor: AuditActor) {
  return changeKey(db, keyId, actor, status === "ACTIVE" ? "key.enabled" : "key.disabled", {
    status,
    disabledAt: status === "DISABLED" ? new Date() : null,
  });
}

export function deleteKey(db: PrismaClient, keyId: string, actor: AuditActor) {
  return changeKey(db, keyId, actor, "key.deleted", { deletedAt: new Date() });
}

export async function setKeyRestrictions(db: PrismaClient, keyId: string, endpoints: readonly string[], actor: AuditActor) {
  const allowedEndpoints = parseEndpointList(endpoints);
  const key = await db.apiKey.findFirst({ where: { id: keyId, deletedAt: null } });
  if (!key) throw new DomainError("unknown_key", `No key with id ${keyId}.`);
  await assertWithinPlan(db, key.orgId, allowedEndpoints);
  return changeKey(db, keyId, actor, "key.restricted", { allowedEndpoints });
}
