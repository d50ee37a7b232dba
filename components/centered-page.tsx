import Link from "next/link";
import type { ReactNode } from "react";
import { cn } from "@/lib/utils/cn";

/** The logo over a narrow centred column: sign-in, sign-up, invitations. */
export function CenteredPage({ children, width = "sm" }: { children: ReactNode; width?: "sm" | "md" }) {
  return (
    <div className="flex min-h-dvh flex-col items-center px-4 py-10 sm:py-16">
      <Link href="/" className="mb-8 flex items-center gap-2 rounded-md font-semibold text-zinc-900">
        <span aria-hidden="true" className="grid size-8 place-items-center rounded-md bg-accent-600 text-white">
          D
        </span>
        Dilution Data API
      </Link>
      <main id="main" className={cn("w-full", width === "sm" ? "max-w-sm" : "max-w-md")}>
        {children}
      </main>
    </div>
  );
}
