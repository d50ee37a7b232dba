import { isoDate, WRITTEN_DATE_PATTERN as DATE } from "./text";

/**
 * Closing events: a sentence that states that named instruments ended in
 * full: warrants "exercised in full", "all of the outstanding Pre-Funded
 * Warrants were exercised", "the holders of the Series A Warrants exercised
 * all of their warrants"; a note or preferred stock "converted in full",
 * "all outstanding principal and accrued interest of the 2024 Convertible
 * Note was converted", "the Note was converted into 1,234,567 shares"; a note
 * "repaid in full", "redeemed", "settled in full", "paid off". The periodic-
 * report and 8-K readers hand each sentence here; the ledger closes the
 * instruments it names (./../ledger.ts).
 *
 * Only full closings of instruments the sentence names are events:
 * - a partial one ("exercised 1,000,000 of the warrants", "$500,000 of the
 *   principal was converted", "certain holders exercised", "a portion") is
 *   not: the ledger follows counts from report to report;
 * - nor a possibility, a condition or a term ("may be converted", "upon
 *   conversion of the notes", "if the holder exercises", "will automatically
 *   convert", "are exercisable", "as if they had been exercised", "the
 *   shares issuable upon …"), nor a negation ("no warrants were exercised");
 * - warrants close only on words that say all of them ("in full", "fully",
 *   "all", "each of", "the remaining"); a note or a preferred stock also when
 *   the sentence's subject is the instrument itself ("the Note was converted
 *   into …", "the Company repaid the January 2023 Note"), never a part of it;
 * - a name is the instrument's own words as the sentence writes them, from
 *   a word of its own up to its kind ("Series A Warrants", "2024 Convertible
 *   Note", "Series B Convertible Preferred Stock", the defined "Notes"); a
 *   list ("the Series A and Series B Warrants", "Series A, B and C
 *   Warrants") names each; a bare lower-case kind ("the warrants", "notes")
 *   names none, so a sentence naming nothing is no event.
 *
 * The date is the day the sentence says it happened ("On May 3, 2024, …",
 * "As of …", "on May 1, 2024"), not an issue, maturity or period-end day;
 * null when it states none ("During the three months ended …").
 */
export type ClosingKind = "exercised" | "converted" | "redeemed";

export interface ClosingEvent {
  kind: ClosingKind;
  /** each instrument the sentence names, as it names it */
  instruments: string[];
  /** YYYY-MM-DD, when the sentence states the day */
  date: string | null;
  /** after the period end of the report that states it (always false for an 8-K) */
  subsequent: boolean;
}

/** A closing found in a sentence, with where it is (for the quote). */
export interface FoundClosing {
  kind: ClosingKind;
  instruments: string[];
  date: string | null;
  start: number;
  end: number;
}

/** Words a paragraph must hold to be searched. */
export const CLOSING_CUE = /\b(?:exercised|converted|repaid|redeemed|settled|paid|prepaid)\b/i;



