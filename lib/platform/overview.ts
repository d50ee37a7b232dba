import type { DbClient } from "@/lib/db";
import type { Principal } from "@/lib/auth/session";
import { addDays } from "@/lib/utils/dates";
import { requireAccess } from "./access";

export const OVERVIEW_DAYS = 7;

/**
 * The figures of the dashboard's overview: active keys, the oldest one's
 * name and hint (never the key), the keys that are disabled (by the platform
 * or by the organization, so an empty count can say why), and the requests
 * and spend of the last days.
 */
export async function orgOverview(db: DbClient, principal: Principal | null, orgId: string, now = new Date()) {
  await requireAccess(db, principal, orgId, "org:view");
  const since = addDays(now, -OVERVIEW_DAYS);
  const live = { orgId, deletedAt: null, status: "ACTIVE" } as const;
  const [activeKeys, firstKey, disabled, usage] = await Promise.all([
    db.apiKey.count({ where: live }),
    db.apiKey.findFirst({ where: live, orderBy: { createdAt: "asc" }, select: { name: true, hint: true } }),
    db.apiKey.groupBy({ by: ["disabledByPlatform"], where: { orgId, deletedAt: null, status: "DISABLED" }, _count: { _all: true } }),
    db.usageEvent.aggregate({ where: { orgId, createdAt: { gt: since } }, _count: { _all: true }, _sum: { costNanos: true } }),
  ]);
  const disabledBy = (platform: boolean) => disabled.find((row) => row.disabledByPlatform === platform)?._count._all ?? 0;
  return {
    activeKeys,
    firstKey,
    disabledByPlatform: disabledBy(true),
    disabledByOrg: disabledBy(false),
    requests: usage._count._all,
    spendNanos: usage._sum.costNanos ?? 0n,
    since,
  };
}
