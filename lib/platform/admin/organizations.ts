import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import type { Principal } from "@/lib/auth/session";
import { adjustCredit } from "@/lib/billing/adjustments";
import type { DbClient, PrismaClient } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { notifyAccessChanged } from "@/lib/keys/invalidation";
import { deleteKey, setKeyStatusByPlatform, setPlatformRestriction } from "@/lib/keys/manage";
import { typedDollarsSchema } from "@/lib/money";
import { isUuid } from "@/lib/utils/uuid";
import { endpointListSchema } from "../keys";
import { setOrganizationPlan } from "../organizations";
import { answerPlanRequest } from "../plans";
import { adminActor, requirePlatformAdmin } from "./access";

/**
 * The console's organizations: find one, see everything about it, and act on
 * it (plan, credit, keys, suspension). Each action goes through the same
 * domain function the customer's or the CLI's does, with the administrator
 * as the audit actor.
 */

const SEARCH_LIMIT = 50;

/** By name (contains), id, member email (contains) or key hint (prefix); empty = the newest. */
export async function searchOrganizations(db: DbClient, principal: Principal | null, rawQuery: unknown) {
  await requirePlatformAdmin(db, principal);
  const q = typeof rawQuery === "string" ? rawQuery.trim().slice(0, 200) : "";
  const byId: boolean = isUuid(q as unknown);
  const where = !q
    ? {}
    : byId
      ? { id: q }
      : {
          OR: [
            { name: { contains: q, mode: "insensitive" as const } },
            { memberships: { some: { user: { email: { contains: q.toLowerCase() } } } } },
            { apiKeys: { some: { hint: { startsWith: q.replace(/…$/, "") } } } },
          ],
        };
  const orgs = await db.organization.findMany({
    where,
    orderBy: { createdAt: "desc" },
    take: SEARCH_LIMIT + 1,
    select: {
      id: true,
      name: true,
      balanceNanos: true,
      createdAt: true,
      closedAt: true,
      suspendedAt: true,
      plan: { select: { name: true } },
      _count: { select: { memberships: true, apiKeys: { where: { deletedAt: null } } } },
    },
  });
  return { query: q, organizations: orgs.slice(0, SEARCH_LIMIT), more: orgs.length > SEARCH_LIMIT };
}

const LEDGER_ROWS = 100;
const USAGE_ROWS = 50;
const AUDIT_ROWS = 50;

/** Everything about one organization; null when there is none with this id. */
export async function organizationDetail(db: DbClient, principal: Principal | null, orgId: unknown) {
  await requirePlatformAdmin(db, principal);
  if (!isUuid(orgId)) return null;
  const org = await db.organization.findUnique({ where: { id: orgId }, include: { plan: true } });
  if (!org) return null;
  const [ledger, keys, members, usage, audit, requests, plans] = await Promise.all([
    db.creditLedgerEntry.findMany({ where: { orgId }, orderBy: { id: "desc" }, take: LEDGER_ROWS }),
    db.apiKey.findMany({ where: { orgId }, orderBy: [{ deletedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }] }),
    db.membership.findMany({ where: { orgId }, orderBy: { createdAt: "asc" }, include: { user: { select: { id: true, email: true, name: true, lockedAt: true } } } }),
    db.usageEvent.findMany({ where: { orgId }, orderBy: { id: "desc" }, take: USAGE_ROWS, include: { apiKey: { select: { hint: true } } } }),
    db.auditLog.findMany({ where: { orgId }, orderBy: { id: "desc" }, take: AUDIT_ROWS }),
    db.planChangeRequest.findMany({
      where: { orgId },
      orderBy: { createdAt: "desc" },
      take: 10,
      include: { plan: { select: { slug: true, name: true } }, requestedBy: { select: { email: true } } },
    }),
    db.plan.findMany({ orderBy: [{ isTrial: "desc" }, { requestsPerMinute: "asc" }], select: { slug: true, name: true } }),
  ]);
  const actorIds = [...new Set(audit.map((e) => e.actorUserId).filter((id): id is string => id !== null))];
  const actors = await db.user.findMany({ where: { id: { in: actorIds } }, select: { id: true, email: true } });
  const emailOf = new Map(actors.map((a) => [a.id, a.email]));
  return {
    org,
    ledger,
    ledgerTruncated: ledger.length === LEDGER_ROWS,
    keys,
    members,
    usage,
    audit: audit.map((e) => ({ ...e, actorEmail: e.actorUserId ? (emailOf.get(e.actorUserId) ?? "deleted user") : null })),
    requests,
    plans,
  };
}

