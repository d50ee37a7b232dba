import { isCalendarDate } from "@/lib/utils/dates";
import { plainTextBlocks } from "./html";
import { documentLines, quoteAround, sentencesOf, type Line } from "./text";

/**
 * Reverse stock splits a document states as effected: "a 1-for-15 reverse
 * stock split of our common stock, effective October 31, 2023", "On July 16,
 * 2024, we effected a 1-for-10 reverse stock split", "one-for-nine (1:9)",
 * several in one list ("1-for-15 on October 31, 2023, 1-for-10 on July 16,
 * 2024 and 1-for-9 on May 6, 2025"), or an 8-K's "will become effective at
 * 12:01 a.m. Eastern Time on May 6, 2025" (an effective date stated in
 * advance). A split only authorized, proposed or possible ("may effect",
 * "a ratio of between 1-for-5 and 1-for-20"), a forward split, and another
 * company's split are not read. The date is null when the text gives none.
 */
export interface ReverseSplit {
  /** "1-for-N" */
  ratio: string;
  /** YYYY-MM-DD, or null when the text states no date */
  effective_date: string | null;
}

export interface FoundReverseSplit extends ReverseSplit {
  /** the words the ratio is read from (≤200 characters of the line) */
  ratioQuote: string;
  /** the words the date is read from; null with the date */
  dateQuote: string | null;
}

// ───────────────────────────── numbers written out ─────────────────────────────

const UNITS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
const TEENS = ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
const TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const BELOW_100 = `(?:(?:${TENS.join("|")})(?:[- ](?:${UNITS.join("|")}))?|${TEENS.join("|")}|${UNITS.join("|")})`;
const WORD_NUMBER = `(?:(?:${UNITS.join("|")}|a)[- ]hundred(?:[- ](?:and[- ])?${BELOW_100})?|${BELOW_100})`;

/** "twenty-five" → 25, "one hundred" → 100, "15" → 15; null for anything else. */
export function wordNumber(text: string): number | null {
  const t = text.toLowerCase().replace(/,/g, "").trim();
  if (/^\d+(?:\.\d+)?$/.test(t)) return Number(t);
  let current = 0;
  for (const word of t.split(/[- ]+/)) {
    if (word === "and") continue;
    if (word === "hundred") current = (current || 1) * 100;
    else if (word === "a") current = 1;
    else if (UNITS.includes(word)) current += UNITS.indexOf(word) + 1;
    else if (TEENS.includes(word)) current += TEENS.indexOf(word) + 10;
    else if (TENS.includes(word)) current += (TENS.indexOf(word) + 2) * 10;
    else return null;
  }
  return current || null;
}

// ───────────────────────────── patterns ─────────────────────────────