/** Either case of a word's first letter, so "May" the month is not "may" the modal. */
const eitherCase = (word: string) => `[${word[0]!.toUpperCase()}${word[0]}]${word.slice(1)}`;
/** Words that make what follows a possibility, a condition, a plan or a term rather than a fact. */
const HYPOTHETICAL = new RegExp(
  String.raw`\b(?:may|plans?|planned|reserved|potential(?:ly)?|${[
    "might",
    "could",
    "would",
    "will",
    "shall",
    "should",
    "can",
    "cannot",
    "must",
    "if",
    "unless",
    "whether",
    "in the event",
    "assuming",
    "assumes?",
    "assumed",
    "as if",
    "deemed",
    "treated as",
    "pro forma",
    "until",
    "expects?",
    "expected",
    "intends?",
    "intended",
    "anticipates?",
    "anticipated",
    "agreed to",
    "agrees to",
    "obligated",
    "required to",
    "right to",
    "option to",
    "elect(?:s|ed)? to",
    "issuable",
    "underlying",
    "contingent",
    "subject to",
    "scheduled to",
  ]
    .map(eitherCase)
    .join("|")})\b`,
);
const NEGATION = /\b(?:no|none|not|never|neither|nor|without)\b|n[’']t\b/i;
/** Words that make it a part: "a portion", "certain holders", "substantially all". */
const PARTIAL = /\b(?:portion|part|partial(?:ly)?|certain|some|several|substantially|nearly|almost|approximately|majority|one of the|a holder|an? (?:investor|holder|lender|purchaser|noteholder))\b/i;
/** An amount or a count that is not "all" of it: "$500,000 of", "1,000,000 of the warrants", "2.5 million". */
const AMOUNT_OR_COUNT = /(?<!\ball\s(?:of\s)?)(?:\$\s?\d|\b\d{1,3}(?:,\d{3})+\b|\b\d+(?:\.\d+)?\s+(?:million|thousand)\b|\b\d+\s+(?:of|shares)\b)/i;
/** Words that say all of it. */
const ALL = /^(?:all|each|both)\b|\b(?:all(?: of)?(?: the| its| our| their| such)?|the entire|the full|the remaining|all remaining|all outstanding|the total|each of the|both of the)\b/i;
const IN_FULL = /^\s*(?:in full|in (?:its|their) entirety|off in full|off)\b/i;

// ───────────────────────────── names ─────────────────────────────

const HEAD =
  /\b(?:warrants?|notes?|debentures?|preferred(?:\s+(?:stock|shares))?)\b(?!\s*\d)(?!\s+(?:receivable|payable|shares|holders?|agreements?|liabilit(?:y|ies)|certificates?|exercises?|amendments?|inducement|purchase agreement|indenture|instruments?|offering|financing)\b)/gi;
/** Words that end a name going backwards from its kind. */
const STOP =
  /^(?:the|of|all|and|or|outstanding|remaining|their|its|our|such|these|those|any|each|entire|full|both|a|an|to|in|on|by|for|with|from|under|shares?|principal|amount|balance|interest|accrued|unpaid|holders?|holder[’']s|holders[’']|were|was|had|have|has|been|is|are|that|which|exercised|converted|repaid|redeemed|settled|paid|prepaid|fully|other|remainder|total|aggregate|new|existing)$/i;
/** Words a name is made of: capitalised words and numbers ("Series", "A-1", "2024", "10%"), and the lower-case words that tell one instrument from another. */
const NAME_WORD =
  /^(?:[A-Z0-9$][\w.%’'&/-]*|[\d.]+%|pre-?funded|prefunded|series|tranche|class|convertible|promissory|senior|secured|unsecured|subordinated|bridge|common|stock|purchase|placement|agent[’']?s?|underwriter[’']?s?|representative[’']?s?|inducement|exchange|replacement|private|public|investor|term|related|party)$/;
const QUOTES = /[“”"‘]/g;
const SERIES_TOKEN = String.raw`[A-Z0-9]{1,2}(?:-\d{1,2})?`;
/** "Series A and Series B Warrants", "Series A, B and C Warrants", "Series A and B Warrants": one name each. */
const SERIES_LIST = new RegExp(
  String.raw`\b(Series|Tranche|Class)\s+(${SERIES_TOKEN}((?:\s*,\s*(?:(?:Series|Tranche|Class)\s+)?${SERIES_TOKEN})*)\s*,?\s+(?:and|&)\s+(?:(?:Series|Tranche|Class)\s+)?${SERIES_TOKEN})\s+((?:[\w’'-]+\s+){0,4}?(?:Warrants?|Notes?|Debentures?|Preferred(?:\s+(?:Stock|Shares))?))\b`,
  "g",
);

/** A name the ledger can recognise: a word of its own besides its kind, or a capitalised defined term ("the Notes"). */
function isName(name: string): boolean {
  return /[A-Z0-9]/.test(name) || /pre-?funded|prefunded/i.test(name);
}

/** The instruments a phrase names, as it writes them. */
export function namesIn(phrase: string): string[] {
  const names: string[] = [];
  const add = (name: string) => {
    const clean = name.replace(QUOTES, "").replace(/\s+/g, " ").trim();
    if (isName(clean) && !names.some((n) => n.toLowerCase() === clean.toLowerCase())) names.push(clean);
  };
  const consumed: [number, number][] = [];
  for (const m of phrase.matchAll(SERIES_LIST)) {
    const word = m[1]!;
    const rest = m[4]!;
    for (const token of m[2]!.split(/\s*,\s*|\s*,?\s+(?:and|&)\s+/)) add(`${word} ${token.replace(/^(?:Series|Tranche|Class)\s+/, "")} ${rest}`);
    consumed.push([m.index, m.index + m[0].length]);
  }
  for (const head of phrase.matchAll(HEAD)) {
    if (consumed.some(([from, to]) => head.index >= from && head.index < to)) continue;
    const words = phrase.slice(0, head.index).split(/\s+/).filter(Boolean);
    const taken: string[] = [];
    for (let i = words.length - 1; i >= 0 && taken.length < 6; i--) {
      const word = words[i]!.replace(QUOTES, "").replace(/^\(/, "");
      // "A" of "Series A" is a name's word, "a" the article is not
      if (!word || /[,;:()]$/.test(words[i]!) || (STOP.test(word) && !/^[A-Z0-9]{1,2}(?:-\d{1,2})?$/.test(word)) || !NAME_WORD.test(word)) break;
      taken.unshift(word);
    }
    add([...taken, head[0]].join(" "));
  }
  return names;
}

// ───────────────────────────── sentences ─────────────────────────────

const SERIES_COMMAS = new RegExp(String.raw`\b(?:Series|Tranche|Class)\s+${SERIES_TOKEN}(?:\s*,\s*(?:(?:Series|Tranche|Class)\s+)?${SERIES_TOKEN})+`, "g");

/** Commas inside dates ("May 3, 2024") and series lists ("Series A, B and C") do not end a clause: blanked, at the same places. */
function masked(text: string): string {
  return text.replace(new RegExp(DATE, "g"), (date) => date.replace(/,/g, " ")).replace(SERIES_COMMAS, (list) => list.replace(/,/g, " "));
}

/** A phrase that only names instruments: a list item before the clause ("the Series A Warrants, the Series B Warrants and …"). */
const NAME_ITEM = /^(?:and\s+|or\s+)?(?:the\s+)?(?:[\w“”"%.’'-]+\s+){0,6}?(?:Warrants?|Notes?|Debentures?|Preferred(?:\s+(?:Stock|Shares))?)[”"]?$/;
const CONNECTOR = /^(?:and|but|whereupon|thereafter|then|upon which|after which|following which|at which time|as a result(?: of which)?|in connection (?:therewith|with which)|pursuant to which)\s+/i;

/** The clause that ends at `at`: from the last comma or semicolon before it (list items of names kept), its connectives dropped. */
function clauseBefore(sentence: string, at: number): { text: string; start: number } {
  const head = masked(sentence.slice(0, at));
  const cuts = [0, ...[...head.matchAll(/[,;]\s+/g)].map((m) => m.index + m[0].length)];
  let k = cuts.length - 1;
  const segment = (i: number) => head.slice(cuts[i]!, i + 1 < cuts.length ? cuts[i + 1]! : head.length).replace(/[,;]\s+$/, "").trim();
  // ", which were exercised in full": the subject is what the relative clause is about
  if (/^which$/i.test(segment(k).trim()) && k > 0) k--;
  while (k > 0 && NAME_ITEM.test(segment(k - 1))) k--;
  let start = cuts[k]!;
  let text = sentence.slice(start, at);
  // "… recognized a loss when the 2023 Notes were repaid": the clause after the last subordinating word
  const subordinate = [...text.matchAll(/\b(?:when|once|after|because|whereby|whereupon|at which time)\s+/gi)].at(-1);
  if (subordinate) {
    start += subordinate.index + subordinate[0].length;
    text = text.slice(subordinate.index + subordinate[0].length);
  }
  for (let m = CONNECTOR.exec(text); m; m = CONNECTOR.exec(text)) {
    start += m[0].length;
    text = text.slice(m[0].length);
  }
  return { text: text.replace(/,\s*which\s*$/i, "").trim(), start };
}

const STOPPER = /\s(?:into|for|on|at|in exchange|resulting|which|pursuant|and received|with|by|through|during|as|to|in connection|upon|following|totaling|totalling|representing|plus|including)\b|\s(?=in full\b|in (?:its|their) entirety\b)|[,;(]|\.$/i;

/** The day the sentence says it happened, nearest to `at`: "On May 3, 2024", "as of", "effective" (an issue, maturity or period-end day is not it). */
function dateNear(sentence: string, at: number): string | null {
  let best: { iso: string; distance: number } | null = null;
  for (const m of sentence.matchAll(new RegExp(`\\b(?:On|on|As of|as of|Effective|effective|By|by|Through|through)\\s+${DATE}`, "g"))) {
    const before = sentence.slice(Math.max(0, m.index - 30), m.index);
    if (/\b(?:dated|issued|due|matur\w*|expir\w*|entered into|executed|signed|ended|ending|originally)\s*$/i.test(before)) continue;
    const iso = isoDate(m[1]!);
    if (!iso) continue;
    const distance = Math.abs(m.index - at);
    if (!best || distance < best.distance) best = { iso, distance };
  }
  return best?.iso ?? null;
}

const KIND_OF: Record<string, ClosingKind> = { exercised: "exercised", converted: "converted" };
/** Repaid or settled in shares is converted: "The 2023 Notes were repaid in shares of Class A Common Stock". */
const IN_SHARES = /^\s*(?:in full\s+)?(?:in|with|by (?:the )?issu(?:ing|ance of))\s+(?:[\w,’'-]+\s+){0,5}?(?:shares|common stock|ordinary shares)\b/i;
const kindOf = (verb: string, after = ""): ClosingKind => KIND_OF[verb.toLowerCase()] ?? (IN_SHARES.test(after) ? "converted" : "redeemed");
const ALL_NOTES_OR_PREFERRED = (names: string[]) => names.every((n) => /\b(?:notes?|debentures?|preferred)\b/i.test(n) && !/\bwarrants?\b/i.test(n));
/** The instrument itself, with nothing of it singled out: "the Note", "the Series B Preferred Stock", "each of the 2024 Notes". */
function isWholeInstrument(phrase: string, names: string[]): boolean {
  const rest = phrase.replace(QUOTES, "").replace(/^(?:the|each of the|both of the|both)\s+/i, "");
  return names.length > 0 && /^(?:the|each of the|both of the|both)\s/i.test(phrase.replace(QUOTES, "")) && !/\b(?:principal|interest|shares|amount|balance|of)\b/i.test(rest) && NAME_ITEM.test(rest.replace(/\s*(?:,\s*(?:the\s+)?|\s+and\s+(?:the\s+)?)/g, " "));
}

const PASSIVE = /\b(?:were|was|have(?: all)? been|has been|had(?: all)? been|were all)\s+((?:(?:fully|entirely|all|each|automatically|mandatorily|subsequently|ultimately|then|also|since)\s+)*)(exercised|converted|repaid|redeemed|settled|paid off|prepaid|paid)\b/g;
const ACTIVE = /(?<!\b(?:was|were|be|been|being|is|are|fully|not|never)\s+)(?<!\b(?:was|were|be|been|being|is|are)\s+\w+ly\s+)\b(?:(?:has|have|had)\s+)?((?:fully|also|subsequently|then)\s+)?(exercised|converted|repaid|redeemed|settled|paid off|prepaid|paid)\b/g;

/** "…, other than 50,000 which remain outstanding", "except for warrants to purchase 10,000 shares": not all of them. */
const EXCEPTION = /\b(?:except|excepting|other than|excluding|save for|but not|with the exception|remain(?:s|ed|ing)? outstanding|remain(?:s|ed)? unexercised)\b/i;

/** The closings a sentence states (most state none). */
export function closingsIn(sentence: string): FoundClosing[] {
  if (!CLOSING_CUE.test(sentence)) return [];
  const found: FoundClosing[] = [];
  const push = (verb: string, names: string[], start: number, end: number, after = "") => {
    const kind = kindOf(verb, after);
    const existing = found.find((f) => f.kind === kind);
    if (existing) {
      for (const n of names) if (!existing.instruments.some((x) => x.toLowerCase() === n.toLowerCase())) existing.instruments.push(n);
      existing.end = Math.max(existing.end, end);
      return;
    }
    found.push({ kind, instruments: names, date: dateNear(sentence, start), start, end });
  };
  const refused = (upTo: number, after: string) =>
    HYPOTHETICAL.test(masked(sentence.slice(0, upTo))) || /^\s*(?:in part|partially|in parts)\b/i.test(after) || EXCEPTION.test(after);

  for (const m of sentence.matchAll(PASSIVE)) {
    const verbEnd = m.index + m[0].length;
    const after = sentence.slice(verbEnd);
    if (refused(verbEnd, after)) continue;
    const verb = m[2]!;
    const full = IN_FULL.test(after) || /\b(?:fully|entirely|all|each)\b/i.test(m[1]!) || /\boff$/i.test(verb);
    if (/^paid$/i.test(verb) && !IN_FULL.test(after)) continue;
    const subject = clauseBefore(sentence, m.index);
    if (!subject.text || /\b(?:that|who)$/i.test(subject.text) || NEGATION.test(subject.text) || PARTIAL.test(subject.text) || AMOUNT_OR_COUNT.test(subject.text)) continue;
    const names = namesIn(subject.text);
    if (names.length === 0) continue;
    const whole = kindOf(verb) !== "exercised" && ALL_NOTES_OR_PREFERRED(names) && isWholeInstrument(subject.text, names);
    if (!full && !ALL.test(subject.text) && !whole) continue;
    push(verb, names, subject.start, verbEnd + (IN_FULL.exec(after)?.[0].length ?? 0), after);
  }

  for (const m of sentence.matchAll(ACTIVE)) {
    const verb = m[2]!;
    const verbAt = m.index + m[0].length - verb.length;
    const agent = clauseBefore(sentence, m.index);
    // "the exercised warrants", "proceeds from converted notes": an adjective, not a verb
    if (!agent.text || /\b(?:the|a|an|of|its|their|our|any|all|from|such|these|those|and|or)$/i.test(agent.text)) continue;
    if (NEGATION.test(agent.text) || PARTIAL.test(agent.text)) continue;
    let rest = sentence.slice(m.index + m[0].length);
    const leadingFull = IN_FULL.exec(rest);
    if (leadingFull) rest = rest.slice(leadingFull[0].length);
    const stop = STOPPER.exec(rest);
    const object = (stop ? rest.slice(0, stop.index) : rest).trim();
    const afterObject = stop ? rest.slice(stop.index) : "";
    // "repaid the Bridge Note in full", "exercised the Pre-Funded Warrants in their entirety"
    const trailing = IN_FULL.exec(afterObject);
    const full = Boolean(leadingFull || trailing || m[1]?.trim() === "fully" || /^paid off$/i.test(verb) || ALL.test(object));
    const end = m.index + m[0].length + (leadingFull?.[0].length ?? 0) + (stop ? stop.index : rest.length) + (trailing?.[0].length ?? 0);
    if (refused(verbAt, afterObject.slice(trailing?.[0].length ?? 0))) continue;
    if (!object || NEGATION.test(object) || PARTIAL.test(object) || AMOUNT_OR_COUNT.test(object)) continue;
    if (/^paid$/i.test(verb) && !(leadingFull || trailing)) continue;
    let names = namesIn(object);
    // "the holders of the Series A Warrants exercised all of their warrants"
    if (names.length === 0 && /\b(?:their|its)\b/i.test(object)) {
      const holders = /\bholders?\s+of\s+(?:all\s+(?:of\s+)?)?(?:the\s+)?(.+)$/i.exec(agent.text);
      names = holders ? namesIn(holders[1]!) : [];
    }
    if (names.length === 0) continue;
    const whole = kindOf(verb) !== "exercised" && ALL_NOTES_OR_PREFERRED(names) && isWholeInstrument(object, names);
    if (!full && !whole) continue;
    push(verb, names, agent.start, end, afterObject);
  }
  return found.sort((a, b) => a.start - b.start);
}
