"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useId, useState } from "react";
import { cn } from "@/lib/utils/cn";

export interface NavItem {
  href: string;
  label: string;
}

/**
 * The dashboard's sections. On a wide screen they are a row of tabs; below
 * 1024 px, where the row would not fit, a menu button names the current
 * section and opens every section as a list, so none hides off-screen.
 */
export function DashboardNav({ items, label = "Dashboard", exact }: { items: NavItem[]; label?: string; /** An item active only on its own path (a section's overview). */ exact?: string }) {
  const pathname = usePathname();
  const menuId = useId();
  const [open, setOpen] = useState(false);
  const isActive = (item: NavItem) => pathname === item.href || (item.href !== exact && pathname.startsWith(`${item.href}/`));
  const current = items.find(isActive);

  return (
    <>
      <nav aria-label={label} className="-mb-px hidden overflow-x-auto lg:block">
        <NavLinks
          items={items}
          isActive={isActive}
          listClassName="flex gap-1 text-sm"
          linkClassName={(active) =>
            cn("inline-flex h-10 items-center border-b-2 px-3 font-medium whitespace-nowrap", active ? "border-accent-600 text-zinc-900" : "border-transparent text-zinc-600 hover:border-zinc-300 hover:text-zinc-900")
          }
        />
      </nav>
      <div className="pb-2 lg:hidden">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpen((value) => !value)}
          className="inline-flex h-10 w-full items-center justify-between gap-2 rounded-md px-3 text-sm font-medium hover:bg-zinc-500/10"
          data-testid="nav-menu-button"
        >
          <span>
            <span className="sr-only">{label} menu, current section: </span>
            {current?.label ?? "Menu"}
          </span>
          <span aria-hidden="true" className="text-xs">
            {open ? "▲" : "▼"} Menu
          </span>
        </button>
        {open ? (
          <nav id={menuId} aria-label={label} className="mt-1">
            <NavLinks
              items={items}
              isActive={isActive}
              onNavigate={() => setOpen(false)}
              listClassName="grid grid-cols-2 gap-1 text-sm sm:grid-cols-3"
              linkClassName={(active) => cn("flex h-10 items-center rounded-md px-3 font-medium", active ? "bg-accent-600/10 text-zinc-900" : "text-zinc-600 hover:bg-zinc-500/10 hover:text-zinc-900")}
            />
          </nav>
        ) : null}
      </div>
    </>
  );
}

/** The sections as links, the current one marked for assistive technology and by its look: the tabs and the phone's menu are this list. */
function NavLinks({
  items,
  isActive,
  onNavigate,
  listClassName,
  linkClassName,
}: {
  items: NavItem[];
  isActive: (item: NavItem) => boolean;
  onNavigate?: () => void;
  listClassName: string;
  linkClassName: (active: boolean) => string;
}) {
  return (
    <ul className={listClassName}>
      {items.map((item) => (
        <li key={item.href}>
          <Link href={item.href} onClick={onNavigate} aria-current={isActive(item) ? "page" : undefined} className={linkClassName(isActive(item))}>
            {item.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}
