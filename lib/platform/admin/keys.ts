import type { Principal } from "@/lib/auth/session";
import type { DbClient } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { KEY_HINT_LENGTH } from "@/lib/keys";
import { isUuid } from "@/lib/utils/uuid";
import { requirePlatformAdmin } from "./access";

/**
 * Abuse review: find a key by its hint or id — never by the full key, which
 * exists only in its creation response — and see its last 24 hours.
 */
const ACTIVITY_WINDOW_MS = 24 * 3600_000;
const ACTIVITY_ROWS = 500;

export async function findKeys(db: DbClient, principal: Principal | null, rawQuery: unknown) {
  await requirePlatformAdmin(db, principal);
  const q = typeof rawQuery === "string" ? rawQuery.trim().replace(/…$/, "") : "";
  if (!q) return [];
  const byId: boolean = isUuid(q as unknown);
  if (!byId && q.length > KEY_HINT_LENGTH) {
    throw new DomainError("invalid_input", `Search by the key's ${KEY_HINT_LENGTH}-character hint or its id. A full key is never looked up: whoever holds it should rotate it.`);
  }
  if (!byId && q.length < 4) throw new DomainError("invalid_input", "Type at least 4 characters of the hint.");
  return db.apiKey.findMany({
    where: byId ? { id: q } : { hint: { startsWith: q } },
    orderBy: { createdAt: "desc" },
    take: 50,
    include: { organization: { select: { id: true, name: true, suspendedAt: true, closedAt: true } } },
  });
}

/** A key, its organization, and its requests of the last 24 hours (newest first) with a summary by status. */
export async function keyActivity(db: DbClient, principal: Principal | null, keyId: unknown, now = new Date()) {
  await requirePlatformAdmin(db, principal);
  if (!isUuid(keyId)) return null;
  const key = await db.apiKey.findUnique({
    where: { id: keyId },
    include: { organization: { select: { id: true, name: true, suspendedAt: true, suspendedReason: true, closedAt: true, plan: { select: { name: true, allowedEndpoints: true } } } } },
  });
  if (!key) return null;
  const since = new Date(now.getTime() - ACTIVITY_WINDOW_MS);
  const [events, byStatus, byEndpoint, byAddress] = await Promise.all([
    db.usageEvent.findMany({ where: { apiKeyId: key.id, createdAt: { gte: since } }, orderBy: { id: "desc" }, take: ACTIVITY_ROWS }),
    db.usageEvent.groupBy({ by: ["statusCode"], where: { apiKeyId: key.id, createdAt: { gte: since } }, _count: { _all: true }, orderBy: { statusCode: "asc" } }),
    db.usageEvent.groupBy({ by: ["endpoint"], where: { apiKeyId: key.id, createdAt: { gte: since } }, _count: { _all: true }, orderBy: { endpoint: "asc" } }),
    db.usageEvent.groupBy({ by: ["clientIp"], where: { apiKeyId: key.id, createdAt: { gte: since } }, _count: { _all: true }, orderBy: { clientIp: "asc" } }),
  ]);
  return {
    key,
    since,
    events,
    truncated: events.length === ACTIVITY_ROWS,
    byStatus: byStatus.map((r) => ({ status: r.statusCode, count: r._count._all })),
    byEndpoint: byEndpoint.map((r) => ({ endpoint: r.endpoint, count: r._count._all })),
    byAddress: byAddress.map((r) => ({ address: r.clientIp, count: r._count._all })).sort((a, b) => b.count - a.count),
  };
}
