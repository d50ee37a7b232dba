import type { Principal } from "@/lib/auth/session";
import type { DbClient } from "@/lib/db";
import { usageQuerySchema, usageReport } from "@/lib/usage/report";
import { requireAccess } from "./access";

/** The usage page and its CSV: every member of the organization may see them. */
export async function orgUsageReport(db: DbClient, principal: Principal | null, orgId: string, input: unknown) {
  await requireAccess(db, principal, orgId, "org:view");
  return usageReport(db, orgId, usageQuerySchema.parse(input));
}
