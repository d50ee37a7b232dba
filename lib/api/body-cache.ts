import type { DbClient } from "@/lib/db";
import { localDataEpoch, storedDatasetVersion } from "@/lib/data/version";

/**
 * Response bodies of data endpoints, as the exact bytes that are sent and
 * charged, kept in this process so a repeated query costs no database work
 * but its charge. The key holds everything that shapes a body (endpoint,
 * tickers, page, limit, filters, and the UTC day, since windows, effectiveness
 * and expiry move with the date). Every body is dropped when the dataset
 * changes: at once for a load made in this process, and within `checkMs` for
 * one made on another instance (the stored dataset version is read at most
 * that often). Bounded by total bytes, oldest entries out first.
 */
export interface CachedBody {
  bytes: Uint8Array<ArrayBuffer>;
  recordCount: number;
  /** The requested tickers that named no company when the body was built. */
  unknownTickers: string[];
}

const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

export class BodyCache {
  private readonly entries = new Map<string, CachedBody>();
  private readonly building = new Map<string, Promise<CachedBody>>();
  private size = 0;
  /** Counts the clears, so a body built across one is not kept. */
  private generation = 0;
  private seen?: { version: bigint; epoch: number; checkedAt: number };
  private checking?: Promise<void>;

  constructor(
    private readonly db: DbClient,
    private readonly maxBytes = DEFAULT_MAX_BYTES,
    private readonly checkMs = 1000,
  ) {}

  /** The body while the cache is known to be current, or undefined: ask `get`. No promise on the busy path. */
  peek(key: string): CachedBody | undefined {
    const seen = this.seen;
    if (!seen || Date.now() - seen.checkedAt >= this.checkMs || seen.epoch !== localDataEpoch()) return undefined;
    return this.entries.get(key);
  }

  async get(key: string, build: () => Promise<CachedBody>): Promise<CachedBody> {
    await this.dropIfStale();
    const hit = this.entries.get(key);
    if (hit) {
      // Most recently used last, so the oldest are the first out.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const pending = this.building.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const epoch = localDataEpoch();
    const made = build().finally(() => this.building.delete(key));
    this.building.set(key, made);
    const body = await made;
    // A body built while the data changed may be old: it is served, not kept.
    if (generation === this.generation && epoch === localDataEpoch()) this.keep(key, body);
    return body;
  }

  private keep(key: string, body: CachedBody) {
    if (body.bytes.byteLength > this.maxBytes / 16) return;
    this.entries.set(key, body);
    this.size += body.bytes.byteLength;
    for (const [oldest, entry] of this.entries) {
      if (this.size <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.size -= entry.bytes.byteLength;
    }
  }

  private clear() {
    this.entries.clear();
    this.size = 0;
    this.generation++;
  }

  private async dropIfStale(): Promise<void> {
    const now = Date.now();
    if (this.seen && this.seen.epoch !== localDataEpoch()) {
      this.clear();
      this.seen.epoch = localDataEpoch();
    }
    if (this.seen && now - this.seen.checkedAt < this.checkMs) return;
    this.checking ??= (async () => {
      try {
        const epoch = localDataEpoch();
        const version = await storedDatasetVersion(this.db);
        if (!this.seen || this.seen.version !== version || this.seen.epoch !== epoch) this.clear();
        this.seen = { version, epoch, checkedAt: Date.now() };
      } finally {
        this.checking = undefined;
      }
    })();
    await this.checking;
  }
}
