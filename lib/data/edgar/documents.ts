/**
 * Pure readers of SEC EDGAR documents: a filing folder's index.json, EFFECT
 * notices, SEC headers, filing-fee exhibits (Exhibit 107), and the text tests
 * the dilution ratings need (Item 3.01 listing deficiencies, regained
 * compliance, at-the-market offerings).
 *
 * No I/O and no dependencies but the calendar: the fetching side hands in
 * text, these return plain values. EDGAR's documents are hand-made by
 * thousands of filing agents, so every reader is tolerant (regexes over tags
 * and lines rather than a strict XML/HTML parser) and answers null / [] /
 * "other" instead of throwing.
 * Money is parsed from its decimal text straight into bigint cents.
 */
import { isCalendarDate } from "@/lib/utils/dates";

// ───────────────────────────── text and entities ─────────────────────────────

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  rsquo: "\u2019",
  lsquo: "\u2018",
  rdquo: "\u201d",
  ldquo: "\u201c",
  mdash: "\u2014",
  ndash: "\u2013",
  hellip: "\u2026",
  sect: "\u00a7",
  para: "\u00b6",
  middot: "\u00b7",
  bull: "\u2022",
  copy: "\u00a9",
  reg: "\u00ae",
  trade: "\u2122",
  deg: "\u00b0",
  ensp: " ",
  emsp: " ",
  thinsp: " ",
  shy: "",
  zwsp: "",
};

function codePointText(code: number): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
}

/** "&amp;", "&#8217;", "&#x2019;" → their characters; unknown names stay as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]+|#\d+|[a-zA-Z][a-zA-Z0-9]*);/g, (whole, body: string) => {
    if (body[0] === "#") {
      const hex = body[1] === "x" || body[1] === "X";
      return codePointText(parseInt(body.slice(hex ? 2 : 1), hex ? 16 : 10));
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

/** Tags that never split a word when removed; every other tag becomes a space. */
const INLINE_TAG = /^(?:a|b|i|u|em|strong|span|font|sup|sub|small|big|abbr|ix:[a-z]+)$/i;

/**
 * HTML / inline XBRL → plain text: tags stripped, entities decoded, whitespace
 * collapsed. The hidden `ix:header` (CIK, form type facts), `<head>`, scripts
 * and comments are dropped: they are not what the document says.
 */
export function htmlToText(html: string): string {
  const withoutHidden = html
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<(script|style|head|ix:header)\b[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, "$1");
  const withoutTags = withoutHidden.replace(/<\/?([a-zA-Z][\w:.-]*)\b[^>]*>|<[!?][^>]*>/g, (_tag, name?: string) =>
    name && INLINE_TAG.test(name) ? "" : " ",
  );
  return decodeEntities(withoutTags).replace(/\s+/g, " ").trim();
}

/** Lower case, typographic quotes and dashes made plain, whitespace collapsed: what the phrase tests match on. */
function normalizeForMatching(text: string): string {
  return text
    .replace(/[\u2018\u2019\u02bc\u2032\u0060\u00b4]/g, "'")
    .replace(/[\u201c\u201d\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/\s+/g, " ")
    .toLowerCase();
}

// ───────────────────────────── money and dates ─────────────────────────────

/**
 * "$4,200,000,000", "4200000000", "4,200,000,000.00", "(1,250.5)" → cents,
 * exactly. `scale` is a power of ten the amount is multiplied by (inline XBRL
 * `scale="6"` for millions). Fractions of a cent round half away from zero.
 */
export function dollarsToCents(text: string, scale = 0): bigint | null {
  let s = text.replace(/[\s$,\u00a0]/g, "").replace(/^USD/i, "");
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1);
  }
  if (s.startsWith("-")) {
    negative = !negative;
    s = s.slice(1);
  }
  const match = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/.exec(s);
  if (!match) return null;
  const whole = match[1] ?? "0";
  const fraction = match[2] ?? match[3] ?? "";
  const digits = BigInt(whole + fraction);
  const exponent = scale - fraction.length + 2; // dollars → cents is 10^2
  let cents: bigint;
  if (exponent >= 0) {
    cents = digits * 10n ** BigInt(exponent);
  } else {
    const divisor = 10n ** BigInt(-exponent);
    cents = (digits + divisor / 2n) / divisor;
  }
  return negative ? -cents : cents;
}

