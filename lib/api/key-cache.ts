import type { DbClient } from "@/lib/db";
import { accessEpoch } from "@/lib/keys/invalidation";

/**
 * What the pipeline needs to know about a key, cached for a second per key
 * hash so a busy client costs no lookup per request. Only hashes are keys of
 * this cache; the full API key never reaches it.
 */
export interface KeyAccess {
  keyId: string;
  hint: string;
  status: "ACTIVE" | "DISABLED";
  keyEndpoints: string[];
  orgId: string;
  plan: {
    slug: string;
    allowedEndpoints: string[];
    requestsPerMinute: number;
    isTrial: boolean;
    dailyTickerLimit: number | null;
  };
}

interface Entry {
  value: KeyAccess | null;
  expiresAt: number;
  epoch: number;
}

export const KEY_CACHE_TTL_MS = 1000;
const MAX_ENTRIES = 10_000;

export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  constructor(
    private readonly db: DbClient,
    private readonly ttlMs = KEY_CACHE_TTL_MS,
    /** This process's change counter; another instance's cache cannot see it. */
    private readonly epoch: () => number = accessEpoch,
  ) {}

  async lookup(keyHash: string, nowMs = Date.now()): Promise<KeyAccess | null> {
    const cached = this.entries.get(keyHash);
    if (cached && cached.expiresAt > nowMs && cached.epoch === this.epoch()) return cached.value;
    const epoch = this.epoch();
    const key = await this.db.apiKey.findFirst({
      where: { keyHash, deletedAt: null },
      select: {
        id: true,
        hint: true,
        status: true,
        allowedEndpoints: true,
        orgId: true,
        organization: {
          select: {
            plan: { select: { slug: true, allowedEndpoints: true, requestsPerMinute: true, isTrial: true, dailyTickerLimit: true } },
          },
        },
      },
    });
    const value: KeyAccess | null = key && {
      keyId: key.id,
      hint: key.hint,
      status: key.status,
      keyEndpoints: key.allowedEndpoints,
      orgId: key.orgId,
      plan: key.organization.plan,
    };
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(keyHash, { value, expiresAt: nowMs + this.ttlMs, epoch });
    return value;
  }
}
