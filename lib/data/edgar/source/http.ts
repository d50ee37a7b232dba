/**
 * EDGAR over HTTP: SEC itself, or any server laid out like it (the fake EDGAR
 * of tools/edgar/fake-server.ts). SEC blocks clients that send more than 10
 * requests a second or no contact User-Agent, so every request of one source
 * goes through one limiter, and failures SEC calls temporary (429, 5xx,
 * dropped connections) are retried with backoff before anything is reported.
 *
 * Which URL a path lives at is source.ts's business (`urlFor`); this module
 * only moves bytes. openEdgarSource (source.ts) is the way in; the interface
 * both implement is ./source-types.ts, so neither imports the other's types.
 */
import { EdgarFetchError, type EdgarPath, type EdgarSource, type Fetched, type Validators } from "./types";

export interface HttpSourceSettings {
  kind: "sec" | "url";
  description: string;
  /** Already validated by the caller. */
  userAgent: string;
  /** The absolute URL of a path; throws EdgarFetchError for a path it refuses. */
  urlFor: (path: EdgarPath) => string;
  maxPerSecond?: number;
  retries?: number;
  backoffMs?: number;
  maxWaitMs?: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  fetch?: typeof fetch;
}

const WINDOW_MS = 1_000;
const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * At most `limit` requests in any window of `windowMs`, as the server counts
 * them, over every caller of one source.
 *
 * A request reaches the server some time after it starts here: on a fresh
 * connection (a TLS handshake) later than on a reused one, so counting start
 * times alone lets a late first batch and a prompt second one land in the
 * same second at the server. So a request holds its place from its start
 * until a window after its answer came back (it surely arrived before that).
 * Callers are served first come, first served; only the head of the line waits.
 */
class RequestLimiter {
  /** Per request counted: when its place frees up; Infinity while it is under way. */
  private readonly places: { freeAt: number }[] = [];
  private line: Promise<unknown> = Promise.resolve();
  private heldUntil = 0;
  private answered: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
    private readonly sleep: (ms: number) => Promise<void>,
  ) {}

  /** Resolves when the caller may send its request, with what to call once its answer (or failure) is in. */
  take(): Promise<() => void> {
    const turn = this.line.then(() => this.waitForPlace());
    this.line = turn.catch(() => {});
    return turn;
  }

  /** Nobody starts before `until` (SEC said 429: it throttles the client, not one resource). */
  holdUntil(until: number): void {
    this.heldUntil = Math.max(this.heldUntil, until);
  }

  private async waitForPlace(): Promise<() => void> {
    for (;;) {
      const now = this.now();
      for (let i = this.places.length - 1; i >= 0; i--) if (this.places[i]!.freeAt <= now) this.places.splice(i, 1);
      if (this.heldUntil > now) {
        await this.sleep(this.heldUntil - now);
        continue;
      }
      if (this.places.length < this.limit) return this.occupy();
      const soonest = Math.min(...this.places.map((place) => place.freeAt));
      await (soonest === Infinity ? this.nextAnswer() : this.sleep(soonest - now));
    }
  }

  private occupy(): () => void {
    const place = { freeAt: Infinity };
    this.places.push(place);
    return () => {
      if (place.freeAt !== Infinity) return;
      place.freeAt = this.now() + this.windowMs;
      const answered = this.answered;
      this.answered = undefined;
      answered?.resolve();
    };
  }

  /** Every place is taken by a request under way: wait for one to be answered. */
  private nextAnswer(): Promise<void> {
    if (!this.answered) {
      let resolve = () => {};
      const promise = new Promise<void>((done) => (resolve = done));
      this.answered = { promise, resolve };
    }
    return this.answered.promise;
  }
}

/** What one attempt came to: an answer, or a failure worth another try. */
type Attempt = { answer: Fetched } | { retry: { status?: number; reason: string; retryAfterMs?: number } };

class HttpEdgarSource implements EdgarSource {
  readonly kind: "sec" | "url";
  readonly description: string;
  requests = 0;
  private readonly limiter: RequestLimiter;
  private readonly retries: number;
  private readonly backoffMs: number;
  private readonly maxWaitMs: number;
  private readonly timeoutMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  private readonly fetch: typeof fetch;

