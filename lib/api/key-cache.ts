import type { DbClient } from "@/lib/db";
import { accessEpoch } from "@/lib/keys/invalidation";
import { parseIpRange, type IpRange } from "@/lib/utils/ip-ranges";

/**
 * What the pipeline needs to know about a key, cached for a second per key
 * hash so a busy client costs no lookup per request. When known keys grow
 * old they are read again together, in one query for all of them, so many
 * busy keys cost one query a second rather than one each. Only hashes are keys
 * of this cache; the full API key never reaches it.
 *
 * A flood of made-up keys would defeat a per-hash cache (every hash is new),
 * so the cache also knows which hashes exist at all: the prefixes of every
 * live key's hash, loaded once and topped up with the keys created since, at
 * most once per `refreshMs`. A hash outside that set is answered "unknown"
 * without a query, so random invalid keys cost a bounded number of queries
 * (one top-up a second), whatever their rate. A key created on another
 * instance is known here at the next top-up, within `refreshMs`.
 */
export interface KeyAccess {
  keyId: string;
  hint: string;
  status: "ACTIVE" | "DISABLED";
  /** A platform administrator disabled the key, with this reason (null otherwise). */
  disabledByPlatform: { reason: string | null } | null;
  /** The customer's choice of endpoints; empty: no narrowing. */
  keyEndpoints: string[];
  /** A platform administrator's restriction, an upper bound on the customer's choice; empty: none. */
  platformEndpoints: string[];
  /** Refused from this instant (ms since the epoch) on; null: never. */
  expiresAtMs: number | null;
  /** Rolled: a newer key replaces this one (the expiry is the grace period's end). */
  rolled: boolean;
  /** Where requests may come from; null: anywhere. */
  allowedIps: IpRange[] | null;
  /** The key has a spend cap of its own, which its charge must check under a lock. */
  hasSpendCap: boolean;
  orgId: string;
  /** A platform administrator suspended the organization: every keyed request is refused. */
  suspended: boolean;
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
/** Hex characters of a hash kept in the set of known keys: 64 bits, so a false "maybe" is as rare as it is harmless. */
const PREFIX_LENGTH = 16;
/** Keys created this long before a top-up are looked for again, for transactions that committed late. */
const TOP_UP_OVERLAP_MS = 60_000;
/** The whole set is read again this often when a miss needs a top-up: a key whose writer's clock was far off is found then. */
const FULL_RELOAD_MS = 5 * 60_000;

const prefixOf = (hash: string) => hash.slice(0, PREFIX_LENGTH);

export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  private known?: { prefixes: Set<string>; toppedUpAt: number; since: Date; epoch: number; loadedAt: number };
  private pending?: Promise<void>;

  constructor(
    private readonly db: DbClient,
    private readonly ttlMs = KEY_CACHE_TTL_MS,
    /** This process's change counter; another instance's cache cannot see it. */
    private readonly epoch: () => number = accessEpoch,
    private readonly refreshMs = KEY_CACHE_TTL_MS,
  ) {}

  /** The cached answer while it is fresh (null: no such key), or undefined: ask `lookup`. No promise on the busy path. */
  peek(keyHash: string, nowMs = Date.now()): KeyAccess | null | undefined {
    const cached = this.entries.get(keyHash);
    return cached && cached.expiresAt > nowMs && cached.epoch === this.epoch() ? cached.value : undefined;
  }

  /**
   * The last answer this cache had for the hash, however old: only to name whose request was refused while the
   * database was down (its usage event), never to serve one.
   */
  lastKnown(keyHash: string): KeyAccess | null {
    return this.entries.get(keyHash)?.value ?? null;
  }

  async lookup(keyHash: string, nowMs = Date.now()): Promise<KeyAccess | null> {
    const cached = this.entries.get(keyHash);
    if (cached && cached.expiresAt > nowMs && cached.epoch === this.epoch()) return cached.value;
    if (cached?.value) {
      // A known key grown old: every known key that is (nearly) as old is read again with it, in one query.
      await this.refreshKnown(nowMs);
      const fresh = this.entries.get(keyHash);
      if (fresh && fresh.expiresAt > nowMs && fresh.epoch === this.epoch()) return fresh.value;
    }
    const epoch = this.epoch();
    const value = (await this.mayExist(keyHash, nowMs)) ? await this.load(keyHash) : null;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(keyHash, { value, expiresAt: nowMs + this.ttlMs, epoch });
    return value;
  }

  private refreshingKnown?: Promise<void>;

