import { CLOSING_CUE, closingsIn, type ClosingEvent } from "./closings";
import { classifyDeficiency, regainsCompliance } from "./eight-k";
import { rowText, type Block } from "./html";
import type { InlineXbrl } from "./inline-xbrl";
import type { AtmProgram, Convertible, EquityLine, FieldSource, ListingDeficiency, PeriodicReading, PeriodicReport, ReverseSplit, SharesOutstanding, WarrantSeries, WarrantsTotal } from "./periodic-fields";
import { mergeTagged, readTaggedPeriodic } from "./periodic-tags";
import type { Filing } from "./submission";
import { readReverseSplits as readSplitsInLines } from "./reverse-splits";
import { headedTables, type HeadedTable } from "./tables";
import { readAntiDilutiveWarrants, readWarrantTables as readWarrantTablesByHeading } from "./warrant-tables";
import { CONVERTIBLE_DEBT, readConvertibleTables } from "./convertible-tables";
import { findInLines, isoDate, MONTH_NAMES, MONTH_PATTERN as MONTH, nameKey, parseCount, parseDollars, quoteAround, sentencesOf, WRITTEN_DATE_PATTERN as DATE, type Line } from "./text";

export type { ClosingEvent } from "./closings";
export type { AtmProgram, Convertible, EquityLine, FieldSource, ListingDeficiency, PeriodicReading, PeriodicReport, ReverseSplit, SharesOutstanding, WarrantSeries, WarrantsTotal } from "./periodic-fields";

export const PERIODIC_FORMS = /^(?:10-Q|10-K|10-KT|10-QT|20-F|40-F)(?:\/A)?$/i;

export function isPeriodicReport(form: string | null): boolean {
  return form !== null && PERIODIC_FORMS.test(form.trim());
}

// ───────────────────────────── lines, dates, amounts ─────────────────────────────

/** A line of the document; table rows keep their cells and which table they belong to. */
interface ReportLine extends Line {
  /** index of the table block the row belongs to, null for a paragraph */
  table: number | null;
}

function reportLines(blocks: Block[]): ReportLine[] {
  const lines: ReportLine[] = [];
  blocks.forEach((block, b) => {
    if (block.kind === "text") lines.push({ index: lines.length, text: block.text, cells: null, table: null });
    else for (const row of block.rows) lines.push({ index: lines.length, text: rowText(row), cells: row.filter((c) => c !== ""), table: b });
  });
  return lines;
}

/** The first calendar date written in a text, ISO. */
function firstDate(text: string): { iso: string; index: number; text: string } | null {
  for (const m of text.matchAll(new RegExp(DATE, "g"))) {
    const iso = isoDate(m[1]!);
    if (iso) return { iso, index: m.index, text: m[1]! };
  }
  return null;
}

/** "Month YYYY" (the last day of that month is not assumed): the month as "YYYY-MM". */
function monthOf(text: string): string | null {
  const m = new RegExp(`\\b(${MONTH})\\s+(\\d{4})\\b`).exec(text);
  return m ? `${m[2]}-${String(MONTH_NAMES.indexOf(m[1]!.toLowerCase()) + 1).padStart(2, "0")}` : null;
}

/** "$750.0 million", "$1.5 billion", "$750,000" (× scale when the notes are in thousands). */
function amountAt(amount: string, word: string | undefined, thousands: boolean): number | null {
  const value = parseDollars(amount);
  if (value === null) return null;
  if (word) return Math.round(value * (/^b/i.test(word) ? 1e9 : 1e6));
  return thousands && !amount.includes(".") ? value * 1000 : value;
}

/** "approximately 12.5 million" → 12500000; "4,250,000" → 4250000. */
function countAt(count: string, word: string | undefined): number | null {
  if (word) {
    const value = parseDollars(count);
    return value === null ? null : Math.round(value * (/^b/i.test(word) ? 1e9 : 1e6));
  }
  return parseCount(count);
}

const AMOUNT_WORDS = String.raw`\$\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s+(million|billion)\b)?`;

/** A quote of the line around [start, end) (the whole sentence when it fits in 200 characters). */
function quoteOf(line: Line, start: number, end: number): string {
  return quoteAround(line.text, start, end);
}

/** Words that make a sentence a possibility, a condition or a plan rather than a fact ("may" in lower case only: May is a month). */
const HYPOTHETICAL = /\b(?:[Cc]ould|may|[Mm]ight|[Ww]ould|[Ii]f|[Ww]hether|[Uu]nless|[Ss]hould|[Cc]an|[Cc]annot|will not|no assurance|possible|risk that)\b/;

/**
 * Which amounts of prose are in thousands: from a line that says so on its own
 * ("(Dollars in thousands, except per share …)", the heading of the notes)
 * until the next Item heading. Tables say it in their own rows or the line
 * above them.
 */
function thousandsScope(lines: ReportLine[]): boolean[] {
  const scope: boolean[] = [];
  let on = false;
  for (const line of lines) {
    if (!line.cells && /^\((?:dollars |amounts |\$ )?in thousands\b[^)]*\)?$/i.test(line.text)) on = true;
    else if (!line.cells && /^(?:Item|ITEM)\s+\d+[A-C]?\.?\s/.test(line.text)) on = false;
    scope.push(on);
  }
  return scope;
}

// ───────────────────────────── the reader ─────────────────────────────

class Reader {
  readonly evidence: Record<string, string> = {};
  /** where a value came from, when not the prose: a table's column (./tables.ts) */
  readonly sources: Record<string, FieldSource> = {};
  readonly thousands: boolean[];
  constructor(
    readonly lines: ReportLine[],
    readonly period: string | null,
    /** the document's tables read by their headings */
    readonly tables: HeadedTable[] = [],
  ) {
    this.thousands = thousandsScope(lines);
  }
  private lowered: string[] = [];
  /** A line's text in lower case (kept: several readers look for names on every line). */
  lower(index: number): string {
    return (this.lowered[index] ??= this.lines[index]!.text.toLowerCase());
  }
  quote(path: string, text: string) {
    this.evidence[path] = text.length > 200 ? text.slice(0, 200) : text;
  }
}

const COVER_LINES = 150;

/** "FORM 20-F" on a cover without SEC header or `dei:` facts. */
function formOnCover(cover: Line[]): string | null {
  for (const line of cover) {
    const m = /^FORM\s+(10-Q|10-K|20-F|40-F)(\/A)?\b/i.exec(line.text);
    if (m) return `${m[1]}${m[2] ?? ""}`.toUpperCase();
  }
  return null;
}

/** The form of a filing: its SEC header's (or `dei:DocumentType`), else the one its cover names. */
export function periodicFormOf(filing: Filing): string | null {
  return filing.header.form ?? formOnCover(reportLines(filing.primary?.blocks() ?? []).slice(0, COVER_LINES));
}

