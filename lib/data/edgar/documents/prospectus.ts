import { readBabyShelf, type BabyShelf } from "./baby-shelf";
import { NO_FEE_TABLE, readCoverFeeTable, readFeeExhibit, type FeeTable } from "./fee-table";
import type { Filing } from "./submission";
import {
  AMOUNT,
  COUNT,
  documentLines,
  findAllInLines,
  findInLines,
  isoDate,
  labelledValues,
  MONTH_PATTERN,
  parseCount,
  parseDollars,
  parseScaledDollars,
  quoteAround,
  type LabelledValue,
  type Line,
} from "./text";
import { normalizeForMatching } from "./plain-text";
import { readReverseSplits, type ReverseSplit } from "./reverse-splits";

/**
 * What a prospectus (424B1–B5, B7) or registration statement (S-1, S-3,
 * F-1, F-3, their amendments, S-3ASR, POS AM) says about the offering it is
 * for: the fields of ../shared/fixtures/edgar/REAL-FILINGS.md. Every value is
 * read from the document's own text, with the quote it was read from; a value
 * the document does not state is null. Nothing is computed: a discount given
 * only in dollars leaves the percentage null.
 *
 * The reader works on the kind of document, never on one filing: the cover
 * page (title lines, the pricing table), the offering summary (label/value
 * rows), and sentences whose wording SEC practice fixes ("We have engaged …
 * as placement agent", "an aggregate offering price of up to $…").
 */
export type OfferingType =
  | "underwritten_firm_commitment"
  | "best_efforts"
  | "registered_direct"
  | "atm"
  | "rights"
  | "ipo"
  | "other"
  | "not_equity";

export type AgentRole = "underwriter" | "placement_agent" | "sales_agent" | "selling_agent";

export interface OfferingTerms {
  offering_type: OfferingType | null;
  common_shares_offered: number | null;
  prefunded_warrants_offered: number | null;
  prefunded_exercise_price: number | null;
  common_warrants_offered: number | null;
  warrant_exercise_price: number | null;
  warrant_term: string | null;
  warrant_expiry: string | null;
  price_per_share: number | null;
  gross_proceeds: number | null;
  net_proceeds: number | null;
  discount_or_fee_percent: number | null;
  agent: string | null;
  agent_role: AgentRole | null;
  atm_max_amount: number | null;
  overallotment_shares: number | null;
  shares_outstanding_before: number | null;
  shares_outstanding_after: number | null;
  max_aggregate_offering: number | null;
  /** null for a document that is not a prospectus or registration statement */
  fee_table_kind: FeeTable["kind"] | null;
  /**
   * A registration statement's facing page: whether the box for securities
   * offered on a delayed or continuous basis under Rule 415 is checked (a
   * shelf), or not (one offering). Not a REAL-FILINGS.md field: it decides
   * whether an S-1 or F-1 is offering capacity.
   */
  rule_415: boolean | null;
  /**
   * Warrants sold in a concurrent private placement beside this offering: not
   * offered by the document (REAL-FILINGS.md counts them under `extra`), but
   * instruments all the same. Not a REAL-FILINGS.md field.
   */
  private_placement_warrants: PrivateWarrant[];
  /**
   * Reverse stock splits the document states as effected ("adjusted to
   * reflect the 1-for-15 reverse split … effective October 31, 2023"), read
   * by ./reverse-splits.ts; the date is null when the document gives none.
   * Not a REAL-FILINGS.md field.
   */
  reverse_splits: ReverseSplit[];
  /**
   * The baby-shelf arithmetic the document states under General Instruction
   * I.B.6 (public float, one third of it, sold in the prior 12 months, what
   * remains), read by ./baby-shelf.ts. Not a REAL-FILINGS.md field (its
   * ground truth keeps these under `extra`).
   */
  baby_shelf: BabyShelf | null;
}

export interface PrivateWarrant {
  /** null: one count for pre-funded and other warrants together ("… and pre-funded warrants … to purchase up to an aggregate of N shares") */
  pre_funded: boolean | null;
  shares: number;
  exercise_price: number | null;
}

/** A field of the terms, or one value of a private-placement warrant ("private_placement_warrants[0].shares") or of a reverse split ("reverse_splits[0].ratio"). */
export type EvidenceKey =
  | OfferingField
  | `private_placement_warrants[${number}].${"shares" | "exercise_price"}`
  | `reverse_splits[${number}].${"ratio" | "effective_date"}`
  | `baby_shelf.${keyof BabyShelf}`;

export type OfferingField = keyof OfferingTerms;

export interface OfferingReading {
  terms: OfferingTerms;
  evidence: Partial<Record<EvidenceKey, string>>;
}

export const PROSPECTUS_FORMS = /^424B[1-57]$/;
export const REGISTRATION_FORMS = /^(?:S-1|S-3|F-1|F-3|S-3ASR|F-3ASR|S-1MEF|S-3MEF|F-1MEF|F-3MEF|POS AM|POS ASR)(?:\/A)?$/;

/** Prospectuses and registration statements are what this reader reads. */
export function isOfferingDocument(form: string | null): boolean {
  const f = (form ?? "").toUpperCase();
  return PROSPECTUS_FORMS.test(f) || REGISTRATION_FORMS.test(f);
}

const EMPTY_TERMS: OfferingTerms = {
  offering_type: null,
  common_shares_offered: null,
  prefunded_warrants_offered: null,
  prefunded_exercise_price: null,
  common_warrants_offered: null,
  warrant_exercise_price: null,
  warrant_term: null,
  warrant_expiry: null,
  price_per_share: null,
  gross_proceeds: null,
  net_proceeds: null,
  discount_or_fee_percent: null,
  agent: null,
  agent_role: null,
  atm_max_amount: null,
  overallotment_shares: null,
  shares_outstanding_before: null,
  shares_outstanding_after: null,
  max_aggregate_offering: null,
  fee_table_kind: "none",
  rule_415: null,
  private_placement_warrants: [],
  reverse_splits: [],
  baby_shelf: null,
};

// ───────────────────────────── the parts of a document ─────────────────────────────

interface Reading {
  lines: Line[];
  /** The cover page: up to the table of contents. */
  cover: Line[];
  /** A registration statement's prospectus title lines, after its facing page (prospectusTitleLines). */
  titles: Line[];
  pairs: LabelledValue[];
  terms: OfferingTerms;
  evidence: Partial<Record<EvidenceKey, string>>;
}

function set<K extends OfferingField>(r: Reading, field: K, value: OfferingTerms[K] | null | undefined, quote: string | null | undefined) {
  if (value === null || value === undefined || r.terms[field] !== null && field !== "fee_table_kind") return;
  if (!quote) return;
  r.terms[field] = value as OfferingTerms[K];
  r.evidence[field] = quote;
}

/** A table-of-contents row ends in a page number ("S-7", "12", "iii"). */
const PAGE_NUMBER = /^(?:[A-Z]{1,2}-)?\d{1,3}$|^[ivxl]{1,6}$/i;

/**
 * The cover page: up to the table of contents (a "Table of Contents" heading
 * followed by rows ending in page numbers; the same words repeated as a page
 * header or a link are not it), at most 150 lines.
 */
