/** A filing folder's index.json: its documents, and which of them is the fee exhibit. */
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

/** An 8-K's press release: its Exhibit 99 (99.1 before 99.2), the HTML rendering first; null when it has none. */
export function pickPressRelease(entries: FilingIndexEntry[]): string | null {
  const candidates = entries
    .map((entry) => ({ name: entry.name, number: /ex(?:hibit)?[-_ ]?99(?:[-_.]?(\d{1,2}))?(?!\d)/i.exec(entry.name), rank: documentRank(entry.name) }))
    .filter((c): c is { name: string; number: RegExpExecArray; rank: number } => c.number !== null && c.rank !== null && c.rank < 2)
    .sort((a, b) => Number(a.number[1] ?? 1) - Number(b.number[1] ?? 1) || a.rank - b.rank);
  return candidates[0]?.name ?? null;
}
