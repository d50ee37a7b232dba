import type { DbClient, PrismaClient } from "@/lib/db";
import { isUniqueViolation } from "@/lib/errors";
import type { LedgerKind } from "@/lib/generated/prisma/enums";
import type { SqlDriver } from "@/lib/db/sql";
import { isoDay, utcMonthStart } from "@/lib/utils/dates";
import { capCrossed, type SpendCaps, type SpendCounters, type SpendLimitHit } from "./spend";

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
 * 1. the conditional debit (`balance >= cost`, and the organization's spend
 *    caps), which also locks the organization's row so concurrent requests
 *    of one org queue here;
 * 2. a key's own spend caps, checked on its row once the organization's is
 *    locked (every charge of a key takes its organization's lock first);
 * 3. for trial plans, the day's unique tickers, counted after this request's
 *    are added (exact under concurrency thanks to that lock);
 * 4. the usage ledger entry, the usage event, and the spend of the day and
 *    month on the organization's and the key's rows.
 * Any refusal rolls everything back: a refused request costs nothing and
 * consumes no trial tickers. The refusals come in the spec's order: credits,
 * then spend caps (the key's, then the organization's; daily before monthly),
 * then the trial's tickers.
 */
export type UsageChargeOutcome =
  | { status: "charged"; balanceAfterNanos: bigint }
  | { status: "insufficient_credits"; balanceNanos: bigint }
  | { status: "spend_limit_reached"; hit: SpendLimitHit }
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
  /** The key has a spend cap of its own (as last read; the statement checks again). */
  keyHasSpendCap: boolean;
}

class UsageRefusal extends Error {
  constructor(readonly outcome: Exclude<UsageChargeOutcome, { status: "charged" }>) {
    super(outcome.status);
  }
}

/** The database as the charge uses it: the statement straight through the driver, the locked transaction through Prisma. */
export interface ChargeDatabase {
  prisma: PrismaClient;
  sql: SqlDriver;
}

export async function chargeUsage(db: ChargeDatabase, charge: UsageCharge): Promise<UsageChargeOutcome> {
  // A trial's ticker count and a key's own cap must see the other charges of the organization, which only the locked transaction does.
  if (needsLock(charge)) return chargeLocked(db.prisma, charge);
  let batcher = batchers.get(db.sql);
  if (!batcher) batchers.set(db.sql, (batcher = new ChargeBatcher(db)));
  return batcher.charge(charge);
}

const needsLock = (charge: UsageCharge) => (charge.dailyTickerLimit !== null && charge.tickers.length > 0) || charge.keyHasSpendCap;

// ───────────────────────────── spend of the day and month ─────────────────────────────

/**
 * SQL for one row's spend after adding `cost`, where $day/$month are the
 * parameters holding the UTC day and month the charge belongs to: counters
 * of an earlier period start again from zero.
 */
const spentAfter = (row: string, period: "day" | "month", date: string, cost: string) =>
  `CASE WHEN ${row}spent_${period} = ${date}::date THEN ${row}spent_${period}_nanos ELSE 0 END + ${cost}`;

const spendSet = (row: string, day: string, month: string, cost: string) =>
  `spent_day_nanos = ${spentAfter(row, "day", day, cost)}, spent_day = ${day}::date,
   spent_month_nanos = ${spentAfter(row, "month", month, cost)}, spent_month = ${month}::date`;

const withinCaps = (row: string, day: string, month: string, cost: string) =>
  `(${row}daily_cap_nanos IS NULL OR ${spentAfter(row, "day", day, cost)} <= ${row}daily_cap_nanos)
   AND (${row}monthly_cap_nanos IS NULL OR ${spentAfter(row, "month", month, cost)} <= ${row}monthly_cap_nanos)`;

