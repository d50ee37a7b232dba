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

type KeyChange = {
  status?: "ACTIVE" | "DISABLED";
  disabledAt?: Date | null;
  disabledByPlatform?: boolean;
  disabledReason?: string | null;
  deletedAt?: Date;
  allowedEndpoints?: string[];
};

async function changeKey(
  db: PrismaClient,
  keyId: string,
  actor: AuditActor,
  action: AuditAction,
  data: KeyChange,
  options: { onlyIfCustomerMay?: boolean; details?: Record<string, string | boolean | null> } = {},
) {
  const updated = await db.$transaction(async (tx) => {
    // Locked first, so "disabled by the platform" cannot change between the check and the write.
    const [current] = await tx.$queryRaw<{ disabled_by_platform: boolean; disabled_reason: string | null }[]>`
      SELECT disabled_by_platform, disabled_reason FROM api_keys WHERE id = ${keyId}::uuid AND deleted_at IS NULL FOR UPDATE`;
    if (!current) throw new DomainError("unknown_key", "That key does not exist or was deleted.");
    if (options.onlyIfCustomerMay && current.disabled_by_platform) {
      throw new DomainError(
        "disabled_by_platform",
        `The platform disabled this key${current.disabled_reason ? ` (${current.disabled_reason})` : ""}. Only the platform can re-enable it: contact support.`,
      );
    }
    const key = await tx.apiKey.update({ where: { id: keyId }, data });
    await recordAudit(tx, {
      action,
      orgId: key.orgId,
      ...actor,
      targetType: "api_key",
      targetId: key.id,
      details: { hint: key.hint, name: key.name, ...(data.allowedEndpoints ? { endpoints: data.allowedEndpoints } : {}), ...options.details },
    });
    return key;
  });
  notifyAccessChanged();
  return updated;
}

/** A customer's switch: a key the platform disabled stays disabled until an administrator re-enables it. */
export function setKeyStatus(db: PrismaClient, keyId: string, status: "ACTIVE" | "DISABLED", actor: AuditActor) {
  return changeKey(
    db,
    keyId,
    actor,
    status === "ACTIVE" ? "key.enabled" : "key.disabled",
    { status, disabledAt: status === "DISABLED" ? new Date() : null },
    { onlyIfCustomerMay: true },
  );
}

/** A platform administrator's switch: disabling needs a reason the customer sees; enabling lifts any disable. */
export function setKeyStatusByPlatform(
  db: PrismaClient,
  keyId: string,
  change: { status: "DISABLED"; reason: string } | { status: "ACTIVE" },
  actor: AuditActor,
) {
  if (change.status === "DISABLED") {
    return changeKey(
      db,
      keyId,
      actor,
      "key.disabled",
      { status: "DISABLED", disabledAt: new Date(), disabledByPlatform: true, disabledReason: change.reason },
      { details: { by_platform: true, reason: change.reason } },
    );
  }
  return changeKey(
    db,
    keyId,
    actor,
    "key.enabled",
    { status: "ACTIVE", disabledAt: null, disabledByPlatform: false, disabledReason: null },
    { details: { by_platform: true } },
  );
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
