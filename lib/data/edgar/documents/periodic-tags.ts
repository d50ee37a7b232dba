import type { InlineXbrl, XbrlContext, XbrlFact } from "./inline-xbrl";
import type { FieldSource, PeriodicReading, SharesOutstanding, WarrantSeries, WarrantsTotal } from "./periodic-fields";
import type { Block } from "./html";
import { isoDate, nameKey, quoteAround, sentencesOf, WRITTEN_DATE_PATTERN } from "./text";

/**
 * What a periodic report tags in its own inline XBRL (./inline-xbrl.ts),
 * read before what it writes: warrants by series (the member that names the
 * instrument, on the warrant axis or any axis whose member says "Warrant"),
 * their total, and the cover's share count. A tag is used only when its
 * concept, unit and context date fit the field: counts and prices
 * outstanding at the period end, never on a range end, a scenario, or a
 * concept for amounts issued, exercised, converted or issuable.
 *
 * The filer's own extension concepts are understood by the words of their
 * names (the tables below), never by a company's prefix. Then
 * `mergeTagged` lays the tags under what the text reader found: where the
 * text states the same fact differently, the text wins, and `sources` says
 * which was used and why.
 */

// ───────────────────────────── the vocabulary ─────────────────────────────

/** Standard concepts by the field they state. */
const STANDARD = {
  warrantsOutstanding: ["ClassOfWarrantOrRightOutstanding"],
  /** the shares the warrants are exercisable into: used as the count only where no "outstanding" is tagged */
  warrantsCalledShares: ["ClassOfWarrantOrRightNumberOfSecuritiesCalledByWarrantsOrRights"],
  warrantPrice: ["ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights1", "ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights"],
  warrantExpiry: ["WarrantsAndRightsOutstandingMaturityDate"],
  sharesOutstanding: ["EntityCommonStockSharesOutstanding"],
  noteConversionPrice: ["DebtInstrumentConvertibleConversionPrice1"],
  noteMaturity: ["DebtInstrumentMaturityDate"],
  preferredConversionPrice: ["PreferredStockConvertibleConversionPrice"],
};

/** Words in an extension concept's name that say what it states (all of a row's words must be there). */
const EXTENSION_WORDS: { field: keyof typeof STANDARD; words: RegExp[] }[] = [
  { field: "warrantsOutstanding", words: [/Warrant/, /Outstanding/] },
  { field: "warrantPrice", words: [/Warrant/, /ExercisePrice/] },
  { field: "warrantExpiry", words: [/Warrant/, /(?:Expir\w*|Maturity|Termination)Date|DateOf(?:Expir|Maturity)/] },
];

/** Words that make a concept something else than an amount outstanding now. */
const NOT_OUTSTANDING = /Issued|Issuable|Issuance|Exercised|Granted|Expired|Forfeit|Cancel|Convert|Repurchas|Redeem|Redemption|Value|FairValue|Liabilit|Term\b|Each|Percentage|Ratio|Proceeds|Fee|Weighted|Intrinsic|Modif|Increase|Decrease|Change|Threshold|Minimum|Maximum/;

/** An exercise price whose name says it was the price before a split or repricing is not the price now. */
const EARLIER_PRICE = /Before|PriorTo|Previous|Original|PreSplit|PreReverse|Old[A-Z]/;
/** …and one whose name says it is the price after one is preferred to a plain one. */
const LATER_PRICE = /After|PostSplit|PostReverse|SplitAdjusted|Adjusted|Amended|Reduced|Revised|Repriced|New[A-Z]/;

/** Axes and members that put a fact in a hypothetical, a range or a plan rather than the period-end state. */
const EXCLUDED_AXES = /(?:^|:)(?:RangeAxis|StatementScenarioAxis|ScenarioAxis|ProFormaAxis)$/;
const EXCLUDED_MEMBERS = /(?:^|:)(?:Minimum|Maximum|WeightedAverage|Forecast|Scenario|ProForma|Issuable|Plan|If[A-Z]|Estimate)\w*Member$/;
const SUBSEQUENT_AXES = /(?:^|:)SubsequentEventTypeAxis$/;
/** A member that names a warrant instrument, on whatever axis. */
const WARRANT_MEMBER = /warrant/i;
const WARRANT_AXIS = /(?:^|:)ClassOfWarrantOrRightAxis$/;
const PRE_FUNDED = /pre-?funded/i;

