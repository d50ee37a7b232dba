import type { PrismaClient } from "@/lib/db";
import { recordAudit, type AuditActor } from "@/lib/audit";
import { DomainError } from "@/lib/errors";
import { formatDollars } from "@/lib/money";
import { isoDay, utcMonthStart } from "@/lib/utils/dates";
import { emitOrgEvent, type EventType } from "./events";

/**
 * Alert rules: the balance below $X, or the spend of the UTC day or month
 * above $Y (the organization's, or one key's). A rule fires once per
 * crossing: the UPDATE that sees it armed and its condition true marks it
 * fired and writes the event in the same transaction (a second instance's
 * UPDATE finds it fired), and it is armed again once the condition is false
 * (a top-up, a new day or month).
 */
export const ALERT_KINDS = ["balance_below", "spend_day_above", "spend_month_above"] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

const EVENT_OF: Record<AlertKind, EventType> = {
  balance_below: "balance.below_threshold",
  spend_day_above: "spend.day_above_threshold",
  spend_month_above: "spend.month_above_threshold",
};

export const MAX_ALERT_RULES = 50;

export async function createAlertRule(
  db: PrismaClient,
  input: { orgId: string; kind: AlertKind; apiKeyId: string | null; thresholdNanos: bigint },
  actor: AuditActor,
) {
  if (input.kind === "balance_below" && input.apiKeyId) {
    throw new DomainError("invalid_input", "The balance is the organization's: a balance alert cannot be for one key.");
  }
  if (input.thresholdNanos <= 0n) throw new DomainError("invalid_amount", "The threshold must be more than $0.");
  return db.$transaction(async (tx) => {
    const key = input.apiKeyId
      ? await tx.apiKey.findFirst({ where: { id: input.apiKeyId, orgId: input.orgId, deletedAt: null }, select: { id: true, name: true, hint: true } })
      : null;
    if (input.apiKeyId && !key) throw new DomainError("unknown_key", "That key does not exist or has been deleted.");
    if ((await tx.alertRule.count({ where: { orgId: input.orgId } })) >= MAX_ALERT_RULES) {
      throw new DomainError("invalid_input", `An organization has at most ${MAX_ALERT_RULES} alerts.`);
    }
    const rule = await tx.alertRule.create({
      data: { orgId: input.orgId, kind: input.kind, apiKeyId: key?.id ?? null, thresholdNanos: input.thresholdNanos, createdById: actor.actorUserId ?? null },
    });
    await recordAudit(tx, {
      action: "alert.created",
      orgId: input.orgId,
      ...actor,
      targetType: "alert_rule",
      targetId: rule.id,
      details: { kind: input.kind, threshold: formatDollars(input.thresholdNanos), key: key ? `${key.name} (${key.hint}…)` : null },
    });
    return rule;
  });
}

export async function deleteAlertRule(db: PrismaClient, orgId: string, ruleId: string, actor: AuditActor) {
  await db.$transaction(async (tx) => {
    const rule = await tx.alertRule.findFirst({ where: { id: ruleId, orgId } });
    if (!rule) throw new DomainError("not_found", "That alert does not exist.");
    await tx.alertRule.delete({ where: { id: rule.id } });
    await recordAudit(tx, {
      action: "alert.deleted",
      orgId,
      ...actor,
      targetType: "alert_rule",
      targetId: rule.id,
      details: { kind: rule.kind, threshold: formatDollars(rule.thresholdNanos) },
    });
  });
}

interface Fired {
  id: string;
  org_id: string;
  kind: AlertKind;
  threshold: string;
  value: string;
  key_name: string | null;
  key_hint: string | null;
}

/** Each rule's value now and whether its condition holds; $1 the UTC day, $2 the UTC month. */
const STATE = `
  SELECT r.id, r.org_id, r.kind, r.threshold_nanos, k.name AS key_name, k.hint AS key_hint, v.value,
         CASE WHEN r.kind = 'balance_below' THEN v.value < r.threshold_nanos ELSE v.value > r.threshold_nanos END AS hit
    FROM alert_rules r
    JOIN organizations o ON o.id = r.org_id AND o.closed_at IS NULL
    LEFT JOIN api_keys k ON k.id = r.api_key_id
    CROSS JOIN LATERAL (SELECT CASE
      WHEN r.kind = 'balance_below' THEN o.balance_nanos
      WHEN r.kind = 'spend_day_above' AND k.id IS NULL THEN CASE WHEN o.spent_day = $1::date THEN o.spent_day_nanos ELSE 0 END
      WHEN r.kind = 'spend_day_above' THEN CASE WHEN k.spent_day = $1::date THEN k.spent_day_nanos ELSE 0 END
      WHEN k.id IS NULL THEN CASE WHEN o.spent_month = $2::date THEN o.spent_month_nanos ELSE 0 END
      ELSE CASE WHEN k.spent_month = $2::date THEN k.spent_month_nanos ELSE 0 END
    END AS value) v
   WHERE r.api_key_id IS NULL OR k.deleted_at IS NULL`;

/** Fires the rules whose condition became true, and arms again those whose condition is false. */
export async function evaluateAlerts(db: PrismaClient, now = new Date()): Promise<{ fired: number; rearmed: number }> {
  const day = isoDay(now);
  const month = isoDay(utcMonthStart(now));
  return db.$transaction(async (tx) => {
    const fired = await tx.$queryRawUnsafe<Fired[]>(
      `WITH state AS (${STATE})
       UPDATE alert_rules r SET fired_at = $3::timestamptz, fire_count = r.fire_count + 1
         FROM state s WHERE r.id = s.id AND r.fired_at IS NULL AND s.hit
       RETURNING r.id, s.org_id, s.kind, s.threshold_nanos::text AS threshold, s.value::text AS value, s.key_name, s.key_hint`,
      day,
      month,
      now.toISOString(),
    );
    const rearmed = await tx.$executeRawUnsafe(
      `WITH state AS (${STATE})
       UPDATE alert_rules r SET fired_at = NULL FROM state s WHERE r.id = s.id AND r.fired_at IS NOT NULL AND NOT s.hit`,
      day,
      month,
    );
    for (const rule of fired) {
      const threshold = formatDollars(BigInt(rule.threshold));
      const value = formatDollars(BigInt(rule.value));
      await emitOrgEvent(tx, {
        orgId: rule.org_id,
        type: EVENT_OF[rule.kind],
        now,
        data: {
          alert_id: rule.id,
          scope: rule.key_hint ? "key" : "organization",
          ...(rule.key_hint ? { key: { name: rule.key_name, hint: rule.key_hint } } : {}),
          threshold_dollars: threshold,
          ...(rule.kind === "balance_below"
            ? { balance_dollars: value }
            : { period: rule.kind === "spend_day_above" ? "day" : "month", spent_dollars: value }),
        },
      });
    }
    return { fired: fired.length, rearmed };
  });
}
