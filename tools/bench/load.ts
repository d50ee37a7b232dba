/**
 * A closed-loop load generator: `concurrency` workers, each starting its next
 * operation as soon as the previous one finished, for a fixed time. Latency is
 * measured per operation with performance.now(); nothing else is timed.
 */

export interface LoadOptions {
  seconds: number;
  concurrency: number;
  /** Stop after this many operations even if time is left (e.g. a pool of prepared events ran out). */
  maxOperations?: number;
}

export interface LoadRun {
  /** Per-operation latencies in ms, in completion order. */
  latencies: number[];
  elapsedMs: number;
}

/** Runs `operation(i)` (i = 0, 1, 2 … across all workers) under load; the first error stops the run and is rethrown. */
export async function runLoad(operation: (i: number) => Promise<void>, options: LoadOptions): Promise<LoadRun> {
  const latencies: number[] = [];
  const limit = options.maxOperations ?? Number.POSITIVE_INFINITY;
  let next = 0;
  let failure: unknown;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;

  async function worker() {
    while (failure === undefined && next < limit && performance.now() < deadline) {
      const i = next++;
      const t0 = performance.now();
      try {
        await operation(i);
      } catch (error) {
        failure ??= error;
        return;
      }
      latencies.push(performance.now() - t0);
    }
  }

  await Promise.all(Array.from({ length: options.concurrency }, worker));
  if (failure !== undefined) throw failure;
  return { latencies, elapsedMs: performance.now() - started };
}

/** Nearest-rank percentile of ascending `sorted` (p in 0..100); NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export interface LoadSummary {
  operations: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function summarize(run: LoadRun): LoadSummary {
  const sorted = [...run.latencies].sort((a, b) => a - b);
  return {
    operations: sorted.length,
    seconds: run.elapsedMs / 1000,
    perSecond: sorted.length / (run.elapsedMs / 1000),
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}
