import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { DashboardNav, type NavItem } from "@/components/dashboard/nav";
import { SignOutButton } from "@/components/dashboard/sign-out-button";
import { getAdminPage } from "@/lib/platform/admin/session";

export const metadata: Metadata = { title: { template: "%s · Platform console", default: "Platform console" }, robots: { index: false } };

const NAV: NavItem[] = [
  { href: "/admin", label: "Overview" },
  { href: "/admin/organizations", label: "Organizations" },
  { href: "/admin/keys", label: "Keys" },
  { href: "/admin/users", label: "Users" },
  { href: "/admin/plans", label: "Plans & prices" },
  { href: "/admin/payments", label: "Payments" },
  { href: "/admin/data", label: "Data" },
  { href: "/admin/audit", label: "Audit log" },
];

export default async function AdminLayout({ children }: { children: ReactNode }) {
  const { admin } = await getAdminPage();
  return (
    <div className="flex min-h-dvh flex-col bg-zinc-50">
      <header className="border-b border-zinc-800 bg-zinc-900 text-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 pt-3 sm:px-6">
          <div className="flex min-w-0 items-center gap-3">
            <Link href="/admin" aria-label="Platform console home" className="grid size-8 shrink-0 place-items-center rounded-md bg-amber-500 font-semibold text-zinc-900">
              D
            </Link>
            <span className="truncate text-sm font-semibold">Platform console</span>
            <Link href="/dashboard" className="hidden text-sm text-zinc-300 underline-offset-2 hover:underline sm:inline">
              Customer dashboard
            </Link>
          </div>
          <div className="flex min-w-0 items-center gap-1 [&_button]:text-zinc-200">
            <span className="hidden truncate text-sm text-zinc-300 md:inline" title={admin.user.email}>
              {admin.user.email}
            </span>
            <SignOutButton />
          </div>
        </div>
        <div className="mx-auto max-w-6xl px-2 pt-2 sm:px-4 [&_a]:text-zinc-300 [&_a:hover]:text-white [&_a[aria-current=page]]:text-white [&_button]:text-zinc-200">
          <DashboardNav items={NAV} label="Platform console" exact="/admin" />
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">
        {children}
      </main>
    </div>
  );
}
