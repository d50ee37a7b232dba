import { describe, expect, it } from "vitest";
import { htmlBlocks } from "./html";
import { cellNumber, headedTables, measureOf, readHeadedTable, tableScale } from "./tables";
import { readConvertibleTables } from "./convertible-tables";
import { readAntiDilutiveWarrants, readWarrantTables } from "./warrant-tables";

const table = (html: string) => {
  const blocks = htmlBlocks(html);
  return readHeadedTable(blocks, blocks.findIndex((b) => b.kind === "table"))!;
};

describe("a table read by its headings", () => {
  it("puts each value under the heading that spans its place, '$' and ')' cells folded in", () => {
    // the layout of EDGAR's financial printers: empty spacer cells, a "$" cell before a figure, headings spanning both
    const t = table(
      `<p>A summary of warrant activity is as follows:</p><table>` +
        `<tr><td colspan="3"></td><td colspan="3">Number of Warrants</td><td colspan="3">Weighted Average Exercise Price</td></tr>` +
        `<tr><td colspan="3">Outstanding as of December 31, 2022</td><td>324,375</td><td colspan="2"></td><td>$</td><td>25.00</td><td></td></tr>` +
        `<tr><td colspan="3">Forfeited</td><td>(2,404</td><td>)</td><td></td><td></td><td>52.00</td><td></td></tr></table>`,
    );
    expect(t.caption).toEqual(["A summary of warrant activity is as follows:"]);
    expect(t.rows.map((r) => [r.label, ...r.values.map((v) => [v.text, v.number, v.heading, v.measure, v.dollars])])).toEqual([
      ["Outstanding as of December 31, 2022", ["324,375", 324375, "Number of Warrants", "count", false], ["$ 25.00", 25, "Weighted Average Exercise Price", "average_price", true]],
      ["Forfeited", ["(2,404)", -2404, "Number of Warrants", "count", false], ["52.00", 52, "Weighted Average Exercise Price", "average_price", false]],
    ]);
  });

  it("joins heading rows top to bottom, takes footnote marks off labels, and pairs headings by order when places do not line up", () => {
    const t = table(
      `<table><tr><td></td><td>September 30,</td><td>December 31,</td></tr><tr><td></td><td>2025</td><td>2024</td></tr>` +
        `<tr><td>Series A warrants (1)</td><td></td><td>1,500,000</td><td>900,000</td></tr></table>`,
    );
    expect(t.rows[0]!.label).toBe("Series A warrants");
    expect(t.rows[0]!.marks).toEqual(["(1)"]);
    // the figures sit one cell right of their headings: the order decides
    expect(t.rows[0]!.values.map((v) => v.heading)).toEqual(["September 30, 2025", "December 31, 2024"]);
  });

  it("names the label column's heading and what it holds", () => {
    const t = table(`<table><tr><td>Expiry Date</td><td>Exercise Price</td><td>Warrants outstanding</td></tr><tr><td>April 24, 2022</td><td>$ 0.20</td><td>2,145,000</td></tr></table>`);
    expect([t.labelHeading, t.labelMeasure]).toEqual(["Expiry Date", "date"]);
  });

  it("knows a column by its heading's words, first match winning", () => {
    expect(measureOf("Weighted Average Remaining Contractual Life (in years)")).toBe("years");
    expect(measureOf("Weighted average exercise price")).toBe("average_price");
    expect(measureOf("Exercise Price")).toBe("price");
    expect(measureOf("Expiration Date")).toBe("date");
    expect(measureOf("Warrant Liabilities (Level 3)")).toBe("amount");
    expect(measureOf("Number of Warrants")).toBe("count");
    expect(measureOf("September 30, 2025")).toBeNull();
  });

  it("reads the scale a caption states for counts and for dollars", () => {
    expect(tableScale("(in thousands, except share and per share data)")).toEqual({ counts: 1, dollars: 1000 });
    expect(tableScale("(in thousands)")).toEqual({ counts: 1000, dollars: 1000 });
    expect(tableScale("(shares in thousands)")).toEqual({ counts: 1000, dollars: 1 });
    expect(tableScale("(Dollars in thousands)")).toEqual({ counts: 1, dollars: 1000 });
    expect(tableScale("as follows:")).toEqual({ counts: 1, dollars: 1 });
  });

  it("reads figures as shown", () => {
    expect([cellNumber("2,145,000"), cellNumber("$ 0.20"), cellNumber("(1,233,334)"), cellNumber(".50"), cellNumber("12.5%"), cellNumber("June 1, 2030"), cellNumber("—")]).toEqual([2145000, 0.2, -1233334, 0.5, 12.5, null, null]);
  });

  it("skips tables with no body row (a heading, a page footer)", () => {
    expect(headedTables(htmlBlocks(`<table><tr><td>Page</td><td>12</td></tr></table><table><tr><td>2025</td><td>2024</td></tr></table>`))).toHaveLength(1);
    expect(headedTables(htmlBlocks(`<table><tr><td>Title of each class</td><td>Trading symbol</td></tr></table>`))).toHaveLength(0);
  });
});

