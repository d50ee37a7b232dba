import type { DbClient, PrismaClient } from "@/lib/db";
import { isEndpointName, type EndpointName } from "@/lib/catalog";
import { recordAudit, type AuditAction, type AuditActor } from "@/lib/audit";
import { DomainError } from "@/lib/errors";
import { isUuid } from "@/lib/utils/uuid";
import { parseIpRange } from "@/lib/utils/ip-ranges";
import { formatDollars } from "@/lib/money";
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

export const MAX_ALLOW_LIST_ENTRIES = 100;

/** Addresses and CIDR ranges, written canonically and without repeats; a wrong entry is refused with its reason. */
export function parseAllowList(entries: readonly string[]): string[] {
  const texts = entries.map((entry) => entry.trim()).filter((entry) => entry !== "");
  if (texts.length > MAX_ALLOW_LIST_ENTRIES) {
    throw new DomainError("invalid_allow_list", `An allow-list holds at most ${MAX_ALLOW_LIST_ENTRIES} addresses or ranges; use wider ranges.`);
  }
  const ranges = texts.map((text) => {
    const result = parseIpRange(text);
    if (!result.ok) throw new DomainError("invalid_allow_list", `${result.reason}.`);
    return result.range.text;
  });
  return [...new Set(ranges)];
}

/** What limits a key beyond its organization's plan. */
export interface KeyLimits {
  allowedIps: string[];
  dailyCapNanos: bigint | null;
  monthlyCapNanos: bigint | null;
}

const NO_LIMITS: KeyLimits = { allowedIps: [], dailyCapNanos: null, monthlyCapNanos: null };

function limitDetails(limits: KeyLimits) {
  const cap = (nanos: bigint | null) => (nanos === null ? null : formatDollars(nanos));
  return { allowed_ips: limits.allowedIps, daily_cap: cap(limits.dailyCapNanos), monthly_cap: cap(limits.monthlyCapNanos) };
}

export interface NewKey {
  orgId: string;
  name: string;
  endpoints?: readonly string[];
  /** Refused from this instant on; undefined or null: never. */
  expiresAt?: Date | null;
  limits?: Partial<KeyLimits>;
}

export async function createKey(db: PrismaClient, input: NewKey, actor: AuditActor, now = new Date()) {
  const endpoints = parseEndpointList(input.endpoints ?? []);
  if (input.expiresAt && input.expiresAt.getTime() <= now.getTime()) {
    throw new DomainError("invalid_expiry", "The expiry date must be in the future.");
  }
  const limits = { ...NO_LIMITS, ...input.limits, allowedIps: parseAllowList(input.limits?.allowedIps ?? []) };
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
        expiresAt: input.expiresAt ?? null,
        ...limits,
      },
    });
    await recordAudit(tx, {
      action: "key.created",
      orgId: input.orgId,
      ...actor,
      targetType: "api_key",
      targetId: created.id,
      details: {
        hint: created.hint,
        name: created.name,
        endpoints,
        expires_at: created.expiresAt?.toISOString() ?? null,
        ...(limits.allowedIps.length || limits.dailyCapNanos !== null || limits.monthlyCapNanos !== null ? limitDetails(limits) : {}),
      },
    });
    return created;
  });
  notifyAccessChanged(); // this process's key cache knows the new key at once; others within a second
  return { key: generated.key, record };
}

/** The grace periods "Roll key" offers: how long the old key keeps working. */
export const ROLL_GRACE_SECONDS = [0, 3600, 86_400, 7 * 86_400] as const;

/**
 * "Roll key": a new key with the old one's name, endpoints, allow-list and
 * caps (its expiry is not copied: rolling is how an expiring key is renewed),
 * shown once; the old key works until the grace period ends (or its own
 * expiry, if sooner) and then answers 401 api_key_expired.
 */
