import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import type { Principal } from "@/lib/auth/session";
import { PLAN_SLUGS } from "@/lib/billing/plans";
import { ENDPOINT_LIST, ENDPOINT_NAMES, ENDPOINTS, type EndpointName } from "@/lib/catalog";
import type { DbClient, PrismaClient } from "@/lib/db";
import { DomainError, isUniqueViolation } from "@/lib/errors";
import { notifyAccessChanged } from "@/lib/keys/invalidation";
import { formatDollars, NANOS_PER_DOLLAR, typedDollarsSchema } from "@/lib/money";
import { parseIsoDay } from "@/lib/utils/dates";
import { isUuid } from "@/lib/utils/uuid";
import { adminActor, requirePlatformAdmin } from "./access";

/**
 * The console's plans and prices. Plans: what an organization may call and
 * how fast. Prices: per endpoint, an append-only schedule (`price_changes`)
 * read by the API's PriceBook — the price of a request is the one in force
 * when it was received, so a change is only ever scheduled for now or later,
 * and no row is ever updated or deleted. Every change is audited with its
 * before and after values, and this process's caches are dropped after it.
 */

// ───────────────────────────── plans ─────────────────────────────

const DEFAULT_SLUGS: readonly string[] = PLAN_SLUGS;
const PLAN_ORDER = [{ isTrial: "desc" as const }, { requestsPerMinute: "asc" as const }, { name: "asc" as const }];

/** Every plan, with how many organizations are on it (closed ones included, as delete counts them) and how many requests name it. */
export async function listPlansForAdmin(db: DbClient, principal: Principal | null) {
  await requirePlatformAdmin(db, principal);
  const [plans, open] = await Promise.all([
    db.plan.findMany({ orderBy: PLAN_ORDER, include: { _count: { select: { organizations: true, requests: true } } } }),
    db.organization.groupBy({ by: ["planId"], where: { closedAt: null }, _count: { _all: true } }),
  ]);
  const openOn = new Map(open.map((row) => [row.planId, row._count._all]));
  return plans.map((plan) => ({
    id: plan.id,
    slug: plan.slug,
    name: plan.name,
    allowedEndpoints: inCatalogOrder(plan.allowedEndpoints),
    requestsPerMinute: plan.requestsPerMinute,
    isTrial: plan.isTrial,
    dailyTickerLimit: plan.dailyTickerLimit,
    organizations: plan._count.organizations,
    openOrganizations: openOn.get(plan.id) ?? 0,
    requests: plan._count.requests,
    isDefault: DEFAULT_SLUGS.includes(plan.slug),
    updatedAt: plan.updatedAt,
  }));
}

export type AdminPlanRow = Awaited<ReturnType<typeof listPlansForAdmin>>[number];

function inCatalogOrder(names: readonly string[]): EndpointName[] {
  return ENDPOINT_NAMES.filter((name) => names.includes(name));
}

/** A number field of a form: "" and absent are "not given", anything else must be a whole number. */
const wholeNumber = (empty: null | undefined) => (value: unknown) => {
  if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) return empty;
  return typeof value === "string" ? Number(value.trim()) : value;
};

const checkbox = z
  .union([z.literal("on"), z.literal("true"), z.literal("false"), z.boolean()])
  .nullish()
  .transform((value) => value === "on" || value === "true" || value === true);

const planFields = z.object({
  name: z.string({ error: "Name the plan." }).trim().min(1, "Name the plan.").max(60, "Keep the name under 60 characters."),
  allowedEndpoints: z
    .array(z.enum(ENDPOINT_NAMES, { error: "Choose endpoints from the list." }), { error: "Choose at least one endpoint." })
    .min(1, "Choose at least one endpoint: a plan without any cannot call the API.")
    .transform(inCatalogOrder),
  requestsPerMinute: z.preprocess(
    wholeNumber(undefined),
    z
      .number({ error: "Enter the requests per minute, a whole number." })
      .int("Use a whole number of requests per minute.")
      .min(1, "Allow at least 1 request per minute.")
      .max(1_000_000, "At most 1,000,000 requests per minute."),
  ),
  isTrial: checkbox,
  dailyTickerLimit: z.preprocess(
    wholeNumber(null),
    z
      .number({ error: "Enter the daily ticker limit as a whole number, or leave it empty for none." })
      .int("Use a whole number of tickers.")
      .min(1, "Allow at least 1 ticker a day, or leave it empty for no limit.")
      .max(1_000_000, "At most 1,000,000 tickers a day.")
      .nullable(),
  ),
});

export const PLAN_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const planSlugSchema = z
  .string({ error: "Choose a slug." })
  .trim()
  .min(1, "Choose a slug.")
  .max(40, "Keep the slug under 40 characters.")
  .regex(PLAN_SLUG_PATTERN, "Use lowercase letters, digits and single hyphens, like “pro-2026”.");