const CONVERTIBLE_FIELDS = new Set<keyof typeof STANDARD>(["noteConversionPrice", "noteMaturity", "preferredConversionPrice"]);

const STANDARD_NAMESPACE = /^http:\/\/(?:fasb\.org\/(?:us-gaap|srt)|xbrl\.sec\.gov\/dei)\/\d{4}/;

function local(concept: string): string {
  return concept.slice(concept.indexOf(":") + 1);
}

/** Is the concept standard (by the URI its prefix stands for, or the usual prefixes when undeclared)? */
function isStandard(fact: XbrlFact): boolean {
  if (fact.namespace) return STANDARD_NAMESPACE.test(fact.namespace);
  return /^(?:us-gaap|srt|dei):/.test(fact.concept);
}

function fieldOf(fact: XbrlFact): keyof typeof STANDARD | null {
  const name = local(fact.concept);
  if (isStandard(fact)) {
    for (const [field, names] of Object.entries(STANDARD) as [keyof typeof STANDARD, string[]][]) if (names.includes(name)) return field;
    return null;
  }
  for (const row of EXTENSION_WORDS) {
    if (!row.words.every((w) => w.test(name))) continue;
    if (row.field === "warrantsOutstanding" && NOT_OUTSTANDING.test(name)) continue;
    if (row.field === "warrantPrice" && (EARLIER_PRICE.test(name) || /Weighted|Redemption|Threshold|Minimum|Maximum/.test(name))) continue;
    return row.field;
  }
  return null;
}

// ───────────────────────────── contexts ─────────────────────────────

export interface Placed {
  fact: XbrlFact;
  field: keyof typeof STANDARD;
  /** the warrant member(s) naming the series, joined; "" for a fact about all warrants */
  series: string;
  instant: string | null;
  subsequent: boolean;
}

function instantOf(context: XbrlContext): string | null {
  const p = context.period;
  if (!p) return null;
  if ("instant" in p) return p.instant;
  if ("end" in p) return p.end;
  return null;
}

/** Where a fact stands: its series, its day, or null when its context puts it out of the period-end state. */
function place(fact: XbrlFact, field: keyof typeof STANDARD): Placed | null {
  const context = fact.context;
  if (!context) return null;
  let subsequent = false;
  const series: string[] = [];
  for (const d of context.dimensions) {
    if (EXCLUDED_AXES.test(d.dimension) || (d.member && EXCLUDED_MEMBERS.test(d.member))) return null;
    if (SUBSEQUENT_AXES.test(d.dimension)) subsequent = true;
    else if (d.member && (CONVERTIBLE_FIELDS.has(field) || WARRANT_AXIS.test(d.dimension) || WARRANT_MEMBER.test(local(d.member)))) series.push(d.member);
  }
  return { fact, field, series: series.sort().join("+"), instant: instantOf(context), subsequent };
}

// ───────────────────────────── series ─────────────────────────────

/** "aeon:PublicWarrantsMember" → "Public Warrants"; "muln:SeriesDWarrants2022Member" → "Series D Warrants 2022". */
export function memberWords(member: string): string {
  return local(member)
    .replace(/Member$/, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/([A-Z])([A-Z][a-z])/g, "$1 $2")
    .replace(/([A-Za-z])(\d)/g, "$1 $2")
    .replace(/(\d)([A-Za-z])/g, "$1 $2")
    .replace(/\bPre ?funded\b/i, "Pre-funded")
    .trim();
}

const BALANCE_LINE = /^(?:balance|outstanding|total|exercisable|ending|beginning|as of|at )/i;

/** The label of the table row that shows a fact, when it names the series ("Series D warrants (1)"), not a balance line. */
function rowLabel(blocks: Block[], fact: XbrlFact): string | null {
  const at = fact.shownAt;
  const block = at ? blocks[at.block] : undefined;
  if (!at || at.row === null || block?.kind !== "table") return null;
  const label = (block.rows[at.row] ?? []).find((cell) => cell !== "")?.replace(/\(\d\)|\*+/g, "").trim();
  if (!label || label.length > 80 || !/[a-z]/i.test(label) || BALANCE_LINE.test(label)) return null;
  return /warrant|series|pre-?funded/i.test(label) ? label : null;
}