const NUMBER = String.raw`(\d{1,3}(?:,\d{3})+|\d{1,5}(?:\.\d{1,3}(?!\d))?|${WORD_NUMBER})(?:\s*\(\d{1,5}(?:\.\d{1,3})?\))?`;
/** "1-for-15", "one-for-nine", "one (1)-for-fifteen (15)", "1-to-10", "1:10" (not the time "1:30 p.m."). */
const RATIO = new RegExp(
  String.raw`\b(?:1|one)(?:\s*\(1\))?(?:[- ]|\s*-\s*)(?:for|to)(?:[- ]|\s*-\s*)${NUMBER}(?![\d-])|(?<![\d:.,$])\b1\s?:\s?(\d{1,5}(?:\.\d{1,3}(?!\d))?)\b(?!\s*(?:[ap]\.?\s?m\b|[ap]\.m\.)|[:,]\d|\.\d)`,
  "gi",
);
/** A ratio that bounds a range ("between 1-for-5 and 1-for-20", "up to 1-for-30") is an authorization, not a split. */
const RANGE_BEFORE = /\b(?:between|up to|range of|ranging from|not (?:less|more|greater) than|no (?:less|more|greater) than|not to exceed|maximum of|minimum of)\s*(?:a\s+|an\s+|the\s+)?$/i;
const RANGE_AFTER = /^\s*(?:\)\s*)?(?:and|to|or|through)\s+(?:a\s+)?(?:1|one)\b/i;
const RANGE_JOIN = /^\s*\)?\s*(?:and|to|or|through)\s+(?:a\s+)?$/i;
/** The sentence is about a split of the stock. */
const SPLIT_WORDS = /\b(?:splits?|consolidations?|combinations?)\b/i;
/** Words that say the split took place (or takes place on a stated day). */
const EFFECTED = /\b(?:(?:was|were) (?:automatically )?(?:converted|combined|reclassified) into one|effected|effectuated|became effective|become effective|becomes effective|was effective|is effective|be effective|was made effective|took effect|take effect|takes effect|went into effect|go into effect|was implemented|implemented|completed|consummated|effective|began trading on a (?:reverse )?split[- ]adjusted basis)\b/i;
/** Words that make a sentence a possibility, condition or plan ("may" in lower case only: May is a month). */
const NOT_DONE =
  /\b(?:[Cc]ould|may|[Mm]ight|[Ww]ould|[Ii]f|[Ww]hether|[Uu]nless|[Ss]hould|[Cc]an|[Cc]annot|will not|no assurance|possible|risk that|[Ii]ntends?|[Pp]lans? to|[Ee]xpects? to|[Aa]nticipates?|[Pp]ropos(?:e|ed|es|al)|[Ss]eeks?|subject to (?:stockholder|shareholder)|[Aa]t the discretion|in (?:its|the Board's|the board's) discretion|pro forma|assum(?:es|ing)|(?:prior to|upon|in connection with) (?:the )?(?:closing|completion|consummation|pricing)? ?(?:of )?this offering)\b/;

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const DATE = /\b(January|February|March|April|May|June|July|August|September|October|November|December)\s+(\d{1,2}),?\s+(\d{4})\b/g;
/** A date said to be the split's own: "effective (as of) October 31, 2023", "became effective at 12:01 a.m. … on May 6, 2025", "effected on …". */
const EFFECT_BEFORE_DATE = /\b(?:(?<!declared\s)effective|effected|effectuated|took effect|take effect|takes effect|went into effect|implemented|completed)\b(?:\b[ap]\.m\.|[^.;]){0,80}$/i;

function isoOf(month: string, day: string, year: string): string | null {
  const iso = `${year}-${String(MONTHS.indexOf(month.toLowerCase()) + 1).padStart(2, "0")}-${day.padStart(2, "0")}`;
  return isCalendarDate(iso) ? iso : null;
}

interface Span {
  start: number;
  end: number;
}

interface DateMention extends Span {
  iso: string;
}

// ───────────────────────────── whose split ─────────────────────────────