  constructor(private readonly settings: HttpSourceSettings) {
    this.kind = settings.kind;
    this.description = settings.description;
    this.retries = settings.retries ?? 5;
    this.backoffMs = settings.backoffMs ?? 1_000;
    this.maxWaitMs = settings.maxWaitMs ?? 60_000;
    this.timeoutMs = settings.timeoutMs ?? 30_000;
    this.sleep = settings.sleep ?? defaultSleep;
    this.now = settings.now ?? Date.now;
    this.fetch = settings.fetch ?? globalThis.fetch;
    this.limiter = new RequestLimiter(settings.maxPerSecond ?? 10, WINDOW_MS, this.now, this.sleep);
  }

  async get(path: EdgarPath, validators?: Validators): Promise<Fetched> {
    const url = this.settings.urlFor(path);
    for (let attempt = 0; ; attempt++) {
      const answered = await this.limiter.take();
      this.requests++;
      const outcome = await this.attempt(path, url, validators, answered);
      if ("answer" in outcome) return outcome.answer;

      const { status, reason, retryAfterMs } = outcome.retry;
      if (attempt >= this.retries) {
        throw new EdgarFetchError(`GET ${url} failed after ${attempt + 1} attempts: ${reason}`, path, status);
      }
      const wait = Math.min(this.maxWaitMs, retryAfterMs ?? this.backoff(attempt));
      if (status === 429) this.limiter.holdUntil(this.now() + wait);
      await this.sleep(wait);
    }
  }

  /** Nothing to release: fetch's connection pool is the process's. */
  async close(): Promise<void> {}

  private async attempt(path: EdgarPath, url: string, validators: Validators | undefined, answered: () => void): Promise<Attempt> {
    let response: Response;
    try {
      response = await this.fetch(url, { headers: this.headers(validators), signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      return { retry: { reason: describeNetworkError(error) } };
    } finally {
      answered();
    }
    let body: Buffer;
    try {
      // Read whole here (within the same timeout), so a connection dropped mid-body is
      // retried like any network failure. fetch (undici) undoes the gzip/deflate encoding itself.
      body = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      return { retry: { reason: describeNetworkError(error) } };
    }

    const { status } = response;
    if (status === 304) return { answer: { status: "not-modified" } };
    if (status === 404) return { answer: { status: "missing" } };
    if (status >= 200 && status < 300) {
      const etag = response.headers.get("etag");
      const lastModified = response.headers.get("last-modified");
      return { answer: { status: "ok", body, validators: { etag, lastModified } } };
    }
    if (RETRYABLE_STATUSES.has(status)) {
      const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), this.now());
      return { retry: { status, reason: `HTTP ${status}`, retryAfterMs } };
    }
    const hint = status === 403 ? " (SEC answers 403 to requests without a proper User-Agent, and to clients it has blocked)" : "";
    throw new EdgarFetchError(`GET ${url} answered HTTP ${status}${hint}`, path, status);
  }

  private headers(validators?: Validators): Record<string, string> {
    const headers: Record<string, string> = {
      "user-agent": this.settings.userAgent,
      "accept-encoding": "gzip, deflate",
    };
    if (validators?.etag) headers["if-none-match"] = validators.etag;
    if (validators?.lastModified) headers["if-modified-since"] = validators.lastModified;
    return headers;
  }

  /** backoffMs · 2^attempt, plus up to a quarter more at random so retrying clients spread out. */
  private backoff(attempt: number): number {
    const base = this.backoffMs * 2 ** attempt;
    return base + Math.random() * (base / 4);
  }
}

export function openHttpSource(settings: HttpSourceSettings): EdgarSource {
  return new HttpEdgarSource(settings);
}

/** Retry-After in milliseconds from `now`: delta-seconds or an HTTP-date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1_000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === "TimeoutError") return "no answer within the timeout";
  // undici reports "fetch failed" and puts the reason (ECONNREFUSED, …) in `cause`.
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}
