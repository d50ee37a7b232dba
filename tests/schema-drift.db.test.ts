/**
 * schema.prisma is the source of truth; prisma/migrations is hand-written SQL.
 * These tests prove the two describe the same database (tables, columns, types,
 * nullability, defaults, keys, indexes, foreign keys, enums), that the
 * comparison really catches drift, and that the migrator records migrations
 * the way `prisma migrate deploy` does.
 *
 * Runs on PGlite (project "pglite") and on PostgreSQL (project "postgres").
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { migrate, readMigrations, type Migration } from "@/lib/db/migrate";
import { pgliteDriver, postgresDriver, type SqlDriver } from "@/lib/db/sql";
import { $Enums, Prisma } from "@/lib/generated/prisma/client";
import { createScratchDatabase, isPostgres, openTestDatabase } from "./support/database";
import {
  diffShapes,
  expectedShape,
  introspect,
  normalizeSqlExpression,
  parsePrismaSchema,
  prismaConstraintName,
  type DatabaseShape,
  type PrismaSchema,
} from "./support/schema-model";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SCHEMA_FILE = path.join(ROOT, "prisma", "schema.prisma");
const MIGRATIONS_DIR = path.join(ROOT, "prisma", "migrations");

/** A database with nothing in it, for applying migrations of our own choosing. */
async function openEmptyDatabase(): Promise<{ sql: SqlDriver; close(): Promise<void> }> {
  if (!isPostgres()) {
    const db = await PGlite.create();
    return { sql: pgliteDriver(db), close: () => db.close() };
  }
  const scratch = await createScratchDatabase("t_drift");
  const client = new pg.Client({ connectionString: scratch.url });
  await client.connect();
  return {
    sql: postgresDriver(client),
    async close() {
      await client.end();
      await scratch.drop();
    },
  };
}

/** Replaces text that must occur exactly once, so an alteration never silently misses. */
function replaceOnce(sql: string, from: string, to: string): string {
  const count = sql.split(from).length - 1;
  if (count !== 1) throw new Error(`expected exactly one occurrence of ${JSON.stringify(from)}, found ${count}`);
  return sql.replace(from, () => to);
}

function withSql(migration: Migration, sql: string): Migration {
  return { ...migration, sql, checksum: createHash("sha256").update(sql).digest("hex") };
}

function migrationDirectories(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((name) => statSync(path.join(MIGRATIONS_DIR, name)).isDirectory())
    .sort();
}

let schema: PrismaSchema;
let expected: DatabaseShape;

beforeAll(() => {
  schema = parsePrismaSchema(readFileSync(SCHEMA_FILE, "utf8"));
  expected = expectedShape(schema);
});

