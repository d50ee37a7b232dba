import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { createGzip, gzip } from "node:zlib";
import { checkEdgarPath, openEdgarSource } from "@/lib/data/edgar/source";

/**
 * A fake SEC EDGAR for development and tests: a folder in EDGAR's layout
 * (the folder source of lib/data/edgar/source.ts, bulk archives included)
 * served at SEC's URL paths, both hosts' paths from one origin, with what a
 * client of SEC has to cope with:
 *   - ETag (a content hash) and Last-Modified (the file's), and 304 to
 *     If-None-Match / If-Modified-Since;
 *   - gzip when the client accepts it;
 *   - 404 for anything absent;
 *   - 403, as SEC answers, to a request whose User-Agent has no contact email;
 *   - on demand (`failNext`), 429 or 5xx answers with Retry-After.
 * The nightly archives are served too, at SEC's address
 * /Archives/edgar/daily-index/bulkdata/{submissions,companyfacts}.zip.
 * Every request is logged in `requests`, with when it arrived.
 *
 *   npx tsx scripts/edgar-fake.ts --root <folder> [--port N]
 */

export interface FakeEdgarRequest {
  /** Arrival, Date.now() ms. */
  at: number;
  /** The URL path, decoded, without the query. */
  path: string;
  userAgent: string | null;
  ifNoneMatch: string | null;
  ifModifiedSince: string | null;
  acceptEncoding: string | null;
  /** The status answered (0 while the answer is being prepared). */
  status: number;
}

export interface FakeEdgar {
  url: string;
  requests: FakeEdgarRequest[];
  /** Next n requests for paths matching `match` answer `status` with optional Retry-After seconds. */
  failNext(match: RegExp, n: number, status: number, retryAfterSeconds?: number): void;
  close(): Promise<void>;
}

interface Failure {
  match: RegExp;
  remaining: number;
  status: number;
  retryAfterSeconds?: number;
}

/** A resource found: in memory (a JSON, a zip entry) or a file streamed from disk (a whole bulk archive). */
interface Found {
  content: { body: Buffer } | { file: string };
  etag: string;
  lastModified: string;
  contentType: string;
}

type Answer = { status: number; headers?: Record<string, string>; text?: string } | { status: 200 | 304; found: Found };

const BULK_ARCHIVE = /^Archives\/edgar\/daily-index\/bulkdata\/(submissions|companyfacts)\.zip$/;

const CONTENT_TYPES: Record<string, string> = {
  ".json": "application/json",
  ".zip": "application/zip",
  ".xml": "application/xml",
  ".htm": "text/html",
  ".html": "text/html",
  ".txt": "text/plain",
};

