"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { cn } from "@/lib/utils/cn";

export interface NavItem {
  href: string;
  label: string;
}

/**
 * The dashboard's sections. On narrow screens the row scrolls sideways inside
 * itself; a fade and an arrow at either edge show that there is more.
 */
export function DashboardNav({ items, label = "Dashboard", exact }: { items: NavItem[]; label?: string; /** An item active only on its own path (a section's overview). */ exact?: string }) {
  const pathname = usePathname();
  const navRef = useRef<HTMLElement>(null);
  const [more, setMore] = useState({ before: false, after: false });

  const measure = useCallback(() => {
    const nav = navRef.current;
    if (!nav) return;
    setMore({ before: nav.scrollLeft > 2, after: nav.scrollLeft + nav.clientWidth < nav.scrollWidth - 2 });
  }, []);

  // On a phone the row scrolls; keep the current section in view.
  useEffect(() => {
    navRef.current?.querySelector('[aria-current="page"]')?.scrollIntoView({ block: "nearest", inline: "nearest" });
    measure();
  }, [pathname, measure]);

  useEffect(() => {
    const observer = new ResizeObserver(measure);
    if (navRef.current) observer.observe(navRef.current);
    return () => observer.disconnect();
  }, [measure]);

  return (
    <div className="relative">
      <nav ref={navRef} aria-label={label} className="-mb-px overflow-x-auto [scrollbar-width:none]" onScroll={measure}>
        <ul className="flex gap-1 text-sm">
          {items.map((item) => {
            const active = pathname === item.href || (item.href !== exact && pathname.startsWith(`${item.href}/`));
            return (
              <li key={item.href}>
                <Link
                  href={item.href}
                  aria-current={active ? "page" : undefined}
                  className={cn(
                    "inline-flex h-10 items-center border-b-2 px-3 font-medium whitespace-nowrap",
                    active ? "border-accent-600 text-zinc-900" : "border-transparent text-zinc-600 hover:border-zinc-300 hover:text-zinc-900",
                  )}
                >
                  {item.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      {more.before ? <ScrollHint side="before" /> : null}
      {more.after ? <ScrollHint side="after" /> : null}
    </div>
  );
}

function ScrollHint({ side }: { side: "before" | "after" }) {
  return (
    <div
      aria-hidden="true"
      data-testid={`nav-more-${side}`}
      className={cn(
        "pointer-events-none absolute inset-y-0 flex w-10 items-center text-zinc-500",
        side === "before" ? "left-0 justify-start bg-gradient-to-r from-white via-white/80 to-transparent" : "right-0 justify-end bg-gradient-to-l from-white via-white/80 to-transparent",
      )}
    >
      <span className="text-base leading-none">{side === "before" ? "‹" : "›"}</span>
    </div>
  );
}
