/**
 * The part of autocannon 9's programmatic API the HTTP bench uses (the
 * package ships no types). See node_modules/autocannon/README.md.
 */
declare module "autocannon" {
  import type { EventEmitter } from "node:events";

  export type ResponseHeaders = Record<string, string | string[]>;

  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Called with each response to this request, its body as text and its headers as sent. */
    onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: ResponseHeaders) => void;
  }

  /**
   * One connection. Events: "request" (a request is written), "response"
   * (statusCode, resBytes, responseTime in ms).
   */
  export interface Client extends EventEmitter {
    opts: { hostname?: string; port?: number | string };
    setRequests(requests: Request[]): void;
    /** Requests this connection has sent. */
    reqsMade: number;
    /**
     * Not in the README: the connection stops once it has sent this many
     * requests and had them answered (what the `amount` option sets). Falsy: no limit.
     */
    responseMax?: number;
  }

  export interface Options {
    url: string | string[];
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** Seconds a request may wait for its answer before the connection is dropped and opened again. */
    timeout?: number;
    /** Milliseconds between the samples of the per-second histograms (and the checks for the end). */
    sampleInt?: number;
    requests?: Request[];
    setupClient?: (client: Client) => void;
  }

  export interface Result {
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
  }

  export interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
  }

  export default function autocannon(options: Options): Instance;
}
