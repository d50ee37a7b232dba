import { closingsIn, type ClosingEvent } from "./closings";
import { cleanText, plainTextBlocks } from "./html";
import { wordNumber } from "./reverse-splits";
import { AMOUNT, isoDate, nameKey, parseCount, parseDollars, parseScaledDollars, sentencesOf, WRITTEN_DATE_PATTERN as DATE } from "./text";

/**
 * The financing terms an 8-K states under Item 1.01 (Entry into a Material
 * Definitive Agreement: a securities purchase, placement agency, underwriting
 * or convertible note purchase agreement, a standby equity purchase agreement
 * or other equity line, a warrant inducement) and Item 3.02 (Unregistered
 * Sales of Equity Securities), and in the EX-99 press release when one of
 * those items (or the 7.01 / 8.01 item beside them) points to it.
 *
 * Items are found by their "Item 1.01" / "Item 3.02" headings; values are read
 * from those items' sentences (and those of the items they incorporate by
 * reference: a 2.03 that tells the notes), the press release only filling what
 * the items leave unstated. An 8-K filed before August 2004 numbered its items
 * 1 to 12 and told a financing under "Item 5. Other Events": that item is read
 * when it tells a sale of the company's securities. Every value is what the filing states, with the sentence it
 * was read from in `evidence` (keyed by field path: "warrants[0].exercise_price");
 * nothing is computed (no share count from dollars ÷ price, no discount from a
 * percentage of a price). A value not stated is null (a list, empty).
 *
 * Any item (an 8.01 beside a 3.02, a 1.02 ending a note) may also state that
 * named instruments ended in full: warrants exercised, a note or preferred
 * stock converted, a note repaid or redeemed (`closings`, ./closings.ts; a
 * warrant inducement's agreement to exercise is no exercise).
 *
 * The reader works on the kind of document, on the wordings SEC practice and
 * the usual counsel give these 8-Ks, never on one company's filing.
 */
export type AgreementKind = "securities_purchase" | "placement_agency" | "underwriting" | "convertible_note" | "equity_line" | "other";
export type EightKAgentRole = "placement_agent" | "underwriter" | "sales_agent";
export type AntiDilution = "none" | "customary" | "full_ratchet" | "reset";

export interface EightKWarrant {
  /** shares the warrants are exercisable for */
  shares: number | null;
  exercise_price: number | null;
  /** "five years from the date of issuance" → 5 */
  term_years: number | null;
  /** YYYY-MM-DD, when the text gives the expiry as a date */
  expiry: string | null;
  /** "immediately", or when they become exercisable as the text says ("on the date of Stockholder Approval") */
  exercisable: string | null;
  pre_funded: boolean;
  /** "A", "B", "A-1" for Series A / B / A-1 warrants */
  series: string | null;
  /** warrants exercised under, or issued for, a warrant inducement */
  inducement: boolean;
  /** outstanding warrants (exercised or repriced in the transaction), not warrants issued in it */
  existing: boolean;
}

export interface EightKNote {
  principal: number | null;
  /** a fixed conversion price in dollars; null for a price stated only as a share of a market price */
  conversion_price: number | null;
  /** "a price equal to 80% of the lowest VWAP" → 80 */
  conversion_percent_of_market: number | null;
  /** "a 20% discount to the lowest VWAP" → 20 */
  conversion_discount_percent: number | null;
  /** YYYY-MM-DD when a date is stated, else the stated term ("12 months from the issuance date") */
  maturity: string | null;
  /** percent per annum: "bears interest at 10% per annum" → 10 */
  interest_rate: number | null;
}

export interface EightKEquityLine {
  counterparty: string | null;
  /** the most the counterparty commits to buy, in dollars */
  commitment: number | null;
  /** shares issued to the counterparty as its commitment fee, when a count is stated */
  commitment_shares_fee_or_null: number | null;
  /** a stated discount: "a 3% discount to the VWAP" → 3 */
  discount_percent: number | null;
  /** a price stated as a share of a market price: "97% of the lowest daily VWAP" → 97 */
  price_percent_of_market: number | null;
}

export interface EightKTerms {
  agreement_date: string | null;
  agreement_kind: AgreementKind | null;
  common_shares: number | null;
  price_per_share: number | null;
  gross_proceeds: number | null;
  warrants: EightKWarrant[];
  /** placement agent / underwriter warrants, only when their count is stated */
  agent_warrants: EightKWarrant[];
  /** true when the text states a warrant inducement (existing warrants exercised at a reduced price for new warrants) */
  inducement: boolean | null;
  convertible_notes: EightKNote[];
  equity_line: EightKEquityLine | null;
  placement_agent: string | null;
  agent_role: EightKAgentRole | null;
  purchasers: string[] | null;
  anti_dilution: AntiDilution | null;
  /** true: offered under an effective registration statement / prospectus supplement; false: a private placement (4(a)(2), Regulation D) */
  registered: boolean | null;
  /** instruments the 8-K says were exercised, converted or repaid in full (never `subsequent`: an 8-K has no period) */
  closings: ClosingEvent[];
}

export interface EightKTermsReading {
  terms: EightKTerms;
  evidence: Record<string, string>;
}

export function emptyEightKTerms(): EightKTerms {
  return {
    agreement_date: null,
    agreement_kind: null,
    common_shares: null,
    price_per_share: null,
    gross_proceeds: null,
    warrants: [],
    agent_warrants: [],
    inducement: null,
    convertible_notes: [],
    equity_line: null,
    placement_agent: null,
    agent_role: null,
    purchasers: null,
    anti_dilution: null,
    registered: null,
    closings: [],
  };
}

// ───────────────────────────── text, items, sentences ─────────────────────────────

/** Paragraphs of a text: blocks separated by blank lines (a `.txt` document), else one per line (blocksText), else the one line (htmlToText). */
function paragraphsOf(text: string): string[] {
  if (/\n[ \t]*\r?\n/.test(text)) return plainTextBlocks(text).map((b) => (b.kind === "text" ? b.text : ""));
  return text.split(/\r?\n/).map(cleanText).filter(Boolean);
}

const ITEM = /\bItem\s*(\d{1,2}\.\d{2})\b\.?/gi;
/**
 * Form 8-K before August 23, 2004 numbered its items 1 to 12 ("Item 5. Other
 * Events", "ITEM 7. Financial Statements and Exhibits"); a number is a
 * heading only when one of those titles follows it.
 */
