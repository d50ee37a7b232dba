import type { PrismaClient } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

type Writer = Pick<PrismaClient, "auditLog">;

export interface AuditEntry {
  action: string;
  orgId?: string | null;
  actorUserId?: string | null;
  /** Who acted when there is no user: "cli", "stripe", "system". */
  actorLabel?: string | null;
  targetType?: string | null;
  targetId?: string | null;
  ip?: string | null;
  details?: Prisma.InputJsonObject;
}

export async function recordAudit(db: Writer, entry: AuditEntry): Promise<void> {
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