export async function rollKey(db: PrismaClient, keyId: string, graceSeconds: number, actor: AuditActor, now = new Date()) {
  if (!(ROLL_GRACE_SECONDS as readonly number[]).includes(graceSeconds)) {
    throw new DomainError("invalid_input", "Choose a grace period: none, 1 hour, 24 hours or 7 days.");
  }
  const generated = generateApiKey();
  const { created, old } = await db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM api_keys WHERE id = ${keyId}::uuid AND deleted_at IS NULL FOR UPDATE`;
    if (!locked) throw new DomainError("unknown_key", "That key does not exist or was deleted.");
    const old = await tx.apiKey.findUniqueOrThrow({ where: { id: keyId } });
    if (old.status !== "ACTIVE") throw new DomainError("key_not_rollable", "This key is disabled. Enable it first, or create a new key.");
    if (old.rolledAt) throw new DomainError("key_not_rollable", "This key has already been rolled; roll its replacement instead.");
    if (old.expiresAt && old.expiresAt.getTime() <= now.getTime()) {
      throw new DomainError("key_not_rollable", "This key has expired; create a new key instead.");
    }
    const graceEnd = new Date(now.getTime() + graceSeconds * 1000);
    const oldExpiresAt = old.expiresAt && old.expiresAt < graceEnd ? old.expiresAt : graceEnd;
    await tx.apiKey.update({ where: { id: old.id }, data: { rolledAt: now, expiresAt: oldExpiresAt } });
    const created = await tx.apiKey.create({
      data: {
        orgId: old.orgId,
        name: old.name,
        keyHash: generated.hash,
        hint: generated.hint,
        allowedEndpoints: old.allowedEndpoints,
        // The platform's restriction goes with the key: rolling never lifts it.
        platformEndpoints: old.platformEndpoints,
        platformEndpointsReason: old.platformEndpointsReason,
        allowedIps: old.allowedIps,
        dailyCapNanos: old.dailyCapNanos,
        monthlyCapNanos: old.monthlyCapNanos,
        rolledFromId: old.id,
        createdById: actor.actorUserId ?? null,
        createdAt: now,
      },
    });
    await recordAudit(tx, {
      action: "key.rolled",
      orgId: old.orgId,
      ...actor,
      targetType: "api_key",
      targetId: created.id,
      details: {
        name: old.name,
        hint: created.hint,
        old_hint: old.hint,
        old_key_id: old.id,
        grace_seconds: graceSeconds,
        old_expires_at: oldExpiresAt.toISOString(),
      },
    });
    return { created, old: { ...old, expiresAt: oldExpiresAt } };
  });
  notifyAccessChanged();
  return { key: generated.key, record: created, old };
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
  platformEndpoints?: string[];
  platformEndpointsReason?: string | null;
};

async function changeKey(
  db: PrismaClient,
  keyId: string,
  actor: AuditActor,
  action: AuditAction,
  data: KeyChange,
  options: { onlyIfCustomerMay?: boolean; details?: Record<string, string | string[] | boolean | null> } = {},
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
      details: { hint: key.hint, name: key.name, ...options.details },
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

/** Ends a rolled key's grace period now: from this instant it answers 401 api_key_expired. */
export async function endGracePeriod(db: PrismaClient, keyId: string, actor: AuditActor, now = new Date()) {
  const updated = await db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM api_keys WHERE id = ${keyId}::uuid AND deleted_at IS NULL FOR UPDATE`;
    if (!locked) throw new DomainError("unknown_key", "That key does not exist or was deleted.");
    const key = await tx.apiKey.findUniqueOrThrow({ where: { id: keyId } });
    if (!key.rolledAt || (key.expiresAt && key.expiresAt.getTime() <= now.getTime())) {
      throw new DomainError("key_not_rollable", "Only a rolled key still in its grace period can have it ended.");
    }
    const saved = await tx.apiKey.update({ where: { id: keyId }, data: { expiresAt: now } });
    await recordAudit(tx, {
      action: "key.grace_ended",
      orgId: key.orgId,
      ...actor,
      targetType: "api_key",
      targetId: key.id,
      details: { hint: key.hint, name: key.name },
    });
    return saved;
  });
  notifyAccessChanged();
  return updated;
}

/**
 * A key's settings: endpoints (recorded as key.restricted), its limits, the
 * allow-list and caps (key.limits_changed), and, when given, its expiry
 * (key.expiry_changed: the instant it stops, or null for never), in one
 * transaction. A rolled key's expiry is its grace period's end, changed only
 * by ending the grace.
 */