function coverLines(lines: Line[]): Line[] {
  const toc = lines.findIndex(
    (l, i) =>
      i > 3 &&
      /^(?:table of contents|contents)$/i.test(l.text.trim()) &&
      lines.slice(i + 1, i + 5).some((next) => next.cells !== null && next.cells.length >= 2 && PAGE_NUMBER.test(next.cells[next.cells.length - 1]!)),
  );
  return lines.slice(0, toc > 0 ? Math.min(toc, 150) : 150);
}

const DAY_OF_DATE = new RegExp(`\\b${MONTH_PATTERN}\\s+$`);
const YEAR_OF_DATE = new RegExp(`\\b${MONTH_PATTERN}(?:\\s+\\d{1,2},?)?\\s+$`);

/** The first count in a value, as a number of shares/units/warrants (not a dollar amount or a percentage). */
function countIn(text: string, after = 0): { value: number; index: number } | null {
  const re = new RegExp(`(?<![\\d.$,])(${COUNT})(?![\\d.,]*\\s*%)(?!\\.\\d)`, "g");
  re.lastIndex = after;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const before = text.slice(Math.max(0, m.index - 2), m.index);
    if (/\$\s?$/.test(before)) continue;
    // a day or a year of a date ("On December 31, 2024, we issued …") is not a count
    if (DAY_OF_DATE.test(text.slice(Math.max(0, m.index - 12), m.index)) || YEAR_OF_DATE.test(text.slice(Math.max(0, m.index - 16), m.index))) continue;
    const value = parseCount(m[1]!);
    if (value !== null && value >= 10) return { value, index: m.index };
  }
  return null;
}

function pairQuote(pair: LabelledValue, index: number, length: number): string {
  const offset = pair.text.length - pair.value.length;
  const start = Math.max(0, offset + index);
  // keep the label in the quote when it fits: the label says what the number is
  const withLabel = pair.text.slice(0, Math.min(pair.text.length, start + length + 40));
  if (withLabel.length <= 200 && pair.text.startsWith(pair.label)) {
    const end = pair.text.indexOf(". ", start + length);
    const cut = end > 0 && end < 200 ? end + 1 : Math.min(pair.text.length, 200);
    return pair.text.slice(0, Math.max(cut, start + length)).slice(0, 200).trim();
  }
  return quoteAround(pair.text, start, start + length);
}

/** A summary row whose label matches, with the first count of its value. */
function countFromPairs(r: Reading, label: RegExp, pick: "first" | "max" = "first", valueTest?: RegExp): { value: number; quote: string } | null {
  let best: { value: number; quote: string } | null = null;
  for (const pair of r.pairs) {
    if (!label.test(pair.label)) continue;
    if (valueTest && !valueTest.test(pair.value)) continue;
    const found = countIn(pair.value);
    if (!found) continue;
    const candidate = { value: found.value, quote: pairQuote(pair, found.index, String(found.value).length) };
    if (pick === "first") return candidate;
    if (!best || candidate.value > best.value) best = candidate;
  }
  return best;
}

// ───────────────────────────── agents ─────────────────────────────

const LEGAL_SUFFIX = String.raw`(?:L\.L\.C\.|LLC|Inc\.|Inc\b|Incorporated|Corp\.|Corporation|Ltd\.|Limited|L\.P\.|LLP|plc|PLC|AG|N\.A\.|S\.A\.)(?![A-Za-z])`;
// (a word ending a sentence, "Note.", is not part of a name; initials and abbreviations are: "H.C.", "Co.")
const NAME_WORD = String.raw`(?:[A-Z][A-Za-z0-9'’-]*(?:(?<![a-z]{3})\.(?:[A-Z]\.)*)?|&|\([A-Z]{2,}\))`;
/** A firm's legal name: capitalised words ending in a legal suffix ("Ladenburg Thalmann & Co. Inc.", "Evercore Group L.L.C.", "Piper Sandler & Co."). */
const FIRM = String.raw`(${NAME_WORD}(?:,?\s${NAME_WORD}){0,7}?,?\s(?:${LEGAL_SUFFIX}|&\sCo\.(?:,?\s(?:Inc\.|LLC|L\.L\.C\.|Incorporated|Ltd\.|Limited)(?![A-Za-z]))?))`;

/** A firm's name as capitalised words without a legal suffix ("Example Advisors", "Example Capital Partners"): only where the sentence says what it is. */
const PLAIN_FIRM = String.raw`((?:[A-Z][A-Za-z0-9.'’-]*|&)(?:\s(?:[A-Z][A-Za-z0-9.'’-]*|&)){0,5})`;

interface AgentMention {
  name: string;
  role: AgentRole;
  lead: boolean;
  quote: string;
  roleQuote: string;
  index: number;
}

/** Patterns are case-sensitive (a firm's name is capitalised); their wording allows the capitals filings use. */
const AGENT_PATTERNS: { role: AgentRole; pattern: RegExp; lead?: RegExp }[] = [
  { role: "placement_agent", pattern: new RegExp(String.raw`(?:engaged|retained)\s${FIRM}(?:\s\([^)]{1,60}\))?,?\s(?:which we refer to as |or )?(?:the |“|")?(?:as )?(?:our )?(?:lead |exclusive |sole )?(?:co-)?[Pp]lacement [Aa]gent`, "g"), lead: /lead|exclusive|sole/i },
  // a firm named without a legal suffix ("We have engaged Example Advisors (through its broker-dealer, …) as our exclusive placement agent")
  { role: "placement_agent", pattern: new RegExp(String.raw`(?:engaged|retained)\s${PLAIN_FIRM}(?:\s\([^)]{1,80}\))?,?\s(?:or the placement agent,\s)?(?:to act )?as (?:our )?(?:lead |exclusive |sole )?[Pp]lacement [Aa]gent`, "g"), lead: /lead|exclusive|sole/i },
  { role: "placement_agent", pattern: new RegExp(String.raw`${FIRM}(?:\s\([^)]{1,40}\))?(?:,\s(?:which we refer to as|or|also referred to as)\s[^,]{1,60},)?,?\s(?:is acting|has agreed to act|will act|acted) as (?:our )?(?:the )?(?:lead |exclusive |sole )?[Pp]lacement [Aa]gent`, "g"), lead: /lead|exclusive|sole/i },
  { role: "sales_agent", pattern: new RegExp(String.raw`(?:[Ss]ales [Aa]greement|[Dd]istribution [Aa]greement|[Ss]ales [Aa]gency [Aa]greement|ATM [Aa]greement)[^.;]{0,80}?\swith\s${FIRM}`, "g") },
  { role: "sales_agent", pattern: new RegExp(String.raw`through\s${FIRM}(?:\s\([^)]{1,40}\))?(?:,\s[^;]{0,400}?)?,?\s(?:as|acting as|each as|are collectively referred to as) (?:our |the )?(?:sales )?agents?\b`, "g") },
  { role: "placement_agent", pattern: new RegExp(String.raw`(?:[Pp]lacement [Aa]gency [Aa]greement|[Ee]ngagement [Ll]etter)[^.;]{0,80}?\swith\s${FIRM}`, "g") },
  { role: "underwriter", pattern: new RegExp(String.raw`[Uu]nderwriting [Aa]greement[^.;]{0,80}?\swith\s${FIRM}`, "g") },
  { role: "underwriter", pattern: new RegExp(String.raw`${FIRM}(?:(?:,|\sand|,\sand)\s[^;]{0,200}?)?\s(?:is|are) acting as (?:the )?(?:sole |lead |joint )?(?:book-?running managers?|bookrunners?|representatives?|underwriters?|lead underwriters?)`, "g"), lead: /./ },
  { role: "underwriter", pattern: new RegExp(String.raw`[Uu]nderwriters?(?: named below| listed below)?,? for whom ${FIRM}(?:(?:,|\sand|,\sand)\s[^;]{0,200}?)?\s(?:is|are) acting as (?:the )?representatives?`, "g"), lead: /./ },
];

