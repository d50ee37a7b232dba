import { PGlite } from "@electric-sql/pglite";
import pg from "pg";

/**
 * The smallest SQL surface both drivers share, used where Prisma is not
 * (migrations, tests that create databases). Application code uses Prisma.
 */
export interface SqlDriver {
  readonly kind: "pglite" | "postgres";
  /** Runs one parameterised statement. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * The same for a statement run very often: PostgreSQL parses and plans it
   * once per connection under `name` (one name, one text, always).
   */
  prepared<T = Record<string, unknown>>(name: string, sql: string, params: unknown[]): Promise<T[]>;
  /** Runs a script of several statements (no parameters). */
  exec(script: string): Promise<void>;
}

export function pgliteDriver(db: PGlite): SqlDriver {
  return {
    kind: "pglite",
    async query<T>(sql: string, params: unknown[] = []) {
      return (await db.query<T>(sql, params)).rows;
    },
    async prepared<T>(_name: string, sql: string, params: unknown[]) {
      return (await db.query<T>(sql, params)).rows;
    },
    async exec(script: string) {
      await db.exec(script);
    },
  };
}

export function postgresDriver(client: pg.Pool | pg.PoolClient | pg.Client): SqlDriver {
  return {
    kind: "postgres",
    async query<T>(sql: string, params: unknown[] = []) {
      return (await client.query(sql, params)).rows as T[];
    },
    async prepared<T>(name: string, sql: string, params: unknown[]) {
      return (await client.query({ name, text: sql, values: params })).rows as T[];
    },
    async exec(script: string) {
      await client.query(script);
    },
  };
}

/** The same surface over a Prisma client's raw queries, for code that was given only Prisma (some tests and tools). */
export function prismaSqlDriver(prisma: {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}): SqlDriver {
  return {
    kind: "postgres",
    query: <T>(sql: string, params: unknown[] = []) => prisma.$queryRawUnsafe<T[]>(sql, ...params),
    prepared: <T>(_name: string, sql: string, params: unknown[]) => prisma.$queryRawUnsafe<T[]>(sql, ...params),
    async exec(script: string) {
      await prisma.$executeRawUnsafe(script);
    },
  };
}
