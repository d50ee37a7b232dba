import { Redis } from "ioredis";
import { DatabaseRateLimiter, RedisRateLimiter, type RateLimiter } from "@/lib/rate-limit";
import { getAppDatabase } from "./database";

/**
 * The process's one rate limiter, shared by the API (per-organization
 * limits, /estimate) and the platform (sign-in, sign-up): in Redis when
 * REDIS_URL is set, so every instance counts in the same windows, otherwise
 * in the application's database.
 */
const state = ((globalThis as { __appRateLimiter?: { promise?: Promise<RateLimiter> } }).__appRateLimiter ??= {});

export function getAppRateLimiter(): Promise<RateLimiter> {
  state.promise ??= openRateLimiter().catch((error) => {
    state.promise = undefined;
    throw error;
  });
  return state.promise;
}

async function openRateLimiter(): Promise<RateLimiter> {
  const redisUrl = process.env.REDIS_URL?.trim();
  if (redisUrl) return new RedisRateLimiter(connectRedis(redisUrl));
  return new DatabaseRateLimiter((await getAppDatabase()).prisma);
}

/**
 * A Redis client that fails fast while the server is away (no offline queue:
 * a request gets its 503 at once instead of waiting), reconnects on its own,
 * and reports an outage once and its end once, rather than an unhandled error event per attempt.
 */
export function connectRedis(url: string, log: (line: string) => void = console.warn): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    // A Redis that hangs (paused, partitioned) fails the request rather than holding it.
    commandTimeout: 1000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  let down = false;
  redis.on("error", (error: Error) => {
    if (!down) log(`[redis] unavailable: ${error.message}; keyed requests answer 503 until it is back`);
    down = true;
  });
  redis.on("ready", () => {
    if (down) log("[redis] back");
    down = false;
  });
  return redis;
}
