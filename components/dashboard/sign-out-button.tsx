"use client";

import { signOut } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";

export function SignOutButton() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="ghost"
      size="sm"
      loading={busy}
      onClick={async () => {
        setBusy(true);
        // A new entry, not a replacement: Back returns to this page (which then asks to sign in and comes back
        // to it), and signing in again here leads back to it too.
        const here = `${window.location.pathname}${window.location.search}`;
        await signOut({ redirect: false });
        router.push(`/sign-in?callbackUrl=${encodeURIComponent(here)}`);
        router.refresh();
      }}
    >
      Sign out
    </Button>
  );
}
