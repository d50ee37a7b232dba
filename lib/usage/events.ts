import type { DbClient } from "@/lib/db";

/**
 * A refused or failed keyed request, recorded for the usage pages at zero
 * cost. (A charged request's event is written with its charge, by
 * lib/billing/ledger.ts.)
 */
export async function recordFailedRequest(
  db: DbClient,
  event: { orgId: string; keyId: string; endpoint: string; tickers: string[]; statusCode: number; errorCode: string; bytes: number; requestId: string; now: Date },
): Promise<void> {
  await db.usageEvent.create({
    data: {
      orgId: event.orgId,
      apiKeyId: event.keyId,
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
