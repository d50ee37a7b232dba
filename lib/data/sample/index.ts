/**
 * The sample dataset: fictional companies with realistic dilution histories,
 * generated deterministically (same arguments → deep-equal output) from a
 * seeded PRNG. Every company is labelled: `is_sample: true` and a name ending
 * in " (Sample)". Accession numbers use filer ids starting with 9 (no real SEC
 * filer has one), so sample rows never collide with imported real filings.
 *
 * The output is an import file's content (`Dataset`), loaded by the same
 * pipeline as real data (`importDataset` / `loadSampleData` in ../import).
 *
 * Tickers are stable under `tickerCount`: the first N companies of a larger
 * dataset are the N companies of a smaller one (same seed and anchor date).
 * The showcase companies (SAMPLE_SHOWCASE) come first.
 *
 * The parts: rng.ts (the seeded PRNG), plans.ts (the showcase companies and
 * the random plans), builder.ts (one company's records from its plan), and
 * days.ts and amounts.ts (the day numbers and amounts they share).
 */
import { emptyDataset, type Dataset } from "../import/schema";
import { CompanyBuilder } from "./builder";
import { dayOf } from "./days";
import { randomPlan, SAMPLE_SHOWCASE, showcasePlans } from "./plans";
import { mix, Rng } from "./rng";

export { SAMPLE_SHOWCASE, SAMPLE_SHOWCASE_COUNTS } from "./plans";

export const SAMPLE_ANCHOR_DATE = "2026-11-01";
export const SAMPLE_DEFAULT_SEED = 1;
export const SAMPLE_DEFAULT_TICKER_COUNT = 240;

export interface SampleOptions {
  seed?: number;
  /** Number of companies, showcases included (default 240). */
  tickerCount?: number;
  /** "Today" of the dataset, "YYYY-MM-DD" (default SAMPLE_ANCHOR_DATE). */
  anchorDate?: string;
}

export function generateSampleDataset(options: SampleOptions = {}): Dataset {
  const seed = options.seed ?? SAMPLE_DEFAULT_SEED;
  const count = options.tickerCount ?? SAMPLE_DEFAULT_TICKER_COUNT;
  const anchor = dayOf(options.anchorDate ?? SAMPLE_ANCHOR_DATE);
  if (!Number.isInteger(count) || count < 0) throw new Error("tickerCount must be a whole number ≥ 0");
  if (!Number.isInteger(seed)) throw new Error("seed must be an integer");

  const tickers = generatedTickers(seed, count);
  const dataset: Dataset = emptyDataset();
  const showcases = showcasePlans();
  tickers.forEach((ticker, index) => {
    const rng = new Rng(mix(seed, index));
    const plan = index < showcases.length ? showcases[index]!(rng) : randomPlan(rng);
    new CompanyBuilder(rng, anchor, index, ticker, plan, dataset).build();
  });
  return dataset;
}

/** The tickers of a dataset: the showcases, then random 3–5 letter symbols. */
export function generatedTickers(seed: number, count: number): string[] {
  const fixed = Object.values(SAMPLE_SHOWCASE) as string[];
  const tickers = fixed.slice(0, count);
  const seen = new Set(fixed);
  const rng = new Rng(mix(seed, 0x7fffffff));
  while (tickers.length < count) {
    const length = rng.weighted<number>([
      [3, 3],
      [4, 6],
      [5, 1],
    ]);
    let t = "";
    for (let i = 0; i < length; i++) t += String.fromCharCode(65 + rng.int(0, 25));
    if (seen.has(t)) continue;
    seen.add(t);
    tickers.push(t);
  }
  return tickers;
}
