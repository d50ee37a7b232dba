import { billingCsv } from "@/lib/billing/history";
import { handleStripeWebhook } from "@/lib/billing/webhook";
import { formatCents, formatExactMoney, formatMoney } from "@/lib/money";
import { getAppDatabase } from "@/lib/runtime/database";
import { usageCsv } from "@/lib/usage/report";
import { csvResponse } from "@/lib/utils/csv";
import { isoDay } from "@/lib/utils/dates";
import { billingOverview, topUpStatusFor } from "./billing";
import { handleDashboardRoute, type DatabaseSource } from "./route-handler";
import { orgUsageReport } from "./usage";

/** The dashboard's route handlers (CSV exports, polling); each app/ route file is one call of these. */

/** GET /billing/export?org=…&from=…&to=… → the billing history as CSV. */
export function exportBillingHistory(request: Request, database: DatabaseSource = getAppDatabase) {
  return handleDashboardRoute(
    request,
    async ({ db, principal, url }) => {
      const params = Object.fromEntries(url.searchParams);
      const { history, range } = await billingOverview(db, principal, params.org ?? "", params);
      // Named by what it holds: the chosen start, or else the day of its oldest line (newest first), never a placeholder date.
      const from = params.from ? range.from : (history.at(-1) ? isoDay(history.at(-1)!.at) : range.to);
      return csvResponse(billingCsv(history), `billing-${from}-to-${range.to}.csv`);
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
          amount: formatCents(status.amountCents),
          balance: formatMoney(status.balanceNanos, "balance"),
          balance_exact: formatExactMoney(status.balanceNanos),
          receipt_url: status.receiptUrl,
        },
        { headers: { "Cache-Control": "no-store" } },
      );
    },
    database,
  );
}

/** GET /usage/export?org=…&from=…&to=…&key=… → the usage table as CSV. */
export function exportUsage(request: Request, database: DatabaseSource = getAppDatabase) {
  return handleDashboardRoute(
    request,
    async ({ db, principal, url }) => {
      const params = Object.fromEntries(url.searchParams);
      const report = await orgUsageReport(db, principal, params.org ?? "", params);
      return csvResponse(usageCsv(report), `usage-${report.query.from}-to-${report.query.to}.csv`);
    },
    database,
  );
}

/** POST /api/stripe/webhook: Stripe's events, verified and applied once each (lib/billing/webhook). */
export function stripeWebhookRoute(request: Request) {
  return handleStripeWebhook(request, { database: getAppDatabase });
}