describe("warrant tables read by their headings", () => {
  const read = (html: string, period = "2025-09-30") => readWarrantTables(headedTables(htmlBlocks(html)), period);

  it("reads one series per row of a table of warrants outstanding at the period end, with the headings behind each value", () => {
    const found = read(
      `<p>The following warrants were outstanding as of September 30, 2025:</p><table>` +
        `<tr><td></td><td colspan="2">Warrants Outstanding</td><td colspan="2">Exercise Price</td><td>Expiration Date</td></tr>` +
        `<tr><td>June 2023 Tranche A Warrants (2)</td><td colspan="2">2,173,912</td><td>$</td><td>1.59</td><td>June 26, 2028</td></tr>` +
        `<tr><td>Pre-Funded Warrants</td><td colspan="2">1,630,434</td><td>$</td><td>0.0001</td><td>None</td></tr>` +
        `<tr><td>Total</td><td colspan="2">3,804,346</td><td></td><td></td><td></td></tr></table>`,
    );
    expect(found.series.map((s) => [s.series, s.shares_outstanding, s.exercise_price, s.expiry, s.as_of, s.pre_funded ?? false, s.countHeading, s.priceHeading])).toEqual([
      ["June 2023 Tranche A Warrants", 2173912, 1.59, "2028-06-26", "2025-09-30", false, "Warrants Outstanding", "Exercise Price"],
      ["Pre-Funded Warrants", 1630434, 0.0001, null, "2025-09-30", true, "Warrants Outstanding", "Exercise Price"],
    ]);
    expect(found.series[0]!.quote).toBe("June 2023 Tranche A Warrants (2) 2,173,912 $ 1.59 June 26, 2028");
    expect(found.series[0]!.asOfQuote).toBe("The following warrants were outstanding as of September 30, 2025:");
    expect(found.total).toMatchObject({ shares_outstanding: 3804346, as_of: "2025-09-30" });
  });

  it("takes the period end's column of a table dated by its headings, and nothing from an earlier date alone", () => {
    const html =
      `<p>Warrants outstanding:</p><table><tr><td></td><td>September 30, 2025</td><td>December 31, 2024</td><td>Exercise price</td></tr>` +
      `<tr><td>Series B warrants</td><td>800,000</td><td>1,200,000</td><td>$ 4.00</td></tr></table>`;
    expect(read(html).series.map((s) => [s.shares_outstanding, s.as_of])).toEqual([[800000, "2025-09-30"]]);
    expect(read(html, "2025-06-30").series).toEqual([]);
  });

  it("counts no dollars, no weighted average as a price, and no warrants exercisable or issued as outstanding", () => {
    const found = read(
      `<p>Warrants outstanding as of September 30, 2025:</p><table>` +
        `<tr><td></td><td>Warrants issued</td><td>Warrants exercisable</td><td>Weighted average exercise price</td><td>Fair value</td></tr>` +
        `<tr><td>Series C warrants</td><td>500,000</td><td>250,000</td><td>$ 3.00</td><td>$ 412,000</td></tr></table>`,
    );
    expect(found.series).toEqual([]);
  });

  it("reads the closing balance of an activity table at the period end as the total, and no warrant liability's roll-forward", () => {
    const activity = read(
      `<p>A summary of the Company’s warrant activity is as follows:</p><table><tr><td></td><td>Number of Warrants</td><td>Weighted Average Exercise Price</td></tr>` +
        `<tr><td>Outstanding as of December 31, 2024</td><td>300,000</td><td>$ 25.00</td></tr><tr><td>Granted</td><td>24,375</td><td>$ 20.00</td></tr>` +
        `<tr><td>Outstanding as of September 30, 2025</td><td>324,375</td><td>$ 24.62</td></tr></table>`,
    );
    expect(activity.series).toEqual([]);
    expect(activity.total).toMatchObject({ shares_outstanding: 324375, weighted_average_exercise_price: 24.62, as_of: "2025-09-30", countHeading: "Number of Warrants" });
    const liability = read(
      `<p>The change in the fair value of the warrant liability:</p><table><tr><td></td><td>Warrant liability</td></tr>` +
        `<tr><td>Beginning balance</td><td>$ 100,000</td></tr><tr><td>Ending balance</td><td>$ 412,000</td></tr></table>`,
    );
    expect(liability.total).toBeNull();
  });

  it("multiplies counts a caption states in thousands, never prices", () => {
    const found = read(
      `<p>Warrants outstanding as of September 30, 2025 (in thousands, except per share data):</p><table><tr><td></td><td>Number of warrants</td><td>Exercise price</td></tr>` +
        `<tr><td>2024 Registered Direct Warrants</td><td>1,250</td><td>$ 2.10</td></tr></table>`,
    );
    expect(found.series.map((s) => [s.shares_outstanding, s.exercise_price])).toEqual([[1250000, 2.1]]);
  });
});

