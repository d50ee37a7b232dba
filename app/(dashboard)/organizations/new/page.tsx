import type { Metadata } from "next";
import { CreateOrganizationForm } from "@/components/settings/organization-name-forms";
import { Alert } from "@/components/ui/alert";
import { Card, CardContent } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { getDashboard } from "@/lib/platform/session";

export const metadata: Metadata = { title: "New organization" };

/** Also where a user without any organization lands (getOrgPage sends them here), so it needs none itself. */
export default async function NewOrganizationPage() {
  const { memberships } = await getDashboard();
  const first = memberships.length === 0;
  return (
    <div className="flex max-w-xl flex-col gap-6">
      <PageHeader
        title={first ? "Create your organization" : "Create another organization"}
        description="An organization has its own keys, balance, plan and members. It starts on the Trial plan, with you as its owner."
      />
      {first ? (
        <Alert tone="info" title="You are not in any organization right now.">
          Perhaps you left your last one. Create one to get keys and credits of your own, or open an invitation link someone sent you to join theirs.
        </Alert>
      ) : null}
      <Card>
        <CardContent className="py-5">
          <CreateOrganizationForm />
        </CardContent>
      </Card>
    </div>
  );
}