const pad2 = (n: string) => n.padStart(2, "0");

/** "2022-11-22", "2022-11-22 16:00:00", "20221122", "11/22/2022" → "2022-11-22"; null otherwise. */
function normalizeDate(text: string): string | null {
  const s = text.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T\s])/.exec(s) ?? /^(\d{4})(\d{2})(\d{2})(?:$|\d{6}$)/.exec(s);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  if (m) return `${m[3]}-${pad2(m[1] ?? "")}-${pad2(m[2] ?? "")}`;
  return null;
}

/** CIKs are 10 digits with leading zeros in EDGAR's own documents; accept shorter ones and pad. */
function normalizeCik(text: string | null): string | null {
  const digits = text?.trim() ?? "";
  return /^\d{1,10}$/.test(digits) ? digits.padStart(10, "0") : null;
}

// ───────────────────────────── filing folders ─────────────────────────────

export interface FilingIndexEntry {
  name: string;
  type: string | null;
  size: number | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function indexEntry(item: unknown): FilingIndexEntry | null {
  if (!isRecord(item) || typeof item.name !== "string" || item.name === "") return null;
  const type = typeof item.type === "string" && item.type !== "" ? item.type : null;
  const rawSize = typeof item.size === "number" ? String(item.size) : typeof item.size === "string" ? item.size.trim() : "";
  return { name: item.name, type, size: /^\d+$/.test(rawSize) ? Number(rawSize) : null };
}

/**
 * A filing folder's index.json (`{"directory":{"item":[{name,type,size,…}]}}`)
 * → its entries, all of them (EDGAR's own `-index.html`/`.txt` entries too).
 * `type` is EDGAR's icon name ("text.gif"), `size` is null where EDGAR sends "".
 * Anything not in that shape gives [].
 */
export function parseFilingIndex(json: string): FilingIndexEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  const directory = isRecord(parsed) ? parsed.directory : undefined;
  const items = isRecord(directory) ? directory.item : undefined;
  if (!Array.isArray(items)) return [];
  return items.map(indexEntry).filter((entry): entry is FilingIndexEntry => entry !== null);
}

const FEE_EXHIBIT_NAME = [
  /filing[-_ ]?fees?/i, // ex-filingfees.htm, tm2412345d1_ex-filingfees.htm, filingfeetable.htm
  /ex(?:hibit)?[-_ ]?107(?!\d)/i, // ex107.htm, d12345dex107.htm, exhibit107.htm, ea0123-ex107_abc.htm
];
const FEE_EXHIBIT_TYPE = /^(?:ex-filing fees|ex-107)\b/i;

/** Lower is better: the HTML rendering first, then text, then other files; never images or archives. */
function documentRank(name: string): number | null {
  if (/\.html?$/i.test(name)) return 0;
  if (/\.txt$/i.test(name)) return 1;
  if (/\.(?:jpe?g|gif|png|pdf|zip|xsd)$/i.test(name)) return null;
  return 2;
}

/** The file name of the filing-fee exhibit (Exhibit 107, "EX-FILING FEES") among a filing's files, or null. */
export function pickFeeExhibit(entries: FilingIndexEntry[]): string | null {
  const candidates = entries
    .filter((entry) => FEE_EXHIBIT_NAME.some((re) => re.test(entry.name)) || FEE_EXHIBIT_TYPE.test(entry.type ?? ""))
    .map((entry) => ({ name: entry.name, rank: documentRank(entry.name) }))
    .filter((c): c is { name: string; rank: number } => c.rank !== null)
    .sort((a, b) => a.rank - b.rank);
  return candidates[0]?.name ?? null;
}

// ───────────────────────────── EFFECT notices ─────────────────────────────

export interface EffectNotice {
  fileNumber: string;
  /** form made effective, e.g. "S-3", "POS AM"; null if absent */
  form: string | null;
  /** "YYYY-MM-DD" */
  effectiveDate: string;
  cik: string | null;
  entityName: string | null;
}

/** Every value of `<tag>` (any namespace prefix, any attributes), entities decoded and trimmed. */
function tagValues(xml: string, tag: string): string[] {
  const re = new RegExp(`<(?:[\\w.-]+:)?${tag}(?:\\s[^>]*)?>([\\s\\S]*?)</(?:[\\w.-]+:)?${tag}\\s*>`, "g");
  return [...xml.matchAll(re)].map((m) => decodeEntities((m[1] ?? "").replace(/<!\[CDATA\[|\]\]>/g, "")).trim());
}

