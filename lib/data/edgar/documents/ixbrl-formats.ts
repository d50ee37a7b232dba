/**
 * The inline-XBRL transformation registries a filer names in a fact's
 * `format` (TR1 to TR5 of XBRL International, and the SEC's own `ixt-sec`):
 * how the text shown on the page becomes the fact's value. Each format reads
 * the shown text into the value's canonical form (a decimal string, an ISO
 * date, a duration, true / false, a code) or says it cannot.
 *
 * Names are compared without hyphens, so TR4's `num-dot-decimal` and TR3's
 * `numdotdecimal` are one entry; where a registry renamed a format (TR3's
 * `datemonthdayyearen` is TR4's `date-monthname-day-year-en`), both names
 * are listed. A format not listed here is not read: the fact keeps its text,
 * no value, and the reason.
 */
import { MONTH_NAMES } from "./text";

export type FormatResult = { ok: true; value: string | boolean } | { ok: false; reason: string };

/** The namespaces of the registries, old and new. */
const IXT_NAMESPACES = /^http:\/\/www\.xbrl\.org\/(?:inlineXBRL\/transformation\/\d{4}-\d{2}-\d{2}|2008\/inlineXBRL\/transformation)$/;
const IXT_SEC_NAMESPACE = /^http:\/\/www\.sec\.gov\/inlineXBRL\/transformation\/\d{4}-\d{2}-\d{2}$/;

const fail = (reason: string): FormatResult => ({ ok: false, reason });
const ok = (value: string | boolean): FormatResult => ({ ok: true, value });

// ───────────────────────────── numbers ─────────────────────────────

/** Digits grouped by `group` characters with `decimal` as the decimal mark, into a plain decimal string. */
function groupedNumber(text: string, group: RegExp, decimal: string): FormatResult {
  const t = text.trim();
  const at = decimal ? t.lastIndexOf(decimal) : -1;
  const whole = (at >= 0 ? t.slice(0, at) : t).replace(group, "");
  const fraction = at >= 0 ? t.slice(at + 1) : "";
  if (!/^\d*$/.test(whole) || !/^\d*$/.test(fraction) || (whole === "" && fraction === "")) return fail(`"${text}" is not a number in this format`);
  return ok(canonicalDecimal(`${whole || "0"}${fraction ? `.${fraction}` : ""}`));
}

function canonicalDecimal(text: string): string {
  const [whole, fraction = ""] = text.split(".");
  const w = whole!.replace(/^0+(?=\d)/, "");
  const f = fraction.replace(/0+$/, "");
  return f ? `${w}.${f}` : w;
}

const DASHES = /^[\s\u00a0]*[-\u2010-\u2015\u2212]*[\s\u00a0]*$/;

const UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const POWERS: Record<string, number> = { thousand: 1e3, million: 1e6, billion: 1e9, trillion: 1e12 };

/** "no", "none", "one hundred twenty-five", "two million" (ixt-sec:numwordsen). */
export function numberInWords(text: string): number | null {
  const words = text.toLowerCase().replace(/[,.]/g, " ").replace(/-/g, " ").split(/\s+/).filter((w) => w && w !== "and");
  if (words.length === 0) return null;
  if (words.length === 1 && (words[0] === "no" || words[0] === "none")) return 0;
  let total = 0;
  let current = 0;
  for (const word of words) {
    const unit = UNITS.indexOf(word);
    const ten = TENS.indexOf(word);
    if (unit >= 0) current += unit;
    else if (ten >= 2) current += ten * 10;
    else if (word === "hundred") current = (current || 1) * 100;
    else if (word in POWERS) {
      total += (current || 1) * POWERS[word]!;
      current = 0;
    } else return null;
  }
  return total + current;
}

// ───────────────────────────── dates ─────────────────────────────

const MONTH_ABBREVIATIONS = MONTH_NAMES.map((m) => m.slice(0, 3));

function monthNumber(word: string): number | null {
  const w = word.toLowerCase().replace(/\.$/, "");
  const full = MONTH_NAMES.indexOf(w);
  if (full >= 0) return full + 1;
  const short = MONTH_ABBREVIATIONS.indexOf(w.slice(0, 3));
  return short >= 0 && (w.length === 3 || (w === "sept")) ? short + 1 : null;
}

