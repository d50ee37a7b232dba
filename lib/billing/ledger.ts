import type { DbClient, PrismaClient } from "@/lib/db";
import { isUniqueViolation } from "@/lib/errors";
import type { LedgerKind } from "@/lib/generated/prisma/enums";
import type { SqlDriver } from "@/lib/db/sql";

/**
 * Every change of a balance goes through here: one conditional UPDATE of the
 * organization and one append-only ledger row, in the same transaction, so
 * sum(ledger.amount) == organization.balance at every commit. Two writers:
 * changeBalance (credits, refunds, adjustments) and chargeUsage (a paid API
 * request, with its usage event and trial tickers).
 */

export interface BalanceChange {
  orgId: string;
  kind: LedgerKind;
  /** Signed nanos: positive credits, negative debits. */
  amountNanos: bigint;
  reference?: string | null;
  /** Applied at most once per key (e.g. "checkout:cs_123"). */
  idempotencyKey?: string | null;
  description?: string | null;
  actorUserId?: string | null;
  /**
   * Debits normally stop at zero. Refunds and disputes may take a balance
   * below zero: the money has already left.
   */
  allowNegative?: boolean;
}

export type BalanceChangeResult =
  | { status: "applied"; balanceAfterNanos: bigint; entryId: bigint }
  | { status: "duplicate" }
  | { status: "insufficient_funds"; balanceNanos: bigint }
  | { status: "no_such_organization" };

export async function changeBalance(db: PrismaClient, change: BalanceChange): Promise<BalanceChangeResult> {
  try {
    return await db.$transaction((tx) => changeBalanceInTransaction(tx, change));
  } catch (error) {
    // Two concurrent deliveries of the same credit: the loser's ledger insert
    // hits the unique idempotency key and its whole transaction rolls back.
    if (change.idempotencyKey && isUniqueViolation(error)) return { status: "duplicate" };
    throw error;
  }
}

/** The same, inside a transaction the caller already holds. */
export async function changeBalanceInTransaction(tx: DbClient, change: BalanceChange): Promise<BalanceChangeResult> {
  if (change.idempotencyKey) {
    const seen = await tx.creditLedgerEntry.findUnique({
      where: { idempotencyKey: change.idempotencyKey },
      select: { id: true },
    });
    if (seen) return { status: "duplicate" };
  }
  const mayGoNegative = change.amountNanos >= 0n || change.allowNegative === true;
  const updated = await tx.$queryRaw<{ balance_nanos: bigint }[]>`
    UPDATE organizations
       SET balance_nanos = balance_nanos + ${change.amountNanos}, updated_at = now()
     WHERE id = ${change.orgId}::uuid
       AND (${mayGoNegative} OR balance_nanos + ${change.amountNanos} >= 0)
    RETURNING balance_nanos`;
  const row = updated[0];
  if (!row) {
    const org = await tx.organization.findUnique({ where: { id: change.orgId }, select: { balanceNanos: true } });
    return org ? { status: "insufficient_funds", balanceNanos: org.balanceNanos } : { status: "no_such_organization" };
  }
  const entry = await tx.creditLedgerEntry.create({
    data: {
      orgId: change.orgId,
      kind: change.kind,
      amountNanos: change.amountNanos,
      balanceAfterNanos: row.balance_nanos,
      reference: change.reference ?? null,
      idempotencyKey: change.idempotencyKey ?? null,
      description: change.description ?? null,
      actorUserId: change.actorUserId ?? null,
    },
    select: { id: true },
  });
  return { status: "applied", balanceAfterNanos: row.balance_nanos, entryId: entry.id };
}


/** sum(ledger) and the stored balance; they must always be equal. */
export async function ledgerTotals(db: DbClient, orgId: string) {
  const [sum, org] = await Promise.all([
    db.creditLedgerEntry.aggregate({ where: { orgId }, _sum: { amountNanos: true } }),
    db.organization.findUniqueOrThrow({ where: { id: orgId }, select: { balanceNanos: true } }),
  ]);
  return { ledgerSumNanos: sum._sum.amountNanos ?? 0n, balanceNanos: org.balanceNanos };
}

