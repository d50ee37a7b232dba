import type Stripe from "stripe";
import type { Principal } from "@/lib/auth/session";
import {
  autoRechargeSettingsSchema,
  autoRechargeView,
  enableAutoRecharge,
  removeSavedCard,
  startCardSetup,
  turnOffAutoRecharge,
} from "@/lib/billing/auto-recharge";
import type { PrismaClient } from "@/lib/db";
import { auditActor, can, requireAccess } from "./access";

/** Auto-recharge on the billing page: owners and admins see it; only owners change it or the saved card. */

export async function autoRechargeOverview(db: PrismaClient, principal: Principal | null, orgId: string, now = new Date()) {
  const { role } = await requireAccess(db, principal, orgId, "billing:manage");
  return { ...(await autoRechargeView(db, orgId, now)), canManage: can(role, "billing:auto_recharge") };
}

/** Opens Stripe Checkout in setup mode to save (or replace) the card. */
export async function startOrgCardSetup(
  db: PrismaClient,
  stripe: () => Stripe,
  principal: Principal | null,
  orgId: string,
  input: { origin: string; requestKey?: string },
) {
  const { principal: owner } = await requireAccess(db, principal, orgId, "billing:auto_recharge");
  return startCardSetup(db, stripe(), { orgId, userId: owner.userId, origin: input.origin, requestKey: input.requestKey });
}

/** Turns auto-recharge on, or changes it: { threshold, amount, maxPerDay } as the form sends them. */
export async function setOrgAutoRecharge(db: PrismaClient, principal: Principal | null, orgId: string, input: unknown) {
  const access = await requireAccess(db, principal, orgId, "billing:auto_recharge");
  const settings = autoRechargeSettingsSchema.parse(input);
  await enableAutoRecharge(db, orgId, settings, auditActor(access));
  return settings;
}

export async function turnOffOrgAutoRecharge(db: PrismaClient, principal: Principal | null, orgId: string) {
  const access = await requireAccess(db, principal, orgId, "billing:auto_recharge");
  return turnOffAutoRecharge(db, orgId, auditActor(access));
}

export async function removeOrgCard(db: PrismaClient, stripe: () => Stripe, principal: Principal | null, orgId: string) {
  const access = await requireAccess(db, principal, orgId, "billing:auto_recharge");
  await removeSavedCard(db, stripe(), orgId, auditActor(access));
}
