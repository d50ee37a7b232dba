import { z } from "zod";
import { recordAudit, type AuditActor } from "@/lib/audit";
import type { Principal } from "@/lib/auth/session";
import type { DbClient, PrismaClient } from "@/lib/db";
import { DomainError } from "@/lib/errors";
import { notifyAccessChanged } from "@/lib/keys/invalidation";
import { isUuid } from "@/lib/utils/uuid";
import { auditActor, requireAccess } from "./access";

/** The plans a customer can compare, and their requests to move to another one (platform administrators answer). */

export function listPlans(db: DbClient) {
  return db.plan.findMany({ orderBy: [{ isTrial: "desc" }, { requestsPerMinute: "asc" }] });
}

export const planRequestInput = z.object({
  plan: z.string({ error: "Choose a plan." }).min(1, "Choose a plan.").max(64),
  message: z.string().trim().max(1000, "Keep the message under 1,000 characters.").optional().transform((v) => v || null),
});

/** The organization's requests, newest first, for the settings page. */
export async function listPlanRequests(db: DbClient, principal: Principal | null, orgId: string) {
  await requireAccess(db, principal, orgId, "org:view");
  return db.planChangeRequest.findMany({
    where: { orgId },
    orderBy: { createdAt: "desc" },
    take: 10,
    select: { id: true, status: true, message: true, answer: true, answeredAt: true, createdAt: true, plan: { select: { slug: true, name: true } } },
  });
}

/** Asks for another plan; one open request at a time. */
export async function requestPlanChange(db: PrismaClient, principal: Principal | null, orgId: string, input: unknown) {
  const access = await requireAccess(db, principal, orgId, "plan:request");
  const { plan: slug, message } = planRequestInput.parse(input);
  const plan = await db.plan.findUnique({ where: { slug } });
  if (!plan) throw new DomainError("unknown_plan", "Choose one of the plans listed.");
  if (plan.id === access.org.planId) throw new DomainError("same_plan", `${access.org.name} is on the ${plan.name} plan already.`);
  return db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM organizations WHERE id = ${orgId}::uuid FOR UPDATE`; // one open request per organization
    if (await tx.planChangeRequest.count({ where: { orgId, status: "OPEN" } })) {
      throw new DomainError("request_open", "A request is already waiting for an answer. Withdraw it to ask for another plan.");
    }
    const request = await tx.planChangeRequest.create({ data: { orgId, planId: plan.id, requestedById: access.principal.userId, message } });
    await recordAudit(tx, { action: "org.plan_requested", orgId, ...auditActor(access), targetType: "plan_change_request", targetId: request.id, details: { plan: plan.slug, message } });
    return request;
  });
}

export async function withdrawPlanRequest(db: PrismaClient, principal: Principal | null, orgId: string, requestId: unknown) {
  const access = await requireAccess(db, principal, orgId, "plan:request");
  const request = isUuid(requestId)
    ? await db.planChangeRequest.findFirst({ where: { id: requestId, orgId, status: "OPEN" }, include: { plan: { select: { slug: true } } } })
    : null;
  if (!request) throw new DomainError("unknown_request", "That request has been answered or withdrawn already.");
  await db.$transaction(async (tx) => {
    const taken = await tx.planChangeRequest.updateMany({ where: { id: request.id, status: "OPEN" }, data: { status: "WITHDRAWN" } });
    if (taken.count !== 1) throw new DomainError("unknown_request", "That request has been answered or withdrawn already.");
    await recordAudit(tx, { action: "org.plan_request_withdrawn", orgId, ...auditActor(access), targetType: "plan_change_request", targetId: request.id, details: { plan: request.plan.slug } });
  });
}

/** Open requests, oldest first, for the people who answer them (the CLI now, the admin console later). */
export function openPlanRequests(db: DbClient) {
  return db.planChangeRequest.findMany({
    where: { status: "OPEN" },
    orderBy: { createdAt: "asc" },
    include: { plan: { select: { slug: true, name: true } }, organization: { select: { id: true, name: true, plan: { select: { slug: true } } } }, requestedBy: { select: { email: true } } },
  });
}

/**
 * A platform operator's answer, which the customer sees on their settings
 * page: approving moves the organization to the plan asked for.
 */
export async function answerPlanRequest(db: PrismaClient, requestId: string, input: { approve: boolean; answer: string }, actor: AuditActor) {
  const request = isUuid(requestId) ? await db.planChangeRequest.findFirst({ where: { id: requestId, status: "OPEN" }, include: { plan: true } }) : null;
  if (!request) throw new DomainError("unknown_request", `No open request with id ${requestId}.`);
  const answered = await db.$transaction(async (tx) => {
    const taken = await tx.planChangeRequest.updateMany({
      where: { id: request.id, status: "OPEN" },
      data: { status: input.approve ? "APPROVED" : "DECLINED", answer: input.answer, answeredAt: new Date(), answeredById: actor.actorUserId ?? null },
    });
    if (taken.count !== 1) throw new DomainError("unknown_request", "That request was answered or withdrawn meanwhile.");
    if (input.approve) await tx.organization.update({ where: { id: request.orgId }, data: { planId: request.planId } });
    await recordAudit(tx, {
      action: "org.plan_request_answered",
      orgId: request.orgId,
      ...actor,
      targetType: "plan_change_request",
      targetId: request.id,
      details: { plan: request.plan.slug, approved: input.approve, answer: input.answer },
    });
    return { orgId: request.orgId, plan: request.plan.slug, approved: input.approve };
  });
  if (input.approve) notifyAccessChanged();
  return answered;
}