export const createPlanInput = planFields.extend({ slug: planSlugSchema });
export const updatePlanInput = planFields;

type PlanValues = z.infer<typeof planFields>;

/** The values as stored: the daily ticker limit applies to trial plans only, so other plans keep none. */
function stored(values: PlanValues) {
  return {
    name: values.name,
    allowedEndpoints: values.allowedEndpoints,
    requestsPerMinute: values.requestsPerMinute,
    isTrial: values.isTrial,
    dailyTickerLimit: values.isTrial ? values.dailyTickerLimit : null,
  };
}

/** A plan's settings as the audit entry records them (changedFields prints "requests per minute 200 → 500"). */
function snapshot(plan: { name: string; allowedEndpoints: string[]; requestsPerMinute: number; isTrial: boolean; dailyTickerLimit: number | null }) {
  return {
    name: plan.name,
    allowed_endpoints: inCatalogOrder(plan.allowedEndpoints),
    requests_per_minute: plan.requestsPerMinute,
    trial: plan.isTrial,
    daily_ticker_limit: plan.dailyTickerLimit,
  };
}

const slugTaken = (slug: string) => new DomainError("plan_slug_taken", `A plan with the slug “${slug}” exists already. Choose another slug.`);

export async function createPlan(db: PrismaClient, principal: Principal | null, input: unknown) {
  const admin = await requirePlatformAdmin(db, principal);
  const { slug, ...values } = createPlanInput.parse(input);
  const data = stored(values);
  try {
    const plan = await db.$transaction(async (tx) => {
      if (await tx.plan.findUnique({ where: { slug }, select: { id: true } })) throw slugTaken(slug);
      const created = await tx.plan.create({ data: { slug, ...data } });
      await recordAudit(tx, {
        action: "plan.created",
        ...adminActor(admin),
        targetType: "plan",
        targetId: created.id,
        details: { slug, name: created.name, before: {}, after: snapshot(created) },
      });
      return created;
    });
    notifyAccessChanged();
    return { id: plan.id, slug: plan.slug, name: plan.name };
  } catch (error) {
    if (isUniqueViolation(error)) throw slugTaken(slug);
    throw error;
  }
}

async function lockPlan(tx: DbClient, planId: unknown) {
  if (!isUuid(planId)) throw new DomainError("unknown_plan", "No such plan: it may have been deleted. Reload the page.");
  await tx.$queryRaw`SELECT id FROM plans WHERE id = ${planId}::uuid FOR UPDATE`;
  const plan = await tx.plan.findUnique({ where: { id: planId } });
  if (!plan) throw new DomainError("unknown_plan", "No such plan: it may have been deleted. Reload the page.");
  return plan;
}

/** Changes a plan's settings (its slug stays: the CLI and audit entries name the plan by it). Organizations on it get the new settings within a second. */
export async function updatePlan(db: PrismaClient, principal: Principal | null, planId: unknown, input: unknown) {
  const admin = await requirePlatformAdmin(db, principal);
  const data = stored(updatePlanInput.parse(input));
  const result = await db.$transaction(async (tx) => {
    const plan = await lockPlan(tx, planId);
    const before = snapshot(plan);
    const after = snapshot(data);
    if (JSON.stringify(before) === JSON.stringify(after)) return { id: plan.id, slug: plan.slug, name: plan.name, changed: false };
    await tx.plan.update({ where: { id: plan.id }, data });
    await recordAudit(tx, {
      action: "plan.updated",
      ...adminActor(admin),
      targetType: "plan",
      targetId: plan.id,
      details: { slug: plan.slug, name: data.name, before, after },
    });
    return { id: plan.id, slug: plan.slug, name: data.name, changed: true };
  });
  if (result.changed) notifyAccessChanged();
  return result;
}

const isForeignKeyViolation = (error: unknown) => {
  const e = error as { code?: string; message?: string; cause?: { code?: string } } | null;
  return e?.code === "P2003" || e?.code === "23503" || e?.cause?.code === "23503" || /foreign key constraint/i.test(e?.message ?? "");
};

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Deletes a plan that nothing names: no organization (closed ones included)
 * is on it and no plan request, answered or not, asks for it. The default
 * plans are never deleted (new organizations start on Trial, and every start
 * recreates them).
 */
