import { formatDollars, parseDollars, readTypedDollars } from "@/lib/money";
import { DomainError } from "@/lib/errors";
import type { PrismaClient } from "@/lib/db";
import { recordAudit, type AuditActor } from "@/lib/audit";
import { addDays, addMonths, utcDayStart, utcMonthStart } from "@/lib/utils/dates";

/**
 * Spend caps: a daily and a monthly limit in dollars, per key and per
 * organization. Days and months are UTC: a day's spend starts at 00:00 UTC,
 * a month's on the 1st at 00:00 UTC. The spend so far is kept beside the
 * balance (organizations.spent_*, api_keys.spent_*) and written by the charge
 * itself, so the cap is checked on the row the charge has locked.
 */
export type SpendPeriod = "day" | "month";
export type SpendScope = "key" | "organization";

export interface SpendCaps {
  dailyCapNanos: bigint | null;
  monthlyCapNanos: bigint | null;
}

export interface SpendCounters {
  spentDay: Date | null;
  spentDayNanos: bigint;
  spentMonth: Date | null;
  spentMonthNanos: bigint;
}

/** When the period `now` is in ends, and its spend starts again from zero. */
export function periodResetsAt(period: SpendPeriod, now: Date): Date {
  return period === "day" ? addDays(utcDayStart(now), 1) : addMonths(utcMonthStart(now), 1);
}

/** What has been spent in the period `now` is in (counters of an earlier period count as nothing). */
export function spentIn(period: SpendPeriod, counters: SpendCounters, now: Date): bigint {
  const [since, spent] = period === "day" ? [counters.spentDay, counters.spentDayNanos] : [counters.spentMonth, counters.spentMonthNanos];
  const start = period === "day" ? utcDayStart(now) : utcMonthStart(now);
  return since !== null && since.getTime() === start.getTime() ? spent : 0n;
}

export interface SpendLimitHit {
  scope: SpendScope;
  period: SpendPeriod;
  limitNanos: bigint;
  spentNanos: bigint;
  resetsAt: Date;
}

/** The first cap a charge of `costNanos` would cross: daily before monthly. */
export function capCrossed(scope: SpendScope, caps: SpendCaps, counters: SpendCounters, costNanos: bigint, now: Date): SpendLimitHit | null {
  for (const period of ["day", "month"] as const) {
    const limitNanos = period === "day" ? caps.dailyCapNanos : caps.monthlyCapNanos;
    if (limitNanos === null) continue;
    const spentNanos = spentIn(period, counters, now);
    if (spentNanos + costNanos > limitNanos) return { scope, period, limitNanos, spentNanos, resetsAt: periodResetsAt(period, now) };
  }
  return null;
}

export const MAX_SPEND_CAP_NANOS = parseDollars("1000000");

/** "" → no cap; "25", "0.0001", "$1,000" → nanos exactly, more than $0 and at most MAX_SPEND_CAP_NANOS. */
export function parseSpendCap(input: string | null | undefined, label: string): bigint | null {
  if ((input ?? "").trim() === "") return null;
  const read = readTypedDollars(input!, { label, max: MAX_SPEND_CAP_NANOS });
  if (!read.ok) throw new DomainError("invalid_spend_cap", `${read.message} Leave it empty for no cap.`);
  return read.nanos;
}

/** The organization's caps, set with their audit entry in one transaction; a charge sees them at once (they are on the row it locks). */
export async function setOrgSpendCaps(db: PrismaClient, orgId: string, caps: SpendCaps, actor: AuditActor) {
  return db.$transaction(async (tx) => {
    const org = await tx.organization.update({ where: { id: orgId }, data: caps, select: { dailyCapNanos: true, monthlyCapNanos: true } });
    const cap = (nanos: bigint | null) => (nanos === null ? null : formatDollars(nanos));
    await recordAudit(tx, {
      action: "billing.spend_caps_set",
      orgId,
      ...actor,
      targetType: "organization",
      targetId: orgId,
      details: { daily_cap: cap(caps.dailyCapNanos), monthly_cap: cap(caps.monthlyCapNanos) },
    });
    return org;
  });
}
