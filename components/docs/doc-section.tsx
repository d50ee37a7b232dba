import type { HTMLAttributes, ReactNode } from "react";
import { cn } from "@/lib/utils/cn";

interface DocSectionProps {
  id: string;
  title: string;
  /** h2 for the guide's sections, h3 for an endpoint inside "Endpoints". */
  level?: 2 | 3;
  /** Something after the title (badges). */
  aside?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** A section with an anchor: its heading carries a "#" link to itself for sharing. */
export function DocSection({ id, title, level = 2, aside, className, children }: DocSectionProps) {
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={cn("scroll-mt-6", className)}>
      <div className="group flex flex-wrap items-center gap-x-3 gap-y-2">
        <Heading
          id={`${id}-title`}
          className={cn("font-semibold tracking-tight text-zinc-950", level === 2 ? "text-2xl" : "text-xl")}
        >
          {title}
        </Heading>
        {aside}
        <a
          href={`#${id}`}
          className="rounded text-zinc-400 opacity-0 group-hover:opacity-100 hover:text-accent-700 focus-visible:opacity-100"
          aria-label={`Link to “${title}”`}
        >
          #
        </a>
      </div>
      {children}
    </section>
  );
}

/** Inline code in running text. */
export function Code({ className, ...props }: HTMLAttributes<HTMLElement>) {
  return (
    <code
      className={cn("rounded bg-zinc-100 px-1 py-0.5 font-mono text-[0.875em] break-words text-zinc-800 ring-1 ring-zinc-200/70 ring-inset", className)}
      {...props}
    />
  );
}

/** Running text of the guide. */
export function Prose({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("mt-4 flex max-w-3xl flex-col gap-3 text-[15px] leading-7 text-zinc-700", className)} {...props} />;
}

/** A simple bordered table that scrolls inside itself on narrow screens. */
export function DocTable({
  caption,
  head,
  wide = false,
  className,
  children,
}: {
  caption: string;
  head: ReactNode[];
  wide?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div
      className={cn("mt-5 overflow-x-auto rounded-lg border border-zinc-200 bg-white", wide ? "max-w-4xl" : "max-w-3xl", className)}
      role="region"
      aria-label={caption}
      tabIndex={0}
    >
      <table className="w-full border-collapse text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-zinc-200 bg-zinc-50 text-xs font-medium text-zinc-600">
          <tr>
            {head.map((cell, index) => (
              <th key={index} scope="col" className="px-4 py-2.5 whitespace-nowrap">
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100 align-top">{children}</tbody>
      </table>
    </div>
  );
}

export const TD = "px-4 py-3 text-zinc-700";
