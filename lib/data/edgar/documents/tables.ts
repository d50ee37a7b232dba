import { rowText, type Block, type TableBlock } from "./html";
import { isoDate, WRITTEN_DATE_PATTERN } from "./text";

/**
 * A table of a filing read as a table: its heading rows, and each body row's
 * label and values with the heading of the column each value stands under.
 * Columns are matched by where cells sit on the table's grid (`colspan`
 * counted), so "Number of Warrants" spanning a "$" cell and a figure heads
 * that figure; a "(in thousands …)" in the heading or the caption scales the
 * counts or the dollars it names.
 */
export interface HeadedTable {
  /** the index of its block among the document's blocks */
  block: number;
  /** the text lines just above the table, nearest last ("… outstanding as of September 30, 2025 is as follows:") */
  caption: string[];
  /** the heading rows as shown, top to bottom (how a column's date is quoted) */
  headingRows: string[];
  /** the heading of the label column ("Expiry Date"), "" when it has none */
  labelHeading: string;
  /** what the label column holds, by its heading */
  labelMeasure: Measure | null;
  rows: BodyRow[];
  /** multipliers the heading or caption states: counts and dollars (never per-share prices) */
  scale: { counts: number; dollars: number };
}

export interface BodyRow {
  /** the row's index among the table block's rows (a quote's place) */
  row: number;
  /** the row's label as shown, footnote marks taken off ("June 2023 Tranche A Warrants") */
  label: string;
  /** footnote marks the label carried ("(1)", "(a)", "*") */
  marks: string[];
  values: TableValue[];
  /** the row as one line: how a value from it is quoted */
  text: string;
}

export interface TableValue {
  /** the value as shown, "$" and parentheses folded in: "$ 25.00", "(2,045,000)" */
  text: string;
  /** the figure, when the value is one: negative when in parentheses, null for words and dates */
  number: number | null;
  /** a dash: nil */
  nil: boolean;
  /** written with a "$" (or under a heading in dollars): never a count */
  dollars: boolean;
  /** the headings above it, top to bottom: "September 30, 2025 Number of warrants" */
  heading: string;
  /** what its heading says it is */
  measure: Measure | null;
}

export type Measure = "count" | "price" | "average_price" | "amount" | "years" | "date" | "percent";

/**
 * What a column holds, by the words of its heading: the first entry that
 * matches wins, so a remaining life "in years" is not a count and a weighted
 * average price is not a series' price.
 */
export const COLUMN_MEASURES: ReadonlyArray<readonly [Measure, RegExp]> = [
  ["years", /\b(?:remaining|contractual)\s+(?:contractual\s+)?(?:life|term)\b|\(in years\)|\b(?:life|term) \(years\)|\byears? remaining\b/i],
  ["average_price", /\b(?:weighted[- ])?average\b[^|]*\b(?:price|per share|fair value)\b/i],
  ["price", /\b(?:exercise|conversion|strike|purchase) price\b|\bprice per (?:share|warrant)\b|\bper share\b|\bexercise prices?\b/i],
  // an issue or grant date is no expiry: only these words make a column one of dates that end an instrument
  ["date", /\bexpir(?:y|ation|es|ing)\b|\bmaturity\b|\bdue date\b|\bterminat\w* date\b/i],
  ["percent", /%|\bpercent(?:age)?\b|\binterest rate\b/i],
  ["amount", /\b(?:amount|principal|face value|carrying value|fair value|intrinsic value|proceeds|balance|liabilit(?:y|ies))\b|\$|\bin dollars\b/i],
  ["count", /\bnumber of\b|\bshares\b|\bwarrants?\b|\bunits\b|\boutstanding\b|\bexercisable\b/i],
];

export function measureOf(heading: string): Measure | null {
  for (const [measure, pattern] of COLUMN_MEASURES) if (pattern.test(heading)) return measure;
  return null;
}

