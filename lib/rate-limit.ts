import type { Redis } from "ioredis";
import type { DbClient } from "@/lib/db";
import { ServiceUnavailable } from "@/lib/errors";

/**
 * Fixed one-minute windows, counted atomically where every instance sees
 * them: in Redis when REDIS_URL is set, otherwise in the database. A counter
 * is incremented and read in one statement, so concurrent requests can never
 * admit more than the limit in a window.
 */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the current window ends. */
  resetAt: Date;
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Where the counts live: the health check reports Redis as a dependency of its own. */
  readonly backend: "database" | "redis";
  hit(bucket: string, limit: number, now: Date, windowMs?: number): Promise<RateLimitDecision>;
  /** Resolves when the store answers; throws ServiceUnavailable when it does not. */
  ping(): Promise<void>;
}

export const RATE_WINDOW_MS = 60_000;

function decide(count: number, limit: number, windowStart: number, windowMs: number, now: Date): RateLimitDecision {
  const resetAt = new Date(windowStart + windowMs);
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetAt,
    retryAfterSeconds: Math.max(1, Math.ceil((resetAt.getTime() - now.getTime()) / 1000)),
  };
}

export class DatabaseRateLimiter implements RateLimiter {
  readonly backend = "database";
  private hits = 0;
  constructor(private readonly db: DbClient) {}

  async ping(): Promise<void> {
    await this.db.$queryRaw`SELECT 1`;
  }

  async hit(bucket: string, limit: number, now: Date, windowMs = RATE_WINDOW_MS): Promise<RateLimitDecision> {
    const windowStart = Math.floor(now.getTime() / windowMs) * windowMs;
    const rows = await this.db.$queryRaw<{ count: number }[]>`
      INSERT INTO rate_limit_counters (bucket, window_start, count, expires_at)
      VALUES (${bucket}, ${new Date(windowStart)}, 1, ${new Date(windowStart + 2 * windowMs)})
      ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limit_counters.count + 1
      RETURNING count`;
    // Old windows are swept now and then rather than on every request.
    if (++this.hits % 500 === 0) {
      await this.db.$executeRaw`DELETE FROM rate_limit_counters WHERE expires_at < ${now}`;
    }
    return decide(Number(rows[0]!.count), limit, windowStart, windowMs, now);
  }
}

/** Counts one hit and sets the window's expiry with its first: one command, one round trip, atomic in Redis. */
const HIT_SCRIPT = `local count = redis.call("INCR", KEYS[1])
if count == 1 then redis.call("PEXPIRE", KEYS[1], ARGV[1]) end
return count`;

type RedisWithHit = Redis & { rateLimitHit(key: string, expiryMs: number): Promise<number> };

export class RedisRateLimiter implements RateLimiter {
  readonly backend = "redis";
  private readonly redis: RedisWithHit;

  async ping(): Promise<void> {
    try {
      await this.redis.ping();
    } catch (error) {
      throw new ServiceUnavailable("redis", { cause: error });
    }
  }

  constructor(redis: Redis, private readonly prefix = "rl:") {
    // EVALSHA with the script's hash, loaded once per connection.
    if (!("rateLimitHit" in redis)) redis.defineCommand("rateLimitHit", { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis = redis as RedisWithHit;
  }

  /**
   * With Redis down the limit cannot be kept exactly across instances, so
   * the request is refused (503) rather than served without one.
   */
  async hit(bucket: string, limit: number, now: Date, windowMs = RATE_WINDOW_MS): Promise<RateLimitDecision> {
    const windowStart = Math.floor(now.getTime() / windowMs) * windowMs;
    const key = `${this.prefix}${bucket}:${windowStart}`;
    let count: unknown;
    try {
      count = await this.redis.rateLimitHit(key, 2 * windowMs);
    } catch (error) {
      throw new ServiceUnavailable("redis", { cause: error });
    }
    if (typeof count !== "number") throw new ServiceUnavailable("redis", { cause: new Error(`unexpected reply ${String(count)}`) });
    return decide(count, limit, windowStart, windowMs, now);
  }
}
