import type { Block } from "./html";
import { readInlineXbrl, type InlineXbrl, type XbrlFact } from "./inline-xbrl";
import { documentLines, parseDollars, quoteAround, type Line } from "./text";

/**
 * The fee table of a registration statement or prospectus supplement:
 * Exhibit 107 ("Calculation of Filing Fee Tables", an `EX-FILING FEES`
 * document, since 2022) or, before it, the "Calculation of Registration Fee"
 * table on the facing page. It gives the maximum aggregate offering price
 * registered, and the kinds of securities (equity or not).
 *
 * Cells are often split or shifted ("$" and the figure apart, "457 | (o)"),
 * so a row is read as text, not by column position: a row's maximum
 * aggregate offering price is its largest dollar figure (the other dollar
 * figures are the price per unit and the fee, both smaller; a share count
 * carries no "$"). A total under $100 is a placeholder ("$1" for carried-forward
 * securities, "$0.00" when fees are deferred under Rule 457(r)), not a size.
 * The total row is the size when it adds up (to the new rows, or to them and
 * the securities carried forward from an earlier statement under Rule
 * 415(a)(6), which stay registered); otherwise the new rows are summed.
 */
export type FeeTableKind = "exhibit_107" | "cover_page_pre2022" | "none";

export interface FeeTable {
  kind: FeeTableKind;
  /** The title the table was recognised by, quoted. */
  titleQuote: string | null;
  maxAggregateOffering: number | null;
  maxAggregateQuote: string | null;
  /** Security types of the registered rows ("Equity", "Debt", "Other", …), when the table names them. */
  securityTypes: string[];
  /** True when a row registers equity (common or preferred stock, shares, units of them). */
  registersEquity: boolean;
  /** True when every registered security is debt, notes or their warrants (no share class). */
  onlyDebt: boolean;
  securityTitles: string[];
  /** The first registered security's row, quoted. */
  firstSecurityRow: string | null;
}

const PLACEHOLDER_LIMIT = 100;
const DOLLAR_FIGURE = /\$\s*(?:\|\s*)?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)/g;

/** Dollar figures of a row: a "$" followed (in the same or the next cell) by a well-formed amount. */
function dollarFigures(text: string): number[] {
  const figures: number[] = [];
  for (const m of text.matchAll(DOLLAR_FIGURE)) {
    const value = parseDollars(m[1]!);
    if (value !== null) figures.push(value);
  }
  return figures;
}

const TOTAL_ROW = /^total(?: offering amounts?)?\b:?/i;
const NOT_A_SECURITY_ROW = /^(?:total|net fee|fee offset|security type)/i;
const CARRY_FORWARD_ROW = /^carry forward securities\b/i;
const EQUITY_TITLE = /\b(?:common|ordinary|preferred|preference|capital)\s+(?:stock|shares?)\b|\bshares\b|\bunits?\b|american depositary|\bequity\b/i;
const DEBT_TITLE = /\b(?:debt|notes?|debentures?|bonds?|certificates?|guarantees?)\b/i;

interface TableRange {
  lines: Line[];
  kind: Exclude<FeeTableKind, "none">;
  titleQuote: string;
}

/** The lines of the fee table: from its title to the first footnote or narrative after the totals. */
function feeTableLines(lines: Line[], kind: Exclude<FeeTableKind, "none">): TableRange | null {
  const title = kind === "exhibit_107" ? /calculation of filing fee tables?/i : /calculation of registration fee/i;
  // the title is a heading (short) with the table right under it, not a sentence that mentions the table
  const start = lines.findIndex((l, i) => l.text.length <= 80 && title.test(l.text) && lines.slice(i, i + 12).some((next) => next.cells !== null && next.cells.length >= 3));
  if (start < 0) return null;
  const titleLine = lines[start]!;
  const m = title.exec(titleLine.text)!;
  const end = Math.min(lines.length, start + 80);
  return { lines: lines.slice(start, end), kind, titleQuote: quoteAround(titleLine.text, m.index, m.index + m[0].length) };
}

