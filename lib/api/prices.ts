import type { DbClient } from "@/lib/db";
import { accessEpoch } from "@/lib/keys/invalidation";
import { ENDPOINTS, type EndpointName } from "@/lib/catalog";

/**
 * Price per GB of each endpoint at a moment: the latest price change that had
 * taken effect by then, else the catalog's default. The whole schedule (a few
 * rows per endpoint) is read at most once a second, so a change made on any
 * instance reaches every instance within that second, and a change scheduled
 * for later takes effect at its moment without a reload.
 */
interface Change {
  effectiveAtMs: number;
  pricePerGbNanos: bigint;
}

function priceAt(changes: Change[], endpoint: EndpointName, atMs: number): bigint {
  let price = ENDPOINTS[endpoint].defaultPricePerGbNanos;
  for (const change of changes) {
    if (change.effectiveAtMs > atMs) break;
    price = change.pricePerGbNanos;
  }
  return price;
}

export class PriceBook {
  private cache?: { schedule: Map<string, Change[]>; expiresAt: number; epoch: number };
  constructor(private readonly db: DbClient, private readonly ttlMs = 1000) {}

  /** The price from a fresh schedule, or undefined: ask `pricePerGbNanos`. */
  peek(endpoint: EndpointName, atMs = Date.now()): bigint | undefined {
    const cache = this.cache;
    if (!cache || cache.expiresAt <= Date.now() || cache.epoch !== accessEpoch()) return undefined;
    return priceAt(cache.schedule.get(endpoint) ?? [], endpoint, atMs);
  }

  async pricePerGbNanos(endpoint: EndpointName, atMs = Date.now()): Promise<bigint> {
    return priceAt((await this.schedule()).get(endpoint) ?? [], endpoint, atMs);
  }

  private async schedule(): Promise<Map<string, Change[]>> {
    const wallMs = Date.now();
    if (!this.cache || this.cache.expiresAt <= wallMs || this.cache.epoch !== accessEpoch()) {
      const epoch = accessEpoch();
      const rows = await this.db.priceChange.findMany({ orderBy: [{ endpoint: "asc" }, { effectiveAt: "asc" }] });
      const schedule = new Map<string, Change[]>();
      for (const row of rows) {
        const list = schedule.get(row.endpoint) ?? [];
        list.push({ effectiveAtMs: row.effectiveAt.getTime(), pricePerGbNanos: row.pricePerGbNanos });
        schedule.set(row.endpoint, list);
      }
      this.cache = { schedule, expiresAt: wallMs + this.ttlMs, epoch };
    }
    return this.cache.schedule;
  }
}
