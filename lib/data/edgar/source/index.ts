/**
 * Where EDGAR data is read from, behind one interface: SEC itself, any server
 * laid out like it (a fake EDGAR in tests), or a folder in EDGAR's own layout,
 * such as a mirror holding SEC's nightly bulk archives `submissions.zip` and
 * `companyfacts.zip`.
 *
 *   const source = openEdgarSource({ source: "/data/edgar", userAgent });
 *   const answer = await source.get("submissions/CIK0001318605.json", lastValidators);
 *   if (answer.status === "ok") …answer.body, keep answer.validators for next time
 *   await source.close();
 *
 * Paths are named as on SEC's hosts (see EdgarPath); the interface every
 * source implements is ./types.ts; the HTTP side is ./http.ts, the folder
 * ./folder.ts and SEC's bulk archives in it ./zip.ts.
 */
import { openFolderSource } from "./folder";
import { openHttpSource } from "./http";
import { checkEdgarPath, EdgarConfigError, EdgarFetchError, type EdgarPath, type EdgarSource, type Fetched, type Validators } from "./types";

// This module is the way in: callers take the interface from here with openEdgarSource.
export { checkEdgarPath, EdgarConfigError, EdgarFetchError, type EdgarPath, type EdgarSource, type Fetched, type Validators };


export interface SourceOptions {
  /** --source: a folder path, or an http(s) base URL; undefined = SEC itself. */
  source?: string;
  /** EDGAR_USER_AGENT: "Name contact@example.com". Required for any HTTP source (SEC or URL). */
  userAgent?: string;
  /** Online only: overrides, defaults https://data.sec.gov and https://www.sec.gov (env EDGAR_DATA_URL / EDGAR_WWW_URL are read by the caller and passed here). */
  dataBaseUrl?: string;
  wwwBaseUrl?: string;
  /** Tests: requests per second cap (default 10), retry attempts (default 5), backoff base ms (default 1000), max single wait ms (default 60000), and an injectable sleep/now. */
  maxPerSecond?: number;
  retries?: number;
  backoffMs?: number;
  maxWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  fetch?: typeof fetch;
}

export const SEC_DATA_URL = "https://data.sec.gov";
export const SEC_WWW_URL = "https://www.sec.gov";

export function openEdgarSource(options: SourceOptions): EdgarSource {
  const source = options.source?.trim();
  if (!source) {
    const data = baseUrl(options.dataBaseUrl ?? SEC_DATA_URL, "EDGAR_DATA_URL");
    const www = baseUrl(options.wwwBaseUrl ?? SEC_WWW_URL, "EDGAR_WWW_URL");
    return openHttpSource({
      ...tuning(options),
      kind: "sec",
      description: "SEC EDGAR",
      userAgent: checkUserAgent(options.userAgent),
      urlFor: (path) => {
        const segments = checkEdgarPath(path);
        return `${isDataHostPath(segments) ? data : www}/${urlPath(segments)}`;
      },
    });
  }
  if (/^https?:\/\//i.test(source)) {
    const base = baseUrl(source, "--source");
    return openHttpSource({
      ...tuning(options),
      kind: "url",
      description: base,
      userAgent: checkUserAgent(options.userAgent),
      urlFor: (path) => `${base}/${urlPath(checkEdgarPath(path))}`,
    });
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) {
    throw new EdgarConfigError(`EDGAR source ${source}: only http:// and https:// URLs, or a folder, can be read.`);
  }
  return openFolderSource(source);
}

// ───────────────────────────── settings ─────────────────────────────

function tuning({ maxPerSecond, retries, backoffMs, maxWaitMs, sleep, now, fetch }: SourceOptions) {
  if (maxPerSecond !== undefined && !(maxPerSecond >= 1)) throw new EdgarConfigError(`maxPerSecond must be at least 1, not ${maxPerSecond}.`);
  return { maxPerSecond, retries, backoffMs, maxWaitMs, sleep, now, fetch };
}

const USER_AGENT_HELP =
  'SEC EDGAR requires every request to carry a User-Agent naming the requester with a contact email, and blocks requests without one. Set EDGAR_USER_AGENT, e.g. EDGAR_USER_AGENT="Jane Doe jane.doe@example.com".';

function checkUserAgent(userAgent: string | undefined): string {
  const value = userAgent?.trim();
  if (!value) throw new EdgarConfigError(`EDGAR_USER_AGENT is not set. ${USER_AGENT_HELP}`);
  // It goes out as a header as it is: one line of plain ASCII.
  if (!/^[\x20-\x7e]+$/.test(value)) throw new EdgarConfigError(`EDGAR_USER_AGENT must be one line of plain ASCII text. ${USER_AGENT_HELP}`);
  if (!/[^\s@]+@[^\s@]+\.[^\s@]+/.test(value)) throw new EdgarConfigError(`EDGAR_USER_AGENT "${value}" has no contact email. ${USER_AGENT_HELP}`);
  return value;
}

/** An http(s) URL without its trailing slash, so `${base}/${path}` is right. */
function baseUrl(value: string, setting: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new EdgarConfigError(`${setting} "${value}" is not a URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new EdgarConfigError(`${setting} "${value}" must be an http:// or https:// URL.`);
  if (url.search || url.hash) throw new EdgarConfigError(`${setting} "${value}" must be a base URL, without ? or #.`);
  return url.href.replace(/\/+$/, "");
}

/** data.sec.gov serves the JSON APIs; www.sec.gov everything else (files/, Archives/). */
function isDataHostPath(segments: string[]): boolean {
  return segments[0] === "submissions" || segments[0] === "api";
}

/** EDGAR's file names are plain; encoding keeps a stray ? or # from being read as more than a name. */
function urlPath(segments: string[]): string {
  return segments.map(encodeURIComponent).join("/");
}