function readTable(range: TableRange): FeeTable {
  let total: { value: number; quote: string } | null = null;
  const rows: { value: number; quote: string }[] = [];
  const carried: { value: number; quote: string }[] = [];
  const securityTypes: string[] = [];
  const securityTitles: string[] = [];
  let seenTotal = false;
  let firstSecurityRow: string | null = null;
  for (const line of range.lines) {
    if (!line.cells) {
      if (seenTotal && /^\(?\d\)?\s/.test(line.text)) break;
      continue;
    }
    const first = line.cells[0] ?? "";
    if (TOTAL_ROW.test(first) && !/fees previously paid|fee offsets/i.test(first)) {
      seenTotal = true;
      const figures = dollarFigures(line.text);
      if (figures.length && total === null) total = { value: figures[0]!, quote: line.text };
      continue;
    }
    if (seenTotal) continue;
    // one-cell rows are section headings ("Newly Registered Securities", "Carry Forward Securities")
    if (NOT_A_SECURITY_ROW.test(first) || line.cells.length < 2) continue;
    const carriedForward = CARRY_FORWARD_ROW.test(first);
    const type = line.cells.find((c) => /^(?:equity|debt|other|unallocated \(universal\) shelf|mortgage backed|asset-backed|exchange traded vehicle)\b/i.test(c));
    if (type) securityTypes.push(type.replace(/\s*\(\d+\)\s*$/, ""));
    const title = line.cells.find((c) => EQUITY_TITLE.test(c) || DEBT_TITLE.test(c));
    if (title) securityTitles.push(title);
    if ((type || title) && firstSecurityRow === null) firstSecurityRow = line.text.slice(0, 200);
    const figures = dollarFigures(line.text);
    if (figures.length) (carriedForward ? carried : rows).push({ value: Math.max(...figures), quote: line.text });
  }
  const rowSum = rows.reduce((sum, r) => sum + r.value, 0);
  const carriedSum = carried.reduce((sum, r) => sum + r.value, 0);
  // the total row, when it adds up: newly registered securities, with any carried forward from an earlier statement (still registered, so still to be sold)
  const addsUp = (sum: number) => total !== null && sum > 0 && Math.abs(total.value - sum) <= total.value * 0.005;
  let max: { value: number; quote: string } | null = null;
  if (range.kind === "cover_page_pre2022" && total) max = total;
  else if (total && (addsUp(rowSum) || addsUp(rowSum + carriedSum))) max = total;
  else if (rows.length === 1) max = rows[0]!;
  else if (rows.length > 1) max = { value: Math.round(rowSum * 100) / 100, quote: total?.quote ?? rows[0]!.quote };
  else if (total) max = total;
  if (max && max.value < PLACEHOLDER_LIMIT) max = null;
  const equity =
    securityTypes.some((t) => /^equity/i.test(t)) || (securityTypes.length === 0 && securityTitles.some((t) => EQUITY_TITLE.test(t) && !DEBT_TITLE.test(t)));
  const onlyDebt =
    !equity &&
    (securityTypes.length > 0 || securityTitles.length > 0) &&
    securityTitles.every((t) => !EQUITY_TITLE.test(t) || /debt|notes?\b/i.test(t));
  return {
    kind: range.kind,
    titleQuote: range.titleQuote,
    maxAggregateOffering: max?.value ?? null,
    maxAggregateQuote: max?.quote ?? null,
    securityTypes,
    registersEquity: equity,
    onlyDebt,
    securityTitles,
    firstSecurityRow,
  };
}

export const NO_FEE_TABLE: FeeTable = {
  kind: "none",
  titleQuote: null,
  maxAggregateOffering: null,
  maxAggregateQuote: null,
  securityTypes: [],
  registersEquity: false,
  onlyDebt: false,
  securityTitles: [],
  firstSecurityRow: null,
};

/**
 * A final prospectus's Exhibit 107 may be a sentence instead of a table (Rule
 * 457(r) fees paid with the takedown): "The maximum aggregate offering price
 * for such offering is $9,720,000.00."
 */
const NARRATIVE_MAXIMUM = /\bmaximum aggregate offering price (?:for|of) (?:such|the|this) offering is \$\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)/i;

