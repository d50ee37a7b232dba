import { randomBytes } from "node:crypto";
import type Stripe from "stripe";
import { createApiContext, type ApiContext } from "@/lib/api/context";
import { handleApiRequest } from "@/lib/api/handler";
import { changeBalance, ledgerTotals } from "@/lib/billing/ledger";
import { centsToNanos, formatDollars, parseDollars } from "@/lib/money";
import { processStripeEvent, type StripeEventInput } from "@/lib/billing/webhook";
import { SAMPLE_SHOWCASE } from "@/lib/data/sample";
import type { PrismaClient } from "@/lib/db";
import { createKey } from "@/lib/keys/manage";
import { createOrganization } from "@/lib/platform/organizations";
import { createUser } from "@/lib/auth/accounts";
import type { BenchDatabase } from "./database";
import { runLoad, summarize, type LoadSummary } from "./load";

/**
 * The scenarios of `npm run bench`, each a warm-up then a measured run at one
 * concurrency, followed by checks. Paid requests are really charged: a check
 * that fails (the ledger and the balance disagree, a 200 without its USAGE
 * entry, an unexpected status) is a failure of the whole run whatever the
 * targets say.
 */

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export interface ScenarioResult {
  /** Stable id targets refer to, e.g. "paid.rating". */
  id: string;
  title: string;
  concurrency: number;
  summary: LoadSummary;
  /** Mean response body size, for the HTTP scenarios. */
  meanBytes?: number;
  checks: Check[];
}

export interface BenchSettings {
  seconds: number;
  warmupSeconds: number;
}

/** No request of the benchmark may be refused for speed: the limits are lifted in the scratch database and context only. */
const UNLIMITED = 1_000_000_000;
const STARTING_BALANCE = "1000000";

export class BenchRun {
  readonly ctx: ApiContext;
  private orgCount = 0;

  constructor(readonly db: BenchDatabase, readonly settings: BenchSettings) {
    this.ctx = createApiContext(db.database.prisma, { estimateLimitPerMinute: UNLIMITED });
  }

  get prisma(): PrismaClient {
    return this.db.database.prisma;
  }

  /** Lifts the per-minute limit of the plan the benchmark's organizations are on (scratch database only). */
  async prepare(): Promise<void> {
    await this.prisma.plan.update({ where: { slug: "enterprise" }, data: { requestsPerMinute: UNLIMITED } });
  }

  private async org(dollars: string) {
    const org = await createOrganization(this.prisma, { name: `Bench org ${++this.orgCount}`, plan: "enterprise" }, { actorLabel: "bench" });
    if (parseDollars(dollars) !== 0n) {
      await changeBalance(this.prisma, { orgId: org.id, kind: "ADJUSTMENT", amountNanos: parseDollars(dollars), description: "bench" });
    }
    const { key } = await createKey(this.prisma, { orgId: org.id, name: "bench" }, { actorLabel: "bench" });
    return { id: org.id, key };
  }

  /** Warm-up, then the measured run; `operation` is the same for both. */
  private async measure(concurrency: number, operation: (i: number) => Promise<void>) {
    await runLoad(operation, { seconds: this.settings.warmupSeconds, concurrency });
    return summarize(await runLoad(operation, { seconds: this.settings.seconds, concurrency }));
  }

  private request(path: string, key?: string): Promise<Response> {
    const headers = new Headers(key ? { "API-KEY": key } : {});
    return handleApiRequest(new Request(`http://bench.local${path}`, { headers }), this.ctx);
  }

  /** Runs GETs of `pathFor(i)` and tallies statuses, bytes and charged dollars (warm-up included). */
  private async http(concurrency: number, pathFor: (i: number) => string, key?: string) {
    const tally = { statuses: new Map<number, number>(), bytes: 0, responses: 0, chargedNanos: 0n, firstUnexpected: "" };
    const summary = await this.measure(concurrency, async (i) => {
      const response = await this.request(pathFor(i), key);
      const body = await response.arrayBuffer();
      tally.statuses.set(response.status, (tally.statuses.get(response.status) ?? 0) + 1);
      tally.bytes += body.byteLength;
      tally.responses++;
      const cost = response.headers.get("X-Cost-Dollars");
      if (cost) tally.chargedNanos += parseDollars(cost);
      if (!tally.firstUnexpected && response.status >= 500) tally.firstUnexpected = new TextDecoder().decode(body).slice(0, 300);
    });
    return { summary, tally, meanBytes: tally.bytes / Math.max(1, tally.responses) };
  }

  private statusCheck(statuses: Map<number, number>, expected: number, sample: string): Check {
    const other = [...statuses].filter(([status]) => status !== expected);
    return {
      name: `every response is ${expected}`,
      ok: other.length === 0,
      detail: other.length ? `also got ${other.map(([s, n]) => `${n}× ${s}`).join(", ")}${sample ? `: ${sample}` : ""}` : `${statuses.get(expected) ?? 0}× ${expected}`,
    };
  }

