import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignUpForm } from "@/components/auth/auth-forms";
import { Card, CardContent } from "@/components/ui/card";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/accounts";
import { oauthProviders } from "@/lib/platform/next-auth";
import { getSignedInUser } from "@/lib/platform/session";
import { safeReturnPath } from "@/lib/utils/return-path";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const returnTo = safeReturnPath(params.callbackUrl);
  if (await getSignedInUser()) redirect(returnTo);
  return (
    <>
      <h1 className="mb-2 text-center text-2xl font-semibold tracking-tight">Create your account</h1>
      <p className="mb-6 text-center text-sm text-zinc-600">Dilution-risk data for any ticker, paid per GB.</p>
      <Card>
        <CardContent className="py-6">
          <SignUpForm returnTo={returnTo} providers={oauthProviders()} passwordMinLength={PASSWORD_MIN_LENGTH} />
        </CardContent>
      </Card>
    </>
  );
}
