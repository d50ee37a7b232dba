import type { Block } from "./html";
import { documentLines, parseDollars, quoteAround, type Line } from "./text";
import { dollarsToCents, htmlToText, normalizeForMatching } from "./plain-text";

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
  const start = lines.findIndex((l, i) => l.text.length <= 80 && title.test(l.text) && lines.slice(i, i + 8).some((next) => next.cells !== null && next.cells.length >= 3));
  if (start < 0) return null;
  const titleLine = lines[start]!;
  const m = title.exec(titleLine.text)!;
  const end = Math.min(lines.length, start + 80);
  return { lines: lines.slice(start, end), kind, titleQuote: quoteAround(titleLine.text, m.index, m.index + m[0].length) };
}

function readTable(range: TableRange): FeeTable {
  let total: { value: number; quote: string } | null = null;
  const rows: { value: number; quote: string }[] = [];
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
    if (figures.length && !carriedForward) rows.push({ value: Math.max(...figures), quote: line.text });
  }
  const rowSum = rows.reduce((sum, r) => sum + r.value, 0);
  let max: { value: number; quote: string } | null = null;
  if (range.kind === "cover_page_pre2022" && total) max = total;
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

/** The fee table of an Exhibit 107 document. */
export function readFeeExhibit(blocks: Block[]): FeeTable {
  const range = feeTableLines(documentLines(blocks), "exhibit_107");
  return range ? readTable(range) : NO_FEE_TABLE;
}

/** The pre-2022 fee table on a registration statement's facing page (looked for before the prospectus begins). */
export function readCoverFeeTable(lines: Line[]): FeeTable {
  const head = lines.slice(0, 200);
  const range = feeTableLines(head, "cover_page_pre2022");
  return range ? readTable(range) : NO_FEE_TABLE;
}

// ───────────────────────────── an exhibit fetched alone (inline-XBRL facts, else its visible table) ─────────────────────────────

export interface FeeExhibit {
  /**
   * Sum of the "maximum aggregate offering price" amounts of the fee table's
   * rows, in cents; null when the exhibit states none (e.g. an automatic shelf
   * deferring fees under Rules 456(b)/457(r) with no amount).
   */
  maxAggregateOfferingCents: bigint | null;
  /** The total offering amount line if stated, in cents, else null. */
  totalOfferingCents: bigint | null;
  /** The form type the exhibit says it belongs to if stated (e.g. "424B5", "S-3"), else null. */
  formType: string | null;
}

interface IxFact {
  name: string;
  contextRef: string | null;
  cents: bigint | null;
}

function attribute(attributes: string, name: string): string | null {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, "i").exec(attributes);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

