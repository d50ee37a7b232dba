import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignUpForm } from "@/components/auth/auth-forms";
import { Alert } from "@/components/ui/alert";
import { Card, CardContent } from "@/components/ui/card";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/accounts";
import { oauthProviders } from "@/lib/platform/next-auth";
import { findInvitation } from "@/lib/platform/members";
import { getSignedInUser } from "@/lib/platform/session";
import { getAppDatabase } from "@/lib/runtime/database";
import { ROLE_LABELS } from "@/lib/utils/roles";
import { safeReturnPath } from "@/lib/utils/return-path";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const returnTo = safeReturnPath(params.callbackUrl);
  if (await getSignedInUser()) redirect(returnTo);
  // Come through an invitation's link: the account joins that organization, with the invited address.
  const token = typeof params.invite === "string" ? params.invite : null;
  const found = token ? await findInvitation((await getAppDatabase()).prisma, token) : null;
  const invitation = token && found?.state === "open" ? { token, orgName: found.organization.name, role: ROLE_LABELS[found.role], email: found.email } : null;
  return (
    <>
      <h1 className="mb-2 text-center text-2xl font-semibold tracking-tight">{invitation ? `Join ${invitation.orgName}` : "Create your account"}</h1>
      <p className="mb-6 text-center text-sm text-zinc-600">{invitation ? "Create your account to accept the invitation." : "Dilution-risk data for any ticker, paid per GB."}</p>
      {token && !invitation ? (
        <Alert tone="warning" className="mb-4">
          That invitation link is no longer valid: ask for a new one. You can still create an account with an organization of your own.
        </Alert>
      ) : null}
      <Card>
        <CardContent className="py-6">
          <SignUpForm returnTo={returnTo} providers={oauthProviders()} passwordMinLength={PASSWORD_MIN_LENGTH} invitation={invitation} />
        </CardContent>
      </Card>
    </>
  );
}
