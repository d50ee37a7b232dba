import Link from "next/link";
import type { ReactNode } from "react";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col items-center px-4 py-10 sm:py-16">
      <Link href="/" className="mb-8 flex items-center gap-2 rounded-md font-semibold text-zinc-900">
        <span aria-hidden="true" className="grid size-8 place-items-center rounded-md bg-accent-600 text-white">
          D
        </span>
        Dilution Data API
      </Link>
      <main id="main" className="w-full max-w-sm">
        {children}
      </main>
    </div>
  );
}