/** The value of one `ix:nonFraction` in cents, honouring nil, `format`, `scale` and `sign`. */
function ixAmountCents(attributes: string, content: string): bigint | null {
  if (/xsi:nil\s*=\s*["']true["']/i.test(attributes)) return null;
  const format = (attribute(attributes, "format") ?? "").toLowerCase();
  const text = htmlToText(content);
  if (/fixed-zero|zerodash|zero-dash|numwordsen|num-word/.test(format) || /^[-\u2013\u2014]*$/.test(text)) return 0n;
  // comma-decimal ("4.200.000.000,00") is the one format whose separators are swapped
  const plain = /comma-?decimal/.test(format) ? text.replace(/[.\s]/g, "").replace(",", ".") : text;
  const cents = dollarsToCents(plain, Number(attribute(attributes, "scale") ?? "0") || 0);
  if (cents === null) return null;
  return attribute(attributes, "sign") === "-" ? -cents : cents;
}

function ixFacts(html: string, prefix: string): IxFact[] {
  const re = /<ix:nonFraction\b([^>]*)>([\s\S]*?)<\/ix:nonFraction\s*>/gi;
  return [...html.matchAll(re)]
    .map((m) => ({ attributes: m[1] ?? "", content: m[2] ?? "" }))
    .filter(({ attributes }) => (attribute(attributes, "name") ?? "").startsWith(prefix))
    .map(({ attributes, content }) => ({
      name: attribute(attributes, "name") ?? "",
      contextRef: attribute(attributes, "contextRef"),
      cents: ixAmountCents(attributes, content),
    }));
}

/** The stated (non-zero) amounts of a concept, one per context: inline XBRL may repeat a fact. */
function statedAmounts(facts: IxFact[], concept: RegExp): bigint[] {
  const byContext = new Map<string, bigint>();
  facts.forEach((fact, i) => {
    if (!concept.test(fact.name) || fact.cents === null || fact.cents === 0n) return;
    const key = fact.contextRef ?? `#${i}`;
    if (!byContext.has(key)) byContext.set(key, fact.cents);
  });
  return [...byContext.values()];
}

const sum = (amounts: bigint[]) => (amounts.length === 0 ? null : amounts.reduce((a, b) => a + b, 0n));

/** "424(b)(5)" → "424B5", "Form S-3" → "S-3". */
function normalizeFormType(text: string): string | null {
  const form = text
    .replace(/^form\s+/i, "")
    .replace(/\(([a-z0-9])\)/gi, "$1")
    .replace(/\s+/g, " ")
    .trim()
    .toUpperCase();
  return /^[A-Z0-9][A-Z0-9 /-]{0,14}$/.test(form) ? form : null;
}

function ixFormType(html: string): string | null {
  for (const concept of ["ffd:SubmissnTp", "ffd:FormTp"]) {
    const re = new RegExp(`<ix:nonNumeric\\b[^>]*name\\s*=\\s*["']${concept}["'][^>]*>([\\s\\S]*?)</ix:nonNumeric\\s*>`, "i");
    const m = re.exec(html);
    const form = m ? normalizeFormType(htmlToText(m[1] ?? "")) : null;
    if (form) return form;
  }
  return null;
}

// ── the visible table, for exhibits without inline XBRL ──

type Row = string[]; // one text per grid column (colspans expanded)

function tableRows(table: string): Row[] {
  return [...table.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr\s*>/gi)].map((row) => {
    const cells: string[] = [];
    for (const cell of (row[1] ?? "").matchAll(/<t([dh])\b([^>]*?)(?:\/>|>([\s\S]*?)<\/t\1\s*>)/gi)) {
      const span = Math.max(1, Math.min(50, Number(attribute(cell[2] ?? "", "colspan") ?? "1") || 1));
      const text = htmlToText(cell[3] ?? "");
      for (let i = 0; i < span; i++) cells.push(i === 0 ? text : "");
    }
    return cells;
  });
}

/** The first amount of dollars in a text, ignoring footnote markers like "(1)". */
function firstAmount(text: string): bigint | null {
  const m = /(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?!\s*%)/.exec(text.replace(/\(\d{1,2}\)/g, " "));
  return m ? dollarsToCents(m[1] ?? "") : null;
}

/**
 * One table's "Maximum Aggregate Offering Price" column: the header cell and
 * the empty cells right of it (the "$" and the number often sit in two cells).
 */
function visibleFeeTable(table: string): { amounts: bigint[]; total: bigint | null } {
  let column: { from: number; to: number } | null = null;
  const amounts: bigint[] = [];
  let total: bigint | null = null;
  for (const row of tableRows(table)) {
    const header = row.findIndex((cell) => /maximum aggregate offering price/.test(normalizeForMatching(cell)));
    if (header >= 0) {
      let to = header + 1;
      while (to < row.length && row[to] === "") to++;
      column = { from: header, to };
      continue;
    }
    if (!column) continue;
    const cellText = row.slice(column.from, column.to).join(" ");
    const label = normalizeForMatching(row.join(" ")).trim();
    if (label.startsWith("total offering amount")) total ??= firstAmount(cellText);
    else if (!/^(?:total|net fee)/.test(label)) {
      const amount = firstAmount(cellText);
      if (amount !== null && amount > 0n) amounts.push(amount);
    }
  }
  return { amounts, total };
}

function visibleFeeTables(html: string): { max: bigint | null; total: bigint | null } {
  const tables = [...html.matchAll(/<table\b[\s\S]*?<\/table\s*>/gi)].map((m) => visibleFeeTable(m[0]));
  return {
    max: sum(tables.flatMap((table) => table.amounts)),
    total: tables.find((table) => table.total !== null)?.total ?? null,
  };
}

/** The caption line above "(Form Type)": "424(b)(5)", "Form S-3", "POS AM". */
function visibleFormType(text: string): string | null {
  const m = /((?:form\s+)?(?:pos\s+)?[a-z0-9()\/-]+)\s*\(form type\)/i.exec(text);
  return m ? normalizeFormType(m[1] ?? "") : null;
}

/**
 * Exhibit 107 ("Calculation of Filing Fee Tables"). Its inline XBRL facts when
 * present (the SEC phased that tagging in from 2024): `ffd:MaxAggtOfferingPric`
 * (one per offering line; a zero or "—" counts as not stated),
 * `ffd:TtlOfferingAmt`, and for the form `ffd:SubmissnTp` (the submission the
 * exhibit came with, "424B5") before `ffd:FormTp` (the registration
 * statement's form, "S-3"). Otherwise the visible table: the "Maximum
 * Aggregate Offering Price" column, the "Total Offering Amounts" row and the
 * caption above "(Form Type)".
 */
export function parseFeeExhibit(html: string): FeeExhibit {
  const facts = ixFacts(html, "ffd:");
  const visible = facts.length === 0 ? visibleFeeTables(html) : null;
  const maxAggregateOfferingCents = visible ? visible.max : sum(statedAmounts(facts, /^ffd:MaxAggtOfferingPric$/));
  const totalOfferingCents = visible ? visible.total : (statedAmounts(facts, /^ffd:TtlOfferingAmt$/)[0] ?? null);
  return {
    maxAggregateOfferingCents,
    totalOfferingCents,
    formType: ixFormType(html) ?? visibleFormType(htmlToText(html)),
  };
}
