import type { DbClient } from "@/lib/db";
import { accessEpoch } from "@/lib/keys/invalidation";
import { ENDPOINTS, type EndpointName } from "@/lib/catalog";

/** Price per GB of each endpoint: the catalog's default unless an administrator set one. */
export class PriceBook {
  private cache?: { prices: Map<string, bigint>; expiresAt: number; epoch: number };
  constructor(private readonly db: DbClient, private readonly ttlMs = 1000) {}

  async pricePerGbNanos(endpoint: EndpointName, nowMs = Date.now()): Promise<bigint> {
    if (!this.cache || this.cache.expiresAt <= nowMs || this.cache.epoch !== accessEpoch()) {
      const epoch = accessEpoch();
      const rows = await this.db.endpointPrice.findMany();
      this.cache = { prices: new Map(rows.map((r) => [r.endpoint, r.pricePerGbNanos])), expiresAt: nowMs + this.ttlMs, epoch };
    }
    return this.cache.prices.get(endpoint) ?? ENDPOINTS[endpoint].defaultPricePerGbNanos;
  }
}