/**
 * What an Exhibit 107 tags in inline XBRL (the SEC's `ffd:` taxonomy, since
 * 2022): the total offering amount (`ffd:TtlOfferingAmt`, else the sum of
 * each offering's `ffd:MaxAggtOfferingPric`) and each offering's security
 * type (`ffd:OfferingSctyTp`). Read only where the table's text gives none:
 * the text wins where both state it.
 */
function taggedFees(xbrl: InlineXbrl | null): { total: { value: number; quote: string } | null; types: string[] } {
  const facts = (xbrl?.facts ?? []).filter((f) => /^ffd:/i.test(f.concept));
  const amount = (f: XbrlFact) => (typeof f.value === "number" && f.quote ? { value: f.value, quote: f.quote } : null);
  const totals = facts.filter((f) => f.concept === "ffd:TtlOfferingAmt").map(amount).filter((a) => a !== null);
  const rows = facts.filter((f) => f.concept === "ffd:MaxAggtOfferingPric").map(amount).filter((a) => a !== null);
  const sum = rows.length ? { value: rows.reduce((n, a) => n + a.value, 0), quote: rows[0]!.quote } : null;
  const total = totals.length === 1 ? totals[0]! : sum;
  const types = [...new Set(facts.filter((f) => f.concept === "ffd:OfferingSctyTp" && typeof f.value === "string").map((f) => f.value as string))];
  return { total: total && total.value >= PLACEHOLDER_LIMIT ? total : null, types };
}

/** The fee table of an Exhibit 107 document (its inline-XBRL `ffd:` facts, when it has them, fill what the text leaves empty). */
export function readFeeExhibit(blocks: Block[], xbrl: InlineXbrl | null = null): FeeTable {
  const table = readFeeExhibitText(blocks);
  const tagged = taggedFees(xbrl);
  if (!tagged.total && tagged.types.length === 0) return table;
  const filled: FeeTable = table.kind === "none" ? { ...NO_FEE_TABLE, kind: "exhibit_107", titleQuote: tagged.total?.quote ?? null } : { ...table };
  if (filled.maxAggregateOffering === null && tagged.total) {
    filled.maxAggregateOffering = tagged.total.value;
    filled.maxAggregateQuote = tagged.total.quote;
  }
  if (filled.securityTypes.length === 0 && tagged.types.length) {
    filled.securityTypes = tagged.types;
    filled.registersEquity ||= tagged.types.some((t) => /equity/i.test(t));
    filled.onlyDebt = table.kind === "none" ? tagged.types.every((t) => /debt/i.test(t)) : filled.onlyDebt;
  }
  return filled.titleQuote ? filled : table;
}

function readFeeExhibitText(blocks: Block[]): FeeTable {
  const lines = documentLines(blocks);
  const range = feeTableLines(lines, "exhibit_107");
  if (range) return readTable(range);
  for (const line of lines.slice(0, 20)) {
    const m = NARRATIVE_MAXIMUM.exec(line.text);
    const value = m ? parseDollars(m[1]!) : null;
    if (!m || value === null) continue;
    const quote = quoteAround(line.text, m.index, m.index + m[0].length);
    return { ...NO_FEE_TABLE, kind: "exhibit_107", titleQuote: quote, maxAggregateOffering: value < PLACEHOLDER_LIMIT ? null : value, maxAggregateQuote: value < PLACEHOLDER_LIMIT ? null : quote };
  }
  return NO_FEE_TABLE;
}

/** The pre-2022 fee table on a registration statement's facing page (looked for before the prospectus begins). */
export function readCoverFeeTable(lines: Line[]): FeeTable {
  const head = lines.slice(0, 200);
  const range = feeTableLines(head, "cover_page_pre2022");
  return range ? readTable(range) : NO_FEE_TABLE;
}

/**
 * An exhibit fetched on its own (the sync, when the full submission is not to
 * be had): its maximum aggregate offering price in cents, null when it states
 * none (an automatic shelf deferring its fees, a carried-forward placeholder).
 */
export function feeExhibitCents(html: string): bigint | null {
  const { blocks, xbrl } = readInlineXbrl(html);
  const table = readFeeExhibit(blocks, xbrl);
  return table.maxAggregateOffering === null ? null : BigInt(Math.round(table.maxAggregateOffering * 100));
}
