import type { PrismaClient } from "@/lib/db";
import { prismaSqlDriver, type SqlDriver } from "@/lib/db/sql";
import { DatabaseRateLimiter, type RateLimiter } from "@/lib/rate-limit";
import { getAppDatabase } from "@/lib/runtime/database";
import { getAppRateLimiter } from "@/lib/runtime/rate-limiter";
import { UsageEventRecorder } from "@/lib/usage/events";
import { BodyCache } from "./body-cache";
import { KeyCache } from "./key-cache";
import { PriceBook } from "./prices";

/** Everything the API pipeline depends on; tests build their own. */
export interface ApiContext {
  prisma: PrismaClient;
  /** The driver under Prisma, for the hot path's statements. */
  sql: SqlDriver;
  now(): Date;
  keys: KeyCache;
  prices: PriceBook;
  /** Response bodies of data endpoints, dropped when the dataset changes. */
  bodies: BodyCache;
  rateLimiter: RateLimiter;
  /** Requests per minute per client IP on /estimate, which is free. */
  estimateLimitPerMinute: number;
  /** Usage events of refused requests (held through a database outage). */
  usage: UsageEventRecorder;
}

/** `database` is the app's (Prisma and the driver under it), or a Prisma client alone, whose raw queries then carry the driver's statements. */
export function createApiContext(database: PrismaClient | { prisma: PrismaClient; sql: SqlDriver }, overrides: Partial<ApiContext> = {}): ApiContext {
  const { prisma, sql } = "sql" in database ? database : { prisma: database, sql: prismaSqlDriver(database) };
  return {
    prisma,
    sql,
    now: () => new Date(),
    keys: new KeyCache(prisma),
    prices: new PriceBook(prisma),
    bodies: new BodyCache(prisma),
    rateLimiter: new DatabaseRateLimiter(prisma),
    estimateLimitPerMinute: Number(process.env.ESTIMATE_LIMIT_PER_MINUTE ?? 60),
    usage: new UsageEventRecorder(prisma),
    ...overrides,
  };
}

const state = ((globalThis as { __apiContext?: { promise?: Promise<ApiContext> } }).__apiContext ??= {});

/** The application's context: its database, and its shared rate limiter (Redis when REDIS_URL is set). */
export function getApiContext(): Promise<ApiContext> {
  state.promise ??= Promise.all([getAppDatabase(), getAppRateLimiter()]).then(
    ([database, rateLimiter]) => createApiContext(database, { rateLimiter }),
    (error) => {
      state.promise = undefined;
      throw error;
    },
  );
  return state.promise;
}
