import type { DbClient } from "@/lib/db";
import type { LedgerKind } from "@/lib/generated/prisma/enums";
import { toCsv } from "@/lib/utils/csv";
import { addDays, isoDay, parseIsoDay } from "@/lib/utils/dates";
import { formatExportDollars } from "@/lib/money";

/**
 * The billing history: the ledger, newest first, with the balance after each
 * line. Top-ups, adjustments, refunds and disputes are one line each; usage
 * charges are one line per UTC day (a day can hold thousands of requests).
 */

export interface HistoryLine {
  /** Stable within the history: the ledger id, or "usage:<day>". */
  id: string;
  at: Date;
  kind: LedgerKind;
  label: string;
  amountNanos: bigint;
  balanceAfterNanos: bigint;
  /** Usage lines: how many charged requests. */
  requests?: number;
  receiptUrl?: string | null;
}

const KIND_LABELS: Record<LedgerKind, string> = {
  TOPUP: "Credits bought",
  USAGE: "API usage",
  ADJUSTMENT: "Adjustment",
  REFUND: "Refund",
  DISPUTE: "Dispute",
};

export const HISTORY_LIMIT = 500;

export async function billingHistory(db: DbClient, orgId: string, range: { from: string; to: string }): Promise<HistoryLine[]> {
  // The range's dates are calendar dates (historyRangeSchema in lib/platform/billing.ts).
  const start = parseIsoDay(range.from)!;
  const end = addDays(parseIsoDay(range.to)!, 1);
  const [entries, usageDays] = await Promise.all([
    db.creditLedgerEntry.findMany({
      where: { orgId, kind: { not: "USAGE" }, createdAt: { gte: start, lt: end } },
      orderBy: { id: "desc" },
      take: HISTORY_LIMIT,
    }),
    db.$queryRaw<{ day: Date; requests: number; amount: bigint; last_id: bigint; last_at: Date; balance_after: bigint }[]>`
      SELECT u.day, u.requests, u.amount, u.last_id, l.created_at AS last_at, l.balance_after_nanos AS balance_after
        FROM (SELECT date_trunc('day', created_at AT TIME ZONE 'UTC') AS day,
                     count(*)::int AS requests,
                     sum(amount_nanos)::bigint AS amount,
                     max(id) AS last_id
                FROM credit_ledger
               WHERE org_id = ${orgId}::uuid AND kind = 'USAGE' AND created_at >= ${start} AND created_at < ${end}
               GROUP BY 1) u
        JOIN credit_ledger l ON l.id = u.last_id
       ORDER BY u.last_id DESC
       LIMIT ${HISTORY_LIMIT}`,
  ]);

  // A top-up's reference is its Checkout Session (cs_…) or, for an auto-recharge, its PaymentIntent (pi_…).
  const topUps = entries.filter((e) => e.kind === "TOPUP" && e.reference).map((e) => e.reference!);
  const sessionIds = topUps.filter((reference) => reference.startsWith("cs_"));
  const intentIds = topUps.filter((reference) => reference.startsWith("pi_"));
  const [sessions, recharges] = await Promise.all([
    sessionIds.length ? db.stripeCheckoutSession.findMany({ where: { id: { in: sessionIds } }, select: { id: true, receiptUrl: true } }) : [],
    intentIds.length ? db.autoRechargeAttempt.findMany({ where: { paymentIntentId: { in: intentIds } }, select: { paymentIntentId: true, receiptUrl: true } }) : [],
  ]);
  const receipts = new Map([...sessions.map((s) => [s.id, s.receiptUrl] as const), ...recharges.map((r) => [r.paymentIntentId!, r.receiptUrl] as const)]);

  // [ledger id of the line's last entry, line]: ids are the commit order, so "balance after" reads down the list.
  const lines: [bigint, HistoryLine][] = [
    ...entries.map((e): [bigint, HistoryLine] => [e.id, {
      id: e.id.toString(),
      at: e.createdAt,
      kind: e.kind,
      label: e.description || KIND_LABELS[e.kind],
      amountNanos: e.amountNanos,
      balanceAfterNanos: e.balanceAfterNanos,
      receiptUrl: e.reference ? (receipts.get(e.reference) ?? null) : null,
    }]),
    ...usageDays.map((u): [bigint, HistoryLine] => [BigInt(u.last_id), {
      id: `usage:${isoDay(u.day)}`,
      at: u.last_at,
      kind: "USAGE" as const,
      label: `API usage on ${isoDay(u.day)}`,
      amountNanos: BigInt(u.amount),
      balanceAfterNanos: BigInt(u.balance_after),
      requests: u.requests,
    }]),
  ];
  lines.sort(([a], [b]) => (a > b ? -1 : a < b ? 1 : 0));
  return lines.slice(0, HISTORY_LIMIT).map(([, line]) => line);
}

export function billingCsv(lines: HistoryLine[]): string {
  const exact = formatExportDollars;
  return toCsv(
    ["time_utc", "type", "description", "requests", "amount_dollars", "balance_after_dollars", "receipt_url"],
    lines.map((l) => [l.at.toISOString(), l.kind.toLowerCase(), l.label, l.requests ?? "", exact(l.amountNanos), exact(l.balanceAfterNanos), l.receiptUrl ?? ""]),
  );
}

/**
 * How long the balance lasts at the last 7 days' average daily spend; null
 * when nothing was spent (it lasts indefinitely) or nothing is left.
 */
export async function balanceRunway(db: DbClient, orgId: string, now = new Date()) {
  const since = addDays(now, -7);
  const [spent, org] = await Promise.all([
    db.creditLedgerEntry.aggregate({ where: { orgId, kind: "USAGE", createdAt: { gte: since } }, _sum: { amountNanos: true } }),
    db.organization.findUniqueOrThrow({ where: { id: orgId }, select: { balanceNanos: true } }),
  ]);
  const weekSpendNanos = -(spent._sum.amountNanos ?? 0n);
  const dailySpendNanos = weekSpendNanos / 7n;
  const days = dailySpendNanos > 0n && org.balanceNanos > 0n ? Number(org.balanceNanos / dailySpendNanos) : null;
  return { weekSpendNanos, dailySpendNanos, days, balanceNanos: org.balanceNanos };
}
