/**
 * One of SEC's nightly bulk archives (submissions.zip, companyfacts.zip) in a
 * folder source, read entry by entry and never unpacked: the central
 * directory is read once into a Map, then each entry is inflated on demand.
 */
import type { Stats } from "node:fs";
import { buffer } from "node:stream/consumers";
import yauzl from "yauzl";

/** Parts of a zip entry kept per name: the central directory of SEC's submissions.zip lists about a million. */
export interface ZipEntryRecord {
  offset: number;
  compressedSize: number;
  uncompressedSize: number;
  compressionMethod: number;
  flags: number;
  crc32: number;
}

/** One bulk archive, opened by path on first use; its directory read once into a Map. */
export class ZipArchive {
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
