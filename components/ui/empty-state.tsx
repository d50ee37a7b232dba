import type { ReactNode } from "react";
import { cn } from "@/lib/utils/cn";

export function EmptyState({ title, children, action, className }: { title: string; children?: ReactNode; action?: ReactNode; className?: string }) {
  return (
    <div className={cn("flex flex-col items-center gap-2 px-6 py-12 text-center", className)}>
      <p className="text-base font-semibold text-zinc-900">{title}</p>
      {children ? <div className="max-w-md text-sm text-zinc-600">{children}</div> : null}
      {action ? <div className="mt-3">{action}</div> : null}
    </div>
  );
}
