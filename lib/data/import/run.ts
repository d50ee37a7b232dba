/**
 * One import inside its transaction, record by record as the source hands
 * them out: each checked against its kind's schema, its natural key against
 * every earlier record's, its company against the file's and the database's;
 * the valid ones written a chunk at a time while no error has been found. What
 * it keeps between chunks is small (the file's companies, the tickers looked
 * up, the first errors, a few sets for what follows the writes), so memory
 * does not grow with the file.
 */
import type { Prisma } from "@/lib/db";
import { collectGarbage } from "@/lib/utils/memory";
import type { RecordSource, SourceRecord } from "./files";
import { SeenKeys, type KeyPosition } from "./keys";
import { emptyCounts, MAX_LISTED_ERRORS, type ImportError, type KindCounts } from "./report";
import { IMPORT_KINDS, SKIP_UNKNOWN_TICKER_KINDS, type ImportKind } from "./schema";
import { checkRecord, duplicateError, naturalKey, type RecordAt } from "./validate";
import { afterWrite, CHUNK_SIZE, listedTickers, removeFilingRows, upsertChunk } from "./write";

interface Checked {
  at: RecordAt;
  record: object;
  key: string;
}

/** Chunks written between two full garbage collections (see collectGarbage): about every 100,000 records. */
const CHUNKS_PER_COLLECTION = 20;

/** How many tickers' answers from the database are kept (a file naming millions of unknown ones is not remembered whole). */
const TICKERS_REMEMBERED = 100_000;

export class ImportRun {
  readonly counts: Record<ImportKind, KindCounts> = emptyCounts();
  /** The first errors found, in the order found (at most MAX_LISTED_ERRORS). */
  readonly errors: ImportError[] = [];
  errorCount = 0;
  /** Tickers of the file's company rows, valid or not: records naming them are not reported again. */
  private readonly fileCompanies = new Set<string>();
  private readonly listed = new Map<string, boolean>();
  private readonly seen: SeenKeys;
  private chunk: { kind: ImportKind; rows: Checked[] } | null = null;
  private readonly listDays = new Set<string>();
  private readonly priceTickers = new Set<string>();
  private readonly kept = new Map<ImportKind, object[]>();
  private wroteRows = false;
  private flushes = 0;

  constructor(
    private readonly tx: Prisma.TransactionClient,
    /** The EDGAR sync of one ticker: its records are kept for the prune of rows the filings no longer give. */
    private readonly replaceFilingRowsOf?: string,
  ) {
    this.seen = new SeenKeys(tx);
  }

  /** Reads the whole source. */
  async read(source: RecordSource): Promise<void> {
    for await (const batch of source.items()) {
      for (const item of batch) {
        if ("error" in item) this.fail(item.error);
        else await this.take(item.record);
      }
    }
    await this.flush();
    for (const { kind, at, key, first } of await this.seen.repeated()) {
      this.fail(duplicateError({ kind, index: at.index, line: at.line, ...(at.ref ? { record: at.ref } : {}) }, key, first));
    }
  }

  /** After a read without errors: the prune of a sync, the days and values that follow from the records. True when anything changed. */
  async finish(): Promise<boolean> {
    for (const kind of IMPORT_KINDS) {
      const c = this.counts[kind];
      c.unchanged = c.received - c.created - c.updated - (c.skipped ?? 0);
    }
    const removed = this.replaceFilingRowsOf ? await removeFilingRows(this.tx, this.kept, this.replaceFilingRowsOf, this.counts) : 0;
    const derived = await afterWrite(this.tx, [...this.listDays], [...this.priceTickers]);
    return this.wroteRows || removed > 0 || derived > 0;
  }

  private fail(error: ImportError) {
    this.errorCount++;
    if (this.errors.length < MAX_LISTED_ERRORS) this.errors.push(error);
  }