describe("convertible notes in debt tables read by their headings", () => {
  const read = (html: string, period = "2025-09-30", thousands = false) => readConvertibleTables(headedTables(htmlBlocks(html)), period, () => thousands);

  it("reads a note's principal under the period end's column, multiplied out, and a dash as none outstanding", () => {
    const notes = read(
      `<p>The Company’s debt consisted of the following (in millions):</p><table><tr><td></td><td>September 30, 2025</td><td>December 31, 2024</td></tr>` +
        `<tr><td>2.25% Convertible senior notes due 2029 (a)</td><td>$ 1,150</td><td>$ 1,150</td></tr><tr><td>Convertible notes due 2026</td><td>—</td><td>$ 300</td></tr>` +
        `<tr><td>Unamortized discount on convertible notes</td><td>(12)</td><td>(15)</td></tr></table>`,
    );
    expect(notes.map((n) => [n.name, n.marks, n.principal, n.principalHeading, n.asOfQuote])).toEqual([
      ["2.25% Convertible senior notes due 2029", ["(a)"], 1_150_000_000, "September 30, 2025", "September 30, 2025 December 31, 2024"],
      ["Convertible notes due 2026", [], 0, "September 30, 2025", "September 30, 2025 December 31, 2024"],
    ]);
  });

  it("reads a small cap's table of notes by series: principal, conversion price and maturity by their headings, dated by the caption", () => {
    const notes = read(
      `<p>Convertible notes payable outstanding as of September 30, 2025 were as follows:</p><table>` +
        `<tr><td>Note</td><td>Principal amount</td><td>Conversion price</td><td>Maturity date</td><td>Accrued interest</td></tr>` +
        `<tr><td>Convertible promissory note – Streeterville</td><td>$ 1,250,000</td><td>$ 0.75</td><td>March 31, 2026</td><td>$ 41,000</td></tr></table>`,
    );
    expect(notes.map((n) => [n.name, n.principal, n.conversion_price, n.maturity, n.principalHeading])).toEqual([["Convertible promissory note – Streeterville", 1_250_000, 0.75, "2026-03-31", "Principal amount"]]);
    // a table the caption dates at another day states no principal at the period end
    expect(read(`<p>Convertible notes payable outstanding as of December 31, 2024:</p><table><tr><td>Note</td><td>Principal amount</td></tr><tr><td>Convertible note</td><td>$ 500,000</td></tr></table>`)).toEqual([]);
  });

  it("reads the notes' thousands from the scope of the notes when the table says nothing, and no note from a fair-value table", () => {
    const html = `<p>Debt:</p><table><tr><td></td><td>September 30, 2025</td></tr><tr><td>Convertible notes</td><td>$ 2,300</td></tr></table>`;
    expect(read(html, "2025-09-30", true).map((n) => n.principal)).toEqual([2_300_000]);
    expect(read(`<p>Fair value measurements of debt:</p><table><tr><td></td><td>September 30, 2025</td></tr><tr><td>Convertible notes</td><td>$ 2,300</td></tr></table>`)).toEqual([]);
  });
});

