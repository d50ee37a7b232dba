import { cellNumber, headingDate, type BodyRow, type HeadedTable, type TableValue } from "./tables";
import { isoDate, quoteAround, WRITTEN_DATE_PATTERN } from "./text";

/**
 * Warrant tables of a periodic report's notes, read by their headings
 * (./tables.ts): a table of warrants outstanding by series or by expiry, one
 * series per row with its count and exercise price under headings that say
 * so, and an activity table whose closing balance at the period end is the
 * total. A value is a count only under a heading of shares or warrants and
 * never written in dollars; a weighted average price is never a series' price.
 */

/** Words of a caption or heading that make a table one of warrants. */
const WARRANT_TABLE = /\bwarrants?\b/i;
/** …and those that make it one of something else, or of warrants' dollars. */
const NOT_WARRANT_TABLE = /\b(?:options?|restricted stock|RSUs?|stock awards?|performance (?:shares|units)|fair value|liabilit(?:y|ies)|level [123]|anti-?dilutive|excluded from|diluted (?:net )?(?:loss|earnings|income))\b/i;
/** Row labels that are activity, balances or totals, not series. */
const NOT_SERIES_LABEL = /\b(?:issued|issuances?|granted|grants|exercised|exercises?|expired|expirations?|forfeited|forfeitures?|cancell?ed|cancell?ations?|redeemed|repurchased|modified|modifications?|assumed|repriced|adjust\w*|reclassif\w*|vested|transferr?ed|converted|additions?|changes?|balance|beginning|ending|outstanding|exercisable|total)\b/i;
/** Rows of a roll-forward's activity. */
const ACTIVITY_LABEL = /^(?:warrants? )?(?:issued|granted|exercised|expired|forfeited|cancell?ed|assumed|repriced|modified|redeemed|additions?)\b/i;
/** Labels that name no series: "Warrants", "Common stock warrants". */
const GENERIC_LABEL = /^(?:(?:common )?(?:stock |share )?(?:purchase )?warrants?|total)$/i;
/** The closing balance of an activity table: "Outstanding as of June 30, 2023", "Balance, November 30, 2020", "Ending balance". */
const CLOSING_LABEL = /^(?:warrants? )?(?:outstanding|balance)\b|^ending balance\b|^balance,? end of\b/i;
/** Count headings of warrants that are not outstanding. */
const NOT_OUTSTANDING_COUNT = /\b(?:issued|granted|exercised|expired|forfeited|cancell?ed|issuable|exercisable)\b/i;
/** A row label that says its figures are counts, under headings that are only dates. */
const COUNT_LABEL = /\bwarrants?\b|\bshares\b/i;
const END_OF_PERIOD = /\bend of (?:the )?(?:period|year|quarter)\b|\bending balance\b/i;

export interface TableWarrantSeries {
  /** the row's label; null when the row is keyed by its expiry or its exercise price only */
  series: string | null;
  /** what keys a row that names no series: its expiry or its exercise price */
  key: "expiry" | "price" | null;
  /** the row's label as shown ("April 24, 2022", "$ 5.00" for a keyed row) */
  label: string;
  shares_outstanding: number;
  exercise_price: number | null;
  expiry: string | null;
  as_of: string | null;
  pre_funded?: true;
  /** the row as shown, and the headings the count and the price stood under */
  quote: string;
  countHeading: string;
  priceHeading: string | null;
  /** the caption sentence that dates the table, when the date is not in the headings */
  asOfQuote: string | null;
}

export interface TableWarrantTotal {
  shares_outstanding: number;
  weighted_average_exercise_price: number | null;
  as_of: string | null;
  quote: string;
  countHeading: string;
}

function isWarrantTable(table: HeadedTable): boolean {
  const caption = table.caption.at(-1) ?? "";
  const headings = [table.labelHeading, ...new Set(table.rows.flatMap((r) => r.values.map((v) => v.heading)))].join(" ");
  return WARRANT_TABLE.test(`${caption} ${headings}`) && !NOT_WARRANT_TABLE.test(`${caption} ${headings}`);
}

