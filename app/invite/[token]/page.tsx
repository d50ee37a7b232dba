import type { Metadata } from "next";
import Link from "next/link";
import { CenteredPage } from "@/components/centered-page";
import type { ReactNode } from "react";
import { AcceptInvitationButton, OpenOrganizationButton, SwitchAccountButton } from "@/components/invite/invitation-actions";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { getSignedInUser } from "@/lib/platform/session";
import { getAppDatabase } from "@/lib/runtime/database";
import { ROLE_LABELS } from "@/lib/utils/roles";
import { findInvitation, isMemberOf } from "@/lib/platform/members";
import { formatDateTime } from "@/lib/utils/dates";

export const metadata: Metadata = { title: "Invitation", robots: { index: false, follow: false } };

const ROLE_WORDS = { OWNER: "Owners manage everything, including who owns the organization.", ADMIN: "Admins manage keys, people and billing.", MEMBER: "Members see keys, usage and docs, and change nothing." } as const;

export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const { prisma } = await getAppDatabase();
  const [invitation, user] = await Promise.all([findInvitation(prisma, token), getSignedInUser()]);
  const here = `/invite/${encodeURIComponent(token)}`;

  if (!invitation) {
    return (
      <Shell title="This invitation link does not work">
        <p>Check that you copied the whole link. If you did, ask the person who invited you for a new one.</p>
        <HomeLink signedIn={user !== null} />
      </Shell>
    );
  }

  const orgName = invitation.organization.name;
  const inviter = invitation.createdBy?.name || invitation.createdBy?.email || "A former member";
  const alreadyMember = user ? await isMemberOf(prisma, user.id, invitation.orgId) : false;

  if (invitation.state !== "open") {
    const why = {
      revoked: { title: "This invitation was withdrawn", text: `An owner or admin of ${orgName} revoked it.` },
      accepted: { title: "This invitation has been used", text: "Each invitation link works once." },
      expired: { title: "This invitation has expired", text: `It expired on ${formatDateTime(invitation.expiresAt)}.` },
    }[invitation.state];
    return (
      <Shell title={alreadyMember ? `You are a member of ${orgName}` : why.title}>
        <p>
          {why.text} {alreadyMember ? `You are a member of ${orgName} already.` : `Ask ${inviter} for a new one if you still want to join ${orgName}.`}
        </p>
        {alreadyMember ? <OpenOrganizationButton orgId={invitation.orgId} orgName={orgName} /> : <HomeLink signedIn={user !== null} />}
      </Shell>
    );
  }

  const summary = (
    <>
      <p className="text-base text-zinc-900">
        <strong className="font-semibold">{inviter}</strong> invited you to join <strong className="font-semibold">{orgName}</strong> as{" "}
        <strong className="font-semibold">{ROLE_LABELS[invitation.role]}</strong>.
      </p>
      <p>
        {ROLE_WORDS[invitation.role]} The invitation is valid until {formatDateTime(invitation.expiresAt)}
        {invitation.email ? <> and is for <strong className="font-medium text-zinc-900">{invitation.email}</strong></> : null}.
      </p>
    </>
  );

  if (!user) {
    const callback = `callbackUrl=${encodeURIComponent(here)}`;
    return (
      <Shell title={`Join ${orgName}`}>
        {summary}
        <div className="flex flex-col gap-2">
          <Link href={`/sign-in?${callback}`} className={buttonClasses({ size: "lg", className: "w-full" })}>
            Sign in to accept
          </Link>
          <Link href={`/sign-up?invite=${encodeURIComponent(token)}&${callback}`} className={buttonClasses({ variant: "secondary", size: "lg", className: "w-full" })}>
            Create an account
          </Link>
        </div>
      </Shell>
    );
  }

  if (alreadyMember) {
    return (
      <Shell title={`You are already in ${orgName}`}>
        <p>You are signed in as {user.email}, a member of {orgName}. You do not need this invitation; it stays open for whoever it was meant for.</p>
        <OpenOrganizationButton orgId={invitation.orgId} orgName={orgName} />
      </Shell>
    );
  }

  if (invitation.email && invitation.email !== user.email) {
    return (
      <Shell title="This invitation is for another account">
        {summary}
        <p>
          You are signed in as <strong className="font-medium text-zinc-900">{user.email}</strong>. Sign in as {invitation.email} (or create that
          account) to accept it.
        </p>
        <SwitchAccountButton returnTo={here} />
      </Shell>
    );
  }

  return (
    <Shell title={`Join ${orgName}`}>
      {summary}
      <AcceptInvitationButton token={token} />
      <p className="text-xs text-zinc-500">
        Signed in as {user.email}. You keep your other organizations; switch between them at the top of the dashboard.
      </p>
    </Shell>
  );
}

/** The centred card of the sign-in pages. */
function Shell({ title, children }: { title: string; children: ReactNode }) {
  return (
    <CenteredPage width="md">
      <h1 className="mb-6 text-center text-2xl font-semibold tracking-tight text-balance">{title}</h1>
      <Card>
        <CardContent className="flex flex-col gap-4 py-6 text-sm text-zinc-700">{children}</CardContent>
      </Card>
    </CenteredPage>
  );
}

function HomeLink({ signedIn }: { signedIn: boolean }) {
  return signedIn ? (
    <Link href="/dashboard" className={buttonClasses({ variant: "secondary", className: "w-full" })}>
      Go to your dashboard
    </Link>
  ) : (
    <Link href="/" className={buttonClasses({ variant: "secondary", className: "w-full" })}>
      Go to the home page
    </Link>
  );
}
