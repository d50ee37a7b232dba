"use client";

import { useId, useRef, useState, useSyncExternalStore, type KeyboardEvent, type ReactNode } from "react";
import { cn } from "@/lib/utils/cn";

export interface TabItem {
  id: string;
  label: ReactNode;
  content: ReactNode;
  /** Shown at the end of the tab bar while this tab is selected (e.g. its copy button). */
  actions?: ReactNode;
}

export interface TabsProps {
  items: TabItem[];
  /** Accessible name of the tab list. */
  label: string;
  defaultId?: string;
  /**
   * Tabs with the same key share their selection across the page and visits
   * (remembered in localStorage): pick Python once, see Python everywhere.
   */
  syncKey?: string;
  tone?: "light" | "dark";
  className?: string;
}

const TONES = {
  light: {
    bar: "border-b border-zinc-200",
    tab: "text-zinc-600 hover:text-zinc-900 aria-selected:border-accent-600 aria-selected:text-zinc-950",
  },
  dark: {
    bar: "border-b border-white/10 bg-zinc-900",
    tab: "text-zinc-400 hover:text-zinc-100 aria-selected:border-accent-400 aria-selected:text-white focus-visible:outline-accent-400",
  },
};

/**
 * WAI-ARIA tabs: one tab stop for the list, arrow keys (and Home / End) move
 * between tabs and select them. Every panel is rendered; the others are hidden.
 */
export function Tabs({ items, label, defaultId, syncKey, tone = "light", className }: TabsProps) {
  const baseId = useId();
  const [localId, setLocalId] = useState(defaultId ?? items[0]?.id);
  const sharedId = useSyncExternalStore(subscribe, () => (syncKey ? readShared(syncKey) : null), () => null);
  const tabRefs = useRef(new Map<string, HTMLButtonElement>());

  const has = (id: string | null | undefined): id is string => items.some((item) => item.id === id);
  const activeId = has(sharedId) ? sharedId : has(localId) ? localId : items[0]?.id;
  const active = items.find((item) => item.id === activeId);

  function select(id: string) {
    setLocalId(id);
    if (syncKey) writeShared(syncKey, id);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = items.findIndex((item) => item.id === activeId);
    const next = {
      ArrowRight: (index + 1) % items.length,
      ArrowLeft: (index - 1 + items.length) % items.length,
      Home: 0,
      End: items.length - 1,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const item = items[next]!;
    select(item.id);
    tabRefs.current.get(item.id)?.focus();
  }

  const tabId = (id: string) => `${baseId}-tab-${id}`;
  const panelId = (id: string) => `${baseId}-panel-${id}`;
  const styles = TONES[tone];

  return (
    <div className={cn("min-w-0", className)}>
      <div className={cn("flex items-center justify-between gap-2 pr-1.5", styles.bar)}>
        <div role="tablist" aria-label={label} onKeyDown={onKeyDown} className="flex min-w-0 gap-1 overflow-x-auto px-2">
          {items.map((item) => {
            const selected = item.id === activeId;
            return (
              <button
                key={item.id}
                ref={(node) => {
                  if (node) tabRefs.current.set(item.id, node);
                  else tabRefs.current.delete(item.id);
                }}
                type="button"
                role="tab"
                id={tabId(item.id)}
                aria-selected={selected}
                aria-controls={panelId(item.id)}
                tabIndex={selected ? 0 : -1}
                onClick={() => select(item.id)}
                className={cn(
                  "-mb-px shrink-0 border-b-2 border-transparent px-2.5 py-2 text-sm font-medium whitespace-nowrap transition-colors",
                  "focus-visible:outline-2 focus-visible:-outline-offset-2",
                  styles.tab,
                )}
              >
                {item.label}
              </button>
            );
          })}
        </div>
        {active?.actions ? <div className="flex shrink-0 items-center">{active.actions}</div> : null}
      </div>
      {items.map((item) => (
        <div key={item.id} role="tabpanel" id={panelId(item.id)} aria-labelledby={tabId(item.id)} hidden={item.id !== activeId}>
          {item.content}
        </div>
      ))}
    </div>
  );
}

// The shared selections: in memory (so they work where storage is blocked)
// and in localStorage (so they outlive the visit and reach other tabs).
const STORAGE_PREFIX = "tabs:";
const shared = new Map<string, string>();
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key?.startsWith(STORAGE_PREFIX) && event.newValue) {
      shared.set(event.key.slice(STORAGE_PREFIX.length), event.newValue);
      listener();
    }
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

function readShared(key: string): string | null {
  if (!shared.has(key)) {
    try {
      const stored = window.localStorage.getItem(STORAGE_PREFIX + key);
      if (stored) shared.set(key, stored);
    } catch {
      // storage blocked: memory only
    }
  }
  return shared.get(key) ?? null;
}

function writeShared(key: string, id: string) {
  shared.set(key, id);
  try {
    window.localStorage.setItem(STORAGE_PREFIX + key, id);
  } catch {
    // storage blocked or full: memory only
  }
  listeners.forEach((listener) => listener());
}
