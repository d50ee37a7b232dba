/**
 * The migration that gives the platform's endpoint restriction its own column
 * finds, in the audit log, which keys an administrator had restricted (the
 * column was shared with the customer's choice until then) and moves that
 * restriction over, also onto keys rolled from them.
 *
 * Runs on PGlite (project "pglite") and on PostgreSQL (project "postgres").
 */
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate, readMigrations } from "@/lib/db/migrate";
import { pgliteDriver, postgresDriver, type SqlDriver } from "@/lib/db/sql";
import { createScratchDatabase, isPostgres } from "./support/database";

const MIGRATION = "20261128040000_platform_key_restriction";
const PLATFORM = "platform administrator";

let sql: SqlDriver;
let close: () => Promise<void>;

beforeAll(async () => {
  if (isPostgres()) {
    const scratch = await createScratchDatabase("t_restrict");
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    sql = postgresDriver(client);
    close = async () => {
      await client.end();
      await scratch.drop();
    };
  } else {
    const db = await PGlite.create();
    sql = pgliteDriver(db);
    close = () => db.close();
  }
  const migrations = await readMigrations();
  const index = migrations.findIndex((m) => m.name === MIGRATION);
  expect(index).toBeGreaterThan(0);
  await migrate(sql, migrations.slice(0, index));
}, 60_000);
afterAll(() => close?.());

let minute = 0;
/** An audit entry a minute after the previous one, as the old code wrote them. */
async function audit(keyId: string, action: string, actor: string, endpoints: string[]) {
  minute += 1;
  await sql.query(
    `INSERT INTO audit_logs (actor_label, action, target_type, target_id, details, created_at)
     VALUES ($1, $2, 'api_key', $3, $4::jsonb, TIMESTAMPTZ '2026-01-01 00:00:00+00' + make_interval(mins => $5))`,
    [actor, action, keyId, JSON.stringify({ name: "k", hint: "svc-live-x", endpoints }), minute],
  );
}

let orgId: string;
async function key(endpoints: string[], rolledFrom: string | null = null): Promise<string> {
  minute += 1;
  const [row] = await sql.query<{ id: string }>(
    `INSERT INTO api_keys (org_id, name, key_hash, hint, allowed_endpoints, rolled_from_id, created_at)
     VALUES ($1, 'k', gen_random_uuid()::text, 'svc-live-x', $2::text[], $3, TIMESTAMPTZ '2026-01-01 00:00:00+00' + make_interval(mins => $4)) RETURNING id`,
    [orgId, endpoints, rolledFrom, minute],
  );
  return row!.id;
}

describe(`migration ${MIGRATION}`, () => {
  it("moves each key's latest administrator restriction to the platform's column and keeps the customer's own choice", async () => {
    const [plan] = await sql.query<{ id: string }>(`INSERT INTO plans (slug, name, allowed_endpoints, requests_per_minute) VALUES ('p', 'P', ARRAY['offerings','registrations','dilution-rating'], 60) RETURNING id`);
    const [org] = await sql.query<{ id: string }>(`INSERT INTO organizations (name, plan_id) VALUES ('Org', $1) RETURNING id`, [plan!.id]);
    orgId = org!.id;

    // Restricted by the platform, last: the customer's choice is what they chose before.
    const restricted = await key(["offerings"]);
    await audit(restricted, "key.created", "owner@example.com", ["registrations", "offerings"]);
    await audit(restricted, "key.restricted", PLATFORM, ["offerings"]);
    // Restricted by the platform, then widened by the customer (what this change closes): the restriction comes back.
    const undone = await key(["offerings", "registrations", "dilution-rating"]);
    await audit(undone, "key.created", "owner@example.com", []);
    await audit(undone, "key.restricted", PLATFORM, ["offerings"]);
    await audit(undone, "key.restricted", "owner@example.com", ["offerings", "registrations", "dilution-rating"]);
    // Restricted by the platform and lifted again: no restriction, the customer's choice from before.
    const lifted = await key([]);
    await audit(lifted, "key.created", "owner@example.com", ["dilution-rating"]);
    await audit(lifted, "key.restricted", PLATFORM, ["offerings"]);
    await audit(lifted, "key.restricted", PLATFORM, []);
    // The customer's alone: untouched.
    const own = await key(["registrations"]);
    await audit(own, "key.created", "owner@example.com", []);
    await audit(own, "key.restricted", "owner@example.com", ["registrations"]);
    // A key rolled from a restricted one inherits the restriction; what happened to the old key after the roll does not.
    const old = await key(["offerings"]);
    await audit(old, "key.created", "owner@example.com", []);
    await audit(old, "key.restricted", PLATFORM, ["offerings"]);
    const replacement = await key(["offerings"], old);
    await audit(replacement, "key.rolled", "owner@example.com", []);
    await audit(old, "key.restricted", PLATFORM, ["registrations"]);

    await migrate(sql, (await readMigrations()).filter((m) => m.name === MIGRATION));

    const rows = await sql.query<{ id: string; allowed_endpoints: string[]; platform_endpoints: string[]; platform_endpoints_reason: string | null }>(
      `SELECT id, allowed_endpoints, platform_endpoints, platform_endpoints_reason FROM api_keys`,
    );
    const byId = new Map(rows.map((r) => [r.id, { customer: r.allowed_endpoints, platform: r.platform_endpoints, reason: r.platform_endpoints_reason }]));
    const reason = expect.stringContaining("platform administrator");
    expect(byId.get(restricted)).toEqual({ customer: ["registrations", "offerings"], platform: ["offerings"], reason });
    expect(byId.get(undone)).toEqual({ customer: ["offerings", "registrations", "dilution-rating"], platform: ["offerings"], reason });
    expect(byId.get(lifted)).toEqual({ customer: ["dilution-rating"], platform: [], reason: null });
    expect(byId.get(own)).toEqual({ customer: ["registrations"], platform: [], reason: null });
    expect(byId.get(old)).toEqual({ customer: [], platform: ["registrations"], reason });
    expect(byId.get(replacement)).toEqual({ customer: [], platform: ["offerings"], reason });
  });
});
