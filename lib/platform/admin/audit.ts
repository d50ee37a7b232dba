import { z } from "zod";
import { AUDIT_ACTIONS } from "@/lib/audit";
import type { Principal } from "@/lib/auth/session";
import type { DbClient, Prisma } from "@/lib/db";
import { addDays, parseIsoDay } from "@/lib/utils/dates";
import { isUuid } from "@/lib/utils/uuid";
import { PLATFORM_ACTOR_LABEL, requirePlatformAdmin } from "./access";

/**
 * The platform's whole audit log, newest first, for administrators: every
 * organization's entries, the users' own (sign-ins, locks) and the
 * console's (plans, prices, administrators). Filters come from the page's
 * query string, so anything unreadable in one is ignored and said so, never
 * an error page.
 */

export const PLATFORM_AUDIT_PAGE_SIZE = 50;

/** The actions by their prefix ("key", "member", "org", …), in the order AUDIT_ACTIONS lists them, for a grouped select. */
export const AUDIT_ACTION_GROUPS: { prefix: string; actions: string[] }[] = (() => {
  const groups = new Map<string, string[]>();
  for (const action of AUDIT_ACTIONS) {
    const prefix = action.slice(0, action.indexOf("."));
    groups.set(prefix, [...(groups.get(prefix) ?? []), action]);
  }
  return [...groups].map(([prefix, actions]) => ({ prefix, actions }));
})();

const ACTIONS: readonly string[] = AUDIT_ACTIONS;
const PREFIXES = new Set(AUDIT_ACTION_GROUPS.map((group) => group.prefix));

/** An exact action, or "<prefix>.*" for every action of a group. */
const isActionFilter = (value: string) => ACTIONS.includes(value) || (value.endsWith(".*") && PREFIXES.has(value.slice(0, -2)));

const text = (max: number) => z.string().trim().max(max).catch("");

const filterInput = z.object({
  before: text(20),
  org: text(200),
  actor: text(254),
  action: text(64),
  from: text(10),
  to: text(10),
});

export interface PlatformAuditFilters {
  /** An organization's id, or part of its name. */
  org: string;
  /** Part of the actor's email, or a label ("cli", "stripe", "system", "platform administrator"). */
  actor: string;
  /** An action of AUDIT_ACTIONS, or "<prefix>.*". */
  action: string;
  /** UTC days, both included. */
  from: string;
  to: string;
}

/** The filters the page's query string asks for, each one either usable or dropped with a note saying why. */
export function readAuditFilters(input: unknown) {
  const raw = filterInput.parse(typeof input === "object" && input !== null ? pickStrings(input as Record<string, unknown>) : {});
  const notes: string[] = [];
  const before = /^[1-9]\d{0,18}$/.test(raw.before) ? BigInt(raw.before) : undefined;
  const action = raw.action && !isActionFilter(raw.action) ? (notes.push(`“${raw.action}” is not an action; showing every action.`), "") : raw.action;
  const fromDay = raw.from ? parseIsoDay(raw.from) : null;
  const toDay = raw.to ? parseIsoDay(raw.to) : null;
  if (raw.from && !fromDay) notes.push(`“${raw.from}” is not a day (YYYY-MM-DD); the range has no start.`);
  if (raw.to && !toDay) notes.push(`“${raw.to}” is not a day (YYYY-MM-DD); the range has no end.`);
  if (fromDay && toDay && fromDay > toDay) notes.push("The range ends before it starts, so nothing is in it.");
  const filters: PlatformAuditFilters = { org: raw.org, actor: raw.actor, action, from: fromDay ? raw.from : "", to: toDay ? raw.to : "" };
  return { filters, before, fromDay, toDay, notes };
}

/** A query string's values are strings, or arrays of them when a name repeats: the first one counts. */
function pickStrings(input: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(input)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === "string") out[name] = first;
  }
  return out;
}

export async function listPlatformAudit(db: DbClient, principal: Principal | null, input: unknown) {
  await requirePlatformAdmin(db, principal);
  const { filters, before, fromDay, toDay, notes } = readAuditFilters(input);
  const conditions: Prisma.AuditLogWhereInput[] = [];

  if (filters.org) {
    conditions.push(isUuid(filters.org) ? { orgId: filters.org } : { organization: { name: { contains: filters.org, mode: "insensitive" } } });
  }
  if (filters.actor) {
    const actors = await db.user.findMany({ where: { email: { contains: filters.actor.toLowerCase() } }, select: { id: true }, take: 1000 });
    conditions.push({
      OR: [{ actorUserId: { in: actors.map((a) => a.id) } }, { actorLabel: { equals: filters.actor, mode: "insensitive" } }],
    });
  }
  if (filters.action) {
    conditions.push(filters.action.endsWith(".*") ? { action: { startsWith: filters.action.slice(0, -1) } } : { action: filters.action });
  }
  if (fromDay) conditions.push({ createdAt: { gte: fromDay } });
  if (toDay) conditions.push({ createdAt: { lt: addDays(toDay, 1) } });
  if (before) conditions.push({ id: { lt: before } });

  const rows = await db.auditLog.findMany({
    where: { AND: conditions },
    orderBy: { id: "desc" },
    take: PLATFORM_AUDIT_PAGE_SIZE + 1,
    include: { organization: { select: { id: true, name: true } } },
  });
  const page = rows.slice(0, PLATFORM_AUDIT_PAGE_SIZE);
  const actorIds = [...new Set(page.map((e) => e.actorUserId).filter((id): id is string => id !== null))];
  const actors = actorIds.length ? await db.user.findMany({ where: { id: { in: actorIds } }, select: { id: true, email: true } }) : [];
  const emailOf = new Map(actors.map((a) => [a.id, a.email]));

  return {
    filters,
    notes,
    before: before?.toString() ?? null,
    entries: page.map((e) => ({
      id: e.id.toString(),
      createdAt: e.createdAt,
      action: e.action,
      /** The acting user's email (administrators included); null when no user acted. */
      actorEmail: e.actorUserId ? (emailOf.get(e.actorUserId) ?? "deleted user") : null,
      actorLabel: e.actorLabel,
      /** Done from the console: customers see "Platform administrator" for it. */
      byPlatformAdmin: e.actorLabel === PLATFORM_ACTOR_LABEL,
      org: e.organization,
      ip: e.ip,
      targetType: e.targetType,
      targetId: e.targetId,
      details: e.details as Record<string, unknown>,
    })),
    nextBefore: rows.length > PLATFORM_AUDIT_PAGE_SIZE ? page.at(-1)!.id.toString() : null,
  };
}

export type PlatformAuditEntry = Awaited<ReturnType<typeof listPlatformAudit>>["entries"][number];
