/**
 * Writing an import: one upsert statement per kind (the rows travel as one
 * JSON parameter), the prune of rows the filings no longer give, and what
 * follows from the written records (threshold-list days, float values).
 */
import type { Prisma } from "@/lib/db";
import type { KindCounts } from "./report";
import { IMPORT_KINDS, RECORD_KINDS, type ColumnType, type ImportKind } from "./schema";

interface TableSpec {
  table: string;
  /** Import fields written as columns (a child's ticker aside). */
  columns: Record<string, ColumnType>;
  /** Children reference their company through company_id, found by ticker. */
  child: boolean;
  /** Import field → column, where they differ. */
  rename?: Record<string, string>;
  /** The natural key as columns: the conflict target (a child's ticker is its company_id). */
  conflict: string[];
}

function tableOf(kind: ImportKind): TableSpec {
  const spec = RECORD_KINDS[kind];
  const child = spec.parent !== null;
  const rename = "rename" in spec ? (spec.rename as Record<string, string>) : undefined;
  return {
    table: spec.table,
    columns: spec.columns,
    child,
    rename,
    conflict: spec.key.map((field) => (child && field === "ticker" ? "company_id" : (rename?.[field] ?? field))),
  };
}

const q = (identifier: string) => `"${identifier}"`;

/**
 * One statement per chunk: the rows travel as a single JSON parameter, are
 * expanded by json_to_recordset, joined to their company by ticker and
 * upserted; the update only happens when some column differs, and the
 * statement returns how many rows it created and updated.
 */
function upsertStatement(kind: ImportKind): string {
  const spec = tableOf(kind);
  const fields = Object.keys(spec.columns);
  const recordset = [...(spec.child ? ["ticker text"] : []), ...fields.map((f) => `${q(f)} ${spec.columns[f]}`)].join(", ");
  const column = (field: string) => spec.rename?.[field] ?? field;
  const insertColumns = [...(spec.child ? ["company_id"] : []), ...fields.map(column)];
  const selected = [...(spec.child ? ["c.id"] : []), ...fields.map((f) => `r.${q(f)}`)].join(", ");
  const from = spec.child ? `input r, "companies" c WHERE c.ticker = r.ticker` : "input r";
  const updated = insertColumns.filter((c) => !spec.conflict.includes(c));
  const set = [...updated.map((c) => `${q(c)} = EXCLUDED.${q(c)}`), ...(spec.child ? [] : [`"updated_at" = now()`])].join(", ");
  const compare = (prefix: string) => `(${updated.map((c) => `${prefix}.${q(c)}`).join(", ")})`;
  // A table that is all key (a threshold-list entry) has nothing to update: a stored row is unchanged.
  const onConflict = updated.length
    ? `DO UPDATE SET ${set}\n  WHERE ${compare("t")} IS DISTINCT FROM ${compare("EXCLUDED")}`
    : "DO NOTHING";
  return `WITH input AS (SELECT * FROM json_to_recordset($1::json) AS x(${recordset})),
written AS (
  INSERT INTO ${q(spec.table)} AS t (${insertColumns.map(q).join(", ")})
  SELECT ${selected} FROM ${from}
  ON CONFLICT (${spec.conflict.map(q).join(", ")}) ${onConflict}
  RETURNING (xmax = 0) AS inserted
)
SELECT count(*) FILTER (WHERE inserted)::int AS created, count(*) FILTER (WHERE NOT inserted)::int AS updated FROM written`;
}

/** Kinds whose rows can cite a filing (they carry the evidence columns): what a sync's import replaces. */
const FILING_KINDS = IMPORT_KINDS.filter((kind) => RECORD_KINDS[kind].parent !== null && "source_accession" in RECORD_KINDS[kind].columns);

/**
 * Removes one company's rows of a kind that cite a filing and whose natural
 * key is not among the given ones ($1 the ticker, $2 the keys as JSON rows).
 */
function pruneStatement(kind: ImportKind): string {
  const spec = tableOf(kind);
  const fields = (RECORD_KINDS[kind].key as readonly string[]).filter((field) => field !== "ticker");
  const column = (field: string) => spec.rename?.[field] ?? field;
  const recordset = fields.map((f) => `${q(f)} ${spec.columns[f]}`).join(", ");
  const same = fields.map((f) => `k.${q(f)} IS NOT DISTINCT FROM t.${q(column(f))}`).join(" AND ");
  return `DELETE FROM ${q(spec.table)} t USING "companies" c
WHERE c.id = t.company_id AND c.ticker = $1 AND t.source_accession IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM json_to_recordset($2::json) AS k(${recordset}) WHERE ${same})`;
}

const PRUNE_STATEMENTS = new Map(FILING_KINDS.map((kind) => [kind, pruneStatement(kind)]));

const STATEMENTS = Object.fromEntries(IMPORT_KINDS.map((k) => [k, upsertStatement(k)])) as Record<ImportKind, string>;

