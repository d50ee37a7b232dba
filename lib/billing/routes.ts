import { getAppDatabase } from "@/lib/db/app";
import { handleDashboardRoute, type DatabaseSource } from "@/lib/auth/route-handler";
import { billingOverview, topUpStatusFor } from "@/lib/platform/billing";
import { csvResponse } from "@/lib/utils/csv";
import { billingCsv } from "./history";
import { centsToNanos, formatDollars } from "./money";

/** GET /billing/export?org=…&from=…&to=… → the billing history as CSV. */
export function exportBillingHistory(request: Request, database: DatabaseSource = getAppDatabase) {
  return handleDashboardRoute(
    request,
    async ({ db, principal, url }) => {
      const params = Object.fromEntries(url.searchParams);
      const { history, range } = await billingOverview(db, principal, params.org ?? "", params);
      return csvResponse(billingCsv(history), `billing-${range.from}-to-${range.to}.csv`);
    },
    database,
  );
}

/** GET /billing/status?org=…&session_id=cs_… → where a top-up stands, for the success page to poll. */
export function topUpStatusRoute(request: Request, database: DatabaseSource = getAppDatabase) {
  return handleDashboardRoute(
    request,
    async ({ db, principal, url }) => {
      const status = await topUpStatusFor(db, principal, url.searchParams.get("org") ?? "", url.searchParams.get("session_id") ?? "");
      if (!status) return Response.json({ error: "No such payment in this organization." }, { status: 404, headers: { "Cache-Control": "no-store" } });
      return Response.json(
        {
          status: status.status,
          credited: status.credited,
          amount: formatDollars(centsToNanos(status.amountCents), { grouping: true }),
          balance: formatDollars(status.balanceNanos, { maxDecimals: 2, grouping: true }),
          receipt_url: status.receiptUrl,
        },
        { headers: { "Cache-Control": "no-store" } },
      );
    },
    database,
  );
}
