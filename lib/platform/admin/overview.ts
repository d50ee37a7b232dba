import type { Principal } from "@/lib/auth/session";
import type { DbClient } from "@/lib/db";
import { formatExportDollars } from "@/lib/money";
import { usageQuerySchema } from "@/lib/usage/report";
import { toCsv } from "@/lib/utils/csv";
import { addDays, isoDay, parseIsoDay } from "@/lib/utils/dates";
import { openPlanRequests } from "../plans";
import { requirePlatformAdmin } from "./access";
import { paymentsNeedingAttention } from "./payments";

/**
 * The service at a glance, per UTC day (as the customer's usage page counts
 * them): money in and out of balances from the ledger, and requests and
 * bytes per endpoint from the usage events. Sums are exact nano-dollars.
 */
export interface MoneyDay {
  day: string;
  topUpsNanos: bigint;
  refundsNanos: bigint;
  disputesNanos: bigint;
  /** Top-ups less refunds and disputes (which are negative ledger amounts). */
  netSoldNanos: bigint;
  adjustmentsNanos: bigint;
  usageNanos: bigint;
  requests: number;
  failed: number;
  bytes: number;
}

export async function platformOverview(db: DbClient, principal: Principal | null, input: unknown) {
  await requirePlatformAdmin(db, principal);
  const range = usageQuerySchema.parse(input);
  // The range's dates are calendar dates (usageQuerySchema).
  const start = parseIsoDay(range.from)!;
  const end = addDays(parseIsoDay(range.to)!, 1);

  const [money, usage, negative, requests, payments] = await Promise.all([
    db.$queryRaw<{ day: Date; kind: string; amount: bigint }[]>`
      SELECT date_trunc('day', created_at AT TIME ZONE 'UTC') AS day, kind::text AS kind, sum(amount_nanos)::bigint AS amount
        FROM credit_ledger WHERE created_at >= ${start} AND created_at < ${end}
       GROUP BY 1, 2`,
    db.$queryRaw<{ day: Date; endpoint: string; requests: number; failed: number; bytes: bigint }[]>`
      SELECT date_trunc('day', created_at AT TIME ZONE 'UTC') AS day, endpoint,
             count(*)::int AS requests,
             (count(*) FILTER (WHERE status_code >= 400))::int AS failed,
             coalesce(sum(bytes) FILTER (WHERE status_code < 400 AND cost_nanos > 0), 0)::bigint AS bytes
        FROM usage_events WHERE created_at >= ${start} AND created_at < ${end}
       GROUP BY 1, 2 ORDER BY 1, 2`,
    db.organization.findMany({ where: { balanceNanos: { lt: 0 } }, orderBy: { balanceNanos: "asc" }, select: { id: true, name: true, balanceNanos: true, closedAt: true } }),
    openPlanRequests(db),
    paymentsNeedingAttention(db),
  ]);

  const days = new Map<string, MoneyDay>();
  for (let date = start; date < end; date = addDays(date, 1)) {
    const day = isoDay(date);
    days.set(day, { day, topUpsNanos: 0n, refundsNanos: 0n, disputesNanos: 0n, netSoldNanos: 0n, adjustmentsNanos: 0n, usageNanos: 0n, requests: 0, failed: 0, bytes: 0 });
  }
  for (const row of money) {
    const day = days.get(isoDay(row.day));
    if (!day) continue;
    const amount = BigInt(row.amount);
    if (row.kind === "TOPUP") day.topUpsNanos += amount;
    else if (row.kind === "REFUND") day.refundsNanos += amount;
    else if (row.kind === "DISPUTE") day.disputesNanos += amount;
    else if (row.kind === "ADJUSTMENT") day.adjustmentsNanos += amount;
    else if (row.kind === "USAGE") day.usageNanos -= amount;
  }
  const endpoints = new Map<string, { endpoint: string; requests: number; failed: number; bytes: number }>();
  const byDayEndpoint = usage.map((row) => ({ day: isoDay(row.day), endpoint: row.endpoint, requests: Number(row.requests), failed: Number(row.failed), bytes: Number(row.bytes) }));
  for (const row of byDayEndpoint) {
    const day = days.get(row.day);
    if (day) {
      day.requests += row.requests;
      day.failed += row.failed;
      day.bytes += row.bytes;
    }
    const total = endpoints.get(row.endpoint) ?? { endpoint: row.endpoint, requests: 0, failed: 0, bytes: 0 };
    total.requests += row.requests;
    total.failed += row.failed;
    total.bytes += row.bytes;
    endpoints.set(row.endpoint, total);
  }
  const dayList = [...days.values()];
  for (const day of dayList) day.netSoldNanos = day.topUpsNanos + day.refundsNanos + day.disputesNanos;
  const totals = dayList.reduce(
    (sum, d) => ({
      topUpsNanos: sum.topUpsNanos + d.topUpsNanos,
      refundsNanos: sum.refundsNanos + d.refundsNanos,
      disputesNanos: sum.disputesNanos + d.disputesNanos,
      netSoldNanos: sum.netSoldNanos + d.netSoldNanos,
      adjustmentsNanos: sum.adjustmentsNanos + d.adjustmentsNanos,
      usageNanos: sum.usageNanos + d.usageNanos,
      requests: sum.requests + d.requests,
      failed: sum.failed + d.failed,
      bytes: sum.bytes + d.bytes,
    }),
    { topUpsNanos: 0n, refundsNanos: 0n, disputesNanos: 0n, netSoldNanos: 0n, adjustmentsNanos: 0n, usageNanos: 0n, requests: 0, failed: 0, bytes: 0 },
  );
  return {
    range,
    days: dayList,
    totals,
    endpoints: [...endpoints.values()].sort((a, b) => b.requests - a.requests),
    byDayEndpoint,
    negative,
    requests,
    payments,
  };
}

export type PlatformOverview = Awaited<ReturnType<typeof platformOverview>>;

const exact = formatExportDollars;

/** One line per UTC day: the money columns in exact dollars and in nano-dollars, then requests and bytes. */
export function overviewCsv(overview: PlatformOverview): string {
  const money = ["top_ups", "refunds", "disputes", "net_credits_sold", "adjustments", "usage_charged"] as const;
  const pick = (d: MoneyDay) => [d.topUpsNanos, d.refundsNanos, d.disputesNanos, d.netSoldNanos, d.adjustmentsNanos, d.usageNanos];
  return toCsv(
    ["date", ...money.map((m) => `${m}_dollars`), ...money.map((m) => `${m}_nanos`), "requests", "failed_requests", "billed_bytes"],
    overview.days.map((d) => [d.day, ...pick(d).map(exact), ...pick(d).map((n) => n.toString()), d.requests, d.failed, d.bytes]),
  );
}
