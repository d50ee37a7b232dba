import { formatCount } from "@/lib/utils/format";

/** "850 ms", "14.2 s", "2 min 5 s": how long a load took, never shorter than it was by more than a rounding. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "—";
  if (ms < 1_000) return `${formatCount(Math.round(ms))} ms`;
  if (ms < 60_000) return `${(Math.round(ms / 100) / 10).toFixed(1)} s`;
  const seconds = Math.round(ms / 1_000);
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return rest ? `${formatCount(minutes)} min ${rest} s` : `${formatCount(minutes)} min`;
}

export interface KindCountsView {
  received: number;
  created: number;
  updated: number;
  unchanged: number;
  /** Price and threshold-list records naming a ticker not listed here. */
  skipped?: number;
  /** Records an EDGAR sync removed (the filings no longer give them), or the sample's removal. */
  removed?: number;
}

/** The record kinds in the order of the import format, with their names on the page. */
export const DATA_KINDS = [
  ["companies", "Companies"],
  ["financial_reports", "Financial reports"],
  ["registrations", "Registrations"],
  ["offerings", "Offerings"],
  ["dilution_instruments", "Dilution instruments"],
  ["instrument_states", "Instrument states (history)"],
  ["compliance_deficiencies", "Compliance deficiencies"],
  ["float_snapshots", "Float snapshots"],
  ["reverse_splits", "Reverse splits"],
  ["daily_prices", "Closing prices"],
  ["reg_sho_thresholds", "Reg SHO threshold entries"],
] as const;

export const kindLabel = (kind: string) => DATA_KINDS.find(([k]) => k === kind)?.[1] ?? kind;