describe("reading schema.prisma", () => {
  it("finds every model, scalar field and enum value the generated Prisma client knows", () => {
    // Prisma's own parser produced the client; ours must see the same models and fields.
    // (A difference can also mean a stale client: run `node scripts/prisma-generate.mjs`.)
    const stale = "parser and generated client disagree (regenerate the client if schema.prisma changed)";
    expect(schema.models.map((m) => m.name).sort(), stale).toEqual(Object.values(Prisma.ModelName).sort());
    const fieldEnums = Prisma as unknown as Record<string, Record<string, string> | undefined>;
    for (const model of schema.models) {
      const modelNames = new Set(schema.models.map((m) => m.name));
      const scalars = model.fields.filter((f) => !modelNames.has(f.type)).map((f) => f.name);
      expect(scalars, `${model.name}: ${stale}`).toEqual(Object.values(fieldEnums[`${model.name}ScalarFieldEnum`] ?? {}));
    }
    const clientEnums = $Enums as unknown as Record<string, Record<string, string>>;
    expect(schema.enums.map((e) => e.name).sort(), stale).toEqual(Object.keys(clientEnums).sort());
    for (const e of schema.enums) expect(e.values.map((v) => v.name), `${e.name}: ${stale}`).toEqual(Object.values(clientEnums[e.name]!));
  });

  it("turns the schema into the structure Prisma Migrate would create", () => {
    // Spot checks, so that a parser and an introspection wrong in the same way cannot agree.
    expect(expected.tables.size).toBe(schema.models.length);
    const column = (table: string, name: string) => expected.tables.get(table)?.columns.get(name);
    expect(column("organizations", "balance_nanos")).toEqual({ type: "BIGINT", nullable: false, default: "0" });
    expect(column("users", "id")).toEqual({ type: "UUID", nullable: false, default: "gen_random_uuid()" });
    expect(column("users", "name")).toEqual({ type: "TEXT", nullable: true, default: null });
    expect(column("users", "created_at")).toEqual({ type: "TIMESTAMPTZ(3)", nullable: false, default: "CURRENT_TIMESTAMP" });
    expect(column("users", "updated_at")?.default).toBe("CURRENT_TIMESTAMP");
    expect(column("credit_ledger", "id")).toEqual({ type: "BIGINT", nullable: false, default: "autoincrement()" });
    expect(column("trial_ticker_uses", "day")).toEqual({ type: "DATE", nullable: false, default: null });
    expect(column("plans", "allowed_endpoints")).toEqual({ type: "TEXT[]", nullable: true, default: null });
    expect(column("api_keys", "allowed_endpoints")).toEqual({ type: "TEXT[]", nullable: true, default: "ARRAY[]" });
    expect(column("api_keys", "status")).toEqual({ type: '"api_key_status"', nullable: false, default: "'ACTIVE'" });
    expect(column("audit_logs", "details")).toEqual({ type: "JSONB", nullable: false, default: "'{}'" });
    expect(column("stripe_checkout_sessions", "currency")).toEqual({ type: "TEXT", nullable: false, default: "'usd'" });
    expect(expected.tables.get("trial_ticker_uses")?.primaryKey).toEqual({
      name: "trial_ticker_uses_pkey",
      columns: ["org_id", "endpoint", "day", "ticker"],
    });
    expect(expected.indexes.get("memberships_user_id_org_id_key")).toMatchObject({ unique: true, columns: ["user_id", "org_id"] });
    expect(expected.indexes.get("api_keys_hint_idx")).toMatchObject({ unique: false, columns: ["hint"] });
    expect(expected.foreignKeys.get("organizations.organizations_plan_id_fkey")).toMatchObject({
      referencedTable: "plans",
      onDelete: "RESTRICT",
      onUpdate: "CASCADE",
    });
    expect(expected.foreignKeys.get("invitations.invitations_created_by_id_fkey")?.onDelete).toBe("SET NULL");
    expect(expected.enums.get("ledger_kind")).toEqual(["TOPUP", "USAGE", "ADJUSTMENT", "REFUND", "DISPUTE"]);
  });

  it("handles the parts of the language this schema does not use yet", () => {
    const shape = expectedShape(
      parsePrismaSchema(`
        enum Colour {
          RED   @map("red")
          GREEN
          @@map("colour")
        }
        model Parent {
          a  Int
          b  String @db.VarChar(20)
          kids Child[]
          @@id([a, b], map: "parent_key")
        }
        model Child {
          id       Int      @id @default(autoincrement())
          parentA  Int?
          parentB  String?  @db.VarChar(20)
          tags     String[] @default(["x", "it's"])
          colour   Colour   @default(RED)
          score    Float    @default(-1.5)
          at       DateTime @default(now())
          code     String   @unique(map: "child_code") @default(dbgenerated("upper('x'::text)"))
          parent   Parent?  @relation(fields: [parentA, parentB], references: [a, b])
          @@index([parentA, at(sort: Desc)])
          @@map("children")
        }
      `),
    );
    expect(shape.enums.get("colour")).toEqual(["red", "GREEN"]);
    expect(shape.tables.get("Parent")?.primaryKey).toEqual({ name: "parent_key", columns: ["a", "b"] });
    const children = shape.tables.get("children")!;
    expect(children.columns.get("id")).toEqual({ type: "INTEGER", nullable: false, default: "autoincrement()" });
    expect(children.columns.get("parentB")).toEqual({ type: "VARCHAR(20)", nullable: true, default: null });
    expect(children.columns.get("tags")).toEqual({ type: "TEXT[]", nullable: true, default: "ARRAY['x', 'it''s']" });
    expect(children.columns.get("colour")).toEqual({ type: '"colour"', nullable: false, default: "'red'" });
    expect(children.columns.get("score")?.default).toBe("-1.5");
    expect(children.columns.get("at")).toEqual({ type: "TIMESTAMP(3)", nullable: false, default: "CURRENT_TIMESTAMP" });
    expect(children.columns.get("code")?.default).toBe("upper('x')");
    expect(shape.indexes.get("child_code")).toMatchObject({ unique: true, columns: ["code"] });
    expect(shape.indexes.get("children_parentA_at_idx")).toMatchObject({ unique: false, columns: ["parentA", "at DESC"] });
    expect(shape.foreignKeys.get("children.children_parentA_parentB_fkey")).toEqual({
      name: "children_parentA_parentB_fkey",
      table: "children",
      columns: ["parentA", "parentB"],
      referencedTable: "Parent",
      referencedColumns: ["a", "b"],
      onDelete: "SET NULL",
      onUpdate: "CASCADE",
    });

    expect(() => parsePrismaSchema("model A {\n  id Int @id\n  @@fulltext([id])\n}")).not.toThrow();
    expect(() => expectedShape(parsePrismaSchema("model A {\n  id Int @id\n  @@fulltext([id])\n}"))).toThrow(/@@fulltext is not supported/);
    expect(() => expectedShape(parsePrismaSchema("model A {\n  id Int @id @db.Money\n}"))).toThrow(/@db.Money is not supported/);
    expect(() => expectedShape(parsePrismaSchema("view V {\n  id Int\n}"))).toThrow(/"view" blocks are not supported/);
  });

  it("names constraints as Prisma does, truncated to PostgreSQL's 63 characters", () => {
    expect(prismaConstraintName("users", [], "pkey")).toBe("users_pkey");
    expect(prismaConstraintName("memberships", ["user_id", "org_id"], "key")).toBe("memberships_user_id_org_id_key");
    const long = prismaConstraintName("a_table_with_a_rather_long_name", ["first_long_column", "second_long_column"], "idx");
    expect(long).toHaveLength(63);
    expect(long).toMatch(/^a_table_with_a_rather_long_name_first_long_column_second_l.*_idx$/);
  });

  it("normalises default expressions the way PostgreSQL prints them", () => {
    expect(normalizeSqlExpression("'usd'::text")).toBe("'usd'");
    expect(normalizeSqlExpression("ARRAY[]::text[]")).toBe("ARRAY[]");
    expect(normalizeSqlExpression("'OPEN'::\"Checkout Status\"")).toBe("'OPEN'");
    expect(normalizeSqlExpression("'{}'::jsonb")).toBe("'{}'");
    expect(normalizeSqlExpression("'-1'::integer")).toBe("-1");
    expect(normalizeSqlExpression("(-1)")).toBe("-1");
    expect(normalizeSqlExpression("now()")).toBe("CURRENT_TIMESTAMP");
    expect(normalizeSqlExpression("'2020-01-01 00:00:00'::timestamp(3) without time zone")).toBe("'2020-01-01 00:00:00'");
    expect(normalizeSqlExpression("'a::b'::character varying")).toBe("'a::b'");
    expect(normalizeSqlExpression("(a) + (b)")).toBe("(a) + (b)");
  });
});