describe("warrants among the anti-dilutive securities, by the period end's column", () => {
  const read = (html: string, period = "2025-09-30") => readAntiDilutiveWarrants(headedTables(htmlBlocks(html)), period);

  it("takes the column the headings date at the period end, wherever it stands, and quotes the heading row with the row", () => {
    const html =
      `<p>The following securities were excluded from the computation of diluted net loss per share because including them would have been anti-dilutive:</p>` +
      `<table><tr><td></td><td colspan="2">Nine Months Ended September 30,</td></tr><tr><td></td><td>2024</td><td>2025</td></tr>` +
      `<tr><td>Warrants to purchase common stock</td><td>1,200,000</td><td>2,578,419</td></tr><tr><td>Stock options</td><td>300,000</td><td>350,000</td></tr></table>`;
    expect(read(html)).toMatchObject({ shares_outstanding: 2578419, as_of: "2025-09-30", quote: "Warrants to purchase common stock 1,200,000 2,578,419", asOfQuote: "2024 2025 Warrants to purchase common stock 1,200,000 2,578,419" });
    expect(read(html, "2025-06-30")).toBeNull();
  });

  it("reads nothing from a table of shares outstanding that is not of excluded securities", () => {
    expect(read(`<p>Shares reserved:</p><table><tr><td></td><td>September 30, 2025</td></tr><tr><td>Warrants</td><td>1,000</td></tr></table>`)).toBeNull();
  });
});

describe("tables keyed by a price or a date", () => {
  const read = (html: string, period = "2025-09-30") => readWarrantTables(headedTables(htmlBlocks(html)), period);

  it("reads rows keyed by their exercise price, each a series at that price", () => {
    const html =
      `<p>The following table summarizes the warrants outstanding as of September 30, 2025:</p><table>` +
      `<tr><td colspan="2">Exercise Price</td><td>Number of Warrants</td><td>Remaining Life (years)</td></tr>` +
      `<tr><td>$</td><td>5.00</td><td>100,000</td><td>2.3</td></tr><tr><td>$</td><td>12.50</td><td>40,000</td><td>4.1</td></tr>` +
      `<tr><td></td><td></td><td>140,000</td><td></td></tr></table>`;
    const t = headedTables(htmlBlocks(html))[0]!;
    expect([t.labelHeading, t.labelMeasure, t.rows.map((r) => r.label)]).toEqual(["Exercise Price", "price", ["$ 5.00", "$ 12.50", ""]]);
    const found = read(html);
    expect(found.series.map((s) => [s.key, s.label, s.shares_outstanding, s.exercise_price, s.as_of, s.priceHeading])).toEqual([
      ["price", "$ 5.00", 100000, 5, "2025-09-30", "Exercise Price"],
      ["price", "$ 12.50", 40000, 12.5, "2025-09-30", "Exercise Price"],
    ]);
    expect(found.total).toMatchObject({ shares_outstanding: 140000 });
  });

  it("reads rows keyed by an expiry given as a month, with no expiry day invented", () => {
    const found = read(
      `<p>Warrants outstanding at September 30, 2025:</p><table><tr><td>Expiration</td><td>Exercise price</td><td>Warrants</td></tr>` +
        `<tr><td>March 2028</td><td>$ 1.10</td><td>2,000,000</td></tr></table>`,
    );
    expect(found.series.map((s) => [s.key, s.label, s.expiry, s.exercise_price, s.shares_outstanding])).toEqual([["expiry", "March 2028", null, 1.1, 2000000]]);
  });
});