/**
 * Charging one successful API request, all or nothing, in one transaction:
 * 1. the conditional debit (`balance >= cost`), which also locks the
 *    organization's row so concurrent requests of one org queue here;
 * 2. for trial plans, the day's unique tickers, counted after this request's
 *    are added (exact under concurrency thanks to that lock);
 * 3. the usage ledger entry and the usage event.
 * Any refusal rolls everything back: a refused request costs nothing and
 * consumes no trial tickers.
 */
export type UsageChargeOutcome =
  | { status: "charged"; balanceAfterNanos: bigint }
  | { status: "insufficient_credits"; balanceNanos: bigint }
  | { status: "trial_ticker_limit"; limit: number; used: number };

export interface UsageCharge {
  orgId: string;
  keyId: string;
  endpoint: string;
  tickers: string[];
  bytes: number;
  costNanos: bigint;
  requestId: string;
  now: Date;
  /** The client's address, kept with the usage event for abuse review. */
  clientIp?: string | null;
  /** Unique tickers a day allows (trial plans), or null for no limit. */
  dailyTickerLimit: number | null;
  /** The day (YYYY-MM-DD) trial tickers count towards. */
  trialDay: string;
  /** Also write the key's last_used_at. */
  touchKey: boolean;
}

class UsageRefusal extends Error {
  constructor(readonly outcome: Exclude<UsageChargeOutcome, { status: "charged" }>) {
    super(outcome.status);
  }
}

/** The database as the charge uses it: the statement straight through the driver, the trial's transaction through Prisma. */
export interface ChargeDatabase {
  prisma: PrismaClient;
  sql: SqlDriver;
}

export async function chargeUsage(db: ChargeDatabase, charge: UsageCharge): Promise<UsageChargeOutcome> {
  // A trial's ticker count must see the other charges of its organization, which only the locked transaction below does.
  if (charge.dailyTickerLimit !== null && charge.tickers.length > 0) return chargeTrialUsage(db.prisma, charge);
  let batcher = batchers.get(db.sql);
  if (!batcher) batchers.set(db.sql, (batcher = new ChargeBatcher(db.sql)));
  return batcher.charge(charge);
}

// ───────────────────────────── charges applied together ─────────────────────────────

/** The most charges one statement applies. */
const MAX_BATCH = 256;
const batchers = new WeakMap<SqlDriver, ChargeBatcher>();

interface Pending {
  charge: UsageCharge;
  resolve: (outcome: UsageChargeOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Paid requests that arrive while a charge is on its way to the database
 * wait for it, and then go together: one statement and one commit for all
 * of them (a commit waits for the disk, and it serialises an organization's
 * charges on its balance row, so doing them one by one caps throughput at
 * one charge per commit). An idle server charges a request at once, alone.
 *
 * Exact as one by one: an organization is debited the sum of its charges in
 * the batch only if its balance covers the sum; otherwise its charges are
 * applied one by one, each conditional on the balance, in arrival order.
 */
class ChargeBatcher {
  private queue: Pending[] = [];
  private flushing = false;

  constructor(private readonly sql: SqlDriver) {}

  charge(charge: UsageCharge): Promise<UsageChargeOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ charge, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, MAX_BATCH);
        await (batch.length === 1 ? this.one(batch[0]!) : this.many(batch));
      }
    } finally {
      this.flushing = false;
    }
  }

  private async one(pending: Pending): Promise<void> {
    await chargeInOneStatement(this.sql, pending.charge).then(pending.resolve, pending.reject);
  }

  private async many(batch: Pending[]): Promise<void> {
    let charged: Map<number, bigint>;
    try {
      charged = await chargeTogether(this.sql, batch.map((p) => p.charge));
    } catch {
      // Whatever failed (a key deleted meanwhile, a constraint), it failed for the whole statement: each on its own says whose it was.
      for (const pending of batch) await this.one(pending);
      return;
    }
    const refusedOrgs: Pending[] = [];
    batch.forEach((pending, i) => {
      const after = charged.get(i);
      if (after !== undefined) pending.resolve({ status: "charged", balanceAfterNanos: after });
      else refusedOrgs.push(pending);
    });
    // The balance did not cover the organization's sum: one by one, in order, so each that fits is charged.
    for (const pending of refusedOrgs) await this.one(pending);
  }
}

