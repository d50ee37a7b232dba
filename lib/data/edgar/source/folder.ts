/**
 * A folder in EDGAR's own layout as a source: files where SEC serves them, and
 * the per-company JSON files either loose or inside the bulk archive beside
 * them (./zip.ts).
 */
import { statSync, type Stats } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import nodePath from "node:path";
import { checkEdgarPath, EdgarConfigError, EdgarFetchError, type EdgarPath, type EdgarSource, type Fetched, type Validators } from "./types";
import { ZipArchive } from "./zip";


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

export function openFolderSource(folder: string): EdgarSource {
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
