import { ENDPOINT_LIST, ENDPOINT_NAMES } from "@/lib/catalog";
import type { DbClient } from "@/lib/db";

/** Default plans (DESIGN.md §4); administrators may edit them afterwards. */
export const PLAN_SLUGS = ["trial", "retail", "enterprise"] as const;
export type PlanSlug = (typeof PLAN_SLUGS)[number];

export const DEFAULT_PLANS: Record<PlanSlug, {
  name: string;
  allowedEndpoints: string[];
  requestsPerMinute: number;
  isTrial: boolean;
  dailyTickerLimit: number | null;
}> = {
  trial: {
    name: "Trial",
    allowedEndpoints: ENDPOINT_LIST.filter((e) => e.inTrialPlan).map((e) => e.name),
    requestsPerMinute: 60,
    isTrial: true,
    dailyTickerLimit: 50,
  },
  retail: {
    name: "Retail",
    allowedEndpoints: [...ENDPOINT_NAMES],
    requestsPerMinute: 200,
    isTrial: false,
    dailyTickerLimit: null,
  },
  enterprise: {
    name: "Enterprise",
    allowedEndpoints: [...ENDPOINT_NAMES],
    requestsPerMinute: 1000,
    isTrial: false,
    dailyTickerLimit: null,
  },
};

/** Creates the default plans that do not exist yet; never overwrites edits. */
export async function ensureDefaultPlans(db: DbClient): Promise<void> {
  for (const slug of PLAN_SLUGS) {
    await db.plan.upsert({ where: { slug }, create: { slug, ...DEFAULT_PLANS[slug] }, update: {} });
  }
}