const BATCH_STATEMENT = `
  WITH input AS (
    SELECT * FROM json_to_recordset($1::json) AS x(
      i int, org uuid, key uuid, cost bigint, reference text, description text, endpoint text,
      tickers json, bytes int, ip text, at timestamptz, touch boolean)
  ), wanted AS (
    SELECT org, sum(cost)::bigint AS total FROM input GROUP BY org
  ), locked AS (
    -- Row locks in id order, so two batches (of two instances) never wait on each other in a circle.
    SELECT o.id FROM organizations o WHERE o.id IN (SELECT org FROM wanted) ORDER BY o.id FOR UPDATE
  ), debit AS (
    UPDATE organizations o SET balance_nanos = o.balance_nanos - w.total
      FROM wanted w, locked l
     WHERE o.id = w.org AND l.id = w.org AND o.balance_nanos >= w.total
    RETURNING o.id, o.balance_nanos AS after, w.total
  ), charged AS (
    SELECT i.*, d.after + d.total - sum(i.cost) OVER (PARTITION BY i.org ORDER BY i.i) AS balance_after
      FROM input i JOIN debit d ON d.id = i.org
  ), entry AS (
    INSERT INTO credit_ledger (org_id, kind, amount_nanos, balance_after_nanos, reference, description)
    SELECT org, 'USAGE'::ledger_kind, -cost, balance_after, reference, description FROM charged ORDER BY i
  ), event AS (
    INSERT INTO usage_events (org_id, api_key_id, endpoint, tickers, status_code, bytes, cost_nanos, request_id, client_ip, created_at)
    SELECT org, key, endpoint, ARRAY(SELECT json_array_elements_text(tickers)), 200, bytes, cost, reference, ip, at FROM charged
  ), touched AS (
    UPDATE api_keys k SET last_used_at = t.at
      FROM (SELECT key, max(at) AS at FROM charged WHERE touch GROUP BY key) t
     WHERE k.id = t.key
  )
  SELECT i, balance_after::text AS balance_after FROM charged`;

/** The batch in one statement: the charges applied (index → balance after), the others not touched. */
async function chargeTogether(sql: SqlDriver, charges: UsageCharge[]): Promise<Map<number, bigint>> {
  const input = charges.map((c, i) => ({
    i,
    org: c.orgId,
    key: c.keyId,
    cost: c.costNanos.toString(),
    reference: c.requestId,
    description: usageDescription(c),
    endpoint: c.endpoint,
    tickers: c.tickers,
    bytes: c.bytes,
    ip: c.clientIp ?? null,
    at: c.now.toISOString(),
    touch: c.touchKey,
  }));
  const rows = await sql.prepared<{ i: number; balance_after: string }>("charge_usage_batch", BATCH_STATEMENT, [JSON.stringify(input)]);
  return new Map(rows.map((row) => [Number(row.i), BigInt(row.balance_after)]));
}

const CHARGE_STATEMENT = `
  WITH debit AS (
    UPDATE organizations SET balance_nanos = balance_nanos - $2::bigint
     WHERE id = $1::uuid AND balance_nanos >= $2::bigint
    RETURNING balance_nanos
  ), entry AS (
    INSERT INTO credit_ledger (org_id, kind, amount_nanos, balance_after_nanos, reference, description)
    SELECT $1::uuid, 'USAGE'::ledger_kind, -($2::bigint), balance_nanos, $3, $4 FROM debit
  ), event AS (
    INSERT INTO usage_events (org_id, api_key_id, endpoint, tickers, status_code, bytes, cost_nanos, request_id, client_ip, created_at)
    SELECT $1::uuid, $5::uuid, $6, $7::text[], 200, $8::int, $2::bigint, $3, $9, $10::timestamptz FROM debit
  ), touched AS (
    UPDATE api_keys SET last_used_at = $10::timestamptz
     WHERE $11::boolean AND id = $5::uuid AND EXISTS (SELECT 1 FROM debit)
  )
  SELECT (SELECT balance_nanos FROM debit)::text AS balance_after,
         (SELECT balance_nanos FROM organizations WHERE id = $1::uuid)::text AS balance`;