/** A heading cell that is only a scale note: "(in thousands, except per share data)", "(Dollars in millions)". */
const SCALE_NOTE = /^\(?\s*(?:[\w$]+\s+){0,2}in (?:thousands|millions)\b[^)]*\)?$/i;

/** A footnote mark at the end of a label: "(1)", "(a)", "(A)(2)", "*", "†". */
const FOOTNOTE_MARKS = /(?:\s*(?:\((?:\d{1,2}|[a-z]|[A-Z]|[ivx]{1,4})\)|\*{1,3}|[†‡§]))+$/;

const NUMBER = /^(\()?-?\$?\s*(\d{1,3}(?:,\d{3})+|\d+)?(\.\d+)?\s*(\))?\s*%?$/;
const NIL = /^[—–-]+$/;
const YEAR = /^(?:19|20)\d{2}$/;

/** A cell's figure: "2,145,000" → 2145000, "(2,045,000" → −2045000, "0.20" → 0.2; null for anything else. */
export function cellNumber(text: string): number | null {
  const t = text.replace(/^\$\s*/, "").replace(/\s+/g, " ").trim();
  const m = NUMBER.exec(t);
  if (!m || (m[2] === undefined && m[3] === undefined)) return null;
  const value = Number(`${(m[2] ?? "0").replace(/,/g, "")}${m[3] ?? ""}`);
  return m[1] || t.startsWith("-") ? -value : value;
}

/** A cell that is only a footnote mark: "(1)", "(a)", "*". */
const MARK_CELL = /^(?:\((?:\d{1,2}|[a-z])\)|\*{1,3}|[†‡§])$/;

/** A cell that holds a value rather than words: a figure or a dash (a footnote mark is neither). */
function isValueCell(text: string): boolean {
  if (MARK_CELL.test(text)) return false;
  return cellNumber(text) !== null || NIL.test(text) || /^\$\s*[—–-]+$/.test(text);
}

interface GridCell {
  text: string;
  start: number;
  end: number;
}

function gridOf(table: TableBlock, row: number): GridCell[] {
  const cells: GridCell[] = [];
  let at = 0;
  table.rows[row]!.forEach((text, i) => {
    const span = table.spans[row]?.[i] ?? 1;
    if (text !== "") cells.push({ text, start: at, end: at + span });
    at += span;
  });
  return cells;
}

/** The row's values after its label: "$" and ")" cells folded into the figure they belong to. */
function rowValues(cells: GridCell[]): GridCell[] {
  const values: GridCell[] = [];
  let pending: GridCell | null = null;
  for (const cell of cells) {
    // a footnote mark in a cell of its own belongs to the label or figure before it
    if (MARK_CELL.test(cell.text) && (values.length || pending)) continue;
    if (/^\$\s*\(?$/.test(cell.text)) {
      pending = cell;
      continue;
    }
    if (/^\)?\s*%?$/.test(cell.text) && values.length) {
      const last = values[values.length - 1]!;
      values[values.length - 1] = { text: `${last.text}${cell.text}`, start: last.start, end: cell.end };
      continue;
    }
    values.push(pending ? { text: `${pending.text} ${cell.text}`, start: pending.start, end: cell.end } : cell);
    pending = null;
  }
  return values;
}

/** A body row has a label of words and at least one value that is not a year. */
function isBodyRow(cells: GridCell[]): boolean {
  const [first, ...rest] = rowValues(cells);
  if (!first) return false;
  const labelled = !isValueCell(first.text) && !YEAR.test(first.text);
  return labelled ? rest.some((c) => isValueCell(c.text) && !YEAR.test(c.text)) : false;
}

function overlap(a: GridCell, b: GridCell): number {
  return Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));
}

/**
 * "(in thousands, except share and per share data)", "(shares in thousands)",
 * "(dollars in thousands)": which of counts and dollars it multiplies.
 * Per-share prices are never scaled.
 */