export async function deletePlan(db: PrismaClient, principal: Principal | null, planId: unknown) {
  const admin = await requirePlatformAdmin(db, principal);
  try {
    const deleted = await db.$transaction(async (tx) => {
      const plan = await lockPlan(tx, planId);
      if (DEFAULT_SLUGS.includes(plan.slug)) {
        throw new DomainError("default_plan", `${plan.name} is a default plan: new organizations and the docs rely on it, and it would be recreated at the next start. Edit it instead.`);
      }
      const [organizations, requests] = await Promise.all([
        tx.organization.count({ where: { planId: plan.id } }),
        tx.planChangeRequest.count({ where: { planId: plan.id } }),
      ]);
      if (organizations || requests) throw inUse(plan.name, organizations, requests);
      await tx.plan.delete({ where: { id: plan.id } });
      await recordAudit(tx, {
        action: "plan.deleted",
        ...adminActor(admin),
        targetType: "plan",
        targetId: plan.id,
        details: { slug: plan.slug, name: plan.name, before: snapshot(plan), after: {} },
      });
      return { id: plan.id, slug: plan.slug, name: plan.name };
    });
    notifyAccessChanged();
    return deleted;
  } catch (error) {
    // An organization moved onto the plan after the count: the database's RESTRICT refused the delete.
    if (isForeignKeyViolation(error)) throw new DomainError("plan_in_use", "Something moved onto this plan meanwhile, so it was not deleted. Reload the page.");
    throw error;
  }
}

function inUse(name: string, organizations: number, requests: number) {
  const reasons = [
    organizations ? `${plural(organizations, "organization is", "organizations are")} on it (closed ones count too)` : null,
    requests ? `${plural(requests, "plan request names", "plan requests name")} it and ${requests === 1 ? "is" : "are"} kept as history` : null,
  ].filter(Boolean);
  const advice = organizations && !requests ? " Move them to another plan first." : " A plan that has been requested stays; edit it instead.";
  return new DomainError("plan_in_use", `The ${name} plan cannot be deleted: ${reasons.join(", and ")}.${advice}`);
}

// ───────────────────────────── prices ─────────────────────────────

/**
 * Every catalog endpoint's price schedule at `now`: the catalog default, the
 * price in force (the latest change with effectiveAt ≤ now, else the
 * default, exactly as the API's PriceBook decides), the next scheduled
 * change, and the history (every row, latest moment first, with who set it).
 *
 * It checks NO access: a pure read for pages and functions that have already
 * checked theirs (e.g. after getAdminPage); the console uses
 * `priceScheduleForAdmin`.
 */
export async function priceSchedule(db: DbClient, now = new Date()) {
  const rows = await db.priceChange.findMany({ orderBy: [{ effectiveAt: "desc" }, { id: "desc" }] });
  const creatorIds = [...new Set(rows.map((row) => row.createdById).filter((id): id is string => id !== null))];
  const creators = creatorIds.length ? await db.user.findMany({ where: { id: { in: creatorIds } }, select: { id: true, email: true } }) : [];
  const emailOf = new Map(creators.map((user) => [user.id, user.email]));
  return ENDPOINT_LIST.map((endpoint) => {
    const mine = rows.filter((row) => row.endpoint === endpoint.name);
    const inForce = mine.find((row) => row.effectiveAt.getTime() <= now.getTime()) ?? null;
    const upcoming = mine.filter((row) => row.effectiveAt.getTime() > now.getTime()).reverse();
    return {
      name: endpoint.name,
      title: endpoint.title,
      defaultNanos: endpoint.defaultPricePerGbNanos,
      currentNanos: inForce?.pricePerGbNanos ?? endpoint.defaultPricePerGbNanos,
      /** When the price in force took effect; null while the default applies. */
      currentSince: inForce?.effectiveAt ?? null,
      next: upcoming[0] ? { nanos: upcoming[0].pricePerGbNanos, effectiveAt: upcoming[0].effectiveAt } : null,
      history: mine.map((row) => ({
        id: row.id.toString(),
        nanos: row.pricePerGbNanos,
        effectiveAt: row.effectiveAt,
        createdAt: row.createdAt,
        /** The administrator's email; null for rows from before the console (migrated prices). */
        createdBy: row.createdById ? (emailOf.get(row.createdById) ?? "deleted user") : null,
        state: row === inForce ? ("in_force" as const) : row.effectiveAt.getTime() > now.getTime() ? ("scheduled" as const) : ("past" as const),
      })),
    };
  });
}

export type EndpointPriceSchedule = Awaited<ReturnType<typeof priceSchedule>>[number];

/** `priceSchedule` for the console: the administrator checked first. */
export async function priceScheduleForAdmin(db: DbClient, principal: Principal | null, now = new Date()) {
  await requirePlatformAdmin(db, principal);
  return priceSchedule(db, now);
}

/** A moment in the past by more than this is refused; a moment within it means now. */
export const PAST_TOLERANCE_MS = 60_000;
export const MAX_PRICE_NANOS = 1_000_000n * NANOS_PER_DOLLAR;
const MAX_AHEAD_MS = 5 * 366 * 24 * 3600_000;