function agentMentions(lines: Line[]): AgentMention[] {
  const mentions: AgentMention[] = [];
  for (const { role, pattern, lead } of AGENT_PATTERNS) {
    for (const found of findAllInLines(lines, pattern)) {
      const name = found.match[1]!.replace(/,$/, "");
      if (/^(?:The|We|Our|Each|Any|Such|This)\b/.test(name)) continue;
      mentions.push({ name, role, lead: lead ? lead.test(found.match[0]) : false, quote: found.quote, roleQuote: found.quote, index: found.line.index });
    }
  }
  return mentions;
}

const ROLE_HEADING: { role: AgentRole; pattern: RegExp }[] = [
  { role: "placement_agent", pattern: /^(?:sole |exclusive |lead )?placement agents?$/i },
  { role: "sales_agent", pattern: /^(?:sole |lead )?sales agents?$/i },
  { role: "underwriter", pattern: /^(?:sole |lead )?(?:book-?running managers?|bookrunners?|underwriters?|representative of the underwriters)$/i },
];

const NOT_A_PLAIN_NAME = /\b(?:Managers?|Underwriters?|Agents?|Representatives?|Bookrunners?|Number|Shares?|Total|Per|Price|Proceeds|Offering|Prospectus|Table|Contents|Page|Common|Stock|Warrants?)\b/i;

/** The cover's closing lines: a role heading ("Sole Book-Running Manager") above the firm's legal name. */
function coverHeadings(cover: Line[]): AgentMention[] {
  const mentions: AgentMention[] = [];
  for (let i = 0; i + 1 < cover.length; i++) {
    const heading = ROLE_HEADING.find((h) => h.pattern.test(cover[i]!.text.trim()));
    if (!heading) continue;
    const next = cover[i + 1]!.text.trim();
    // a name without a legal suffix only when it reads as one: two or more words, none a role, a heading or a table's label ("Book-Running Manager", "Number")
    const plain = new RegExp(`^${PLAIN_FIRM}$`).exec(next);
    const name = new RegExp(`^${FIRM}$`).exec(next) ?? (plain && /\s/.test(next) && !NOT_A_PLAIN_NAME.test(next) ? plain : null);
    if (name) mentions.push({ name: name[1]!, role: heading.role, lead: true, quote: `${cover[i]!.text} ${cover[i + 1]!.text}`.slice(0, 200), roleQuote: `${cover[i]!.text} ${cover[i + 1]!.text}`.slice(0, 200), index: cover[i]!.index });
  }
  return mentions;
}

