import type { Metadata } from "next";
import { KeysManager } from "@/components/keys/keys-manager";
import { Alert } from "@/components/ui/alert";
import { PageHeader } from "@/components/ui/page-header";
import { ENDPOINTS, isEndpointName } from "@/lib/catalog";
import { getOrgPage } from "@/lib/platform/session";
import { can } from "@/lib/platform/access";
import { listOrgKeys } from "@/lib/platform/keys";
import { formatDateTime } from "@/lib/utils/dates";
import { dollarsInputValue, formatMoney } from "@/lib/money";
import { spentIn } from "@/lib/billing/spend";
import { effectiveEndpoints } from "@/lib/keys";
import { expiresOnText } from "@/lib/keys/expiry";

export const metadata: Metadata = { title: "API keys" };

export default async function KeysPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { welcome } = await searchParams;
  const { db, principal, org, role } = await getOrgPage();
  const keys = await listOrgKeys(db, principal, org.id);
  const now = new Date();
  const capText = (nanos: bigint | null) => (nanos === null ? "" : dollarsInputValue(nanos));
  const endpoints = org.plan.allowedEndpoints.filter(isEndpointName).map((name) => ({ name, title: ENDPOINTS[name].title }));
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="API keys"
        description={`Keys of ${org.name}. Send one in the API-KEY header; requests are paid from the organization’s balance.`}
      />
      {welcome && keys.length === 0 ? (
        <Alert tone="success" title={`Welcome! ${org.name} is ready.`}>
          It is on the {org.plan.name} plan. Create a key here, buy credits on the Billing page, and make your first call: the Docs
          page has examples for every endpoint.
        </Alert>
      ) : null}
      <KeysManager
        orgId={org.id}
        canManage={can(role, "keys:manage")}
        endpoints={endpoints}
        keys={keys.map((key) => ({
          id: key.id,
          name: key.name,
          hint: key.hint,
          status: key.status,
          platformReason: key.disabledByPlatform ? (key.disabledReason ?? "no reason given") : null,
          allowedEndpoints: key.allowedEndpoints,
          callable:
            key.allowedEndpoints.length || key.platformEndpoints.length
              ? effectiveEndpoints(org.plan.allowedEndpoints, key.platformEndpoints, key.allowedEndpoints)
              : null,
          platformLimit: key.platformEndpoints.length
            ? { endpoints: key.platformEndpoints, reason: key.platformEndpointsReason ?? "no reason given" }
            : null,
          createdBy: key.createdBy?.name || key.createdBy?.email || "Operator",
          createdAt: formatDateTime(key.createdAt),
          lastUsedAt: key.lastUsedAt ? formatDateTime(key.lastUsedAt) : null,
          expiresAt: key.expiresAt ? formatDateTime(key.expiresAt) : null,
          // Whole days left, rounded down: "0" is its last day, never a rounded-up promise.
          daysLeft: key.expiresAt ? Math.max(0, Math.floor((key.expiresAt.getTime() - now.getTime()) / 86_400_000)) : null,
          expired: key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime(),
          rolled: key.rolledAt !== null,
          replaces: key.rolledFrom?.hint ?? null,
          allowedIps: key.allowedIps,
          expiresOn: expiresOnText(key.expiresAt),
          dailyCap: capText(key.dailyCapNanos),
          monthlyCap: capText(key.monthlyCapNanos),
          spentToday: formatMoney(spentIn("day", key, now)),
          spentThisMonth: formatMoney(spentIn("month", key, now)),
        }))}
      />
    </div>
  );
}