export async function configureKey(
  db: PrismaClient,
  keyId: string,
  input: { endpoints: readonly string[]; limits: KeyLimits; expiresAt?: Date | null },
  actor: AuditActor,
) {
  const allowedEndpoints = parseEndpointList(input.endpoints);
  const limits = { ...input.limits, allowedIps: parseAllowList(input.limits.allowedIps) };
  const key = await db.apiKey.findFirst({ where: { id: keyId, deletedAt: null } });
  if (!key) throw new DomainError("unknown_key", `No key with id ${keyId}.`);
  await assertWithinPlan(db, key.orgId, allowedEndpoints);
  assertWithinPlatformRestriction(key, allowedEndpoints);
  const endpointsChanged = !sameList(key.allowedEndpoints, allowedEndpoints);
  const limitsChanged =
    !sameList(key.allowedIps, limits.allowedIps) || key.dailyCapNanos !== limits.dailyCapNanos || key.monthlyCapNanos !== limits.monthlyCapNanos;
  const expiryChanged = input.expiresAt !== undefined && (input.expiresAt?.getTime() ?? null) !== (key.expiresAt?.getTime() ?? null);
  if (expiryChanged && key.rolledAt !== null) {
    throw new DomainError("invalid_input", "This key was rolled: it stops when its grace period ends. End the grace to stop it now; the new key has an expiry of its own.");
  }
  if (!endpointsChanged && !limitsChanged && !expiryChanged) return key;
  const updated = await db.$transaction(async (tx) => {
    const saved = await tx.apiKey.update({ where: { id: keyId }, data: { allowedEndpoints, ...limits, ...(expiryChanged ? { expiresAt: input.expiresAt } : {}) } });
    const base = { orgId: key.orgId, ...actor, targetType: "api_key", targetId: key.id };
    if (endpointsChanged) {
      await recordAudit(tx, { ...base, action: "key.restricted", details: { hint: key.hint, name: key.name, endpoints: allowedEndpoints } });
    }
    if (limitsChanged) {
      await recordAudit(tx, { ...base, action: "key.limits_changed", details: { hint: key.hint, name: key.name, ...limitDetails(limits) } });
    }
    if (expiryChanged) {
      // The day it works through, as the form names it: it stops at 00:00 UTC the next day.
      const expiresOn = input.expiresAt ? new Date(input.expiresAt.getTime() - 86_400_000).toISOString().slice(0, 10) : null;
      await recordAudit(tx, { ...base, action: "key.expiry_changed", details: { hint: key.hint, name: key.name, expires_on: expiresOn } });
    }
    return saved;
  });
  notifyAccessChanged();
  return updated;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((value, i) => value === b[i]);

/**
 * The customer's choice may narrow the platform's restriction, never widen it.
 * (The API takes the intersection anyway; this answers a replayed or stale form
 * with the reason instead of saving a choice that cannot take effect.)
 */
function assertWithinPlatformRestriction(key: { platformEndpoints: string[]; platformEndpointsReason: string | null }, endpoints: readonly string[]) {
  if (key.platformEndpoints.length === 0) return;
  const outside = endpoints.filter((e) => !key.platformEndpoints.includes(e));
  if (outside.length === 0) return;
  throw new DomainError(
    "restricted_by_platform",
    `The platform restricted this key to ${key.platformEndpoints.join(", ")}${key.platformEndpointsReason ? ` (${key.platformEndpointsReason})` : ""}, so it cannot be allowed ${outside.join(", ")}. Contact support to have the restriction lifted.`,
  );
}

/**
 * A platform administrator's restriction: at most these endpoints, whatever
 * the customer chooses, with a reason the customer sees. An empty list lifts
 * it, and the customer's own choice applies again.
 */
export async function setPlatformRestriction(
  db: PrismaClient,
  keyId: string,
  change: { endpoints: readonly string[]; reason: string | null },
  actor: AuditActor,
) {
  const platformEndpoints = parseEndpointList(change.endpoints);
  const reason = platformEndpoints.length ? change.reason?.trim() || null : null;
  if (platformEndpoints.length && !reason) throw new DomainError("invalid_input", "Give the reason the customer will see.");
  const key = await db.apiKey.findFirst({ where: { id: keyId, deletedAt: null } });
  if (!key) throw new DomainError("unknown_key", `No key with id ${keyId}.`);
  await assertWithinPlan(db, key.orgId, platformEndpoints);
  return changeKey(
    db,
    keyId,
    actor,
    "key.restricted",
    { platformEndpoints, platformEndpointsReason: reason },
    { details: { by_platform: true, endpoints: platformEndpoints, reason } },
  );
}
