import { z } from "zod";
import type { DbClient } from "@/lib/db";
import { formatExportDollars } from "@/lib/money";
import { toCsv } from "@/lib/utils/csv";
import { addDays, daysBetween, isCalendarDate, isoDay, parseIsoDay } from "@/lib/utils/dates";
import { isUuid } from "@/lib/utils/uuid";

/**
 * Usage of an organization's keys per UTC day and per endpoint: requests
 * (refused ones counted apart), the bytes billed and what they cost.
 */

export const MAX_RANGE_DAYS = 366;
export const DEFAULT_RANGE_DAYS = 30;

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Dates are YYYY-MM-DD.")
  .refine(isCalendarDate, "Not a calendar date.");

export const usageQuerySchema = z
  .object({
    from: day.optional(),
    to: day.optional(),
    key: z.string().optional().transform((v) => (v ? v : undefined)).refine((v) => v === undefined || isUuid(v), "Unknown key."),
  })
  .transform((query, ctx) => {
    const to = query.to ?? isoDay(new Date());
    const from = query.from ?? isoDay(addDays(parseIsoDay(to)!, -(DEFAULT_RANGE_DAYS - 1)));
    const days = daysBetween(parseIsoDay(from)!, parseIsoDay(to)!) + 1;
    if (days < 1) ctx.addIssue({ code: "custom", path: ["from"], message: "The start date is after the end date." });
    if (days > MAX_RANGE_DAYS) ctx.addIssue({ code: "custom", path: ["from"], message: `Choose at most ${MAX_RANGE_DAYS} days.` });
    return { from, to, keyId: query.key };
  });

/** "Last N days" ranges ending today (UTC), for quick links. */
export function recentRanges(counts: readonly number[], now = new Date()) {
  const to = isoDay(now);
  return counts.map((days) => ({ days, from: isoDay(addDays(now, -(days - 1))), to }));
}

export type UsageQuery = z.output<typeof usageQuerySchema>;

export interface UsageTotals {
  requests: number;
  failed: number;
  bytes: number;
  costNanos: bigint;
}

export interface UsageRow extends UsageTotals {
  day: string;
  endpoint: string;
}

const zero = (): UsageTotals => ({ requests: 0, failed: 0, bytes: 0, costNanos: 0n });

function add(into: UsageTotals, row: UsageTotals) {
  into.requests += row.requests;
  into.failed += row.failed;
  into.bytes += row.bytes;
  into.costNanos += row.costNanos;
}

/** The organization's usage over the query's range; who may see it is the caller's check (lib/platform/usage.ts). */
export async function usageReport(db: DbClient, orgId: string, query: UsageQuery) {
  // The query's dates are calendar dates (usageQuerySchema).
  const start = parseIsoDay(query.from)!;
  const end = addDays(parseIsoDay(query.to)!, 1);
  const rows = await db.$queryRaw<{ day: Date; endpoint: string; requests: number; failed: number; bytes: bigint; cost: bigint }[]>`
    SELECT date_trunc('day', created_at AT TIME ZONE 'UTC') AS day,
           endpoint,
           count(*)::int AS requests,
           (count(*) FILTER (WHERE status_code >= 400))::int AS failed,
           coalesce(sum(bytes) FILTER (WHERE status_code < 400 AND cost_nanos > 0), 0)::bigint AS bytes,
           coalesce(sum(cost_nanos), 0)::bigint AS cost
      FROM usage_events
     WHERE org_id = ${orgId}::uuid
       AND created_at >= ${start} AND created_at < ${end}
       AND (${query.keyId ?? null}::uuid IS NULL OR api_key_id = ${query.keyId ?? null}::uuid)
     GROUP BY 1, 2
     ORDER BY 1, 2`;

  const detail: UsageRow[] = rows.map((row) => ({
    day: isoDay(row.day),
    endpoint: row.endpoint,
    requests: Number(row.requests),
    failed: Number(row.failed),
    bytes: Number(row.bytes),
    costNanos: BigInt(row.cost),
  }));

  // Every day of the range, so a chart shows quiet days as zero rather than skipping them.
  const perDay = new Map<string, UsageTotals>();
  for (let day = start; day < end; day = addDays(day, 1)) perDay.set(isoDay(day), zero());
  const perEndpoint = new Map<string, UsageTotals>();
  const totals = zero();
  for (const row of detail) {
    add(perDay.get(row.day)!, row);
    if (!perEndpoint.has(row.endpoint)) perEndpoint.set(row.endpoint, zero());
    add(perEndpoint.get(row.endpoint)!, row);
    add(totals, row);
  }

  const keys = await db.apiKey.findMany({
    where: { orgId },
    orderBy: { createdAt: "asc" },
    select: { id: true, name: true, hint: true, deletedAt: true },
  });

  return {
    query,
    totals,
    days: [...perDay].map(([d, t]) => ({ day: d, ...t })),
    endpoints: [...perEndpoint].map(([endpoint, t]) => ({ endpoint, ...t })).sort((a, b) => (b.costNanos > a.costNanos ? 1 : b.costNanos < a.costNanos ? -1 : 0)),
    rows: detail,
    keys,
  };
}

export type UsageReport = Awaited<ReturnType<typeof usageReport>>;

/** One line per day and endpoint; cost in exact dollars (nine decimals), as the ledger holds it. */
export function usageCsv(report: UsageReport): string {
  return toCsv(
    // "refused", as the usage page calls them: requests answered with an error, at no charge.
    ["date", "endpoint", "requests", "refused_requests", "billed_bytes", "cost_dollars"],
    report.rows.map((row) => [row.day, row.endpoint, row.requests, row.failed, row.bytes, formatExportDollars(row.costNanos)]),
  );
}