function tagValue(xml: string, tag: string): string | null {
  return tagValues(xml, tag).find((value) => value !== "") ?? null;
}

/**
 * Both shapes EDGAR uses: the form made effective is `<submissionType>` inside
 * `<effectiveData>` (next to the notice's own `<submissionType>EFFECT` outside
 * it) or `<form>`. The date is `<finalEffectivenessDispDate>`.
 */
export function parseEffectNotice(xml: string): EffectNotice | null {
  const effectiveData = /<(?:[\w.-]+:)?effectiveData\b[^>]*>([\s\S]*?)<\/(?:[\w.-]+:)?effectiveData\s*>/.exec(xml);
  const inner = effectiveData?.[1] ?? "";
  const outer = effectiveData ? xml.replace(effectiveData[0], "") : xml;
  const ownType = tagValue(outer, "submissionType");
  if (ownType !== null ? ownType.toUpperCase() !== "EFFECT" : !effectiveData) return null;

  const scope = effectiveData ? inner : xml;
  const fileNumber = tagValue(scope, "fileNumber") ?? tagValue(xml, "fileNumber");
  const rawDate = tagValue(scope, "finalEffectivenessDispDate") ?? tagValue(xml, "finalEffectivenessDispDate");
  const effectiveDate = rawDate === null ? null : normalizeDate(rawDate);
  if (!fileNumber || !effectiveDate) return null;
  return {
    fileNumber,
    form: tagValue(scope, "form") ?? (effectiveData ? tagValue(inner, "submissionType") : null),
    effectiveDate,
    cik: normalizeCik(tagValue(scope, "cik") ?? tagValue(xml, "cik")),
    entityName: tagValue(scope, "entityName") ?? tagValue(xml, "entityName"),
  };
}

/** "S-4,,2019-05-10 16:00:00" (the `items` of an EFFECT row in submissions JSON) → form and date. */
export function parseEffectItems(items: string): { form: string | null; effectiveDate: string } | null {
  const parts = items.split(",").map((part) => part.trim());
  const dateIndex = parts.findIndex((part) => normalizeDate(part) !== null);
  if (dateIndex < 0) return null;
  const effectiveDate = normalizeDate(parts[dateIndex] ?? "");
  if (effectiveDate === null) return null;
  const first = parts[0] ?? "";
  return { form: dateIndex > 0 && first !== "" ? first : null, effectiveDate };
}

// ───────────────────────────── SEC headers ─────────────────────────────

export interface SecHeader {
  accessionNumber: string | null;
  formType: string | null;
  fileNumbers: string[];
  /** YYYY-MM-DD */
  filedDate: string | null;
  /** 10 digits */
  cik: string | null;
  companyName: string | null;
  /** "2834" */
  sic: string | null;
}

/** Every value of a "KEY:<tabs>value" line of the header text, or of its `<KEY-TAG>value` SGML form. */
function headerValues(text: string, label: string, sgmlTag: string): string[] {
  const escaped = label.replace(/ /g, "[ \\t]+");
  const lines = [...text.matchAll(new RegExp(`^[ \\t]*${escaped}:[ \\t]*(.*?)[ \\t\\r]*$`, "gm"))];
  const sgml = [...text.matchAll(new RegExp(`<${sgmlTag}>[ \\t]*([^<\\r\\n]*)`, "gi"))];
  return [...lines, ...sgml].map((m) => decodeEntities(m[1] ?? "").trim()).filter((value) => value !== "");
}

function firstHeaderValue(text: string, label: string, sgmlTag: string): string | null {
  return headerValues(text, label, sgmlTag)[0] ?? null;
}

/**
 * The header EDGAR puts above a filing (`-index-headers.html`, `.hdr.sgml`,
 * the top of the `.txt`). When several companies are named (filer, subject
 * company, filed by), company fields are the first one's.
 */
