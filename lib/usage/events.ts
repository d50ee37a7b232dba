import type { DbClient } from "@/lib/db";
import { isServiceUnavailable } from "@/lib/errors";
import { addDays } from "@/lib/utils/dates";

/**
 * A refused or failed keyed request, or an answer without records (free),
 * recorded for the usage pages at zero cost. (A charged request's event is
 * written with its charge, by lib/billing/ledger.ts.)
 *
 * A request refused because the database is down cannot be recorded then;
 * its event waits in this process (at most MAX_HELD, the oldest kept) and is
 * written once the database answers again. Events that could not be kept
 * are counted and reported, never dropped in silence.
 */
export interface FailedRequest {
  orgId: string;
  keyId: string;
  endpoint: string;
  tickers: string[];
  statusCode: number;
  /** null for an answer sent free (200 without records). */
  errorCode: string | null;
  bytes: number;
  requestId: string;
  now: Date;
  clientIp?: string | null;
}

const MAX_HELD = 10_000;
const RETRY_MS = 2_000;

const rowOf = (event: FailedRequest) => ({
  orgId: event.orgId,
  apiKeyId: event.keyId,
  endpoint: event.endpoint,
  tickers: event.tickers,
  statusCode: event.statusCode,
  errorCode: event.errorCode,
  bytes: event.bytes,
  costNanos: 0n,
  requestId: event.requestId,
  clientIp: event.clientIp ?? null,
  createdAt: event.now,
});

export class UsageEventRecorder {
  private held: FailedRequest[] = [];
  private lost = 0;
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<boolean>;

  constructor(
    private readonly db: DbClient,
    private readonly log: (line: string) => void = console.warn,
  ) {}

  /** Events waiting for the database, and events that could not be kept. */
  get pending() {
    return { held: this.held.length, lost: this.lost };
  }

  async record(event: FailedRequest): Promise<void> {
    try {
      await this.db.usageEvent.create({ data: rowOf(event) });
    } catch (error) {
      if (!isServiceUnavailable(error)) throw error;
      this.hold(event);
    }
  }

  private hold(event: FailedRequest) {
    if (this.held.length >= MAX_HELD) {
      this.lost++;
      if (this.lost === 1 || this.lost % 1000 === 0) this.log(`[usage] ${this.lost} usage event(s) of refused requests could not be kept during the outage`);
      return;
    }
    this.held.push(event);
    this.timer ??= setTimeout(() => void this.flush(), RETRY_MS);
    this.timer.unref?.();
  }

  /** Writes the held events (once the database answers); true when none is left. A flush already under way is waited for first. */
  async flush(): Promise<boolean> {
    while (this.flushing) await this.flushing;
    this.flushing = this.writeHeld().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async writeHeld(): Promise<boolean> {
    this.timer = undefined;
    const batch = this.held.splice(0, this.held.length);
    if (batch.length === 0) return true;
    try {
      // An event whose write reached the database just as the connection died is there already: skip it.
      const { count } = await this.db.usageEvent.createMany({ data: batch.map(rowOf), skipDuplicates: true });
      this.log(`[usage] wrote ${count} usage event(s) held during an outage`);
      return true;
    } catch (error) {
      if (!isServiceUnavailable(error)) {
        this.lost += batch.length;
        this.log(`[usage] ${batch.length} held usage event(s) could not be written: ${(error as Error).message}`);
        return true;
      }
      this.held.unshift(...batch);
      this.timer ??= setTimeout(() => void this.flush(), RETRY_MS);
      this.timer.unref?.();
      return false;
    }
  }
}

/** How long the client address of an API request is kept (documented in docs/console.md: "Data kept"). */
export const CLIENT_ADDRESS_RETENTION_DAYS = 30;

/** Erases the client addresses of usage events older than the retention; the events themselves stay. */
export async function eraseOldClientAddresses(db: DbClient, now = new Date()): Promise<number> {
  const cutoff = addDays(now, -CLIENT_ADDRESS_RETENTION_DAYS);
  return db.$executeRaw`UPDATE usage_events SET client_ip = NULL WHERE client_ip IS NOT NULL AND created_at < ${cutoff}`;
}
