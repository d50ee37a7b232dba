/** Plain-text tables for the bench's reports. */

export const pad = (text: string, width: number) => (text.length >= width ? text : text + " ".repeat(width - text.length));
export const padLeft = (text: string, width: number) => (text.length >= width ? text : " ".repeat(width - text.length) + text);
export const fixed = (n: number, digits: number) => (Number.isFinite(n) ? n.toFixed(digits) : "–");
export const percent = (share: number) => (Number.isFinite(share) ? `${Math.round(share * 100)} %` : "–");

/** Columns as wide as their widest cell; the columns listed in `rightAligned` (by index) are aligned right. */
export function renderTable(header: string[], rows: string[][], rightAligned: ReadonlySet<number>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((text, i) => (rightAligned.has(i) ? padLeft(text, widths[i]!) : pad(text, widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}
