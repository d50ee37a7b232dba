import type { Metadata } from "next";
import { TopUpProgress } from "@/components/billing/top-up-progress";
import { Alert } from "@/components/ui/alert";
import { PageHeader } from "@/components/ui/page-header";
import { getOrgPage } from "@/lib/platform/session";

export const metadata: Metadata = { title: "Payment" };

export default async function TopUpSuccessPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const { org, allowed } = await getOrgPage("billing:manage");
  const sessionId = typeof params.session_id === "string" ? params.session_id : "";
  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <PageHeader title="Thank you" description={`Credits for ${org.name}.`} />
      {!allowed ? (
        <Alert tone="info">Only owners and admins can see payments.</Alert>
      ) : sessionId ? (
        <TopUpProgress orgId={org.id} sessionId={sessionId} />
      ) : (
        <Alert tone="danger">This page needs the payment’s session id; go back to Billing to see your history.</Alert>
      )}
    </div>
  );
}
