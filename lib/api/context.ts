import { Redis } from "ioredis";
import type { PrismaClient } from "@/lib/db";
import { getAppDatabase } from "@/lib/db/app";
import { KeyCache } from "./key-cache";
import { PriceBook } from "./prices";
import { DatabaseRateLimiter, RedisRateLimiter, type RateLimiter } from "./rate-limit";

/** Everything the API pipeline depends on; tests build their own. */
export interface ApiContext {
  prisma: PrismaClient;
  now(): Date;
  keys: KeyCache;
  prices: PriceBook;
  rateLimiter: RateLimiter;
  /** Requests per minute per client IP on /estimate, which is free. */
  estimateLimitPerMinute: number;
  /** Keys whose last_used_at was written recently (written at most once a minute). */
  keyTouches: Map<string, number>;
}

export function createApiContext(prisma: PrismaClient, overrides: Partial<ApiContext> = {}): ApiContext {
  return {
    prisma,
    now: () => new Date(),
    keys: new KeyCache(prisma),
    prices: new PriceBook(prisma),
    rateLimiter: new DatabaseRateLimiter(prisma),
    estimateLimitPerMinute: Number(process.env.ESTIMATE_LIMIT_PER_MINUTE ?? 60),
    keyTouches: new Map(),
    ...overrides,
  };
}

const state = ((globalThis as { __apiContext?: { promise?: Promise<ApiContext> } }).__apiContext ??= {});

/** The application's context: its database, and Redis for rate limits when REDIS_URL is set. */
export function getApiContext(): Promise<ApiContext> {
  state.promise ??= getAppDatabase().then(
    (database) => {
      const redisUrl = process.env.REDIS_URL?.trim();
      const rateLimiter = redisUrl
        ? new RedisRateLimiter(new Redis(redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true }))
        : undefined;
      return createApiContext(database.prisma, rateLimiter ? { rateLimiter } : {});
    },
    (error) => {
      state.promise = undefined;
      throw error;
    },
  );
  return state.promise;
}
