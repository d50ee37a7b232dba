import type { Metadata } from "next";
import { DeleteAccount } from "@/components/settings/danger-zone";
import { CreateOrganizationForm } from "@/components/settings/organization-name-forms";
import { Alert } from "@/components/ui/alert";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { getDashboard } from "@/lib/platform/session";

export const metadata: Metadata = { title: "New organization" };

/** Also where a user without any organization lands (getOrgPage sends them here), so it needs none itself. */
export default async function NewOrganizationPage() {
  const { memberships, user } = await getDashboard();
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
      {first ? (
        // Without an organization there is no settings page: the account's own end is offered here.
        <Card className="border-red-200">
          <CardHeader>
            <CardTitle as="h2">Delete your account</CardTitle>
            <CardDescription>If you are done with the service: your name, email and password are erased.</CardDescription>
          </CardHeader>
          <CardContent>
            <DeleteAccount email={user.email} blockedReason={null} />
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
