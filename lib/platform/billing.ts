import { z } from "zod";
import { getApiContext } from "@/lib/api/context";
import { ENDPOINT_LIST } from "@/lib/catalog";
import type { PrismaClient } from "@/lib/db";
import { recordAudit } from "@/lib/audit";
import { balanceRunway, billingHistory } from "@/lib/billing/history";
import { parseDollars, readTypedDollars } from "@/lib/money";
import type Stripe from "stripe";
import { parseTopUpAmount, startTopUp, topUpStatus } from "@/lib/billing/checkout";
import type { Principal } from "@/lib/auth/session";
import { DomainError } from "@/lib/errors";
import { parseSpendCap, setOrgSpendCaps } from "@/lib/billing/spend";
import { isCalendarDate, isoDay } from "@/lib/utils/dates";
import { auditActor, requireAccess } from "./access";

/** Billing as the dashboard sees it: owners and admins; the threshold is the owners'. */

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Dates are YYYY-MM-DD.").refine(isCalendarDate, "Not a calendar date.");

export const historyRangeSchema = z
  .object({ from: day.optional(), to: day.optional() })
  .transform(({ from, to }) => ({ from: from ?? "2000-01-01", to: to ?? isoDay(new Date()) }))
  .refine(({ from, to }) => from <= to, { message: "The start date is after the end date.", path: ["from"] });

export async function billingOverview(db: PrismaClient, principal: Principal | null, orgId: string, range: unknown) {
  const { org } = await requireAccess(db, principal, orgId, "billing:manage");
  const parsedRange = historyRangeSchema.parse(range);
  const [history, runway] = await Promise.all([billingHistory(db, orgId, parsedRange), balanceRunway(db, orgId)]);
  return { org, history, runway, range: parsedRange };
}

export const MAX_THRESHOLD_NANOS = parseDollars("100000");

export const thresholdSchema = z
  .string()
  .trim()
  .transform((value, ctx) => {
    if (value === "") return null; // no alert
    const read = readTypedDollars(value, { min: 0n, max: MAX_THRESHOLD_NANOS });
    if (read.ok) return read.nanos;
    ctx.addIssue({ code: "custom", message: "Enter an amount in dollars between $0 and $100,000, e.g. 25 or 12.50; leave it empty for no alert." });
    return z.NEVER;
  });

export async function setLowBalanceThreshold(db: PrismaClient, principal: Principal | null, orgId: string, input: unknown) {
  const access = await requireAccess(db, principal, orgId, "billing:threshold");
  const thresholdNanos = thresholdSchema.parse(input);
  return db.$transaction(async (tx) => {
    const org = await tx.organization.update({ where: { id: orgId }, data: { lowBalanceThresholdNanos: thresholdNanos } });
    await recordAudit(tx, {
      action: "billing.threshold_set",
      orgId,
      ...auditActor(access),
      targetType: "organization",
      targetId: orgId,
      details: { thresholdNanos: thresholdNanos?.toString() ?? null },
    });
    return org;
  });
}

/** A top-up of this organization, for the success page; null for another organization's session. */
export async function topUpStatusFor(db: PrismaClient, principal: Principal | null, orgId: string, sessionId: string) {
  const { org } = await requireAccess(db, principal, orgId, "billing:manage");
  const status = await topUpStatus(db, orgId, sessionId);
  return status ? { ...status, balanceNanos: (await db.organization.findUniqueOrThrow({ where: { id: org.id }, select: { balanceNanos: true } })).balanceNanos } : null;
}

/** Opens a Checkout Session for `amount` (what the user typed: "20", "$1,000.50"), for owners and admins. */
export async function startOrgTopUp(
  db: PrismaClient,
  stripe: () => Stripe,
  principal: Principal | null,
  orgId: string,
  input: { amount: unknown; origin: string; requestKey?: string },
) {
  const { principal: payer } = await requireAccess(db, principal, orgId, "billing:manage");
  const parsed = parseTopUpAmount(input.amount);
  if (!parsed.ok) throw new DomainError("invalid_amount", parsed.error);
  return startTopUp(db, stripe(), {
    orgId,
    userId: payer.userId,
    amountCents: parsed.cents,
    origin: input.origin,
    requestKey: input.requestKey,
    ip: payer.ip ?? null,
  });
}

/** Every endpoint of the catalog with the price per GB in force now, for the billing page. */
export async function priceList(now = new Date()) {
  const { prices } = await getApiContext();
  return Promise.all(ENDPOINT_LIST.map(async (endpoint) => ({ name: endpoint.name, title: endpoint.title, pricePerGbNanos: await prices.pricePerGbNanos(endpoint.name, now.getTime()) })));
}

export const spendCapsInput = z.object({ dailyCap: z.string().max(40), monthlyCap: z.string().max(40) });

/** The organization's daily and monthly spend caps (owners and admins); empty: no cap. */
export async function setOrgSpendCapsFromForm(db: PrismaClient, principal: Principal | null, orgId: string, input: unknown) {
  const access = await requireAccess(db, principal, orgId, "billing:manage");
  const { dailyCap, monthlyCap } = spendCapsInput.parse(input);
  const caps = { dailyCapNanos: parseSpendCap(dailyCap, "Daily cap"), monthlyCapNanos: parseSpendCap(monthlyCap, "Monthly cap") };
  return setOrgSpendCaps(db, orgId, caps, auditActor(access));
}
