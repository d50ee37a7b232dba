import type { ReactNode } from "react";
import { Card, CardContent } from "./card";

/** A labelled figure on a card; `note` is a line of small print under it. */
export function Stat({ label, value, note, title, testId }: { label: string; value: ReactNode; note?: ReactNode; title?: string; testId?: string }) {
  return (
    <Card>
      <CardContent>
        <p className="text-sm text-zinc-600">{label}</p>
        <p className="mt-1 text-xl font-semibold break-all text-zinc-900 tabular-nums" title={title} data-testid={testId}>
          {value}
        </p>
        {note ? <p className="mt-1 text-xs break-all text-zinc-500">{note}</p> : null}
      </CardContent>
    </Card>
  );
}