/** A count: a whole figure not written in dollars (a dash is none), under a count heading or a bare date heading in a row whose label counts. */
function countOf(value: TableValue | undefined, scale: number): number | null {
  if (!value || value.dollars) return null;
  if (value.nil) return 0;
  return value.number !== null && value.number >= 0 && Number.isInteger(value.number) && !/\.\d/.test(value.text) ? value.number * scale : null;
}

function priceOf(value: TableValue | undefined): number | null {
  return value && value.number !== null && value.number > 0 ? value.number : null;
}

/** "… outstanding as of September 30, 2025 …", "at November 30, 2020": a caption's date. */
const CAPTION_DATE = new RegExp(`\\b(?:outstanding|issued and outstanding)?\\s*(?:as (?:of|at)|at)\\s+${WRITTEN_DATE_PATTERN}`);

/** The date a table's counts are at: the count heading's own date, else the nearest caption line's "outstanding as of <date>" or "as of <date>". */
function tableDate(table: HeadedTable, countHeading: string): { iso: string; quote: string | null } | null {
  const own = headingDate(countHeading);
  if (own) return { iso: own, quote: null };
  for (const line of [...table.caption].reverse()) {
    const m = CAPTION_DATE.exec(line);
    const iso = m ? isoDate(m[1]!) : null;
    if (iso) return { iso, quote: quoteAround(line, m!.index, m!.index + m![0].length) };
  }
  return null;
}

/** The row's value under a heading of the measure, the first one (the period end's column is chosen by the caller). */
function valuesOf(row: BodyRow, measure: TableValue["measure"]): TableValue[] {
  return row.values.filter((v) => v.measure === measure);
}

/**
 * The series and the total of every warrant table of a report, as of the
 * period end (a table dated otherwise is the state at another time, left
 * out); a column dated by its heading is taken only for the period end.
 */