const OLD_ITEM = new RegExp(
  String.raw`\bItem\s*(\d{1,2})\b\.?[\s:–—-]*(?=(?:Changes? in Control|Acquisition or Disposition|Bankruptcy or Receivership|Changes? in (?:the )?Registrant['’]?s Certifying Accountant|Other Events|Resignations? of (?:the )?Registrant['’]?s Directors|Financial Statements|Change in Fiscal Year|Regulation FD|Amendments? to (?:the )?Registrant['’]?s Code of Ethics|Temporary Suspension of Trading|Results of Operations)\b)`,
  "gi",
);
/** Words a reference to an item ends with: "the information set forth in", "under “". */
const REFERENCE_BEFORE = /\b(?:see|in|under|to|this|and|or|of|by)\s*[“"‘]?\s*$/i;
const REFERENCE_AFTER = /^\s*(?:of\b|above|below|hereof|herein|hereto|is\b|are\b|was\b|and\b|or\b|to\b|,)/i;

export interface ItemSection {
  item: string;
  /** the text after the heading up to the next item heading, paragraphs joined by "\n" */
  text: string;
}

function headingsOf(joined: string, pattern: RegExp): { item: string; start: number; end: number }[] {
  const headings: { item: string; start: number; end: number }[] = [];
  for (const m of joined.matchAll(pattern)) {
    const lineStart = joined.lastIndexOf("\n", m.index - 1) + 1;
    const after = joined.slice(m.index + m[0].length, m.index + m[0].length + 40);
    if (REFERENCE_AFTER.test(after)) continue;
    if (joined.slice(lineStart, m.index).trim() === "") {
      // a paragraph's first words: a heading, whatever ends the paragraph before (a cover's checkbox "o"), unless that ends in a reference's words
      if (REFERENCE_BEFORE.test(joined.slice(Math.max(0, lineStart - 40), lineStart))) continue;
    } else {
      const before = joined.slice(Math.max(lineStart, m.index - 40), m.index);
      if (/[a-z,]\s*$/.test(before) || REFERENCE_BEFORE.test(before)) continue;
    }
    headings.push({ item: m[1]!, start: m.index, end: m.index + m[0].length });
  }
  return headings;
}

/**
 * The 8-K's item sections by their headings: "Item 1.01 Entry into…", "ITEM
 * 3.02.", at the start of a paragraph (whatever the paragraph before ends
 * with: the cover's last checkbox "o" is no sentence) or after a sentence,
 * not a reference ("the information set forth in Item 1.01 of this Current
 * Report", "into this Item 3.02", "under “Item 1.01 …”"). An 8-K without
 * such headings is read in the numbering before August 2004 ("Item 5. Other
 * Events"): its items are "5", "7".
 */
export function eightKItemSections(text: string): ItemSection[] {
  const joined = paragraphsOf(text).join("\n");
  let headings = headingsOf(joined, ITEM);
  if (headings.length === 0) headings = headingsOf(joined, OLD_ITEM);
  return headings.map((h, i) => ({ item: h.item, text: joined.slice(h.end, headings[i + 1]?.start ?? joined.length).trim() }));
}

/** True for the item numbering of 8-Ks filed before August 2004 ("5", "7"), whose Item 5 (Other Events) told financings. */
export function isOldItemNumbering(sections: ItemSection[]): boolean {
  return sections.length > 0 && sections.every((s) => !s.item.includes("."));
}

const INCORPORATES = /\b(?:information|disclosures?)\b[^.;]{0,120}?\bItems?\s+(\d{1,2}\.\d{2}(?:(?:\s*,\s*(?:and\s+)?|\s+and\s+)\d{1,2}\.\d{2})*)\b[^.;]{0,120}?\bincorporated\b[^.;]{0,20}?\bby reference\b/gi;

/** The items a section says it incorporates by reference ("The information set forth in Items 2.03 and 3.02 hereof is incorporated by reference into this Item 1.01"). */
function incorporatedItems(section: ItemSection): string[] {
  const out: string[] = [];
  for (const m of section.text.matchAll(INCORPORATES)) for (const n of m[1]!.match(/\d{1,2}\.\d{2}/g) ?? []) if (n !== section.item && !out.includes(n)) out.push(n);
  return out;
}

/** Items a financing item may take its terms from: the agreement, the obligation it creates, the sale. An acquisition's 2.01 or an 8.01 is no financing's terms. */
const FINANCING_TERMS_ITEMS = new Set(["1.01", "2.03", "3.02"]);

/** The sections of `items` and the financing items they incorporate by reference, each once, in the filing's order. */
function sectionsWithIncorporated(sections: ItemSection[], items: (s: ItemSection) => boolean): ItemSection[] {
  const chosen = new Set(sections.filter(items));
  for (const s of [...chosen]) for (const n of incorporatedItems(s)) if (FINANCING_TERMS_ITEMS.has(n)) for (const other of sections) if (other.item === n && other.text.length > 0) chosen.add(other);
  return sections.filter((s) => chosen.has(s));
}

/** The item numbers an 8-K's text carries, in the order of their headings, each once. */
export function eightKItems(text: string): string[] {
  return [...new Set(eightKItemSections(text).map((s) => s.item))];
}

interface Sentence {
  text: string;
  /** the paragraph it is in, and where it starts there: quotes are cut from the paragraph */
  line: string;
  at: number;
  /** the sentence before it in the same paragraph */
  previous: Sentence | null;
  fromPressRelease: boolean;
}

/** A summary's run-in heading: a few capitalised words and a period opening a paragraph ("Maturity.", "Conversion Rights."). */
const RUN_IN_HEADING = /^[A-Z][A-Za-z-]*(?:\s+(?:[A-Z][A-Za-z-]*|of|and|at|upon|to|a|an|the|for|on|in)){0,6}\.$/;

function sentencesIn(paragraphs: string[], fromPressRelease: boolean): Sentence[] {
  const out: Sentence[] = [];
  for (const line of paragraphs) {
    let previous: Sentence | null = null;
    const pieces: { text: string; start: number }[] = [];
    for (const s of sentencesOf(line)) {
      const last = pieces[pieces.length - 1];
      // an initial after a quote mark or parenthesis ("(“B. Riley”)") does not end a sentence, nor does a
      // paragraph's run-in heading ("Maturity. August 15, 2027.", "Interest. The Notes bear interest …")
      if (last && (/(?:^|[\s(“"'‘])[A-Z]\.$/.test(last.text) || (pieces.length === 1 && RUN_IN_HEADING.test(last.text)))) last.text = line.slice(last.start, s.start + s.text.length);
      else pieces.push({ ...s });
    }
    for (const s of pieces) {
      const sentence: Sentence = { text: s.text, line, at: s.start, previous, fromPressRelease };
      out.push(sentence);
      previous = sentence;
    }
  }
  return out;
}

const MAX_QUOTE_BYTES = 250;

/** ≤200 characters of a long sentence around [start, end), cut at words. */
function windowOf(text: string, start: number, end: number): string {
  if (end - start >= 200) return text.slice(start, start + 200).trim();
  const room = 200 - (end - start);
  let from = Math.max(0, start - Math.floor(room / 2));
  const to = Math.min(text.length, from + 200);
  from = Math.max(0, to - 200);
  let slice = text.slice(from, to);
  if (from > 0 && from < start) slice = slice.slice(Math.max(0, slice.indexOf(" ") + 1));
  if (to < text.length && text.slice(to - 1, to + 1).trim().length === 2) slice = slice.slice(0, Math.max(slice.lastIndexOf(" "), end - from));
  return slice.trim();
}

/**
 * The sentence [start, end) is in, or a window of it around them (quoteAround's
 * ≤200 characters; the sentence, not the paragraph, so "Corp. (the “Company”)"
 * does not end it), at most 250 bytes.
 */
function quoteOf(s: Sentence, start = 0, end = s.text.length): string {
  let quote = s.text.length <= 200 ? s.text.trim() : windowOf(s.text, start, Math.max(end, start));
  while (Buffer.byteLength(quote, "utf8") > MAX_QUOTE_BYTES) quote = quote.slice(0, quote.lastIndexOf(" ") > 0 ? quote.lastIndexOf(" ") : MAX_QUOTE_BYTES / 2).trim();
  return quote;
}

// ───────────────────────────── numbers, amounts, dates ─────────────────────────────

const MONEY = `${AMOUNT}(?:\\s?(million|billion)\\b)?`;
const COUNT_TEXT = String.raw`(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?\s(?:million)|\d+)`;
const NUMBER_WORD = String.raw`(?:\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|twenty-four|thirty|thirty-six|forty-eight|sixty)`;

/** "$5.0 million" → 5000000; "$0.0001" keeps its digits (parseScaledDollars rounds to cents, fine for totals, not for a pre-funded price). */
function money(amount: string, scale: string | undefined): number | null {
  return scale ? parseScaledDollars(amount, scale) : parseDollars(amount);
}

function countOf(text: string): number | null {
  const million = /^(\d+(?:\.\d+)?)\smillion$/.exec(text.trim());
  if (million) return Math.round(Number(million[1]) * 1e6);
  return parseCount(text);
}


/** "five" → 5, "5.5" → 5.5, "five and one-half" → 5.5 */
function numberOf(text: string): number | null {
  const t = text.toLowerCase().trim();
  const half = /^(.+?)\s+and\s+(?:one-)?(?:a\s+)?half$/.exec(t);
  if (half) {
    const whole = numberOf(half[1]!);
    return whole === null ? null : whole + 0.5;
  }
  if (/^\d+(?:\.\d+)?$/.test(t)) return Number(t);
  return wordNumber(t);
}

function percentOf(text: string): number {
  return Number(text);
}

// ───────────────────────────── companies ─────────────────────────────

const LEGAL_SUFFIX = String.raw`(?:L\.L\.C\.|LLC|Inc\.|Inc\b|INC\.|Incorporated|Corp\.|Corporation|CORP\.|Ltd\.|Ltd\b|LTD\.|LTD\b|Limited|L\.\s?P\.|LP\b|LLP|plc|PLC|AG|N\.A\.|S\.A\.|SPC|Fund)(?![A-Za-z])`;
const NAME_WORD = String.raw`(?:[A-Z0-9][A-Za-z0-9.'’/-]*|&|of|\([A-Z]{2,}\))`;
/** A firm's legal name: capitalised words ending in a legal suffix ("H.C. Wainwright & Co., LLC", "YA II PN, Ltd.", "Lincoln Park Capital Fund, LLC"). */
const FIRM = String.raw`(${NAME_WORD}(?:,?\s${NAME_WORD}){0,7}?,?\s(?:${LEGAL_SUFFIX}(?:,?\s(?:LLC|L\.L\.C\.|L\.P\.|LP|Ltd\.|LTD\.|Limited|Inc\.)(?![A-Za-z]))?|&\sCo\.(?:,?\s(?:Inc\.|LLC|L\.L\.C\.|Incorporated|Ltd\.|Limited)(?![A-Za-z]))?))`;
/** Capitalised words a filing names a party by before defining it ("A.G.P./Alliance Global Partners (the “Placement Agent”)"). */
const PROPER_NAME = String.raw`((?:[A-Z0-9][A-Za-z0-9.'’/&-]*)(?:,?\s(?:[A-Z0-9][A-Za-z0-9.'’/&-]*|&|of)){0,7})`;
const NOT_A_NAME = /^(?:The|A|An|Certain|Such|Each|Any|One|Two|Accredited|Institutional|Existing|Investors?|Purchasers?|Holders?|Company|Registrant|Issuer|Our|Its|Their|This|These|Those|We|Pursuant|On|In)\b/;

function cleanName(name: string): string {
  return name.replace(/^the\s+/i, "").replace(/[,\s]+$/, "").trim();
}

// ───────────────────────────── the reading ─────────────────────────────

interface Reading {
  terms: EightKTerms;
  evidence: Record<string, string>;
  /** the warrants read so far, with their kind (a press release's mentions are matched to them) */
  entries: Entry[];
  /** false while reading a press release after the items listed instruments: it fills their terms, it adds none */
  addInstruments: boolean;
}

function set<K extends keyof EightKTerms>(r: Reading, field: K, value: EightKTerms[K] | null | undefined, quote: string) {
  if (value === null || value === undefined || r.terms[field] !== null) return;
  r.terms[field] = value;
  r.evidence[field] = quote;
}

interface Match {
  sentence: Sentence;
  match: RegExpExecArray;
}

/** Every match of a pattern in the sentences, in order. */
function matchesIn(sentences: Sentence[], pattern: RegExp): Match[] {
  const global = new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
  const out: Match[] = [];
  for (const sentence of sentences) {
    for (const match of sentence.text.matchAll(global)) out.push({ sentence, match: match as RegExpExecArray });
  }
  return out;
}

function firstIn(sentences: Sentence[], pattern: RegExp, accept: (m: Match) => boolean = () => true): Match | null {
  return matchesIn(sentences, pattern).find(accept) ?? null;
}

/** "to repay the Company's outstanding 12% Senior Convertible Notes due …": terms of notes the company already had, not those it sells. */
function namesOtherNotes(m: Match): boolean {
  const before = m.sentence.text.slice(Math.max(0, m.match.index - 80), m.match.index);
  return (
    /\b(?:repay|repaid|repayment of|redeem|redeemed|redemption of|in exchange for|exchanged?|refinanc\w*|retire|retired)\b[^.;]{0,60}$/i.test(before) ||
    /\b(?:its|their|our|the Company[’']s)\s+(?:outstanding|existing|previously issued)\b[^.;]{0,60}$/i.test(before)
  );
}

function quoteMatch(m: Match): string {
  return quoteOf(m.sentence, m.match.index, m.match.index + m.match[0].length);
}

// ───────────────────────────── what agreement ─────────────────────────────

const ENTERED = /\b(?:entered into|enter into|executed|signed|entered|consummated)\b/i;
/** The agreement named right after "entered into": "a securities purchase agreement", "an inducement letter", "a Standby Equity Purchase Agreement". */
const AGREEMENT_NAME = /^\s*(?:into\s+)?(?:an?\s+|the\s+|that certain\s+|a certain\s+|(?:two|three|separate)\s+)?((?:[\w’'-]+\s+){0,6}?(?:agreements?|letters?|notes?|debentures?))\b/i;
const NOT_FINANCING_AGREEMENT =
  /\b(?:employment|consulting|separation|severance|retention|transition|lease|sublease|license|licensing|merger|asset purchase|collaboration|supply|services?|indemnification|settlement|offer letter|change in control|release|joint venture|distribution|manufacturing|research|co-?promotion)\b/i;
const FINANCING_WORDS =
  /\b(?:securities purchase|stock purchase|subscription|at[- ]the[- ]market|sales agent|sales agreement|equity distribution|underwriting agreement|placement agen(?:t|cy)|warrants? to purchase|pre-?funded|convertible|equity line|equity purchase|gross proceeds|registered direct|private placement|public offering|purchase agreement|inducement)\b/i;
const CONVERTIBLE_DEBT_WORDS = /\bconvertible (?:promissory |secured |senior |unsecured )*(?:notes?|debentures?)\b/i;
const EQUITY_LINE =
  /\b(?:standby equity purchase agreement|(?:put|advance|draw-?down) notices?|equity purchase (?:agreement|facility)|equity line|ELOC|committed equity facility|(?:right|option), but not (?:the )?(?:an )?obligation, to (?:sell|issue|require|direct)|commitment shares|right(?:,\s*(?:but not the obligation|from time to time|in its sole discretion),?)*\s+to (?:sell|issue|direct)\b[^;]{0,120}?\bup to \$)/i;

function classify(name: string, sentence: string, section: string): AgreementKind {
  const n = name.toLowerCase();
  if (EQUITY_LINE.test(name) || EQUITY_LINE.test(sentence)) return "equity_line";
  if (/underwriting agreement/.test(n)) return "underwriting";
  if (/placement agen(?:cy|t) agreement|engagement (?:letter|agreement)/.test(n)) return "placement_agency";
  if (/inducement|warrant (?:exercise|amendment)/.test(n)) return "other";
  if (/note purchase|convertible|debenture|\bnote\b/.test(n) || /\bconvertible (?:senior |secured |promissory |unsecured |subordinated )*(?:notes?|debentures?)\b/i.test(sentence)) return "convertible_note";
  if (/purchase agreement/.test(n) && EQUITY_LINE.test(section)) return "equity_line";
  if (/securities purchase|stock purchase|share purchase|subscription|purchase agreement/.test(n)) return "securities_purchase";
  if (/sales agreement|distribution agreement|at[- ]the[- ]market/.test(n)) return "other";
  return "other";
}

/** Agreements that come with a financing but are not the one that sells the securities. */
const ANCILLARY_AGREEMENT = /\b(?:registration rights|lock-?up|leak-?out|voting|support|security|pledge|guarant(?:y|ee)|escrow|subordination|intercreditor|standstill|warrant agen(?:t|cy)|transfer agent)\b/i;
/** "pursuant to the terms of a purchase agreement dated April 7, 2008", "Pursuant to the Securities Purchase Agreement dated as of April 14, 1999". */
const PURSUANT_TO_AGREEMENT = new RegExp(
  String.raw`\b(?:pursuant to|under)\s+(?:the terms of\s+)?(?:an?|the|that certain|a certain)\s+((?:[\w’'-]+\s+){0,5}?agreement)\b(?:\s*\([^)]{0,60}\))?,?\s+(?:dated|entered into)\s+(?:as of\s+)?(?:on\s+)?${DATE}`,
  "gi",
);
/** The company buys its own shares back: "an agreement … to repurchase 26,315,790 shares of common stock … at a price of $19.00 per share". */
const REPURCHASE = /\bagreement\b[^;]{0,80}?\b(?:to|will|agreed to|agrees to)\s+(?:repurchase|buy back)\b[^;]{0,60}?\bshares\b/i;
/** The company buys a business: "agreed to purchase from Philips all of the outstanding capital stock of …". */
const ACQUISITION = /\b(?:agreed to|agrees to|will|to)\s+(?:purchase|acquire)\b[^;]{0,100}?\ball\s+(?:of\s+)?the\s+(?:issued and\s+)?outstanding\s+(?:shares|capital stock|stock|equity|membership interests|ordinary shares)\b/i;
const SELLS_SECURITIES = /\b(?:purchase|subscription|underwriting|placement|securities|notes?|debentures?|exchange|inducement|equity)\b/i;

/**
 * The agreement the item is about: the first one a sentence says was entered
 * into (a registration rights, lock-up, voting or security agreement beside
 * it is not the one); else the one the sale is said to be made under, when
 * its date is given ("pursuant to the Securities Purchase Agreement dated as
 * of April 14, 1999"). Returns false when that agreement is not a financing
 * and the item names none.
 */
function readAgreement(r: Reading, sentences: Sentence[], sectionText: string): boolean {
  for (const s of sentences) {
    if (!ENTERED.test(s.text)) continue;
    const entered = ENTERED.exec(s.text)!;
    const enteredAt = entered.index;
    const primary = AGREEMENT_NAME.exec(s.text.slice(enteredAt + entered[0].length));
    const name = primary ?? /\b((?:[\w’'-]+\s+){0,4}?agreement)\b/i.exec(s.text.slice(enteredAt));
    const nameEnd = name ? (primary ? enteredAt + entered[0].length : enteredAt) + name.index + name[0].length : enteredAt;
    if (!name && !/\bagreement\b/i.test(s.text)) continue;
    const agreementName = name?.[1] ?? "";
    // the name with the words that end it: "a definitive Agreement and Plan of Merger"
    const plan = /^\s*and\s+Plan\s+of\s+(?:Merger|Reorganization|Arrangement|Share Exchange)\b/i.exec(s.text.slice(nameEnd));
    const named = plan ? `${agreementName}${plan[0]}` : agreementName;
    if (ANCILLARY_AGREEMENT.test(agreementName)) continue;
    // "a Share Purchase Agreement … pursuant to which Nuance agreed to purchase … all of the outstanding capital stock of …": an acquisition
    if (ACQUISITION.test(s.text) || REPURCHASE.test(s.text)) return false;
    // a merger or license agreement told beside a financing ("… and a purchase agreement with Warburg Pincus"): look on for the financing's
    if (NOT_FINANCING_AGREEMENT.test(named) && FINANCING_WORDS.test(sectionText)) continue;
    if (NOT_FINANCING_AGREEMENT.test(named) && !FINANCING_WORDS.test(sectionText)) return false;
    if (!FINANCING_WORDS.test(sectionText) && !EQUITY_LINE.test(sectionText)) return false;
    const quote = quoteOf(s, enteredAt, enteredAt + entered[0].length + (name ? name.index + name[0].length : 0));
    set(r, "agreement_kind", classify(agreementName, s.text, sectionText), quote);
    const date = new RegExp(`(?:^|\\b(?:On|on|dated|Dated|as of|As of|effective)\\s+(?:as of\\s+)?)${DATE}`).exec(s.text);
    const iso = date ? isoDate(date[1]!) : null;
    if (date && iso) set(r, "agreement_date", iso, quoteOf(s, date.index, date.index + date[0].length));
    return true;
  }
  const financing = FINANCING_WORDS.test(sectionText) || EQUITY_LINE.test(sectionText);
  // "On March 8, 2023, we issued and sold a convertible promissory note … to Yorkville under the Standby Equity Purchase Agreement dated …": the note is this 8-K's agreement, not the facility it was sold under
  const noteSold = firstIn(sentences, NOTE_SOLD_ON);
  if (financing && noteSold) {
    set(r, "agreement_kind", "convertible_note", quoteMatch(noteSold));
    const iso = isoDate(noteSold.match[1]!);
    if (iso) set(r, "agreement_date", iso, quoteMatch(noteSold));
    return true;
  }
  if (financing) readAgreementMadeUnder(r, sentences, sectionText);
  return financing;
}

const NOTE_SOLD_ON = new RegExp(String.raw`\bOn ${DATE},? (?:we|the Company) (?:issued and sold|sold and issued|issued|sold) (?:a|an|one) (?:[\w%.$,-]+ ){0,4}?convertible (?:promissory |secured |senior |unsecured )*(?:note|debenture)\b`, "gi");

/** The dated agreement a sale is said to be made under ("… sold … pursuant to the terms of a purchase agreement dated April 7, 2008"): its kind and date. */
function readAgreementMadeUnder(r: Reading, sentences: Sentence[], sectionText: string) {
  if (r.terms.agreement_kind !== null) return;
  const found = firstIn(sentences, PURSUANT_TO_AGREEMENT, (m) => {
    const name = m.match[1]!;
    // "warrants originally issued under the Securities Purchase Agreement dated June 1, 2021": an earlier sale's agreement, not this one's
    const before = m.sentence.text.slice(Math.max(0, m.match.index - 60), m.match.index);
    if (/\b(?:originally|previously|initially|earlier|formerly|then)\s+(?:issued|sold|granted|purchased|acquired)\s*$/i.test(before)) return false;
    return SELLS_SECURITIES.test(name) && !ANCILLARY_AGREEMENT.test(name) && !NOT_FINANCING_AGREEMENT.test(name);
  });
  if (!found) return;
  const quote = quoteMatch(found);
  set(r, "agreement_kind", classify(found.match[1]!, found.sentence.text, sectionText), quote);
  const iso = isoDate(found.match[2]!);
  if (iso) set(r, "agreement_date", iso, quote);
}

// ───────────────────────────── agents and purchasers ─────────────────────────────

const ROLE = String.raw`(placement agents?|underwriters?|representative(?: of the (?:several )?underwriters)?|book-?running managers?|sales agents?|agent)`;
const AGENT_PATTERNS: RegExp[] = [
  new RegExp(String.raw`\b(?:engaged|retained|appointed)\s${FIRM},?\s(?:to act\s|to serve\s)?as\s(?:the\s|its\s|our\s|the Company['’]s\s)?(?:exclusive\s|sole\s|lead\s)?${ROLE}`, "g"),
  new RegExp(String.raw`${FIRM}(?:\s\([^)]{1,40}\))?,?\s(?:is acting|acted|will act|has agreed to act|agreed to act|served|is serving|will serve)\sas\s(?:the\s)?(?:exclusive\s|sole\s|lead\s)?${ROLE}`, "g"),
  new RegExp(String.raw`\b(?:[Pp]lacement [Aa]gen(?:cy|t) [Aa]greement|[Ee]ngagement (?:[Ll]etter|[Aa]greement)|[Uu]nderwriting [Aa]greement|[Ss]ales [Aa]greement|[Ee]quity [Dd]istribution [Aa]greement|[Aa]t[- ][Tt]he[- ][Mm]arket[^;]{0,40}?[Aa]greement)[^;]{0,80}?\swith\s${FIRM}`, "g"),
  new RegExp(String.raw`\b${PROPER_NAME}\s\((?:the\s)?[“"](Placement Agent|Underwriter|Representative|Sales Agent|Agent)[”"]`, "g"),
  new RegExp(String.raw`\b${PROPER_NAME},?\s(?:acted|is acting|will act|acting|served|serves|is serving|will serve)\sas\s(?:the\s|its\s|our\s|the Company['’]s\s)?(?:exclusive\s|sole\s|lead\s)?${ROLE}`, "g"),
];

function roleOf(word: string, context: string): EightKAgentRole {
  const w = word.toLowerCase();
  if (/underwriter|representative|book/.test(w)) return "underwriter";
  if (/sales agent/.test(w)) return "sales_agent";
  if (/placement/.test(w)) return "placement_agent";
  if (/underwriting agreement/i.test(context)) return "underwriter";
  if (/sales agreement|distribution agreement|at[- ]the[- ]market/i.test(context)) return "sales_agent";
  return "placement_agent";
}

function readAgent(r: Reading, sentences: Sentence[]) {
  for (const s of sentences) {
    for (const pattern of AGENT_PATTERNS) {
      pattern.lastIndex = 0;
      for (const m of s.text.matchAll(pattern)) {
        const name = cleanName(m[1]!);
        if (NOT_A_NAME.test(name) || name.length < 3) continue;
        const role = roleOf(m[2] ?? "", m[0]);
        const quote = quoteOf(s, m.index, m.index + m[0].length);
        set(r, "placement_agent", name, quote);
        set(r, "agent_role", role, quote);
        return;
      }
    }
  }
}

const PARTY_ROLE = String.raw`(?:Initial\s)?(?:Purchasers?|Investors?|Buyers?|Holders?|Lenders?|Subscribers?|Noteholders?|Selling Stockholders?)`;
/** FIRM without its capture group, to build lists of firms. */
const FIRM_NC = `(?:${FIRM.slice(1, -1)})`;
/** Firms one after another: "Citigroup Global Markets Inc. and Goldman, Sachs & Co.", "A LLC, B, Inc. and C Ltd." */
const FIRM_LIST = String.raw`${FIRM_NC}(?:(?:,\s(?:and\s)?|,?\sand\s)${FIRM_NC})*`;
const PURCHASER_PATTERNS: RegExp[] = [
  new RegExp(String.raw`\b(?:with|to|and|by|among|between)\s(${FIRM_LIST})(?:,\s(?:an?|the)\s[A-Za-z][^,()]{0,60})?,?\s\((?:each,?\s|collectively,?\s|together,?\s)?(?:the\s|a\s|an\s)?[“"]${PARTY_ROLE}[”"]`, "g"),
  new RegExp(String.raw`\b(?:with|to)\s${PROPER_NAME}(?:,\s(?:an?|the)\s[A-Za-z][^,()]{0,60})?,?\s\((?:each,?\s|collectively,?\s|together,?\s)?(?:the\s|a\s|an\s)?[“"]${PARTY_ROLE}[”"]`, "g"),
  // the firm a securities or note purchase agreement is made with, by its legal name and a short name: "a Securities Purchase Agreement with Mast Hill Fund, L.P. (“Mast Hill”)"
  new RegExp(String.raw`\b(?:securities|note|stock|share|subscription)\s(?:purchase\s)?agreement\b[^;.]{0,80}?\bwith\s(${FIRM_NC})(?:,\s(?:an?|the)\s[A-Za-z][^,()]{0,60})?,?\s\((?:the\s)?[“"][A-Z][^”"]{1,30}[”"]\)`, "gi"),
];
/** The parties of a purchase agreement "among the Company, A LLC, B, Inc. and C": the list starts after the company. */
const AMONG_THE_COMPANY = /\b(?:purchase|subscription) agreement\b[^;]{0,80}?\b(?:by and )?among\s+(?:the Company|us|the Registrant)(?:,\s*|\s+and\s+)/gi;
/** "sold 5,760,369 shares … to Warburg Pincus Private Equity VIII, L.P. and certain of its affiliated entities (collectively “Warburg Pincus”)" */
const SOLD_TO = new RegExp(
  String.raw`\b(?:sold|issued and sold|sell|issue and sell)\b[^;]{0,250}?\bto\s(${FIRM_LIST})(?=\s+and\s+(?:certain\s+of\s+)?(?:its|their)\s+affiliat|\s*\((?:collectively|together)\b|\s*\([“"][A-Z]|,\s|\s+pursuant\b|\s+in\s+(?:a|the)\b|\s+for\b|\.?$)`,
  "g",
);

/** The firms of a list, each as written, from its start: firms with a legal suffix, and last after "and" a capitalised name without one when `lastMayBeName`. */
function firmsOf(list: string, lastMayBeName: boolean): string[] {
  const firm = new RegExp(FIRM, "y");
  const out: string[] = [];
  let at = 0;
  for (;;) {
    firm.lastIndex = at;
    const m = firm.exec(list);
    if (!m) {
      const name = lastMayBeName && out.length > 0 && /(?:^|\sand\s)$/.test(list.slice(Math.max(0, at - 5), at)) ? /^((?:[A-Z][A-Za-z0-9.'’&-]*)(?:\s(?:[A-Z][A-Za-z0-9.'’&-]*|of|&)){1,6})(?=,|\s\(|\.|;|$|\s(?:as|which|each|who|collectively)\b)/.exec(list.slice(at)) : null;
      if (name && !NOT_A_NAME.test(name[1]!)) out.push(cleanName(name[1]!));
      break;
    }
    out.push(cleanName(m[1]!));
    at = firm.lastIndex;
    const sep = /^(?:,\s(?:and\s)?|,?\sand\s)/.exec(list.slice(at));
    if (!sep) break;
    at += sep[0].length;
  }
  return out;
}

/**
 * The purchasers the items name: firms defined as the purchasers or
 * investors ("with A and B (the “Initial Purchasers”)"), the parties of a
 * purchase agreement besides the company ("among the Company, A LLC, B, Inc.
 * and C"), or the firm securities are said to be sold to ("sold … to A, L.P.
 * and certain of its affiliated entities"). Never the placement agent or
 * underwriter, nor a class of buyers ("certain institutional investors").
 */
function readPurchasers(r: Reading, sentences: Sentence[]) {
  const names: string[] = [];
  const quotes: string[] = [];
  const add = (name: string, s: Sentence, start: number, end: number) => {
    if (NOT_A_NAME.test(name) || name.length < 3 || !/[A-Za-z]/.test(name)) return;
    if (/\b(?:investors?|purchasers?|holders?)\b/i.test(name)) return;
    if (r.terms.placement_agent && nameKey(r.terms.placement_agent) === nameKey(name)) return;
    if (names.some((n) => n.toLowerCase() === name.toLowerCase())) return;
    names.push(name);
    quotes.push(quoteOf(s, start, end));
  };
  for (const s of sentences) {
    const before = names.length;
    for (const pattern of PURCHASER_PATTERNS) {
      for (const m of s.text.matchAll(pattern)) {
        const parts = pattern === PURCHASER_PATTERNS[0] ? firmsOf(m[1]!, false) : m[1]!.split(/\s(?:and)\s|;\s/).map(cleanName);
        for (const part of parts) add(part, s, m.index, m.index + m[0].length);
      }
      if (names.length > before) break;
    }
    if (names.length > before) continue;
    for (const m of s.text.matchAll(AMONG_THE_COMPANY)) {
      const listAt = m.index + m[0].length;
      const firms = firmsOf(s.text.slice(listAt), true);
      const end = firms.length ? s.text.indexOf(firms[firms.length - 1]!, listAt) + firms[firms.length - 1]!.length : listAt;
      for (const firm of firms) add(firm, s, m.index, end);
    }
    if (names.length > before) continue;
    for (const m of s.text.matchAll(SOLD_TO)) {
      if (!/\b(?:shares|warrants?|notes?|debentures?|securities|units|preferred|stock)\b/i.test(m[0].slice(0, m[0].length - m[1]!.length))) continue;
      const listAt = m.index + m[0].length - m[1]!.length;
      for (const firm of firmsOf(m[1]!, false)) add(firm, s, listAt, m.index + m[0].length);
    }
  }
  if (!names.length || r.terms.purchasers !== null) return;
  r.terms.purchasers = names;
  names.forEach((_, i) => (r.evidence[`purchasers[${i}]`] = quotes[i]!));
}

// ───────────────────────────── shares, price, proceeds ─────────────────────────────

const SALE = /\b(?:sell|sold|sale|issue|issued|issuance|purchase|purchased|offering|offered|offer|subscribe|subscribed|consisting of|comprised of)\b/i;
/** Sentences about other shares: outstanding, authorized, reserved, resold, owned, locked up, or an equity line's possible sales. */
const OTHER_SHARES =
  /\b(?:repurchase|repurchased|buy back|bought back|outstanding|authorized|reserved?|resale|beneficial(?:ly)?|lock-?up|may sell|may issue|from time to time|right, but not the obligation|commitment (?:fee|shares)|as (?:a )?commitment|not to exceed|exchange cap|19\.99%|4\.99%|9\.99%)\b/i;
const SHARES_SOLD = new RegExp(
  String.raw`(?<![\d,.$])${COUNT_TEXT}(?:\s*\([\d,]+\))?\s+(?:newly[- ]issued\s+|registered\s+|unregistered\s+|restricted\s+)?(?:shares|ordinary shares|common shares|American Depositary Shares|ADSs|units)\b`,
  "gi",
);

function readShares(r: Reading, sentences: Sentence[]): Sentence | null {
  for (const m of matchesIn(sentences, SHARES_SOLD)) {
    const s = m.sentence.text;
    if (!SALE.test(s) || OTHER_SHARES.test(s)) continue;
    const before = s.slice(Math.max(0, m.match.index - 90), m.match.index);
    const after = s.slice(m.match.index + m.match[0].length, m.match.index + m.match[0].length + 90);
    if (/\b(?:warrants?|options?|notes?|debentures?|preferred stock|rights?)\b[^;]{0,60}?(?:to purchase|exercisable (?:for|into)|convertible into|to acquire|for the purchase of|into)\s+(?:up to\s+)?(?:an aggregate of\s+)?(?:a total of\s+)?(?:up to\s+)?$/i.test(before)) continue;
    // "warrant transactions … to purchase, subject to customary anti-dilution adjustments, 19,093,100 shares"
    if (/\bto (?:purchase|acquire),\s+subject to [^,;]{0,60}?adjustments?,\s+(?:up to\s+)?(?:an aggregate of\s+)?$/i.test(before)) continue;
    // "five-year warrants for approximately 909,000 shares"
    if (/\bwarrants?\s+for\s+(?:up to\s+)?(?:approximately\s+|about\s+)?(?:an aggregate of\s+)?$/i.test(before)) continue;
    if (/\b(?:additional|underlying|issuable|up to)\s*$/i.test(before)) continue;
    // "Bain agreed to exchange 3,500,000 shares of … Common Stock for … pre-funded warrants", "the new note was exchanged … for approximately 2.5 million … shares": given up or issued in an exchange, not sold
    if (/\bexchange(?:d)?\s+(?:concurrently\s+|immediately\s+)?(?:for\s+)?(?:approximately\s+|an aggregate of\s+)?$/i.test(before)) continue;
    if (/^\s*(?:\([^)]{0,60}\)\s*)?(?:of\s+(?:the Company['’]s\s+|its\s+|our\s+)?)?(?:series\s+[\w-]+\s+)?(?:convertible\s+)?preferred/i.test(after)) continue;
    if (/^[^;]{0,50}?\b(?:issuable|underlying|upon (?:the )?(?:exercise|conversion)|reserved)\b/i.test(after)) continue;
    const units = /units$/i.test(m.match[0]);
    if (units && !/^[^;]{0,40}?\beach (?:unit )?(?:consisting of|comprised of|composed of) (?:one|1) (?:share|ordinary share|common share)/i.test(after)) continue;
    const value = countOf(m.match[1]!);
    if (value === null || value < 1) continue;
    set(r, "common_shares", value, quoteMatch(m));
    return m.sentence;
  }
  return null;
}

const PRICE_PATTERNS = [
  new RegExp(String.raw`\b(?:combined\s+)?(?:public\s+)?(?:offering|purchase) price (?:of|for) each (?:share|Share|unit|Unit)\b[^$.;]{0,100}?\b(?:is|was|will be|of|equals)\s+${MONEY}`, "gi"),
  new RegExp(String.raw`\b(?:combined\s+)?(?:public\s+)?offering price\s+(?:of|is|was|will be|equal to|per (?:share|unit|Share|Unit)(?:\s+and (?:the\s+)?accompanying[\w\s-]{0,60}?)?\s+(?:of|is|was))\s+${MONEY}`, "gi"),
  new RegExp(String.raw`\b(?:combined\s+)?(?<!aggregate\s)purchase price\s+(?:of|is|was|will be|equal to|per (?:share|unit|Share|Unit)(?:\s+and (?:the\s+)?accompanying[\w\s-]{0,60}?)?\s+(?:of|is|was))\s+${MONEY}`, "gi"),
  new RegExp(String.raw`\bat (?:a (?:combined\s+)?(?:purchase |offering |sale )?price of\s+)?${MONEY}\s+per (?:share|unit|Share|Unit)\b`, "gi"),
];

function readPrice(r: Reading, sentences: Sentence[], sharesSentence: Sentence | null) {
  const ordered = sharesSentence ? [sharesSentence, ...sentences.filter((s) => s !== sharesSentence)] : sentences;
  for (const pattern of PRICE_PATTERNS) {
    const found = firstIn(ordered, pattern, (m) => {
      const s = m.sentence.text;
      const before = s.slice(Math.max(0, m.match.index - 40), m.match.index);
      const after = s.slice(m.match.index + m.match[0].length, m.match.index + m.match[0].length + 40);
      if (/\b(?:exercise|conversion|closing|bid|market|floor|minimum|par)\s*(?:price\s*)?$/i.test(before)) return false;
      if (/^\s*(?:per\s+)?(?:pre-?funded|warrant|note|preferred)/i.test(after)) return false;
      if (/\bunderwriters?\b[^.]{0,40}\b(?:agreed to|will) purchase\b/i.test(s) || /\bnet of\b|\bdiscount\b/i.test(s.slice(m.match.index, m.match.index + m.match[0].length + 20))) return false;
      if (/\bexercise price\b|\bconversion price\b/i.test(m.match[0])) return false;
      // "… is convertible into shares of our common stock at a price of $0.0125 per share": a conversion price
      if (/\b(?:convertible|exercisable|convert(?:ed)?|exercised?)\b[^.;$]{0,80}$/i.test(s.slice(Math.max(0, m.match.index - 100), m.match.index))) return false;
      // "upon receiving the purchase price of $250,000": a note's or a sale's total, not a price per share
      if (!/\bper\b|\beach\b/i.test(m.match[0]) && !/^\s*per\b/i.test(after) && (money(m.match[1]!, undefined) ?? 0) >= 1000) return false;
      // "$100.0 million", "sold 5,760,369 shares … for a purchase price of $100.0 million": what the shares cost together, not each
      if (m.match[2]) return false;
      const upToAmount = s.slice(Math.max(0, m.match.index - 30), m.match.index + m.match[0].indexOf("$"));
      if (/\bfor\s+(?:a|an|the)\s+(?:aggregate\s+|total\s+)?(?:combined\s+)?(?:purchase|offering)\s+price\s+of\s*$/i.test(upToAmount) && !/^\s*per\b/i.test(after)) return false;
      return true;
    });
    if (found) {
      set(r, "price_per_share", money(found.match[1]!, found.match[2]), quoteMatch(found));
      return;
    }
  }
}

const GROSS = new RegExp(String.raw`\b(?:aggregate\s+|total\s+)?gross proceeds\b([^;$]{0,90}?)${MONEY}|${MONEY}\s+(?:in\s+)?(?:aggregate\s+)?gross proceeds\b`, "gi");
const HYPOTHETICAL = /\b(?:additional|potential|if|assuming|full exercise|upon (?:the )?(?:full )?(?:cash )?exercise|may|could|up to|would|maximum)\b/i;

function readProceeds(r: Reading, sentences: Sentence[]) {
  const found = firstIn(sentences, GROSS, (m) => {
    const s = m.sentence.text;
    const before = s.slice(Math.max(0, m.match.index - 60), m.match.index);
    return !HYPOTHETICAL.test(before) && !HYPOTHETICAL.test(m.match[1] ?? "") && !/\bnet\s*$/i.test(before);
  });
  if (!found) {
    // a note sold for its price: "sold … a Convertible Debenture in the principal amount of $5 million for a purchase price of $4.5 million", "In consideration of the Convertible Note and Warrant we received $729,000"
    const paid = firstIn(sentences, NOTE_PRICE_PAID, (m) => /\b(?:notes?|debentures?)\b/i.test(m.sentence.text) && /\b(?:sold|issued|received|purchased)\b/i.test(m.sentence.text) && !HYPOTHETICAL.test(m.sentence.text.slice(0, m.match.index)) && !/\b(?:will|agreed to|second|additional)\b/i.test(m.sentence.text.slice(0, m.match.index)));
    if (paid) set(r, "gross_proceeds", money(paid.match[1] ?? paid.match[3]!, paid.match[1] ? paid.match[2] : paid.match[4]), quoteMatch(paid));
    return;
  }
  const amount = found.match[2] ?? found.match[4]!;
  const scale = found.match[2] ? found.match[3] : found.match[5];
  set(r, "gross_proceeds", money(amount, scale), quoteMatch(found));
}

const NOTE_PRICE_PAID = new RegExp(String.raw`\bfor\s+(?:a|an|the)\s+(?:aggregate\s+)?purchase price of\s+${MONEY}|\b(?:we|the Company)\s+received\s+${MONEY}`, "gi");

// ───────────────────────────── warrants ─────────────────────────────

type WarrantClass = "pre_funded" | "agent" | "existing" | "common";

interface WarrantRef {
  start: number;
  end: number;
  cls: WarrantClass;
  series: string | null;
  /** the entry a counted mention made, when this reference is one */
  entry: Entry | null;
}

interface Entry {
  warrant: EightKWarrant;
  cls: WarrantClass;
  index: number;
}

const MODIFIER_WORD = /^(?:[“"(]?(?:pre-?funded|prefunded|series|tranche|[A-Z]|[A-Z]-?\d{1,2}|\d{1,2}|common|stock|purchase|new|inducement|replacement|placement|agent['’]?s?|underwriter['’]?s?|representative['’]?s?|existing|outstanding|original|old|accompanying|unregistered|registered|short-term|long-term|class|incentive|private|investor|ordinary|share)[”"]?)$/i;
const COUNT_AFTER = new RegExp(
  String.raw`^\s*(?:\([^)]{0,80}\)\s*)?,?\s*(?:to purchase|exercisable (?:for|into)|to acquire|for the purchase of|which are exercisable for|allowing\s+[A-Z][^,;()]{0,60}?\s+to purchase)\s+(?:up to\s+)?(?:an aggregate of\s+)?(?:a total of\s+)?(?:up to\s+)?${COUNT_TEXT}(?:\s*\([\d,]+\))?\s+(?:additional\s+)?(?:shares|ordinary shares|common shares|American Depositary Shares|ADSs)\b`,
  "i",
);
const DEFINED_AFTER = /^[^()]{0,120}?\((?:[^)“"]{0,40})[“"]([^”"]{2,60}?[Ww]arrants?)[”"]/;
const AGENT_CONTEXT_BEFORE = /\b(?:to (?:the )?(?:placement agent|underwriters?|representative|sales agent)|(?:placement agent|underwriters?|representative)(?:\s*\(or (?:its|their) designees?\))?\s*(?:or (?:its|their) designees?)?|(?:its|their) designees?)\b[^;]{0,40}$/i;
const AGENT_CONTEXT_AFTER = /^[^;]{0,80}?\b(?:to (?:the )?(?:placement agent|underwriters?|representative)|(?:placement agent|underwriters?|representative)['’]?s? (?:or (?:its|their) designees )?(?:as|in) (?:partial )?compensation|as (?:partial )?compensation)\b/i;

function classOf(words: string): { cls: WarrantClass; series: string | null } {
  const w = words.toLowerCase();
  const series = /\b(?:series|tranche)\s+([a-z0-9]{1,3}(?:-\d{1,2})?)\b/i.exec(words)?.[1]?.toUpperCase() ?? null;
  if (/pre-?funded|prefunded/.test(w)) return { cls: "pre_funded", series };
  if (/placement|agent|underwriter|representative/.test(w)) return { cls: "agent", series };
  if (/existing|outstanding|original|\bold\b/.test(w)) return { cls: "existing", series };
  return { cls: "common", series };
}

/** The modifier words right before a "warrant(s)" at `index` ("Series A-1 Common Stock Purchase"). */
function modifiersBefore(s: string, index: number): string {
  const words = s.slice(Math.max(0, index - 70), index).split(/\s+/).filter(Boolean);
  const out: string[] = [];
  for (let i = words.length - 1; i >= 0 && out.length < 5; i--) {
    if (!MODIFIER_WORD.test(words[i]!)) break;
    out.unshift(words[i]!);
  }
  return out.join(" ");
}

interface WarrantReading {
  entries: Entry[];
  /** references per sentence, in order */
  refs: Map<Sentence, WarrantRef[]>;
}

function sameEntry(a: EightKWarrant, b: EightKWarrant): boolean {
  return a.shares === b.shares && a.pre_funded === b.pre_funded && a.series === b.series && a.existing === b.existing;
}

function readWarrantMentions(r: Reading, sentences: Sentence[], inducement: boolean, repricing: boolean): WarrantReading {
  const entries = r.entries;
  const refs = new Map<Sentence, WarrantRef[]>();
  for (const s of sentences) {
    const list: WarrantRef[] = [];
    for (const m of s.text.matchAll(/\bwarrants?\b/gi)) {
      const after = s.text.slice(m.index + m[0].length);
      if (/^\s*(?:shares|agent|agreements?|holders?|amendments?|certificates?|register)\b/i.test(after)) continue;
      const mods = modifiersBefore(s.text, m.index);
      const defined = DEFINED_AFTER.exec(after)?.[1] ?? "";
      const beforeMods = s.text.slice(0, m.index - (mods ? mods.length + 1 : 0));
      const named = classOf(`${mods} ${defined}`);
      const series = named.series;
      let cls = named.cls;
      // "issue to the Placement Agent (or its designees) warrants to purchase …"
      if (cls === "common" && AGENT_CONTEXT_BEFORE.test(beforeMods.slice(-120)) && !/\b(?:purchasers?|investors?|holders?)\b/i.test(beforeMods.slice(-60))) cls = "agent";
      const counted = COUNT_AFTER.exec(after);
      const countBefore = new RegExp(`(?<![\\d,.$])${COUNT_TEXT}\\s+$`).exec(beforeMods);
      const countText = counted?.[1] ?? countBefore?.[1] ?? null;
      const shares = countText ? countOf(countText) : null;
      if (cls === "common" && counted && AGENT_CONTEXT_AFTER.test(after.slice(counted[0].length))) cls = "agent";
      const start = countBefore ? countBefore.index : m.index - (mods ? mods.length + 1 : 0);
      const end = m.index + m[0].length + (counted ? counted[0].length : 0);
      let entry: Entry | null = null;
      if (shares !== null && shares > 0 && (cls !== "existing" || inducement || repricing)) {
        const warrant: EightKWarrant = {
          shares,
          exercise_price: null,
          term_years: null,
          expiry: null,
          exercisable: null,
          pre_funded: cls === "pre_funded",
          series,
          inducement: inducement && cls !== "agent",
          existing: cls === "existing",
        };
        const list2 = cls === "agent" ? r.terms.agent_warrants : r.terms.warrants;
        const same = entries.find((e) => e.cls === cls && sameEntry(e.warrant, warrant));
        if (same) entry = same;
        else if (r.addInstruments) {
          const path = `${cls === "agent" ? "agent_warrants" : "warrants"}[${list2.length}]`;
          list2.push(warrant);
          const quote = quoteOf(s, start, end);
          r.evidence[`${path}.shares`] = quote;
          if (series) r.evidence[`${path}.series`] = quote;
          if (warrant.pre_funded) r.evidence[`${path}.pre_funded`] = quote;
          if (warrant.existing) r.evidence[`${path}.existing`] = quote;
          entry = { warrant, cls, index: list2.length - 1 };
          entries.push(entry);
        }
      }
      list.push({ start, end, cls, series, entry });
    }
    refs.set(s, list);
  }
  return { entries, refs };
}

/** The entries a property at `at` of the sentence is about: the reference just before it, and those joined to it by "and" / commas. */
function targetsOf(w: WarrantReading, s: Sentence, at: number): Entry[] | null {
  const list = (w.refs.get(s) ?? []).filter((ref) => ref.end <= at);
  if (list.length === 0) {
    if (s.previous && /^(?:They|These|Such|It|Each of them)\b/.test(s.text)) {
      const previous = w.refs.get(s.previous) ?? [];
      return previous.length ? entriesOf(w, [previous[previous.length - 1]!]) : null;
    }
    return null;
  }
  const group = [list[list.length - 1]!];
  for (let i = list.length - 2; i >= 0; i--) {
    const between = s.text.slice(list[i]!.end, group[0]!.start);
    if (!/^\s*(?:,|and|or|,\s*and)\s*(?:the\s+)?$/i.test(between)) break;
    group.unshift(list[i]!);
  }
  return entriesOf(w, group);
}

function entriesOf(w: WarrantReading, group: WarrantRef[]): Entry[] {
  const out: Entry[] = [];
  for (const ref of group) {
    const matches = ref.entry
      ? [ref.entry]
      : w.entries.filter((e) => e.cls === ref.cls && (ref.series === null || e.warrant.series === ref.series));
    for (const e of matches) if (!out.includes(e)) out.push(e);
  }
  return out;
}

function setWarrant<K extends keyof EightKWarrant>(r: Reading, e: Entry, field: K, value: EightKWarrant[K] | null, quote: string) {
  if (value === null || e.warrant[field] !== null) return;
  e.warrant[field] = value;
  r.evidence[`${e.cls === "agent" ? "agent_warrants" : "warrants"}[${e.index}].${field}`] = quote;
}

const EXERCISE_PRICE = new RegExp(
  String.raw`\b((?:reduced|new|amended|lowered|adjusted|original|current|existing|prior|previous|initial)\s+)?exercise price\s+(?:per (?:warrant\s+)?share\s+)?(?:of|equal to|is|will be|shall be|(?:of|for) (?:the|each) [\w\s’'-]{0,60}?warrants? (?:is|will be|shall be))\s+(?:US)?${MONEY}|\b(?:exercisable|exercised)\s+at\s+(?:a price of\s+)?${MONEY}\s+per\s+share|\breduc\w*\s+the exercise price\b[^;$]{0,100}?\bto\s+${MONEY}`,
  "gi",
);
const TERM = new RegExp(
  String.raw`\b(?:expire|expires|expiring|terminate|terminates|term of|exercisable for a period of|exercisable until|expiration date (?:that is|of))\b[^;]{0,50}?\b(${NUMBER_WORD}(?:\s+and\s+(?:one-)?(?:a\s+)?half)?)(?:\s*\(\d+(?:\.\d+)?\))?[- ]?(years?|months?)\b|\b(${NUMBER_WORD}(?:\s+and\s+(?:one-)?half)?)(?:\s*\(\d+(?:\.\d+)?\))?[- ](year|month)\s+(?:term|anniversary|warrants?)`,
  "gi",
);
const EXPIRY = new RegExp(String.raw`\b(?:expire|expires|expiring|expiration date(?: of| is)?|exercisable\s+(?:at any time\s+)?(?:until|before|prior to|through))\b[^;]{0,60}?\b(?:on\s+)?${DATE}`, "gi");
const EXERCISABLE = new RegExp(
  String.raw`\b(?:immediately exercisable|exercisable immediately|(?:may|will) be exercised immediately|(?:exercisable (?:at any time )?(?:(?:commencing|beginning|starting)\s+(?:on or after\s+|on\s+|upon\s+)?|(?:on or after|upon|following|after|on|at any time after)\s+)|(?:may|will|can) be exercised (?:(?:commencing|beginning|starting)\s+(?:on or after\s+|on\s+|upon\s+)?|on or after\s+))(${DATE.slice(1, -1)}|(?:the )?(?:date of |receipt of |effective date of )?[^,.;]{3,80})|not (?:be )?exercisable (?:until|prior to|before) (${DATE.slice(1, -1)}|[^,.;]{3,80}))`,
  "gi",
);

function readWarrantTerms(r: Reading, w: WarrantReading, sentences: Sentence[]) {
  for (const m of matchesIn(sentences, EXERCISE_PRICE)) {
    const qualifier = (m.match[1] ?? "").trim().toLowerCase();
    if (/^(?:original|current|existing|prior|previous)$/.test(qualifier)) continue;
    const reducedWords = /^(?:reduced|lowered|amended|new)$/.test(qualifier) || /^reduc/i.test(m.match[0]);
    const before = m.sentence.text.slice(Math.max(0, m.match.index - 60), m.match.index);
    // "originally issued in 2024 with an exercise price of $6.00": the price the repricing replaces
    if (!reducedWords && /\b(?:original(?:ly)?|current(?:ly)?|prior|previous(?:ly)?)\b[^;$]{0,50}$/i.test(before)) continue;
    const amount = m.match[2] ?? m.match[4] ?? m.match[6]!;
    const scale = m.match[2] ? m.match[3] : m.match[4] ? m.match[5] : m.match[7];
    const after = m.sentence.text.slice(m.match.index + m.match[0].length, m.match.index + m.match[0].length + 30);
    if (/^\s*%/.test(after)) continue;
    // the warrants named before the price, inside the phrase too ("the exercise price of each Underwriter’s Warrant is $2.40")
    const targets = targetsOf(w, m.sentence, m.match.index + m.match[0].lastIndexOf("$")) ?? [];
    const reduced = reducedWords && qualifier !== "new";
    const chosen = reduced && targets.every((t) => t.cls !== "existing") ? w.entries.filter((e) => e.cls === "existing") : targets;
    for (const e of chosen.length ? chosen : targets) setWarrant(r, e, "exercise_price", money(amount, scale), quoteMatch(m));
  }
  for (const m of matchesIn(sentences, TERM)) {
    const n = numberOf(m.match[1] ?? m.match[3]!);
    const unit = (m.match[2] ?? m.match[4]!).toLowerCase();
    if (n === null) continue;
    if (/\b(?:note|debenture|agreement|lock-?up|purchase agreement|commitment|facility)\b/i.test(m.match[0])) continue;
    const years = unit.startsWith("month") ? (n % 12 === 0 || n === 18 || n === 6 ? n / 12 : null) : n;
    if (years === null) continue;
    // "five-year warrants": the warrants the match ends with; "… expire five years from …": those named before it
    const at = m.match[3] ? m.match.index + m.match[0].length : m.match.index;
    for (const e of targetsOf(w, m.sentence, at) ?? []) if (!e.warrant.pre_funded) setWarrant(r, e, "term_years", years, quoteMatch(m));
  }
  for (const m of matchesIn(sentences, EXPIRY)) {
    const iso = isoDate(m.match[1]!);
    if (!iso) continue;
    for (const e of targetsOf(w, m.sentence, m.match.index) ?? []) setWarrant(r, e, "expiry", iso, quoteMatch(m));
  }
  for (const m of matchesIn(sentences, EXERCISABLE)) {
    const rest = m.match[1] ?? m.match[2];
    // the clause, without the next one joined by "and will expire …"
    const clause = (rest ?? "").replace(/\s+(?:and|but|or)\s+(?:will|shall|may|are|is|have|has|expires?|terminates?|must)\b.*$/i, "").trim();
    // a day is written as a date ("beginning on September 14, 2022" → 2022-09-14), as the expiry is
    const day = isoDate(clause);
    const text = /immediately/i.test(m.match[0]) ? "immediately" : day ?? (m.match[2] ? `after ${clause}` : clause);
    if (/^(?:for|into)\b/i.test(text)) continue;
    for (const e of targetsOf(w, m.sentence, m.match.index) ?? []) setWarrant(r, e, "exercisable", text, quoteMatch(m));
  }
}

// ───────────────────────────── convertible notes ─────────────────────────────

const NOTE_WORDS = String.raw`(?:notes?|debentures?)`;
const PRINCIPAL = new RegExp(
  String.raw`\b${NOTE_WORDS}\b[^;$]{0,80}?\b(?:aggregate\s+|original\s+|initial\s+|stated\s+)*principal amount\s+(?:of\s+)?(?:up to\s+)?${MONEY}|${MONEY}\s+(?:in\s+)?(?:aggregate\s+|original\s+|initial\s+)*principal amount of\s+(?:the Company['’]s\s+|its\s+|our\s+)?(?:[\w.%’'-]+\s+){0,6}?${NOTE_WORDS}\b`,
  "gi",
);
const CONVERSION_PRICE = new RegExp(
  String.raw`\bconversion price\s+(?:per share\s+)?(?:of|equal to|is|will be|shall be|initially equal to|initially of)\s+(?:(?:the lesser|the lower) of\s+(?:\((?:i|a|1)\)\s+)?(?:[^$;()]{0,80}?\b(?:initially|of|equal to|is)\s+)?)?(?:approximately\s+|about\s+)?${MONEY}|\bconvertible\b[^;$]{0,100}?\bat\s+(?:a (?:fixed\s+)?(?:conversion\s+)?price of\s+)?${MONEY}\s+per\s+share`,
  "gi",
);
const CONVERSION_PERCENT = /\b(?:conversion price|convertible|conversion|converted)\b[^;]{0,200}?\b(\d{1,3}(?:\.\d+)?)\s?%\s+(?:of\s+the\s+(?:lowest|average|lower|daily|volume|closing|market|trading|VWAP|average of))/gi;
const CONVERSION_DISCOUNT = /\b(?:conversion price|convertible|conversion|converted)\b[^;]{0,200}?\b(\d{1,2}(?:\.\d+)?)\s?%\s+discount\s+(?:to|from|off)\b/gi;
const INTEREST = /\b(?:bears?|bearing|accrues?|accruing|accrue|provides? for|carr(?:y|ies))\s+interest\s+at\s+(?:(?:a|the)\s+)?(?:fixed\s+)?(?:annual\s+)?(?:rate\s+)?(?:of\s+)?(\d{1,2}(?:\.\d+)?)\s?%|\binterest(?:\s+rate)?\s+(?:of|at|equal to)\s+(\d{1,2}(?:\.\d+)?)\s?%\s+per\s+(?:annum|year)/gi;
/** A note named by its rate: "2.75% Senior Convertible Debentures", "6% Subordinated Convertible Debentures". */
const COUPON = /(?<![\d.])(\d{1,2}(?:\.\d{1,3})?)\s?%\s+(?:(?:[A-Z][\w-]*|and)\s+){0,5}?Convertible\s+(?:(?:[A-Z][\w-]*)\s+){0,3}?(?:Notes?|Debentures?)\b/g;
/** "mature on August 15, 2027", "due April 15, 2004", "due 12 months from the issuance date", a summary's "Maturity. August 15, 2027." */
const MATURITY = new RegExp(
  String.raw`\b(?:matur(?:e|es|ing|ity date)|due)\b[^;]{0,60}?(?:${DATE}|\b(${NUMBER_WORD})(?:\s*\(\d+\))?[- ](months?|years?)\s+((?:after|from|following)\s+[^,.;]{3,40}))|^Maturity(?: Date)?\.\s+${DATE}\.?$`,
  "gi",
);

/** "… on September 15, 2023 (the “Maturity Date”)", "The principal amount of the Convertible Note … is payable on October 29, 2022". */
const MATURITY_STATED = new RegExp(String.raw`${DATE}\s*\((?:the\s+)?[“"]Maturity Date[”"]\)|\bprincipal\b[^;.]{0,100}?\b(?:is|are|shall be|will be)\s+(?:due and\s+)?payable\s+(?:in full\s+|in a lump sum\s+)?on\s+${DATE}`, "gi");

function readNotes(r: Reading, sentences: Sentence[], sectionText: string) {
  const convertible = /\bconvertible\b|\bconversion price\b|\bconverted into\b/i.test(sectionText);
  if (!convertible) return;
  const notes = r.terms.convertible_notes;
  /** per note: the name it is defined by ("Debentures"), and whether its principal was told as sold (not only as agreed to be sold) */
  const known = new Map<EightKNote, { name: string | null; sold: boolean }>();
  const upTo = new Set<EightKNote>();
  for (const m of matchesIn(sentences, PRINCIPAL)) {
    const value = money(m.match[1] ?? m.match[3]!, m.match[1] ? m.match[2] : m.match[4]);
    if (value === null || notes.some((n) => n.principal === value) || !r.addInstruments) continue;
    if (/\b(?:promissory note|note)\b/i.test(m.match[0]) && !/\bconvert/i.test(sectionText)) continue;
    const text = m.sentence.text;
    const amountAt = m.match.index + m.match[0].indexOf("$");
    const before = text.slice(Math.max(0, amountAt - 60), amountAt);
    // "51.3736 shares per $1,000 principal amount of Debentures", "the trading price for $1,000 principal amount": a denomination, no note
    if (/\b(?:per|each|every)\s*$|\bprice\s+(?:for|of)\s*$/i.test(before)) continue;
    // "plus up to an additional $30 million aggregate principal amount … at the option of the Initial Purchasers": an option, not what was sold
    if (/\badditional\s*$|\boption to purchase\s+(?:up to\s+)?(?:an?\s+)?$/i.test(before)) continue;
    // "$354.8 million principal amount of its outstanding 1.00% Convertible Debentures" (exchanged, repurchased), "… remain outstanding": notes issued before, not by this financing
    if (/\b(?:outstanding|existing)\b/i.test(m.match[0]) || /^[^;]{0,300}?\bremain(?:s|ed)?\s+outstanding\b/i.test(text.slice(m.match.index + m.match[0].length))) continue;
    const sold = /\b(?:closed|completed|consummated|issued|sold)\b/i.test(text.slice(0, amountAt)) && !/\b(?:agreed to|agrees to|will|to offer|may)\b[^.;]{0,60}$/i.test(text.slice(0, amountAt));
    // "$250 million aggregate principal amount of the Debentures": the note defined before, not a second one; its sale replaces what was agreed
    const reference = /principal amount of\s+the\s+((?:[A-Z][\w-]*\s+){0,4}(?:Notes?|Debentures?))\b/.exec(m.match[0])?.[1] ?? null;
    const same = reference ? notes.find((n) => known.get(n)?.name === reference) : undefined;
    if (same) {
      if (sold && !known.get(same)!.sold) {
        same.principal = value;
        known.get(same)!.sold = true;
        r.evidence[`convertible_notes[${notes.indexOf(same)}].principal`] = quoteMatch(m);
      }
      continue;
    }
    const note: EightKNote = { principal: value, conversion_price: null, conversion_percent_of_market: null, conversion_discount_percent: null, maturity: null, interest_rate: null };
    const defined = /^[^.;“"]{0,80}?\((?:the\s+|each,?\s+a\s+|collectively,?\s+the\s+)?[“"]([^”"]{2,60})[”"]\)/.exec(text.slice(m.match.index + m.match[0].length))?.[1] ?? reference;
    notes.push(note);
    known.set(note, { name: defined, sold });
    if (/\bup to\s*\$/i.test(m.match[0])) upTo.add(note);
    r.evidence[`convertible_notes[${notes.length - 1}].principal`] = quoteMatch(m);
  }
  // "debentures in the principal amount of up to $11.2 million", then the first of $5 million and a second of $6.2 million: the facility, not a third note
  for (const facility of upTo) {
    const others = notes.filter((n) => n !== facility && n.principal !== null);
    const sum = others.reduce((total, n) => total + n.principal!, 0);
    if (others.length < 2 || Math.abs(sum - facility.principal!) > 0.5) continue;
    const quotes = notes.map((_, i) => r.evidence[`convertible_notes[${i}].principal`]);
    const at = notes.indexOf(facility);
    notes.splice(at, 1);
    quotes.splice(at, 1);
    for (let i = 0; i <= notes.length; i++) delete r.evidence[`convertible_notes[${i}].principal`];
    quotes.forEach((quote, i) => {
      if (quote) r.evidence[`convertible_notes[${i}].principal`] = quote;
    });
  }
  const noteSentences = sentences.filter((s) => new RegExp(`\\b${NOTE_WORDS}\\b|\\bconver|^Maturity\\b`, "i").test(s.text));
  const ensure = () => {
    if (notes.length === 0) notes.push({ principal: null, conversion_price: null, conversion_percent_of_market: null, conversion_discount_percent: null, maturity: null, interest_rate: null });
    return notes;
  };
  const put = <K extends keyof EightKNote>(field: K, value: EightKNote[K] | null, quote: string) => {
    if (value === null) return;
    ensure().forEach((n, i) => {
      if (n[field] !== null) return;
      n[field] = value;
      r.evidence[`convertible_notes[${i}].${field}`] = quote;
    });
  };
  const price = firstIn(noteSentences, CONVERSION_PRICE, (m) => !/\bwarrant/i.test(m.match[0]) && !/^\s*%/.test(m.sentence.text.slice(m.match.index + m.match[0].length)));
  if (price) put("conversion_price", money(price.match[1] ?? price.match[3]!, price.match[1] ? price.match[2] : price.match[4]), quoteMatch(price));
  const percent = firstIn(noteSentences, CONVERSION_PERCENT, (m) => !/\bwarrant|exercise price/i.test(m.match[0]));
  if (percent) put("conversion_percent_of_market", percentOf(percent.match[1]!), quoteMatch(percent));
  const discount = firstIn(noteSentences, CONVERSION_DISCOUNT, (m) => !/\bwarrant|exercise price/i.test(m.match[0]));
  if (discount) put("conversion_discount_percent", percentOf(discount.match[1]!), quoteMatch(discount));
  const interest = firstIn(noteSentences, INTEREST, (m) => !/\bdefault\b/i.test(m.sentence.text.slice(Math.max(0, m.match.index - 80), m.match.index + m.match[0].length)));
  if (interest) put("interest_rate", percentOf(interest.match[1] ?? interest.match[2]!), quoteMatch(interest));
  else if (notes.length > 0) {
    // the rate a note's name states: "6% Subordinated Convertible Debentures due April 15, 2004" (not "10% Original Issue Discount … Notes"),
    // for a note the items sell; outstanding notes a sentence names ("exchange … its outstanding 1.00% Convertible Debentures") are none
    const coupon = firstIn(noteSentences, COUPON, (m) => !/\b(?:original issue discount|OID)\b/i.test(m.match[0]) && !namesOtherNotes(m));
    if (coupon) put("interest_rate", percentOf(coupon.match[1]!), quoteMatch(coupon));
  }
  const maturity = firstIn(noteSentences, MATURITY, (m) => !/\bwarrant/i.test(m.match[0]) && !namesOtherNotes(m));
  if (maturity) {
    const date = maturity.match[1] ?? maturity.match[5];
    const value = date ? isoDate(date) : `${maturity.match[2]} ${maturity.match[3]} ${maturity.match[4]!.trim()}`;
    put("maturity", value, quoteMatch(maturity));
  } else {
    // (a day the 8-K defines as "the Maturity Date" is the new note's, even in a sentence of its repayment schedule)
    const stated = firstIn(noteSentences, MATURITY_STATED, (m) => !/\bwarrant/i.test(m.match[0]) && (m.match[1] !== undefined ? !/\bproceeds\b/i.test(m.sentence.text) : !namesOtherNotes(m)));
    if (stated) put("maturity", isoDate((stated.match[1] ?? stated.match[2])!), quoteMatch(stated));
  }
}

// ───────────────────────────── equity lines ─────────────────────────────

const COMMITMENT = new RegExp(
  String.raw`\b(?:up to|aggregate (?:gross )?purchase price of up to|commitment amount of|total commitment of|maximum (?:aggregate )?(?:amount|purchase price) of)\s+${MONEY}`,
  "gi",
);
const COMMITMENT_SHARES = new RegExp(
  String.raw`(?<![\d,.$])${COUNT_TEXT}(?:\s*\([\d,]+\))?\s+(?:shares|ordinary shares)\b[^;]{0,120}?\bcommitment (?:fee|shares)\b|\bcommitment (?:fee|shares)\b[^;$]{0,80}?(?<![\d,.$])${COUNT_TEXT}(?:\s*\([\d,]+\))?\s+(?:shares|ordinary shares)\b`,
  "gi",
);
const MARKET_PERCENT = /\b(\d{2,3}(?:\.\d+)?)\s?%\s+of\s+(?:the\s+)?(?:lowest|average|daily|volume|closing|market|VWAP|lower)/gi;
const MARKET_DISCOUNT = /\b(\d{1,2}(?:\.\d+)?)\s?%\s+discount\b/gi;

function readEquityLine(r: Reading, sentences: Sentence[]) {
  const line: EightKEquityLine = { counterparty: null, commitment: null, commitment_shares_fee_or_null: null, discount_percent: null, price_percent_of_market: null };
  const evidence: Record<string, string> = {};
  const counterparty =
    firstIn(sentences, new RegExp(String.raw`\b(?:with|to)\s${FIRM}`, "g"), (m) => EQUITY_LINE.test(m.sentence.text) || /\bpurchase agreement\b/i.test(m.sentence.text)) ??
    firstIn(sentences, new RegExp(String.raw`\bwith\s${PROPER_NAME}\s\((?:the\s)?[“"]`, "g"), (m) => EQUITY_LINE.test(m.sentence.text) || /\bpurchase agreement\b/i.test(m.sentence.text));
  if (counterparty && !NOT_A_NAME.test(cleanName(counterparty.match[1]!))) {
    line.counterparty = cleanName(counterparty.match[1]!);
    evidence.counterparty = quoteMatch(counterparty);
  }
  const commitment =
    firstIn(sentences, COMMITMENT, (m) => /\b(?:commitment|right, but not|aggregate|purchase|sell|issue)\b/i.test(m.sentence.text) && !/\b(?:each|single|advance|purchase notice|per)\b[^;]{0,30}$/i.test(m.sentence.text.slice(0, m.match.index)));
  if (commitment) {
    line.commitment = money(commitment.match[1]!, commitment.match[2]);
    evidence.commitment = quoteMatch(commitment);
  }
  const fee = firstIn(sentences, COMMITMENT_SHARES);
  if (fee) {
    line.commitment_shares_fee_or_null = countOf(fee.match[1] ?? fee.match[2]!);
    evidence.commitment_shares_fee_or_null = quoteMatch(fee);
  }
  const percent = firstIn(sentences, MARKET_PERCENT, (m) => /\bprice\b/i.test(m.sentence.text) && !/\bconver|\bexercise price/i.test(m.sentence.text));
  if (percent) {
    line.price_percent_of_market = percentOf(percent.match[1]!);
    evidence.price_percent_of_market = quoteMatch(percent);
  }
  const discount = firstIn(sentences, MARKET_DISCOUNT, (m) => /\bprice|VWAP|market\b/i.test(m.sentence.text) && !/\bconver|\bexercise price/i.test(m.sentence.text));
  if (discount) {
    line.discount_percent = percentOf(discount.match[1]!);
    evidence.discount_percent = quoteMatch(discount);
  }
  if (Object.keys(evidence).length === 0 || r.terms.equity_line !== null) return;
  r.terms.equity_line = line;
  for (const [field, quote] of Object.entries(evidence)) r.evidence[`equity_line.${field}`] = quote;
}

// ───────────────────────────── anti-dilution, registration, inducement ─────────────────────────────

const NEGATED = /\b(?:no|not|nor|without|do not|does not|will not|shall not)\b[^;]{0,40}$/i;
const FULL_RATCHET =
  /\bfull[- ]ratchet\b|\bexercise price\s+(?:will|shall)\s+be\s+(?:reduced|adjusted|lowered)\s+to\s+(?:equal\s+)?(?:the|such)\s+(?:lower\s+)?(?:price|effective price|issuance price|consideration|new issuance price)|\b(?:conversion|exercise) price\b[^;]{0,80}?\breduced to (?:the )?(?:price|effective price) (?:per share )?(?:of|at which)\b[^;]{0,40}\b(?:subsequent|dilutive|new) (?:issuance|equity sale|offering)/i;
const RESET =
  /\b(?:reset|resets)\b[^;]{0,160}?\b(?:price|VWAP|market)\b|\b(?:exercise|conversion) price\b[^;]{0,80}?\b(?:will|shall) be (?:adjusted|reduced|reset) to\b[^;]{0,80}?\b(?:lower of|lesser of|\d{2,3}(?:\.\d+)?%\s+of|lowest|VWAP|closing price|Minimum Price)/i;
const CUSTOMARY =
  /\b(?:customary|standard|certain|appropriate)?\s*(?:anti-dilution\s+)?adjustments?\b[^;]{0,60}?\b(?:stock splits?|stock dividends?|share dividends?|recapitalizations?|reclassifications?|combinations?|subdivisions?)\b|\bcustomary anti-dilution\b|\bsubject to adjustment\b[^;]{0,60}?\b(?:stock splits?|stock dividends?|recapitalizations?|reclassifications?|share combinations?)\b/i;
/** No protection at all ("do not contain any anti-dilution protection"); denying only a full ratchet or price-based kind says nothing of the customary adjustments. */
const NO_PROTECTION = /\b(?:no|not (?:contain|have|include|provide for) (?:any )?)\s*anti-dilution\b/i;

function readAntiDilution(r: Reading, sentences: Sentence[]) {
  const about = (s: Sentence) => /\b(?:warrants?|notes?|debentures?|preferred|exercise price|conversion price)\b/i.test(s.text);
  const candidates: { kind: AntiDilution; quote: string; rank: number }[] = [];
  for (const s of sentences) {
    if (!about(s)) continue;
    for (const [kind, pattern, rank] of [
      ["full_ratchet", FULL_RATCHET, 4],
      ["reset", RESET, 3],
      ["customary", CUSTOMARY, 2],
    ] as const) {
      const m = pattern.exec(s.text);
      if (!m) continue;
      const before = s.text.slice(Math.max(0, m.index - 60), m.index);
      // "no anti-dilution protection other than customary adjustments …" states the customary ones
      if ((NEGATED.test(before) && !/\b(?:other than|except(?: for)?)\b[^;]{0,30}$/i.test(before)) || /\bif\b[^;]{0,20}$/i.test(s.text.slice(0, m.index))) continue;
      candidates.push({ kind, quote: quoteOf(s, m.index, m.index + m[0].length), rank });
    }
    const none = NO_PROTECTION.exec(s.text);
    if (none && !/^[^;]{0,30}\b(?:other than|except)\b/i.test(s.text.slice(none.index + none[0].length))) candidates.push({ kind: "none", quote: quoteOf(s, none.index, none.index + none[0].length), rank: 1 });
  }
  const best = candidates.sort((a, b) => b.rank - a.rank)[0];
  if (best) set(r, "anti_dilution", best.kind, best.quote);
}

const REGISTERED = [
  /\b(?:offered|sold|issued|made|being offered|offering|issuance|sale)\b[^;]{0,200}?\b(?:pursuant to|under|by means of)\b[^;]{0,160}?\b(?:(?:effective\s+)?shelf registration statement|registration statement on Form [SF]-[13]\b|effective registration statement|prospectus supplement|base prospectus)/i,
  /\bregistered direct offering\b/i,
  /\b(?:shelf registration statement|registration statement on Form [SF]-[13])\b[^;]{0,200}?\b(?:declared effective|became effective)\b[^;]{0,200}?\b(?:offer|offering|sale|sold|issued)\b/i,
];
const UNREGISTERED = [
  /\bSection 4\s?\(a\)\s?\(2\)|\bSection 4\s?\(2\)|\bRegulation D\b|\bRule 506(?:\(b\))?\b|\bRule 144A\b|\bRegulation S\b|\bSection 3\s?\(a\)\s?\((?:9|10)\)/i,
  /\bprivate placement\b/i,
  /\b(?:have|has) not been registered under the Securities Act\b|\bexempt(?:ion)? from (?:the )?registration (?:requirements )?(?:of|under) the Securities Act\b/i,
];

function readRegistered(r: Reading, sentences: Sentence[]) {
  // a resale registration, a promise to register, or the legend's "absent registration" is no registered offering
  const usable = sentences.filter((s) => !/\b(?:resales?|agreed to file|will file|to file a registration statement|shall not constitute an offer|solicitation of an offer|absent registration)\b/i.test(s.text));
  for (const pattern of REGISTERED) {
    // "the Warrants are being offered under …" alone is about warrants; the shares' registration decides
    const found = firstIn(usable, pattern, (m) => {
      const subject = m.sentence.text.slice(0, m.match.index + m.match[0].length);
      return !/\bwarrants?\b/i.test(subject) || /\b(?:shares|common stock|securities|units|offering)\b/i.test(subject);
    });
    if (found && !/\bconcurrent private placement\b/i.test(found.match[0])) {
      set(r, "registered", true, quoteMatch(found));
      return;
    }
  }
  // an exemption may be named beside the resale registration the buyers get ("in a private placement … for resale to qualified institutional buyers")
  const exempt = sentences.filter((s) => !/\b(?:shall not constitute an offer|solicitation of an offer)\b/i.test(s.text));
  for (const pattern of UNREGISTERED) {
    const found = firstIn(exempt, pattern, (m) => !/\bconcurrent\b/i.test(m.sentence.text.slice(Math.max(0, m.match.index - 30), m.match.index)) || r.terms.registered === null);
    if (found) {
      set(r, "registered", false, quoteMatch(found));
      return;
    }
  }
}

/**
 * A sale told under Item 3.02 is unregistered by the item's own title
 * ("Unregistered Sales of Equity Securities"), when nothing the 8-K says of
 * it names a registration or an exemption and the item told a sale the
 * reader read.
 */
function readRegisteredFromHeading(r: Reading, sale: ItemSection[]) {
  const t = r.terms;
  if (t.registered !== null || (t.common_shares === null && t.warrants.length === 0 && t.convertible_notes.length === 0)) return;
  const titled = sale.find((s) => s.item === "3.02" && /^Unregistered Sales of Equity Securities\b/i.test(s.text) && /\b(?:sold|issued)\b/i.test(s.text));
  if (titled) set(r, "registered", false, /^Unregistered Sales of Equity Securities\.?/i.exec(titled.text)![0]);
}

const INDUCEMENT = /\binducement (?:letter|agreement|offer)s?\b|\bwarrant inducement\b|\bin consideration for (?:the )?(?:holder['’]s\s+|holders['’]\s+)?(?:immediate\s+)?(?:cash\s+)?exercise\b|\b(?:agreed|agree) to exercise\b[^;]{0,120}?\bwarrants?\b[^;]{0,160}?\breduced exercise price\b/i;
const REPRICING = /\b(?:reduce|reduced|lower|amend|amended|reprice|repriced)\b[^;]{0,80}?\bexercise price\b|\bexercise price\b[^;]{0,60}?\b(?:reduced|lowered|amended)\b/i;

// ───────────────────────────── closings ─────────────────────────────

/** Instruments the items say ended in full (./closings.ts), one event per kind and instruments, each with its sentence. */
function readClosings(r: Reading, sentences: Sentence[]) {
  const closings = r.terms.closings;
  const key = (e: { kind: string; instruments: string[] }) => `${e.kind}|${e.instruments.map((n) => n.toLowerCase()).sort().join("|")}`;
  for (const s of sentences) {
    for (const found of closingsIn(s.text)) {
      const same = closings.findIndex((e) => key(e) === key(found));
      const quote = quoteOf(s, found.start, found.end);
      if (same >= 0) {
        if (closings[same]!.date === null && found.date !== null) {
          closings[same]!.date = found.date;
          for (const field of ["kind", "instruments", "date"]) r.evidence[`closings[${same}].${field}`] = quote;
        }
        continue;
      }
      const at = closings.length;
      closings.push({ kind: found.kind, instruments: found.instruments, date: found.date, subsequent: false });
      r.evidence[`closings[${at}].kind`] = quote;
      r.evidence[`closings[${at}].instruments`] = quote;
      if (found.date) r.evidence[`closings[${at}].date`] = quote;
    }
  }
}

// ───────────────────────────── the reader ─────────────────────────────

/** A press release's body: without its "About …" boilerplate and forward-looking statements. */
function pressReleaseParagraphs(text: string): string[] {
  const paragraphs = paragraphsOf(text);
  const end = paragraphs.findIndex((p, i) => i > 0 && (/^(?:About\s+[A-Z][\w.,&' -]{1,60}$|Forward[- ]Looking Statements\b|Cautionary (?:Note|Statement)\b|Safe Harbor\b)/.test(p)));
  return end > 0 ? paragraphs.slice(0, end) : paragraphs;
}

const POINTS_TO_RELEASE = /\bpress release\b|\bExhibit 99(?:\.\d+)?\b/i;

function readScope(r: Reading, sentences: Sentence[], sectionText: string) {
  const said = /\bwarrants?\b/i.test(sectionText) ? firstIn(sentences, INDUCEMENT) : null;
  if (said) set(r, "inducement", true, quoteMatch(said));
  const inducement = r.terms.inducement === true;
  const repricing = REPRICING.test(sectionText);
  const kind = r.terms.agreement_kind;
  // (commitment shares alone are a fee convertible-note lenders take too: no equity line unless the text says one)
  const lineCue = EQUITY_LINE.exec(sectionText);
  const noteFeeOnly = lineCue !== null && /^commitment shares$/i.test(lineCue[0]) && CONVERTIBLE_DEBT_WORDS.test(sectionText) && !EQUITY_LINE.test(sectionText.replace(/\bcommitment shares\b/gi, ""));
  if (kind === "equity_line" || (lineCue && !noteFeeOnly)) readEquityLine(r, sentences);
  if (kind !== "equity_line") {
    const sharesSentence = readShares(r, sentences);
    readPrice(r, sentences, sharesSentence);
    readProceeds(r, sentences);
  }
  const w = readWarrantMentions(r, sentences, inducement, repricing);
  readWarrantTerms(r, w, sentences);
  readNotes(r, sentences, sectionText);
  readAgent(r, sentences);
  readPurchasers(r, sentences);
  readAntiDilution(r, sentences);
  readRegistered(r, sentences);
}

/** A pre-2004 Item 5 that tells a sale of the issuer's securities ("the Company issued and sold … Debentures"), not a merger or other event. */
const OLD_ITEM_SALE =
  /\b(?:issued and sold|sold|completed (?:a|an|the|its) (?:private placement|sale|offering))\b[^.;]{0,200}?\b(?:shares|debentures?|notes?|warrants?|units|preferred stock|securities)\b|\bprivate placement\b|\bRegulation D\b|\bSection 4\s?\((?:a\)\s?\()?2\)/i;

/**
 * An 8-K's text (htmlToText / blocksText of the primary document, or a `.txt`
 * document) and, optionally, its EX-99 press release's text → the financing
 * terms its Items 1.01 and 3.02 state, each with its quote. An item that
 * incorporates another by reference ("The information set forth in Items 2.03
 * and 3.02 hereof is incorporated by reference into this Item 1.01") is read
 * with it. An 8-K of the numbering before August 2004 told a financing under
 * "Item 5. Other Events": that item is read when it tells a sale of securities.
 */
export function readEightKTerms(text: string, pressRelease?: string | null): EightKTermsReading {
  const r: Reading = { terms: emptyEightKTerms(), evidence: {}, entries: [], addInstruments: true };
  const sections = eightKItemSections(text);
  const old = isOldItemNumbering(sections);
  const exhibits = (s: ItemSection) => s.item === "9.01" || (old && s.item === "7");
  // every item but the exhibit list may state a closing
  readClosings(r, sentencesIn(sections.filter((s) => !exhibits(s)).flatMap((s) => s.text.split("\n")), false));
  // a note sold under a purchase agreement told under Item 2.03 alone (no Item 1.01): "the Company entered into a Securities Purchase Agreement … and issued and sold … a Promissory Note … and issued … warrants"
  const noAgreementItem = !sections.some((s) => s.item === "1.01");
  const isAgreement = (s: ItemSection) =>
    s.item === "1.01" ||
    (old && s.item === "5" && OLD_ITEM_SALE.test(s.text)) ||
    (noAgreementItem && s.item === "2.03" && /\bsecurities purchase agreement\b/i.test(s.text) && /\b(?:warrants?|convertible)\b/i.test(s.text));
  const agreement = sectionsWithIncorporated(sections, isAgreement);
  const sale = sectionsWithIncorporated(sections, (s) => s.item === "3.02");
  if (!sections.some(isAgreement) && sale.length === 0) return r;

  const agreementSentences = sentencesIn(agreement.flatMap((s) => s.text.split("\n")), false);
  const agreementText = agreement.map((s) => s.text).join("\n");
  const financing = agreement.length > 0 && readAgreement(r, agreementSentences, agreementText);
  const scope = [...(financing ? agreement : []), ...sale.filter((s) => !financing || !agreement.includes(s))];
  const sentences = sentencesIn(scope.flatMap((s) => s.text.split("\n")), false);
  const scopeText = scope.map((s) => s.text).join("\n");
  if (sentences.length === 0) return r;
  // a sale told under Item 3.02 alone: the agreement it was made under, when dated
  readAgreementMadeUnder(r, sentences, scopeText);
  readScope(r, sentences, scopeText);
  readRegisteredFromHeading(r, sale);

  const pointing = sections.filter(
    (s) => (["1.01", "3.02", "7.01", "8.01"].includes(s.item) || (old && (s.item === "5" || s.item === "7"))) && POINTS_TO_RELEASE.test(s.text),
  );
  if (pressRelease && pointing.length > 0 && (financing || sale.length > 0)) {
    const release = sentencesIn(pressReleaseParagraphs(pressRelease), true);
    const releaseText = release.map((s) => s.text).join("\n");
    if (r.terms.agreement_kind === null && FINANCING_WORDS.test(releaseText)) {
      const s = release.find((x) => EQUITY_LINE.test(x.text) || /\b(?:registered direct|private placement|public offering|convertible)\b/i.test(x.text));
      if (s) set(r, "agreement_kind", classify("", s.text, releaseText), quoteOf(s));
    }
    // the items' own statements stand; the release fills only what they leave unstated, and adds no
    // instrument to a list the items gave (a release restates them, sometimes rounded)
    r.addInstruments = r.terms.warrants.length + r.terms.agent_warrants.length + r.terms.convertible_notes.length === 0;
    readScope(r, release, releaseText);
  }
  return r;
}