function readCover(lines: ReportLine[], filing: Filing | null): Pick<PeriodicReport, "form" | "company" | "file_number" | "period"> {
  const cover = lines.slice(0, COVER_LINES);
  const header = filing?.header;
  const form = header?.form ?? formOnCover(cover);
  let company = header?.company ?? null;
  if (!company) {
    const at = cover.findIndex((l) => /^\(?\s*exact name of (?:the )?registrant/i.test(l.text));
    if (at > 0) company = cover[at - 1]!.text;
  }
  let fileNumber = header?.fileNumber ?? null;
  if (!fileNumber) {
    for (const line of cover) {
      const m = /commission file (?:number|no\.?):?\s*(\d{1,3}-\d{3,6})/i.exec(line.text);
      if (m) {
        fileNumber = m[1]!;
        break;
      }
    }
  }
  let period: string | null = null;
  for (const line of cover) {
    const m = new RegExp(`\\bfor (?:the )?(?:quarterly period|fiscal year|year|quarter|period|transition period) ended:?\\s*${DATE}`, "i").exec(line.text);
    const iso = m ? isoDate(m[1]!) : null;
    if (iso) {
      period = iso;
      break;
    }
  }
  return { form, company, file_number: fileNumber, period };
}

/** A count of shares: comma-grouped or five digits and more, not a dollar amount, not part of a date. */
const SHARE_COUNT = /(?<![$\d.,])(\d{1,3}(?:,\d{3})+|\d{5,})(?![\d,]*\.\d)(?!\s*%)/g;

function shareCounts(text: string): { value: number; index: number; end: number }[] {
  const out: { value: number; index: number; end: number }[] = [];
  for (const m of text.matchAll(SHARE_COUNT)) {
    if (/\$\s*$/.test(text.slice(Math.max(0, m.index - 2), m.index))) continue;
    const value = parseCount(m[1]!);
    if (value !== null && value >= 1000) out.push({ value, index: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** Counts of shares written out or in millions ("5,893 million shares of … Class A stock", "was 2.5 billion"); a dollar amount is none. */
function coverCounts(text: string): { value: number; index: number; end: number }[] {
  const millions = [...text.matchAll(/(?<![\d.,$])(?<!\$\s)(\d{1,3}(?:,\d{3})*(?:\.\d+)?)\s+(million|billion)\b(?!\s+(?:in|of) (?:cash|dollars|proceeds))/gi)].map((m) => ({
    value: countAt(m[1]!, m[2])!,
    index: m.index,
    end: m.index + m[0].length,
  }));
  return millions.length ? millions : shareCounts(text);
}

/**
 * The cover's count of common shares outstanding and its date: the first
 * sentence (or table row) of the cover that says shares are outstanding, with
 * a count and a date, or a date whose count follows on the next line ("… as of
 * December 31, 2015:" / "84,439,732 common shares"). Sentences about the
 * market value held by non-affiliates are not it.
 */
function readSharesOutstanding(r: Reader): SharesOutstanding | null {
  const cover = r.lines.slice(0, COVER_LINES);
  for (let i = 0; i < cover.length; i++) {
    const line = cover[i]!;
    if (!/outstanding/i.test(line.text)) continue;
    const parts = line.cells ? [{ text: line.text, start: 0 }] : sentencesOf(line.text);
    for (const part of parts) {
      if (!/outstanding/i.test(part.text) || (!line.cells && !/\b(?:shares?|stock)\b/i.test(part.text))) continue;
      if (/non-?affiliates|aggregate market value|\bweighted\b|authori[sz]ed|par value[^,]*;/i.test(part.text)) continue;
      const date = firstDate(part.text);
      const counts = coverCounts(part.text);
      if (counts.length && date) {
        const count = counts[0]!;
        const quote = quoteOf(line, part.start + Math.min(count.index, date.index), part.start + Math.max(count.end, date.index + date.text.length));
        r.quote("shares_outstanding.value", quote);
        r.quote("shares_outstanding.as_of", quote);
        return { value: count.value, as_of: date.iso };
      }
      if (counts.length || (!line.cells && (!date || !/(?:as of|on|at)\s+/i.test(part.text)))) continue;
      // the count follows: the next line ("84,439,732 common shares") or the first row of the cover's table under its heading
      // ("Class | Shares Outstanding | Date" / "Common stock, $1.00 par value | 826,691,529 | June 30, 2023")
      for (const next of cover.slice(i + 1, i + 4)) {
        const sameTable = line.cells !== null && next.table === line.table;
        if (!sameTable && !/common/i.test(next.text)) continue;
        const found = coverCounts(next.text);
        const when = date ?? firstDate(next.text);
        if (!found.length || !when) continue;
        const lead = part.text.slice(Math.max(0, part.text.length - (200 - next.text.length - 1)));
        const quote = `${lead.trimStart()} ${next.text}`.trim();
        r.quote("shares_outstanding.value", quote);
        r.quote("shares_outstanding.as_of", quote);
        return { value: found[0]!.value, as_of: when.iso };
      }
    }
  }
  return null;
}

const DOUBT = /\b(?:substantial|significant) doubt\b[^.]{0,100}?\bcontinue (?:as a going concern|(?:its |our )?operations)\b/i;

/**
 * True when the report concludes there is substantial doubt (IFRS: significant
 * doubt, a material uncertainty) about the company's ability to continue as a
 * going concern; a risk that doubt could arise, or doubt alleviated by plans,
 * does not count. False when a report with its financial statements says no
 * such thing: US GAAP (ASC 205-40) and IFRS (IAS 1.25) require the disclosure
 * when the doubt exists, so its absence from the notes is a statement. Null
 * when the document carries no financial statements to judge by.
 */
function readGoingConcern(r: Reader): boolean | null {
  for (const line of r.lines) {
    if (!/doubt/i.test(line.text)) continue;
    for (const sentence of sentencesOf(line.text)) {
      const m = DOUBT.exec(sentence.text);
      if (!m) continue;
      const before = sentence.text.slice(0, m.index);
      if (HYPOTHETICAL.test(before) || /alleviat|mitigat|no longer|not (?:raise|exist)/i.test(sentence.text)) continue;
      // "Substantial doubt about our ability to continue as a going concern could arise if …": a risk, not a conclusion
      if (/^[^.;]{0,40}?\b(?:may|could|might|would|will) (?:arise|exist|be raised|result|develop)\b|^[^.;]{0,60}?\bin the future\b/i.test(sentence.text.slice(m.index + m[0].length))) continue;
      // accounting guidance describing the evaluation ("ASU 2014-15 requires management to evaluate whether …") concludes nothing
      if (/\b(?:ASU|Accounting Standards Update|ASC 205-40|Subtopic 205-40|requires? (?:management|an entity|entities) to|evaluate whether)\b/i.test(sentence.text)) continue;
      r.quote("going_concern", quoteOf(line, sentence.start + m.index, sentence.start + m.index + m[0].length));
      return true;
    }
  }
  const hasStatements = r.lines.some((l) => /notes to (?:the )?(?:unaudited )?(?:condensed )?(?:interim )?(?:consolidated )?(?:interim )?financial statements/i.test(l.text));
  return hasStatements ? false : null;
}

// ───────────────────────────── reverse splits ─────────────────────────────

/** Splits the report states as effected, with their dates (./reverse-splits.ts); one without a stated date is not a report's fact. */
function readReverseSplits(r: Reader, company: string | null): ReverseSplit[] {
  const splits: ReverseSplit[] = [];
  for (const found of readSplitsInLines(r.lines, company)) {
    if (!found.effective_date || !found.dateQuote) continue;
    const entry: ReverseSplit = { ratio: found.ratio, effective_date: found.effective_date };
    if (r.period && entry.effective_date > r.period) entry.subsequent = true;
    const i = splits.length;
    r.quote(`reverse_splits[${i}].ratio`, found.ratioQuote);
    r.quote(`reverse_splits[${i}].effective_date`, found.dateQuote);
    splits.push(entry);
  }
  return splits;
}

// ───────────────────────────── warrants ─────────────────────────────

/** A value's source when a table gave it: the column it stood under. */
function tableColumn(heading: string | null): FieldSource {
  return { from: "table", note: heading ? `the column “${heading}”` : "the row" };
}

/**
 * The warrant tables read by their headings (./warrant-tables.ts): each
 * series quoted by its row, the heading of the column each value stood
 * under kept as the value's source. A series labelled only by its expiry is
 * named by the grant the notes date to it, or by its expiry.
 */
function readTableWarrants(r: Reader): { series: WarrantSeries[]; total: WarrantsTotal | null; totalQuote: string | null } {
  const found = readWarrantTablesByHeading(r.tables, r.period);
  const series: WarrantSeries[] = [];
  for (const row of found.series) {
    const label = row.series === null && row.expiry ? seriesLabel(r, row.expiry) : null;
    const at = series.length;
    const keyName = row.key === "price" ? `warrants exercisable at ${row.label}` : `warrants expiring ${row.label}`;
    const entry: WarrantSeries = { series: row.series ?? label?.name ?? keyName, shares_outstanding: row.shares_outstanding, exercise_price: row.exercise_price, expiry: row.expiry, as_of: row.as_of };
    if (row.pre_funded) entry.pre_funded = true;
    series.push(entry);
    r.quote(`warrants[${at}].series`, label?.quote ?? row.quote);
    r.quote(`warrants[${at}].shares_outstanding`, row.quote);
    r.sources[`warrants[${at}].shares_outstanding`] = tableColumn(row.countHeading);
    if (row.exercise_price !== null) {
      r.quote(`warrants[${at}].exercise_price`, row.quote);
      r.sources[`warrants[${at}].exercise_price`] = tableColumn(row.priceHeading);
    }
    if (row.expiry) r.quote(`warrants[${at}].expiry`, row.quote);
    if (row.as_of) r.quote(`warrants[${at}].as_of`, row.asOfQuote ?? row.quote);
  }
  const total = found.total ? { shares_outstanding: found.total.shares_outstanding, weighted_average_exercise_price: found.total.weighted_average_exercise_price, as_of: found.total.as_of } : null;
  if (found.total) r.sources["warrants_total.shares_outstanding"] = tableColumn(found.total.countHeading);
  return { series, total, totalQuote: found.total?.quote ?? null };
}

/** The grant a series of warrants expiring on a date came from: "On April 24, 2020, the Company granted … warrants … until April 24, 2022." */
function seriesLabel(r: Reader, expiry: string): { name: string; quote: string } | null {
  for (const line of r.lines) {
    if (line.cells || !/warrants?\b/i.test(line.text)) continue;
    for (const sentence of sentencesOf(line.text)) {
      const m = new RegExp(`^On ${DATE},? the Company (?:granted|issued) (?:an aggregate of )?[\\d,]+ [^.]*?warrants\\b`, "i").exec(sentence.text);
      if (!m) continue;
      const rest = line.text.slice(sentence.start, sentence.start + 600);
      const until = new RegExp(`(?:until|expir\\w*(?: on)?) ${DATE}`, "i").exec(rest);
      if (!until || isoDate(until[1]!) !== expiry) continue;
      return { name: `${m[1]} warrants`, quote: quoteOf(line, sentence.start, sentence.start + m[0].length) };
    }
  }
  return null;
}

/**
 * Warrants outstanding told in prose: "As of <date> 1,200,000 prefunded
 * warrants (…) exercisable into the same number of shares …, as well as
 * 3,000,000 Series B Warrants (…) exercisable into 4,500,000 shares of common
 * stock", the shares, not the warrants, being the series' count.
 */
function readWarrantProse(r: Reader, series: WarrantSeries[]) {
  const pattern = new RegExp(String.raw`(\d{1,3}(?:,\d{3})+)\s+((?:[A-Z][\w-]*\s+){0,3}?|pre-?funded\s+)[Ww]arrants\s*(?:\([^)]{0,60}\)\s*)?exercisable (?:in)?to (?:(the same number of)|(\d{1,3}(?:,\d{3})+)) shares of (?:our |the Company’s |the Company's )?common stock`, "g");
  for (const line of r.lines) {
    if (line.cells || !/exercisable (?:in)?to/i.test(line.text)) continue;
    for (const sentence of sentencesOf(line.text)) {
      const asOf = new RegExp(`^(?:As of|At) ${DATE}`, "i").exec(sentence.text);
      if (!asOf) continue;
      const asOfIso = isoDate(asOf[1]!);
      for (const m of sentence.text.matchAll(pattern)) {
        const name = `${m[2]!.trim()} warrants`.trim();
        if (!/\w+ warrants/.test(name)) continue;
        const warrantsCount = parseCount(m[1]!);
        const shares = m[3] ? warrantsCount : parseCount(m[4]!);
        const entry: WarrantSeries = { series: /^pre-?funded/i.test(name) ? name[0]!.toUpperCase() + name.slice(1) : name.replace(/ warrants$/, " Warrants"), shares_outstanding: shares, exercise_price: null, expiry: null, as_of: asOfIso };
        if (/pre-?funded/i.test(name)) entry.pre_funded = true;
        const at = series.length;
        const quote = quoteOf(line, sentence.start + m.index, sentence.start + m.index + m[0].length);
        r.quote(`warrants[${at}].series`, quote);
        r.quote(`warrants[${at}].shares_outstanding`, quote);
        r.quote(`warrants[${at}].as_of`, quoteOf(line, sentence.start, sentence.start + asOf[0].length));
        series.push(entry);
      }
    }
  }
}

/**
 * Warrants a report defines by name: "the Company issued to <a partner>
 * warrants to purchase up to 500,000 … shares of the Company’s common stock
 * (the “Partner Warrants”)", with the last day they can be exercised and their
 * price when the next paragraphs state them ("up to and including December
 * 31, 2027", "at an exercise price of $1.50 per share"; a formula is no
 * price), and as of the period end when a paragraph about them gives their
 * state on that day.
 */
function readNamedWarrants(r: Reader, series: WarrantSeries[]) {
  const defined = new RegExp(String.raw`\bwarrants to purchase (?:up to )?(?:an aggregate of )?(\d{1,3}(?:,\d{3})+)\s*(?:\([^)]{0,80}\)\s*)?shares of (?:the Company[’']s |our |its )?common stock\s*\((?:the |collectively, the )?[“"]([A-Z][\w -]{0,40} Warrants)[”"]\)`);
  // the name defined first: "fully vested warrants (the “Note Warrants”) to purchase 9,057,971 shares of the Company’s common stock"
  const definedFirst = new RegExp(String.raw`\bwarrants\s*\((?:the |collectively, the )?[“"]([A-Z][\w -]{0,40} Warrants)[”"]\)\s*to purchase (?:up to )?(?:an aggregate of )?(\d{1,3}(?:,\d{3})+) shares of (?:the Company[’']s |our |its )?common stock`);
  const periodText = r.period ? periodWritten(r.period) : null;
  for (const line of r.lines) {
    if (line.cells) continue;
    const after = defined.exec(line.text);
    const before = after ? null : definedFirst.exec(line.text);
    const m = after ?? (before ? Object.assign([before[0], before[2], before[1]], { index: before.index, input: before.input }) as unknown as RegExpExecArray : null);
    if (!m) continue;
    const name = m[2]!;
    if (series.some((s) => s.series !== null && nameKeyOf(s.series) === nameKeyOf(name))) continue;
    const following = r.lines.slice(line.index + 1, line.index + 4).filter((l) => !l.cells);
    if (following.some((l) => new RegExp(`${escapeRegExp(name)} (?:were|have been) (?:fully )?(?:exercised|cancell?ed|forfeited)|${escapeRegExp(name)} expired`, "i").test(l.text))) continue;
    const entry: WarrantSeries = { series: name, shares_outstanding: parseCount(m[1]!), exercise_price: null, expiry: null, as_of: null };
    const at = series.length;
    const quote = quoteOf(line, m.index, m.index + m[0].length);
    r.quote(`warrants[${at}].series`, quote);
    r.quote(`warrants[${at}].shares_outstanding`, quote);
    for (const other of [line, ...following]) {
      const last = new RegExp(`\\b(?:up to and including|until|through|expir(?:e|es|ing) on) ${DATE}`, "i").exec(other.text);
      if (last && entry.expiry === null && /exercis/i.test(other.text)) {
        entry.expiry = isoDate(last[1]!);
        r.quote(`warrants[${at}].expiry`, quoteOf(other, last.index, last.index + last[0].length));
      }
      const price = new RegExp(`\\bexercise price of ${AMOUNT_WORDS} per share`, "i").exec(other.text);
      if (price && entry.exercise_price === null && !price[2]) {
        entry.exercise_price = parseDollars(price[1]!);
        r.quote(`warrants[${at}].exercise_price`, quoteOf(other, price.index, price.index + price[0].length));
      }
      const state = periodText && other !== line && other.text.includes(name) ? other.text.indexOf(periodText) : -1;
      if (state >= 0 && entry.as_of === null) {
        entry.as_of = r.period;
        r.quote(`warrants[${at}].as_of`, quoteOf(other, state, state + periodText!.length));
      }
    }
    // no later state: the count as issued, on the day the paragraph opens with ("On August 24, 2022, the Company issued …")
    const opening = entry.as_of === null ? new RegExp(`^On ${DATE},? (?:the Company|we)\\b`, "i").exec(line.text) : null;
    const issued = opening ? isoDate(opening[1]!) : null;
    if (opening && issued && (!r.period || issued <= r.period)) {
      entry.as_of = issued;
      r.quote(`warrants[${at}].as_of`, quoteOf(line, 0, opening[0].length));
    }
    series.push(entry);
  }
}

const UNIT_WARRANTS: Record<string, number> = { one: 1, "one full": 1, "one whole": 1, "one-half of one": 0.5, "one half of one": 0.5, "one-half": 0.5 };

/**
 * Warrants in units sold after the period end, which no period-end table
 * holds yet: "On January 29, 2021, the Company issued 3,180,000 Units at $0.20
 * per unit … Each unit is comprised of one common share and one full …
 * warrant, with each warrant entitling the holder to purchase one additional
 * common share at a price of $0.25 for five years." Shares are the units
 * times the warrants per unit; the expiry only when a date is written.
 */
function readSubsequentUnitWarrants(r: Reader, series: WarrantSeries[]) {
  if (!r.period) return;
  const issued = new RegExp(`^On ${DATE},? the Company (?:issued|completed (?:a|the) [^.]{0,60}? of|sold) (?:an aggregate of )?(\\d{1,3}(?:,\\d{3})+) units\\b`, "i");
  const each = /\bEach unit (?:is comprised of|consists of|comprises) one common share and (one(?: full| whole)?|one-half(?: of one)?|one half of one) [^.]{0,60}?warrant[^.]*?\bat (?:a|an exercise) price of \$\s?(\d+(?:\.\d+)?)(?:\s+per (?:common )?share)?(?:[^.]{0,30}?\b(?:until|expiring(?: on)?) ([A-Z][a-z]+ \d{1,2},? \d{4}))?/i;
  for (const line of r.lines) {
    if (line.cells || !/\bunits?\b/i.test(line.text)) continue;
    const sentences = sentencesOf(line.text);
    sentences.forEach((sentence, k) => {
      const m = issued.exec(sentence.text);
      const date = m ? isoDate(m[1]!) : null;
      if (!m || !date || date <= r.period!) return;
      const next = sentences[k + 1];
      const terms = next ? each.exec(next.text) : null;
      if (!next || !terms) return;
      const perUnit = UNIT_WARRANTS[terms[1]!.toLowerCase()];
      const units = parseCount(m[2]!);
      if (!perUnit || units === null) return;
      const shares = units * perUnit;
      if (!Number.isInteger(shares) || series.some((s) => s.as_of === date && s.shares_outstanding === shares)) return;
      const expiry = terms[3] ? isoDate(terms[3]) : null;
      const at = series.length;
      series.push({ series: `${m[1]} unit warrants`, shares_outstanding: shares, exercise_price: parseDollars(terms[2]!), expiry, as_of: date, subsequent: true });
      const issueQuote = quoteOf(line, sentence.start, sentence.start + m[0].length);
      const warrantEnd = next.start + terms.index + terms[0].search(/warrant/i) + "warrant".length;
      const start = sentence.start + m.index + m[0].search(/issued|completed|sold/i);
      const sharesQuote = warrantEnd - start <= 200 ? line.text.slice(start, warrantEnd) : issueQuote;
      const priceAt = next.start + terms.index + terms[0].search(/\bat (?:a|an exercise) price of/i);
      r.quote(`warrants[${at}].series`, issueQuote);
      r.quote(`warrants[${at}].shares_outstanding`, sharesQuote);
      r.quote(`warrants[${at}].exercise_price`, quoteOf(line, priceAt, next.start + terms.index + terms[0].length));
      if (expiry) r.quote(`warrants[${at}].expiry`, quoteOf(line, priceAt, next.start + terms.index + terms[0].length));
      r.quote(`warrants[${at}].as_of`, issueQuote);
    });
  }
}

/**
 * A lettered series the report says the company issued in the period, named
 * without a definition: "… in exchange for the Company issuing new Series F
 * warrants to purchase 64,864,864 shares of the Company's common stock. Each
 * Series F warrant had an exercise price of $0.55 per share and is exercisable
 * as of the date of issuance to October 16, 2030." Its count as issued, its
 * price and last day as the report states them; no day of state unless the
 * report gives one.
 */
function readIssuedSeries(r: Reader, series: WarrantSeries[]) {
  const issued = /\b(?:issu(?:ed|ing|e)|sold|selling|granted|granting)\s+(?:to [^.;]{1,60}?\s+)?(?:new\s+)?(Series [A-Z](?:-\d{1,2})?)\s+(?:common stock\s+|common\s+)?warrants\s+to\s+(?:initially\s+)?purchase\s+(?:up to\s+)?(?:an aggregate of\s+)?(\d{1,3}(?:,\d{3})+)\s+shares\b/i;
  for (const line of r.lines) {
    if (line.cells || !/\bSeries [A-Z]/.test(line.text)) continue;
    for (const sentence of sentencesOf(line.text)) {
      const m = issued.exec(sentence.text);
      if (!m || HYPOTHETICAL.test(sentence.text.slice(0, m.index))) continue;
      const name = `${m[1]} warrants`;
      const count = parseCount(m[2]!);
      if (count === null || series.some((w) => (w.series !== null && nameKeyOf(w.series) === nameKeyOf(name)) || w.shares_outstanding === count)) continue;
      // the series was exercised, cancelled or expired as a whole: gone
      if (new RegExp(`\\b(?:all (?:of )?(?:the )?(?:outstanding )?)${escapeRegExp(m[1]!)} warrants (?:were|have been) (?:exercised|cancell?ed|forfeited)|${escapeRegExp(m[1]!)} warrants expired`, "i").test(line.text)) continue;
      const at = series.length;
      const entry: WarrantSeries = { series: name, shares_outstanding: count, exercise_price: null, expiry: null, as_of: null };
      const quote = quoteOf(line, sentence.start + m.index, sentence.start + m.index + m[0].length);
      r.quote(`warrants[${at}].series`, quote);
      r.quote(`warrants[${at}].shares_outstanding`, quote);
      const each = new RegExp(`\\bEach ${escapeRegExp(m[1]!)} warrant\\b[^.]{0,60}?\\bexercise price of ${AMOUNT_WORDS} per share`, "i").exec(line.text);
      if (each && !each[2]) {
        entry.exercise_price = parseDollars(each[1]!);
        r.quote(`warrants[${at}].exercise_price`, quoteOf(line, each.index, each.index + each[0].length));
      }
      const last = new RegExp(`\\bEach ${escapeRegExp(m[1]!)} warrant\\b(?:[^.]|\\.(?=\\d)){0,160}?\\b(?:exercisable(?:[^.]|\\.(?=\\d)){0,60}?\\b(?:to|until|through)|expires? on|will expire on) ${DATE}`, "i").exec(line.text);
      const lastIso = last ? isoDate(last[1]!) : null;
      if (last && lastIso) {
        entry.expiry = lastIso;
        r.quote(`warrants[${at}].expiry`, quoteOf(line, last.index, last.index + last[0].length));
      }
      series.push(entry);
    }
  }
}

/**
 * A named series' state at the period end told in a sentence: "As of December
 * 31, 2023, … December 2023 Common Warrants to purchase 4,204,546 shares of
 * common stock remain outstanding at an exercise price of $1.32 per share",
 * with the day the notes say that series expires ("The December 2023 Common
 * Warrants … will expire on December 1, 2028").
 */
function readSeriesOutstanding(r: Reader, series: WarrantSeries[]) {
  if (!r.period) return;
  const stated = new RegExp(
    `((?:[A-Z0-9][\\w-]*\\s+){1,5}?Warrants)\\s+to\\s+purchase\\s+(?:an aggregate of\\s+)?(\\d{1,3}(?:,\\d{3})+)(?:\\s+million)?\\s+shares\\b[^.;]{0,60}?\\b(?:remain(?:ed|s)?|were|are)\\s+outstanding(?:\\s+(?:at|with)\\s+an\\s+exercise\\s+price\\s+of\\s+${AMOUNT_WORDS})?`,
    "g",
  );
  for (const line of r.lines) {
    if (line.cells || !/warrants/i.test(line.text) || !/outstanding/i.test(line.text)) continue;
    for (const sentence of sentencesOf(line.text)) {
      const when = new RegExp(`^(?:As of|At) ${DATE}`, "i").exec(sentence.text);
      if (!when || isoDate(when[1]!) !== r.period || HYPOTHETICAL.test(sentence.text)) continue;
      for (const m of sentence.text.matchAll(stated)) {
        const name = m[1]!.replace(/^(?:The|And|Our|Its)\s+/, "").trim();
        const count = parseCount(m[2]!);
        if (/^(?:Common Stock |Outstanding |Total )?Warrants$/i.test(name) || count === null) continue;
        if (series.some((w) => (w.series !== null && nameKeyOf(w.series) === nameKeyOf(name)) || w.shares_outstanding === count)) continue;
        const at = series.length;
        const entry: WarrantSeries = { series: name, shares_outstanding: count, exercise_price: m[3] && !m[4] ? parseDollars(m[3]) : null, expiry: null, as_of: r.period };
        const quote = quoteOf(line, sentence.start + m.index, sentence.start + m.index + m[0].length);
        r.quote(`warrants[${at}].series`, quote);
        r.quote(`warrants[${at}].shares_outstanding`, quote);
        if (entry.exercise_price !== null) r.quote(`warrants[${at}].exercise_price`, quote);
        r.quote(`warrants[${at}].as_of`, quoteOf(line, sentence.start, sentence.start + when[0].length));
        const expires = findInLines(r.lines, new RegExp(`\\b${escapeRegExp(name)}\\b[^.]{0,100}?\\bwill expire on ${DATE}`, "i"));
        const expiry = expires ? isoDate(expires.match[1]!) : null;
        if (expiry) {
          entry.expiry = expiry;
          r.quote(`warrants[${at}].expiry`, expires!.quote);
        }
        series.push(entry);
      }
    }
  }
}

/**
 * A SPAC's public and private placement warrants, as the report of the company
 * it merged into tells them: "Upon the Closing, 14,479,999 warrants …,
 * consisting of 9,200,000 public warrants sold in the IPO and 5,279,999
 * warrants issued in a concurrent private placement, were assumed", or "As of
 * September 30, 2023, there were 9,200,000 Public Warrants and 5,279,999
 * Private Placement Warrants outstanding". Each takes the price and expiry the
 * notes state of public warrants ("Each whole public warrant entitles the
 * holder to purchase one share … at a price of $11.50 per share", "will
 * expire … on July 21, 2028"); the private ones too when the notes say they
 * are identical to the public warrants. As of the sentence's day, or of the
 * closing it refers to ("Upon the Closing", with "On July 21, 2023 (the
 * “Closing Date”)"); a count with neither is not read.
 */
function readPublicPrivateWarrants(r: Reader, series: WarrantSeries[]) {
  const publicCount = /(\d{1,3}(?:,\d{3})+)\s+(?:outstanding\s+)?public warrants\b/i;
  const privateCount = /(\d{1,3}(?:,\d{3})+)\s+(?:outstanding\s+)?(?:private(?: placement)? warrants|(?:sponsor )?warrants (?:issued|sold) in (?:a|the) (?:concurrent )?private placement)\b/i;
  type Statement = { line: ReportLine; start: number; text: string; pub: RegExpExecArray; priv: RegExpExecArray; asOf: string; asOfQuote: string };
  const statements: Statement[] = [];
  for (const line of r.lines) {
    if (line.cells || !/public warrants/i.test(line.text)) continue;
    for (const sentence of sentencesOf(line.text)) {
      const s = sentence.text;
      const pub = publicCount.exec(s);
      const priv = privateCount.exec(s);
      if (!pub || !priv || HYPOTHETICAL.test(s) || /\b(?:exercised|redeemed|cancell?ed|forfeited|expired)\b/i.test(s)) continue;
      const dated = new RegExp(`\\b(?:As of|At) ${DATE}`, "i").exec(s);
      if (dated) {
        const iso = isoDate(dated[1]!);
        if (iso) statements.push({ line, start: sentence.start, text: s, pub, priv, asOf: iso, asOfQuote: quoteOf(line, sentence.start + dated.index, sentence.start + dated.index + dated[0].length) });
      } else if (/^Upon (?:the )?(?:Closing|consummation of the (?:Merger|Business Combination))\b/i.test(s)) {
        const closing = closingDate(r);
        if (closing) statements.push({ line, start: sentence.start, text: s, pub, priv, asOf: closing.iso, asOfQuote: closing.quote });
      }
    }
  }
  // the period end's count when the report gives one, else the latest
  const chosen = statements.find((st) => st.asOf === r.period) ?? [...statements].sort((a, b) => (a.asOf < b.asOf ? 1 : -1))[0];
  if (!chosen) return;
  const pub = parseCount(chosen.pub[1]!);
  const priv = parseCount(chosen.priv[1]!);
  if (series.some((w) => w.shares_outstanding === pub || w.shares_outstanding === priv)) return;
  const price = findInLines(r.lines, new RegExp(`\\bEach whole (?:public )?warrant entitles the (?:registered )?holder to purchase one (?:share|ordinary share|Class A)[^.]{0,80}? at (?:a|an exercise) price of ${AMOUNT_WORDS} per share`, "i"));
  const expiry = price ? findInLines(r.lines, new RegExp(`\\bwarrants? [^.]{0,120}?\\bwill expire (?:at 5:00 p\\.m\\.,?[^,]{0,40}, )?on ${DATE}`, "i"), price.line.index, price.line.index + 4) : null;
  const identical = findInLines(r.lines, /\bprivate(?: placement)? warrants? (?:are|were|is|was) identical to the public warrants\b/i);
  const add = (name: string, count: number | null, match: RegExpExecArray, withTerms: boolean) => {
    const at = series.length;
    const entry: WarrantSeries = { series: name, shares_outstanding: count, exercise_price: null, expiry: null, as_of: chosen.asOf };
    if (r.period && chosen.asOf > r.period) entry.subsequent = true;
    const quote = quoteOf(chosen.line, chosen.start + match.index, chosen.start + match.index + match[0].length);
    r.quote(`warrants[${at}].series`, quote);
    r.quote(`warrants[${at}].shares_outstanding`, quote);
    r.quote(`warrants[${at}].as_of`, chosen.asOfQuote);
    if (withTerms && price && !price.match[2]) {
      entry.exercise_price = parseDollars(price.match[1]!);
      r.quote(`warrants[${at}].exercise_price`, price.quote);
    }
    const expiryIso = withTerms && expiry ? isoDate(expiry.match[1]!) : null;
    if (expiryIso) {
      entry.expiry = expiryIso;
      r.quote(`warrants[${at}].expiry`, expiry!.quote);
    }
    series.push(entry);
  };
  add("Public warrants", pub, chosen.pub, true);
  add("Private placement warrants", priv, chosen.priv, identical !== null);
}

/** The day a merger closed, as the report defines it: "On July 21, 2023 (the “Closing Date”), …". */
function closingDate(r: Reader): { iso: string; quote: string } | null {
  const found = findInLines(r.lines, new RegExp(`\\bOn ${DATE}\\s*\\((?:the )?[“"]Closing(?: Date)?[”"]\\)`, "i"));
  const iso = found ? isoDate(found.match[1]!) : null;
  return found && iso ? { iso, quote: found.quote } : null;
}


const nameKeyOf = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, "");
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The warrants outstanding at the period end told in one sentence: "As of June
 * 30, 2023, there were 5,250,000 warrants outstanding with a weighted average
 * exercise price of $1.25", "At June 30, 2023, the Company had outstanding
 * warrants to purchase 5,250,000 shares of common stock …". Warrants the
 * company holds in another company are an investment, not its own.
 */
function readWarrantTotalProse(r: Reader): { total: WarrantsTotal; quote: string } | null {
  if (!r.period) return null;
  // "There are no unexercised warrants outstanding at June 30, 2021."
  const none = new RegExp(`\\b(?:There (?:are|were) no|No) (?:unexercised |outstanding )?(?:common stock |stock purchase )?warrants (?:were |are )?(?:outstanding|issued and outstanding) (?:at|as of) ${DATE}`, "i");
  for (const line of r.lines) {
    if (line.cells) continue;
    const m = none.exec(line.text);
    if (m && isoDate(m[1]!) === r.period) return { total: { shares_outstanding: 0, weighted_average_exercise_price: null, as_of: r.period }, quote: quoteOf(line, m.index, m.index + m[0].length) };
  }
  const counts = [
    /\b(\d{1,3}(?:,\d{3})+|\d{4,})\s+(?:(?:common stock|common share|outstanding|stock purchase|share purchase|purchase)\s+)*warrants\b(?!\s+to purchase)[^.;]{0,40}?\boutstanding\b/i,
    /\boutstanding\s+(?:(?:common stock|stock purchase|share purchase|purchase)\s+)*warrants\s+to\s+purchase\s+(?:an aggregate of\s+)?(?:up to\s+)?(\d{1,3}(?:,\d{3})+|\d{4,})\s+shares\b/i,
    /\bwarrants\s+to\s+purchase\s+(?:an aggregate of\s+)?(\d{1,3}(?:,\d{3})+|\d{4,})\s+shares\s+of\s+(?:the Company[’']s\s+|our\s+|its\s+)?common stock\s+(?:were\s+|remained\s+)?outstanding\b/i,
    /\bwarrants\s+outstanding\s+(?:to purchase\s+)?(?:was|were|totaled|of)\s+(\d{1,3}(?:,\d{3})+|\d{4,})\b/i,
    // "The warrants are either immediately exercisable, …, and allow the holders to purchase up to 4,699,645 shares of common stock at $2.60 to $16.50 per share as of September 30, 2018."
    /\bwarrants\b[^.;]{0,200}?\b(?:allow|entitle)s?\s+(?:the\s+)?holders?\s+to\s+purchase\s+(?:up to\s+)?(?:an aggregate of\s+)?(\d{1,3}(?:,\d{3})+|\d{4,})\s+shares\b/i,
  ];
  for (const line of r.lines) {
    if (line.cells || !/warrants?/i.test(line.text) || (!/outstanding/i.test(line.text) && !/\bholders?\s+to\s+purchase\b/i.test(line.text))) continue;
    for (const sentence of sentencesOf(line.text)) {
      const s = sentence.text;
      if (HYPOTHETICAL.test(s) || /\b(?:holds?|held|owns?|investments? in|acquired)\b/i.test(s) || /\b(?:options?|restricted stock|RSUs?)\b/i.test(s)) continue;
      const when = new RegExp(`\\b(?:As of|At) ${DATE}`, "i").exec(s);
      if (!when || isoDate(when[1]!) !== r.period) continue;
      const m = counts.map((re) => re.exec(s)).find((x) => x !== null);
      if (!m) continue;
      const price = new RegExp(`\\bweighted[- ]average exercise price of ${AMOUNT_WORDS}`, "i").exec(s);
      const end = Math.max(m.index + m[0].length, price && !price[2] ? price.index + price[0].length : 0);
      return {
        total: { shares_outstanding: parseCount(m[1]!), weighted_average_exercise_price: price && !price[2] ? parseDollars(price[1]!) : null, as_of: r.period },
        quote: quoteOf(line, sentence.start + Math.min(when.index, m.index), sentence.start + end),
      };
    }
  }
  return null;
}

function readWarrants(r: Reader): { warrants: WarrantSeries[]; total: WarrantsTotal | null } {
  const { series, total, totalQuote } = readTableWarrants(r);
  readWarrantProse(r, series);
  readNamedWarrants(r, series);
  readSubsequentUnitWarrants(r, series);
  readPublicPrivateWarrants(r, series);
  readSeriesOutstanding(r, series);
  readIssuedSeries(r, series);
  if (total && totalQuote) {
    r.quote("warrants_total.shares_outstanding", totalQuote);
    if (total.weighted_average_exercise_price !== null) r.quote("warrants_total.weighted_average_exercise_price", totalQuote);
    r.quote("warrants_total.as_of", totalQuote);
    return { warrants: series, total };
  }
  // (a total stated beside the series is stated all the same: the ledger counts it only when no series is tracked)
  {
    const prose = readWarrantTotalProse(r);
    if (prose) {
      r.quote("warrants_total.shares_outstanding", prose.quote);
      if (prose.total.weighted_average_exercise_price !== null) r.quote("warrants_total.weighted_average_exercise_price", prose.quote);
      r.quote("warrants_total.as_of", prose.quote);
      return { warrants: series, total: prose.total };
    }
    const anti = readAntiDilutiveWarrants(r.tables, r.period);
    if (anti) {
      r.quote("warrants_total.shares_outstanding", anti.quote);
      r.sources["warrants_total.shares_outstanding"] = tableColumn(anti.countHeading);
      r.quote("warrants_total.as_of", anti.asOfQuote);
      return { warrants: series, total: { shares_outstanding: anti.shares_outstanding, weighted_average_exercise_price: null, as_of: anti.as_of } };
    }
  }
  return { warrants: series, total: null };
}

// ───────────────────────────── at-the-market programs ─────────────────────────────

const ATM_CUE = /at[- ]the[- ]market|\bATM\b|equity distribution agreement|sales agreement|controlled equity offering/i;
/** A legal name: capitalised words ("Cowen and Company, LLC" too) up to a corporate suffix, in capitals or not ("YA II PN, LTD."). */
const CORPORATE_NAME = String.raw`((?:[A-Z][\w.&'-]*,?\s+|&\s+|and\s+(?=Company\b)){0,6}?(?:Inc\.|INC\.|LLC|L\.L\.C\.|Co\.|Corp\.|CORP\.|Corporation|Ltd\.|LTD\.|Ltd\b|LTD\b|Limited|LIMITED|L\.P\.|LP)(?:,?\s+(?:LLC|Inc\.))?)`;

interface ProgramState {
  key: string;
  program: AtmProgram;
  quotes: Record<string, string>;
  /** a sale of the program falls outside the period (an earlier program's history) */
  salesOutside: boolean;
  salesInside: boolean;
  periodLength: number;
  /** "YYYY-MM" the program began, when its sentence says */
  startMonth: string | null;
}

function newProgram(key: string): ProgramState {
  return {
    key,
    program: { agent: null, max_amount: null, shares_sold_in_period: null, gross_sold_in_period: null, shares_sold_to_date: null, gross_sold_to_date: null, remaining: null, as_of: null },
    quotes: {},
    salesOutside: false,
    salesInside: false,
    periodLength: 0,
    startMonth: null,
  };
}

/** "the 2023 ATM", "2022 ATM Offering" → "2023"; programs without a year share one key. */
function programKey(text: string): string | null {
  const m = /\b((?:19|20)\d{2}) ATM\b(?! Agreement)/.exec(text);
  return m ? m[1]! : null;
}

function readAtmPrograms(r: Reader): AtmProgram[] {
  const programs = new Map<string, ProgramState>();
  const aliases = new Map<string, string>();
  const get = (key: string) => {
    let state = programs.get(key);
    if (!state) {
      state = newProgram(key);
      programs.set(key, state);
    }
    return state;
  };
  const set = (state: ProgramState, field: keyof AtmProgram, value: number | string, quote: string) => {
    if (state.program[field] !== null && state.program[field] !== undefined) return;
    (state.program as unknown as Record<string, unknown>)[field] = value;
    state.quotes[field] = quote;
  };
  // when the report names its programs by year ("the 2023 ATM"), a sentence that names none cannot be told apart
  const named = r.lines.some((l) => !l.cells && ATM_CUE.test(l.text) && programKey(l.text) !== null);
  let heading: string | null = null;
  for (const line of r.lines) {
    if (line.cells) continue;
    // "2023 ATM Offering" as a heading names the program of the paragraphs below it
    if (line.text.length < 60 && /^(?:19|20)\d{2} ATM(?: Offering| Program)?$/i.test(line.text)) {
      heading = programKey(line.text);
      continue;
    }
    if (line.text.length < 60 && !/[.;]$/.test(line.text)) {
      heading = null;
      continue;
    }
    if (!ATM_CUE.test(line.text) && !(heading && /\bsold\b|\bsale of\b/i.test(line.text))) continue;
    const thousands = r.thousands[line.index]!;
    let previousSale: { state: ProgramState; inPeriod: boolean } | null = null;
    for (const sentence of sentencesOf(line.text)) {
      const s = sentence.text;
      const quote = (start: number, end: number) => quoteOf(line, sentence.start + start, sentence.start + end);
      const name = programKey(s);
      // (in a paragraph about the one ATM program, a sentence about "the program" is about it too)
      const atm = ATM_CUE.test(s) || name !== null || (!named && ATM_CUE.test(line.text) && /\bthe (?:ATM )?program\b/i.test(s));
      const key = name ?? (atm ? heading : null) ?? (heading && /\bsold\b|\bsale of\b|had been issued/i.test(s) ? heading : null);
      // aliases: "H.C. Wainwright & Co., LLC, acting as sales agent (“Wainwright”)"
      for (const m of s.matchAll(new RegExp(`${CORPORATE_NAME}[^(“"]{0,40}\\([“"]([A-Z][\\w.&]+)[”"]\\)`, "g"))) aliases.set(m[2]!, m[1]!.replace(/,$/, ""));
      if ((!atm && !key) || (named && !key)) continue;
      const state = get(key ?? "ATM");
      // the program's size
      // "up to $50.0 million", "up to an aggregate offering price of $75.0 million", "up to an aggregate amount of gross sales proceeds of $50.0 million"
      const max = new RegExp(`\\bup to (?:(?:an?|the) )?(?:(?:aggregate|maximum|total|amount|offering|price|gross|sales|proceeds|of)\\s+){0,7}?(?:approximately )?${AMOUNT_WORDS}`, "i").exec(s);
      // "… filed a prospectus supplement … that reduced the amount the Company may sell to aggregate proceeds of up to $15 million": the program's size from then on
      if (max && (atm || key) && state.program.max_amount !== null && /\breduc(?:ed|es|ing)\b[^.]{0,160}\bup to\b/i.test(s.slice(0, max.index + 6))) {
        const value = amountAt(max[1]!, max[2], thousands);
        if (value !== null && value < state.program.max_amount) {
          state.program.max_amount = value;
          state.quotes.max_amount = quote(0, max.index + max[0].length);
        }
      }
      if (max && !/per share/i.test(s.slice(max.index, max.index + max[0].length + 12)) && (atm || key) && state.program.max_amount === null) {
        const value = amountAt(max[1]!, max[2], thousands);
        if (value !== null) set(state, "max_amount", value, quote(0, max.index + max[0].length));
        const when = monthOf(s.slice(0, max.index)) ?? firstDate(s.slice(0, max.index))?.iso.slice(0, 7) ?? null;
        state.startMonth ??= when;
        if (r.period && ((when && when > r.period.slice(0, 7)) || /\bintends? to commence\b/i.test(s))) state.program.subsequent = true;
      }
      // the agent, by name or by the alias the report gave it
      const agent = new RegExp(`\\bwith ${CORPORATE_NAME}`).exec(s) ?? null;
      // "B. Riley Securities, Inc. acts as sales agent for the Company’s ATM program"
      const acting = agent ? null : new RegExp(`^${CORPORATE_NAME},? (?:acts|acted|is acting|serves|will act) as (?:the |our |its )?(?:exclusive |sole )?sales agent\\b`).exec(s);
      if (acting) set(state, "agent", acting[1]!.replace(/,$/, ""), quote(0, acting[0].length));
      if (agent && /sales agent|agent|offering agreement|sales agreement|distribution agreement/i.test(s)) {
        set(state, "agent", agent[1]!.replace(/,$/, ""), quote(agent.index, agent.index + agent[0].length));
      } else if (/\bsales agent\b/i.test(s)) {
        for (const [alias, full] of aliases) {
          const at = s.search(new RegExp(`\\b(?:with|through) ${alias.replace(/[.]/g, "\\.")}\\b`));
          if (at >= 0) {
            set(state, "agent", full, quote(at, at + alias.length + 6));
            break;
          }
        }
      }
      // capacity left: "As of June 30, 2023, $5.2 million remained available under the Sales Agreement"
      const left =
        new RegExp(`${AMOUNT_WORDS}(?: of (?:our )?(?:common stock|shares|capacity))?[^.;$]{0,40}?\\b(?:remained|remains|remain|remaining|was|were|is) (?:available|unsold|remaining|eligible)\\b`, "i").exec(s) ??
        new RegExp(`\\bremaining (?:capacity|availability|amount available)\\b[^.;$]{0,60}?\\b(?:was|is|of) (?:approximately )?${AMOUNT_WORDS}`, "i").exec(s);
      const leftAsOf = left ? new RegExp(`\\b(?:As of|At) ${DATE}`, "i").exec(s) : null;
      const leftIso = leftAsOf ? isoDate(leftAsOf[1]!) : null;
      if (left && leftIso && r.period && leftIso <= r.period && (state.program.as_of === null || state.program.as_of === leftIso)) {
        const amount = amountAt(left[1]!, left[2], thousands);
        if (amount !== null) {
          set(state, "remaining", amount, quote(Math.min(leftAsOf!.index, left.index), Math.max(leftAsOf!.index + leftAsOf![0].length, left.index + left[0].length)));
          if (state.program.as_of === null) {
            state.program.as_of = leftIso;
            state.quotes.as_of = quote(leftAsOf!.index, leftAsOf!.index + leftAsOf![0].length);
          }
          state.salesInside = true;
        }
      }
      // sales in the period: "During the six months ended <period end>, … from the sale of 4,250,000 shares"
      // "during the six months ended", "during the three and nine months ended" (the longer), "in the nine months ended", "during the quarter ended"
      const during = new RegExp(`\\b(?:during|for|in) the (?:(?:three|six|nine|twelve) and )?(three|six|nine|twelve) months ended ${DATE}|\\b(?:during|for|in) the (?:fiscal )?(year|quarter) ended ${DATE}`, "i").exec(s);
      let soldShares = /\b(?:sale of|sold|offering of|issued)\s+(?:an aggregate of\s+|a total of\s+)?(?:approximately\s+)?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s+(million|billion))?\s+(?:ATM\s+|common\s+)?(?:shares|units)\b/i.exec(s);
      // "During the three and six months ended June 30, 2024, the Company sold 0.5 million and 1.8 million shares …, respectively": the longer period's, the second
      const both = /\b(?:sale of|sold|issued)\s+(?:approximately\s+)?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s+(million|billion))?\s+and\s+(?:approximately\s+)?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?:\s+(million|billion))?\s+(?:ATM\s+|common\s+)?(?:shares|units)\b(?:[^.]|\.(?=\d))*\brespectively\b/i.exec(s);
      if (both && !soldShares) {
        const second = Object.assign([`${both[3]}${both[4] ? ` ${both[4]}` : ""} shares`, both[3], both[4]], { index: both.index, input: s, groups: undefined }) as unknown as RegExpExecArray;
        soldShares = second;
        soldShares[0] = both[0];
      }
      // "No shares of common stock were sold under the ATM Agreement in the nine months ended …": none sold in the period
      const noneSold = /^No shares\b[^.;]{0,60}?\bwere (?:sold|issued)\b/i.exec(s);
      const gross = new RegExp(`(?:${AMOUNT_WORDS} (?:of |in )?gross proceeds|gross proceeds of (?:approximately )?${AMOUNT_WORDS})`, "i").exec(s);
      if (during && (soldShares || gross || noneSold)) {
        const endText = (during[2] ?? during[4])!;
        const endIso = isoDate(endText);
        const months = during[1] ? ["three", "six", "nine", "twelve"].indexOf(during[1].toLowerCase()) * 3 + 3 : /quarter/i.test(during[3]!) ? 3 : 12;
        const inPeriod = endIso !== null && endIso === r.period;
        if (!inPeriod) state.salesOutside = true;
        if (inPeriod && months >= state.periodLength) {
          if (months > state.periodLength) {
            state.program.shares_sold_in_period = null;
            state.program.gross_sold_in_period = null;
          }
          state.periodLength = months;
          state.salesInside = true;
          state.program.in_period_label = `${during[1] ? `${during[1].toLowerCase()} months` : during[3]!.toLowerCase()} ended ${endText}`;
          state.program.as_of = endIso;
          state.quotes.as_of = quote(during.index, during.index + during[0].length);
          if (soldShares) set(state, "shares_sold_in_period", countAt(soldShares[1]!, soldShares[2])!, quote(soldShares.index, soldShares.index + soldShares[0].length));
          else if (noneSold) set(state, "shares_sold_in_period", 0, quote(0, during.index + during[0].length));
          // "… for net proceeds of $10.4 million, which completed the ATM program": used up by the period's sales
          const completed = /\bwhich (?:completed|exhausted|fully utilized|used up) the (?:ATM|at[- ]the[- ]market|sales agreement|offering|program)\b[^.;]{0,20}/i.exec(s);
          if (completed) set(state, "remaining", 0, quote(Math.max(0, completed.index - 100), completed.index + completed[0].length));
          if (gross) {
            const amount = amountAt(gross[1] ?? gross[3]!, gross[2] ?? gross[4], thousands);
            if (amount !== null) set(state, "gross_sold_in_period", amount, quote(gross.index, gross.index + gross[0].length));
          }
        }
        previousSale = { state, inPeriod };
        continue;
      }
      // sales to date: "As of June 30, 2023, the Company has sold 70,264,987 shares", "From June 21, 2021 through September 30, 2022, the Company sold an aggregate of 1,607,739 shares"
      const toDate =
        new RegExp(`\\bAs of ${DATE},? (?:the Company|we) (?:has|had|have)? ?sold (\\d{1,3}(?:,\\d{3})+) shares`, "i").exec(s) ??
        new RegExp(`^From [A-Z][a-z]+ \\d{1,2},? \\d{4},? (?:through|to) ${DATE},? (?:the Company|we) (?:has |had |have )?sold (?:an aggregate of |a total of )?(\\d{1,3}(?:,\\d{3})+) shares`, "i").exec(s) ??
        // "As of December 31, 2023, the Company has received proceeds of approximately $12.2 million net of fees from the sales of 498 thousand shares of common stock since the inception of the program"
        new RegExp(`\\bAs of ${DATE},? (?:the Company|we) (?:has|had|have) received (?:net )?proceeds of (?:[^.;]|\\.(?=\\d)){0,80}?\\bfrom the sales? of (\\d{1,3}(?:,\\d{3})+|\\d{1,3}(?:\\.\\d+)? (?:thousand|million)) shares\\b[^.;]{0,60}?\\bsince (?:the )?inception\\b`, "i").exec(s);
      if (toDate) {
        const iso = isoDate(toDate[1]!);
        const withinYear = iso !== null && r.period !== null && iso <= r.period && iso > `${Number(r.period.slice(0, 4)) - 1}${r.period.slice(4)}`;
        if (withinYear) {
          state.salesInside = true;
          const scaled = /^([\d.]+) (thousand|million)$/.exec(toDate[2]!);
          const sharesToDate = scaled ? Math.round(Number(scaled[1]) * (scaled[2] === "million" ? 1_000_000 : 1_000)) : parseCount(toDate[2]!);
          if (sharesToDate !== null) set(state, "shares_sold_to_date", sharesToDate, quote(toDate.index, toDate.index + toDate[0].length));
          if (state.program.as_of === null) {
            state.program.as_of = iso;
            state.quotes.as_of = quote(toDate.index, toDate.index + toDate[0].length);
          }
          // "… at an average price of approximately $6.15 per share for gross proceeds of approximately $37.1 million": the proceeds, not the price
          const grossToDate =
            new RegExp(`\\bgross proceeds of (?:approximately )?${AMOUNT_WORDS}`, "i").exec(s.slice(toDate.index)) ??
            new RegExp(`${AMOUNT_WORDS}(?!\\s+per\\s+share)[^.]{0,20}\\bgross\\b`, "i").exec(s.slice(toDate.index));
          if (grossToDate && !/\bnet of\b/i.test(s.slice(toDate.index, toDate.index + grossToDate.index + grossToDate[0].length + 25))) {
            const amount = amountAt(grossToDate[1]!, grossToDate[2], thousands);
            if (amount !== null) set(state, "gross_sold_to_date", amount, quote(toDate.index, toDate.index + grossToDate.index + grossToDate[0].length));
          }
        } else state.salesOutside = true;
        previousSale = { state, inPeriod: withinYear };
        continue;
      }
      // used up by the sale just told: "With the sale and issuance of these shares, all $500.0 million … had been issued."
      const usedUp = /\ball\s+\$[\d.,]+(?:\s+(?:million|billion))?[^.]{0,120}\bavailable for sale\b[^.]{0,80}\bhad been (?:issued|sold)\b/i.exec(s);
      if (usedUp && previousSale) {
        if (previousSale.inPeriod) set(previousSale.state, "remaining", 0, quote(usedUp.index, usedUp.index + usedUp[0].length));
        continue;
      }
      if (/\bsold\b|\bsale of\b/i.test(s) && !/\bshelf\b/i.test(s)) {
        const when = monthOf(s);
        if (when && r.period && when > r.period.slice(0, 7)) previousSale = { state, inPeriod: false };
        else if (when) {
          state.salesOutside = state.salesOutside || (r.period !== null && when <= r.period.slice(0, 7) && !state.salesInside);
          previousSale = null;
        }
      }
    }
  }
  for (const state of programs.values()) if (state.program.agent === null && state.startMonth) agentFromExhibits(r, state);
  const out: AtmProgram[] = [];
  for (const state of programs.values()) {
    const p = state.program;
    const defined = p.max_amount !== null || p.agent !== null;
    // programs whose every sale is told for an earlier period were used up before it began
    if (!state.salesInside && (state.salesOutside || !defined)) continue;
    if (!state.salesInside && !p.subsequent) {
      // a program defined but with no sale told: listed only when the report says it starts after the period
      continue;
    }
    const at = out.length;
    for (const [field, quote] of Object.entries(state.quotes)) {
      if ((p as unknown as Record<string, unknown>)[field] !== null) r.quote(`atm_programs[${at}].${field}`, quote);
    }
    out.push(p);
  }
  return out;
}

const EXHIBIT_AGREEMENT = new RegExp(
  `(?:^|\\s)(?:(?:Controlled Equity Offering\\S*|At[- ]the[- ]Market(?: Offering| Issuance)?|Equity Distribution|Open Market|ATM)\\s+)?(?:Sales|Offering|Distribution) Agreement,? dated (?:as of )?${DATE},? by and (?:among|between) (.*)$`,
  "i",
);

/**
 * A program whose sales agent the notes do not name takes it from the exhibit
 * index, when the index lists a sales agreement dated in the month the
 * program began: "Sales Agreement, dated as of March 31, 2022, by and among
 * Riot Blockchain, Inc. and its sales agents, Cantor Fitzgerald & Co., …" →
 * the first agent named after the company. An agreement "with the Sales
 * Agents" names none.
 */
function agentFromExhibits(r: Reader, state: ProgramState) {
  for (const line of r.lines) {
    if (!/agreement, dated/i.test(line.text) || /purchase and sales|master/i.test(line.text)) continue;
    const m = EXHIBIT_AGREEMENT.exec(line.text);
    if (!m || isoDate(m[1]!)?.slice(0, 7) !== state.startMonth) continue;
    const parties = [...m[2]!.matchAll(new RegExp(CORPORATE_NAME, "g"))];
    const agent = parties[1];
    if (!agent) return;
    const at = line.text.indexOf(m[2]!) + agent.index;
    state.program.agent = agent[1]!.replace(/,$/, "");
    state.quotes.agent = quoteOf(line, line.text.indexOf(m[0].trim()), at + agent[0].length);
    return;
  }
}

// ───────────────────────────── convertibles ─────────────────────────────

interface FoundConvertible {
  item: Convertible;
  quotes: Record<string, string>;
  /** the line that defines it */
  at: number;
  /** the words the report calls it by afterwards (“Notes”, “May 2023 Note”, “convertible promissory note”) */
  term: string;
  /** where its principal came from: a period-end statement outranks the amount it was issued for */
  principalFrom: "period" | "issue" | null;
  /** the values read from a table's column, by field */
  sources?: Record<string, FieldSource>;
}

/** The kinds of convertible debt a report names: convertible senior notes, convertible promissory notes, convertible debentures. */
/** A conversion price that is a formula ("the lesser of $0.50 or 70% of the lowest trading price") is no price. */
const PRICE_FORMULA = /\b(?:lesser|lower|greater|higher) of\b|\d+(?:\.\d+)?\s?% of\b|\bdiscount (?:to|of)\b|\baverage\b|\bVWAP\b|\bvariable\b/i;
const OWN_ISSUE = /\b(?:the Company|we|the Registrant)\s+(?:also\s+)?(?:issued|sold|entered into|executed|delivered)\b/i;
// ("we … invested $1.3 billion in a third convertible note": an investment, with its amount between the words)
const HELD_NOT_ISSUED = /\b(?:invest(?:ed|ing|ments?)\b(?:[^.]|\.(?=\d)){0,40}?\bin|purchased|acquired|holds?|held|receivable|loaned|lent|advanced)\b/i;

/** "conversion price of $0.50 per share", "convertible into common stock at $0.50 per share": a stated price, never a formula. */
function conversionPriceIn(text: string): { value: number; index: number; end: number } | null {
  const patterns = [
    new RegExp(`\\bconversion price (?:initially )?(?:of|equal to|is|was|set at) (?:approximately )?${AMOUNT_WORDS}(?: per (?:common )?share)?`, "i"),
    new RegExp(`\\bconvertible (?:in)?to [^.;]{0,90}?\\bat (?:a (?:fixed )?(?:conversion )?price of |a price of )?(?:approximately )?${AMOUNT_WORDS} per share`, "i"),
    new RegExp(`\\bconvertible at (?:a (?:fixed )?(?:conversion )?price of )?(?:approximately )?${AMOUNT_WORDS} per share`, "i"),
    // "… dividing (i) the unpaid principal and interest by (ii) $0.32 (the “Conversion Price”)": the price the report defines as such
    new RegExp(`${AMOUNT_WORDS}(?: per share)?\\s*\\((?:the |such )?[“"](?:Initial |Fixed )?Conversion Price[”"]\\)`, "i"),
  ];
  for (const re of patterns) {
    const m = re.exec(text);
    if (!m || m[2]) continue;
    const around = text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 60);
    if (PRICE_FORMULA.test(around)) return null;
    const value = parseDollars(m[1]!);
    if (value !== null) return { value, index: m.index, end: m.index + m[0].length };
  }
  return null;
}

/** "matures on May 1, 2024", "maturity date of May 1, 2024", "due and payable on May 1, 2024" (interest due on a day is not a maturity). */
function maturityIn(text: string): { iso: string; index: number; end: number } | null {
  const re = new RegExp(`\\b(?:matur(?:e|es|ing|ed)|maturity date (?:of|is|was)|due(?: and payable)?)(?: on)? ${DATE}`, "gi");
  for (const m of text.matchAll(re)) {
    if (/^due/i.test(m[0]) && /\binterest\b[^.]{0,25}$/i.test(text.slice(Math.max(0, m.index - 30), m.index))) continue;
    const iso = isoDate(m[1]!);
    if (iso) return { iso, index: m.index, end: m.index + m[0].length };
  }
  return null;
}

/** The defined term a sentence gives what it introduces: (the “May 2023 Note”). */
function definedTerm(text: string): string | null {
  const m = /\((?:the |each, (?:a|the) |collectively,? the |individually,? (?:a|the) |each (?:a|the) )?[“"]([A-Z][^”"]{1,40})[”"]/.exec(text);
  return m ? m[1]! : null;
}

/** The amounts of "As of June 30, 2023 and December 31, 2022, … were $734,231 and $732,289, respectively": the one of the period end. */
function periodAmount(r: Reader, sentence: string, from: number, thousands: boolean): { value: number; index: number; end: number } | null {
  if (!r.period) return null;
  const clause = new RegExp(`\\b(?:As of|At) ${DATE}(?:,? and (${MONTH}\\s+\\d{1,2},?\\s+\\d{4}|(?:19|20)\\d{2}))?`, "i").exec(sentence.slice(0, from));
  if (!clause) return null;
  const first = isoDate(clause[1]!);
  const second = clause[2] ? (isoDate(clause[2]) ?? (first ? `${clause[2]}${first.slice(4)}` : null)) : null;
  const dates = second ? [first, second] : [first];
  const periodAt = dates.indexOf(r.period);
  if (periodAt < 0) return null;
  const amounts = [...sentence.slice(from).matchAll(new RegExp(AMOUNT_WORDS, "g"))];
  if (dates.length > 1 && (!/\brespectively\b/i.test(sentence) || amounts.length < dates.length)) return null;
  const m = amounts[periodAt];
  if (!m) return null;
  const value = amountAt(m[1]!, m[2], thousands);
  return value === null ? null : { value, index: from + m.index, end: from + m.index + m[0].length };
}

/** A sentence says every one of them was converted, redeemed or repaid by the period end ("the Note was converted in full on April 3, 2023"). */
function closedInFull(r: Reader, name: string): boolean {
  const t = `(?:the )?${escapeRegExp(name)}`;
  const re = new RegExp(
    [
      `\\ball (?:of )?(?:the )?(?:outstanding )?(?:shares of )?${t} (?:were|was|have been|has been|had been) (?:fully )?(?:redeemed|converted|repaid|extinguished|retired|exchanged)`,
      `${t} (?:were|was|have been|has been|had been) (?:fully|entirely) (?:redeemed|converted|repaid|paid|settled|extinguished|retired)`,
      `${t} (?:were|was|have been|has been|had been) (?:redeemed|converted|repaid|paid|settled|extinguished|retired)(?: off)? in (?:full|its entirety|their entirety)`,
      `\\b(?:converted|repaid|paid off|redeemed|settled|retired) (?:all of |in full )?(?:the )?(?:entire |full |remaining |total )?(?:outstanding )?(?:principal (?:balance|amount) |balance )?(?:and accrued (?:and unpaid )?interest )?(?:of|on|under) ${t}(?: in full)?(?![^.]{0,20}\\bin part)`,
      `\\bfull (?:conversion|repayment|redemption|settlement) of ${t}`,
      `\\b(?:converted|repaid|paid off|prepaid|redeemed|settled|retired) ${t} in (?:full|its entirety)`,
      // "The SCH Convertible Note was converted into shares of the Successor’s common stock at the Closing" (not "$1.4 million of the Notes were converted")
      // (nor "approximately 36 shares of Series 1 Convertible Preferred Stock were converted")
      `(?<!\\d[\\d,.]*(?:\\s+(?:million|thousand))?\\s+(?:shares\\s+)?(?:in (?:aggregate )?principal amount\\s+)?of\\s+(?:the\\s+)?)${t} (?:were|was|have been|has been|had been) converted into (?:shares of )?`,
    ].join("|"),
    "i",
  );
  const lowerName = name.toLowerCase();
  for (const line of r.lines) {
    // the name must be on the line before the long pattern is tried
    if (line.cells || !r.lower(line.index).includes(lowerName) || !re.test(line.text)) continue;
    for (const sentence of sentencesOf(line.text)) {
      if (!re.test(sentence.text) || HYPOTHETICAL.test(sentence.text)) continue;
      if (/\b(?:partial(?:ly)?|portion|part of)\b/i.test(sentence.text) && !/\bremaining\b/i.test(sentence.text)) continue;
      // converted after the period end: still outstanding at it
      const when = firstDate(sentence.text)?.iso ?? null;
      if (r.period && when && when > r.period) continue;
      return true;
    }
  }
  return false;
}

/** The lines that tell about an instrument: its own paragraph and the next few, up to one that introduces another. */
function linesAbout(r: Reader, at: number, count: number, introduces: RegExp): ReportLine[] {
  const out: ReportLine[] = [r.lines[at]!];
  for (const line of r.lines.slice(at + 1, at + 1 + count * 4)) {
    if (line.cells) continue;
    if (out.length >= count || introduces.test(line.text)) break;
    out.push(line);
  }
  return out;
}

/**
 * The principal a paragraph says is outstanding at the period end: "As of June
 * 30, 2023, the outstanding principal balance of the Note was $350,000", or a
 * principal the report stated that its period-end carrying amount and discount
 * add up to ("notes outstanding, net of unamortized discounts of $13,269 …,
 * were $734,231" beside "an aggregate principal amount … of $747,500").
 */
function periodPrincipal(r: Reader, found: FoundConvertible, about: ReportLine[]) {
  if (!r.period) return;
  const periodText = periodWritten(r.period);
  for (const line of about) {
    const thousands = r.thousands[line.index]!;
    for (const sentence of sentencesOf(line.text)) {
      const s = sentence.text;
      if (!s.includes(periodText) && !s.includes(periodText.replace(/, \d{4}$/, ""))) continue;
      const stated = /\b(?:outstanding |remaining |unpaid |aggregate )?principal (?:balance|amount)(?: outstanding)?\b(?:(?! net of)[^$.;]){0,80}?\b(?:was|were|of|totaled|totaling|is|amounted to)\s+(?:approximately\s+)?(?=\$)/i.exec(s);
      if (stated) {
        const amount = periodAmount(r, s, stated.index + stated[0].length, thousands);
        if (amount && amount.value > 0) {
          found.item.principal_or_stated_outstanding = amount.value;
          found.item.as_of = r.period;
          found.principalFrom = "period";
          const q = quoteOf(line, sentence.start, sentence.start + amount.end);
          found.quotes.principal_or_stated_outstanding = q;
          found.quotes.as_of = q;
          return;
        }
      }
      const net = /\bnet of (?:unamortized )?(?:debt )?discounts? (?:and (?:debt )?issuance costs )?(?:of )?(?:approximately )?(?=\$)/i.exec(s);
      const were = net ? /\b(?:were|was|totaled|of)\s+(?:approximately\s+)?(?=\$)/i.exec(s.slice(net.index + net[0].length)) : null;
      if (!net || !were) continue;
      const discount = periodAmount(r, s.slice(0, net.index + net[0].length + were.index), net.index + net[0].length, thousands);
      const carrying = periodAmount(r, s, net.index + net[0].length + were.index + were[0].length, thousands);
      if (!discount || !carrying) continue;
      const principal = discount.value + carrying.value;
      for (const other of about) {
        const stated = [...other.text.matchAll(new RegExp(`\\bprincipal (?:amount )?(?:of (?:[^$.;]{0,40}? of )?)?${AMOUNT_WORDS}|${AMOUNT_WORDS} (?:in )?(?:aggregate )?principal`, "gi"))];
        for (const m of stated) {
          const value = amountAt(m[1] ?? m[3]!, m[2] ?? m[4], r.thousands[other.index]!);
          if (value === null || Math.abs(value - principal) > 0.5) continue;
          found.item.principal_or_stated_outstanding = value;
          found.item.as_of = r.period;
          found.principalFrom = "period";
          found.quotes.principal_or_stated_outstanding = quoteOf(other, m.index, m.index + m[0].length);
          found.quotes.as_of = quoteOf(line, sentence.start, sentence.start + s.length);
          return;
        }
      }
    }
  }
}

/** Notes the report says the company has at the period end, with their face value: "We have convertible notes payable to related parties with a face value of $0.2 million at March 31, 2025". */
const HAS_NOTES = new RegExp(`^(?:We|The Company) (?:have|has|had) (?:outstanding )?(convertible (?:promissory )?notes?(?: payable)?(?: to (?:related parties|a related party|(?:certain )?(?:stockholders|shareholders|investors|directors)))?) with (?:a|an aggregate) (?:total )?(?:face value|principal (?:amount|balance)|outstanding principal(?: balance)?) of ${AMOUNT_WORDS} (?:at|as of) ${DATE}`, "i");

/** Convertible debt the report says it issued, in the words of large filers and small ones alike. */
function readConvertibleDebtProse(r: Reader, found: FoundConvertible[]) {
  const named = new RegExp(`\\bissued ${AMOUNT_WORDS} (?:in )?(?:aggregate )?principal (?:amount )?of (?:its |our |the Company[’']s )?((?:[\\d.]+% )?(?:[A-Z][\\w-]* )*Convertible (?:Senior )?(?:Secured |Unsecured |Subordinated )?(?:Notes|Debentures) due (?:19|20)\\d{2})`);
  // "issued $3.3 million aggregate principal amount Original Issue Discount Senior Secured Convertible Debentures (the “Secured Convertible Notes”)": named by the term it defines
  const titled = new RegExp(`\\bissued ${AMOUNT_WORDS} (?:in )?(?:aggregate )?principal amount (?:of )?(?:its |our |the Company[’']s )?(?:(?:[A-Z][\\w-]* ){0,6}Convertible (?:Notes|Debentures))\\s*\\((?:the )?[“"]([A-Z][^”"]{2,60})[”"]\\)`);
  const single = new RegExp(`\\b(?:a|an|one|the|two|three|several|additional|certain) (?:[\\w%.$,’'-]+ ){0,6}?((?:senior |secured |unsecured |subordinated )*${CONVERTIBLE_DEBT})\\b`, "i");
  const introduces = new RegExp(`${named.source}|${OWN_ISSUE.source}[^.]{0,160}?\\b${CONVERTIBLE_DEBT}`, "i");
  for (const line of r.lines) {
    if (line.cells || !/convertible/i.test(line.text)) continue;
    const thousands = r.thousands[line.index]!;
    for (const sentence of sentencesOf(line.text)) {
      const s = sentence.text;
      const quote = (start: number, end: number) => quoteOf(line, sentence.start + start, sentence.start + end);
      const big = named.exec(s) ?? titled.exec(s);
      let entry: FoundConvertible | null = null;
      if (big) {
        const name = big[3]!;
        if (found.some((f) => f.item.name === name)) continue;
        const q = quote(big.index, big.index + big[0].length);
        entry = { item: { kind: "note", name, principal_or_stated_outstanding: null, conversion_price: null, maturity: null, as_of: null }, quotes: { name: q, kind: q }, at: line.index, term: /\(the [“"]([^”"]+)[”"]\)/.exec(s)?.[1] ?? "Notes", principalFrom: null };
      } else if (HAS_NOTES.test(s)) {
        // "We have convertible notes payable to related parties with a face value of $0.2 million at March 31, 2025 …"
        const m = HAS_NOTES.exec(s)!;
        const iso = isoDate(m[4]!);
        const value = amountAt(m[2]!, m[3], thousands);
        if (!iso || iso !== r.period || value === null) continue;
        const name = m[1]!.replace(/\s+/g, " ").toLowerCase();
        if (found.some((f) => nameKey(f.item.name) === nameKey(name))) continue;
        const q = quote(m.index, m.index + m[0].length);
        entry = { item: { kind: "note", name, principal_or_stated_outstanding: value, conversion_price: null, maturity: null, as_of: iso }, quotes: { name: q, kind: q, principal_or_stated_outstanding: q, as_of: q }, at: line.index, term: "notes", principalFrom: "period" };
      } else {
        const issue = OWN_ISSUE.exec(s);
        const note = issue ? single.exec(s.slice(issue.index)) : null;
        if (!issue || !note || issue[0].length + 160 < note.index) continue;
        const noteAt = issue.index + note.index;
        // (up to the note's own words: "an agreement and invested $1.3 billion in a third convertible note")
        const wordsAt = noteAt + note[0].lastIndexOf(note[1]!);
        if (HELD_NOT_ISSUED.test(s.slice(0, wordsAt).replace(/\bpurchase agreement\b/gi, "")) || HYPOTHETICAL.test(s.slice(0, wordsAt))) continue;
        // shares issued on converting or settling notes: the notes are not what was issued
        // (or stock and warrants given "as consideration for the convertible notes")
        if (/\bshares\b|\bconver(?:sion|ted)\b|\bexchange|\bsettle|\brepay|\bsatisf|\bin lieu\b|\bcommon stock\b|\bwarrants?\b|\bconsideration\b|\bin connection with\b/i.test(s.slice(issue.index + issue[0].length, noteAt))) continue;
        const date = new RegExp(`^(?:On|Effective) ${DATE}|\\bdated (?:as of )?${DATE}`, "i").exec(s);
        const dateText = date ? (date[1] ?? date[2])! : null;
        const term = definedTerm(s.slice(noteAt)) ?? note[1]!.toLowerCase();
        const words = note[1]!.toLowerCase();
        const name = definedTerm(s.slice(noteAt)) ?? (dateText ? `${words} dated ${dateText}` : words);
        if (found.some((f) => nameKey(f.item.name) === nameKey(name))) continue;
        const q = quote(noteAt, noteAt + note[0].length);
        entry = { item: { kind: "note", name, principal_or_stated_outstanding: null, conversion_price: null, maturity: null, as_of: null }, quotes: { name: q, kind: q }, at: line.index, term, principalFrom: null };
        // the principal it was issued for, as of the day it was issued
        const principal =
          new RegExp(`\\b(?:in|with|having|for) (?:an? |the )?(?:aggregate |original |face |stated )*(?:principal|face) (?:amount|sum|value|balance) of (?:approximately )?${AMOUNT_WORDS}`, "i").exec(s.slice(noteAt)) ??
          new RegExp(`${AMOUNT_WORDS} (?:in )?(?:aggregate |original )?(?:principal (?:amount )?)?(?:of )?(?:[\\w%-]+ ){0,3}?${CONVERTIBLE_DEBT}`, "i").exec(s);
        const issuedIso = dateText ? isoDate(dateText) : null;
        const start = principal ? principal.index + (principal[0].startsWith("$") ? 0 : noteAt) : -1;
        const upTo = principal ? /\bup to\s*$/i.test(s.slice(0, start + principal[0].indexOf("$"))) : false;
        if (principal && issuedIso && !upTo) {
          const value = amountAt(principal[1]!, principal[2], thousands);
          if (value !== null) {
            entry.item.principal_or_stated_outstanding = value;
            entry.item.as_of = issuedIso;
            entry.principalFrom = "issue";
            entry.quotes.principal_or_stated_outstanding = quote(Math.min(date!.index, start), start + principal[0].length);
            entry.quotes.as_of = quote(date!.index, date!.index + date![0].length);
          }
        }
        if (issuedIso && r.period && issuedIso > r.period) entry.item.subsequent = true;
      }
      const about = linesAbout(r, line.index, 14, introduces);
      // the defining sentence onwards, then the paragraphs that follow
      const texts = [{ line, from: sentence.start }, ...about.slice(1).map((l) => ({ line: l, from: 0 }))];
      for (const { line: other, from } of texts) {
        const text = other.text.slice(from);
        const price = conversionPriceIn(text);
        if (price && entry.item.conversion_price === null) {
          entry.item.conversion_price = price.value;
          entry.quotes.conversion_price = quoteOf(other, from + price.index, from + price.end);
        }
        const maturity = maturityIn(text);
        if (maturity && entry.item.maturity === null) {
          entry.item.maturity = maturity.iso;
          entry.quotes.maturity = quoteOf(other, from + maturity.index, from + maturity.end);
        }
      }
      if (closedInFull(r, entry.term) || (entry.term !== entry.item.name && closedInFull(r, entry.item.name))) continue;
      periodPrincipal(r, entry, about);
      // a principal changed after issue (converted in part, repaid in part, increased) is no longer the issue's
      if (entry.principalFrom === "issue") {
        const changed = r.lines.slice(line.index).some((l) => !l.cells && l.text.includes(entry.term) && l.index !== line.index && /\b(?:converted|repaid|prepaid|paid down|exchanged|amended|increased|additional principal)\b/i.test(l.text));
        if (changed) {
          entry.item.principal_or_stated_outstanding = null;
          entry.item.as_of = null;
          entry.principalFrom = null;
          delete entry.quotes.principal_or_stated_outstanding;
          delete entry.quotes.as_of;
        }
      }
      found.push(entry);
    }
  }
}

/** Convertible preferred stock with a stated conversion price; its total stated value when the report writes one. */
function readConvertiblePreferred(r: Reader, found: FoundConvertible[]) {
  const preferred = new RegExp(`\\b(Series (?:[A-Z]{1,2}(?:-\\d)?|\\d{1,2}) (?:Convertible )?(?:Redeemable )?(?:Convertible )?Preferred Stock)\\b[^.]{0,60}?\\b(?:is|are|shall be|will be) convertible\\b`);
  for (const line of r.lines) {
    if (line.cells || !/preferred/i.test(line.text)) continue;
    for (const sentence of sentencesOf(line.text)) {
      const m = preferred.exec(sentence.text);
      if (!m || HYPOTHETICAL.test(sentence.text.slice(0, m.index))) continue;
      const price = conversionPriceIn(sentence.text.slice(m.index));
      if (!price) continue;
      const name = m[1]!;
      if (found.some((f) => f.item.name === name) || closedInFull(r, name)) continue;
      const q = quoteOf(line, sentence.start + m.index, sentence.start + m.index + price.end);
      const entry: FoundConvertible = {
        item: { kind: "preferred", name, principal_or_stated_outstanding: null, conversion_price: price.value, maturity: null, as_of: null },
        quotes: { name: q, kind: q, conversion_price: q },
        at: line.index,
        term: name,
        principalFrom: null,
      };
      const periodText = r.period ? periodWritten(r.period) : null;
      for (const other of r.lines) {
        if (other.cells || !other.text.includes(name)) continue;
        for (const s of sentencesOf(other.text)) {
          if (!s.text.includes(name)) continue;
          const stated = new RegExp(`\\b(?:aggregate|total) stated value of (?:approximately )?${AMOUNT_WORDS}(?! per)`, "i").exec(s.text);
          const when = stated ? new RegExp(`\\b(?:As of|At) ${DATE}`, "i").exec(s.text) : null;
          const iso = when ? isoDate(when[1]!) : null;
          if (stated && iso && r.period && iso <= r.period && entry.item.principal_or_stated_outstanding === null) {
            const value = amountAt(stated[1]!, stated[2], r.thousands[other.index]!);
            if (value !== null) {
              entry.item.principal_or_stated_outstanding = value;
              entry.item.as_of = iso;
              const sq = quoteOf(other, s.start + Math.min(when!.index, stated.index), s.start + Math.max(when!.index + when![0].length, stated.index + stated[0].length));
              entry.quotes.principal_or_stated_outstanding = sq;
              entry.quotes.as_of = sq;
            }
          }
          if (periodText && entry.item.as_of === null && s.text.includes(periodText)) {
            entry.item.as_of = r.period;
            const at = other.text.indexOf(periodText, s.start);
            entry.quotes.as_of = quoteOf(other, at, at + periodText.length);
          }
        }
      }
      found.push(entry);
    }
  }
}

/**
 * A debt table's row for convertible debt ("Convertible notes (a) | 2,300 |
 * 2,300" under "(in millions)"; "Convertible note | December 1, 2026 | 1% | $
 * 330,707 | $ 747,500" under "(in thousands …)"): the principal of the period
 * end's column, with the conversion price and maturity of the row's footnote.
 * Attached to the notes the prose introduced when they are the same (name,
 * maturity, or the only ones), else an instrument of its own.
 */
function readConvertibleDebtRows(r: Reader, found: FoundConvertible[]) {
  const firstLine = (block: number) => r.lines.find((l) => l.table === block);
  const rows = readConvertibleTables(r.tables, r.period, (block) => r.thousands[firstLine(block)?.index ?? -1] ?? false);
  const proseNotes = found.filter((f) => f.item.kind === "note");
  for (const row of rows) {
    const matches = proseNotes.filter((f) => nameKey(f.item.name).includes(nameKey(row.name)) || nameKey(row.name).includes(nameKey(f.item.name)) || (row.maturity !== null && f.item.maturity === row.maturity));
    const target = matches.length === 1 ? matches[0]! : proseNotes.length === 1 && rows.length === 1 ? proseNotes[0]! : null;
    if (row.principal === 0) {
      // none outstanding at the period end
      if (target) found.splice(found.indexOf(target), 1);
      continue;
    }
    if (target) {
      if (target.principalFrom !== "period") {
        target.item.principal_or_stated_outstanding = row.principal;
        target.quotes.principal_or_stated_outstanding = row.quote;
        target.principalFrom = "period";
        target.item.as_of = r.period;
        target.quotes.as_of = row.asOfQuote;
        target.sources = { ...target.sources, principal_or_stated_outstanding: tableColumn(row.principalHeading) };
      }
      continue;
    }
    if (found.some((f) => nameKey(f.item.name) === nameKey(row.name))) continue;
    const entry: FoundConvertible = {
      item: { kind: "note", name: row.name, principal_or_stated_outstanding: row.principal, conversion_price: row.conversion_price, maturity: row.maturity, as_of: r.period },
      quotes: { name: row.quote, kind: row.quote, principal_or_stated_outstanding: row.quote, as_of: row.asOfQuote },
      at: firstLine(row.block)?.index ?? 0,
      term: row.name,
      principalFrom: "period",
      sources: { principal_or_stated_outstanding: tableColumn(row.principalHeading) },
    };
    if (row.maturity) entry.quotes.maturity = row.quote;
    if (row.conversion_price !== null) entry.quotes.conversion_price = row.quote;
    // the row's footnote: "(a)As of June 30, 2023, each $1,000 principal amount of the notes will be convertible into … a conversion price of approximately $15.65 per share."
    const tableLines = r.lines.filter((l) => l.table === row.block);
    const last = tableLines[tableLines.length - 1]!.index;
    for (const mark of row.marks) {
      const note = r.lines.slice(last + 1, last + 16).find((l) => !l.cells && l.text.startsWith(mark));
      if (!note) continue;
      const price = conversionPriceIn(note.text);
      if (price && entry.item.conversion_price === null) {
        entry.item.conversion_price = price.value;
        entry.quotes.conversion_price = quoteOf(note, price.index, price.end);
      }
      const maturity = maturityIn(note.text);
      if (maturity && !entry.item.maturity) {
        entry.item.maturity = maturity.iso;
        entry.quotes.maturity = quoteOf(note, maturity.index, maturity.end);
      }
      const asOf = r.period ? new RegExp(`\\b(?:As of|At) ${DATE}`, "i").exec(note.text) : null;
      if (asOf && isoDate(asOf[1]!) === r.period) entry.quotes.as_of = quoteOf(note, asOf.index, asOf.index + asOf[0].length);
    }
    found.push(entry);
  }
}

function readConvertibles(r: Reader): Convertible[] {
  const found: FoundConvertible[] = [];
  readConvertibleDebtProse(r, found);
  readConvertiblePreferred(r, found);
  readConvertibleDebtRows(r, found);
  // "There were no convertible notes outstanding at September 30, 2023.": whatever notes the history recites, none is left
  if (r.period && noNotesAtPeriodEnd(r)) for (let i = found.length - 1; i >= 0; i--) if (found[i]!.item.kind === "note" && !found[i]!.item.subsequent) found.splice(i, 1);
  // "As of December 31, 2023, no shares of our Series A Preferred Stock remained outstanding": that one is gone
  if (r.period) for (let i = found.length - 1; i >= 0; i--) if (!found[i]!.item.subsequent && noneLeftAtPeriodEnd(r, found[i]!.item.name)) found.splice(i, 1);
  // the large filers' notes: "As of June 30, 2023 … notes outstanding …" dates what the notes state
  const periodText = r.period ? periodWritten(r.period) : null;
  for (const f of found) {
    if (f.item.as_of !== null || !periodText || f.item.kind !== "note") continue;
    const asOf = r.lines.find((l) => !l.cells && l.index >= f.at && l.text.includes(periodText) && /\bnotes?\b/i.test(l.text) && /outstanding|consists of/i.test(l.text));
    if (asOf) {
      f.item.as_of = r.period;
      const at = asOf.text.indexOf(periodText);
      f.quotes.as_of = quoteOf(asOf, at, at + periodText.length);
    }
  }
  found.sort((a, b) => a.at - b.at);
  return found.map(({ item, quotes, sources }, at) => {
    for (const [field, quote] of Object.entries(quotes)) if ((item as unknown as Record<string, unknown>)[field] !== null) r.quote(`convertibles[${at}].${field}`, quote);
    for (const [field, source] of Object.entries(sources ?? {})) r.sources[`convertibles[${at}].${field}`] = source;
    return item;
  });
}

/** The report says none of the named instrument was left at the period end: "As of December 31, 2023, no shares of our Series A Preferred Stock remained outstanding." */
function noneLeftAtPeriodEnd(r: Reader, name: string): boolean {
  const words = escapeRegExp(name.replace(/^(?:the|our)\s+/i, "")).replace(/\s+/g, "\\s+");
  const none = new RegExp(`\\b(?:As of|At) ${DATE},?\\s+(?:there (?:were|was) )?no\\s+(?:shares\\s+of\\s+)?(?:our\\s+|the\\s+|the Company[’']s\\s+)?${words}\\b[^.;]{0,40}?\\b(?:remained|remain|were|was|are|is)\\s+(?:issued and\\s+)?outstanding`, "i");
  return r.lines.some((line) => {
    if (line.cells) return false;
    const m = none.exec(line.text);
    return m !== null && isoDate(m[1]!) === r.period;
  });
}

/** The report says no convertible note was outstanding at the period end. */
function noNotesAtPeriodEnd(r: Reader): boolean {
  const none = new RegExp(
    `\\b(?:there (?:were|was|are|is) no|(?:the Company|we) (?:had|has|have) no|no) (?:outstanding )?${CONVERTIBLE_DEBT}(?: payable)? (?:were |was )?outstanding (?:as of|at|on) ${DATE}`,
    "i",
  );
  for (const line of r.lines) {
    if (line.cells || !/convertible/i.test(line.text)) continue;
    for (const sentence of sentencesOf(line.text)) {
      const m = none.exec(sentence.text);
      if (m && !HYPOTHETICAL.test(sentence.text.slice(0, m.index)) && isoDate(m[1]!) === r.period) return true;
    }
  }
  return false;
}

/** "June 30, 2023" as reports write a period end. */
function periodWritten(iso: string): string {
  const [y, m, d] = iso.split("-");
  const month = MONTH_NAMES[Number(m) - 1]!;
  return `${month[0]!.toUpperCase()}${month.slice(1)} ${Number(d)}, ${y}`;
}

// ───────────────────────────── equity lines ─────────────────────────────

/** Words that name a committed equity facility on their own. */
const EQUITY_LINE_NAMED = /\bstandby equity (?:purchase|distribution) agreement\b|\bSEPA\b|\bequity line(?: of credit)?\b|\bELOC\b|\bequity purchase (?:agreement|facility)\b|\bequity financing agreement\b|\bcommitted equity (?:facility|financing)\b/i;
/** The terms of one: the company may sell and the purchaser is committed to buy, at the company's discretion. */
const EQUITY_LINE_TERMS = /\bright,? but not (?:the |an )?obligation,? to (?:sell|issue|direct|require)\b|\b(?:has |have )?(?:committed|agreed|obligated) to purchase\b(?! from)|\bat (?:the Company[’']s|our|its) (?:sole )?(?:discretion|option|election)\b[^.]{0,80}\b(?:sell|require)\b/i;
/** An offering through a sales agent (an ATM) or an underwriter is not an equity line. */
const NOT_EQUITY_LINE = /\bsales agents?\b|\bat[- ]the[- ]market\b|\bATM\b|\bplacement agent\b|\bunderwrit|\bregistered direct\b|\bdistribution agent\b|\bprivate placement\b|\bwarrants?\b|\bconvertible\b|\bnotes?\b(?!\s*\d)|\bdebentures?\b|\bpreferred\b|\basset purchase\b|\bmerger\b|\bacqui(?:re|sition)\b/i;

interface LineState {
  line: EquityLine;
  quotes: Record<string, string>;
  /** the names the report calls it and its purchaser by */
  refs: string[];
  terminated: boolean;
  at: number;
}

/**
 * Committed equity facilities: a standby equity purchase agreement, an equity
 * line of credit, a purchase agreement under which an investor (not a sales
 * agent) is committed to buy up to an amount of common stock when the company
 * chooses to sell. For each, the purchaser, the commitment, what was sold to
 * it since the agreement began when the report states it as such, and the
 * availability left, dated (both at or before the period end).
 */
function readEquityLines(r: Reader): EquityLine[] {
  const states: LineState[] = [];
  for (const line of r.lines) {
    if (line.cells || !/agreement|facility|line of credit|ELOC|SEPA/i.test(line.text)) continue;
    const sentences = sentencesOf(line.text);
    sentences.forEach((sentence, k) => {
      const s = sentence.text;
      const entered = /\b(?:entered into|executed|is (?:a )?party to|signed)\b/i.exec(s);
      const counterparty = new RegExp(`\\bwith ${CORPORATE_NAME}`).exec(s);
      if (!entered || !counterparty || NOT_EQUITY_LINE.test(s) || HYPOTHETICAL.test(s.slice(0, entered.index))) return;
      const group = [sentence, ...sentences.slice(k + 1, k + 3).filter((n) => !NOT_EQUITY_LINE.test(n.text))];
      const text = group.map((g) => g.text).join(" ");
      const named = EQUITY_LINE_NAMED.test(s);
      if (!named && !(/\bpurchase agreement\b/i.test(s) && EQUITY_LINE_TERMS.test(text))) return;
      if (!/\b(?:common stock|common shares|ordinary shares|shares)\b/i.test(text)) return;
      const name = counterparty[1]!.replace(/,$/, "");
      let state = states.find((st) => nameKey(st.line.counterparty ?? "") === nameKey(name));
      if (!state) {
        state = { line: { counterparty: name, commitment: null, drawn_to_date: null, remaining: null, as_of: null }, quotes: {}, refs: [name], terminated: false, at: line.index };
        state.quotes.counterparty = quoteOf(line, sentence.start + counterparty.index, sentence.start + counterparty.index + counterparty[0].length);
        states.push(state);
      }
      // the names it goes by: (the “SEPA”), (“Yorkville”), (the “Investor”)
      for (const g of group) for (const m of g.text.matchAll(/\((?:the |collectively, the )?[“"]([A-Z][^”"]{1,40})[”"]\)/g)) if (!state.refs.includes(m[1]!)) state.refs.push(m[1]!);
      const when = new RegExp(`^(?:On|Effective|In) ${DATE}`, "i").exec(s);
      const whenIso = when ? isoDate(when[1]!) : null;
      if (whenIso && r.period && whenIso > r.period) state.line.subsequent = true;
      // the commitment: "to sell to Yorkville up to $20,000,000 of its shares of common stock"
      if (state.line.commitment === null) {
        for (const g of group) {
          const up =
            new RegExp(`\\bup to (?:an aggregate of |a maximum of )?(?:approximately )?${AMOUNT_WORDS}`, "i").exec(g.text) ??
            new RegExp(`\\b(?:aggregate|total|maximum) (?:commitment|purchase) (?:amount )?of (?:up to )?(?:approximately )?${AMOUNT_WORDS}`, "i").exec(g.text);
          if (!up || /^\s*(?:per|in any|of any|for each|in each|on any)\b/i.test(g.text.slice(up.index + up[0].length, up.index + up[0].length + 15))) continue;
          const value = amountAt(up[1]!, up[2], r.thousands[line.index]!);
          if (value === null) continue;
          state.line.commitment = value;
          state.quotes.commitment = quoteOf(line, g.start + Math.max(0, up.index - 120), g.start + up.index + up[0].length);
          // "… we can issue up to an aggregate of $10 million worth of shares of our common stock at June 30, 2021": the commitment's state on that day
          const stated = new RegExp(`\\b(?:at|as of) ${DATE}`, "i").exec(g.text.slice(up.index));
          const statedIso = stated ? isoDate(stated[1]!) : null;
          if (statedIso && statedIso === r.period && state.line.as_of === null) {
            state.line.as_of = statedIso;
            state.quotes.as_of = quoteOf(line, g.start + up.index + stated!.index, g.start + up.index + stated!.index + stated![0].length);
          }
          break;
        }
      }
    });
  }
  if (!states.length) return [];
  for (const state of states) {
    const mentions = (text: string) => state.refs.some((ref) => text.includes(ref));
    for (const line of r.lines) {
      if (line.cells || !mentions(line.text)) continue;
      const thousands = r.thousands[line.index]!;
      for (const sentence of sentencesOf(line.text)) {
        const s = sentence.text;
        if (!mentions(s) || HYPOTHETICAL.test(s) || NOT_EQUITY_LINE.test(s.replace(/\bATM\b/g, ""))) continue;
        const quote = (start: number, end: number) => quoteOf(line, sentence.start + start, sentence.start + end);
        const dated = new RegExp(`\\b(?:As of|At|Through|through) ${DATE}`).exec(s) ?? new RegExp(`\\b(?:as of|through) ${DATE}`, "i").exec(s);
        const iso = dated ? isoDate(dated[1]!) : null;
        const inTime = iso !== null && r.period !== null && iso <= r.period && (state.line.as_of === null || state.line.as_of === iso);
        if (/\bterminat(?:ed|ion of)\b/i.test(s) && (!r.period || (firstDate(s)?.iso ?? "") <= r.period)) state.terminated = true;
        // availability left: "As of June 30, 2023, $18.8 million remained available under the Purchase Agreement"
        const left =
          new RegExp(`${AMOUNT_WORDS}(?: of (?:our )?(?:common stock|shares|capacity|availability|the commitment))?[^.;$]{0,40}?\\b(?:remained|remains|remaining|was|were|is) (?:available|unsold|remaining)\\b`, "i").exec(s) ??
          new RegExp(`\\bremaining (?:commitment|capacity|availability|amount(?: available)?|balance)\\b[^.;$]{0,60}?\\b(?:was|is|of) (?:approximately )?${AMOUNT_WORDS}`, "i").exec(s);
        if (left && inTime && state.line.remaining === null) {
          const value = amountAt(left[1]!, left[2], thousands);
          if (value !== null) {
            state.line.remaining = value;
            state.quotes.remaining = quote(Math.min(dated!.index, left.index), Math.max(dated!.index + dated![0].length, left.index + left[0].length));
            state.line.as_of = iso;
            state.quotes.as_of = quote(dated!.index, dated!.index + dated![0].length);
          }
        }
        // sold to date: "As of June 30, 2023, the Company had sold an aggregate of 5,000,000 shares under the SEPA for aggregate gross proceeds of $3.1 million"
        const toDate = /\b(?:since (?:inception|the (?:inception|commencement|execution|effective date|date) of|entering into)|to date|in the aggregate|cumulative|aggregate (?:of|gross|total))\b/i.test(s) || (dated !== null && /^(?:As of|Through)\b/i.test(s.slice(dated.index)) && /\b(?:has|had|have) (?:sold|issued)\b/i.test(s));
        const period = /\b(?:during|for) the (?:three|six|nine|twelve) months ended\b|\b(?:during|for) the (?:fiscal )?(?:year|quarter) ended\b/i.test(s) && !/\bsince\b|\bto date\b/i.test(s);
        const proceeds = new RegExp(`(?<!\\bnet )\\b(?:(?:aggregate |total )?(?:gross )?(?:purchase price|proceeds) of (?:approximately )?${AMOUNT_WORDS}|${AMOUNT_WORDS} (?:in |of )?(?:aggregate |total )?(?:gross )?proceeds)`, "i").exec(s);
        if (toDate && !period && proceeds && /\b(?:sold|issued|sales?|purchased)\b/i.test(s) && state.line.drawn_to_date === null && (iso === null || inTime)) {
          if (/\bnet\b/i.test(s.slice(Math.max(0, proceeds.index - 12), proceeds.index + proceeds[0].length)) && !/\bgross\b/i.test(proceeds[0])) continue;
          const value = amountAt(proceeds[1] ?? proceeds[3]!, proceeds[2] ?? proceeds[4], thousands);
          if (value === null) continue;
          state.line.drawn_to_date = value;
          state.quotes.drawn_to_date = quote(dated && inTime ? Math.min(dated.index, proceeds.index) : Math.max(0, proceeds.index - 150), proceeds.index + proceeds[0].length);
          if (iso && inTime && state.line.as_of === null) {
            state.line.as_of = iso;
            state.quotes.as_of = quote(dated!.index, dated!.index + dated![0].length);
          }
        }
      }
    }
  }
  const out: EquityLine[] = [];
  for (const state of states) {
    // ended before or in the period with nothing said of its use: no longer a source of shares
    if (state.terminated && state.line.drawn_to_date === null && state.line.remaining === null) continue;
    const at = out.length;
    for (const [field, quote] of Object.entries(state.quotes)) if ((state.line as unknown as Record<string, unknown>)[field] !== null) r.quote(`equity_lines[${at}].${field}`, quote);
    out.push(state.line);
  }
  return out;
}

// ───────────────────────────── listing deficiency ─────────────────────────────

/** What a notice says is wrong: not in compliance, failed to meet, a bid price that closed below the minimum. */
const NONCOMPLIANT = String.raw`(?:not in compliance|no longer (?:in compliance|meets?)|did not meet|does not meet|fail(?:ed|s)? to (?:meet|comply|satisfy)|(?:had |has )?closed below (?:the )?(?:minimum|\$1\.00))`;
const NOTICE = new RegExp(
  [
    String.raw`\b(?:received|receipt of) (?:a |an )?(?:written )?(?:notice|notification|letter|deficiency letter)\b[^.]{0,160}\b${NONCOMPLIANT}`,
    // "Nasdaq notified us that we are not in compliance", "the Company was notified by the Nasdaq Stock Market … that the Company was not in compliance"
    String.raw`\b(?:notified (?:us|the Company|the Registrant)|(?:was|were) notified by)\b[^.]{0,160}\b${NONCOMPLIANT}`,
    String.raw`\bplaced (?:the Company|us) under (?:remedial )?delisting review\b`,
  ].join("|"),
  "i",
);

/**
 * Deficiency notices the report says the company received (or a review it was
 * placed under), one per kind (kinds and regained compliance as for 8-K Item
 * 3.01); open unless a later paragraph says compliance of that kind was
 * regained, or its own paragraph says the securities were delisted.
 */
function readListingDeficiency(r: Reader): ListingDeficiency[] {
  const out: ListingDeficiency[] = [];
  for (const line of r.lines) {
    if (line.cells || !NOTICE.test(line.text)) continue;
    for (const sentence of sentencesOf(line.text)) {
      const m = NOTICE.exec(sentence.text);
      if (!m || HYPOTHETICAL.test(sentence.text.slice(0, m.index))) continue;
      const own = classifyDeficiency(sentence.text);
      const kind = own === "other" ? classifyDeficiency(line.text) : own;
      if (out.some((d) => d.kind === kind)) continue;
      const date = new RegExp(`^On ${DATE}`, "i").exec(sentence.text);
      const later = r.lines.slice(line.index).filter((l) => !l.cells);
      const regained = later.find((l) => regainsCompliance(l.text) && classifyDeficiency(l.text) === kind);
      // delisted: said in the notice's own paragraph (a move between exchanges elsewhere is no delisting for a deficiency)
      const delisted = /\b(?:were|was|have been|has been) (?:delisted|suspended from trading)\b/i.test(line.text.slice(sentence.start)) ? line : undefined;
      const status = regained ? "regained" : delisted ? "delisted" : "open";
      const at = out.length;
      const quote = quoteOf(line, sentence.start + m.index, sentence.start + m.index + m[0].length);
      const statusLine = regained ?? delisted;
      const statusAt = statusLine ? statusLine.text.search(regained ? /regain|compliance/i : /delisted|suspended/i) : -1;
      r.quote(`listing_deficiency[${at}].kind`, quote);
      r.quote(`listing_deficiency[${at}].status`, statusLine ? quoteOf(statusLine, statusAt, statusAt + 10) : quote);
      if (date) r.quote(`listing_deficiency[${at}].notice_date`, quote);
      out.push({ kind, notice_date: date ? isoDate(date[1]!) : null, status });
    }
  }
  return out;
}

// ───────────────────────────── closings ─────────────────────────────

/** "Subsequent to June 30, 2025", "After the quarter end": what follows happened after the period. */
const AFTER_PERIOD = new RegExp(`^(?:Subsequent to|After|Since)\\s+(?:the\\s+)?(?:(?:end of the\\s+)?(?:period|quarter|fiscal year|year|reporting period)(?:[- ]end)?\\b|${DATE})`, "i");

/**
 * The instruments the report says ended in full: warrants exercised, notes
 * and preferred stock converted, notes repaid, redeemed or settled, each
 * sentence read by ./closings.ts (only full closings of instruments it
 * names; nothing possible, conditional or partial). `subsequent` when the
 * day it states is after the period end, or, undated, when the sentence
 * says it came after the period ("Subsequent to June 30, 2025, …") or stands
 * under a "Subsequent Events" heading. One event per kind and instruments
 * (a 10-Q tells it in its notes and again in its MD&A): the first, dated by
 * the first of its tellings that gives a day.
 */
function readClosings(r: Reader): ClosingEvent[] {
  const out: ClosingEvent[] = [];
  let underSubsequentEvents = false;
  for (const line of r.lines) {
    if (line.cells) continue;
    if (line.text.length < 80 && !/[.;:]$/.test(line.text)) {
      underSubsequentEvents = /\bsubsequent events?\b/i.test(line.text);
      continue;
    }
    if (!CLOSING_CUE.test(line.text)) continue;
    const inSection = underSubsequentEvents || /^(?:(?:note\s+)?\d+[.:]?\s*[-–—]?\s*)?subsequent events?\b/i.test(line.text);
    for (const sentence of sentencesOf(line.text)) {
      for (const found of closingsIn(sentence.text)) {
        const after = AFTER_PERIOD.exec(sentence.text);
        const afterDay = after?.[1] ? isoDate(after[1]) : null;
        const subsequent = r.period !== null && (found.date !== null ? found.date > r.period : inSection || (after !== null && (afterDay === null || afterDay >= r.period)));
        const quote = quoteOf(line, sentence.start + found.start, sentence.start + found.end);
        const key = (e: { kind: string; instruments: string[] }) => `${e.kind}|${e.instruments.map((n) => n.toLowerCase()).sort().join("|")}`;
        const same = out.findIndex((e) => key(e) === key(found));
        if (same >= 0) {
          if (out[same]!.date === null && found.date !== null) {
            out[same]!.date = found.date;
            out[same]!.subsequent = subsequent;
            for (const field of ["kind", "instruments", "date"]) r.quote(`closings[${same}].${field}`, quote);
          }
          continue;
        }
        const at = out.length;
        out.push({ kind: found.kind, instruments: found.instruments, date: found.date, subsequent });
        r.quote(`closings[${at}].kind`, quote);
        r.quote(`closings[${at}].instruments`, quote);
        if (found.date) r.quote(`closings[${at}].date`, quote);
      }
    }
  }
  return out;
}

// ───────────────────────────── entry points ─────────────────────────────

/** Reads a periodic report from the blocks of its primary document. */
export function readPeriodicBlocks(blocks: Block[], filing: Filing | null = null): PeriodicReading {
  const lines = reportLines(blocks);
  const cover = readCover(lines, filing);
  const r = new Reader(lines, cover.period, headedTables(blocks));
  const shares = readSharesOutstanding(r);
  const goingConcern = readGoingConcern(r);
  const { warrants, total } = readWarrants(r);
  const report: PeriodicReport = {
    ...cover,
    shares_outstanding: shares,
    going_concern: goingConcern,
    warrants,
    warrants_total: total,
    atm_programs: readAtmPrograms(r),
    equity_lines: readEquityLines(r),
    convertibles: readConvertibles(r),
    reverse_splits: readReverseSplits(r, cover.company),
    listing_deficiency: readListingDeficiency(r),
    closings: readClosings(r),
  };
  return { report, evidence: r.evidence, sources: r.sources };
}

/**
 * Reads a periodic report from a filing (a full `.txt` submission or its
 * primary `.htm`): the facts its inline XBRL tags (./periodic-tags.ts), laid
 * under what its text states.
 */
export function readPeriodicReport(filing: Filing): PeriodicReading {
  const reading = readPeriodicBlocks(filing.primary?.blocks() ?? [], filing);
  const xbrl = filing.primary?.inlineXbrl() ?? null;
  if (!xbrl) return reading;
  const period = reading.report.period ?? documentPeriod(xbrl);
  return mergeTagged(reading, readTaggedPeriodic(xbrl, filing.primary?.blocks() ?? [], period));
}

/** `dei:DocumentPeriodEndDate` as a date, when the cover's words gave none. */
function documentPeriod(xbrl: InlineXbrl): string | null {
  const fact = xbrl.facts.find((f) => f.concept === "dei:DocumentPeriodEndDate" && typeof f.value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(f.value));
  return (fact?.value as string | undefined) ?? null;
}