export function readWarrantTables(tables: HeadedTable[], period: string | null): { series: TableWarrantSeries[]; total: TableWarrantTotal | null } {
  const series: TableWarrantSeries[] = [];
  let total: TableWarrantTotal | null = null;
  for (const table of tables) {
    if (!isWarrantTable(table)) continue;
    // a roll-forward: rows of activity between balances (whose labels may be their dates alone)
    const activity = table.rows.some((r) => ACTIVITY_LABEL.test(r.label));
    let closing: TableWarrantTotal | null = null;
    let sum: TableWarrantTotal | null = null;
    let found = 0;
    for (const row of table.rows) {
      // warrants outstanding (not those issued or exercisable); under dated headings, the period end's column
      const counts = row.values.filter((v) => (v.measure === "count" || (v.measure === null && headingDate(v.heading) !== null && COUNT_LABEL.test(row.label))) && (!NOT_OUTSTANDING_COUNT.test(v.heading) || /\boutstanding\b/i.test(v.heading)));
      const dated = counts.filter((v) => headingDate(v.heading));
      const countValue = (dated.length ? dated.filter((v) => headingDate(v.heading) === period) : counts)[0];
      const count = countOf(countValue, table.scale.counts);
      if (count === null || !countValue) continue;
      const date = tableDate(table, countValue.heading);
      const average = priceOf(valuesOf(row, "average_price")[0]);
      if (CLOSING_LABEL.test(row.label) || (activity && isoDate(row.label) !== null && table.labelMeasure !== "date")) {
        const asOf = headingDate(row.label) ?? isoDate(row.label) ?? (END_OF_PERIOD.test(row.label) ? (date?.iso ?? null) : null);
        if (asOf !== null && asOf === period) closing ??= { shares_outstanding: count, weighted_average_exercise_price: average, as_of: asOf, quote: row.text, countHeading: countValue.heading };
        continue;
      }
      if (!row.label || /^total\b/i.test(row.label)) {
        if (date?.iso === period) sum ??= { shares_outstanding: count, weighted_average_exercise_price: average, as_of: date.iso, quote: row.text, countHeading: countValue.heading };
        continue;
      }
      if (NOT_SERIES_LABEL.test(row.label) || GENERIC_LABEL.test(row.label)) continue;
      const price = valuesOf(row, "price")[0];
      // a row keyed by its expiry ("April 24, 2022", "March 2028") or its exercise price ("$ 5.00") names no series
      const keyed = table.labelMeasure === "date" || (table.labelMeasure === "price" && cellNumber(row.label) !== null);
      const labelPrice = table.labelMeasure === "price" ? cellNumber(row.label) : null;
      const labelExpiry = table.labelMeasure === "date" ? isoDate(row.label) : null;
      const expiry = labelExpiry ?? valuesOf(row, "date").map((v) => isoDate(v.text)).find((iso) => iso !== null) ?? null;
      // a table dated at another time is left out; an undated one only under "outstanding", with no date given
      if (date ? date.iso !== period : !/\boutstanding\b/i.test(`${countValue.heading} ${table.caption.at(-1) ?? ""}`)) continue;
      if (price === undefined && labelPrice === null && !expiry) continue;
      const entry: TableWarrantSeries = {
        series: keyed ? null : row.label,
        label: row.label,
        key: keyed ? (table.labelMeasure === "date" ? "expiry" : "price") : null,
        shares_outstanding: count,
        exercise_price: priceOf(price) ?? (labelPrice !== null && labelPrice > 0 ? labelPrice : null),
        expiry,
        as_of: date?.iso ?? null,
        quote: row.text,
        countHeading: countValue.heading,
        priceHeading: price?.heading ?? (labelPrice !== null ? table.labelHeading : null),
        asOfQuote: date?.quote ?? null,
      };
      if (/pre-?funded/i.test(row.label)) entry.pre_funded = true;
      found++;
      if (series.some((s) => s.series === entry.series && s.expiry === entry.expiry && s.shares_outstanding === entry.shares_outstanding && s.exercise_price === entry.exercise_price)) continue;
      series.push(entry);
    }
    total ??= closing ?? (found ? sum : null);
  }
  return { series, total };
}

/** A caption or heading of the table of securities left out of diluted earnings per share. */
const ANTI_DILUTIVE = /anti-?dilutive|excluded from|diluted (?:net )?(?:loss|earnings)/i;
/** The warrants' row of that table: "Warrants to purchase common stock", "Public warrants". */
const ANTI_DILUTIVE_WARRANT_ROW = /^(?:common stock |common share |outstanding |public |private placement |pre-?funded )?(?:purchase )?warrants?\b/i;

/**
 * The warrants counted among the anti-dilutive securities, under the column
 * the headings date at the period end ("September 30, | 2025"; "Three Months
 * Ended September 30, 2025"): a total, with the heading row and the row as
 * the date's quote when they stand together.
 */
export function readAntiDilutiveWarrants(tables: HeadedTable[], period: string | null): (TableWarrantTotal & { asOfQuote: string }) | null {
  if (!period) return null;
  for (const table of tables) {
    if (!ANTI_DILUTIVE.test(`${table.caption.join(" ")} ${table.headingRows.join(" ")}`)) continue;
    for (const row of table.rows) {
      if (!ANTI_DILUTIVE_WARRANT_ROW.test(row.label)) continue;
      const value = row.values.find((v) => headingDate(v.heading) === period && !v.dollars);
      if (!value || value.number === null || value.number < 0 || !Number.isInteger(value.number)) continue;
      const heading = table.headingRows.at(-1) ?? "";
      const adjacent = row.row === table.headingRows.length && /\b(?:19|20)\d{2}\b/.test(heading) && heading.length + row.text.length < 199;
      return { shares_outstanding: value.number * table.scale.counts, weighted_average_exercise_price: null, as_of: period, quote: row.text, countHeading: value.heading, asOfQuote: adjacent ? `${heading} ${row.text}` : row.text };
    }
  }
  return null;
}
