import autocannon, { type Client, type Request, type ResponseHeaders } from "autocannon";

/**
 * A closed-loop HTTP load with autocannon: keep-alive connections spread
 * evenly over one or more servers, each sending its own sequence of requests
 * round and round for a fixed time.
 *
 * Every request sent is answered: at the deadline each connection finishes
 * the request it has in flight and stops. autocannon's own end would destroy
 * the connections instead, and a paid request cut off that way may still be
 * charged by the server without the bench ever seeing its X-Cost-Dollars.
 */

export interface PlannedRequest {
  path: string;
  headers?: Record<string, string>;
  /** Called with each answer to this request (status and headers as sent). */
  onAnswer?: (status: number, headers: ResponseHeaders) => void;
}

export interface HttpLoadOptions {
  /** Base URLs, e.g. http://127.0.0.1:3000; connection i goes to urls[i % urls.length]. */
  urls: string[];
  connections: number;
  seconds: number;
  /** The requests connection `i` sends, in this order, round and round. */
  requestsFor: (connection: number) => PlannedRequest[];
}

export interface HttpLoadRun {
  /** Per-answer latency in ms (from writing the request to its last byte), in completion order. */
  latencies: number[];
  /** From the start to the last answer. */
  elapsedMs: number;
  statuses: Map<number, number>;
  answeredBy: Map<string, number>;
  sent: number;
  answered: number;
  /** Connection errors and timeouts, as autocannon counts them. */
  errors: number;
  /** The status and start of the body of the first answer that was not 2xx. */
  firstUnexpected?: string;
}

/** Long enough that a slow answer is waited for rather than dropped (a dropped one is a request whose cost is never seen). */
const REQUEST_TIMEOUT_SECONDS = 60;
/** autocannon's own end is only a safety net: the deadline stops every connection long before it. */
const SAFETY_MARGIN_SECONDS = REQUEST_TIMEOUT_SECONDS + 10;

export async function runHttpLoad(options: HttpLoadOptions): Promise<HttpLoadRun> {
  const run: HttpLoadRun = {
    latencies: [],
    elapsedMs: 0,
    statuses: new Map(),
    answeredBy: new Map(options.urls.map((url) => [url, 0])),
    sent: 0,
    answered: 0,
    errors: 0,
  };
  const clients: Client[] = [];
  const started = performance.now();
  let lastAnswerAt = started;

  const instance = autocannon({
    url: options.urls,
    connections: options.connections,
    duration: options.seconds + SAFETY_MARGIN_SECONDS,
    timeout: REQUEST_TIMEOUT_SECONDS,
    sampleInt: 100,
    setupClient: (client) => {
      const connection = clients.push(client) - 1;
      const url = options.urls.find((u) => new URL(u).port === String(client.opts.port)) ?? options.urls[0]!;
      client.setRequests(options.requestsFor(connection).map((planned) => toAutocannonRequest(planned, run)));
      client.on("request", () => run.sent++);
      client.on("response", (status: number, _bytes: number, latencyMs: number) => {
        lastAnswerAt = performance.now();
        run.answered++;
        run.latencies.push(latencyMs);
        run.statuses.set(status, (run.statuses.get(status) ?? 0) + 1);
        run.answeredBy.set(url, (run.answeredBy.get(url) ?? 0) + 1);
      });
    },
  });
  const deadline = setTimeout(() => clients.forEach(stopAfterCurrentRequest), options.seconds * 1000);
  try {
    const result = await instance;
    run.errors = result.errors;
  } finally {
    clearTimeout(deadline);
  }
  run.elapsedMs = lastAnswerAt - started;
  return run;
}

/** Sends nothing more once the request in flight is answered: then autocannon closes the connection itself. */
function stopAfterCurrentRequest(client: Client) {
  client.responseMax = Math.max(1, client.reqsMade);
}

function toAutocannonRequest(planned: PlannedRequest, run: HttpLoadRun): Request {
  return {
    method: "GET",
    path: planned.path,
    headers: planned.headers,
    onResponse: (status, body, _context, headers) => {
      if ((status < 200 || status > 299) && run.firstUnexpected === undefined) run.firstUnexpected = `${status} ${body.slice(0, 200)}`;
      planned.onAnswer?.(status, headers);
    },
  };
}

/** A response header by name, whatever its case; undefined when absent, an array when sent more than once. */
export function responseHeader(headers: ResponseHeaders, name: string): string | string[] | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}