export function tableScale(context: string): { counts: number; dollars: number } {
  const m = /\bin (thousands|millions)\b([^)]*)/i.exec(context);
  if (!m) return { counts: 1, dollars: 1 };
  const factor = /^thousands$/i.test(m[1]!) ? 1000 : 1_000_000;
  const named = /\b(shares|warrants|units|dollars|amounts)\s*$|\$\s*$/i.exec(context.slice(Math.max(0, m.index - 30), m.index));
  // "except share and per share data", "except per share and share data": counts as written; "except per share data" alone scales them
  const excepted = (/\bexcept\b(.*)/i.exec(m[2]!)?.[1] ?? "").replace(/\bper[- ](?:share|warrant)\b|\b(?:share|exercise) prices?\b/gi, "");
  const exceptShares = /\b(?:shares?|warrants?)\b/i.test(excepted);
  const ofCounts = named ? /^(?:shares|warrants|units)$/i.test(named[1] ?? "") : !exceptShares;
  const ofDollars = named ? !/^(?:shares|warrants|units)$/i.test(named[1] ?? "") : true;
  return { counts: ofCounts ? factor : 1, dollars: ofDollars ? factor : 1 };
}

/** The text blocks just above a table (tables between skipped), at most three, nearest last. */
function captionOf(blocks: Block[], at: number): string[] {
  const caption: string[] = [];
  for (let i = at - 1; i >= Math.max(0, at - 40) && caption.length < 3; i--) {
    const block = blocks[i]!;
    if (block.kind === "text") caption.unshift(block.text);
    // an earlier table of figures has its own caption (a layout table, a page header, is passed over),
    // which tables right after it, with no text between, share
    else if (block.rows.some((row) => row.some((cell) => isValueCell(cell) && !YEAR.test(cell) && !NIL.test(cell)))) {
      if (caption.length === 0) return captionOf(blocks, i);
      break;
    }
  }
  return caption;
}

/**
 * Reads a table block by its headings. The heading rows are those above the
 * first body row (a label of words with a figure beside it); a value's heading
 * is the text of the heading cells over its place on the grid, and, when a
 * heading row has exactly as many cells over the values as the row has values
 * but the places do not line up, the cell in the same order.
 */
export function readHeadedTable(blocks: Block[], at: number): HeadedTable | null {
  const table = blocks[at];
  if (!table || table.kind !== "table") return null;
  const grids = table.rows.map((_, i) => gridOf(table, i));
  const labelled = grids.findIndex(isBodyRow);
  // a table whose rows are keyed by a price or a date ("Exercise Price | Number of Warrants" over "$ 5.00 | 100,000") has no words for labels
  const figured = labelled < 0 ? grids.findIndex(hasFigure) : -1;
  const firstBody = labelled >= 0 ? labelled : figured;
  if (firstBody < 0) return null;
  const headings = grids.slice(0, firstBody);
  const keyHeading = labelled < 0 ? keyColumnHeading(headings, grids.slice(firstBody)) : null;
  const bodies = grids.slice(firstBody).map((cells, k) => {
    if (keyHeading) {
      const [first, ...rest] = rowValues(cells);
      return first && first.start < keyHeading.end ? { row: firstBody + k, label: first, values: rest } : { row: firstBody + k, label: null, values: first ? [first, ...rest] : [] };
    }
    const [first, ...rest] = rowValues(cells);
    const label = first && !isValueCell(first.text) && !YEAR.test(first.text) ? first : null;
    return { row: firstBody + k, label, values: label ? rest : first ? [first, ...rest] : [] };
  });
  // the label column ends where the labels do
  let narrowest = Infinity;
  for (const b of bodies) if (b.label) narrowest = Math.min(narrowest, b.label.end);
  // (a total row's label may span into the value columns: the narrowest label bounds the column)
  const labelEnd = keyHeading ? keyHeading.end : Number.isFinite(narrowest) ? narrowest : 0;
  const labelHeading = headings.map((cells) => cells.filter((c) => c.end <= labelEnd || c === keyHeading).map((c) => c.text).join(" ")).filter(Boolean).join(" ");
  const headingCells = headings.map((cells) => cells.filter((c) => c.end > labelEnd && c !== keyHeading));
  const caption = captionOf(blocks, at);
  // a scale note in one column's heading ("Aggregate intrinsic value (in thousands)") is that column's, not the table's
  const scale = tableScale(`${caption.join(" ")} ${headings.flat().map((c) => c.text).filter((t) => SCALE_NOTE.test(t)).join(" ")}`);
  const rows: BodyRow[] = [];
  for (const body of bodies) {
    const label = body.label?.text ?? "";
    const marks = FOOTNOTE_MARKS.exec(label)?.[0] ?? "";
    rows.push({
      row: body.row,
      label: label.slice(0, label.length - marks.length).trim(),
      marks: marks.match(/\([^)]*\)|\*+|[†‡§]/g) ?? [],
      values: headedValues(body.values, headingCells),
      text: rowText(table.rows[body.row]!),
    });
  }
  return { block: at, caption, headingRows: table.rows.slice(0, firstBody).map(rowText), labelHeading, labelMeasure: labelHeading ? measureOf(labelHeading) : null, rows, scale };
}

