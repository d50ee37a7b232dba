/**
 * What every EDGAR source is, whatever it reads from: the interface that the
 * HTTP source (./http.ts) and the folder source (./folder.ts) implement, the
 * errors they throw, and the check every path passes. They import this one
 * and not each other, so no cycle forms.
 */
import nodePath from "node:path";

/** A resource named by its path on SEC's hosts, without a leading slash:
 *  "files/company_tickers.json", "files/company_tickers_exchange.json"          (www.sec.gov)
 *  "submissions/CIK0001318605.json", "submissions/CIK0001318605-submissions-001.json" (data.sec.gov)
 *  "api/xbrl/companyfacts/CIK0001318605.json"                                      (data.sec.gov)
 *  "Archives/edgar/data/1318605/000119312519133592/index.json" and any file in that folder (www.sec.gov) */
export type EdgarPath = string;

export interface Validators {
  etag?: string | null;
  lastModified?: string | null;
}

export type Fetched =
  | { status: "ok"; body: Buffer; validators: Validators }
  | { status: "not-modified" }
  | { status: "missing" }; // 404 / file absent: not an error, the caller decides

export interface EdgarSource {
  /** For logs and the sync report: "SEC EDGAR", "folder /x/y", "http://127.0.0.1:4321". */
  readonly description: string;
  /** "sec" | "url" | "folder" */
  readonly kind: "sec" | "url" | "folder";
  /** Reads one resource. With validators, answers "not-modified" when unchanged (HTTP 304; for a folder: same validators as last time). Throws EdgarFetchError on failures that retries could not overcome (network, 4xx other than 404, 5xx/429 after retries). */
  get(path: EdgarPath, validators?: Validators): Promise<Fetched>;
  /** Requests actually sent (HTTP) or files read (folder), for the sync report. */
  readonly requests: number;
  close(): Promise<void>;
}

/** A resource could not be read, even after retries. */
export class EdgarFetchError extends Error {
  constructor(
    message: string,
    readonly path: EdgarPath,
    readonly status?: number,
  ) {
    super(message);
    this.name = "EdgarFetchError";
  }
}

/** Bad or missing settings: the message is shown to the operator as it is. */
export class EdgarConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EdgarConfigError";
  }
}

/**
 * The segments of a path, or EdgarFetchError if it could reach outside the
 * tree it names: absolute, `..` or `.`, empty segments, backslashes, NUL.
 */
export function checkEdgarPath(path: EdgarPath): string[] {
  const segments = path.split("/");
  const refused =
    path === "" ||
    nodePath.isAbsolute(path) ||
    /^[a-z]:/i.test(path) ||
    /[\\\0]/.test(path) ||
    segments.some((segment) => segment === "" || segment === "." || segment === "..");
  if (refused) throw new EdgarFetchError(`Refused EDGAR path "${path}": paths are relative, without . or .. segments.`, path);
  return segments;
}
