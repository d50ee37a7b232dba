import type { DbClient } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * The audit log's writer. Every action has a name from this list; the audit
 * page puts each in words (lib/platform/audit-format.ts, typed against it),
 * so a new action cannot be written without being described.
 */
export const AUDIT_ACTIONS = [
  "key.created",
  "key.disabled",
  "key.enabled",
  "key.deleted",
  "key.restricted",
  "key.rolled",
  "key.grace_ended",
  "key.limits_changed",
  "key.expiry_changed",
  "member.invited",
  "member.invitation_revoked",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "member.left",
  "org.created",
  "org.renamed",
  "org.plan_changed",
  "org.plan_requested",
  "org.plan_request_withdrawn",
  "org.plan_request_answered",
  "org.closed",
  "user.signed_in",
  "user.sign_in_failed",
  "user.signed_up",
  "user.created",
  "user.password_changed",
  "user.password_reset_requested",
  "user.password_reset",
  "user.password_set",
  "user.sessions_ended",
  "user.locked",
  "user.unlocked",
  "user.deleted",
  "billing.threshold_set",
  "billing.spend_caps_set",
  "billing.card_saved",
  "billing.card_removed",
  "billing.auto_recharge_set",
  "billing.auto_recharge_off",
  "alert.created",
  "alert.deleted",
  "webhook.created",
  "webhook.deleted",
  "webhook.enabled",
  "webhook.disabled",
  "credits.checkout_started",
  "credits.purchased",
  "credits.payment_failed",
  "credits.payment_unmatched",
  "credits.payment_held",
  "credits.refunded",
  "credits.disputed",
  "credits.dispute_won",
  "credits.dispute_lost",
  "credits.adjusted",
  "credits.auto_recharge_started",
  "credits.auto_recharged",
  "credits.auto_recharge_failed",
  // platform administration
  "org.suspended",
  "org.unsuspended",
  "plan.created",
  "plan.updated",
  "plan.deleted",
  "price.scheduled",
  "user.admin_granted",
  "user.admin_revoked",
  "data.imported",
  "data.import_failed",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who acted: a user (with the address they came from), or a label when no user did ("cli", "stripe", "system"). */
export interface AuditActor {
  actorUserId?: string | null;
  actorLabel?: string | null;
  ip?: string | null;
}

export interface AuditEntry extends AuditActor {
  action: AuditAction;
  orgId?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  details?: Prisma.InputJsonObject;
}

/** Writes one entry; pass the transaction that makes the change, so both commit or neither does. */
export async function recordAudit(db: DbClient, entry: AuditEntry): Promise<void> {
  await db.auditLog.create({
    data: {
      action: entry.action,
      orgId: entry.orgId ?? null,
      actorUserId: entry.actorUserId ?? null,
      actorLabel: entry.actorLabel ?? null,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId ?? null,
      ip: entry.ip ?? null,
      details: entry.details ?? {},
    },
  });
}
