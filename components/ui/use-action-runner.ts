"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";

export type ActionMessage = { tone: "success" | "danger"; text: string } | null;

/**
 * Runs a server action from a button: on success a message, the caller's
 * follow-up and a refresh of the page's data; on refusal the action's
 * message. `busy` while it runs.
 */
export function useActionRunner() {
  const router = useRouter();
  const [message, setMessage] = useState<ActionMessage>(null);
  const [busy, startTransition] = useTransition();

  function act(run: () => Promise<{ ok: boolean; error?: string }>, done: string, after?: () => void) {
    startTransition(async () => {
      const result = await run();
      // One transition for the message and the refreshed rows, so they change together
      // (updates after an await are not part of the first one).
      startTransition(() => {
        if (result.ok) {
          setMessage({ tone: "success", text: done });
          after?.();
          router.refresh();
        } else {
          setMessage({ tone: "danger", text: result.error ?? "That did not work." });
        }
      });
    });
  }

  return { act, busy, message, setMessage, router };
}
