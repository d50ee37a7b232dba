import { headingDate, type BodyRow, type HeadedTable, type TableValue } from "./tables";
import { isoDate } from "./text";

/**
 * Convertible notes in a periodic report's debt tables, read by their
 * headings (./tables.ts): a row naming convertible debt, its principal under
 * the period end's dated column or under a principal heading of a table dated
 * at the period end, its conversion price and maturity where a column says so.
 */

export const CONVERTIBLE_DEBT = String.raw`convertible (?:senior |secured |unsecured |subordinated |promissory |term |bridge )*(?:notes?|debentures?)`;
const DEBT_LABEL = new RegExp(`^(?:[\\d.]+\\s?% )?(?:senior |secured |unsecured |subordinated )*${CONVERTIBLE_DEBT}\\b`, "i");
/** Rows about a note that are not its principal. */
const NOT_PRINCIPAL_LABEL = /\bnet\b|discount|derivative|interest|receivable|fair value|premium|issuance cost|accrued|shares?\b|exchange|\b(?:issued|issuances?|converted|conversions?|repaid|repayments?|redeemed|proceeds|additions?|payments?)\b/i;
/** What makes a table one of the company's debt… */
const DEBT_TABLE = /\b(?:debt|notes? payable|borrowings|convertible notes?|indebtedness)\b/i;
/** …and what makes it one of something else. */
const NOT_DEBT_TABLE = /anti-?dilutive|excluded from|fair value (?:measure|hierarch)|\bassets\b|investments?|per share|earnings|weighted average|diluted|non-?cash|supplemental|cash flows?/i;
/** Headings of a note's other amounts, or of flows over a period rather than a balance at its end. */
const NOT_PRINCIPAL_HEADING = /\b(?:interest|discount|fair value|carrying|net|ended|issued|converted)\b/i;
const PRINCIPAL_HEADING = /\b(?:principal|face (?:value|amount)|outstanding|balance|amount)\b/i;

export interface TableConvertibleNote {
  name: string;
  /** the row's footnote marks ("(a)"): where its terms may be told below the table */
  marks: string[];
  /** 0 when the row shows a dash: none outstanding */
  principal: number;
  conversion_price: number | null;
  maturity: string | null;
  quote: string;
  principalHeading: string;
  /** the heading row that dates the principal, or the caption's sentence */
  asOfQuote: string;
  block: number;
}

function amountOf(value: TableValue): number | null {
  if (value.nil) return 0;
  return value.number !== null && !(value.number >= 1900 && value.number <= 2099 && Number.isInteger(value.number) && !value.dollars && !/,/.test(value.text)) ? Math.abs(value.number) : null;
}

/** The principal at the period end: the dated column's value, or the principal column's in a table the caption dates at it. */
function principalOf(table: HeadedTable, row: BodyRow, period: string): { value: TableValue; asOfQuote: string } | null {
  const dated = row.values.filter((v) => headingDate(v.heading) !== null && v.measure !== "date" && v.measure !== "price" && v.measure !== "percent" && !NOT_PRINCIPAL_HEADING.test(v.heading));
  if (dated.length) {
    const value = dated.find((v) => headingDate(v.heading) === period);
    const quote = [...table.headingRows].reverse().find((text) => headingDate(text) !== null || /\b(?:19|20)\d{2}\b/.test(text));
    return value && quote ? { value, asOfQuote: quote } : null;
  }
  const caption = [...table.caption].reverse().find((line) => /\b(?:as of|at)\b/i.test(line) && headingDate(line) !== null);
  if (!caption || headingDate(caption.slice(caption.search(/\b(?:as of|at)\b/i))) !== period) return null;
  const value = row.values.find((v) => v.measure === "amount" && PRINCIPAL_HEADING.test(v.heading) && !NOT_PRINCIPAL_HEADING.test(v.heading));
  return value ? { value, asOfQuote: caption } : null;
}

export function readConvertibleTables(tables: HeadedTable[], period: string | null, thousandsAt: (block: number) => boolean): TableConvertibleNote[] {
  if (!period) return [];
  const notes: TableConvertibleNote[] = [];
  for (const table of tables) {
    const headings = `${table.caption.at(-1) ?? ""} ${table.headingRows.join(" ")}`;
    for (const row of table.rows) {
      if (!DEBT_LABEL.test(row.label) || NOT_PRINCIPAL_LABEL.test(row.label)) continue;
      const before = table.rows.filter((r) => r.row < row.row).map((r) => r.text).join(" ");
      const context = `${headings} ${before}`;
      if (!DEBT_TABLE.test(context) || NOT_DEBT_TABLE.test(context)) continue;
      const found = principalOf(table, row, period);
      const amount = found ? amountOf(found.value) : null;
      if (!found || amount === null) continue;
      const scale = table.scale.dollars !== 1 ? table.scale.dollars : thousandsAt(table.block) ? 1000 : 1;
      const price = row.values.find((v) => v.measure === "price" && /\bconversion\b/i.test(v.heading) && v.number !== null && v.number > 0);
      // the maturity under a heading that says so, else the row's only date
      const dates = row.values.filter((v) => isoDate(v.text) !== null);
      const maturityValue = dates.find((v) => v.measure === "date") ?? (dates.length === 1 && !/\b(?:issu|grant|dated)\w*/i.test(dates[0]!.heading) ? dates[0] : undefined);
      const maturity = maturityValue ? isoDate(maturityValue.text) : null;
      notes.push({
        name: row.label,
        marks: row.marks,
        principal: amount * scale,
        conversion_price: price?.number ?? null,
        maturity,
        quote: row.text,
        principalHeading: found.value.heading,
        asOfQuote: found.asOfQuote,
        block: table.block,
      });
    }
  }
  return notes;
}
