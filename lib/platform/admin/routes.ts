import { notFound } from "next/navigation";
import type { Principal } from "@/lib/auth/session";
import type { PrismaClient } from "@/lib/db";
import { getAppDatabase } from "@/lib/runtime/database";
import { csvResponse } from "@/lib/utils/csv";
import { handleDashboardRoute, type DatabaseSource } from "../route-handler";
import { NotPlatformAdmin } from "./access";
import { overviewCsv, platformOverview } from "./overview";

/** The console's route handlers. A caller who is not a platform administrator gets Next's 404, as for an unknown path. */
export function handleAdminRoute(
  request: Request,
  fn: (ctx: { db: PrismaClient; principal: Principal | null; url: URL }) => Promise<Response>,
  database: DatabaseSource = getAppDatabase,
): Promise<Response> {
  return handleDashboardRoute(
    request,
    async (ctx) => {
      try {
        return await fn(ctx);
      } catch (error) {
        if (error instanceof NotPlatformAdmin) notFound();
        throw error;
      }
    },
    database,
  );
}

/** GET /admin/export?from=…&to=… → the overview per UTC day as CSV. */
export function exportOverview(request: Request, database: DatabaseSource = getAppDatabase) {
  return handleAdminRoute(
    request,
    async ({ db, principal, url }) => {
      const overview = await platformOverview(db, principal, Object.fromEntries(url.searchParams));
      return csvResponse(overviewCsv(overview), `platform-${overview.range.from}-to-${overview.range.to}.csv`);
    },
    database,
  );
}