describe("schema.prisma and the migrations", () => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it("describe the same database", async () => {
    const differences = diffShapes(expected, await introspect(db.sql));
    expect(differences, `schema.prisma and prisma/migrations disagree:\n  ${differences.join("\n  ")}\n`).toEqual([]);
  });
});

describe("the drift check", () => {
  let empty: Awaited<ReturnType<typeof openEmptyDatabase>>;
  beforeAll(async () => {
    empty = await openEmptyDatabase();
  });
  afterAll(async () => {
    await empty?.close();
  });

  it("reports exactly the differences of a deliberately altered copy of the migrations", async () => {
    const migrations = await readMigrations();
    const init = migrations.findIndex((m) => m.name.endsWith("_init"));
    expect(init).toBeGreaterThanOrEqual(0);
    let sql = migrations[init]!.sql;
    const alter = (from: string, to: string) => {
      sql = replaceOnce(sql, from, to);
    };

    // columns: nullability, types, defaults, presence
    alter(`"balance_nanos" BIGINT NOT NULL DEFAULT 0,`, `"balance_nanos" BIGINT DEFAULT 0,`);
    alter(`"currency" TEXT NOT NULL DEFAULT 'usd',`, `"currency" TEXT NOT NULL DEFAULT 'eur',`);
    alter(`"day" DATE NOT NULL,`, `"day" TIMESTAMPTZ(3) NOT NULL,`);
    alter(`"window_start" TIMESTAMPTZ(3) NOT NULL,`, `"window_start" TIMESTAMP(3) NOT NULL,`);
    alter(`"credited_at" TIMESTAMPTZ(3),`, `"credited_at" TIMESTAMPTZ,`);
    alter(`"description" TEXT,\n    "actor_user_id" UUID,`, `"description" TEXT,\n    "actor_user_id" TEXT,`);
    alter(`"allowed_endpoints" TEXT[],`, `"allowed_endpoints" TEXT,`);
    alter(`"tickers" TEXT[] DEFAULT ARRAY[]::TEXT[],`, `"tickers" TEXT[],`);
    alter(`"cost_nanos" BIGINT NOT NULL,`, `"cost_nanos" INTEGER NOT NULL,`);
    alter(`CREATE TABLE "users" (\n    "id" UUID NOT NULL DEFAULT gen_random_uuid(),`, `CREATE TABLE "users" (\n    "id" UUID NOT NULL,`);
    alter(`CREATE TABLE "audit_logs" (\n    "id" BIGSERIAL NOT NULL,`, `CREATE TABLE "audit_logs" (\n    "id" BIGINT NOT NULL,`);
    alter(
      `"role" "role" NOT NULL,\n    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,`,
      `"role" "role" NOT NULL,\n    "created_at" TIMESTAMPTZ(3) NOT NULL,`,
    );
    alter(`"status_updates" JSONB NOT NULL DEFAULT '[]',`, `"status_updates" JSONB NOT NULL DEFAULT '{}',`);
    alter(`"is_trial" BOOLEAN NOT NULL DEFAULT false,`, `"is_trial" BOOLEAN NOT NULL DEFAULT true,`);
    alter(`"status" "checkout_status" NOT NULL DEFAULT 'OPEN',`, `"status" "checkout_status" NOT NULL DEFAULT 'PAID',`);
    alter(`"sector" TEXT,\n    `, ``);
    alter(`"underwriter" TEXT,\n`, `"underwriter" TEXT,\n    "legacy_code" TEXT,\n`);
    // equivalent spellings are not differences
    alter(
      `"ticker" TEXT NOT NULL,\n    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,`,
      `"ticker" TEXT NOT NULL,\n    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),`,
    );
    alter(`"debt_cents" BIGINT NOT NULL DEFAULT 0,`, `"debt_cents" BIGINT NOT NULL DEFAULT '0'::bigint,`);
    // enums: a value dropped, one renamed
    alter(`'REFUND', 'DISPUTE')`, `'REFUND')`);
    alter(`CREATE TYPE "api_key_status"`, `CREATE TYPE "key_status"`);
    alter(`"status" "api_key_status" NOT NULL`, `"status" "key_status" NOT NULL`);
    // primary keys
    alter(`PRIMARY KEY ("org_id","endpoint","day","ticker")`, `PRIMARY KEY ("org_id","day","endpoint","ticker")`);
    alter(`,\n\n    CONSTRAINT "oauth_accounts_pkey" PRIMARY KEY ("id")`, ``);
    // indexes: dropped, no longer unique, reordered, sorted differently, renamed
    alter(`CREATE INDEX "api_keys_hint_idx" ON "api_keys"("hint");`, ``);
    alter(`CREATE UNIQUE INDEX "users_email_key"`, `CREATE INDEX "users_email_key"`);
    alter(`"credit_ledger"("org_id", "created_at")`, `"credit_ledger"("created_at", "org_id")`);
    alter(`"usage_events"("org_id", "created_at")`, `"usage_events"("org_id", "created_at" DESC)`);
    alter(`"plans_slug_key"`, `"plans_slug_unique"`);
    // foreign keys: other ON DELETE, other target, dropped
    alter(
      `"api_keys_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL`,
      `"api_keys_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE CASCADE`,
    );
    alter(
      `"invitations_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id")`,
      `"invitations_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "users"("id")`,
    );
    alter(
      `ALTER TABLE "float_snapshots" ADD CONSTRAINT "float_snapshots_company_id_fkey" FOREIGN KEY ("company_id") REFERENCES "companies"("id") ON DELETE CASCADE ON UPDATE CASCADE;`,
      ``,
    );
    // tables: one missing, one extra
    alter(
      `CREATE TABLE "stripe_events" (\n    "id" TEXT NOT NULL,\n    "type" TEXT NOT NULL,\n    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,\n\n    CONSTRAINT "stripe_events_pkey" PRIMARY KEY ("id")\n);`,
      `CREATE TABLE "scratch" ("id" INTEGER NOT NULL);`,
    );

    const altered = migrations.map((m, i) => (i === init ? withSql(m, sql) : m));
    await migrate(empty.sql, altered);
    const differences = diffShapes(expected, await introspect(empty.sql));

    expect([...differences].sort()).toEqual(
      [
        `organizations.balance_nanos: schema says BIGINT NOT NULL DEFAULT 0, migrations give BIGINT NULL DEFAULT 0`,
        `stripe_checkout_sessions.currency: schema says TEXT NOT NULL DEFAULT 'usd', migrations give TEXT NOT NULL DEFAULT 'eur'`,
        `trial_ticker_uses.day: schema says DATE NOT NULL, migrations give TIMESTAMPTZ(3) NOT NULL`,
        `rate_limit_counters.window_start: schema says TIMESTAMPTZ(3) NOT NULL, migrations give TIMESTAMP(3) NOT NULL`,
        `stripe_checkout_sessions.credited_at: schema says TIMESTAMPTZ(3) NULL, migrations give TIMESTAMPTZ NULL`,
        `credit_ledger.actor_user_id: schema says UUID NULL, migrations give TEXT NULL`,
        `plans.allowed_endpoints: schema says TEXT[] NULL, migrations give TEXT NULL`,
        `usage_events.tickers: schema says TEXT[] NULL DEFAULT ARRAY[], migrations give TEXT[] NULL`,
        `usage_events.cost_nanos: schema says BIGINT NOT NULL, migrations give INTEGER NOT NULL`,
        `users.id: schema says UUID NOT NULL DEFAULT gen_random_uuid(), migrations give UUID NOT NULL`,
        `audit_logs.id: schema says BIGINT NOT NULL DEFAULT autoincrement(), migrations give BIGINT NOT NULL`,
        `memberships.created_at: schema says TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, migrations give TIMESTAMPTZ(3) NOT NULL`,
        `compliance_deficiencies.status_updates: schema says JSONB NOT NULL DEFAULT '[]', migrations give JSONB NOT NULL DEFAULT '{}'`,
        `plans.is_trial: schema says BOOLEAN NOT NULL DEFAULT false, migrations give BOOLEAN NOT NULL DEFAULT true`,
        `stripe_checkout_sessions.status: schema says "checkout_status" NOT NULL DEFAULT 'OPEN', migrations give "checkout_status" NOT NULL DEFAULT 'PAID'`,
        `companies.sector: missing from the migrations (schema says TEXT NULL)`,
        `offerings.legacy_code: in the migrations (TEXT NULL), not in schema.prisma`,
        `enum ledger_kind: schema says (TOPUP, USAGE, ADJUSTMENT, REFUND, DISPUTE), migrations give (TOPUP, USAGE, ADJUSTMENT, REFUND)`,
        `enum api_key_status: missing from the migrations (schema says (ACTIVE, DISABLED))`,
        `enum key_status: in the migrations (ACTIVE, DISABLED), not in schema.prisma`,
        `api_keys.status: schema says "api_key_status" NOT NULL DEFAULT 'ACTIVE', migrations give "key_status" NOT NULL DEFAULT 'ACTIVE'`,
        `trial_ticker_uses primary key: schema says trial_ticker_uses_pkey (org_id, endpoint, day, ticker), migrations give trial_ticker_uses_pkey (org_id, day, endpoint, ticker)`,
        `oauth_accounts primary key: schema says oauth_accounts_pkey (id), migrations give none`,
        `index api_keys_hint_idx: missing from the migrations (schema says ON api_keys (hint))`,
        `index users_email_key: schema says UNIQUE ON users (email), migrations give ON users (email)`,
        `index credit_ledger_org_id_created_at_idx: schema says ON credit_ledger (org_id, created_at), migrations give ON credit_ledger (created_at, org_id)`,
        `index usage_events_org_id_created_at_idx: schema says ON usage_events (org_id, created_at), migrations give ON usage_events (org_id, created_at DESC)`,
        `index plans_slug_key: missing from the migrations (schema says UNIQUE ON plans (slug))`,
        `index plans_slug_unique: in the migrations (UNIQUE ON plans (slug)), not in schema.prisma`,
        `foreign key api_keys.api_keys_created_by_id_fkey: schema says (created_by_id) REFERENCES users(id) ON DELETE SET NULL ON UPDATE CASCADE, migrations give (created_by_id) REFERENCES users(id) ON DELETE CASCADE ON UPDATE CASCADE`,
        `foreign key invitations.invitations_org_id_fkey: schema says (org_id) REFERENCES organizations(id) ON DELETE CASCADE ON UPDATE CASCADE, migrations give (org_id) REFERENCES users(id) ON DELETE CASCADE ON UPDATE CASCADE`,
        `foreign key float_snapshots.float_snapshots_company_id_fkey: missing from the migrations (schema says (company_id) REFERENCES companies(id) ON DELETE CASCADE ON UPDATE CASCADE)`,
        `table stripe_events: missing from the migrations`,
        `table scratch: in the migrations, not in schema.prisma`,
      ].sort(),
    );
  });
});