  /** Reads again, in one query, the known keys whose entries have expired or expire within half a TTL. */
  private refreshKnown(nowMs: number): Promise<void> {
    this.refreshingKnown ??= (async () => {
      const epoch = this.epoch();
      const due = [...this.entries].filter(([, e]) => e.value && (e.expiresAt <= nowMs + this.ttlMs / 2 || e.epoch !== epoch)).map(([hash]) => hash);
      const found = await this.loadMany(due);
      for (const hash of due) this.entries.set(hash, { value: found.get(hash) ?? null, expiresAt: nowMs + this.ttlMs, epoch });
    })().finally(() => {
      this.refreshingKnown = undefined;
    });
    return this.refreshingKnown;
  }

  /** False only when no live key can have this hash (as of the last top-up). */
  private async mayExist(keyHash: string, nowMs: number): Promise<boolean> {
    const prefix = prefixOf(keyHash);
    // Requests arriving while the set is being read wait for it rather than answer from a stale one.
    if (this.pending) await this.pending;
    if (!this.known) await this.refresh(() => this.loadAll(nowMs));
    if (this.known!.prefixes.has(prefix)) return true;
    // A key made in this process shows at once; one made elsewhere at the next top-up.
    if (nowMs - this.known!.toppedUpAt < this.refreshMs && this.known!.epoch === this.epoch()) return false;
    await this.refresh(() => (nowMs - this.known!.loadedAt >= FULL_RELOAD_MS ? this.loadAll(nowMs) : this.topUp(nowMs)));
    return this.known!.prefixes.has(prefix);
  }

  /** One read of the set at a time; everyone who needs it waits for the same one. */
  private async refresh(read: () => Promise<void>): Promise<void> {
    this.pending ??= read().finally(() => {
      this.pending = undefined;
    });
    await this.pending;
  }

  private async loadAll(nowMs: number): Promise<void> {
    const epoch = this.epoch();
    const rows = await this.db.apiKey.findMany({ where: { deletedAt: null }, select: { keyHash: true } });
    this.known = { prefixes: new Set(rows.map((r) => prefixOf(r.keyHash))), toppedUpAt: nowMs, since: new Date(nowMs), epoch, loadedAt: nowMs };
  }

  private async topUp(nowMs: number): Promise<void> {
    const known = this.known!;
    const epoch = this.epoch();
    const since = new Date(known.since.getTime() - TOP_UP_OVERLAP_MS);
    const rows = await this.db.apiKey.findMany({ where: { createdAt: { gte: since }, deletedAt: null }, select: { keyHash: true } });
    for (const row of rows) known.prefixes.add(prefixOf(row.keyHash));
    Object.assign(known, { toppedUpAt: nowMs, since: new Date(nowMs), epoch });
  }

  private async load(keyHash: string): Promise<KeyAccess | null> {
    return (await this.loadMany([keyHash])).get(keyHash) ?? null;
  }

  private async loadMany(keyHashes: string[]): Promise<Map<string, KeyAccess>> {
    if (keyHashes.length === 0) return new Map();
    const keys = await this.db.apiKey.findMany({
      where: { keyHash: { in: keyHashes }, deletedAt: null, organization: { closedAt: null } },
      select: {
        id: true,
        keyHash: true,
        hint: true,
        status: true,
        disabledByPlatform: true,
        disabledReason: true,
        allowedEndpoints: true,
        platformEndpoints: true,
        expiresAt: true,
        rolledAt: true,
        allowedIps: true,
        dailyCapNanos: true,
        monthlyCapNanos: true,
        orgId: true,
        organization: {
          select: {
            suspendedAt: true,
            plan: { select: { slug: true, allowedEndpoints: true, requestsPerMinute: true, isTrial: true, dailyTickerLimit: true } },
          },
        },
      },
    });
    return new Map(
      keys.map((key) => [
        key.keyHash,
        {
          keyId: key.id,
          hint: key.hint,
          status: key.status,
          disabledByPlatform: key.disabledByPlatform ? { reason: key.disabledReason } : null,
          keyEndpoints: key.allowedEndpoints,
          platformEndpoints: key.platformEndpoints,
          expiresAtMs: key.expiresAt?.getTime() ?? null,
          rolled: key.rolledAt !== null,
          // Stored canonical by the writer; an entry that no longer reads as a range admits nothing (and never opens the list).
          allowedIps: key.allowedIps.length
            ? key.allowedIps.flatMap((text) => {
                const parsed = parseIpRange(text);
                return parsed.ok ? [parsed.range] : [];
              })
            : null,
          hasSpendCap: key.dailyCapNanos !== null || key.monthlyCapNanos !== null,
          orgId: key.orgId,
          suspended: key.organization.suspendedAt !== null,
          plan: key.organization.plan,
        },
      ]),
    );
  }
}
