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
 * source implements is ./source-types.ts, the HTTP side ./http.ts. Bulk
 * archives are read entry by entry, never unpacked: their central directory
 * is read once, then each entry is inflated on demand.
 */
import { statSync, type Stats } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import nodePath from "node:path";
import { buffer } from "node:stream/consumers";
import yauzl from "yauzl";
import { openHttpSource } from "./http";
import { EdgarFetchError, type EdgarPath, type EdgarSource, type Fetched, type Validators } from "./source-types";

// This module is the way in: callers take the interface from here with openEdgarSource.
export { EdgarFetchError, type EdgarPath, type EdgarSource, type Fetched, type Validators };

/** Bad or missing settings: the message is shown to the operator as it is. */
export class EdgarConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EdgarConfigError";
  }
}

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

// ───────────────────────────── folder ─────────────────────────────

/** Where a path may be found in a folder, in order of preference. */
type FolderLocation = { file: string } | { zip: string; entry: string };

const BULK_ARCHIVES: Record<string, { folder: string; zip: string }> = {
  submissions: { folder: "submissions", zip: "submissions.zip" },
  "api/xbrl/companyfacts": { folder: "companyfacts", zip: "companyfacts.zip" },
};

/**
 * EDGAR's layout in a folder: the ticker files at its root (or under files/),
 * one JSON per company under submissions/ and companyfacts/ or else as an
 * entry of the bulk archive beside them, filings under Archives/ as on SEC.
 */
function folderLocations(root: string, path: EdgarPath): FolderLocation[] {
  const segments = checkEdgarPath(path);
  const name = segments[segments.length - 1]!;
  // turbopackIgnore: the folder is the operator's; a path built from a variable would make the build trace the whole project into every route importing this.
  const under = (...parts: string[]) => ({ file: nodePath.join(/*turbopackIgnore: true*/ root, ...parts) });

  if (segments[0] === "files" && segments.length === 2) return [under(name), under("files", name)];
  const bulk = BULK_ARCHIVES[segments.slice(0, -1).join("/")];
  if (bulk) return [under(bulk.folder, name), { zip: nodePath.join(/*turbopackIgnore: true*/ root, bulk.zip), entry: name }];
  return [under(...segments)];
}

/** Parts of a zip entry kept per name: the central directory of SEC's submissions.zip lists about a million. */
interface ZipEntryRecord {
  offset: number;
  compressedSize: number;
  uncompressedSize: number;
  compressionMethod: number;
  flags: number;
  crc32: number;
}

/** One bulk archive, opened by path on first use; its directory read once into a Map. */
class ZipArchive {
  private opening: Promise<{ zip: yauzl.ZipFile; entries: Map<string, ZipEntryRecord> }> | undefined;

  constructor(
    readonly file: string,
    readonly stats: Stats,
  ) {}

  async find(name: string): Promise<ZipEntryRecord | undefined> {
    const { entries } = await this.open();
    return entries.get(name);
  }

  async read(record: ZipEntryRecord): Promise<Buffer> {
    const { zip } = await this.open();
    // openReadStream wants an Entry; rebuild the few fields it reads.
    const entry = Object.assign(new yauzl.Entry(), {
      relativeOffsetOfLocalHeader: record.offset,
      compressedSize: record.compressedSize,
      uncompressedSize: record.uncompressedSize,
      compressionMethod: record.compressionMethod,
      generalPurposeBitFlag: record.flags,
    });
    return buffer(await zip.openReadStreamPromise(entry));
  }

  async close(): Promise<void> {
    const opened = await this.opening?.catch(() => undefined);
    opened?.zip.close();
  }

  private open() {
    this.opening ??= readDirectory(this.file);
    return this.opening;
  }
}

async function readDirectory(file: string) {
  const zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false });
  const entries = new Map<string, ZipEntryRecord>();
  try {
    for await (const entry of zip.eachEntry()) {
      entries.set(entry.fileName, {
        offset: entry.relativeOffsetOfLocalHeader,
        compressedSize: entry.compressedSize,
        uncompressedSize: entry.uncompressedSize,
        compressionMethod: entry.compressionMethod,
        flags: entry.generalPurposeBitFlag,
        crc32: entry.crc32,
      });
    }
  } catch (error) {
    zip.close();
    throw error;
  }
  return { zip, entries };
}

class FolderEdgarSource implements EdgarSource {
  readonly kind = "folder";
  readonly description: string;
  requests = 0;
  private readonly archives = new Map<string, ZipArchive>();

  constructor(readonly root: string) {
    this.description = `folder ${root}`;
  }

  async get(path: EdgarPath, validators?: Validators): Promise<Fetched> {
    try {
      for (const location of folderLocations(this.root, path)) {
        const answer = "file" in location ? await this.fromFile(location.file, validators) : await this.fromZip(location.zip, location.entry, validators);
        if (answer) return answer;
      }
      return { status: "missing" };
    } catch (error) {
      if (error instanceof EdgarFetchError) throw error;
      throw new EdgarFetchError(`Could not read ${path} from ${this.description}: ${(error as Error).message}`, path);
    }
  }

  async close(): Promise<void> {
    const archives = [...this.archives.values()];
    this.archives.clear();
    await Promise.all(archives.map((archive) => archive.close()));
  }

  private async fromFile(file: string, validators?: Validators): Promise<Fetched | undefined> {
    const stats = await statIfPresent(file);
    if (!stats?.isFile()) return undefined;
    const current = { etag: `"${stats.size}-${stats.mtimeMs}"`, lastModified: stats.mtime.toUTCString() };
    if (validators?.etag === current.etag) return { status: "not-modified" };
    this.requests++;
    return { status: "ok", body: await readFile(file), validators: current };
  }

  private async fromZip(file: string, name: string, validators?: Validators): Promise<Fetched | undefined> {
    const archive = await this.archive(file);
    const record = await archive?.find(name);
    if (!archive || !record) return undefined;
    // The archive's own date: SEC rebuilds the whole archive nightly.
    const current = { etag: `"${record.crc32}-${record.compressedSize}"`, lastModified: archive.stats.mtime.toUTCString() };
    if (validators?.etag === current.etag) return { status: "not-modified" };
    this.requests++;
    return { status: "ok", body: await archive.read(record), validators: current };
  }

  /** The archive at `file`, or undefined while there is none (looked for again next time). */
  private async archive(file: string): Promise<ZipArchive | undefined> {
    const known = this.archives.get(file);
    if (known) return known;
    const stats = await statIfPresent(file);
    if (!stats?.isFile()) return undefined;
    const archive = this.archives.get(file) ?? new ZipArchive(file, stats);
    this.archives.set(file, archive);
    return archive;
  }
}

function openFolderSource(folder: string): EdgarSource {
  const root = nodePath.resolve(/*turbopackIgnore: true*/ folder);
  let stats: Stats;
  try {
    stats = statSync(root);
  } catch {
    throw new EdgarConfigError(`EDGAR source folder ${root} does not exist.`);
  }
  if (!stats.isDirectory()) throw new EdgarConfigError(`EDGAR source ${root} is not a folder.`);
  return new FolderEdgarSource(root);
}

async function statIfPresent(file: string): Promise<Stats | undefined> {
  try {
    return await stat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}