/** "2026-03-01T09:30" (a datetime-local value), with optional seconds and Z, read as UTC; null when it is not one. */
export function parseUtcMoment(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?Z?$/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s = "0", ms = "0"] = match;
  const day = parseIsoDay(`${y}-${mo}-${d}`);
  // "02-30" or "24:00" is not a moment (Date would roll it over into the next month or day).
  if (!day || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  return new Date(day.getTime() + ((Number(h) * 60 + Number(mi)) * 60 + Number(s)) * 1000 + Number(ms.padEnd(3, "0")));
}

const priceInput = (now: Date) =>
  z.object({
    endpoint: z.enum(ENDPOINT_NAMES, { error: "Choose an endpoint from the catalog." }),
    /** Dollars per GB, more than $0 and at most MAX_PRICE_NANOS. */
    price: typedDollarsSchema({ label: "Price per GB", max: MAX_PRICE_NANOS }),
    effectiveAt: z
      .string({ error: "Enter the moment as a UTC date and time, or leave it empty for now." })
      .nullish()
      .transform((value, ctx) => {
        const text = (value ?? "").trim();
        if (!text) return now;
        const moment = parseUtcMoment(text);
        if (!moment) {
          ctx.addIssue({ code: "custom", message: "Enter the moment as a UTC date and time, or leave it empty for now." });
          return z.NEVER;
        }
        if (moment.getTime() < now.getTime() - PAST_TOLERANCE_MS) {
          ctx.addIssue({ code: "custom", message: "That moment has passed. Requests are charged at the price in force when they arrive, so a price starts now or later: past charges stay as they were." });
          return z.NEVER;
        }
        if (moment.getTime() > now.getTime() + MAX_AHEAD_MS) {
          ctx.addIssue({ code: "custom", message: "Schedule a change at most five years ahead." });
          return z.NEVER;
        }
        // Within the last minute (a datetime-local has no seconds): now, so nothing already charged is re-priced.
        return moment.getTime() < now.getTime() ? now : moment;
      }),
  });

/**
 * Schedules an endpoint's price per GB from a moment on (now, or later),
 * as a new `price_changes` row; rows are never updated or deleted. A second
 * change at the very same moment is refused (price_moment_taken). Every
 * instance charges the new price from its moment on (PriceBook reads the
 * schedule at most a second old, and this process's at once).
 */
export async function schedulePriceChange(db: PrismaClient, principal: Principal | null, input: unknown, now = new Date()) {
  const admin = await requirePlatformAdmin(db, principal);
  const { endpoint, price, effectiveAt } = priceInput(now).parse(input);
  const title = ENDPOINTS[endpoint].title;
  const taken = () =>
    new DomainError("price_moment_taken", `A price for ${title} is already scheduled at ${effectiveAt.toISOString()}. A scheduled change stays in the history; choose another moment (e.g. a minute later).`);
  try {
    const scheduled = await db.$transaction(async (tx) => {
      // One schedule write at a time (the API's reads are not held up), so "before" is the price this change really follows.
      await tx.$executeRaw`LOCK TABLE price_changes IN SHARE ROW EXCLUSIVE MODE`;
      if (await tx.priceChange.findUnique({ where: { endpoint_effectiveAt: { endpoint, effectiveAt } }, select: { id: true } })) throw taken();
      const [previous, following] = await Promise.all([
        tx.priceChange.findFirst({ where: { endpoint, effectiveAt: { lt: effectiveAt } }, orderBy: { effectiveAt: "desc" } }),
        tx.priceChange.findFirst({ where: { endpoint, effectiveAt: { gt: effectiveAt } }, orderBy: { effectiveAt: "asc" } }),
      ]);
      const before = previous?.pricePerGbNanos ?? ENDPOINTS[endpoint].defaultPricePerGbNanos;
      if (before === price) {
        throw new DomainError("invalid_input", `${title} costs ${formatDollars(price, { grouping: true })} per GB at that moment already. Enter a different price.`);
      }
      const row = await tx.priceChange.create({ data: { endpoint, pricePerGbNanos: price, effectiveAt, createdById: admin.user.id } });
      await recordAudit(tx, {
        action: "price.scheduled",
        ...adminActor(admin),
        targetType: "endpoint",
        targetId: endpoint,
        details: {
          endpoint,
          before_per_gb: formatDollars(before),
          after_per_gb: formatDollars(price),
          effective_at: effectiveAt.toISOString(),
          before: { price_per_gb: formatDollars(before), price_per_gb_nanos: before.toString() },
          after: { price_per_gb: formatDollars(price), price_per_gb_nanos: price.toString() },
        },
      });
      return { id: row.id.toString(), endpoint, beforeNanos: before, afterNanos: price, effectiveAt, until: following?.effectiveAt ?? null };
    });
    notifyAccessChanged();
    return scheduled;
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}