export function parseSecHeader(text: string): SecHeader {
  const sicText = firstHeaderValue(text, "STANDARD INDUSTRIAL CLASSIFICATION", "ASSIGNED-SIC");
  const sic = sicText === null ? null : (/\[(\d{3,4})\]/.exec(sicText)?.[1] ?? (/^\d{3,4}$/.test(sicText) ? sicText : null));
  const filed = firstHeaderValue(text, "FILED AS OF DATE", "FILING-DATE");
  return {
    accessionNumber: firstHeaderValue(text, "ACCESSION NUMBER", "ACCESSION-NUMBER"),
    formType: firstHeaderValue(text, "CONFORMED SUBMISSION TYPE", "TYPE") ?? firstHeaderValue(text, "FORM TYPE", "FORM-TYPE"),
    fileNumbers: [...new Set(headerValues(text, "SEC FILE NUMBER", "FILE-NUMBER"))],
    filedDate: filed === null ? null : normalizeDate(filed),
    cik: normalizeCik(firstHeaderValue(text, "CENTRAL INDEX KEY", "CIK")),
    companyName: firstHeaderValue(text, "COMPANY CONFORMED NAME", "CONFORMED-NAME"),
    sic,
  };
}

// ───────────────────────────── filing-fee exhibits ─────────────────────────────

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

// ───────────────────────────── listing deficiencies ─────────────────────────────

export type DeficiencyKind = "minimum_bid_price" | "stockholders_equity" | "market_value" | "periodic_filing" | "other";

/** A listing rule number as matched: "5550(a)(2)" also as "5550 (a) (2)". */
function rule(number: string, ...parts: string[]): RegExp {
  return new RegExp(`\\b${number}${parts.map((p) => `\\s*\\(${p}\\)`).join("")}`);
}

const DEFICIENCY_PATTERNS: [Exclude<DeficiencyKind, "other">, RegExp[]][] = [
  [
    "minimum_bid_price",
    [
      /minimum (?:closing )?bid price/,
      /bid price (?:requirement|rule)/,
      /\$1(?:\.00)? per share/,
      rule("5550", "a", "2"),
      rule("5450", "a", "1"),
      /1003\s*\(f\)\s*\(v\)/,
      /802\.01\s*\(?c\)?/,
      /low selling price/,
    ],
  ],
  [
    "stockholders_equity",
    [
      /(?:stock|share)holder(?:s'|'s|s)? (?:equity|deficit)/,
      rule("5550", "b", "1"),
      rule("5450", "b", "1", "a"),
      /1003\s*\(a\)/,
    ],
  ],
  [
    "market_value",
    [
      /market value of (?:listed securities|publicly held shares)/,
      /\bmvls\b|\bmvphs\b/,
      rule("5550", "b", "2"),
      rule("5550", "a", "5"),
      rule("5450", "b", "2", "a"),
      rule("5450", "b", "3", "c"),
      rule("5450", "b", "1", "c"),
    ],
  ],
  [
    "periodic_filing",
    [
      /timely (?:file|filing)/,
      /(?:has|had|did|have) not (?:yet )?(?:been )?(?:timely )?filed? (?:its |the |their |our )?(?:annual report on |quarterly report on )?form 10-[kq]/,
      /(?:failure|failed) to (?:timely )?file (?:its |the |their |our )?(?:annual report on |quarterly report on )?form 10-[kq]/,
      /form 10-[kq][^.]{0,120}?(?:was|were|has|had) not (?:yet )?(?:been )?(?:timely )?filed/,
      rule("5250", "c", "1"),
      /\bdelinquen(?:t|cy)\b/,
      /802\.01\s*\(?e\)?/,
    ],
  ],
];

/** The text after "Item 3.01" up to the next "Item N.NN", or null when there is no such heading. */
function item301Section(text: string): string | null {
  const start = /\bitem\s*3\.01\b/.exec(text);
  if (!start) return null;
  const rest = text.slice(start.index + start[0].length);
  const next = /\bitem\s*\d{1,2}\.\d{2}\b/.exec(rest);
  return next ? rest.slice(0, next.index) : rest;
}

/** The kind whose first mention comes earliest: a notice names its own deficiency before alternatives or history. */
function earliestKind(text: string): DeficiencyKind {
  let best: { kind: DeficiencyKind; at: number } = { kind: "other", at: Infinity };
  for (const [kind, patterns] of DEFICIENCY_PATTERNS) {
    for (const pattern of patterns) {
      const at = pattern.exec(text)?.index;
      if (at !== undefined && at < best.at) best = { kind, at };
    }
  }
  return best.kind;
}

