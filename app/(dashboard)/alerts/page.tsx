import type { Metadata } from "next";
import { AlertsManager, type DeliveryRow } from "@/components/alerts/alerts-manager";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { formatMoney } from "@/lib/money";
import { alertsOverview } from "@/lib/platform/alerts";
import { getOrgPage } from "@/lib/platform/session";
import { formatDateTime } from "@/lib/utils/dates";

export const metadata: Metadata = { title: "Alerts" };

const RULE_WORDS: Record<string, string> = {
  balance_below: "Balance below",
  spend_day_above: "Spend today (UTC) above",
  spend_month_above: "Spend this month (UTC) above",
};

export default async function AlertsPage() {
  const { db, principal, org, allowed } = await getOrgPage("alerts:manage");
  const header = (
    <PageHeader title="Alerts" description={`Thresholds on ${org.name}'s balance and spend, and the webhook endpoints that hear about them.`} />
  );
  if (!allowed) {
    return (
      <div className="flex flex-col gap-6">
        {header}
        <Card>
          <CardHeader>
            <CardTitle as="h2">Not available to members</CardTitle>
            <CardDescription>Only owners and admins of {org.name} set alerts and webhook endpoints.</CardDescription>
          </CardHeader>
        </Card>
      </div>
    );
  }
  const { rules, endpoints, deliveries, keys, emailConfigured } = await alertsOverview(db, principal, org.id);
  return (
    <div className="flex flex-col gap-6">
      {header}
      <AlertsManager
        orgId={org.id}
        emailConfigured={emailConfigured}
        keys={keys.map((key) => ({ id: key.id, label: `${key.name} (${key.hint}…)` }))}
        rules={rules.map((rule) => ({
          id: rule.id,
          label: `${RULE_WORDS[rule.kind] ?? rule.kind} ${formatMoney(rule.thresholdNanos, "typed")}`,
          scope: rule.apiKey ? `Key ${rule.apiKey.name} (${rule.apiKey.hint}…)` : "The organization",
          fired: rule.firedAt !== null,
          state: rule.firedAt ? `crossed ${formatDateTime(rule.firedAt)}; sent ${rule.fireCount} time${rule.fireCount === 1 ? "" : "s"}` : rule.fireCount ? `sent ${rule.fireCount} time${rule.fireCount === 1 ? "" : "s"}` : "not crossed yet",
        }))}
        endpoints={endpoints.map((endpoint) => ({
          id: endpoint.id,
          url: endpoint.url,
          description: endpoint.description,
          secretHint: endpoint.secretHint,
          enabled: endpoint.enabled,
          disabledReason: endpoint.disabledReason,
          failingSince: endpoint.failingSince ? formatDateTime(endpoint.failingSince) : null,
        }))}
        deliveries={deliveries.map((delivery) => ({
          id: delivery.id,
          at: formatDateTime(delivery.createdAt),
          type: delivery.event.type,
          eventId: delivery.event.id,
          to: delivery.channel === "email" ? `email ${delivery.recipient}` : (delivery.endpoint?.url ?? "deleted endpoint"),
          status: delivery.status as DeliveryRow["status"],
          attempts: delivery.attempts,
          result:
            delivery.status === "succeeded"
              ? `${delivery.channel === "email" ? "Sent" : `HTTP ${delivery.lastStatusCode}`} after ${delivery.attempts} attempt${delivery.attempts === 1 ? "" : "s"}`
              : delivery.lastError
                ? `${delivery.lastError} (${delivery.attempts} attempt${delivery.attempts === 1 ? "" : "s"})`
                : "Not tried yet",
          nextAttempt: delivery.status === "pending" && delivery.attempts > 0 ? formatDateTime(delivery.nextAttemptAt) : null,
        }))}
      />
    </div>
  );
}
