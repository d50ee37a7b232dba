import type { ClosingEvent } from "./closings";
import type { DeficiencyKind } from "./eight-k";

/**
 * What a periodic report (10-Q, 10-K, 20-F, 40-F) states about what still
 * hangs over the stock: common shares outstanding on the cover, going-concern
 * doubt, warrants outstanding (by series and in total), at-the-market programs
 * and their sales, convertible notes and preferred, reverse splits that took
 * effect, listing deficiencies and the instruments it says were exercised,
 * converted or repaid in full (closings). Field names and rules are those of
 * fixtures/edgar/PERIODIC-FILINGS.md; every value comes with the quote it was
 * read from (`evidence`, keyed by field path such as "warrants[0].expiry").
 * A value the report does not state is null: nothing is computed or guessed.
 *
 * The reader works on the visible text (paragraphs and table rows), so a full
 * `.txt` submission and a primary `.htm` read alike.
 */
export interface SharesOutstanding {
  value: number;
  as_of: string | null;
}

export interface WarrantSeries {
  series: string | null;
  shares_outstanding: number | null;
  exercise_price: number | null;
  expiry: string | null;
  as_of: string | null;
  pre_funded?: true;
  subsequent?: true;
}

export interface WarrantsTotal {
  shares_outstanding: number | null;
  weighted_average_exercise_price: number | null;
  as_of: string | null;
}

export interface AtmProgram {
  agent: string | null;
  max_amount: number | null;
  shares_sold_in_period: number | null;
  gross_sold_in_period: number | null;
  shares_sold_to_date: number | null;
  gross_sold_to_date: number | null;
  remaining: number | null;
  as_of: string | null;
  in_period_label?: string;
  subsequent?: true;
}

export interface Convertible {
  kind: "note" | "preferred";
  name: string;
  principal_or_stated_outstanding: number | null;
  conversion_price: number | null;
  maturity: string | null;
  as_of: string | null;
  subsequent?: true;
}

/** A committed equity facility (standby equity purchase agreement, equity line): the purchaser buys when the company chooses to sell. */
export interface EquityLine {
  counterparty: string | null;
  /** the most the purchaser committed to buy, in dollars */
  commitment: number | null;
  /** gross sold to it since the agreement began, when the report states it as such */
  drawn_to_date: number | null;
  remaining: number | null;
  as_of: string | null;
  subsequent?: true;
}

export interface ReverseSplit {
  ratio: string;
  effective_date: string;
  subsequent?: true;
}

export interface ListingDeficiency {
  kind: DeficiencyKind;
  notice_date: string | null;
  status: "open" | "regained" | "delisted";
}


export interface PeriodicReport {
  form: string | null;
  company: string | null;
  file_number: string | null;
  /** the period end the cover names, YYYY-MM-DD */
  period: string | null;
  shares_outstanding: SharesOutstanding | null;
  going_concern: boolean | null;
  warrants: WarrantSeries[];
  warrants_total: WarrantsTotal | null;
  atm_programs: AtmProgram[];
  equity_lines: EquityLine[];
  convertibles: Convertible[];
  reverse_splits: ReverseSplit[];
  listing_deficiency: ListingDeficiency[];
  /** instruments the report says were exercised, converted or repaid in full (./closings.ts); absent from readings stored before they were read */
  closings: ClosingEvent[];
}

export interface PeriodicReading {
  report: PeriodicReport;
  /** quote per field path ("shares_outstanding.value", "atm_programs[1].remaining") */
  evidence: Record<string, string>;
  /** per field path, whether the value is the filer's inline-XBRL tag or the text, and why (./periodic-tags.ts); absent from readings stored before tags were read */
  sources?: Record<string, FieldSource>;
}

/** Where a field's value came from. */
export interface FieldSource {
  /** a tag of the document's inline XBRL, a table read by its headings, or the prose */
  from: "xbrl" | "table" | "text";
  /** the concept and context of the tag used, or that the text was preferred to */
  concept?: string;
  context?: string;
  note?: string;
}
