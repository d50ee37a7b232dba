/**
 * 8-K texts under Item 3.01: what kind of listing deficiency a notice is,
 * whether a later one says compliance was regained, and the deadline it states.
 */
import { normalizeForMatching } from "./plain-text";
import { isCalendarDate } from "@/lib/utils/dates";

export type DeficiencyKind = "minimum_bid_price" | "stockholders_equity" | "market_value" | "periodic_filing" | "other";

/** A listing rule number as matched: "5550(a)(2)" also as "5550 (a) (2)". */
function rule(number: string, ...parts: string[]): RegExp {
  return new RegExp(`\\b${number}${parts.map((p) => `\\s*\\(${p}\\)`).join("")}`);
}

const DEFICIENCY_PATTERNS: [Exclude<DeficiencyKind, "other">, RegExp[]][] = [
  [
    "minimum_bid_price",
    [
      /minimum (?:closing )?bid price/,
      /bid price (?:requirement|rule)/,
      /\$1(?:\.00)? per share/,
      rule("5550", "a", "2"),
      rule("5450", "a", "1"),
      /1003\s*\(f\)\s*\(v\)/,
      /802\.01\s*\(?c\)?/,
      /low selling price/,
    ],
  ],
  [
    "stockholders_equity",
    [
      /(?:stock|share)holder(?:s'|'s|s)? (?:equity|deficit)/,
      rule("5550", "b", "1"),
      rule("5450", "b", "1", "a"),
      /1003\s*\(a\)/,
    ],
  ],
  [
    "market_value",
    [
      /market value of (?:listed securities|publicly held shares)/,
      /\bmvls\b|\bmvphs\b/,
      rule("5550", "b", "2"),
      rule("5550", "a", "5"),
      rule("5450", "b", "2", "a"),
      rule("5450", "b", "3", "c"),
      rule("5450", "b", "1", "c"),
    ],
  ],
  [
    "periodic_filing",
    [
      /timely (?:file|filing)/,
      /(?:has|had|did|have) not (?:yet )?(?:been )?(?:timely )?filed? (?:its |the |their |our )?(?:annual report on |quarterly report on )?form 10-[kq]/,
      /(?:failure|failed) to (?:timely )?file (?:its |the |their |our )?(?:annual report on |quarterly report on )?form 10-[kq]/,
      /form 10-[kq][^.]{0,120}?(?:was|were|has|had) not (?:yet )?(?:been )?(?:timely )?filed/,
      rule("5250", "c", "1"),
      /\bdelinquen(?:t|cy)\b/,
      /802\.01\s*\(?e\)?/,
    ],
  ],
];

/** The text after "Item 3.01" up to the next "Item N.NN", or null when there is no such heading. */
function item301Section(text: string): string | null {
  const start = /\bitem\s*3\.01\b/.exec(text);
  if (!start) return null;
  const rest = text.slice(start.index + start[0].length);
  const next = /\bitem\s*\d{1,2}\.\d{2}\b/.exec(rest);
  return next ? rest.slice(0, next.index) : rest;
}

/** The kind whose first mention comes earliest: a notice names its own deficiency before alternatives or history. */
function earliestKind(text: string): DeficiencyKind {
  let best: { kind: DeficiencyKind; at: number } = { kind: "other", at: Infinity };
  for (const [kind, patterns] of DEFICIENCY_PATTERNS) {
    for (const pattern of patterns) {
      const at = pattern.exec(text)?.index;
      if (at !== undefined && at < best.at) best = { kind, at };
    }
  }
  return best.kind;
}

/**
 * An 8-K's text → the kind of listing deficiency its Item 3.01 reports, by
 * phrases and listing rule numbers (Nasdaq, NYSE, NYSE American). The Item
 * 3.01 section decides when it names one; otherwise the whole text.
 */
export function classifyDeficiency(text: string): DeficiencyKind {
  const normalized = normalizeForMatching(text);
  const section = item301Section(normalized);
  const inSection = section === null ? "other" : earliestKind(section);
  return inSection !== "other" ? inSection : earliestKind(normalized);
}

const REGAINED = [
  /\bregained (?:full )?compliance\b/,
  /\b(?:is|was|are) (?:now |again |back )+in (?:full )?compliance\b/,
  /\bmatter (?:is|has been|was) (?:now )?closed\b/,
];
/** A sentence opening like this states a condition, not a fact. */
const CONDITION = /\b(?:if|unless|whether)\b/;
/** Just before the phrase, these make it a prediction, a possibility or a denial ("may", not the month of "May 2, 2025"). */
const NOT_A_FACT =
  /\b(?:not|no|never|fails?|failed|failure|deemed|considered|will|would|could|may(?!\s+\d{1,2}\b)|might|shall|should|can|must|until|assurance|order to|expects?|intends?|anticipates?|seeks?|plans?)\b/;

function sentences(text: string): string[] {
  return text.split(/(?<=[.;!?])\s+(?=["(]?[a-z0-9])/);
}

function statesRegained(sentence: string): boolean {
  return REGAINED.some((pattern) => {
    const m = pattern.exec(sentence);
    if (!m) return false;
    const before = sentence.slice(0, m.index);
    return !CONDITION.test(before) && !NOT_A_FACT.test(before.slice(-80));
  });
}

/**
 * True when a sentence states that compliance was regained ("has regained
 * compliance", "is now in compliance", "the matter is now closed"); not when
 * it is a condition or prospect ("to regain compliance", "if … Nasdaq will
 * confirm that the Company has regained compliance", "has not regained").
 */
export function regainsCompliance(text: string): boolean {
  return sentences(normalizeForMatching(text)).some(statesRegained);
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const DEADLINE =
  /\b(?:until|through|by|on or before)\s+(january|february|march|april|may|june|july|august|september|october|november|december)\s+(\d{1,2}),?\s+(\d{4})\b[^.]{0,120}?\bregain compliance\b|\bregain compliance\b[^.]{0,120}?\b(?:until|through|by|on or before)\s+(january|february|march|april|may|june|july|august|september|october|november|december)\s+(\d{1,2}),?\s+(\d{4})\b/;

/**
 * The date by which a deficiency notice says compliance must be regained
 * ("has until September 8, 2025 to regain compliance", "to regain
 * compliance by …"), "YYYY-MM-DD"; null when the text states none.
 */
export function complianceDeadline(text: string): string | null {
  const m = DEADLINE.exec(normalizeForMatching(text));
  if (!m) return null;
  const [month, day, year] = m[1] ? [m[1], m[2]!, m[3]!] : [m[4]!, m[5]!, m[6]!];
  const iso = `${year}-${String(MONTHS.indexOf(month) + 1).padStart(2, "0")}-${day.padStart(2, "0")}`;
  return isCalendarDate(iso) ? iso : null;
}