function twoDigits(n: number): string {
  return String(n).padStart(2, "0");
}

function fullYear(text: string): number | null {
  if (/^\d{4}$/.test(text)) return Number(text);
  if (/^\d{2}$/.test(text)) return 2000 + Number(text); // the registries read a two-digit year as 20YY
  return null;
}

function calendarDate(year: number | null, month: number | null, day: number | null): FormatResult {
  if (year === null || month === null || day === null) return fail("not a date in this format");
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return fail("not a calendar date");
  return ok(`${year}-${twoDigits(month)}-${twoDigits(day)}`);
}

function monthDay(month: number | null, day: number | null): FormatResult {
  if (month === null || day === null || day < 1 || day > 31 || month < 1 || month > 12) return fail("not a month and day");
  return ok(`--${twoDigits(month)}-${twoDigits(day)}`);
}

function yearMonth(year: number | null, month: number | null): FormatResult {
  if (year === null || month === null || month < 1 || month > 12) return fail("not a month and year");
  return ok(`${year}-${twoDigits(month)}`);
}

/** Numeric parts of a date in the order a format gives them ("12/31/2023", "31.12.23", "2023-12-31"). */
function numericParts(text: string, count: number): number[] | null {
  const parts = text.trim().split(/[\s./\-]+/).filter(Boolean);
  if (parts.length !== count || parts.some((p) => !/^\d{1,4}$/.test(p))) return null;
  return parts.map(Number);
}

function numericYear(value: number | undefined): number | null {
  return value === undefined ? null : value < 100 ? 2000 + value : value;
}

/** Words and numbers of a written date ("December 31, 2023", "31 Dec. 2023"). */
function wordParts(text: string): string[] {
  return text.trim().replace(/,/g, " ").split(/[\s\-/]+/).filter(Boolean);
}

