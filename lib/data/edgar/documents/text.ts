import { rowText, type Block } from "./html";

/**
 * The lines of a document a reader searches, with what each value is quoted
 * from. A line is a paragraph or a table row (its non-empty cells joined by
 * single spaces, as quotes from tables are written). Labels and values also
 * pair up: a two-cell row ("Common stock offered by us | 330,000 Shares"),
 * or a short heading paragraph followed by its value paragraph, as summaries
 * of an offering are laid out either way.
 */
export interface Line {
  index: number;
  text: string;
  /** The table row's cells with their text, or null for a paragraph. */
  cells: string[] | null;
}

export interface LabelledValue {
  label: string;
  value: string;
  /** label and value as they read on the page, for the quote */
  text: string;
  index: number;
}

export function documentLines(blocks: Block[]): Line[] {
  const lines: Line[] = [];
  for (const block of blocks) {
    if (block.kind === "text") lines.push({ index: lines.length, text: block.text, cells: null });
    else for (const row of block.rows) lines.push({ index: lines.length, text: rowText(row), cells: row.filter((c) => c !== "") });
  }
  return lines;
}

const BULLET = /^[•●▪◦·\-–—]$/;

/** Label/value pairs: two-or-more-cell rows whose first cell is text, and heading paragraphs followed by their value. */
export function labelledValues(lines: Line[]): LabelledValue[] {
  const pairs: LabelledValue[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.cells && line.cells.length >= 2 && !BULLET.test(line.cells[0]!) && /[a-z]/i.test(line.cells[0]!)) {
      pairs.push({ label: line.cells[0]!, value: line.cells.slice(1).join(" "), text: line.text, index: i });
    } else if (!line.cells && line.text.length <= 120 && !/[.;]$/.test(line.text) && i + 1 < lines.length) {
      const next = lines[i + 1]!;
      if (!next.cells) pairs.push({ label: line.text, value: next.text, text: `${line.text} ${next.text}`, index: i });
    }
  }
  return pairs;
}

const MAX_QUOTE = 200;

/**
 * A quote of at most 200 characters of `text` that contains [start, end): the
 * sentence around it when it fits, else a window cut at word boundaries.
 */
export function quoteAround(text: string, start: number, end: number): string {
  if (text.length <= MAX_QUOTE) return text;
  let from = Math.max(0, text.lastIndexOf(". ", start) + 1);
  let to = text.indexOf(". ", end);
  to = to < 0 ? text.length : to + 1;
  if (to - from > MAX_QUOTE) {
    const room = MAX_QUOTE - (end - start);
    if (room <= 0) return text.slice(start, start + MAX_QUOTE).trim();
    from = Math.max(from, start - Math.floor(room / 2));
    to = Math.min(to, from + MAX_QUOTE);
    from = Math.max(0, Math.min(from, to - MAX_QUOTE));
    // whole words only
    if (from > 0) {
      const space = text.indexOf(" ", from);
      if (space >= 0 && space < start) from = space + 1;
    }
    if (to < text.length) {
      const space = text.lastIndexOf(" ", to);
      if (space > end) to = space;
    }
  }
  return text.slice(from, to).trim();
}

export interface Found {
  match: RegExpExecArray;
  line: Line;
  quote: string;
}

/** The first line (from `from`, before `to`) where the pattern matches, with the quote around the match. */
export function findInLines(lines: Line[], pattern: RegExp, from = 0, to = lines.length): Found | null {
  for (let i = from; i < Math.min(to, lines.length); i++) {
    const line = lines[i]!;
    pattern.lastIndex = 0;
    const match = pattern.exec(line.text);
    if (match) return { match, line, quote: quoteAround(line.text, match.index, match.index + match[0].length) };
  }
  return null;
}