const LEGAL_NAME = /\b((?:[A-Z][\w.&'’-]*\s+){0,4}[A-Z][\w.&'’-]*,?\s+(?:Inc\.?|Corp\.?|Corporation|Ltd\.?|Limited|LLC|plc|N\.V\.|S\.A\.|AG|Holdings))(?=[\s,'’])/g;
const POSSESSIVE_STOCK = /\b((?:[A-Z][\w.&-]*\s+){0,4}[A-Z][\w.&-]*)['’]s\s+(?:common|ordinary|capital)\s+(?:stock|shares)\b/g;
const SELF = /^(?:the\s+)?(?:company|registrant|corporation|issuer)$/i;

/** The words of a company name that tell it apart ("Alzamend Neuro, Inc." → ["alzamend", "neuro"]). */
function nameWords(name: string): string[] {
  return name
    .toLowerCase()
    .replace(/\b(?:inc|corp|corporation|ltd|limited|llc|plc|co|company|holdings|group|the)\b\.?/g, " ")
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 2);
}

function isIssuer(name: string, issuer: string | null): boolean {
  if (SELF.test(name.trim())) return true;
  if (!issuer) return false;
  const mine = nameWords(issuer);
  return nameWords(name).some((w) => mine.includes(w));
}

/**
 * True when the sentence gives the split to a company other than the issuer:
 * "Acme Corp. … effected a 1-for-20 reverse stock split of its common stock",
 * "a reverse split of Acme's common stock". Without the issuer's name a
 * named company splitting "its" stock is taken for another company, unless
 * the sentence defines it as "the Company".
 */
function anotherCompanys(sentence: string, ratioAt: number, issuer: string | null): boolean {
  for (const m of sentence.matchAll(POSSESSIVE_STOCK)) if (!isIssuer(m[1]!, issuer)) return true;
  if (!/\bits\s+(?:(?:issued|and|outstanding|common|ordinary|capital)\s+){0,4}(?:stock|shares)\b/i.test(sentence.slice(ratioAt))) return false;
  const last = [...sentence.slice(0, ratioAt).matchAll(LEGAL_NAME)].pop();
  if (!last) return false;
  // "Example Neuro, Inc. (the “Company”)" is the filer naming itself
  const definedAsSelf = /^\s*\(\s*(?:the\s+)?["“]?(?:Company|Registrant|Corporation|Issuer)\b/.test(sentence.slice(last.index + last[0].length));
  return !definedAsSelf && !isIssuer(last[1]!, issuer);
}

// ───────────────────────────── reading ─────────────────────────────

interface RatioMention extends Span {
  n: number;
}

/** "each 200 shares of the Company’s common stock outstanding was converted into one share", "every four shares … were combined into one share". */
const EACH_INTO_ONE = new RegExp(
  String.raw`\b(?:each|every)\s+${NUMBER}\s+(?:\(\d{1,5}\)\s+)?(?:shares|issued and outstanding shares)\b[^.;]{0,120}?\b(?:was|were|will be|shall be|are|is)\s+(?:automatically\s+)?(?:converted|combined|reclassified|consolidated|changed)\s+into\s+one\s+(?:\(1\)\s+)?(?:new\s+|fully paid\s+)?share\b`,
  "gi",
);

function ratiosIn(sentence: string): RatioMention[] {
  const out: RatioMention[] = [];
  for (const m of sentence.matchAll(EACH_INTO_ONE)) {
    const n = wordNumber(m[1]!);
    if (n !== null && n >= 2) out.push({ n, start: m.index, end: m.index + m[0].length });
  }
  if (out.length) return out;
  let bound = -1;
  for (const m of sentence.matchAll(RATIO)) {
    const n = wordNumber(m[1] ?? m[2]!);
    const start = m.index;
    const end = start + m[0].length;
    if (n === null || n < 2) continue;
    // a range's bounds: "between 1-for-5 and 1-for-20", "from 1-for-2 to 1-for-10", "up to 1-for-30"
    const secondBound = bound >= 0 && RANGE_JOIN.test(sentence.slice(bound, start));
    bound = RANGE_AFTER.test(sentence.slice(end, end + 20)) ? end : -1;
    if (secondBound || bound >= 0 || RANGE_BEFORE.test(sentence.slice(Math.max(0, start - 40), start))) continue;
    const previous = out[out.length - 1];
    // "one-for-nine (1:9)": the same ratio told twice in a row is one mention
    if (previous && previous.n === n && /^[\s(),-]*$/.test(sentence.slice(previous.end, start))) {
      previous.end = Math.max(previous.end, end + (sentence[end] === ")" ? 1 : 0));
      continue;
    }
    out.push({ n, start, end });
  }
  return out;
}

function datesIn(sentence: string): DateMention[] {
  const out: DateMention[] = [];
  for (const m of sentence.matchAll(DATE)) {
    const iso = isoOf(m[1]!, m[2]!, m[3]!);
    if (iso) out.push({ iso, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/**
 * The date of the split mentioned at `ratio`, looked for between the mention
 * before it and the one after: first a date after it that the text calls the
 * split's effective date ("effective October 31, 2023"), then an "On July 16,
 * 2024," opening its clause, then any date following it ("1-for-10 on July
 * 16, 2024").
 */
function dateOf(sentence: string, dates: DateMention[], ratio: RatioMention, from: number, to: number): DateMention | null {
  const after = dates.filter((d) => d.start >= ratio.end && d.end <= to);
  const said = after.find((d) => EFFECT_BEFORE_DATE.test(sentence.slice(Math.max(ratio.end, d.start - 100), d.start)));
  if (said) return said;
  // "…, which effected, at 5:00 p.m. Eastern Time on January 17, 2023, a one-for-two-hundred (1:200) reverse stock split": the split's day before its ratio, not the filing day opening the sentence
  const saidBefore = [...dates].reverse().find((d) => d.start >= from && d.end <= ratio.start && EFFECT_BEFORE_DATE.test(sentence.slice(Math.max(from, d.start - 100), d.start)));
  if (saidBefore) return saidBefore;
  const opening = [...dates].reverse().find(
    (d) => d.start >= from && d.end <= ratio.start && /(?:^|[,;:(]\s*|\b(?:and|then)\s+)(?:[Oo]n|[Ee]ffective(?: as of)?|[Aa]s of)\s+$/.test(sentence.slice(Math.max(0, d.start - 20), d.start)),
  );
  return opening ?? after[0] ?? null;
}

function quoteOf(line: Line, sentenceStart: number, a: Span, b: Span | null): { ratio: string; date: string | null } {
  const start = sentenceStart + Math.min(a.start, b?.start ?? a.start);
  const end = sentenceStart + Math.max(a.end, b?.end ?? a.end);
  if (end - start <= 200) {
    const both = quoteAround(line.text, start, end);
    return { ratio: both, date: b ? both : null };
  }
  return {
    ratio: quoteAround(line.text, sentenceStart + a.start, sentenceStart + a.end),
    date: b ? quoteAround(line.text, sentenceStart + b.start, sentenceStart + b.end) : null,
  };
}

/**
 * Every reverse split the lines state as effected, in the order first told,
 * each once (the same ratio told again with the same date, or with no date
 * beside a dated telling, is the same split). `issuer` is the filer's name,
 * to tell its splits from another company's.
 */
export function readReverseSplits(lines: Line[], issuer: string | null = null): FoundReverseSplit[] {
  const found: FoundReverseSplit[] = [];
  for (const line of lines) {
    if (!SPLIT_WORDS.test(line.text)) continue;
    RATIO.lastIndex = 0;
    EACH_INTO_ONE.lastIndex = 0;
    const hasRatio = RATIO.test(line.text) || EACH_INTO_ONE.test(line.text);
    RATIO.lastIndex = 0;
    EACH_INTO_ONE.lastIndex = 0;
    if (!hasRatio) continue;
    for (const sentence of sentencesOf(line.text)) {
      const text = sentence.text;
      if (!SPLIT_WORDS.test(text) || !EFFECTED.test(text) || NOT_DONE.test(text)) continue;
      const ratios = ratiosIn(text);
      const dates = datesIn(text);
      ratios.forEach((ratio, k) => {
        const from = k > 0 ? ratios[k - 1]!.end : 0;
        const to = k + 1 < ratios.length ? ratios[k + 1]!.start : text.length;
        if (anotherCompanys(text, ratio.start, issuer)) return;
        const date = dateOf(text, dates, ratio, from, to);
        const quotes = quoteOf(line, sentence.start, ratio, date);
        add(found, { ratio: `1-for-${ratio.n}`, effective_date: date?.iso ?? null, ratioQuote: quotes.ratio, dateQuote: quotes.date });
      });
    }
  }
  return found;
}

function add(found: FoundReverseSplit[], split: FoundReverseSplit) {
  const same = found.findIndex((s) => s.ratio === split.ratio && (s.effective_date === split.effective_date || s.effective_date === null || split.effective_date === null));
  if (same < 0) found.push(split);
  else if (found[same]!.effective_date === null && split.effective_date !== null) found[same] = split;
}

/** The same, on plain text (an 8-K's text from htmlToText, or a `.txt` document: paragraphs split at blank lines). */
export function readReverseSplitsInText(text: string, issuer: string | null = null): FoundReverseSplit[] {
  return readReverseSplits(documentLines(plainTextBlocks(text)), issuer);
}

// ───────────────────────────── 8-K announcements ─────────────────────────────

/** A sentence giving the day a split (or the charter amendment making it) takes effect: "The Reverse Stock Split will become effective at 12:01 a.m. Eastern Time on May 6, 2025". */
const TAKES_EFFECT =
  /\b(?:effective|into effect|(?:take|takes|took) effect)\b(?:\b[ap]\.m\.|[^.;]){0,80}?\b(January|February|March|April|May|June|July|August|September|October|November|December)\s+(\d{1,2}),?\s+(\d{4})\b/;
const ABOUT_THE_SPLIT = /\b(?:split|amendment|certificate|charter|articles)\b/i;
/** What makes the effective-date sentence a condition or a possibility (a date stated in advance, "will become effective", counts). */
const CONDITIONAL = /\b(?:[Ii]f|[Uu]nless|[Ww]hether|may|[Cc]ould|[Ww]ould|[Mm]ight|no assurance)\b/;

/**
 * The reverse splits an 8-K (Item 5.03, 8.01, 3.03) announces as effective,
 * from its text (htmlToText of the document, or plain text): those stated as
 * effected in one sentence, as readReverseSplits reads them, and the split
 * whose ratio one sentence gives ("filed a Certificate of Amendment … to
 * effect a 1-for-9 reverse stock split") and whose effective date another
 * ("The Reverse Stock Split will become effective at 12:01 a.m. Eastern Time
 * on May 6, 2025"): a date stated in advance is taken. An 8-K naming several
 * ratios in such sentences pairs none of them with that date; a ratio range
 * the stockholders approved, or a split that may be effected, is not read.
 */
export function readAnnouncedReverseSplits(text: string, issuer: string | null = null): FoundReverseSplit[] {
  const lines = documentLines(plainTextBlocks(text));
  const found = readReverseSplits(lines, issuer);
  const announced: { n: number; quote: string }[] = [];
  let effective: { iso: string; quote: string } | null = null;
  for (const line of lines) {
    for (const sentence of sentencesOf(line.text)) {
      const words = sentence.text;
      const at = (start: number, end: number) => quoteAround(line.text, sentence.start + start, sentence.start + end);
      if (SPLIT_WORDS.test(words) && !NOT_DONE.test(words)) {
        for (const ratio of ratiosIn(words)) {
          if (!anotherCompanys(words, ratio.start, issuer) && !announced.some((a) => a.n === ratio.n)) announced.push({ n: ratio.n, quote: at(ratio.start, ratio.end) });
        }
      }
      const day: RegExpExecArray | null = effective || !ABOUT_THE_SPLIT.test(words) || CONDITIONAL.test(words) ? null : TAKES_EFFECT.exec(words);
      const iso: string | null = day ? isoOf(day[1]!, day[2]!, day[3]!) : null;
      if (day && iso) effective = { iso, quote: at(day.index, day.index + day[0].length) };
    }
  }
  // (a split read with no day of its own takes the day another sentence gives)
  const unread = announced.filter((a) => !found.some((s) => s.ratio === `1-for-${a.n}` && s.effective_date !== null));
  if (unread.length === 1 && announced.length === 1 && effective) {
    add(found, { ratio: `1-for-${unread[0]!.n}`, effective_date: effective.iso, ratioQuote: unread[0]!.quote, dateQuote: effective.quote });
  }
  return found;
}
