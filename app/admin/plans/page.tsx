import type { Metadata } from "next";
import { PlansManager } from "@/components/admin/plans-manager";
import { PricesManager } from "@/components/admin/prices-manager";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { ENDPOINT_LIST } from "@/lib/catalog";
import { formatMoney } from "@/lib/money";
import { listPlansForAdmin, priceSchedule } from "@/lib/platform/admin/plans";
import { getAdminPage } from "@/lib/platform/admin/session";
import { formatDateTime } from "@/lib/utils/dates";

export const metadata: Metadata = { title: "Plans & prices" };

/** Exact to the nano-dollar: the price editor shows the figure it edits. */
const perGb = (nanos: bigint) => formatMoney(nanos, "price");
/** A price's moment to the millisecond ("2026-03-01 09:30:15.250 UTC"): a charge is explained by it. */
const moment = (date: Date) => date.toISOString().replace("T", " ").replace(/:00\.000Z$/, "Z").replace(/Z$/, " UTC");

export default async function AdminPlansPage() {
  const { db, admin } = await getAdminPage();
  // listPlansForAdmin checks the administrator; priceSchedule is the plain read that follows the check.
  const plans = await listPlansForAdmin(db, admin.principal);
  const prices = await priceSchedule(db);

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Plans & prices" description="The plans organizations are on, and the price per GB of each endpoint. Every change is in the audit log. Times are UTC." />
      <Card>
        <PlansManager
          endpoints={ENDPOINT_LIST.map((e) => ({ name: e.name, title: e.title }))}
          plans={plans.map((plan) => ({
            id: plan.id,
            slug: plan.slug,
            name: plan.name,
            allowedEndpoints: plan.allowedEndpoints,
            requestsPerMinute: plan.requestsPerMinute,
            isTrial: plan.isTrial,
            dailyTickerLimit: plan.dailyTickerLimit,
            organizations: plan.organizations,
            openOrganizations: plan.openOrganizations,
            requests: plan.requests,
            isDefault: plan.isDefault,
          }))}
        />
      </Card>
      <Card>
        <PricesManager
          prices={prices.map((endpoint) => ({
            name: endpoint.name,
            title: endpoint.title,
            defaultPrice: perGb(endpoint.defaultNanos),
            currentPrice: perGb(endpoint.currentNanos),
            currentSince: endpoint.currentSince ? moment(endpoint.currentSince) : null,
            next: endpoint.next ? { price: perGb(endpoint.next.nanos), effectiveAt: moment(endpoint.next.effectiveAt) } : null,
            history: endpoint.history.map((row) => ({
              id: row.id,
              price: perGb(row.nanos),
              effectiveAt: moment(row.effectiveAt),
              createdAt: formatDateTime(row.createdAt),
              createdBy: row.createdBy,
              state: row.state,
            })),
          }))}
        />
      </Card>
    </div>
  );
}
