#!/usr/bin/env node
// @ts-check
// The app's HTTP server: `npm start` (production) and `npm run dev` (with
// --dev). Next itself believes a client-sent X-Forwarded-For; this server
// decides the client's address from the socket and the trusted proxies
// (scripts/client-address.mjs) before Next sees the request.
//
//   node scripts/server.mjs [--dev] [-p PORT] [-H HOST]
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import { clientAddressHeaderName, stampClientAddress, trustFromEnv } from "./client-address.mjs";
import { dropInvalidUploadTicket, ensureUploadKey, hideConsoleRewrite } from "./console-gate.mjs";

const args = process.argv.slice(2);
const option = (short, long) => {
  for (const [i, arg] of args.entries()) {
    if (arg === short || arg === long) return args[i + 1];
    if (arg.startsWith(`${long}=`)) return arg.slice(long.length + 1);
  }
  return undefined;
};
const dev = args.includes("--dev");
const port = Number(option("-p", "--port") ?? process.env.PORT ?? 3000);
const hostname = option("-H", "--hostname") ?? process.env.HOSTNAME ?? undefined;
process.env.PORT = String(port);

let trust;
try {
  trust = trustFromEnv();
} catch (error) {
  console.error(`[server] ${error.message}`);
  process.exit(1);
}
const headerName = clientAddressHeaderName();
// The request's query as received, for lib/utils/request-url.ts: Next rebuilds the URL a route sees from a plain
// object, which loses a parameter named __proto__. A random name, so no client can send it.
const queryHeaderName = (process.env.REQUEST_QUERY_HEADER ??= `x-request-query-${randomBytes(8).toString("hex")}`);
// Before Next starts, so the console's pages sign upload tickets with it (scripts/console-gate.mjs).
ensureUploadKey();

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const app = next({ dev, dir: appDir, hostname: hostname ?? "localhost", port });
const handle = app.getRequestHandler();
await app.prepare();

// Server actions take at most 1 MB (lib/platform/server-action-guard.ts says the same). A larger one is
// refused here, before Next starts copying its body for proxy.ts: a client that hangs up mid-upload
// would otherwise surface inside Next as an uncaught "aborted" error.
const SERVER_ACTION_BODY_LIMIT = 1_000_000;

// Methods the Fetch standard forbids in a Request: Next fails to build one for a route or a proxied path and
// answers 500 with a stack trace in the log. Every path refuses them alike, so the console stays unknown.
const FORBIDDEN_METHODS = new Set(["TRACE", "TRACK", "CONNECT"]);

/**
 * The server actions of this build (null in development, where they change as files do). A post naming another
 * gets Next's own answer (which the browser's router reads as "a newer deployment": it reloads the page) from here,
 * where Next would also log the error with its stack for every made-up id anyone sends.
 */
const actionIds = dev ? null : readActionIds();
function readActionIds() {
  const manifest = path.join(appDir, process.env.NEXT_DIST_DIR || ".next", "server", "server-reference-manifest.json");
  const { node = {}, edge = {} } = JSON.parse(readFileSync(manifest, "utf8"));
  return new Set([...Object.keys(node), ...Object.keys(edge)]);
}
// Next's length of an action id (42 hex characters); another length is "invalid" rather than "unavailable".
const ACTION_ID_LENGTH = 42;

/** A query as a header value: what is not printable ASCII percent-encoded, as a URL parser would. */
const encodeForHeader = (/** @type {string} */ text) => text.replace(/[^\x21-\x7e]/g, (character) => encodeURIComponent(character));

const server = createServer((request, response) => {
  request.on("error", () => {}); // a client that hangs up mid-upload is not a server error
  if (FORBIDDEN_METHODS.has(request.method ?? "")) {
    response.writeHead(405, { Allow: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS", "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" }).end("Method Not Allowed");
    request.resume();
    return;
  }
  const actionId = request.headers["next-action"];
  if (actionIds && typeof actionId === "string" && request.method === "POST" && !actionIds.has(actionId)) {
    const [status, body] = actionId.length === ACTION_ID_LENGTH ? [409, "Server Action unavailable."] : [400, "Invalid Server Action request."];
    response.writeHead(status, { "x-nextjs-action-not-found": "1", "Content-Type": "text/plain", "Cache-Control": "no-store" }).end(body);
    request.resume();
    return;
  }
  if (request.headers["next-action"] && request.method === "POST") {
    const length = request.headers["content-length"];
    const refusal = length === undefined ? [411, "Send the form with a Content-Length."] : Number(length) > SERVER_ACTION_BODY_LIMIT ? [413, "The form is larger than 1 MB."] : null;
    if (refusal) {
      response.writeHead(refusal[0], { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", Connection: "close" }).end(refusal[1]);
      request.resume();
      return;
    }
  }
  stampClientAddress(request, trust, headerName);
  const queryStart = (request.url ?? "").indexOf("?");
  request.headers[queryHeaderName] = queryStart < 0 ? "" : encodeForHeader(request.url.slice(queryStart));
  // The console answers anyone but an administrator as an unknown path, headers included (scripts/console-gate.mjs).
  dropInvalidUploadTicket(request);
  hideConsoleRewrite(response);
  handle(request, response);
});
// Idle keep-alive connections stay open longer than a load balancer's idle timeout (60 s on the
// common ones). With Node's default of 5 s, a proxy or client that reuses a connection just as the
// server closes it gets a reset instead of an answer.
const keepAliveMs = Number(process.env.KEEP_ALIVE_TIMEOUT_MS ?? 65_000);
if (!Number.isInteger(keepAliveMs) || keepAliveMs < 1_000) {
  console.error("[server] KEEP_ALIVE_TIMEOUT_MS must be a whole number of milliseconds, at least 1000");
  process.exit(1);
}
server.keepAliveTimeout = keepAliveMs;
server.headersTimeout = keepAliveMs + 1_000;
// Next attaches its own upgrade handler (the dev server's hot reload socket) to this server on the first request.

server.listen(port, hostname, () => {
  console.log(`[server] ${dev ? "development" : "production"} server on http://${hostname ?? "localhost"}:${port} · trusted proxies: ${trust.description}`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close();
    app.close().finally(() => process.exit(0));
  });
}
