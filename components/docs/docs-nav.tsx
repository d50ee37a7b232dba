"use client";

import { useEffect, useState } from "react";
import { cn } from "@/lib/utils/cn";

export interface NavGroup {
  label: string;
  items: { id: string; label: string; hint?: string }[];
}

// A section counts as being read once its top has passed this far below the viewport's top.
const READING_LINE_PX = 120;

/** Follows the reader: the section whose top last crossed the reading line. */
function useCurrentSection(ids: string[]): string | undefined {
  const [current, setCurrent] = useState<string>();
  const key = ids.join(" ");
  useEffect(() => {
    const sections = key.split(" ").map((id) => document.getElementById(id)).filter((el): el is HTMLElement => el !== null);
    let frame = 0;
    const update = () => {
      frame = 0;
      let found = sections[0]?.id;
      for (const section of sections) if (section.getBoundingClientRect().top <= READING_LINE_PX) found = section.id;
      setCurrent(found);
    };
    const onScroll = () => {
      frame ||= requestAnimationFrame(update);
    };
    update();
    window.addEventListener("scroll", onScroll, { passive: true });
    window.addEventListener("resize", onScroll);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", onScroll);
      window.removeEventListener("resize", onScroll);
    };
  }, [key]);
  return current;
}

/** The table of contents: a sticky sidebar on wide screens. */
export function DocsSidebar({ groups }: { groups: NavGroup[] }) {
  const current = useCurrentSection(groups.flatMap((group) => group.items.map((item) => item.id)));
  return (
    <nav aria-label="On this page" className="flex flex-col gap-6 text-sm">
      {groups.map((group) => (
        <div key={group.label}>
          <p className="px-3 text-xs font-semibold tracking-wide text-zinc-500 uppercase">{group.label}</p>
          <ul className="mt-2 flex flex-col gap-0.5">
            {group.items.map((item) => {
              const active = item.id === current;
              return (
                <li key={item.id}>
                  <a
                    href={`#${item.id}`}
                    aria-current={active ? "location" : undefined}
                    className={cn(
                      "flex items-baseline justify-between gap-2 rounded-md px-3 py-1.5 transition-colors",
                      active ? "bg-accent-50 font-medium text-accent-800" : "text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900",
                    )}
                  >
                    <span>{item.label}</span>
                    {item.hint ? <span className="font-mono text-[11px] text-zinc-400">{item.hint}</span> : null}
                  </a>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}

/** The same contents as a compact list of links, for narrow screens. */
export function DocsCompactNav({ groups }: { groups: NavGroup[] }) {
  return (
    <nav aria-label="On this page" className="rounded-lg border border-zinc-200 bg-white p-4">
      <p className="text-sm font-semibold text-zinc-900">On this page</p>
      <div className="mt-3 flex flex-col gap-3">
        {groups.map((group) => (
          <div key={group.label}>
            <p className="text-xs font-medium text-zinc-500">{group.label}</p>
            <ul className="mt-1.5 flex flex-wrap gap-1.5">
              {group.items.map((item) => (
                <li key={item.id}>
                  <a
                    href={`#${item.id}`}
                    className="inline-flex h-7 items-center rounded-full bg-zinc-100 px-3 text-xs font-medium text-zinc-700 hover:bg-accent-50 hover:text-accent-800"
                  >
                    {item.label}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </nav>
  );
}
