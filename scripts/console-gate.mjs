// @ts-check
/**
 * The parts of the console's gate that live in our HTTP server
 * (scripts/server.mjs), beside proxy.ts, which answers anyone but a platform
 * administrator on every /admin path as an unknown path (it rewrites the
 * request to CONSOLE_NOT_FOUND_PATH, a path no route answers):
 *
 * - Next tells the client about a proxy's rewrite (x-middleware-rewrite, and
 *   x-nextjs-rewritten-path on router requests). A path that does not exist
 *   has no such header, so the server leaves it out of the rewrite to the
 *   unknown path, and the two answers are the same byte for byte.
 * - The data upload (POST /admin/data/upload, up to 100 MB) must not pass
 *   through the proxy, which would copy its body into memory and cut it off
 *   at 10 MB. The console's Data page, shown to administrators only, gives
 *   the upload a ticket (X-Upload-Ticket: an expiry and its HMAC under a key
 *   of this server's); a request with a valid ticket skips the proxy (its
 *   matcher), and the route checks the administrator itself. The server
 *   removes a ticket that is not valid, so every other request to that path,
 *   whatever its method, meets the proxy like any /admin path.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const CONSOLE_NOT_FOUND_PATH = "/_console-not-found";
export const UPLOAD_TICKET_HEADER = "x-upload-ticket";
/** How long the Data page's ticket works: a page left open for a working day still uploads. */
export const UPLOAD_TICKET_TTL_MS = 12 * 3600_000;

const KEY_VARIABLE = "CONSOLE_UPLOAD_KEY";

/**
 * The key tickets are signed with, put in the environment at start so the
 * pages of this process read the same: derived from NEXTAUTH_SECRET (or
 * AUTH_SECRET) when set, so every instance accepts every instance's tickets;
 * otherwise random, for this process only.
 * @param {Record<string, string | undefined>} env
 */
export function ensureUploadKey(env = process.env) {
  if (env[KEY_VARIABLE]) return env[KEY_VARIABLE];
  const secret = env.NEXTAUTH_SECRET?.trim() || env.AUTH_SECRET?.trim();
  const key = secret ? createHmac("sha256", secret).update("console-upload-ticket").digest("hex") : randomBytes(32).toString("hex");
  env[KEY_VARIABLE] = key;
  return key;
}

/** @param {string} key @param {number} expiresAt */
function signature(key, expiresAt) {
  return createHmac("sha256", key).update(`console-upload\n${expiresAt}`).digest("hex");
}

/**
 * A ticket for the Data page's upload; null where this process was not
 * started by scripts/server.mjs (then the upload goes through the proxy).
 * @param {number} now
 * @param {Record<string, string | undefined>} env
 * @returns {string | null}
 */
export function mintUploadTicket(now = Date.now(), env = process.env) {
  const key = env[KEY_VARIABLE];
  if (!key) return null;
  const expiresAt = now + UPLOAD_TICKET_TTL_MS;
  return `${expiresAt}.${signature(key, expiresAt)}`;
}

/**
 * @param {unknown} ticket
 * @param {number} now
 * @param {Record<string, string | undefined>} env
 */
export function uploadTicketValid(ticket, now = Date.now(), env = process.env) {
  const key = env[KEY_VARIABLE];
  const match = typeof ticket === "string" ? /^(\d{13})\.([0-9a-f]{64})$/.exec(ticket) : null;
  if (!key || !match) return false;
  const expiresAt = Number(match[1]);
  if (expiresAt <= now || expiresAt > now + UPLOAD_TICKET_TTL_MS) return false;
  return timingSafeEqual(Buffer.from(match[2], "hex"), Buffer.from(signature(key, expiresAt), "hex"));
}

/**
 * Removes an upload ticket that is not valid, so the request meets the proxy.
 * @param {import("node:http").IncomingMessage} request
 */
export function dropInvalidUploadTicket(request) {
  if (request.headers[UPLOAD_TICKET_HEADER] !== undefined && !uploadTicketValid(request.headers[UPLOAD_TICKET_HEADER])) {
    delete request.headers[UPLOAD_TICKET_HEADER];
  }
}

const REWRITE_HEADERS = new Set(["x-middleware-rewrite", "x-nextjs-rewritten-path"]);

/**
 * True for Next's note of a rewrite to the unknown path, with or without the request's query. Next writes it
 * relative when the request's origin is the one it listens on, and absolute (http://localhost:…/_console-not-found)
 * when it is not, as behind a proxy that forwards https.
 */
export function revealsConsoleRewrite(/** @type {string} */ name, /** @type {unknown} */ value) {
  if (!REWRITE_HEADERS.has(String(name).toLowerCase())) return false;
  try {
    return new URL(String(value), "http://relative.invalid").pathname === CONSOLE_NOT_FOUND_PATH;
  } catch {
    return false;
  }
}

/**
 * Leaves Next's note of the rewrite to the unknown path out of a response, however it is written: setHeader,
 * appendHeader, or the headers given to writeHead (an object or a flat list of names and values).
 * @param {import("node:http").ServerResponse} response
 */
export function hideConsoleRewrite(response) {
  const setHeader = response.setHeader.bind(response);
  response.setHeader = (name, value) => (revealsConsoleRewrite(name, value) ? response : setHeader(name, value));
  const appendHeader = response.appendHeader.bind(response);
  response.appendHeader = (name, value) => (revealsConsoleRewrite(name, value) ? response : appendHeader(name, value));
  const writeHead = response.writeHead.bind(response);
  /** @type {(status: number, ...rest: any[]) => import("node:http").ServerResponse} */
  const hidingWriteHead = (status, ...rest) => {
    const index = rest.findIndex((part) => part !== null && typeof part === "object");
    if (index >= 0) rest[index] = withoutConsoleRewrite(rest[index]);
    return writeHead(status, ...rest);
  };
  response.writeHead = /** @type {typeof response.writeHead} */ (/** @type {unknown} */ (hidingWriteHead));
}

/** @param {Record<string, unknown> | unknown[]} headers */
function withoutConsoleRewrite(headers) {
  if (!Array.isArray(headers)) return Object.fromEntries(Object.entries(headers).filter(([name, value]) => !revealsConsoleRewrite(name, value)));
  if (headers.every(Array.isArray)) return headers.filter((pair) => !revealsConsoleRewrite(pair[0], pair[1]));
  const kept = [];
  for (let i = 0; i + 1 < headers.length; i += 2) if (!revealsConsoleRewrite(String(headers[i]), headers[i + 1])) kept.push(headers[i], headers[i + 1]);
  return kept;
}
