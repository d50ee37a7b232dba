"use server";

import { formatExactMoney } from "@/lib/money";
import { formObject } from "../action";
import { createPlan, deletePlan, schedulePriceChange, updatePlan } from "../admin/plans";
import { runAdminAction } from "../admin/session";

/**
 * The console's plan and price actions. Each checks the platform-admin flag
 * in the database first (a non-admin gets the 404 an unknown path gets).
 * Plan forms arrive as FormData (the endpoints are checkboxes).
 */
const PAGE = "/admin/plans";
const ENDPOINT_FIELDS = ["allowedEndpoints"] as const;

export async function createPlanAction(form: FormData) {
  return runAdminAction(({ db, principal }) => createPlan(db, principal, formObject(form, ENDPOINT_FIELDS)), { revalidate: PAGE });
}

export async function updatePlanAction(planId: string, form: FormData) {
  return runAdminAction(({ db, principal }) => updatePlan(db, principal, planId, formObject(form, ENDPOINT_FIELDS)), { revalidate: PAGE });
}

export async function deletePlanAction(planId: string) {
  return runAdminAction(({ db, principal }) => deletePlan(db, principal, planId), { revalidate: PAGE });
}

export async function schedulePriceAction(input: { endpoint: string; price: string; effectiveAt: string }) {
  return runAdminAction(async ({ db, principal }) => {
    const scheduled = await schedulePriceChange(db, principal, input);
    return {
      endpoint: scheduled.endpoint,
      before: formatExactMoney(scheduled.beforeNanos),
      after: formatExactMoney(scheduled.afterNanos),
      effectiveAt: scheduled.effectiveAt.toISOString(),
      until: scheduled.until?.toISOString() ?? null,
    };
  }, { revalidate: PAGE });
}