/** "Selling Agent: BofAS" with "BofA Securities, Inc. (“BofAS”)" defined elsewhere. */
function sellingAgent(lines: Line[], pairs: LabelledValue[]): AgentMention | null {
  let found: { short: string; quote: string; index: number } | null = null;
  const colon = findInLines(lines, /\bSelling Agents?:\s*([A-Z][\w&.’' -]{1,60}?)(?=$|\.|;|\s[A-Z][a-z]+ ?[A-Z]?[a-z]*:)/);
  if (colon) found = { short: colon.match[1]!, quote: colon.quote, index: colon.line.index };
  else {
    // a summary row "Selling Agents | BofAS and UBS.": the first named is the lead
    const row = pairs.find((p) => /^Selling Agents?:?$/i.test(p.label.trim()) && /^[A-Z]/.test(p.value));
    const first = row ? /^([A-Z][\w&.’'-]*(?:\s[A-Z][\w&.’'-]*){0,5}?)(?=,|\.|;|\s(?:and|&)\s|$)/.exec(row.value.trim()) : null;
    if (row && first) found = { short: first[1]!, quote: row.text.slice(0, 200), index: row.index };
  }
  if (!found) {
    // "… will participate as selling agent in the case of BofAS and as dealer in the case of MLPF&S"
    const role = findInLines(lines, /\bparticipate as (?:a |the )?selling agent in the case of ([A-Z][\w&.]{1,20})\b/);
    if (role) found = { short: role.match[1]!, quote: role.quote, index: role.line.index };
  }
  if (!found) return null;
  const short = found.short.trim();
  const direct = new RegExp(`^${FIRM}$`).exec(short);
  if (direct) return { name: direct[1]!, role: "selling_agent", lead: true, quote: found.quote, roleQuote: found.quote, index: found.index };
  const escaped = short.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const definition = findInLines(lines, new RegExp(`${FIRM}\\s\\((?:the )?[“"]${escaped}[”"]\\)`));
  if (!definition) return null;
  return { name: definition.match[1]!, role: "selling_agent", lead: true, quote: definition.quote, roleQuote: found.quote, index: definition.line.index };
}

function readAgent(r: Reading) {
  const mentions = [...agentMentions(r.lines), ...coverHeadings(r.cover)];
  const selling = sellingAgent(r.lines, r.pairs);
  if (selling) mentions.push(selling);
  if (mentions.length === 0) return;
  // The role most mentioned by these patterns; within it, a designated lead, else the name most often written, else the first.
  const byRole = new Map<AgentRole, AgentMention[]>();
  for (const m of mentions) byRole.set(m.role, [...(byRole.get(m.role) ?? []), m]);
  // the cover names the offering's own agent; later mentions may be of the base prospectus or of earlier programs
  const coverEnd = r.cover.length;
  const onCover = mentions.filter((m) => m.index < coverEnd).sort((a, b) => a.index - b.index)[0];
  const [role, ofRole] = onCover
    ? [onCover.role, byRole.get(onCover.role)!]
    : [...byRole.entries()].sort((a, b) => b[1].length - a[1].length || a[1][0]!.index - b[1][0]!.index)[0]!;
  // a name misspelt once (on the cover) is outnumbered by its legal spelling in the body
  const counts = new Map<string, number>();
  for (const m of ofRole) if (!counts.has(m.name)) counts.set(m.name, r.lines.filter((l) => l.text.includes(m.name)).length);
  const leads = ofRole.filter((m) => m.lead);
  const pool = leads.length ? leads : ofRole;
  let chosen = [...pool].sort((a, b) => (counts.get(b.name) ?? 0) - (counts.get(a.name) ?? 0) || a.index - b.index)[0]!;
  if (!new RegExp(`${LEGAL_SUFFIX}$|&\\sCo\\.$`).test(chosen.name)) {
    // a name without its suffix (a cover's closing line) is written in full elsewhere: "Example Capital Partners, LLC"
    const plain = chosen.name;
    const full = findAllInLines(r.lines, new RegExp(FIRM, "g")).find((f) => f.match[1]!.startsWith(plain) && f.match[1]!.length > plain.length);
    if (full) chosen = { ...chosen, name: full.match[1]!.replace(/,$/, ""), quote: full.quote };
  }
  set(r, "agent", chosen.name, chosen.quote);
  set(r, "agent_role", role, chosen.roleQuote);
}

// ───────────────────────────── classification ─────────────────────────────

const RESALE = /\b(?:resale|offered (?:for resale )?by the selling (?:stock|share|security|unit) ?holders?|selling (?:stock|share|security) ?holders? (?:named|identified|may)|by (?:the |certain )?selling (?:stock|share|security|unit) ?holders?)/i;
const NOT_EQUITY_TITLE = /\b(?:notes|debentures|bonds|certificates|debt securities)\b(?! (?:and|or) )/i;
const EQUITY_TITLE = /\b(?:common stock|common shares|ordinary shares|shares|units|american depositary|warrants|preferred stock|rights)\b/i;

/** A prospectus's heading ("PROSPECTUS", "SHORT FORM BASE SHELF PROSPECTUS", "SUBJECT TO COMPLETION, DATED …") after a registration statement's facing page. */
const PROSPECTUS_HEADING = /^(?:subject to completion\b.*|(?:preliminary |short form |base |shelf )*prospectus(?: supplement)?)$/i;

/** The short title lines and rows (≤ 80 characters) of the first prospectus in a registration statement: the 25 lines after its heading. */
function prospectusTitleLines(lines: Line[]): Line[] {
  const start = lines.slice(0, 400).findIndex((l) => !l.cells && PROSPECTUS_HEADING.test(l.text.trim()));
  if (start < 0) return [];
  // (title lines are often laid out as a table: "Debt Securities | Debt Securities" for two issuers)
  return lines.slice(start, start + 25).filter((l) => l.text.length <= 80);
}

/** "US$2,500,000,000" or "$100,000,000" alone on a line of the prospectus's title: the most it offers, when no fee table says so. */
const COVER_AMOUNT = /^(?:U\.?S\.?)?\$\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?)$/;

function readCoverAmount(r: Reading) {
  const line = r.titles.find((l) => COVER_AMOUNT.test(l.text.trim()));
  const value = line ? parseDollars(COVER_AMOUNT.exec(line.text.trim())![1]!) : null;
  if (line && value !== null && value >= 100) set(r, "max_aggregate_offering", value, line.text.trim());
}

function classify(r: Reading, form: string, fees: FeeTable): { type: OfferingType; quote: string } | null {
  const lines = r.lines;
  const cover = r.cover;
  const isRegistration = REGISTRATION_FORMS.test(form);

  // debt and structured notes: the fee table registers no equity, or the cover's title is a note
  if (fees.kind !== "none" && fees.onlyDebt) {
    if (fees.firstSecurityRow) return { type: "not_equity", quote: fees.firstSecurityRow };
  }
  const title = cover.slice(0, 25).find((l) => !l.cells && l.text.length < 160 && NOT_EQUITY_TITLE.test(l.text) && !EQUITY_TITLE.test(l.text.replace(/linked to[^]*$/i, "")));
  if (title && !findInLines(cover, /\bshares of (?:our )?(?:common|ordinary|class [a-z]) (?:stock|shares)\b.*\boffer/i)) return { type: "not_equity", quote: quoteAround(title.text, 0, title.text.length) };
  // a registration statement's prospectus begins after its facing page: its title lines name only debt securities
  const titles = isRegistration ? r.titles : [];
  const debtTitle = titles.find((l) => NOT_EQUITY_TITLE.test(l.text));
  if (debtTitle && !titles.some((l) => EQUITY_TITLE.test(l.text))) return { type: "not_equity", quote: quoteAround(debtTitle.text, 0, debtTitle.text.length) };

  // a pricing supplement of notes: a principal amount that matures, and no shares offered
  if (
    PROSPECTUS_FORMS.test(form) &&
    findInLines(cover, /\bprincipal amount\b/i) &&
    findInLines(cover, /\b(?:maturity date|stated maturity|will mature|mature on)\b/i) &&
    !findInLines(cover, /\b(?:offering|sell(?:ing)?)\s[\d,]+ shares\b|\bshares of (?:our )?(?:common|ordinary) (?:stock|shares) offered\b/i)
  ) {
    const notes = cover.slice(0, 25).find((l) => !l.cells && l.text.length < 200 && /\b(?:notes|securities|debentures|bonds)\b/i.test(l.text));
    if (notes) return { type: "not_equity", quote: quoteAround(notes.text, 0, Math.min(notes.text.length, 200)) };
  }

  const deregister = findInLines(lines.slice(0, 60), /\b(?:to )?(?:terminate the effectiveness of[^.]{0,80}and to )?deregister\b[^.]{0,120}/i);
  if (isRegistration && /^POS/.test(form) && deregister) return { type: "other", quote: deregister.quote };

  const exhibitsOnly =
    findInLines(lines.slice(0, 60), /\bis being filed (?:solely (?:for the purpose of|to)|for the sole purpose of)\b[^.]{0,200}/i) ??
    findInLines(lines.slice(0, 60), /\bas an exhibit-only filing\b[^.]{0,120}/i);
  if (exhibitsOnly) return { type: "other", quote: exhibitsOnly.quote };

  const resale = findInLines(cover, /\b(?:to permit the resale of|relates? to the (?:offer and )?resale|registering the resale|(?:offer and )?resale(?:, from time to time,)? (?:by the selling|of up to))\b[^.]{0,160}/i) ??
    findInLines(lines.slice(0, 400), /\b(?:We are registering the resale|to permit the resale of|relates? to the (?:offer and )?resale)\b[^.]{0,160}/i);
  if (resale) return { type: "other", quote: resale.quote };
  // a prospectus of shares the selling holders sell: "The selling securityholders may offer and sell up to 21,967,353 shares", "This prospectus covers the offer and sale of up to 1,668,061 shares … by certain selling security holders"
  const sellingHolders =
    findInLines(cover, /\bThe selling (?:stock|share|security|unit) ?holders?\b[^.]{0,80}?\bmay (?:offer and )?(?:sell|offer)\b[^.]{0,160}/i) ??
    findInLines(cover, /\b(?:covers|relates to) the (?:offer and )?(?:re)?sale\b[^.]{0,200}?\bby (?:the |certain )?selling (?:stock|share|security|unit) ?holders?\b[^.]{0,60}/i) ??
    findInLines(cover.slice(0, 30), /^(?:Common Stock )?Offered by (?:the )?Selling (?:Stock|Share|Security|Unit) ?holders?$/i);
  if (sellingHolders) return { type: "other", quote: sellingHolders.quote };

  const ipo =
    findInLines(cover, /\bThis is (?:an|our) initial public offering\b[^.]{0,100}/i) ??
    findInLines(cover, /\bPrior to this offering, there has been no (?:established )?public market for (?:our|the) (?:common stock|ordinary shares|common shares|securities|units|American Depositary Shares)\b[^.]{0,60}/i);
  if (ipo) return { type: "ipo", quote: ipo.quote };

  // a shelf registration statement is "other" even when it carries an at-the-market prospectus beside its base prospectus
  const shelf = findInLines(cover, /\b(?:We|The selling [a-z]+holders?|[A-Z][\w.,]* (?:Inc|Corp|Ltd)\.?)[^.]{0,40}\bmay(?:,? from time to time,?)? offer(?:, issue)? and sell\b[^.]{0,160}/) ??
    findInLines(cover, /\bmay offer[^.]{0,60}from time to time\b[^.]{0,120}/i);
  if (isRegistration && shelf && !findInLines(cover, /\bWe are offering\b/)) return { type: "other", quote: shelf.quote };

  const atm = findInLines(cover, /\b(?:at[- ]the[- ]market offerings?|at[- ]the[- ]market issuance sales agreement|equity distribution agreement|sales agreement)\b[^.]{0,120}/i);
  if (atm && findInLines(lines, /\bsales agents?\b|\bas (?:our )?agent\b/i)) {
    const sentence = findInLines(cover, /\bWe have entered into an? [^.]{0,60}(?:Sales Agreement|Distribution Agreement)[^.]{0,40}\bwith\b[^.]{0,120}/) ?? atm;
    return { type: "atm", quote: sentence.quote };
  }

  const rights = findInLines(cover, /\b(?:distributing|issuing|offering)[^.]{0,60}\bsubscription rights\b[^.]{0,100}/i);
  if (rights) return { type: "rights", quote: rights.quote };

  const direct = findInLines(cover, /\b(?:We are|[A-Z][\w.,’' ]{0,60}\)? is) offering (?:directly )?to (?:a single |certain )?[^.]{0,80}?(?:investors?|purchasers?)\b[^.]{0,120}/i) ??
    // "we are offering 412,350 shares …, $0.0001 par value per share, and pre-funded warrants … to certain institutional investors"
    findInLines(cover, /\bwe are offering (?:[^.]|\.(?=\d)){0,300}?\bto (?:a single |certain |one or more |several |selected )?(?:(?:institutional|accredited|qualified)(?: and| or|,)? )*(?:investors?|purchasers?)\b[^.]{0,60}/i) ??
    findInLines(cover, /\bregistered direct offering\b[^.]{0,120}/i) ??
    findInLines(cover, /\bWe are offering [^.]{0,200}\bsecurities purchase agreements?\b[^.]{0,60}/i);
  const placement = findInLines(lines, /\bplacement agents?\b/i);
  const purchaseAgreement = findInLines(lines, /\bsecurities purchase agreement\b|\bpurchase agreement\b/i);
  if (direct && placement && purchaseAgreement) return { type: "registered_direct", quote: direct.quote };
  const bestEfforts = findInLines(cover, /\b(?:reasonable )?best[- ]efforts\b[^.]{0,120}/i);
  if (bestEfforts && placement) return { type: "best_efforts", quote: bestEfforts.quote };

  const firm = findInLines(lines, /\b(?:underwriters?|each of the underwriters)[^.]{0,80}\b(?:has|have) (?:severally )?agreed(?:, severally(?: and not jointly)?,)? to purchase\b[^.]{0,160}/i) ??
    findInLines(lines, /\bunderwriters? (?:are|is) (?:severally )?(?:obligated|committed) to (?:purchase|take and pay for)\b[^.]{0,160}/i) ??
    findInLines(lines, /\bfirm commitment\b[^.]{0,120}/i);
  if (firm && (PROSPECTUS_FORMS.test(form) || !shelf)) return { type: "underwritten_firm_commitment", quote: firm.quote };

  if (isRegistration) {
    const any = shelf ?? findInLines(cover, /\boffer\b[^.]{0,160}/i) ?? (cover[0] ? { quote: cover[0].text.slice(0, 200) } : null);
    if (any) return { type: "other", quote: any.quote };
  }
  if (placement && direct) return { type: "registered_direct", quote: direct.quote };
  return null;
}

// ───────────────────────────── the terms ─────────────────────────────

const PRIVATE = /\bprivate placement\b|\bunregistered\b|\bnot (?:being )?registered\b/i;

/** "Common stock outstanding before this offering", "Shares currently outstanding"; not "Other Currently Outstanding Warrants". */
const OUTSTANDING_BEFORE = /^(?=.*\b(?:common|ordinary)\b|(?:shares|stock)\b|(?!.*\b(?:warrants?|options?|preferred|notes?|debentures?|rights|awards?)\b)).*(?:(?:outstanding|issued and outstanding) (?:before|prior to) (?:this|the) offering|currently outstanding)/i;

function readShares(r: Reading) {
  const offered = countFromPairs(
    r,
    /^(?:(?:class [a-z] )?(?:common stock|common shares|ordinary shares|shares(?: of (?:class [a-z] )?common stock)?|securities|units|ADSs?)(?: (?:being|to be))? offered\b|(?:shares|common stock|common shares)[^|]{0,40}(?:that )?may be (?:offered|sold) by the selling|(?:shares|common stock|common shares) registered for (?:re)?sale by (?:the )?selling|shares offered\b)/i,
  );
  if (offered) set(r, "common_shares_offered", offered.value, offered.quote);
  else {
    // the title: on the cover, or (a registration statement) under the prospectus's heading after the facing page
    const title = findInLines([...r.cover.slice(0, 20), ...r.titles], new RegExp(`^(?:Up to )?(${COUNT}) (?:Shares|Units|Ordinary Shares|Common Shares|American Depositary Shares)\\b(?! (?:of Common Stock )?(?:underlying|issuable))`, "i"));
    if (title) set(r, "common_shares_offered", parseCount(title.match[1]!), title.quote);
    else {
      // the cover's sentence: "We are offering 412,350 shares of our common stock, …"
      const sentence =
        findInLines(r.cover, new RegExp(`\\bwe are offering (?:an aggregate of )?(?:up to )?(${COUNT}) shares of (?:our )?(?:common stock|ordinary shares|class [a-z] common stock)\\b`, "i")) ??
        findInLines(r.cover, new RegExp(`\\b(?:The selling (?:stock|share|security|unit) ?holders? (?:named in this prospectus )?may (?:offer and )?sell|covers the (?:offer and )?(?:re)?sale of|relates? to the (?:offer and )?(?:re)?sale of) (?:up to )?(?:an aggregate of )?(${COUNT}) shares\\b`, "i"));
      if (sentence && !PRIVATE.test(sentence.quote)) set(r, "common_shares_offered", parseCount(sentence.match[1]!), sentence.quote);
    }
  }

  const before = countFromPairs(r, OUTSTANDING_BEFORE, "max");
  if (before) set(r, "shares_outstanding_before", before.value, before.quote);
  else {
    // (not the public-float sentence: "based on N shares of our outstanding common stock held by non-affiliates")
    const based = findInLines(r.lines, new RegExp(`\\bbased (?:up)?on (${COUNT}) shares(?: of (?:our )?[A-Za-z ]{0,40}?)? (?:issued and )?outstanding\\b(?![^.;]{0,80}non-?affiliates)(?: as of [A-Z][a-z]+ \\d{1,2}, \\d{4})?`));
    if (based) set(r, "shares_outstanding_before", parseCount(based.match[1]!), based.quote);
  }
  const after = countFromPairs(r, /(?:to be |issued and )?outstanding (?:immediately )?(?:after|following) (?:this|the) offering/i, "max");
  if (after) set(r, "shares_outstanding_after", after.value, after.quote);

  const option = findInLines(r.lines, new RegExp(`\\boption[^.]{0,120}?to purchase up to (?:an )?(?:additional )?(${COUNT}) (?:additional )?(?:shares|units|ordinary shares|common shares|class [a-z]|ADSs)`, "i"));
  if (option) set(r, "overallotment_shares", parseCount(option.match[1]!), option.quote);
}

function readWarrants(r: Reading) {
  const prefunded = countFromPairs(r, /^pre-?funded warrants?(?: offered)?\b/i, "first", /purchase/i);
  const prefundedTitle = findInLines(r.cover.slice(0, 20), new RegExp(`^Pre-?funded Warrants to (?:Purchase )?(?:up to )?(?:an aggregate of )?(${COUNT}) (?:Shares|Ordinary)`, "i"));
  const prefundedSentence = findInLines(
    r.cover,
    new RegExp(`\\bpre-?funded warrants?(?: \\([^)]{0,40}\\))? to purchase (?:up to )?(?:an aggregate of )?(${COUNT}) shares`, "i"),
  );
  const pf = prefundedTitle ? { value: parseCount(prefundedTitle.match[1]!)!, quote: prefundedTitle.quote, line: prefundedTitle.line.text } : prefunded ?? (prefundedSentence && !PRIVATE.test(prefundedSentence.quote) ? { value: parseCount(prefundedSentence.match[1]!)!, quote: prefundedSentence.quote } : null);
  if (pf && !PRIVATE.test(pf.quote)) {
    set(r, "prefunded_warrants_offered", pf.value, pf.quote);
    const price = findInLines(r.lines, new RegExp(`pre-?funded warrants?[^.]{0,80}?\\bexercise price (?:of|is|equal to)[^.$]{0,20}?${AMOUNT}`, "i")) ??
      findInLines(r.lines, new RegExp(`\\bexercise price of (?:each|the) pre-?funded warrants?[^.$]{0,20}?${AMOUNT}`, "i"));
    if (price) set(r, "prefunded_exercise_price", parseDollars(price.match[1]!), price.quote);
  }

  const common = countFromPairs(r, /^(?:common |series [a-z] )?warrants? offered(?: by us)?\b/i, "first", /purchase/i);
  const commonTitle = findInLines(r.cover.slice(0, 20), new RegExp(`^(?:Common |Series [A-Z] )?Warrants to (?:Purchase )?(?:up to )?(?:an aggregate of )?(${COUNT}) (?:Shares|Ordinary|Class)`, "i"));
  const commonSentence = findInLines(
    r.lines,
    new RegExp(`\\b(?:We|we) (?:are|will be) (?:also )?(?:offering|issuing) (?:common |series [a-z] )?warrants to purchase (?:up to )?(?:an aggregate of )?(${COUNT}) (?:of our )?(?:shares|class [a-z]|ordinary|common)`, "i"),
  );
  const cw = commonTitle
    ? { value: parseCount(commonTitle.match[1]!)!, quote: commonTitle.quote }
    : common ?? (commonSentence ? { value: parseCount(commonSentence.match[1]!)!, quote: commonSentence.quote } : null);
  // units of a share and a warrant offer warrants even when no count of them is stated ("each Unit consisting of one share and four-fifth warrant")
  const inUnits = findInLines(r.cover, /\b(?:units?|each unit)\b[^.]{0,120}?\b(?:consist(?:s|ing)? of|comprised of)\b[^.]{0,160}?\bwarrants?\b/i);
  const offered = cw && !PRIVATE.test(cw.quote) ? cw : null;
  if (!offered && (!inUnits || PRIVATE.test(inUnits.quote))) return;
  if (offered) set(r, "common_warrants_offered", offered.value, offered.quote);
  const price =
    findInLines(r.lines, new RegExp(`\\b(?:The |the |Each )(?:common |series [a-z] )?(?:whole )?warrants? (?:have|has|will have) an exercise price (?:of|equal to|per share of) ${AMOUNT}`, "i")) ??
    findInLines(r.lines, new RegExp(`\\b(?:Each|each) (?:whole )?warrant entitles (?:its|the) holder to purchase [^.$]{0,80}?at a price of ${AMOUNT} per share`)) ??
    findInLines(r.lines, new RegExp(`\\b(?:common )?warrants? (?:will be|are) exercisable at (?:an exercise price of )?${AMOUNT} per share`, "i"));
  if (price && !/pre-?funded/i.test(price.match[0])) set(r, "warrant_exercise_price", parseDollars(price.match[1]!), price.quote);
  // the term as one clause: a statement interrupted by a time of day or a proviso is cut at its first comma only when no plain statement exists
  const terms = findAllInLines(
    r.lines,
    /\b(?:[Ww]arrants?(?:[^.]|\.(?=\d)){0,240}?(?:for a term of|will expire|expire|exercisable for)) ((?:one|two|three|four|five|six|seven|eight|nine|ten|\d+)(?: \(\d+\))?(?:-| )(?:and one-half )?years? (?:after|following|from) [^.;]+)/g,
  )
    .filter((t) => !/pre-?funded/i.test(t.match[0].slice(0, 40)))
    .map((t) => ({ found: t, term: t.match[1]!.replace(/,\s(?:as (?:described|set forth)|subject to|unless|provided)\b.*$/, "").trim() }));
  if (terms.length === 0) {
    const anniversary = findAllInLines(r.lines, /\b[Ww]arrants?\b(?:[^.]|\.(?=\d)){0,240}?\b(?:exercisable|expire|expiring)\b[^.;]{0,20}?\b(until (?:the )?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth) anniversary of (?:the )?(?:date of (?:original )?issuance|(?:original )?issuance date|issuance|closing date|initial exercise date))/g)
      .filter((t) => !/pre-?funded/i.test(t.match[0].slice(0, 40)));
    if (anniversary[0]) terms.push({ found: anniversary[0], term: anniversary[0].match[1]! });
  }
  const plain = terms.find((t) => !t.term.includes(","));
  const term = plain ?? terms[0];
  if (term) set(r, "warrant_term", plain ? term.term : term.term.split(",")[0]!.trim(), term.found.quote);
  const expiry = findAllInLines(r.lines, /\b[Ww]arrants?\b(?:[^.]|\.(?=\d)){0,160}?\bexpire(?:s)? (?:at 5:00 p\.m\.[^,]{0,40}, )?on ([A-Z][a-z]+ \d{1,2}, \d{4})/g).find(
    (t) => !/pre-?funded/i.test(t.match[0].slice(0, 40)),
  );
  const expiryDate = expiry ? isoDate(expiry.match[1]!) : null;
  if (expiry && expiryDate) set(r, "warrant_expiry", expiryDate, expiry.quote);
}

function readPricing(r: Reading) {
  const table = r.cover.filter((l) => l.cells);
  const figures = (line: Line) =>
    [...line.text.matchAll(/\$\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)|(?<=\s|^)(\d{1,3}(?:,\d{3})+\.\d{2}|\d+\.\d{2,4})(?=\s|$)/g)]
      .map((m) => parseDollars(m[1] ?? m[2]!))
      .filter((v): v is number => v !== null);
  const priceRow = table.find((l) => /^(?:combined )?(?:initial )?(?:public )?offering price|^price to (?:the )?public|^per (?:share|unit) price|^purchase price/i.test(l.cells![0]!) && figures(l).length > 0);
  if (priceRow) {
    const values = figures(priceRow);
    set(r, "price_per_share", values[0], priceRow.text.slice(0, 200));
    if (values.length >= 2 && values[values.length - 1]! > values[0]!) set(r, "gross_proceeds", values[values.length - 1], priceRow.text.slice(0, 200));
  }
  const proceedsRow = table.find((l) => /^(?:net )?proceeds/i.test(l.cells![0]!) && /(?:to us|to the company|to the registrant|before expenses)/i.test(l.cells![0]!) && figures(l).length > 0);
  if (proceedsRow) {
    const values = figures(proceedsRow);
    if (values.length >= 2 && values[values.length - 1]! > values[0]!) set(r, "net_proceeds", values[values.length - 1], proceedsRow.text.slice(0, 200));
  }
  if (r.terms.price_per_share === null) {
    const pair = r.pairs.find((p) => /^(?:public )?offering price\b|^price per share\b/i.test(p.label) && new RegExp(AMOUNT).test(p.value));
    if (pair) {
      const m = new RegExp(AMOUNT).exec(pair.value)!;
      set(r, "price_per_share", parseDollars(m[1]!), pairQuote(pair, m.index, m[0].length));
    }
  }
  if (r.terms.price_per_share === null) {
    const sentence =
      findInLines(r.cover, new RegExp(`\\b(?:combined )?(?:public )?offering price (?:for|of) each (?:share|unit)[^.$]{0,60}?is ${AMOUNT}`, "i")) ??
      findInLines(r.cover, new RegExp(`\\beach unit has an offering price of ${AMOUNT}`, "i")) ??
      // a fixed-price offering states its one price ("We are offering 3,200,000 Units at a fixed price of $6.25 per Unit")
      findInLines(r.lines, new RegExp(`\\bWe are offering [^.]{0,80}\\bat a fixed price of ${AMOUNT} per (?:share|unit)\\b`, "i"));
    if (sentence) set(r, "price_per_share", parseDollars(sentence.match[1]!), sentence.quote);
  }
}

function readFee(r: Reading) {
  const fee = findInLines(
    r.lines,
    /\b(?:cash fee|placement fee|fee|commission|discount|compensation)[^.%]{0,100}?\b(?:equal to|of|up to|not to exceed)\s(?:up to\s)?(\d{1,2}(?:\.\d{1,2})?)\s?%(?:\s|\))[^.]{0,30}?\bof the (?:aggregate )?(?:gross (?:sales )?(?:proceeds|price)|sales price|gross)/i,
  );
  if (fee) set(r, "discount_or_fee_percent", Number(fee.match[1]), fee.quote);
  else {
    // "… the initial public offering price … less a 7% underwriting discount"
    const discount = findInLines(r.lines, /\b(?:less|net of) (?:an? )?(\d{1,2}(?:\.\d{1,2})?)\s?% (?:underwriting discount|placement (?:agent )?fee|selling concession)\b/i);
    if (discount) set(r, "discount_or_fee_percent", Number(discount.match[1]), discount.quote);
  }
}

const RULE_415_BOX = /\bpursuant to Rule 415\b[^.]{0,200}?\bcheck the following box\s*[.:]?/i;
const CHECKED = /^[☒☑✓✔⌧■xXýþ]$/u;
const UNCHECKED = /^[☐□◻¨oO]$/u;

/** The facing page's Rule 415 box: the mark right after "check the following box", on its line or the next. */
function readRule415(r: Reading) {
  const found = findInLines(r.lines, RULE_415_BOX, 0, 120);
  if (!found) return;
  const index = r.lines.indexOf(found.line);
  const after = found.line.text.slice(found.match.index + found.match[0].length).trim();
  const mark = after ? after.split(/\s+/)[0]! : (r.lines[index + 1]?.text.trim().split(/\s+/)[0] ?? "");
  const checked = CHECKED.test(mark) ? true : UNCHECKED.test(mark) ? false : null;
  if (checked === null) return;
  // The sentence's tail up to the mark, whole words, within a quote's 200 characters.
  const words = found.match[0].trim().split(/\s+/);
  while (words.length > 1 && words.join(" ").length + mark.length + 1 > 200) words.shift();
  set(r, "rule_415", checked, `${words.join(" ")} ${mark}`);
}

const CONCURRENT_PLACEMENT = /\bin (?:a|the) concurrent (?:unregistered )?private placement\b[^.]{0,80}?\bwe are (?:also )?(?:selling|issuing|offering)\b/i;
const PRIVATE_WARRANT_SHARES = new RegExp(`\\bwarrants?\\b[^.;]{0,120}?\\bto purchase up to (?:an aggregate of )?(${COUNT}) (?:shares|ordinary shares)`, "gi");
const PRIVATE_WARRANT_PRICE = /\bexercise price of \$\s?(\d+(?:\.\d+)?)\s+per\s+([^.;]{0,40})/gi;

/**
 * The warrants of a concurrent private placement, from the paragraph that
 * announces it ("In a concurrent private placement, we are also selling …
 * warrants to purchase up to N shares … exercise price of $X per …"): one
 * per "to purchase up to N shares" clause of its first sentence, pre-funded
 * when its clause says so; a price goes to the pre-funded warrant when its
 * "per …" names pre-funded warrants, else to the other. Private placements
 * the company did before (told in the past tense) are not read.
 */
function readPrivatePlacement(r: Reading) {
  const found = findInLines(r.lines, CONCURRENT_PLACEMENT);
  if (!found) return;
  const text = found.line.text;
  const start = found.match.index;
  const firstSentenceEnd = text.indexOf(". ", start);
  const sentence = text.slice(start, firstSentenceEnd < 0 ? text.length : firstSentenceEnd);
  const warrants: { preFunded: boolean | null; shares: number; quote: string }[] = [];
  let clauseStart = 0;
  for (const m of sentence.matchAll(PRIVATE_WARRANT_SHARES)) {
    const clause = sentence.slice(clauseStart, m.index + m[0].length);
    clauseStart = m.index + m[0].length;
    const shares = parseCount(m[1]!);
    if (shares === null) continue;
    const at = start + m.index;
    const preFunded = /\bpre-?funded\b/i.test(clause);
    // "Series A warrants … and pre-funded warrants …, to purchase up to an aggregate of N shares": one count for both kinds
    const together = preFunded && /\baggregate\b/i.test(m[0]) && /\b(?:series [a-z0-9-]+|common(?: stock)?|private|unregistered|ordinary) warrants\b/i.test(clause.replace(/pre-?funded[^,;]{0,30}warrants/gi, ""));
    warrants.push({ preFunded: together ? null : preFunded, shares, quote: quoteAround(text, at, at + m[0].length) });
  }
  if (warrants.length === 0) return;
  const prices = [...text.slice(start).matchAll(PRIVATE_WARRANT_PRICE)].map((m) => {
    const at = start + m.index;
    const sentence = text.slice(text.lastIndexOf(". ", at) + 2, at);
    return {
      value: parseDollars(m[1]!),
      preFunded: /\bpre-?funded\b/i.test(m[2]!),
      // "Each Warrant will be exercisable … at an exercise price of $2.86 per share": said of every warrant the paragraph defines
      ofEvery: /^(?:Each|The|All(?: of the)?) (?:common |private )?warrants?\b/i.test(sentence) && !/\bseries\b|\bpre-?funded\b/i.test(sentence),
      quote: quoteAround(text, at, at + m[0].length),
    };
  });
  warrants.forEach((warrant, index) => {
    const sameKind = prices.filter((p) => p.preFunded === warrant.preFunded);
    // One warrant and one price: the price is its. Otherwise a price is matched by kind, when only one of that kind is stated
    // (for one warrant of the kind, or for every warrant of it when the sentence says so).
    const ofKind = warrants.filter((w) => w.preFunded === warrant.preFunded).length;
    const price =
      warrants.length === 1 && prices.length === 1 ? prices[0] : sameKind.length === 1 && (ofKind === 1 || (warrant.preFunded === false && sameKind[0]!.ofEvery)) ? sameKind[0] : undefined;
    r.terms.private_placement_warrants.push({ pre_funded: warrant.preFunded, shares: warrant.shares, exercise_price: price?.value ?? null });
    r.evidence[`private_placement_warrants[${index}].shares`] = warrant.quote;
    if (price?.value != null) r.evidence[`private_placement_warrants[${index}].exercise_price`] = price.quote;
  });
}

function readSplits(r: Reading, company: string | null) {
  for (const split of readReverseSplits(r.lines, company)) {
    const index = r.terms.reverse_splits.length;
    r.terms.reverse_splits.push({ ratio: split.ratio, effective_date: split.effective_date });
    r.evidence[`reverse_splits[${index}].ratio`] = split.ratioQuote;
    if (split.dateQuote) r.evidence[`reverse_splits[${index}].effective_date`] = split.dateQuote;
  }
}

function readAtm(r: Reading) {
  // what this supplement itself offers, when a program of an earlier agreement is larger: "… than the $4,100,000 in shares of common stock offered by this prospectus supplement"
  const own = findInLines(r.lines, new RegExp(`${AMOUNT}(?:\\s(million|billion))?\\s+(?:in shares )?(?:of (?:our )?common stock\\s+)?offered (?:by|under|pursuant to) this prospectus supplement`, "i"));
  if (own) set(r, "atm_max_amount", parseScaledDollars(own.match[1]!, own.match[2]), own.quote);
  const max = findInLines(r.lines, new RegExp(`\\baggregate (?:gross )?(?:offering|sales) price of up to ${AMOUNT}(?:\\s(million|billion))?`, "i"));
  if (max) set(r, "atm_max_amount", parseScaledDollars(max.match[1]!, max.match[2]), max.quote);
}

/**
 * Reads one filing. `feeExhibit` is taken from the filing's `EX-FILING FEES`
 * (Exhibit 107) document when it has one.
 */
export function readOfferingTerms(filing: Filing): OfferingReading {
  const form = (filing.header.form ?? "").toUpperCase();
  const terms: OfferingTerms = { ...EMPTY_TERMS, private_placement_warrants: [], reverse_splits: [] };
  if (!isOfferingDocument(form) || !filing.primary) return { terms: { ...terms, fee_table_kind: null }, evidence: {} };
  const lines = documentLines(filing.primary.blocks());
  const r: Reading = { lines, cover: coverLines(lines), titles: prospectusTitleLines(lines), pairs: labelledValues(lines), terms, evidence: {} };

  const exhibit = filing.documents.find((d) => /^EX-(?:FILING FEES|107)\b/i.test(d.type));
  const fees = exhibit ? readFeeExhibit(exhibit.blocks(), exhibit.inlineXbrl()) : REGISTRATION_FORMS.test(form) || PROSPECTUS_FORMS.test(form) ? readCoverFeeTable(lines) : NO_FEE_TABLE;
  if (fees.kind !== "none" && fees.titleQuote) {
    r.terms.fee_table_kind = fees.kind;
    r.evidence.fee_table_kind = fees.titleQuote;
    set(r, "max_aggregate_offering", fees.maxAggregateOffering, fees.maxAggregateQuote);
  }

  readSplits(r, filing.header.company);
  const shelf = readBabyShelf(lines);
  r.terms.baby_shelf = shelf.baby_shelf;
  Object.assign(r.evidence, shelf.evidence);
  if (REGISTRATION_FORMS.test(form) && !/^POS/.test(form)) readRule415(r);
  const type = classify(r, form, fees);
  if (type) set(r, "offering_type", type.type, type.quote);
  // (a registration statement with no fee table of its own, whose prospectus states its size: an amendment after the fee exhibit was filed)
  if (REGISTRATION_FORMS.test(form) && !/^POS/.test(form) && fees.kind === "none" && !(type?.type === "other" && /\bfiled (?:solely|for the sole purpose)|exhibit-only/i.test(type.quote))) readCoverAmount(r);
  readAgent(r);
  if (type?.type === "not_equity") return { terms: r.terms, evidence: r.evidence };
  // a prospectus supplement whose kind the cover does not say still states what it offers ("We are offering 1,040,000 shares … and Pre-Funded Warrants …")
  const unclassifiedOffer = type === null && PROSPECTUS_FORMS.test(form) && findInLines(r.cover, /\bwe are offering\b/i) !== null;
  const describesAnOffering = (type !== null && type.type !== "other") || unclassifiedOffer;
  const resale = type?.type === "other" && RESALE.test(type.quote);
  if (describesAnOffering || resale) readShares(r);
  if (describesAnOffering) {
    readWarrants(r);
    readPrivatePlacement(r);
    readPricing(r);
    readFee(r);
    if (type?.type === "atm") readAtm(r);
  }
  if (resale) {
    // a resale prospectus states no issuer's price, proceeds or agent
    for (const field of ["shares_outstanding_before", "shares_outstanding_after", "overallotment_shares", "agent", "agent_role"] as const) {
      r.terms[field] = null;
      delete r.evidence[field];
    }
  }
  if (type?.type === "other" && !resale) {
    r.terms.agent = null;
    r.terms.agent_role = null;
    delete r.evidence.agent;
    delete r.evidence.agent_role;
  }
  if (type?.type === "atm") {
    // an at-the-market program sells an amount, not a number of shares, at prices not yet known
    for (const field of ["common_shares_offered", "price_per_share", "gross_proceeds", "net_proceeds"] as const) {
      r.terms[field] = null;
      delete r.evidence[field];
    }
  }
  return { terms: r.terms, evidence: r.evidence };
}

// ───────────────────────────── at-the-market offerings, from the text alone ─────────────────────────────

/**
 * True when a prospectus (supplement) describes an at-the-market offering: an
 * "at the market offering" (Rule 415(a)(4)), an equity distribution
 * agreement, or a sales agreement together with a sales agent.
 */
export function isAtmOffering(text: string): boolean {
  const t = normalizeForMatching(text).replace(/["\u2120\u2122\u00ae]/g, "");
  if (/\bat[- ]the[- ]market\s+(?:offering|program|issuance|sales? agreement)/.test(t)) return true;
  if (/\bat[- ]the[- ]market\b[^.]{0,80}rule 415\s*\(a\)\s*\(4\)/.test(t)) return true;
  if (/\bequity distribution agreement\b/.test(t)) return true;
  const salesAgreement = /\b(?:open market sale|atm sales?|sales?) agreement\b/.test(t);
  return salesAgreement && /\bsales? agents?\b/.test(t);
}