/**
 * An 8-K's text → the kind of listing deficiency its Item 3.01 reports, by
 * phrases and listing rule numbers (Nasdaq, NYSE, NYSE American). The Item
 * 3.01 section decides when it names one; otherwise the whole text.
 */
export function classifyDeficiency(text: string): DeficiencyKind {
  const normalized = normalizeForMatching(text);
  const section = item301Section(normalized);
  const inSection = section === null ? "other" : earliestKind(section);
  return inSection !== "other" ? inSection : earliestKind(normalized);
}

// ───────────────────────────── regained compliance ─────────────────────────────

const REGAINED = [
  /\bregained (?:full )?compliance\b/,
  /\b(?:is|was|are) (?:now |again |back )+in (?:full )?compliance\b/,
  /\bmatter (?:is|has been|was) (?:now )?closed\b/,
];
/** A sentence opening like this states a condition, not a fact. */
const CONDITION = /\b(?:if|unless|whether)\b/;
/** Just before the phrase, these make it a prediction, a possibility or a denial. */
const NOT_A_FACT =
  /\b(?:not|no|never|fails?|failed|failure|deemed|considered|will|would|could|may|might|shall|should|can|must|until|assurance|order to|expects?|intends?|anticipates?|seeks?|plans?)\b/;

function sentences(text: string): string[] {
  return text.split(/(?<=[.;!?])\s+(?=["(]?[a-z0-9])/);
}

function statesRegained(sentence: string): boolean {
  return REGAINED.some((pattern) => {
    const m = pattern.exec(sentence);
    if (!m) return false;
    const before = sentence.slice(0, m.index);
    return !CONDITION.test(before) && !NOT_A_FACT.test(before.slice(-80));
  });
}

/**
 * True when a sentence states that compliance was regained ("has regained
 * compliance", "is now in compliance", "the matter is now closed"); not when
 * it is a condition or prospect ("to regain compliance", "if … Nasdaq will
 * confirm that the Company has regained compliance", "has not regained").
 */
export function regainsCompliance(text: string): boolean {
  return sentences(normalizeForMatching(text)).some(statesRegained);
}

// ───────────────────────────── at-the-market offerings ─────────────────────────────

/**
 * True when a prospectus (supplement) describes an at-the-market offering: an
 * "at the market offering" (Rule 415(a)(4)), an equity distribution
 * agreement, or a sales agreement together with a sales agent.
 */
export function isAtmOffering(text: string): boolean {
  const t = normalizeForMatching(text).replace(/["\u2120\u2122\u00ae]/g, "");
  if (/\bat[- ]the[- ]market\s+(?:offering|program|issuance|sales? agreement)/.test(t)) return true;
  if (/\bat[- ]the[- ]market\b[^.]{0,80}rule 415\s*\(a\)\s*\(4\)/.test(t)) return true;
  if (/\bequity distribution agreement\b/.test(t)) return true;
  const salesAgreement = /\b(?:open market sale|atm sales?|sales?) agreement\b/.test(t);
  return salesAgreement && /\bsales? agents?\b/.test(t);
}

// ───────────────────────────── compliance deadline ─────────────────────────────

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const DEADLINE =
  /\b(?:until|through|by|on or before)\s+(january|february|march|april|may|june|july|august|september|october|november|december)\s+(\d{1,2}),?\s+(\d{4})\b[^.]{0,120}?\bregain compliance\b|\bregain compliance\b[^.]{0,120}?\b(?:until|through|by|on or before)\s+(january|february|march|april|may|june|july|august|september|october|november|december)\s+(\d{1,2}),?\s+(\d{4})\b/;

/**
 * The date by which a deficiency notice says compliance must be regained
 * ("has until September 8, 2025 to regain compliance", "to regain
 * compliance by …"), "YYYY-MM-DD"; null when the text states none.
 */
export function complianceDeadline(text: string): string | null {
  const m = DEADLINE.exec(normalizeForMatching(text));
  if (!m) return null;
  const [month, day, year] = m[1] ? [m[1], m[2]!, m[3]!] : [m[4]!, m[5]!, m[6]!];
  const iso = `${year}-${String(MONTHS.indexOf(month) + 1).padStart(2, "0")}-${day.padStart(2, "0")}`;
  return isCalendarDate(iso) ? iso : null;
}