  // ─────────────── 1. the paid data path ───────────────

  async paid(kind: "rating" | "offerings", concurrency: number): Promise<ScenarioResult> {
    const org = await this.org(STARTING_BALANCE);
    const tickers = this.db.tickers;
    const pathFor =
      kind === "rating"
        ? (i: number) => `/v1/dilution-rating?ticker=${tickers[i % tickers.length]}`
        : () => `/v1/offerings?ticker=${SAMPLE_SHOWCASE.manyOfferings}&limit=100`;
    const { summary, tally, meanBytes } = await this.http(concurrency, pathFor, org.key);
    const ok = tally.statuses.get(200) ?? 0;

    const totals = await ledgerTotals(this.prisma, org.id);
    const usageEntries = await this.prisma.creditLedgerEntry.count({ where: { orgId: org.id, kind: "USAGE" } });
    const usageEvents = await this.prisma.usageEvent.count({ where: { orgId: org.id, statusCode: 200 } });
    const expectedBalance = parseDollars(STARTING_BALANCE) - tally.chargedNanos;
    const checks: Check[] = [
      this.statusCheck(tally.statuses, 200, tally.firstUnexpected),
      {
        name: "sum(ledger) = balance",
        ok: totals.ledgerSumNanos === totals.balanceNanos,
        detail: `ledger ${formatDollars(totals.ledgerSumNanos)}, balance ${formatDollars(totals.balanceNanos)}`,
      },
      {
        name: "balance = start − Σ X-Cost-Dollars",
        ok: totals.balanceNanos === expectedBalance,
        detail: `balance ${formatDollars(totals.balanceNanos)}, expected ${formatDollars(expectedBalance)} (charged ${formatDollars(tally.chargedNanos)})`,
      },
      { name: "USAGE entries = 200s", ok: usageEntries === ok, detail: `${usageEntries} USAGE entries, ${ok} responses 200` },
      { name: "usage events (200) = 200s", ok: usageEvents === ok, detail: `${usageEvents} usage events, ${ok} responses 200` },
    ];
    const title = kind === "rating" ? "paid /v1/dilution-rating (1 ticker)" : `paid /v1/offerings ${SAMPLE_SHOWCASE.manyOfferings} limit=100`;
    return { id: `paid.${kind}`, title, concurrency, summary, meanBytes, checks };
  }

  // ─────────────── 2. the free path ───────────────

  async free(kind: "health" | "estimate", concurrency: number): Promise<ScenarioResult> {
    const tickers = this.db.tickers;
    const pathFor =
      kind === "health" ? () => "/health" : (i: number) => `/estimate?endpoint=dilution-rating&ticker=${tickers[i % tickers.length]}`;
    const { summary, tally, meanBytes } = await this.http(concurrency, pathFor);
    const title = kind === "health" ? "free /health" : "free /estimate dilution-rating";
    return { id: `free.${kind}`, title, concurrency, summary, meanBytes, checks: [this.statusCheck(tally.statuses, 200, tally.firstUnexpected)] };
  }

  // ─────────────── 3. a refusal ───────────────

  async refused(concurrency: number): Promise<ScenarioResult> {
    const org = await this.org("0");
    const tickers = this.db.tickers;
    const { summary, tally, meanBytes } = await this.http(concurrency, (i) => `/v1/dilution-rating?ticker=${tickers[i % tickers.length]}`, org.key);
    const refusals = tally.statuses.get(402) ?? 0;
    const totals = await ledgerTotals(this.prisma, org.id);
    const usageEntries = await this.prisma.creditLedgerEntry.count({ where: { orgId: org.id, kind: "USAGE" } });
    const recorded = await this.prisma.usageEvent.aggregate({
      where: { orgId: org.id, statusCode: 402 },
      _count: { _all: true },
      _sum: { costNanos: true },
    });
    const checks: Check[] = [
      this.statusCheck(tally.statuses, 402, tally.firstUnexpected),
      {
        name: "nothing charged",
        ok: totals.balanceNanos === 0n && totals.ledgerSumNanos === 0n && usageEntries === 0 && tally.chargedNanos === 0n,
        detail: `balance ${formatDollars(totals.balanceNanos)}, ledger ${formatDollars(totals.ledgerSumNanos)}, ${usageEntries} USAGE entries`,
      },
      {
        name: "each refusal recorded at zero cost",
        ok: recorded._count._all === refusals && (recorded._sum.costNanos ?? 0n) === 0n,
        detail: `${recorded._count._all} usage events (402) for ${refusals} refusals`,
      },
    ];
    return { id: "refused", title: "refused 402 (zero balance)", concurrency, summary, meanBytes, checks };
  }

