import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openBenchDatabase, type BenchDatabase } from "./database";
import { percentile, runLoad, summarize } from "./load";
import { BenchRun } from "./scenarios";

describe("the load generator", () => {
  it("takes nearest-rank percentiles", () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 95)).toBe(95);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile(sorted, 100)).toBe(100);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 95)).toBeNaN();
  });

  it("stops at maxOperations, hands out each index once, and summarizes what ran", async () => {
    const seen: number[] = [];
    const run = await runLoad(async (i) => void seen.push(i), { seconds: 10, concurrency: 4, maxOperations: 25 });
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    const summary = summarize(run);
    expect(summary.operations).toBe(25);
    expect(summary.perSecond).toBeGreaterThan(0);
  });

  it("rethrows the first failure instead of reporting a partial run", async () => {
    const run = runLoad(
      async (i) => {
        if (i === 3) throw new Error("boom");
      },
      { seconds: 10, concurrency: 2, maxOperations: 100 },
    );
    await expect(run).rejects.toThrow("boom");
  });
});

describe("every scenario of npm run bench, briefly, on PGlite", () => {
  let db: BenchDatabase;
  let run: BenchRun;
  beforeAll(async () => {
    db = await openBenchDatabase("pglite", { tickerCount: 12 });
    run = new BenchRun(db, { seconds: 0.2, warmupSeconds: 0.05 });
    await run.prepare();
  }, 120_000);
  afterAll(() => db?.close());

  it.each([
    ["paid rating", () => run.paid("rating", 4)],
    ["paid offerings", () => run.paid("offerings", 2)],
    ["free health", () => run.free("health", 2)],
    ["free estimate", () => run.free("estimate", 2)],
    ["refused", () => run.refused(2)],
    ["webhook", () => run.webhook(2)],
  ])("%s: runs requests and every money check holds", async (_, scenario) => {
    const result = await scenario();
    expect(result.summary.operations).toBeGreaterThan(0);
    expect(result.checks.filter((check) => !check.ok)).toEqual([]);
  });
});
