import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from "react";
import { cn } from "@/lib/utils/cn";

/**
 * Below `md` a stacked table shows each row as a card: one line per cell,
 * its column's name (the cell's `data-label`) on the left, so nothing hides
 * off to the side of a phone's screen. The roles keep it a table for screen
 * readers whatever its CSS display.
 */
const STACKED = cn(
  "max-md:block max-md:[&_thead]:sr-only max-md:[&_tbody]:block max-md:[&_tfoot]:block",
  "max-md:[&_tr]:block max-md:[&_tr]:py-2",
  "max-md:[&_td]:flex max-md:[&_td]:min-w-0 max-md:[&_td]:items-baseline max-md:[&_td]:justify-between max-md:[&_td]:gap-4 max-md:[&_td]:py-1 max-md:[&_td]:text-right",
  "max-md:[&_td]:before:shrink-0 max-md:[&_td]:before:text-left max-md:[&_td]:before:text-xs max-md:[&_td]:before:font-medium max-md:[&_td]:before:text-zinc-500",
  "max-md:[&_td]:before:content-[attr(data-label)] max-md:[&_td:empty]:hidden",
);

/** A table that scrolls sideways inside its card on narrow screens instead of widening the page; `stacked` turns its rows into cards there instead. */
export function Table({ className, caption, stacked, ...props }: HTMLAttributes<HTMLTableElement> & { caption?: string; stacked?: boolean }) {
  return (
    // relative: the sr-only caption is positioned; without it, it escapes the scroll box and widens the page.
    <div className="relative w-full overflow-x-auto" tabIndex={0} role="region" aria-label={caption ?? "Table"}>
      <table role={stacked ? "table" : undefined} className={cn("w-full border-collapse text-left text-sm", stacked && STACKED, className)} {...props}>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        {props.children}
      </table>
    </div>
  );
}

export function THead({ className, ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  return <thead className={cn("border-b border-zinc-200 bg-zinc-50 text-xs font-medium tracking-wide text-zinc-600 uppercase", className)} {...props} />;
}

export function TBody({ className, ...props }: HTMLAttributes<HTMLTableSectionElement>) {
  return <tbody className={cn("divide-y divide-zinc-100", className)} {...props} />;
}

export function TR({ className, ...props }: HTMLAttributes<HTMLTableRowElement>) {
  return <tr className={cn("align-top", className)} {...props} />;
}

export function TH({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={cn("px-4 py-2.5 whitespace-nowrap", className)} {...props} />;
}

export function TD({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn("px-4 py-3 text-zinc-800", className)} {...props} />;
}