/** A row's caps and spend, read as text (so both drivers give the same thing). */
const CAP_COLUMNS = `daily_cap_nanos::text AS daily_cap, monthly_cap_nanos::text AS monthly_cap,
  to_char(spent_day, 'YYYY-MM-DD') AS spent_day, spent_day_nanos::text AS spent_day_nanos,
  to_char(spent_month, 'YYYY-MM-DD') AS spent_month, spent_month_nanos::text AS spent_month_nanos`;

interface CapRow {
  daily_cap: string | null;
  monthly_cap: string | null;
  spent_day: string | null;
  spent_day_nanos: string;
  spent_month: string | null;
  spent_month_nanos: string;
}

function capsOf(row: CapRow): { caps: SpendCaps; counters: SpendCounters } {
  const big = (text: string | null) => (text === null ? null : BigInt(text));
  const day = (text: string | null) => (text === null ? null : new Date(`${text}T00:00:00.000Z`));
  return {
    caps: { dailyCapNanos: big(row.daily_cap), monthlyCapNanos: big(row.monthly_cap) },
    counters: {
      spentDay: day(row.spent_day),
      spentDayNanos: BigInt(row.spent_day_nanos),
      spentMonth: day(row.spent_month),
      spentMonthNanos: BigInt(row.spent_month_nanos),
    },
  };
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
 * the batch only if its balance and its caps cover the sum; otherwise its
 * charges are applied one by one, each conditional, in arrival order.
 */
class ChargeBatcher {
  private queue: Pending[] = [];
  private flushing = false;

  constructor(private readonly db: ChargeDatabase) {}

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
        // One UTC day per batch, so every charge in it counts towards the same day's and month's spend.
        const day = isoDay(this.queue[0]!.charge.now);
        let size = 1;
        while (size < this.queue.length && size < MAX_BATCH && isoDay(this.queue[size]!.charge.now) === day) size++;
        const batch = this.queue.splice(0, size);
        await (batch.length === 1 ? this.one(batch[0]!) : this.many(batch));
      }
    } finally {
      this.flushing = false;
    }
  }

  private async one(pending: Pending): Promise<void> {
    await chargeOne(this.db, pending.charge).then(pending.resolve, pending.reject);
  }

  private async many(batch: Pending[]): Promise<void> {
    let charged: Map<number, bigint>;
    try {
      charged = await chargeTogether(this.db.sql, batch.map((p) => p.charge));
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
    // The balance or a cap did not cover the organization's sum: one by one, in order, so each that fits is charged.
    for (const pending of refusedOrgs) await this.one(pending);
  }
}

