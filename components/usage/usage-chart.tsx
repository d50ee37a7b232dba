import { formatMoney } from "@/lib/money";
import { formatBytes, formatCount } from "@/lib/utils/format";

export type UsageMetric = "cost" | "requests" | "bytes";

export interface ChartDay {
  day: string;
  requests: number;
  bytes: number;
  costNanos: bigint;
}

const value = (day: ChartDay, metric: UsageMetric) => (metric === "cost" ? Number(day.costNanos) : metric === "bytes" ? day.bytes : day.requests);

export function formatMetric(day: ChartDay, metric: UsageMetric): string {
  if (metric === "cost") return formatMoney(day.costNanos);
  if (metric === "bytes") return formatBytes(day.bytes);
  return `${formatCount(day.requests)} request${day.requests === 1 ? "" : "s"}`;
}

/**
 * Bars per day, drawn on the server as SVG (no chart library, no script).
 * Each bar has a tooltip; the table under the chart holds the same numbers
 * for screen readers and for copying.
 */
export function UsageChart({ days, metric }: { days: ChartDay[]; metric: UsageMetric }) {
  const width = 720;
  const height = 180;
  const max = Math.max(0, ...days.map((d) => value(d, metric)));
  const slot = width / Math.max(days.length, 1);
  const barWidth = Math.max(1, slot * 0.7);
  const peak = days.find((d) => value(d, metric) === max);
  return (
    <figure className="flex flex-col gap-2">
      <svg viewBox={`0 0 ${width} ${height + 20}`} className="h-48 w-full" role="img" aria-label={`${metric} per day, ${days[0]?.day} to ${days.at(-1)?.day}`} preserveAspectRatio="none">
        <line x1="0" y1={height} x2={width} y2={height} className="stroke-zinc-300" strokeWidth="1" />
        {days.map((day, index) => {
          const v = value(day, metric);
          const barHeight = max === 0 ? 0 : Math.max(v > 0 ? 2 : 0, (v / max) * (height - 8));
          return (
            <rect key={day.day} x={index * slot + (slot - barWidth) / 2} y={height - barHeight} width={barWidth} height={barHeight} rx="1.5" className="fill-accent-500 hover:fill-accent-700">
              <title>{`${day.day}: ${formatMetric(day, metric)}`}</title>
            </rect>
          );
        })}
      </svg>
      {/* Dates never wrap; on a phone the peak takes a line of its own under them. */}
      <figcaption className="flex flex-wrap justify-between gap-x-4 gap-y-1 text-xs text-zinc-500">
        <span className="whitespace-nowrap" data-testid="chart-first-day">
          {days[0]?.day}
        </span>
        <span className="order-last w-full text-center sm:order-none sm:w-auto">{max === 0 ? "No usage in this range" : `Peak ${formatMetric(peak!, metric)} on ${peak!.day}`}</span>
        <span className="whitespace-nowrap" data-testid="chart-last-day">
          {days.at(-1)?.day}
        </span>
      </figcaption>
    </figure>
  );
}