const dateMonthDayYear: Format = (t) => {
  const p = numericParts(t, 3);
  return p ? calendarDate(numericYear(p[2]), p[0]!, p[1]!) : fail("not month/day/year");
};
const dateDayMonthYear: Format = (t) => {
  const p = numericParts(t, 3);
  return p ? calendarDate(numericYear(p[2]), p[1]!, p[0]!) : fail("not day/month/year");
};
const dateYearMonthDay: Format = (t) => {
  const p = numericParts(t, 3);
  return p ? calendarDate(numericYear(p[0]), p[1]!, p[2]!) : fail("not year/month/day");
};
const dateMonthNameDayYear: Format = (t) => {
  const w = wordParts(t);
  return w.length === 3 ? calendarDate(fullYear(w[2]!), monthNumber(w[0]!), /^\d{1,2}$/.test(w[1]!) ? Number(w[1]) : null) : fail("not 'Month day, year'");
};
const dateDayMonthNameYear: Format = (t) => {
  const w = wordParts(t);
  return w.length === 3 ? calendarDate(fullYear(w[2]!), monthNumber(w[1]!), /^\d{1,2}$/.test(w[0]!) ? Number(w[0]) : null) : fail("not 'day Month year'");
};
const dateMonthNameDay: Format = (t) => {
  const w = wordParts(t);
  return w.length === 2 ? monthDay(monthNumber(w[0]!), /^\d{1,2}$/.test(w[1]!) ? Number(w[1]) : null) : fail("not 'Month day'");
};
const dateDayMonthName: Format = (t) => {
  const w = wordParts(t);
  return w.length === 2 ? monthDay(monthNumber(w[1]!), /^\d{1,2}$/.test(w[0]!) ? Number(w[0]) : null) : fail("not 'day Month'");
};
const dateMonthDay: Format = (t) => {
  const p = numericParts(t, 2);
  return p ? monthDay(p[0]!, p[1]!) : fail("not month/day");
};
const dateDayMonth: Format = (t) => {
  const p = numericParts(t, 2);
  return p ? monthDay(p[1]!, p[0]!) : fail("not day/month");
};
const dateMonthYear: Format = (t) => {
  const p = numericParts(t, 2);
  return p ? yearMonth(numericYear(p[1]), p[0]!) : fail("not month/year");
};
const dateYearMonth: Format = (t) => {
  const p = numericParts(t, 2);
  return p ? yearMonth(numericYear(p[0]), p[1]!) : fail("not year/month");
};
const dateMonthNameYear: Format = (t) => {
  const w = wordParts(t);
  return w.length === 2 ? yearMonth(fullYear(w[1]!), monthNumber(w[0]!)) : fail("not 'Month year'");
};
const dateYearMonthName: Format = (t) => {
  const w = wordParts(t);
  return w.length === 2 ? yearMonth(fullYear(w[0]!), monthNumber(w[1]!)) : fail("not 'year Month'");
};
/** ixt-sec:datequarterend: "1st quarter 2023", "Q3 2023", "third quarter of 2023" → the quarter's last day. */
const dateQuarterEnd: Format = (t) => {
  const m = /\b(?:q([1-4])|(first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter)\b\D*(\d{4})\b/i.exec(t);
  if (!m) return fail("not a quarter and year");
  const words = ["first", "second", "third", "fourth"];
  const shorts = ["1st", "2nd", "3rd", "4th"];
  const q = m[1] ? Number(m[1]) : Math.max(words.indexOf(m[2]!.toLowerCase()), shorts.indexOf(m[2]!.toLowerCase())) + 1;
  const month = q * 3;
  const lastDay = new Date(Date.UTC(Number(m[3]), month, 0)).getUTCDate();
  return calendarDate(Number(m[3]), month, lastDay);
};

// ───────────────────────────── durations ─────────────────────────────

/** A number of years, months or days as an xs:duration, fractions carried into the smaller units ("2.5" years → P2Y6M). */
function duration(text: string, unit: "Y" | "M" | "W" | "D" | "H"): FormatResult {
  const t = text.trim().replace(/,/g, "");
  const words = /^\d*\.?\d+$/.test(t) ? Number(t) : numberInWords(t);
  if (words === null || !Number.isFinite(words)) return fail(`"${text}" is not a number of ${unit}`);
  if (unit === "W") return ok(`P${Math.round(words * 7 * 1e6) / 1e6}D`);
  if (unit === "H") return ok(`PT${words}H`);
  if (unit === "D") return ok(`P${words}D`);
  let months = unit === "Y" ? words * 12 : words;
  const years = Math.floor(months / 12 + 1e-9);
  months -= years * 12;
  const wholeMonths = Math.floor(months + 1e-9);
  const days = Math.round((months - wholeMonths) * 30 * 1e3) / 1e3;
  const parts = `${years ? `${years}Y` : ""}${wholeMonths ? `${wholeMonths}M` : ""}${days ? `${days}D` : ""}`;
  return ok(`P${parts || "0D"}`);
}

/** ixt-sec:durwordsen: "five years", "two years and six months", "thirty days". */
const durationInWords: Format = (t) => {
  const parts = [...t.toLowerCase().matchAll(/([a-z\- ]+?|\d+(?:\.\d+)?)[\s-]+(years?|months?|weeks?|days?)\b/g)];
  if (parts.length === 0) return fail(`"${t}" is not a duration in words`);
  let y = 0;
  let mo = 0;
  let d = 0;
  for (const [, amount, unit] of parts) {
    const n = /\d/.test(amount!) ? Number(amount) : numberInWords(amount!.replace(/\band\b/g, " ").trim());
    if (n === null) return fail(`"${t}" is not a duration in words`);
    if (unit!.startsWith("year")) y += n;
    else if (unit!.startsWith("month")) mo += n;
    else if (unit!.startsWith("week")) d += n * 7;
    else d += n;
  }
  return ok(`P${y ? `${y}Y` : ""}${mo ? `${mo}M` : ""}${d ? `${d}D` : ""}` || "P0D");
};

// ───────────────────────────── codes ─────────────────────────────

/** ixt-sec:exchnameen: the exchange's name as written → the dei code. */
const EXCHANGES: [RegExp, string][] = [
  [/nasdaq/i, "NASDAQ"],
  [/nyse\s*american|american stock exchange|nyse\s*mkt/i, "NYSEAMER"],
  [/nyse\s*arca/i, "NYSEArca"],
  [/new york stock exchange|^nyse$/i, "NYSE"],
  [/cboe|bats/i, "CboeBZX"],
  [/chicago stock exchange/i, "CHX"],
  [/boston stock exchange/i, "BOX"],
];

const FILER_CATEGORIES: [RegExp, string][] = [
  [/^non-?accelerated/i, "Non-accelerated Filer"],
  [/^large accelerated/i, "Large Accelerated Filer"],
  [/^accelerated/i, "Accelerated Filer"],
];

const STATES: Record<string, string> = {
  alabama: "AL", alaska: "AK", arizona: "AZ", arkansas: "AR", california: "CA", colorado: "CO", connecticut: "CT", delaware: "DE",
  "district of columbia": "DC", florida: "FL", georgia: "GA", hawaii: "HI", idaho: "ID", illinois: "IL", indiana: "IN", iowa: "IA",
  kansas: "KS", kentucky: "KY", louisiana: "LA", maine: "ME", maryland: "MD", massachusetts: "MA", michigan: "MI", minnesota: "MN",
  mississippi: "MS", missouri: "MO", montana: "MT", nebraska: "NE", nevada: "NV", "new hampshire": "NH", "new jersey": "NJ",
  "new mexico": "NM", "new york": "NY", "north carolina": "NC", "north dakota": "ND", ohio: "OH", oklahoma: "OK", oregon: "OR",
  pennsylvania: "PA", "rhode island": "RI", "south carolina": "SC", "south dakota": "SD", tennessee: "TN", texas: "TX", utah: "UT",
  vermont: "VT", virginia: "VA", washington: "WA", "west virginia": "WV", wisconsin: "WI", wyoming: "WY", "puerto rico": "PR",
};

function fromTable(table: [RegExp, string][], what: string): Format {
  return (t) => {
    const hit = table.find(([pattern]) => pattern.test(t.trim()));
    return hit ? ok(hit[1]) : fail(`"${t}" is not a known ${what}`);
  };
}

const stateProvince: Format = (t) => {
  const code = STATES[t.trim().toLowerCase().replace(/\s+/g, " ")];
  return code ? ok(code) : fail(`"${t}" is not a known state`);
};

const BALLOT_CHECKED = /[☒☑✓✔✗✘xX■]/;
const BALLOT_EMPTY = /^[\s☐□]*$/;

// ───────────────────────────── the registry ─────────────────────────────

type Format = (text: string) => FormatResult;

const dotDecimal: Format = (t) => groupedNumber(t, /[,\s\u00a0'’]/g, ".");
const commaDecimal: Format = (t) => groupedNumber(t, /[.\s\u00a0'’]/g, ",");
const zeroDash: Format = (t) => (DASHES.test(t) ? ok("0") : fail(`"${t}" is not a dash`));
const fixedZero: Format = () => ok("0");
const noContent: Format = () => ok("");

/** ixt: formats, by name without hyphens (TR1 to TR5). */
const IXT_FORMATS: Record<string, Format> = {
  numdotdecimal: dotDecimal,
  numdotdecimalin: dotDecimal,
  numdotdecimalapos: dotDecimal,
  numcommadot: dotDecimal,
  numspacedot: dotDecimal,
  numcommadecimal: commaDecimal,
  numcommadecimalapos: commaDecimal,
  numdotcomma: commaDecimal,
  numspacecomma: commaDecimal,
  numcomma: (t) => groupedNumber(t, /(?!)/g, ","),
  numdash: zeroDash,
  zerodash: zeroDash,
  fixedzero: fixedZero,
  nocontent: noContent,
  fixedempty: noContent,
  booleantrue: () => ok(true),
  fixedtrue: () => ok(true),
  booleanfalse: () => ok(false),
  fixedfalse: () => ok(false),
  dateslashus: dateMonthDayYear,
  datedotus: dateMonthDayYear,
  datemonthdayyear: dateMonthDayYear,
  dateslasheu: dateDayMonthYear,
  datedoteu: dateDayMonthYear,
  datedaymonthyear: dateDayMonthYear,
  dateyearmonthday: dateYearMonthDay,
  datelongus: dateMonthNameDayYear,
  dateshortus: dateMonthNameDayYear,
  datemonthdayyearen: dateMonthNameDayYear,
  datemonthnamedayyearen: dateMonthNameDayYear,
  datelonguk: dateDayMonthNameYear,
  dateshortuk: dateDayMonthNameYear,
  datedaymonthyearen: dateDayMonthNameYear,
  datedaymonthnameyearen: dateDayMonthNameYear,
  datelongmonthday: dateMonthNameDay,
  dateshortmonthday: dateMonthNameDay,
  datemonthdayen: dateMonthNameDay,
  datemonthnamedayen: dateMonthNameDay,
  datelongdaymonth: dateDayMonthName,
  dateshortdaymonth: dateDayMonthName,
  datedaymonthen: dateDayMonthName,
  datedaymonthnameen: dateDayMonthName,
  datemonthday: dateMonthDay,
  dateslashmonthdayus: dateMonthDay,
  datedaymonth: dateDayMonth,
  dateslashdaymontheu: dateDayMonth,
  datemonthyear: dateMonthYear,
  dateyearmonth: dateYearMonth,
  datelongmonthyear: dateMonthNameYear,
  dateshortmonthyear: dateMonthNameYear,
  datemonthyearen: dateMonthNameYear,
  datemonthnameyearen: dateMonthNameYear,
  datelongyearmonth: dateYearMonthName,
  dateshortyearmonth: dateYearMonthName,
  dateyearmonthen: dateYearMonthName,
  dateyearmonthnameen: dateYearMonthName,
};

/** ixt-sec: formats (the SEC's registry). */
const IXT_SEC_FORMATS: Record<string, Format> = {
  numwordsen: (t) => {
    const n = numberInWords(t);
    return n === null ? fail(`"${t}" is not a number in words`) : ok(String(n));
  },
  numinf: () => ok("INF"),
  numneginf: () => ok("-INF"),
  numnan: () => ok("NaN"),
  duryear: (t) => duration(t, "Y"),
  durmonth: (t) => duration(t, "M"),
  durweek: (t) => duration(t, "W"),
  durday: (t) => duration(t, "D"),
  durhour: (t) => duration(t, "H"),
  durwordsen: durationInWords,
  datequarterend: dateQuarterEnd,
  boolballotbox: (t) => (BALLOT_CHECKED.test(t) ? ok(true) : BALLOT_EMPTY.test(t) ? ok(false) : fail(`"${t}" is not a ballot box`)),
  yesnoballotbox: (t) => (BALLOT_CHECKED.test(t) ? ok("Yes") : BALLOT_EMPTY.test(t) ? ok("No") : fail(`"${t}" is not a ballot box`)),
  exchnameen: fromTable(EXCHANGES, "exchange"),
  entityfilercategoryen: fromTable(FILER_CATEGORIES, "filer category"),
  stateprovnameen: stateProvince,
};

/**
 * Applies a fact's format to its shown text. `namespace` is the URI the
 * format's prefix stands for in the document (null when undeclared: then the
 * usual prefixes `ixt` and `ixt-sec` are taken at their word).
 */
export function applyFormat(format: string, namespace: string | null, text: string): FormatResult {
  const colon = format.indexOf(":");
  const prefix = colon >= 0 ? format.slice(0, colon) : "";
  const name = format.slice(colon + 1).toLowerCase().replace(/-/g, "");
  const isSec = namespace ? IXT_SEC_NAMESPACE.test(namespace) : prefix.toLowerCase() === "ixt-sec";
  const isIxt = namespace ? IXT_NAMESPACES.test(namespace) : prefix.toLowerCase() === "ixt";
  const registry = isSec ? IXT_SEC_FORMATS : isIxt ? IXT_FORMATS : null;
  const read = registry?.[name];
  if (!read) return fail(`format ${format} is not known`);
  return read(text);
}

/** A decimal string times 10^scale, exactly ("1.5" scale 6 → "1500000"). */
export function scaleDecimal(decimal: string, scale: number): string {
  if (!scale || !/^\d+(?:\.\d+)?$/.test(decimal)) return decimal;
  const [whole, fraction = ""] = decimal.split(".");
  const digits = whole! + fraction;
  const point = whole!.length + scale;
  if (point <= 0) return canonicalDecimal(`0.${"0".repeat(-point)}${digits}`);
  if (point >= digits.length) return canonicalDecimal(digits + "0".repeat(point - digits.length));
  return canonicalDecimal(`${digits.slice(0, point)}.${digits.slice(point)}`);
}
