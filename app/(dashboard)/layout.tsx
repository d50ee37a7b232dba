import Link from "next/link";
import type { ReactNode } from "react";
import { LowBalanceBanner } from "@/components/dashboard/low-balance-banner";
import { SuspendedBanner } from "@/components/dashboard/suspended-banner";
import { DashboardNav, type NavItem } from "@/components/dashboard/nav";
import { OrgSwitcher } from "@/components/dashboard/org-switcher";
import { SignOutButton } from "@/components/dashboard/sign-out-button";
import { getDashboard } from "@/lib/platform/session";
import { ROLE_LABELS } from "@/lib/utils/roles";
import { can } from "@/lib/platform/access";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const { user, memberships, current } = await getDashboard();
  const role = current?.role ?? "MEMBER";
  const org = current?.organization;

  const nav: NavItem[] = [
    { href: "/dashboard", label: "Overview" },
    { href: "/keys", label: "API keys" },
    { href: "/usage", label: "Usage" },
    ...(can(role, "billing:manage") ? [{ href: "/billing", label: "Billing" }] : []),
    ...(can(role, "alerts:manage") ? [{ href: "/alerts", label: "Alerts" }] : []),
    { href: "/members", label: "Members" },
    ...(can(role, "audit:view") ? [{ href: "/audit", label: "Audit log" }] : []),
    { href: "/settings", label: "Settings" },
    { href: "/docs", label: "Docs" },
  ];

  return (
    <div className="flex min-h-dvh flex-col">
      <header className="border-b border-zinc-200 bg-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 pt-3 sm:px-6">
          <div className="flex min-w-0 flex-1 items-center gap-3">
            <Link href="/dashboard" aria-label="Dashboard home" className="grid size-8 shrink-0 place-items-center rounded-md bg-accent-600 font-semibold text-white">
              D
            </Link>
            <OrgSwitcher
              currentId={current?.organization.id ?? null}
              options={memberships.map((m) => ({ id: m.organization.id, name: m.organization.name, role: ROLE_LABELS[m.role] }))}
            />
          </div>
          <div className="flex shrink-0 items-center gap-1">
            <span className="hidden max-w-64 truncate text-sm text-zinc-600 lg:inline" title={user.email}>
              {user.email}
            </span>
            <SignOutButton />
          </div>
        </div>
        <div className="mx-auto max-w-6xl px-2 pt-2 sm:px-4">
          <DashboardNav items={nav} />
        </div>
      </header>
      {org?.suspendedAt ? <SuspendedBanner reason={org.suspendedReason} /> : null}
      {org ? <LowBalanceBanner balanceNanos={org.balanceNanos} thresholdNanos={org.lowBalanceThresholdNanos} canBuy={can(role, "billing:manage")} /> : null}
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">
        {children}
      </main>
    </div>
  );
}
