"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";

interface Status {
  status: "OPEN" | "PROCESSING" | "PAID" | "FAILED" | "EXPIRED" | "REFUNDED" | "HELD";
  credited: boolean;
  amount: string;
  balance: string;
  receipt_url: string | null;
}

const POLL_MS = 1500;
const GIVE_UP_MS = 3 * 60_000;

/**
 * Stripe sends the browser back before (or after) it sends the webhook; the
 * credit lands only with the webhook. So: show "pending" and ask the server
 * until the top-up is credited, then the new balance. No reload needed.
 */
export function TopUpProgress({ orgId, sessionId }: { orgId: string; sessionId: string }) {
  const [status, setStatus] = useState<Status | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [gaveUp, setGaveUp] = useState(false);

  useEffect(() => {
    let stopped = false;
    const started = Date.now();
    async function poll() {
      try {
        const response = await fetch(`/billing/status?${new URLSearchParams({ org: orgId, session_id: sessionId })}`, { cache: "no-store" });
        if (response.status === 404) return setProblem("We could not find this payment in your organization.");
        if (response.ok) {
          const next = (await response.json()) as Status;
          setStatus(next);
          if (next.credited || next.status === "FAILED" || next.status === "EXPIRED") return;
        }
      } catch {
        // a dropped connection: try again on the next tick
      }
      if (Date.now() - started > GIVE_UP_MS) return setGaveUp(true);
      if (!stopped) setTimeout(poll, POLL_MS);
    }
    poll();
    return () => {
      stopped = true;
    };
  }, [orgId, sessionId]);

  if (problem) return <Alert tone="danger">{problem}</Alert>;
  return (
    <div aria-live="polite" className="flex flex-col gap-4">
      {status?.credited ? (
        <>
          <Alert tone="success" title={`${status.amount} added to your balance.`}>
            Your balance is now <strong data-testid="new-balance">{status.balance}</strong>.
          </Alert>
          <div className="flex flex-wrap gap-2">
            <Link href="/billing" className={buttonClasses({})}>
              Back to billing
            </Link>
            <Link href="/keys" className={buttonClasses({ variant: "secondary" })}>
              API keys
            </Link>
            {status.receipt_url ? (
              <a href={status.receipt_url} target="_blank" rel="noreferrer" className={buttonClasses({ variant: "ghost" })}>
                View receipt
              </a>
            ) : null}
          </div>
        </>
      ) : status?.status === "FAILED" ? (
        <Alert tone="danger" title="The payment failed.">
          Nothing was added to your balance. <Link href="/billing" className="underline">Try again</Link> with another payment method.
        </Alert>
      ) : status?.status === "HELD" ? (
        <Alert tone="warning" title="This payment is being checked.">
          What Stripe reported does not match the checkout you started, so nothing was added yet. Our team has been told and will settle it; you do not need to pay again.
        </Alert>
      ) : status?.status === "EXPIRED" ? (
        <Alert tone="warning" title="This checkout expired before it was paid.">
          <Link href="/billing" className="underline">Start a new one</Link>.
        </Alert>
      ) : gaveUp ? (
        <Alert tone="warning" title="Still waiting for the payment to be confirmed.">
          Bank payments can take a few days. The credits will appear in your billing history as soon as Stripe confirms them; you can leave this page.
        </Alert>
      ) : (
        <div className="flex items-center gap-3 rounded-md border border-zinc-200 bg-white p-4 text-sm text-zinc-700">
          <Spinner className="text-accent-600" />
          <span data-testid="top-up-pending">
            {status?.status === "PROCESSING"
              ? `Your ${status.amount} payment is processing. The credits are added as soon as it clears.`
              : `Payment received${status ? ` for ${status.amount}` : ""}: waiting for Stripe’s confirmation to add the credits…`}
          </span>
        </div>
      )}
    </div>
  );
}