export type OrganizationDetail = NonNullable<Awaited<ReturnType<typeof organizationDetail>>>;

async function requireOrganization(db: DbClient, orgId: unknown) {
  const org = isUuid(orgId) ? await db.organization.findUnique({ where: { id: orgId } }) : null;
  if (!org) throw new DomainError("unknown_organization", "No such organization.");
  return org;
}

export async function changePlanAsAdmin(db: PrismaClient, principal: Principal | null, orgId: unknown, plan: unknown) {
  const admin = await requirePlatformAdmin(db, principal);
  const org = await requireOrganization(db, orgId);
  const slug = z.string({ error: "Choose a plan." }).min(1, "Choose a plan.").max(64).parse(plan);
  return setOrganizationPlan(db, org.id, slug, adminActor(admin));
}

const answerInput = z.object({
  decision: z.enum(["approve", "decline"], { error: "Approve or decline." }),
  message: z.string({ error: "Write the answer the customer will see." }).trim().min(1, "Write the answer the customer will see.").max(1000, "Keep the answer under 1,000 characters."),
});

export async function answerPlanRequestAsAdmin(db: PrismaClient, principal: Principal | null, requestId: unknown, input: unknown) {
  const admin = await requirePlatformAdmin(db, principal);
  const { decision, message } = answerInput.parse(input);
  if (!isUuid(requestId)) throw new DomainError("unknown_request", "That request has been answered or withdrawn already.");
  return answerPlanRequest(db, requestId, { approve: decision === "approve", answer: message }, adminActor(admin));
}

/** The amount added or removed: more than $0, at most $1,000,000,000 (MAX_TYPED_NANOS). */
const dollarsInput = typedDollarsSchema({ label: "Amount", min: 0n }).refine((nanos) => nanos > 0n, "Enter an amount above zero; choose “Remove” to take credit away.");

export const adjustmentInput = z
  .object({
    direction: z.enum(["add", "remove"], { error: "Add or remove?" }),
    amount: dollarsInput,
    reason: z.string({ error: "Say why." }).trim().min(3, "Say why, in a few words: it is kept in the ledger and the audit log.").max(500),
    allowNegative: z.union([z.literal("on"), z.boolean()]).optional().transform((v) => v === "on" || v === true),
    negativeReason: z.string().trim().max(500).optional(),
    token: z.uuid({ error: "Reload the page and try again." }),
  })
  .superRefine((input, ctx) => {
    if (input.allowNegative && (input.negativeReason ?? "").length < 3) {
      ctx.addIssue({ code: "custom", path: ["negativeReason"], message: "Say why the balance may go below zero." });
    }
  });

/** Add or remove credit; `token` (one per form) makes a double submit adjust once. */
export async function adjustCreditAsAdmin(db: PrismaClient, principal: Principal | null, orgId: unknown, input: unknown) {
  const admin = await requirePlatformAdmin(db, principal);
  const org = await requireOrganization(db, orgId);
  const parsed = adjustmentInput.parse(input);
  return adjustCredit(
    db,
    {
      orgId: org.id,
      amountNanos: parsed.direction === "add" ? parsed.amount : -parsed.amount,
      reason: parsed.reason,
      negativeReason: parsed.allowNegative && parsed.direction === "remove" ? parsed.negativeReason : null,
      idempotencyKey: parsed.token,
    },
    adminActor(admin),
  );
}