/** Member names that say no more than "warrants" ("CommonStockWarrantsMember", "WarrantMember"). */
const GENERIC_MEMBER = /^(?:(?:common|stock|equity|class|[ab]|warrants?|member)\s*)+$/i;

/** "the Company issued warrants to XMS Capital Partners, LLC": who a generic member's warrants went to, in the fact's paragraph. */
const HOLDER_PHRASE = /\b(?:issued|granted|sold)\s+(?:to\s+)?warrants\s+to\s+((?:[A-Z][\w&.'’-]*,?\s+){0,5}?(?:LLC|L\.P\.|LP|Inc\.|Ltd\.?|Corp\.|Corporation|Company))/;

function holderIn(blocks: Block[], fact: XbrlFact): string | null {
  const block = fact.shownAt ? blocks[fact.shownAt.block] : undefined;
  if (block?.kind !== "text") return null;
  return HOLDER_PHRASE.exec(block.text)?.[1]?.replace(/,\s*$/, "") ?? null;
}

/** The label the filing itself gives the series: the header of the table row that shows it. */
function ownLabel(facts: Placed[], blocks: Block[]): string | null {
  for (const p of facts) {
    const label = rowLabel(blocks, p.fact);
    if (label) return label;
  }
  return null;
}

function seriesLabel(series: string, facts: Placed[], blocks: Block[]): string {
  const own = ownLabel(facts, blocks);
  if (own) return own;
  const words = series.split("+").map(memberWords).join(", ");
  if (GENERIC_MEMBER.test(words)) {
    for (const p of facts) {
      const holder = holderIn(blocks, p.fact);
      if (holder) return `Warrants issued to ${holder}`;
    }
  }
  return words;
}

/**
 * How prose says when the warrants it has just tagged end ("may be exercised
 * at any time through August 12, 2026", "expire on July 21, 2028"): read in
 * the tagged fact's own paragraph, after it, when no expiry is tagged.
 */
const EXPIRY_PHRASES = [
  new RegExp(`\\b(?:exercised|exercisable)\\b[^.;]{0,40}?\\b(?:through|until|on or before|prior to)\\s+${WRITTEN_DATE_PATTERN}`),
  new RegExp(`\\bexpir(?:e|es|ing|ation date(?: is| of)?)\\b[^.;]{0,60}?\\b(?:on|at [^,.;]{0,40}, on)\\s+${WRITTEN_DATE_PATTERN}`),
];

function expiryInParagraph(blocks: Block[], fact: XbrlFact): { date: string; quote: string } | null {
  const at = fact.shownAt;
  const block = at ? blocks[at.block] : undefined;
  if (!at || at.row !== null || block?.kind !== "text" || !fact.quote) return null;
  const from = Math.max(0, block.text.indexOf(fact.quote));
  const rest = block.text.slice(from);
  for (const phrase of EXPIRY_PHRASES) {
    const m = phrase.exec(rest);
    const date = m ? isoDate(m[1]!) : null;
    if (!m || !date || HYPOTHETICAL_CLAUSE.test(m[0])) continue;
    const sentence = sentencesOf(rest).find((s) => s.start <= m.index && m.index < s.start + s.text.length + 1);
    return { date, quote: quoteAround(sentence?.text ?? rest, 0, 0) };
  }
  return null;
}

/** An expiry that depends on something is no date ("until the earlier of …", "if …"). */
const HYPOTHETICAL_CLAUSE = /\b(?:if|unless|earlier of|later of|may be extended)\b/i;

export type { FieldSource } from "./periodic-fields";

export interface TaggedPeriodic {
  warrants: WarrantSeries[];
  /** the series (by index) whose label is the header of the row that shows them: the filing's own name, kept over a description */
  labelledByRow: Set<number>;
  warrants_total: WarrantsTotal | null;
  shares_outstanding: SharesOutstanding | null;
  /** conversion prices and maturities tagged up to the period end, with the members they are tagged on, for the text's convertibles */
  convertibleTags: Placed[];
  evidence: Record<string, string>;
  sources: Record<string, FieldSource>;
}

const quoted = (p: Placed) => p.fact.quote !== null && p.fact.value !== null;

/** The one value the facts agree on, or null when they give several. */
function agreed<T>(values: T[]): T | null {
  const distinct = [...new Set(values)];
  return distinct.length === 1 ? distinct[0]! : null;
}

/**
 * Picks a field's fact: at the period end; for a price or an expiry, else
 * the one value every dated fact up to the period end agrees on; a later
 * name's price (after a split, a repricing) before a plain one.
 */
function pick(facts: Placed[], field: keyof typeof STANDARD, period: string): Placed | null {
  const candidates = facts.filter((p) => p.field === field && !p.subsequent && quoted(p));
  const atEnd = candidates.filter((p) => p.instant === period);
  const preferLater = (list: Placed[]) => {
    const later = list.filter((p) => LATER_PRICE.test(local(p.fact.concept)));
    return later.length ? later : list;
  };
  const agreedOn = (list: Placed[]) => {
    const value = agreed(list.map((p) => p.fact.value));
    return value === null ? null : list.find((p) => p.fact.value === value)!;
  };
  if (field === "warrantsOutstanding" || field === "warrantsCalledShares") return agreedOn(atEnd);
  const end = agreedOn(preferLater(atEnd));
  if (end || atEnd.length) return end;
  return agreedOn(preferLater(candidates.filter((p) => p.instant !== null && p.instant <= period)));
}

function sourceOf(p: Placed): FieldSource {
  return { from: "xbrl", concept: p.fact.concept, context: p.fact.contextRef ?? undefined };
}

/** Reads the warrants and cover count a periodic report tags, for the period ending `period` (YYYY-MM-DD). */
export function readTaggedPeriodic(xbrl: InlineXbrl, blocks: Block[], period: string | null): TaggedPeriodic {
  const evidence: Record<string, string> = {};
  const sources: Record<string, FieldSource> = {};
  const out: TaggedPeriodic = { warrants: [], labelledByRow: new Set(), warrants_total: null, shares_outstanding: null, convertibleTags: [], evidence, sources };
  const placed: Placed[] = [];
  for (const fact of xbrl.facts) {
    const field = fieldOf(fact);
    if (!field) continue;
    if ((field === "warrantsOutstanding" || field === "warrantsCalledShares" || field === "sharesOutstanding") && !isCount(fact)) continue;
    if ((field === "warrantPrice" || field === "noteConversionPrice" || field === "preferredConversionPrice") && !isPerShare(fact)) continue;
    if (field === "noteMaturity" && !(typeof fact.value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(fact.value))) continue;
    if (field === "warrantExpiry" && !(typeof fact.value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(fact.value))) continue;
    const at = place(fact, field);
    if (at) placed.push(at);
  }
  const record = (path: string, p: Placed) => {
    evidence[path] = p.fact.quote!;
    sources[path] = sourceOf(p);
  };

  const cover = placed.filter((p) => p.field === "sharesOutstanding" && quoted(p));
  const plainCover = cover.filter((p) => (p.fact.context?.dimensions.length ?? 0) === 0);
  const coverFact = plainCover.length === 1 ? plainCover[0]! : cover.length === 1 ? cover[0]! : null;
  if (coverFact) {
    out.shares_outstanding = { value: coverFact.fact.value as number, as_of: coverFact.instant };
    record("shares_outstanding.value", coverFact);
    if (coverFact.instant) record("shares_outstanding.as_of", coverFact);
  }
  if (!period) return out;

  out.convertibleTags = placed.filter((p) => CONVERTIBLE_FIELDS.has(p.field) && quoted(p) && !p.subsequent && p.instant !== null && p.instant <= period);
  const bySeries = new Map<string, Placed[]>();
  for (const p of placed) {
    if (p.field === "sharesOutstanding" || CONVERTIBLE_FIELDS.has(p.field)) continue;
    bySeries.set(p.series, [...(bySeries.get(p.series) ?? []), p]);
  }
  for (const [series, facts] of bySeries) {
    const count = pick(facts, "warrantsOutstanding", period) ?? pick(facts, "warrantsCalledShares", period);
    const price = pick(facts, "warrantPrice", period);
    const expiry = pick(facts, "warrantExpiry", period);
    if (series === "") {
      if (!count) continue;
      out.warrants_total = { shares_outstanding: count.fact.value as number, weighted_average_exercise_price: null, as_of: period };
      record("warrants_total.shares_outstanding", count);
      record("warrants_total.as_of", count);
      continue;
    }
    // a series is what is outstanding at the period end: its count says so, or its price stated at the period end
    if (!count && !(price && price.instant === period)) continue;
    const at = out.warrants.length;
    const item: WarrantSeries = {
      series: seriesLabel(series, [count, price].filter((p): p is Placed => p !== null), blocks),
      shares_outstanding: count ? (count.fact.value as number) : null,
      exercise_price: price ? (price.fact.value as number) : null,
      expiry: expiry ? (expiry.fact.value as string) : null,
      as_of: period,
    };
    if (ownLabel([count, price].filter((p): p is Placed => p !== null), blocks)) out.labelledByRow.add(at);
    if (PRE_FUNDED.test(series) || PRE_FUNDED.test(item.series ?? "")) item.pre_funded = true;
    out.warrants.push(item);
    const first = count ?? price!;
    record(`warrants[${at}].series`, first);
    record(`warrants[${at}].as_of`, first);
    if (count) record(`warrants[${at}].shares_outstanding`, count);
    if (price) record(`warrants[${at}].exercise_price`, price);
    if (expiry) record(`warrants[${at}].expiry`, expiry);
    else {
      const said = expiryInParagraph(blocks, first.fact);
      if (said) {
        item.expiry = said.date;
        evidence[`warrants[${at}].expiry`] = said.quote;
        sources[`warrants[${at}].expiry`] = { from: "text", note: "the paragraph of the tagged series" };
      }
    }
  }
  return out;
}

function isCount(fact: XbrlFact): boolean {
  return typeof fact.value === "number" && Number.isInteger(fact.value) && fact.value >= 0 && (fact.unit === null || /^shares$/i.test(fact.unit) || /^pure$/i.test(fact.unit) || /warrant/i.test(fact.unit));
}

function isPerShare(fact: XbrlFact): boolean {
  return typeof fact.value === "number" && fact.value > 0 && fact.unit !== null && /^[A-Z]{3}\/shares$/i.test(fact.unit);
}

// ───────────────────────────── convertibles ─────────────────────────────

/** Words every convertible's name has, which tell no instrument from another. */
const GENERIC_WORDS = /\b(?:convertible|notes?|debentures?|stock|shares?|preferred|member|the|of|and|company|s)\b/gi;

function distinctive(text: string): string {
  return nameKey(text.replace(GENERIC_WORDS, " "));
}

/**
 * The tag for a convertible the text read without the field: on a member
 * whose words name it ("SeriesAPreferredStockMember" for "Series A Preferred
 * Stock"), or, when the report has one convertible of that kind, untagged by
 * any member; used only when every such tag up to the period end agrees.
 */
function convertibleTag(tags: Placed[], field: keyof typeof STANDARD, name: string, ofKind: number): Placed | null {
  const key = distinctive(name);
  const candidates = tags.filter((p) => p.field === field);
  const named = key ? candidates.filter((p) => p.series.split("+").some((m) => { const words = distinctive(memberWords(m)); return words !== "" && (words.includes(key) || key.includes(words)); })) : [];
  const chosen = named.length ? named : ofKind === 1 ? candidates.filter((p) => p.series === "") : [];
  const value = agreed(chosen.map((p) => p.fact.value));
  return value === null ? null : chosen.find((p) => p.fact.value === value)!;
}

// ───────────────────────────── laying tags under the text ─────────────────────────────

/**
 * Does a text series read the same warrants as a tagged one: read from the
 * same row or sentence, the same count, the same price and expiry, or a
 * label in common?
 */
function sameWarrants(text: WarrantSeries, tag: WarrantSeries, sameQuote: boolean): boolean {
  if (sameQuote) return true;
  if (text.shares_outstanding !== null && text.shares_outstanding === tag.shares_outstanding) return true;
  if (text.expiry !== null && text.expiry === tag.expiry && text.exercise_price !== null && text.exercise_price === tag.exercise_price) return true;
  const a = nameKey(text.series ?? "");
  const b = nameKey(tag.series ?? "");
  const labelled = a !== "" && b !== "" && (a.includes(b) || b.includes(a));
  if (labelled && (text.shares_outstanding === null || tag.shares_outstanding === null)) return true;
  return labelled && text.exercise_price !== null && text.exercise_price === tag.exercise_price && text.shares_outstanding === null;
}

const WARRANT_FIELDS = ["series", "shares_outstanding", "exercise_price", "expiry", "as_of"] as const;

/**
 * The reading with the tagged facts laid under it: each tagged series joins
 * the text's series it matches (the text's values kept where it has them,
 * the tag's filling the rest) or is added; a total and the cover's count
 * fill only what the text left empty.
 */
export function mergeTagged(reading: PeriodicReading, tagged: TaggedPeriodic): PeriodicReading {
  const report = { ...reading.report, warrants: reading.report.warrants.map((w) => ({ ...w })), convertibles: [...reading.report.convertibles] };
  const evidence = { ...reading.evidence };
  const sources: Record<string, FieldSource> = {};
  for (const path of Object.keys(evidence)) sources[path] = reading.sources?.[path] ?? { from: "text" };
  const take = (to: string, from: string) => {
    if (tagged.evidence[from]) evidence[to] = tagged.evidence[from]!;
    if (tagged.sources[from]) sources[to] = tagged.sources[from]!;
  };

  if (!report.shares_outstanding && tagged.shares_outstanding) {
    report.shares_outstanding = tagged.shares_outstanding;
    take("shares_outstanding.value", "shares_outstanding.value");
    take("shares_outstanding.as_of", "shares_outstanding.as_of");
  } else if (report.shares_outstanding && tagged.shares_outstanding && report.shares_outstanding.value !== tagged.shares_outstanding.value) {
    const tag = tagged.sources["shares_outstanding.value"];
    sources["shares_outstanding.value"] = { from: "text", concept: tag?.concept, context: tag?.context, note: `the text states ${report.shares_outstanding.value}; the tag ${tagged.shares_outstanding.value}` };
  }

  const used = new Set<number>();
  tagged.warrants.forEach((tag, t) => {
    const quoteOf = (evidence: Record<string, string>, i: number) => evidence[`warrants[${i}].shares_outstanding`] ?? evidence[`warrants[${i}].exercise_price`];
    const tagQuote = quoteOf(tagged.evidence, t);
    const match = report.warrants.findIndex((w, i) => !used.has(i) && sameWarrants(w, tag, tagQuote !== undefined && quoteOf(reading.evidence, i) === tagQuote));
    if (match < 0) {
      const at = report.warrants.length;
      report.warrants.push({ ...tag });
      used.add(at);
      for (const field of WARRANT_FIELDS) take(`warrants[${at}].${field}`, `warrants[${t}].${field}`);
      return;
    }
    used.add(match);
    const text = report.warrants[match]!;
    for (const field of WARRANT_FIELDS) {
      const path = `warrants[${match}].${field}`;
      const ownName = field === "series" && tagged.labelledByRow.has(t);
      if (text[field] === null || text[field] === undefined || ownName) {
        if (tag[field] === null) continue;
        (text as unknown as Record<string, unknown>)[field] = tag[field];
        take(path, `warrants[${t}].${field}`);
      } else if (tag[field] !== null && field !== "series" && text[field] !== tag[field]) {
        const tagSource = tagged.sources[`warrants[${t}].${field}`];
        sources[path] = { from: "text", concept: tagSource?.concept, context: tagSource?.context, note: `the text states ${text[field]}; the tag ${tag[field]}` };
      }
    }
    if (tag.pre_funded) text.pre_funded = true;
  });

  report.convertibles = report.convertibles.map((c, i) => {
    const filled = { ...c };
    const fill = (field: "conversion_price" | "maturity", from: keyof typeof STANDARD) => {
      if (filled[field] !== null) return;
      const tag = convertibleTag(tagged.convertibleTags, from, c.name, report.convertibles.filter((x) => x.kind === c.kind).length);
      if (!tag) return;
      (filled as Record<string, unknown>)[field] = tag.fact.value;
      evidence[`convertibles[${i}].${field}`] = tag.fact.quote!;
      sources[`convertibles[${i}].${field}`] = sourceOf(tag);
    };
    fill("conversion_price", c.kind === "note" ? "noteConversionPrice" : "preferredConversionPrice");
    if (c.kind === "note") fill("maturity", "noteMaturity");
    return filled;
  });

  if (!report.warrants_total && tagged.warrants_total) {
    report.warrants_total = tagged.warrants_total;
    take("warrants_total.shares_outstanding", "warrants_total.shares_outstanding");
    take("warrants_total.as_of", "warrants_total.as_of");
  }
  return { report, evidence, sources };
}
