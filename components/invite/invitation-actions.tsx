"use client";

import { signOut } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { acceptInvitationAction, switchOrganization } from "@/lib/platform/actions/organizations";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

/** "Accept invitation": joins, then the action opens the organization's keys. */
export function AcceptInvitationButton({ token }: { token: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();
  return (
    <div className="flex flex-col gap-3">
      {error ? <Alert tone="danger">{error}</Alert> : null}
      <Button
        size="lg"
        className="w-full"
        loading={busy}
        onClick={() =>
          startTransition(async () => {
            const result = await acceptInvitationAction(token);
            if (result && !result.ok) setError(result.error);
          })
        }
      >
        Accept invitation
      </Button>
    </div>
  );
}

/** For someone who already belongs to the organization: make it the current one and go to it. */
export function OpenOrganizationButton({ orgId, orgName }: { orgId: string; orgName: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, startTransition] = useTransition();
  return (
    <div className="flex flex-col gap-3">
      {error ? <Alert tone="danger">{error}</Alert> : null}
      <Button
        className="w-full"
        loading={busy}
        onClick={() =>
          startTransition(async () => {
            const result = await switchOrganization(orgId);
            if (!result.ok) return setError(result.error);
            router.push("/keys");
          })
        }
      >
        Open {orgName}
      </Button>
    </div>
  );
}

/** Signs out and comes back to sign-in, which returns here: for an invitation meant for another account. */
export function SwitchAccountButton({ returnTo }: { returnTo: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="secondary"
      className="w-full"
      loading={busy}
      onClick={async () => {
        setBusy(true);
        await signOut({ redirect: false });
        router.replace(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
        router.refresh();
      }}
    >
      Sign out and use another account
    </Button>
  );
}
