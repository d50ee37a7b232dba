import type { ReactNode } from "react";
import { cn } from "@/lib/utils/cn";
import { CopyButton } from "./copy-button";

export interface CodeBlockProps {
  /** The code: shown, and what the copy button copies. */
  code: string;
  /** Rendered instead of `code` when given (e.g. highlighted spans of the same text). */
  children?: ReactNode;
  /** Shown in the header, e.g. "Response". */
  title?: ReactNode;
  /** Shown in the header after the title, e.g. "json". */
  language?: string;
  /** The copy button's accessible name; false hides the button. */
  copyLabel?: string | false;
  /** No header at all (the caller supplies its own, e.g. tabs). */
  bare?: boolean;
  /** Caps the height; the block then scrolls vertically too. */
  maxHeightClass?: string;
  /** Wraps long lines on narrow screens instead of scrolling them out of sight (the copy button still copies the lines as written). */
  wrap?: boolean;
  className?: string;
}

/**
 * Code on a dark surface. It scrolls inside itself, so a long line never
 * widens the page; the scroll area is focusable for keyboard users.
 */
export function CodeBlock({ code, children, title, language, copyLabel = "Copy code", bare = false, maxHeightClass, wrap = false, className }: CodeBlockProps) {
  const showHeader = !bare && (title || language || copyLabel);
  return (
    <div className={cn("min-w-0 overflow-hidden rounded-lg bg-zinc-950 text-zinc-100 ring-1 ring-zinc-900/10", className)}>
      {showHeader ? (
        <div className="flex items-center justify-between gap-3 border-b border-white/10 py-1.5 pr-1.5 pl-4">
          <div className="flex min-w-0 items-baseline gap-2 text-xs">
            {title ? <span className="truncate font-medium text-zinc-200">{title}</span> : null}
            {language ? <span className="font-mono text-zinc-500">{language}</span> : null}
          </div>
          {copyLabel ? <CopyButton value={code} label={copyLabel} tone="dark" /> : null}
        </div>
      ) : null}
      <pre
        tabIndex={0}
        aria-label={typeof title === "string" ? title : language ? `${language} code` : "Code"}
        className={cn(
          "overflow-auto p-4 font-mono text-[13px] leading-relaxed focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent-400",
          maxHeightClass,
          wrap && "max-sm:wrap-anywhere max-sm:whitespace-pre-wrap",
        )}
      >
        <code>{children ?? code}</code>
      </pre>
    </div>
  );
}
