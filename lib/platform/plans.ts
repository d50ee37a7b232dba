import { z } from "zod";
import { getApiContext } from "@/lib/api/context";
import { ENDPOINT_LIST, type EndpointName } from "@/lib/catalog";
import { formatMoney } from "@/lib/money";
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

export interface PlanOffer {
  id: string;
  slug: string;
  name: string;
  isTrial: boolean;
  requestsPerMinute: number;
  dailyTickerLimit: number | null;
  /** The catalog's endpoints the plan includes, with the price per GB in force. */
  endpoints: { name: EndpointName; title: string; pricePerGbNanos: bigint }[];
  /** The catalog's endpoints it leaves out. */
  excluded: { name: EndpointName; title: string }[];
  /** The lowest and highest price per GB of its endpoints; null when it includes none. */
  priceRange: { lowNanos: bigint; highNanos: bigint } | null;
}

/**
 * The plans as a customer compares them, public: what each includes and
 * costs. There is no monthly fee on any plan; a plan's price is the price
 * per GB of the data its endpoints return. The landing page, the settings
 * page's plan cards and the billing page read it.
 */
export async function planOffers(now = new Date()): Promise<PlanOffer[]> {
  const { prisma, prices } = await getApiContext();
  const [plans, priced] = await Promise.all([
    listPlans(prisma),
    Promise.all(ENDPOINT_LIST.map(async (e) => ({ name: e.name, title: e.title, pricePerGbNanos: await prices.pricePerGbNanos(e.name, now.getTime()) }))),
  ]);
  return plans.map((plan) => {
    const endpoints = priced.filter((e) => plan.allowedEndpoints.includes(e.name));
    const amounts = endpoints.map((e) => e.pricePerGbNanos);
    return {
      id: plan.id,
      slug: plan.slug,
      name: plan.name,
      isTrial: plan.isTrial,
      requestsPerMinute: plan.requestsPerMinute,
      dailyTickerLimit: plan.dailyTickerLimit,
      endpoints,
      excluded: priced.filter((e) => !plan.allowedEndpoints.includes(e.name)).map(({ name, title }) => ({ name, title })),
      priceRange: amounts.length ? { lowNanos: amounts.reduce((a, b) => (b < a ? b : a)), highNanos: amounts.reduce((a, b) => (b > a ? b : a)) } : null,
    };
  });
}

/** "No monthly fee; $8.00 per GB returned", or "…; $8.00 to $25.00 per GB returned, by endpoint". */
export function planPriceText(offer: Pick<PlanOffer, "priceRange">): string {
  if (!offer.priceRange) return "No monthly fee; no data endpoints";
  const { lowNanos, highNanos } = offer.priceRange;
  return lowNanos === highNanos
    ? `No monthly fee; ${formatMoney(lowNanos, "price")} per GB returned`
    : `No monthly fee; ${formatMoney(lowNanos, "price")} to ${formatMoney(highNanos, "price")} per GB returned, by endpoint`;
}