describe("the migrator", () => {
  it("applies each migration once and records it as prisma migrate deploy does", async () => {
    const empty = await openEmptyDatabase();
    try {
      const names = migrationDirectories();
      expect(names.length).toBeGreaterThan(0);

      const first = await migrate(empty.sql);
      expect(first).toEqual({ applied: names, alreadyApplied: 0 });
      const second = await migrate(empty.sql);
      expect(second).toEqual({ applied: [], alreadyApplied: names.length });

      const rows = await empty.sql.query<{
        id: string;
        checksum: string;
        migration_name: string;
        started_at: Date;
        finished_at: Date | null;
        rolled_back_at: Date | null;
        logs: string | null;
        applied_steps_count: number;
      }>(`SELECT * FROM "_prisma_migrations" ORDER BY migration_name`);
      expect(rows.map((r) => r.migration_name)).toEqual(names);
      for (const row of rows) {
        const file = readFileSync(path.join(MIGRATIONS_DIR, row.migration_name, "migration.sql"));
        expect(row.checksum, row.migration_name).toBe(createHash("sha256").update(file).digest("hex"));
        expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        expect(row.finished_at).toBeInstanceOf(Date);
        expect(row.finished_at!.getTime()).toBeGreaterThanOrEqual(new Date(row.started_at).getTime());
        expect(row.rolled_back_at).toBeNull();
        expect(row.logs).toBeNull();
        expect(row.applied_steps_count).toBe(1);
      }
    } finally {
      await empty.close();
    }
  });

  it("refuses a migration file changed after it was applied, and changes nothing", async () => {
    const db = await openTestDatabase();
    try {
      const before = await db.sql.query(`SELECT * FROM "_prisma_migrations" ORDER BY migration_name`);
      const migrations = await readMigrations();
      const last = migrations.length - 1;
      const edited = migrations.map((m, i) => (i === last ? withSql(m, `${m.sql}\nCREATE TABLE "sneaked_in" ("id" INTEGER);\n`) : m));

      await expect(migrate(db.sql, edited)).rejects.toThrow(/checksum mismatch/);
      expect(await db.sql.query(`SELECT * FROM "_prisma_migrations" ORDER BY migration_name`)).toEqual(before);
      expect(await db.sql.query(`SELECT to_regclass('sneaked_in') AS t`)).toEqual([{ t: null }]);
    } finally {
      await db.close();
    }
  });

  it("rolls back a migration that fails and does not record it", async () => {
    const db = await openTestDatabase();
    try {
      const broken: Migration = withSql(
        { name: "29991231000000_broken", sql: "", checksum: "" },
        `CREATE TABLE "half_done" ("id" INTEGER);\nSELECT * FROM "no_such_table";\n`,
      );
      await expect(migrate(db.sql, [...(await readMigrations()), broken])).rejects.toThrow(/29991231000000_broken failed/);
      expect(await db.sql.query(`SELECT to_regclass('half_done') AS t`)).toEqual([{ t: null }]);
      expect(await db.sql.query(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name = $1`, [broken.name])).toEqual([]);
      // and the database still migrates cleanly afterwards
      expect(await migrate(db.sql)).toMatchObject({ applied: [] });
    } finally {
      await db.close();
    }
  });
});
