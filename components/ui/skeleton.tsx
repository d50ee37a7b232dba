import { cn } from "@/lib/utils/cn";

/** A grey placeholder shown while a page's data loads. */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn("animate-pulse rounded-md bg-zinc-200/70", className)} />;
}
