import { getAppDatabase } from "@/lib/db/app";
import { handleDashboardRoute, type DatabaseSource } from "@/lib/auth/route-handler";
import { csvResponse } from "@/lib/utils/csv";
import { usageCsv, usageReport } from "./report";

/** GET /usage/export?org=…&from=…&to=…&key=… → the usage table as CSV. */
export function exportUsage(request: Request, database: DatabaseSource = getAppDatabase) {
  return handleDashboardRoute(
    request,
    async ({ db, principal, url }) => {
      const params = Object.fromEntries(url.searchParams);
      const report = await usageReport(db, principal, params.org ?? "", params);
      return csvResponse(usageCsv(report), `usage-${report.query.from}-to-${report.query.to}.csv`);
    },
    database,
  );
}