const BATCH_STATEMENT = `
  WITH input AS (
    SELECT * FROM json_to_recordset($1::json) AS x(
      i int, org uuid, key uuid, cost bigint, reference text, description text, endpoint text,
      tickers json, bytes int, ip text, at timestamptz)
  ), wanted AS (
    SELECT org, sum(cost)::bigint AS total FROM input GROUP BY org
  ), locked AS (
    -- Row locks in id order, so two batches (of two instances) never wait on each other in a circle.
    SELECT o.id FROM organizations o WHERE o.id IN (SELECT org FROM wanted) ORDER BY o.id FOR NO KEY UPDATE
  ), debit AS (
    UPDATE organizations o SET balance_nanos = o.balance_nanos - w.total, ${spendSet("o.", "$2", "$3", "w.total")}
      FROM wanted w, locked l
     WHERE o.id = w.org AND l.id = w.org AND o.balance_nanos >= w.total AND ${withinCaps("o.", "$2", "$3", "w.total")}
       -- A key with caps of its own is charged under the locked transaction.
       AND NOT EXISTS (SELECT 1 FROM input x JOIN api_keys k ON k.id = x.key
                        WHERE x.org = w.org AND (k.daily_cap_nanos IS NOT NULL OR k.monthly_cap_nanos IS NOT NULL))
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
  ), keys AS (
    UPDATE api_keys k SET last_used_at = t.at, ${spendSet("k.", "$2", "$3", "t.total")}
      FROM (SELECT key, max(at) AS at, sum(cost)::bigint AS total FROM charged GROUP BY key) t
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
  }));
  const now = charges[0]!.now;
  const rows = await sql.prepared<{ i: number; balance_after: string }>("charge_usage_batch", BATCH_STATEMENT, [
    JSON.stringify(input),
    isoDay(now),
    isoDay(utcMonthStart(now)),
  ]);
  return new Map(rows.map((row) => [Number(row.i), BigInt(row.balance_after)]));
}

const CHARGE_STATEMENT = `
  WITH debit AS (
    UPDATE organizations SET balance_nanos = balance_nanos - $2::bigint, ${spendSet("", "$11", "$12", "$2::bigint")}
     WHERE id = $1::uuid AND balance_nanos >= $2::bigint AND ${withinCaps("", "$11", "$12", "$2::bigint")}
       AND NOT EXISTS (SELECT 1 FROM api_keys WHERE id = $5::uuid AND (daily_cap_nanos IS NOT NULL OR monthly_cap_nanos IS NOT NULL))
    RETURNING balance_nanos
  ), entry AS (
    INSERT INTO credit_ledger (org_id, kind, amount_nanos, balance_after_nanos, reference, description)
    SELECT $1::uuid, 'USAGE'::ledger_kind, -($2::bigint), balance_nanos, $3, $4 FROM debit
  ), event AS (
    INSERT INTO usage_events (org_id, api_key_id, endpoint, tickers, status_code, bytes, cost_nanos, request_id, client_ip, created_at)
    SELECT $1::uuid, $5::uuid, $6, $7::text[], 200, $8::int, $2::bigint, $3, $9, $10::timestamptz FROM debit
  ), key AS (
    UPDATE api_keys SET last_used_at = $10::timestamptz, ${spendSet("", "$11", "$12", "$2::bigint")}
     WHERE id = $5::uuid AND EXISTS (SELECT 1 FROM debit)
  )
  -- Why it was refused is read only when it was: a charged request pays for no second look.
  SELECT (SELECT balance_nanos FROM debit)::text AS balance_after, o.balance_nanos::text AS balance, ${CAP_COLUMNS},
         o.id IS NOT NULL AND EXISTS (SELECT 1 FROM api_keys WHERE id = $5::uuid AND (daily_cap_nanos IS NOT NULL OR monthly_cap_nanos IS NOT NULL)) AS key_capped
    FROM (SELECT 1) AS one LEFT JOIN organizations o ON o.id = $1::uuid AND NOT EXISTS (SELECT 1 FROM debit)`;

type ChargeRow = CapRow & { balance_after: string | null; balance: string | null; key_capped: boolean };

/**
 * The paid request's one round trip: the conditional debit, the ledger entry,
 * the usage event and the key's spend and last use, as one statement, so one
 * implicit transaction. Every insert reads the debit's row: when the balance
 * or a cap cannot cover the cost nothing is written, and the organization's
 * row as the statement saw it says why. A key with caps of its own, or a
 * refusal the row no longer explains (it changed while the statement waited
 * for its lock), is decided again under the locked transaction.
 */
async function chargeOne(db: ChargeDatabase, charge: UsageCharge): Promise<UsageChargeOutcome> {
  const [row] = await db.sql.prepared<ChargeRow>("charge_usage", CHARGE_STATEMENT, [
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
    isoDay(charge.now),
    isoDay(utcMonthStart(charge.now)),
  ]);
  if (row?.balance_after != null) return { status: "charged", balanceAfterNanos: BigInt(row.balance_after) };
  if (!row || row.balance === null) return { status: "insufficient_credits", balanceNanos: 0n };
  const balanceNanos = BigInt(row.balance);
  if (balanceNanos < charge.costNanos) return { status: "insufficient_credits", balanceNanos };
  if (!row.key_capped) {
    const { caps, counters } = capsOf(row);
    const hit = capCrossed("organization", caps, counters, charge.costNanos, charge.now);
    if (hit) return { status: "spend_limit_reached", hit };
  }
  return chargeLocked(db.prisma, charge);
}

const usageDescription = (charge: UsageCharge) => `${charge.endpoint} · ${charge.bytes} bytes`;

/**
 * The charge as a transaction of several statements, with the organization's
 * row and then the key's locked first (as the update of each would: rows
 * that reference them, such as a refused request's usage event, can still be
 * written meanwhile).
 */
async function chargeLocked(db: PrismaClient, charge: UsageCharge): Promise<UsageChargeOutcome> {
  const { orgId, keyId, costNanos, now } = charge;
  const day = isoDay(now);
  const month = isoDay(utcMonthStart(now));
  try {
    return await db.$transaction(async (tx) => {
      const [org] = await tx.$queryRawUnsafe<(CapRow & { balance: string })[]>(
        `SELECT balance_nanos::text AS balance, ${CAP_COLUMNS} FROM organizations WHERE id = $1::uuid FOR NO KEY UPDATE`,
        orgId,
      );
      if (!org || BigInt(org.balance) < costNanos) {
        throw new UsageRefusal({ status: "insufficient_credits", balanceNanos: org ? BigInt(org.balance) : 0n });
      }
      // NO KEY: a refused request's usage event holds a key-share lock on the key while it waits for the organization's row.
      const [key] = await tx.$queryRawUnsafe<CapRow[]>(`SELECT ${CAP_COLUMNS} FROM api_keys WHERE id = $1::uuid FOR NO KEY UPDATE`, keyId);
      const orgCaps = capsOf(org);
      const hit =
        (key ? capCrossed("key", capsOf(key).caps, capsOf(key).counters, costNanos, now) : null) ??
        capCrossed("organization", orgCaps.caps, orgCaps.counters, costNanos, now);
      if (hit) throw new UsageRefusal({ status: "spend_limit_reached", hit });

      const limit = charge.dailyTickerLimit;
      if (limit !== null && charge.tickers.length > 0) {
        const trialDay = new Date(`${charge.trialDay}T00:00:00.000Z`);
        const inserted = await tx.$executeRaw`
          INSERT INTO trial_ticker_uses (org_id, endpoint, day, ticker)
          SELECT ${orgId}::uuid, ${charge.endpoint}, ${trialDay}::date, t FROM unnest(${charge.tickers}::text[]) AS t
          ON CONFLICT DO NOTHING`;
        const [{ used }] = (await tx.$queryRaw<{ used: number }[]>`
          SELECT count(*)::int AS used FROM trial_ticker_uses
           WHERE org_id = ${orgId}::uuid AND endpoint = ${charge.endpoint} AND day = ${trialDay}::date`) as [{ used: number }];
        if (used > limit) throw new UsageRefusal({ status: "trial_ticker_limit", limit, used: used - inserted });
      }
      const [debited] = await tx.$queryRawUnsafe<{ balance: string }[]>(
        `UPDATE organizations SET balance_nanos = balance_nanos - $2::bigint, ${spendSet("", "$3", "$4", "$2::bigint")}
          WHERE id = $1::uuid RETURNING balance_nanos::text AS balance`,
        orgId,
        costNanos.toString(),
        day,
        month,
      );
      const balanceAfterNanos = BigInt(debited!.balance);
      await tx.$executeRawUnsafe(
        `UPDATE api_keys SET last_used_at = $2::timestamptz, ${spendSet("", "$4", "$5", "$3::bigint")} WHERE id = $1::uuid`,
        keyId,
        now.toISOString(),
        costNanos.toString(),
        day,
        month,
      );
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
          apiKeyId: keyId,
          endpoint: charge.endpoint,
          tickers: charge.tickers,
          statusCode: 200,
          bytes: charge.bytes,
          costNanos,
          requestId: charge.requestId,
          clientIp: charge.clientIp ?? null,
          createdAt: now,
        },
      });
      return { status: "charged" as const, balanceAfterNanos };
    });
  } catch (error) {
    if (error instanceof UsageRefusal) return error.outcome;
    throw error;
  }
}
