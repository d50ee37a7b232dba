/**
 * The process whose memory tests/memory/upload-memory.db.test.ts measures: it
 * sends one data file through the console's upload route (saved to a temporary
 * file, read as a stream, written to PostgreSQL) and reports its resident
 * memory before, at its peak during, and 30 s after the load, as JSON on
 * stdout. A process of its own, so nothing else the test runner holds counts.
 */
import { createReadStream } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { openDatabase } from "@/lib/db";
import { uploadDataRoute } from "@/lib/platform/admin/data";

const { MEMORY_DATABASE_URL, MEMORY_FILE, MEMORY_FILE_NAME, MEMORY_COOKIE, MEMORY_SETTLE_MS } = process.env;

/** Resident memory and its high-water mark, from the kernel (bytes). */
async function memory(): Promise<{ rss: number; peak: number }> {
  const status = await readFile("/proc/self/status", "utf8");
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)![1]) * 1024;
  return { rss: kib("VmRSS"), peak: kib("VmHWM") };
}

const database = await openDatabase({ url: MEMORY_DATABASE_URL!, poolSize: 4 });
const route = () => Promise.resolve({ prisma: database.prisma });
// A first small load, so the route's code and the database connections are warm before the measure starts.
const warm = await uploadDataRoute(request(Readable.toWeb(Readable.from([Buffer.from("ticker,date,close\n")])) as ReadableStream<Uint8Array>), route);
await warm.text();
globalThis.gc?.();
await new Promise((resolve) => setTimeout(resolve, 1_000));
// The high-water mark starts again from the current size (Linux: "5" to clear_refs).
await writeFile("/proc/self/clear_refs", "5");
const before = await memory();

const started = performance.now();
const response = await uploadDataRoute(request(Readable.toWeb(createReadStream(MEMORY_FILE!, { highWaterMark: 256 * 1024 })) as ReadableStream<Uint8Array>), route);
const answer = (await response.json()) as unknown;
const loadMs = performance.now() - started;
const during = await memory();

await new Promise((resolve) => setTimeout(resolve, Number(MEMORY_SETTLE_MS ?? 30_000)));
const after = await memory();
await database.close();
process.stdout.write(`${JSON.stringify({ status: response.status, answer, loadMs, before: before.rss, peak: during.peak, after: after.rss })}\n`);

function request(body: ReadableStream<Uint8Array>): Request {
  const headers = new Headers({ host: "app.test", origin: "http://app.test", cookie: MEMORY_COOKIE!, "x-file-name": encodeURIComponent(MEMORY_FILE_NAME!) });
  const init: RequestInit & { duplex: "half" } = { method: "POST", headers, body, duplex: "half" };
  return new Request("http://app.test/admin/data/upload?dry_run=0", init);
}
