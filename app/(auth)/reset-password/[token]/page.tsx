import type { Metadata } from "next";
import Link from "next/link";
import { ResetPasswordForm } from "@/components/auth/password-reset-forms";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/accounts";
import { passwordResetLinkUsable } from "@/lib/auth/password-reset";
import { getAppDatabase } from "@/lib/runtime/database";

export const metadata: Metadata = { title: "Choose a new password", robots: { index: false, follow: false } };

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { prisma } = await getAppDatabase();
  const usable = await passwordResetLinkUsable(prisma, token);
  return (
    <>
      <h1 className="mb-6 text-center text-2xl font-semibold tracking-tight">{usable ? "Choose a new password" : "This link does not work any more"}</h1>
      <Card>
        <CardContent className="py-6">
          {usable ? (
            <ResetPasswordForm token={token} passwordMinLength={PASSWORD_MIN_LENGTH} />
          ) : (
            <div className="flex flex-col gap-4 text-sm text-zinc-700">
              <p>A reset link works once, for 30 minutes, and using one ends the others sent to the account. Ask for a new link: it arrives in a minute or two.</p>
              <Link href="/forgot-password" className={buttonClasses({ className: "w-full" })}>
                Email me a new link
              </Link>
            </div>
          )}
        </CardContent>
      </Card>
    </>
  );
}