const reasonInput = z.string({ error: "Give a reason." }).trim().min(3, "Give a reason the customer will read.").max(500, "Keep the reason under 500 characters.");

/** Suspends (every keyed request answered 403 organization_suspended, at no charge) or lifts it. */
export async function setSuspension(db: PrismaClient, principal: Principal | null, orgId: unknown, input: { suspend: boolean; reason?: unknown }) {
  const admin = await requirePlatformAdmin(db, principal);
  const org = await requireOrganization(db, orgId);
  const reason = input.suspend ? reasonInput.parse(input.reason) : null;
  if (input.suspend && org.closedAt) throw new DomainError("organization_closed", "This organization is closed; there is nothing to suspend.");
  await db.$transaction(async (tx) => {
    const changed = await tx.organization.updateMany({
      where: { id: org.id, suspendedAt: input.suspend ? null : { not: null } },
      data: input.suspend ? { suspendedAt: new Date(), suspendedReason: reason } : { suspendedAt: null, suspendedReason: null },
    });
    if (changed.count === 0) {
      throw new DomainError("organization_suspended", input.suspend ? "The organization is suspended already." : "The organization is not suspended.");
    }
    await recordAudit(tx, {
      action: input.suspend ? "org.suspended" : "org.unsuspended",
      orgId: org.id,
      ...adminActor(admin),
      targetType: "organization",
      targetId: org.id,
      details: input.suspend
        ? { reason, before: { suspended: false }, after: { suspended: true } }
        : { previous_reason: org.suspendedReason, before: { suspended: true }, after: { suspended: false } },
    });
  });
  notifyAccessChanged();
}

/** A live key of any organization, for the console's key actions. */
async function requireKey(db: DbClient, keyId: unknown) {
  const key = isUuid(keyId) ? await db.apiKey.findFirst({ where: { id: keyId, deletedAt: null } }) : null;
  if (!key) throw new DomainError("unknown_key", "That key does not exist or has been deleted.");
  return key;
}

export async function disableKeyAsAdmin(db: PrismaClient, principal: Principal | null, keyId: unknown, reason: unknown) {
  const admin = await requirePlatformAdmin(db, principal);
  const key = await requireKey(db, keyId);
  return setKeyStatusByPlatform(db, key.id, { status: "DISABLED", reason: reasonInput.parse(reason) }, adminActor(admin));
}

export async function enableKeyAsAdmin(db: PrismaClient, principal: Principal | null, keyId: unknown) {
  const admin = await requirePlatformAdmin(db, principal);
  const key = await requireKey(db, keyId);
  return setKeyStatusByPlatform(db, key.id, { status: "ACTIVE" }, adminActor(admin));
}

export async function deleteKeyAsAdmin(db: PrismaClient, principal: Principal | null, keyId: unknown) {
  const admin = await requirePlatformAdmin(db, principal);
  const key = await requireKey(db, keyId);
  return deleteKey(db, key.id, adminActor(admin));
}

/** Endpoints and a reason: the key may call at most those, whatever the customer chooses. None: the restriction is lifted. */
const platformRestrictionInput = z
  .object({ endpoints: endpointListSchema, reason: z.string().optional() })
  .transform(({ endpoints, reason }, ctx) => {
    if (endpoints.length === 0) return { endpoints, reason: null };
    const checked = reasonInput.safeParse(reason ?? "");
    if (checked.success) return { endpoints, reason: checked.data };
    ctx.addIssue({ code: "custom", path: ["reason"], message: checked.error.issues[0]!.message });
    return z.NEVER;
  });

export async function restrictKeyAsAdmin(db: PrismaClient, principal: Principal | null, keyId: unknown, input: unknown) {
  const admin = await requirePlatformAdmin(db, principal);
  const key = await requireKey(db, keyId);
  return setPlatformRestriction(db, key.id, platformRestrictionInput.parse(input), adminActor(admin));
}