  // ─────────────── 4. the Stripe webhook ───────────────

  /**
   * processStripeEvent on distinct `checkout.session.completed` events of
   * paid sessions the app recorded when the checkout started (as startTopUp
   * does), over 16 organizations; Stripe itself is a stub that answers the
   * receipt lookup at once, so only our side is measured.
   */
  async webhook(concurrency: number): Promise<ScenarioResult> {
    const user = await createUser(this.prisma, { email: `bench-${randomBytes(6).toString("hex")}@example.com` });
    const orgs = await Promise.all(Array.from({ length: 16 }, () => this.org("0")));
    const amounts = [2_000, 5_000, 10_000, 50_000];
    const events: StripeEventInput[] = [];
    const outcomes = new Map<string, number>();
    let creditedCents = 0;

    const prepare = async (count: number) => {
      const start = events.length;
      const rows = Array.from({ length: count }, (_, n) => {
        const i = start + n;
        const suffix = `${i.toString(36)}${randomBytes(8).toString("hex")}`;
        return { id: `cs_bench_${suffix}`, orgId: orgs[i % orgs.length]!.id, userId: user.id, amountCents: amounts[i % amounts.length]!, suffix };
      });
      for (let i = 0; i < rows.length; i += 1000) {
        const chunk = rows.slice(i, i + 1000).map((row) => ({ id: row.id, orgId: row.orgId, userId: row.userId, amountCents: row.amountCents, currency: "usd" }));
        await this.prisma.stripeCheckoutSession.createMany({ data: chunk });
      }
      for (const row of rows) {
        events.push({
          id: `evt_bench_${row.suffix}`,
          type: "checkout.session.completed",
          data: {
            object: {
              id: row.id,
              object: "checkout.session",
              mode: "payment",
              amount_total: row.amountCents,
              currency: "usd",
              payment_status: "paid",
              status: "complete",
              payment_intent: `pi_bench_${row.suffix}`,
              metadata: { org_id: row.orgId, user_id: row.userId },
            },
          },
        });
      }
    };

    const stripe = stubStripe();
    let offset = 0;
    const operation = async (i: number) => {
      const event = events[offset + i]!;
      const result = await processStripeEvent(this.prisma, stripe, event);
      outcomes.set(result.outcome, (outcomes.get(result.outcome) ?? 0) + 1);
      if (result.outcome === "processed") creditedCents += (event.data.object as { amount_total: number }).amount_total;
    };

    // Enough prepared sessions for the warm-up; its rate sizes the measured run's pool.
    await prepare(200);
    const warm = await runLoad(operation, { seconds: this.settings.warmupSeconds, concurrency, maxOperations: events.length });
    const rate = warm.latencies.length / (warm.elapsedMs / 1000);
    offset = events.length;
    await prepare(Math.ceil(rate * this.settings.seconds * 1.5) + 100);
    const summary = summarize(await runLoad(operation, { seconds: this.settings.seconds, concurrency, maxOperations: events.length - offset }));

    const processed = outcomes.get("processed") ?? 0;
    const attempted = warm.latencies.length + summary.operations;
    let balances = 0n;
    let consistent = true;
    for (const org of orgs) {
      const totals = await ledgerTotals(this.prisma, org.id);
      balances += totals.balanceNanos;
      consistent &&= totals.ledgerSumNanos === totals.balanceNanos;
    }
    const topups = await this.prisma.creditLedgerEntry.count({ where: { orgId: { in: orgs.map((o) => o.id) }, kind: "TOPUP" } });
    const expectedNanos = centsToNanos(creditedCents);
    const checks: Check[] = [
      {
        name: "every event processed",
        ok: processed === attempted,
        detail: [...outcomes].map(([outcome, n]) => `${n}× ${outcome}`).join(", "),
      },
      { name: "sum(ledger) = balance, each org", ok: consistent, detail: `${orgs.length} organizations` },
      {
        name: "credited = paid",
        ok: balances === expectedNanos && topups === processed,
        detail: `balances ${formatDollars(balances)}, paid ${formatDollars(expectedNanos)}, ${topups} TOPUP entries for ${processed} events`,
      },
    ];
    return { id: "webhook", title: "webhook checkout.session.completed", concurrency, summary, checks };
  }
}

/** The one Stripe call a paid session's completion makes (the receipt), answered at once. */
function stubStripe(): Stripe {
  const stub = {
    paymentIntents: {
      retrieve: async (id: string) => ({
        id,
        object: "payment_intent",
        latest_charge: { id: `ch_${id.slice(3)}`, object: "charge", receipt_url: `https://pay.stripe.test/receipts/${id}` },
      }),
    },
  };
  return stub as unknown as Stripe;
}
