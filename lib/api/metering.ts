import type { PrismaClient } from "@/lib/db";
import type { EndpointName } from "./catalog";
import type { KeyAccess } from "./key-cache";

/**
 * Charging one successful request, all or nothing, in one transaction:
 * 1. the conditional debit (`balance >= cost`), which also locks the
 *    organization's row so concurrent requests of one org queue here;
 * 2. for trial plans, the day's unique tickers, counted after this request's
 *    are added (exact under concurrency thanks to that lock);
 * 3. the usage ledger entry and the usage event.
 * Any refusal rolls everything back: a refused request costs nothing and
 * consumes no trial tickers.
 */
export type ChargeOutcome =
  | { status: "charged"; balanceAfterNanos: bigint }
  | { status: "insufficient_credits"; balanceNanos: bigint }
  | { status: "trial_ticker_limit"; limit: number; used: number };

export interface ChargeRequest {
  access: KeyAccess;
  endpoint: EndpointName;
  tickers: string[];
  bytes: number;
  costNanos: bigint;
  requestId: string;
  now: Date;
  /** The Chicago day (YYYY-MM-DD) trial tickers count towards. */
  trialDay: string;
  touchKey: boolean;
}

class Refusal extends Error {
  constructor(readonly outcome: Exclude<ChargeOutcome, { status: "charged" }>) {
    super(outcome.status);
  }
}

export async function chargeRequest(db: PrismaClient, request: ChargeRequest): Promise<ChargeOutcome> {
  const { access, costNanos } = request;
  try {
    return await db.$transaction(async (tx) => {
      const debited = await tx.$queryRaw<{ balance_nanos: bigint }[]>`
        UPDATE organizations SET balance_nanos = balance_nanos - ${costNanos}
         WHERE id = ${access.orgId}::uuid AND balance_nanos >= ${costNanos}
        RETURNING balance_nanos`;
      if (!debited[0]) {
        const org = await tx.organization.findUniqueOrThrow({ where: { id: access.orgId }, select: { balanceNanos: true } });
        throw new Refusal({ status: "insufficient_credits", balanceNanos: org.balanceNanos });
      }
      const limit = access.plan.isTrial ? access.plan.dailyTickerLimit : null;
      if (limit !== null && request.tickers.length > 0) {
        const day = new Date(`${request.trialDay}T00:00:00.000Z`);
        const inserted = await tx.$executeRaw`
          INSERT INTO trial_ticker_uses (org_id, endpoint, day, ticker)
          SELECT ${access.orgId}::uuid, ${request.endpoint}, ${day}::date, t FROM unnest(${request.tickers}::text[]) AS t
          ON CONFLICT DO NOTHING`;
        const [{ used }] = (await tx.$queryRaw<{ used: number }[]>`
          SELECT count(*)::int AS used FROM trial_ticker_uses
           WHERE org_id = ${access.orgId}::uuid AND endpoint = ${request.endpoint} AND day = ${day}::date`) as [{ used: number }];
        if (used > limit) throw new Refusal({ status: "trial_ticker_limit", limit, used: used - inserted });
      }
      const balanceAfterNanos = debited[0].balance_nanos;
      await tx.creditLedgerEntry.create({
        data: {
          orgId: access.orgId,
          kind: "USAGE",
          amountNanos: -costNanos,
          balanceAfterNanos,
          reference: request.requestId,
          description: `${request.endpoint} · ${request.bytes} bytes`,
        },
      });
      await tx.usageEvent.create({
        data: {
          orgId: access.orgId,
          apiKeyId: access.keyId,
          endpoint: request.endpoint,
          tickers: request.tickers,
          statusCode: 200,
          bytes: request.bytes,
          costNanos,
          requestId: request.requestId,
          createdAt: request.now,
        },
      });
      if (request.touchKey) {
        await tx.apiKey.update({ where: { id: access.keyId }, data: { lastUsedAt: request.now }, select: { id: true } });
      }
      return { status: "charged" as const, balanceAfterNanos };
    });
  } catch (error) {
    if (error instanceof Refusal) return error.outcome;
    throw error;
  }
}

/** A refused or failed keyed request: recorded for the usage pages, at zero cost. */
export async function recordFailedRequest(
  db: PrismaClient,
  event: { access: KeyAccess; endpoint: string; tickers: string[]; statusCode: number; errorCode: string; bytes: number; requestId: string; now: Date },
): Promise<void> {
  await db.usageEvent.create({
    data: {
      orgId: event.access.orgId,
      apiKeyId: event.access.keyId,
      endpoint: event.endpoint,
      tickers: event.tickers,
      statusCode: event.statusCode,
      errorCode: event.errorCode,
      bytes: event.bytes,
      costNanos: 0n,
      requestId: event.requestId,
      createdAt: event.now,
    },
  });
}