function toJson(rows: readonly object[]): string {
  return JSON.stringify(rows, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
}

/** Which of these tickers the database lists (companies written by this import included). */
export async function listedTickers(tx: Prisma.TransactionClient, tickers: readonly string[]): Promise<Set<string>> {
  if (tickers.length === 0) return new Set();
  const found = await tx.$queryRawUnsafe<{ ticker: string }[]>(
    `SELECT ticker FROM "companies" WHERE ticker IN (SELECT json_array_elements_text($1::json))`,
    JSON.stringify(tickers),
  );
  return new Set(found.map((r) => r.ticker));
}

/**
 * After the records are written: the days of the threshold lists in the file
 * (a listed company absent from a day's list was not on it), and the values
 * of EDGAR float snapshots that need a price (see deriveFloatValues).
 */
export async function afterWrite(tx: Prisma.TransactionClient, listDays: readonly string[], priceTickers: readonly string[]): Promise<number> {
  if (listDays.length) {
    await tx.$executeRawUnsafe(
      `INSERT INTO "reg_sho_list_days" ("list_date") SELECT d::date FROM json_array_elements_text($1::json) d ON CONFLICT DO NOTHING`,
      JSON.stringify(listDays),
    );
  }
  return priceTickers.length ? deriveFloatValues(tx, [...priceTickers]) : 0;
}

/**
 * EDGAR states shares outstanding and the public float in dollars, never a
 * price. For float snapshots that came from EDGAR (they cite a filing), the
 * values that need one are derived from the imported closing prices: price =
 * the latest close on or before the snapshot's day (at most 7 days before),
 * market cap = outstanding × price, float shares = public float ÷ the close
 * on the public float's own day (same 7-day rule), never above outstanding.
 * Without a close they stay unknown (NULL). Imported and sample snapshots
 * keep the values they were given.
 */
export async function deriveFloatValues(tx: Prisma.TransactionClient, tickers: string[]): Promise<number> {
  return tx.$executeRawUnsafe(
    `WITH derived AS (
       SELECT f.id,
         p.close_micros AS price,
         (f.outstanding_shares * p.close_micros) / 10000 AS cap,
         CASE WHEN f.public_float_cents IS NOT NULL AND pf.close_micros > 0
           THEN LEAST(f.outstanding_shares, (f.public_float_cents * 10000) / pf.close_micros) END AS float_shares
       FROM "float_snapshots" f
       JOIN "companies" c ON c.id = f.company_id
       LEFT JOIN LATERAL (SELECT close_micros FROM "daily_prices" d WHERE d.company_id = f.company_id
         AND d.date <= f.as_of AND d.date > f.as_of - 7 ORDER BY d.date DESC LIMIT 1) p ON true
       LEFT JOIN LATERAL (SELECT close_micros FROM "daily_prices" d WHERE d.company_id = f.company_id
         AND d.date <= f.public_float_as_of AND d.date > f.public_float_as_of - 7 ORDER BY d.date DESC LIMIT 1) pf ON true
       WHERE f.source_accession IS NOT NULL AND c.ticker IN (SELECT json_array_elements_text($1::json))
     )
     UPDATE "float_snapshots" f SET price_micros = d.price, market_cap_cents = d.cap, float_shares = d.float_shares
     FROM derived d
     WHERE f.id = d.id AND (f.price_micros, f.market_cap_cents, f.float_shares) IS DISTINCT FROM (d.price, d.cap, d.float_shares)`,
    JSON.stringify(tickers),
  );
}

/**
 * The EDGAR sync's replacement (ImportOptions.replaceFilingRowsOf): one
 * company's rows citing a filing that the file no longer gives are removed.
 * `kept`: the file's records of that company, by kind.
 */
export async function removeFilingRows(
  tx: Prisma.TransactionClient,
  kept: ReadonlyMap<ImportKind, readonly object[]>,
  ticker: string,
  counts: Record<ImportKind, KindCounts>,
): Promise<number> {
  let total = 0;
  for (const [kind, statement] of PRUNE_STATEMENTS) {
    const removed = await tx.$executeRawUnsafe(statement, ticker, toJson(kept.get(kind) ?? []));
    if (removed > 0) counts[kind].removed = removed;
    total += removed;
  }
  return total;
}

/** Rows per statement: big enough to be fast, small enough for modest memory. */
export const CHUNK_SIZE = 5_000;

/** Writes one chunk of valid records of a kind (at most CHUNK_SIZE): how many rows it created and updated. */
export async function upsertChunk(tx: Prisma.TransactionClient, kind: ImportKind, records: readonly object[]): Promise<{ created: number; updated: number }> {
  if (records.length === 0) return { created: 0, updated: 0 };
  const [result] = await tx.$queryRawUnsafe<{ created: number; updated: number }[]>(STATEMENTS[kind], toJson(records));
  return { created: result?.created ?? 0, updated: result?.updated ?? 0 };
}