  private async take(item: SourceRecord): Promise<void> {
    const { kind } = item;
    this.counts[kind].received++;
    const at: RecordAt = { line: item.line, kind, index: item.index, ...(item.ref ? { record: item.ref } : {}) };
    if (kind === "companies") {
      const ticker = (item.raw as { ticker?: unknown } | null)?.ticker;
      if (typeof ticker === "string") this.fileCompanies.add(ticker.trim().toUpperCase());
    }
    const checked = checkRecord(kind, item.raw, at);
    if ("errors" in checked) {
      for (const error of checked.errors) this.fail(error);
      return;
    }
    if (this.chunk && (this.chunk.kind !== kind || this.chunk.rows.length >= CHUNK_SIZE)) await this.flush();
    this.chunk ??= { kind, rows: [] };
    this.chunk.rows.push({ at, record: checked.record, key: naturalKey(kind, checked.record) });
  }

  /** The chunk's keys and companies checked, and its records written while the file has no error. */
  private async flush(): Promise<void> {
    const chunk = this.chunk;
    this.chunk = null;
    if (!chunk || chunk.rows.length === 0) return;
    const { kind } = chunk;
    if (++this.flushes % CHUNKS_PER_COLLECTION === 0) collectGarbage();

    // Natural keys: within the chunk, then against every earlier chunk.
    const positions = new Map<string, KeyPosition>();
    const distinct: Checked[] = [];
    for (const row of chunk.rows) {
      const first = positions.get(row.key);
      if (first) this.fail(duplicateError(row.at, row.key, first));
      else {
        positions.set(row.key, { line: row.at.line, index: row.at.index, ...(row.at.record ? { ref: row.at.record } : {}) });
        distinct.push(row);
      }
    }
    const repeated = await this.seen.add(kind, positions);
    for (const { at, key, first } of repeated) this.fail(duplicateError({ kind, index: at.index, line: at.line, ...(at.ref ? { record: at.ref } : {}) }, key, first));
    const again = new Set(repeated.map((r) => r.key));
    let rows = again.size ? distinct.filter((row) => !again.has(row.key)) : distinct;

    for (const { record } of rows) this.remember(kind, record);

    // Companies: named in the file, or listed in the database.
    if (kind !== "companies") {
      const tickerOf = (row: Checked) => (row.record as { ticker: string }).ticker;
      const unknown = [...new Set(rows.map(tickerOf).filter((t) => !this.fileCompanies.has(t) && !this.listed.has(t)))];
      if (unknown.length) {
        const found = await listedTickers(this.tx, unknown);
        if (this.listed.size + unknown.length > TICKERS_REMEMBERED) this.listed.clear();
        for (const ticker of unknown) this.listed.set(ticker, found.has(ticker));
      }
      const known = (ticker: string) => this.fileCompanies.has(ticker) || this.listed.get(ticker) === true;
      const skips = SKIP_UNKNOWN_TICKER_KINDS.has(kind);
      rows = rows.filter((row) => {
        const ticker = tickerOf(row);
        if (known(ticker)) return true;
        if (skips) this.counts[kind].skipped = (this.counts[kind].skipped ?? 0) + 1;
        else this.fail({ ...row.at, field: "ticker", message: `unknown ticker ${ticker}: not among this file's companies nor in the database` });
        return false;
      });
    }

    // One bad record anywhere means nothing is written: the rest of the file is only checked.
    if (this.errorCount > 0 || rows.length === 0) return;
    const written = await upsertChunk(
      this.tx,
      kind,
      rows.map((row) => row.record),
    );
    this.counts[kind].created += written.created;
    this.counts[kind].updated += written.updated;
    if (written.created + written.updated > 0) this.wroteRows = true;
  }

  /** What follows the writes needs: the threshold lists' days, the tickers with prices or floats, a sync's own records. */
  private remember(kind: ImportKind, record: object) {
    const r = record as { ticker?: string; list_date?: string };
    if (kind === "reg_sho_thresholds" && r.list_date) this.listDays.add(r.list_date);
    if ((kind === "daily_prices" || kind === "float_snapshots") && r.ticker) this.priceTickers.add(r.ticker);
    if (this.replaceFilingRowsOf && r.ticker === this.replaceFilingRowsOf) {
      let list = this.kept.get(kind);
      if (!list) this.kept.set(kind, (list = []));
      list.push(record);
    }
  }
}