/**
 * The paid request's one round trip: the conditional debit, the ledger entry,
 * the usage event and (once a minute) the key's last use, as one statement,
 * so one implicit transaction. Every insert reads the debit's row: when the
 * balance cannot cover the cost nothing is written, and the balance the
 * statement saw is returned for the 402.
 */
async function chargeInOneStatement(sql: SqlDriver, charge: UsageCharge): Promise<UsageChargeOutcome> {
  const [row] = await sql.prepared<{ balance_after: string | null; balance: string | null }>("charge_usage", CHARGE_STATEMENT, [
    charge.orgId,
    charge.costNanos.toString(),
    charge.requestId,
    usageDescription(charge),
    charge.keyId,
    charge.endpoint,
    charge.tickers,
    charge.bytes,
    charge.clientIp ?? null,
    charge.now.toISOString(),
    charge.touchKey,
  ]);
  if (row?.balance_after != null) return { status: "charged", balanceAfterNanos: BigInt(row.balance_after) };
  return { status: "insufficient_credits", balanceNanos: BigInt(row?.balance ?? 0) };
}

const usageDescription = (charge: UsageCharge) => `${charge.endpoint} · ${charge.bytes} bytes`;

async function chargeTrialUsage(db: PrismaClient, charge: UsageCharge): Promise<UsageChargeOutcome> {
  const { orgId, costNanos } = charge;
  try {
    return await db.$transaction(async (tx) => {
      const debited = await tx.$queryRaw<{ balance_nanos: bigint }[]>`
        UPDATE organizations SET balance_nanos = balance_nanos - ${costNanos}
         WHERE id = ${orgId}::uuid AND balance_nanos >= ${costNanos}
        RETURNING balance_nanos`;
      if (!debited[0]) {
        const org = await tx.organization.findUniqueOrThrow({ where: { id: orgId }, select: { balanceNanos: true } });
        throw new UsageRefusal({ status: "insufficient_credits", balanceNanos: org.balanceNanos });
      }
      const limit = charge.dailyTickerLimit;
      if (limit !== null && charge.tickers.length > 0) {
        const day = new Date(`${charge.trialDay}T00:00:00.000Z`);
        const inserted = await tx.$executeRaw`
          INSERT INTO trial_ticker_uses (org_id, endpoint, day, ticker)
          SELECT ${orgId}::uuid, ${charge.endpoint}, ${day}::date, t FROM unnest(${charge.tickers}::text[]) AS t
          ON CONFLICT DO NOTHING`;
        const [{ used }] = (await tx.$queryRaw<{ used: number }[]>`
          SELECT count(*)::int AS used FROM trial_ticker_uses
           WHERE org_id = ${orgId}::uuid AND endpoint = ${charge.endpoint} AND day = ${day}::date`) as [{ used: number }];
        if (used > limit) throw new UsageRefusal({ status: "trial_ticker_limit", limit, used: used - inserted });
      }
      const balanceAfterNanos = debited[0].balance_nanos;
      await tx.creditLedgerEntry.create({
        data: {
          orgId,
          kind: "USAGE",
          amountNanos: -costNanos,
          balanceAfterNanos,
          reference: charge.requestId,
          description: usageDescription(charge),
        },
      });
      await tx.usageEvent.create({
        data: {
          orgId,
          apiKeyId: charge.keyId,
          endpoint: charge.endpoint,
          tickers: charge.tickers,
          statusCode: 200,
          bytes: charge.bytes,
          costNanos,
          requestId: charge.requestId,
          clientIp: charge.clientIp ?? null,
          createdAt: charge.now,
        },
      });
      if (charge.touchKey) {
        await tx.apiKey.update({ where: { id: charge.keyId }, data: { lastUsedAt: charge.now }, select: { id: true } });
      }
      return { status: "charged" as const, balanceAfterNanos };
    });
  } catch (error) {
    if (error instanceof UsageRefusal) return error.outcome;
    throw error;
  }
}