/** A row with a figure that is not a year (nor a lone footnote mark "(1)"). */
function hasFigure(cells: GridCell[]): boolean {
  return rowValues(cells).some((c) => isValueCell(c.text) && !YEAR.test(c.text) && !/^\(\d\)$/.test(c.text) && !NIL.test(c.text));
}

/** The heading of a key column of prices or dates: the leftmost heading cell, over the rows' first figures, that says so. */
function keyColumnHeading(headings: GridCell[][], bodies: GridCell[][]): GridCell | null {
  let firstStart = Infinity;
  for (const cells of bodies) firstStart = Math.min(firstStart, rowValues(cells)[0]?.start ?? Infinity);
  for (const cells of [...headings].reverse()) {
    const first = cells[0];
    if (!first || first.start > firstStart) continue;
    const measure = measureOf(first.text);
    if (measure === "price" || measure === "date") return first;
  }
  return null;
}

/**
 * Each value's headings: per heading row, the cell over the value's place;
 * when those do not pair the values one to one with cells and the row has as
 * many cells as values, the cell in the same order.
 */
function headedValues(values: GridCell[], headingCells: GridCell[][]): TableValue[] {
  const parts: string[][] = values.map(() => []);
  for (const cells of headingCells) {
    const over = values.map((value) => {
      let best: GridCell | null = null;
      for (const cell of cells) if (overlap(cell, value) > (best ? overlap(best, value) : 0)) best = cell;
      return best;
    });
    const oneToOne = over.every((cell) => cell !== null) && new Set(over).size === over.length;
    const chosen = !oneToOne && cells.length === values.length ? cells : over;
    chosen.forEach((cell, k) => {
      if (cell) parts[k]!.push(cell.text);
    });
  }
  return values.map((value, k) => {
    const heading = parts[k]!.join(" ");
    const text = value.text.replace(/\s+/g, " ").trim();
    return { text, number: cellNumber(text), nil: NIL.test(text.replace(/^\$\s*/, "")), dollars: /\$/.test(text), heading, measure: measureOf(heading) };
  });
}

/** Every table of a document read by its headings. */
export function headedTables(blocks: Block[]): HeadedTable[] {
  const tables: HeadedTable[] = [];
  blocks.forEach((block, i) => {
    if (block.kind !== "table") return;
    const table = readHeadedTable(blocks, i);
    if (table) tables.push(table);
  });
  return tables;
}

/** The calendar date a heading or caption names, ISO: "Outstanding at September 30, 2025" → "2025-09-30". */
export function headingDate(text: string): string | null {
  const m = new RegExp(WRITTEN_DATE_PATTERN).exec(text);
  return m ? isoDate(m[1]!) : null;
}