/** Every match of a global pattern in the lines, each with its quote. */
export function findAllInLines(lines: Line[], pattern: RegExp, from = 0, to = lines.length): Found[] {
  const found: Found[] = [];
  const global = pattern.global ? pattern : new RegExp(pattern.source, `${pattern.flags}g`);
  for (let i = from; i < Math.min(to, lines.length); i++) {
    const line = lines[i]!;
    global.lastIndex = 0;
    for (let match = global.exec(line.text); match; match = global.exec(line.text)) {
      found.push({ match, line, quote: quoteAround(line.text, match.index, match.index + match[0].length) });
      if (match[0].length === 0) global.lastIndex++;
    }
  }
  return found;
}

// ───────────────────────────── numbers ─────────────────────────────

/** A count as written: "1,609,114" → 1609114. Grouping must be by threes; "761,12" is not a number. */
export function parseCount(text: string): number | null {
  const t = text.trim();
  if (!/^\d{1,3}(?:,\d{3})+$|^\d+$/.test(t)) return null;
  return Number(t.replace(/,/g, ""));
}

/** Dollars as written: "$7,000,040.63", "3.482", "$.01" → a number of dollars; null when not a well-formed amount. */
export function parseDollars(text: string): number | null {
  const t = text.replace(/[$\s]/g, "");
  if (!/^(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?$/.test(t) || !/\d/.test(t)) return null;
  return Number(t.replace(/,/g, ""));
}

/** "$150 million", "$4.2 billion" → dollars; plain amounts as parseDollars. */
export function parseScaledDollars(amount: string, scale: string | undefined): number | null {
  const value = parseDollars(amount);
  if (value === null) return null;
  const factor = /^billion/i.test(scale ?? "") ? 1e9 : /^million/i.test(scale ?? "") ? 1e6 : 1;
  return Math.round(value * factor * 100) / 100;
}

/** A count or amount pattern's source, for building readers' patterns. */
export const COUNT = String.raw`\d{1,3}(?:,\d{3})+|\d+`;
export const AMOUNT = String.raw`\$\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)`;

/** Text compared the way the scoring compares names: case, spacing and punctuation ignored. */
export function nameKey(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Initials ("H.C.", "U.S.") and the abbreviations of company names and times do not end a sentence. */
const ABBREVIATION = /(?:^|[\s(])(?:[A-Z]\.){1,3}$|\b[ap]\.m\.$|\b(?:Inc|Co|Corp|Ltd|No|Mr|Ms|Mrs|Dr|St|vs)\.$/;

/** Sentences of a paragraph (a period followed by a space and a capital, a digit or a quote), with where each starts. */
export function sentencesOf(text: string): { text: string; start: number }[] {
  const out: { text: string; start: number }[] = [];
  const re = /(?<=[.;!?])\s+(?=[A-Z0-9“"(•])/g;
  let start = 0;
  for (const m of text.matchAll(re)) {
    if (ABBREVIATION.test(text.slice(Math.max(start, m.index - 12), m.index))) continue;
    out.push({ text: text.slice(start, m.index), start });
    start = m.index + m[0].length;
  }
  out.push({ text: text.slice(start), start });
  return out;
}

/** A month written out, for patterns over text ("June 30, 2023"). */
export const MONTH_PATTERN = "(?:January|February|March|April|May|June|July|August|September|October|November|December)";
/** "June 30, 2023" (the comma may be missing), as one capturing group. */
export const WRITTEN_DATE_PATTERN = `(${MONTH_PATTERN}\\s+\\d{1,2},?\\s+\\d{4})`;
/** Month names in lower case, January first. */
export const MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/** "June 30, 2023" → "2023-06-30"; null when it is not a calendar date. */
export function isoDate(text: string): string | null {
  const m = /^([A-Za-z]+)\s+(\d{1,2}),?\s+(\d{4})$/.exec(text.trim());
  const month = m ? MONTH_NAMES.indexOf(m[1]!.toLowerCase()) + 1 : 0;
  if (!m || month === 0) return null;
  const day = Number(m[2]);
  const date = new Date(Date.UTC(Number(m[3]), month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${m[3]}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}
