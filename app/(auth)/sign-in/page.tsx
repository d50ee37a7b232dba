import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { authErrorMessage } from "@/components/auth/auth-errors";
import { SignInForm } from "@/components/auth/auth-forms";
import { Card, CardContent } from "@/components/ui/card";
import { oauthProviders } from "@/lib/platform/next-auth";
import { getSignedInUser } from "@/lib/platform/session";
import { safeReturnPath } from "@/lib/utils/return-path";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const returnTo = safeReturnPath(params.callbackUrl);
  if (await getSignedInUser()) redirect(returnTo);
  const error = typeof params.error === "string" ? authErrorMessage(params.error) : null;
  return (
    <>
      <h1 className="mb-6 text-center text-2xl font-semibold tracking-tight">Sign in</h1>
      <Card>
        <CardContent className="py-6">
          <SignInForm returnTo={returnTo} providers={oauthProviders()} initialError={error} />
        </CardContent>
      </Card>
    </>
  );
}
