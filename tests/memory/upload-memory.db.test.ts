import { execFile } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/lib/auth/accounts";
import { openDatabase, type Database } from "@/lib/db";
import { createScratchDatabase, isPostgres } from "@/tests/support/database";
import { sessionCookie } from "@/tests/support/platform";

/**
 * An upload's memory (issue #32): a 100 MB file through the console's upload
 * route, on PostgreSQL, in a process of its own (tests/memory/upload-child.ts)
 * so that only the upload counts. Before the import read files as streams, a
 * 48 MB file took the server from 1.1 GB to 2.55 GB and it stayed there.
 */
process.env.NEXTAUTH_SECRET ??= "test-secret-for-session-cookies-0123456789";

const MB = 1024 * 1024;
const TICKERS = 1_000;

let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
let database: Database;
let dir: string;

beforeAll(async () => {
  if (!isPostgres()) return;
  scratch = await createScratchDatabase("mem");
  database = await openDatabase({ url: scratch.url, poolSize: 4 });
  dir = await mkdtemp(join(tmpdir(), "upload-memory-"));
}, 120_000);
afterAll(async () => {
  await database?.close();
  await scratch?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Closing prices of TICKERS companies, one a day, until the file passes `size` bytes: the rows it holds. */
async function writePrices(path: string, size: number): Promise<number> {
  const out = createWriteStream(path);
  const write = (text: string) => new Promise<void>((resolve) => (out.write(text) ? resolve() : out.once("drain", () => resolve())));
  await write("ticker,date,close\n");
  let bytes = 0;
  let rows = 0;
  const day = Date.UTC(2000, 0, 3);
  for (let d = 0; bytes < size; d++) {
    const date = new Date(day + d * 86_400_000).toISOString().slice(0, 10);
    const lines: string[] = [];
    for (let t = 0; t < TICKERS; t++) lines.push(`MEM${String(t).padStart(4, "0")},${date},${(1 + ((d * 7 + t) % 5_000) / 100).toFixed(2)}\n`);
    const text = lines.join("");
    bytes += text.length;
    rows += TICKERS;
    await write(text);
  }
  await new Promise<void>((resolve) => out.end(resolve));
  return rows;
}

describe.skipIf(!isPostgres())("an upload's memory", () => {
  it("a 100 MB file loads with the process's peak under 300 MB above where it started, and 30 s later within 50 MB of it", async () => {
    const prisma = database.prisma;
    await prisma.company.createMany({ data: Array.from({ length: TICKERS }, (_, t) => ({ ticker: `MEM${String(t).padStart(4, "0")}`, name: `Memory ${t} Inc.`, exchange: "NASDAQ" })) });
    const admin = await createUser(prisma, { email: "ops@memory.test", password: "an operator password" });
    await prisma.user.update({ where: { id: admin.id }, data: { isPlatformAdmin: true } });
    const { cookie } = await sessionCookie(prisma, admin.id);
    const file = join(dir, "daily-prices.csv");
    const rows = await writePrices(file, 100 * MB - 64 * 1024);
    expect((await stat(file)).size).toBeGreaterThan(99 * MB);

    const { stdout } = await promisify(execFile)(process.execPath, ["--expose-gc", "--import", "tsx", "tests/memory/upload-child.ts"], {
      env: { ...process.env, MEMORY_DATABASE_URL: scratch.url, MEMORY_FILE: file, MEMORY_FILE_NAME: "daily-prices.csv", MEMORY_COOKIE: cookie },
      maxBuffer: 64 * MB,
    });
    const run = JSON.parse(stdout.trim().split("\n").pop()!) as { status: number; answer: { ok: boolean; counts: Record<string, { created: number }> }; loadMs: number; before: number; peak: number; after: number };
    const figures = { rows, seconds: Math.round(run.loadMs / 100) / 10, beforeMB: Math.round(run.before / MB), peakGrowthMB: Math.round((run.peak - run.before) / MB), afterMB: Math.round(run.after / MB) };
    console.info("[upload memory]", JSON.stringify(figures));
    expect(run.status).toBe(200);
    expect(run.answer.ok).toBe(true);
    expect(run.answer.counts.daily_prices?.created).toBe(rows);
    expect(await prisma.dailyPrice.count()).toBe(rows);
    expect(run.peak - run.before).toBeLessThan(300 * MB);
    expect(run.after - run.before).toBeLessThan(50 * MB);
  }, 900_000);
});
