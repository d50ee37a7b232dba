import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { getPrincipal } from "@/lib/platform/session";
import { cn } from "@/lib/utils/cn";

const NAV_LINK =
  "inline-flex h-8 items-center rounded-md px-2 text-sm font-medium text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 sm:px-3 " +
  "aria-[current=page]:text-accent-700";

export interface SiteHeaderProps {
  /** The section the page belongs to, marked as current. */
  current?: "docs" | "status";
  /** Matches the page's width: the docs use the wide layout. */
  wide?: boolean;
  className?: string;
}

/**
 * The public pages' header. At phone widths the wordmark is reduced to its
 * logo and "Create account" to "Sign up", so everything fits in 375 px. A
 * visitor with a session gets a way back to the dashboard instead.
 */
export async function SiteHeader({ current, wide = false, className }: SiteHeaderProps) {
  const signedIn = (await getPrincipal()) !== null;
  return (
    <header className={cn("border-b border-zinc-200 bg-white", className)}>
      <div className={cn("mx-auto flex items-center justify-between gap-2 px-4 py-3 sm:gap-4 sm:px-6", wide ? "max-w-7xl" : "max-w-5xl")}>
        <Link href="/" className="flex items-center gap-2 rounded-md font-semibold whitespace-nowrap text-zinc-900">
          <span aria-hidden="true" className="grid size-7 place-items-center rounded-md bg-accent-600 text-sm text-white">
            D
          </span>
          <span className="sr-only sm:not-sr-only">Dilution Data API</span>
        </Link>
        <nav aria-label="Main">
          <ul className="flex items-center gap-0.5 sm:gap-1">
            <li>
              <Link href="/docs" className={NAV_LINK} aria-current={current === "docs" ? "page" : undefined}>
                Docs
              </Link>
            </li>
            <li>
              <Link href="/status" className={NAV_LINK} aria-current={current === "status" ? "page" : undefined}>
                Status
              </Link>
            </li>
            {signedIn ? (
              <li className="ml-1">
                <Link href="/dashboard" className={buttonClasses({ size: "sm" })}>
                  Dashboard
                </Link>
              </li>
            ) : (
              <>
                <li>
                  <Link href="/sign-in" prefetch={false} className={NAV_LINK}>
                    Sign in
                  </Link>
                </li>
                <li className="ml-1">
                  <Link href="/sign-up" prefetch={false} className={buttonClasses({ size: "sm" })}>
                    <span className="sm:hidden">Sign up</span>
                    <span className="hidden sm:inline">Create account</span>
                  </Link>
                </li>
              </>
            )}
          </ul>
        </nav>
      </div>
    </header>
  );
}