export async function startFakeEdgar(options: { root: string; port?: number }): Promise<FakeEdgar> {
  const root = path.resolve(options.root);
  // Throws EdgarConfigError when the root is not a folder.
  const folder = openEdgarSource({ source: root });
  const requests: FakeEdgarRequest[] = [];
  const failures: Failure[] = [];
  const archiveEtags = new Map<string, { size: number; mtimeMs: number; etag: string }>();

  async function answer(req: IncomingMessage, urlPath: string): Promise<Answer> {
    if (req.method !== "GET" && req.method !== "HEAD") return { status: 405, headers: { allow: "GET, HEAD" }, text: "Method Not Allowed" };

    const failure = failures.find((candidate) => candidate.remaining > 0 && urlPath.search(candidate.match) >= 0);
    if (failure) {
      failure.remaining--;
      const headers: Record<string, string> = failure.retryAfterSeconds === undefined ? {} : { "retry-after": String(failure.retryAfterSeconds) };
      return { status: failure.status, headers, text: `Failing on purpose (HTTP ${failure.status})` };
    }

    if (!/[^\s@]+@[^\s@]+\.[^\s@]+/.test(req.headers["user-agent"] ?? "")) {
      return { status: 403, text: "Your request did not declare a User-Agent with a contact email, as SEC requires." };
    }

    const edgarPath = urlPath.slice(1);
    try {
      checkEdgarPath(edgarPath);
    } catch {
      return { status: 400, text: "Bad path" };
    }

    const found = await find(edgarPath);
    if (!found) return { status: 404, text: "Not Found" };
    return { status: isFresh(req, found) ? 304 : 200, found };
  }

  async function find(edgarPath: string): Promise<Found | undefined> {
    const bulk = BULK_ARCHIVE.exec(edgarPath);
    if (bulk) return findArchive(path.join(root, `${bulk[1]}.zip`));
    const fetched = await folder.get(edgarPath);
    if (fetched.status !== "ok") return undefined;
    return {
      content: { body: fetched.body },
      etag: hashEtag(createHash("sha256").update(fetched.body)),
      lastModified: fetched.validators.lastModified ?? new Date().toUTCString(),
      contentType: contentType(edgarPath),
    };
  }

  /** A whole bulk archive, streamed; its hash is remembered while the file stays the same. */
  async function findArchive(file: string): Promise<Found | undefined> {
    const stats = await stat(file).catch(() => undefined);
    if (!stats?.isFile()) return undefined;
    let known = archiveEtags.get(file);
    if (!known || known.size !== stats.size || known.mtimeMs !== stats.mtimeMs) {
      const hash = createHash("sha256");
      await pipeline(createReadStream(file), hash);
      known = { size: stats.size, mtimeMs: stats.mtimeMs, etag: hashEtag(hash) };
      archiveEtags.set(file, known);
    }
    return { content: { file }, etag: known.etag, lastModified: stats.mtime.toUTCString(), contentType: "application/zip" };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const record: FakeEdgarRequest = {
      at: Date.now(),
      path: requestPath(req.url),
      userAgent: req.headers["user-agent"] ?? null,
      ifNoneMatch: headerValue(req.headers["if-none-match"]),
      ifModifiedSince: headerValue(req.headers["if-modified-since"]),
      acceptEncoding: headerValue(req.headers["accept-encoding"]),
      status: 0,
    };
    requests.push(record);
    let result: Answer;
    try {
      result = await answer(req, record.path);
    } catch (error) {
      result = { status: 500, text: `Fake EDGAR failed: ${(error as Error).message}` };
    }
    record.status = result.status;
    await send(req, res, result).catch(() => res.destroy());
  }

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(match, n, status, retryAfterSeconds) {
      failures.push({ match, remaining: n, status, retryAfterSeconds });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await folder.close();
    },
  };
}

async function send(req: IncomingMessage, res: ServerResponse, result: Answer): Promise<void> {
  if (!("found" in result)) {
    res.writeHead(result.status, { "content-type": "text/plain; charset=utf-8", ...result.headers });
    res.end(req.method === "HEAD" ? undefined : result.text);
    return;
  }
  const { found } = result;
  const validators = { etag: found.etag, "last-modified": found.lastModified };
  if (result.status === 304) {
    res.writeHead(304, validators).end();
    return;
  }
  const gzipped = acceptsGzip(req.headers["accept-encoding"]);
  const headers: Record<string, string> = { ...validators, "content-type": found.contentType, vary: "Accept-Encoding" };
  if (gzipped) headers["content-encoding"] = "gzip";

  if ("body" in found.content) {
    const body = gzipped ? await gzipAsync(found.content.body) : found.content.body;
    res.writeHead(200, { ...headers, "content-length": String(body.length) });
    res.end(req.method === "HEAD" ? undefined : body);
    return;
  }
  if (!gzipped) headers["content-length"] = String((await stat(found.content.file)).size);
  res.writeHead(200, headers);
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  const file = createReadStream(found.content.file);
  await (gzipped ? pipeline(file, createGzip(), res) : pipeline(file, res));
}

const gzipAsync = promisify(gzip);

/** If-None-Match (weak comparison, "*", lists) first; If-Modified-Since only without it, as HTTP says. */
function isFresh(req: IncomingMessage, found: Found): boolean {
  const ifNoneMatch = headerValue(req.headers["if-none-match"]);
  if (ifNoneMatch !== null) {
    const tags = ifNoneMatch.split(",").map((tag) => tag.trim().replace(/^W\//, ""));
    return tags.includes("*") || tags.includes(found.etag);
  }
  const since = Date.parse(req.headers["if-modified-since"] ?? "");
  return !Number.isNaN(since) && Date.parse(found.lastModified) <= since;
}

function acceptsGzip(header: string | undefined): boolean {
  return (header ?? "").split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
    return (coding === "gzip" || coding === "*") && (q === undefined || Number(q.slice(2)) > 0);
  });
}

function requestPath(url: string | undefined): string {
  const { pathname } = new URL(url ?? "/", "http://fake-edgar");
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

function hashEtag(hash: ReturnType<typeof createHash>): string {
  return `"${hash.digest("hex").slice(0, 32)}"`;
}

function contentType(edgarPath: string): string {
  return CONTENT_TYPES[path.extname(edgarPath).toLowerCase()] ?? "application/octet-stream";
}
