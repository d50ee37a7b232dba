import type { Metadata } from "next";
import { KeysManager } from "@/components/keys/keys-manager";
import { PageHeader } from "@/components/ui/page-header";
import { ENDPOINTS, isEndpointName } from "@/lib/api/catalog";
import { getOrgPage } from "@/lib/auth/server";
import { can } from "@/lib/platform/access";
import { listOrgKeys } from "@/lib/platform/keys";
import { formatDateTime } from "@/lib/utils/dates";

export const metadata: Metadata = { title: "API keys" };

export default async function KeysPage() {
  const { db, principal, org, role } = await getOrgPage();
  const keys = await listOrgKeys(db, principal, org.id);
  const endpoints = org.plan.allowedEndpoints.filter(isEndpointName).map((name) => ({ name, title: ENDPOINTS[name].title }));
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="API keys"
        description={`Keys of ${org.name}. Send one in the API-KEY header; requests are paid from the organization’s balance.`}
      />
      <KeysManager
        orgId={org.id}
        canManage={can(role, "keys:manage")}
        endpoints={endpoints}
        keys={keys.map((key) => ({
          id: key.id,
          name: key.name,
          hint: key.hint,
          status: key.status,
          allowedEndpoints: key.allowedEndpoints,
          createdBy: key.createdBy?.name || key.createdBy?.email || "Operator",
          createdAt: formatDateTime(key.createdAt),
          lastUsedAt: key.lastUsedAt ? formatDateTime(key.lastUsedAt) : null,
        }))}
      />
    </div>
  );
}