describe("what a hostile reading of the table model found (each once read wrong)", () => {
  const warrants = (html: string, period = "2025-09-30") => readWarrantTables(headedTables(htmlBlocks(html)), period);

  it("keeps headings over their figures when the markup breaks lines between cells", () => {
    const html =
      `<p>Warrants outstanding:</p><table>\n<tr>\n<td></td>\n<td colspan="2">Exercise price</td>\n<td colspan="2">December 31, 2024</td>\n<td colspan="2">September 30, 2025</td>\n</tr>\n` +
      `<tr>\n<td>Series C warrants</td>\n<td>$</td>\n<td>7.00</td>\n<td></td>\n<td>80,000</td>\n<td></td>\n<td></td>\n</tr>\n</table>`;
    expect(warrants(html).series).toEqual([]);
  });

  it("takes a scale note in one column's heading for that column only, and no caption from an earlier table", () => {
    const own = warrants(
      `<p>Warrants outstanding as of September 30, 2025:</p><table><tr><td></td><td>Number of warrants</td><td>Exercise price</td><td>Aggregate intrinsic value (in thousands)</td></tr>` +
        `<tr><td>Series A warrants</td><td>1,250,000</td><td>$ 2.10</td><td>$ 500</td></tr></table>`,
    );
    expect(own.series.map((s) => s.shares_outstanding)).toEqual([1250000]);
    const blocks = htmlBlocks(
      `<p>Long-term debt consisted of the following (in thousands):</p><table><tr><td></td><td>September 30, 2025</td></tr><tr><td>Term loan</td><td>$ 4,000</td></tr></table>` +
        `<p>Warrants outstanding as of September 30, 2025:</p><table><tr><td></td><td>Number of warrants</td><td>Exercise price</td></tr><tr><td>Series A warrants</td><td>1,250,000</td><td>$ 2.10</td></tr></table>`,
    );
    expect(readWarrantTables(headedTables(blocks), "2025-09-30").series.map((s) => s.shares_outstanding)).toEqual([1250000]);
    const antiDilutive = htmlBlocks(
      `<p>The following were excluded from diluted net loss per share as anti-dilutive:</p><table><tr><td></td><td>September 30, 2025</td></tr><tr><td>Stock options</td><td>300,000</td></tr></table>` +
        `<p>Shares of common stock reserved for future issuance:</p><table><tr><td></td><td>September 30, 2025</td></tr><tr><td>Warrants to purchase common stock</td><td>9,999,999</td></tr></table>`,
    );
    expect(readAntiDilutiveWarrants(headedTables(antiDilutive), "2025-09-30")).toBeNull();
  });

  it("takes no issue date for an expiry, no balance dated by its label for a series, and no footnote mark for a count", () => {
    const issued = warrants(
      `<p>Warrants outstanding as of September 30, 2025:</p><table><tr><td>Issue Date</td><td>Number of Warrants</td><td>Exercise Price</td><td>Expiration Date</td></tr>` +
        `<tr><td>March 1, 2023</td><td>100,000</td><td>$ 5.00</td><td>March 1, 2028</td></tr></table>`,
    );
    expect(issued.series.map((s) => [s.series, s.expiry])).toEqual([["March 1, 2023", "2028-03-01"]]);
    const activity = warrants(
      `<p>A summary of warrant activity is as follows:</p><table><tr><td></td><td>Warrants Outstanding</td><td>Average Exercise Price</td></tr>` +
        `<tr><td>December 31, 2024</td><td>300,000</td><td>$ 25.00</td></tr><tr><td>Granted</td><td>24,375</td><td>$ 20.00</td></tr><tr><td>September 30, 2025</td><td>324,375</td><td>$ 24.62</td></tr></table>`,
    );
    expect(activity.series).toEqual([]);
    expect(activity.total).toMatchObject({ shares_outstanding: 324375, weighted_average_exercise_price: 24.62 });
    const marked = warrants(
      `<p>Warrants outstanding as of September 30, 2025:</p><table><tr><td></td><td></td><td>Number of warrants</td><td>Exercise price</td></tr>` +
        `<tr><td>Series A warrants</td><td>(1)</td><td>100,000</td><td>$ 5.00</td></tr></table>`,
    );
    expect(marked.series.map((s) => s.shares_outstanding)).toEqual([100000]);
  });

  it("takes no note issued or converted in a period for one outstanding, and the maturity under its own heading", () => {
    const read = (html: string) => readConvertibleTables(headedTables(htmlBlocks(html)), "2025-09-30", () => false);
    expect(read(`<p>Supplemental disclosure of non-cash financing activities:</p><table><tr><td></td><td>Nine Months Ended September 30, 2025</td></tr><tr><td>Convertible notes converted into common stock</td><td>$ 250,000</td></tr></table>`)).toEqual([]);
    expect(read(`<p>Convertible notes payable:</p><table><tr><td></td><td>September 30, 2025</td></tr><tr><td>Convertible notes issued</td><td>$ 400,000</td></tr></table>`)).toEqual([]);
    const dated = read(
      `<p>Convertible notes payable outstanding as of September 30, 2025:</p><table><tr><td>Note</td><td>Issuance date</td><td>Maturity date</td><td>Principal amount</td></tr>` +
        `<tr><td>Convertible note</td><td>March 1, 2024</td><td>March 1, 2026</td><td>$ 500,000</td></tr></table>`,
    );
    expect(dated.map((n) => [n.principal, n.maturity])).toEqual([[500000, "2026-03-01"]]);
  });
});
