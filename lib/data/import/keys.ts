/**
 * The natural keys an import has seen, to find a record whose key an earlier
 * one has. In memory while they are few (an EDGAR sync's file, the sample:
 * each duplicate is known at once); past that, appended to a temporary table
 * of the import's own transaction, without an index, and the duplicates are
 * found in one grouping when the file has been read, so a file of millions
 * of records holds none of their keys in the process.
 */
import type { Prisma } from "@/lib/db";
import type { ImportKind } from "./schema";

export interface KeyPosition {
  line?: number;
  index: number;
  /** The record in JSON terms ("offerings[3]"), for the error. */
  ref?: string;
}

/** A record whose key an earlier record of the file has. */
export interface Repeated {
  kind: ImportKind;
  key: string;
  at: KeyPosition;
  first: KeyPosition;
}

/** How many keys stay in memory (about 80 bytes each) before they move to the database. */
const IN_MEMORY_KEYS = 100_000;
const BATCH = 5_000;

const CREATE = `CREATE TEMPORARY TABLE "import_seen_keys" ("seq" bigint NOT NULL, "kind" text NOT NULL, "key" text NOT NULL, "line" int, "idx" int NOT NULL, "ref" text) ON COMMIT DROP`;

const APPEND = `INSERT INTO "import_seen_keys" ("seq", "kind", "key", "line", "idx", "ref")
SELECT "seq", $1, "key", "line", "idx", "ref" FROM json_to_recordset($2::json) AS x("seq" bigint, "key" text, "line" int, "idx" int, "ref" text)`;

/** Every record after the first of its key, with the first's position. */
const REPEATED = `WITH repeated AS (SELECT "kind", "key", min("seq") AS "first" FROM "import_seen_keys" GROUP BY "kind", "key" HAVING count(*) > 1)
SELECT k."kind", k."key", k."line", k."idx", k."ref", f."line" AS "first_line", f."idx" AS "first_idx", f."ref" AS "first_ref"
FROM repeated r
JOIN "import_seen_keys" k ON k."kind" = r."kind" AND k."key" = r."key" AND k."seq" > r."first"
JOIN "import_seen_keys" f ON f."kind" = r."kind" AND f."key" = r."key" AND f."seq" = r."first"
ORDER BY k."seq"`;

/** Keys are stored as their JSON text: a key joins its fields with NUL, which PostgreSQL's text cannot hold. */
const stored = (key: string) => JSON.stringify(key);

export class SeenKeys {
  /** Per kind, each key's first record as one number: its line, or -(index + 1) where it has none. */
  private readonly memory = new Map<ImportKind, Map<string, number>>();
  private inMemory = 0;
  private inDatabase = false;
  private seq = 0;

  constructor(private readonly tx: Prisma.TransactionClient) {}

  /**
   * Remembers a chunk's keys (distinct within it). While they are in memory,
   * answers the chunk's records whose key an earlier chunk had; once they are
   * in the database, those are found by `repeated()` at the end.
   */
  async add(kind: ImportKind, chunk: Map<string, KeyPosition>): Promise<Repeated[]> {
    if (!this.inDatabase && this.inMemory + chunk.size > IN_MEMORY_KEYS) await this.moveToDatabase();
    if (this.inDatabase) {
      await this.append(kind, chunk);
      return [];
    }
    let seen = this.memory.get(kind);
    if (!seen) this.memory.set(kind, (seen = new Map()));
    const repeated: Repeated[] = [];
    for (const [key, at] of chunk) {
      const first = seen.get(key);
      if (first !== undefined) repeated.push({ kind, key, at, first: first >= 0 ? { line: first, index: -1 } : { index: -first - 1 } });
      else {
        seen.set(key, at.line ?? -(at.index + 1));
        this.inMemory++;
      }
    }
    return repeated;
  }

  /** After the last chunk: the records whose key an earlier one had, among the keys kept in the database. */
  async repeated(): Promise<Repeated[]> {
    if (!this.inDatabase) return [];
    type Row = { kind: ImportKind; key: string; line: number | null; idx: number; ref: string | null; first_line: number | null; first_idx: number; first_ref: string | null };
    const rows = await this.tx.$queryRawUnsafe<Row[]>(REPEATED);
    const position = (line: number | null, index: number, ref: string | null): KeyPosition => ({ index, ...(line !== null ? { line } : {}), ...(ref !== null ? { ref } : {}) });
    return rows.map((row) => ({ kind: row.kind, key: JSON.parse(row.key) as string, at: position(row.line, row.idx, row.ref), first: position(row.first_line, row.first_idx, row.first_ref) }));
  }

  private async append(kind: ImportKind, keys: Iterable<[string, KeyPosition]>): Promise<void> {
    let rows: object[] = [];
    const flush = async () => {
      if (rows.length) await this.tx.$executeRawUnsafe(APPEND, kind, JSON.stringify(rows));
      rows = [];
    };
    for (const [key, at] of keys) {
      rows.push({ seq: this.seq++, key: stored(key), line: at.line ?? null, idx: at.index, ref: at.ref ?? null });
      if (rows.length >= BATCH) await flush();
    }
    await flush();
  }

  private async moveToDatabase(): Promise<void> {
    await this.tx.$executeRawUnsafe(CREATE);
    this.inDatabase = true;
    // The first positions as the error needs them: a line, or else the index.
    for (const [kind, seen] of this.memory) await this.append(kind, [...seen].map(([key, first]): [string, KeyPosition] => [key, first >= 0 ? { line: first, index: -1 } : { index: -first - 1 }]));
    this.memory.clear();
    this.inMemory = 0;
  }
}
