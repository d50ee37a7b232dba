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
  if (redisUrl) return new RedisRateLimiter(new Redis(redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true }));
  return new DatabaseRateLimiter((await getAppDatabase()).prisma);
}
