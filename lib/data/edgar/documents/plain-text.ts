/**
 * Plain text out of EDGAR's markup for the phrase tests, and the values its
 * headers and notices write as text (CIKs, dates).
 */
import { blocksText, htmlBlocks } from "./html";
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

/**
 * HTML / inline XBRL → plain text as the page shows it (./html.ts's streaming
 * parse): hidden content (`ix:header`, `<head>`, scripts, comments) dropped,
 * entities decoded (Windows-1252 references such as &#146; as browsers show
 * them), whitespace collapsed.
 */
export function htmlToText(html: string): string {
  return blocksText(htmlBlocks(html)).replace(/\s+/g, " ").trim();
}

/** Lower case, typographic quotes and dashes made plain, whitespace collapsed: what the phrase tests match on. */
export function normalizeForMatching(text: string): string {
  return text
    .replace(/[\u2018\u2019\u02bc\u2032\u0060\u00b4]/g, "'")
    .replace(/[\u201c\u201d\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/\s+/g, " ")
    .toLowerCase();
}

const pad2 = (n: string) => n.padStart(2, "0");

/** "2022-11-22", "2022-11-22 16:00:00", "20221122", "11/22/2022" → "2022-11-22"; null otherwise. */
export function normalizeDate(text: string): string | null {
  const s = text.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T\s])/.exec(s) ?? /^(\d{4})(\d{2})(\d{2})(?:$|\d{6}$)/.exec(s);
  if (m) return `${m[1]}-${m[2]}-${m[3]}`;
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  if (m) return `${m[3]}-${pad2(m[1] ?? "")}-${pad2(m[2] ?? "")}`;
  return null;
}

/** CIKs are 10 digits with leading zeros in EDGAR's own documents; accept shorter ones and pad. */
export function normalizeCik(text: string | null): string | null {
  const digits = text?.trim() ?? "";
  return /^\d{1,10}$/.test(digits) ? digits.padStart(10, "0") : null;
}
