import type { Metadata } from "next";
import { KeysManager } from "@/components/keys/keys-manager";
import { Alert } from "@/components/ui/alert";
import { PageHeader } from "@/components/ui/page-header";
import { ENDPOINTS, isEndpointName } from "@/lib/catalog";
import { getOrgPage } from "@/lib/platform/session";
import { can } from "@/lib/platform/access";
import { listOrgKeys } from "@/lib/platform/keys";
import { formatDateTime } from "@/lib/utils/dates";

export const metadata: Metadata = { title: "API keys" };

export default async function KeysPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { welcome } = await searchParams;
  const { db, principal, org, role } = await getOrgPage();
  const keys = await listOrgKeys(db, principal, org.id);
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
          createdBy: key.createdBy?.name || key.createdBy?.email || "Operator",
          createdAt: formatDateTime(key.createdAt),
          lastUsedAt: key.lastUsedAt ? formatDateTime(key.lastUsedAt) : null,
        }))}
      />
    </div>
  );
}
