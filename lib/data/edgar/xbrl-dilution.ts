/**
 * The dilution facts a company tags in XBRL (warrants, convertibles' conversion
 * prices, stock-split ratios), read from company facts
 * (`api/xbrl/companyfacts/CIK##########.json`), and a cross-check of a figure
 * read from a filing's text against them. Pure: no I/O.
 *
 * - Only us-gaap is read (an IFRS filer yields nothing). Company facts carry
 *   only undimensioned facts (no ClassOfWarrantOrRightAxis member), so each
 *   value is the company-wide figure the filing tagged, not one class's.
 * - One value per concept and period end. A period is usually stated by
 *   several filings (a year-end by the 10-K and the next 10-Qs): when they
 *   agree, the first filed is the evidence (where it was first reported);
 *   when they disagree, the latest filing's value is kept and `restated` says
 *   what was first reported. At one end, an instant is preferred over a
 *   duration, and the shortest duration over longer ones.
 * - Warrants: ClassOfWarrantOrRightOutstanding, else (for that period end)
 *   ClassOfWarrantOrRightNumberOfSecuritiesCalledByWarrantsOrRights; the
 *   exercise price ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights1, else
 *   its deprecated predecessor (without the 1).
 * - Convertibles: DebtInstrumentConvertibleConversionPrice1, and the carrying
 *   amounts ConvertibleNotesPayable(Current) / ConvertibleDebt(Current|Noncurrent)
 *   as tagged, one row per concept (never summed: a total and its parts may
 *   both be tagged).
 * - Split ratios (StockholdersEquityNoteStockSplitConversionRatio1 and the
 *   like): companies tag a 1-for-10 reverse split as 0.1 or as 10, and a
 *   5-for-1 split as 5. Only a value below 1 whose reciprocal is a whole N ≥ 2
 *   is read as "1-for-N" on its own; a value ≥ 1 is read as a reverse split
 *   only when the concept's name or a reverse-split text fact of the same
 *   filing says so. Everything else is "ambiguous". Company facts usually
 *   carry no text facts (StockholdersEquityReverseStockSplit); when present
 *   they are read.
 */
import { z } from "zod";
import { EdgarFormatError } from "./filings";

// ---------------------------------------------------------------- types

/** One value per concept and period end, deduplicated over the filings that state it. */
export interface XbrlDilutionFact {
  /** "us-gaap:ClassOfWarrantOrRightOutstanding" */
  concept: string;
  /** EDGAR's unit key: "shares", "USD/shares", "USD", "pure". */
  unit: string;
  value: number;
  /** null for an instant. */
  periodStart: string | null;
  periodEnd: string;
  /** The evidence: the first filing that stated it, or the latest when the filings disagree. */
  accession: string;
  form: string;
  filed: string;
  /** Every filing that stated a value for this period, first filed first. */
  accessions: string[];
  /** Set when those filings disagree: the value first reported (the kept value is the latest filing's). */
  restated: { value: number; accession: string; form: string; filed: string } | null;
}

export interface XbrlWarrants {
  periodEnd: string;
  /** Warrants (or rights) outstanding, or the shares they call for when only that is tagged. */
  outstanding: number | null;
  exercisePrice: number | null;
  /** The price's unit ("USD/shares"); null without a price. */
  exercisePriceUnit: string | null;
  /** The evidence of the count, else of the price. */
  accession: string;
  form: string;
  filed: string;
  outstandingFact: XbrlDilutionFact | null;
  exercisePriceFact: XbrlDilutionFact | null;
  /** Restatements and fallbacks, in words. */
  notes: string[];
}

export interface XbrlConversionPrice {
  periodEnd: string;
  conversionPrice: number;
  unit: string;
  accession: string;
  form: string;
  filed: string;
  fact: XbrlDilutionFact;
  notes: string[];
}

export interface XbrlConvertibleDebt {
  periodEnd: string;
  /** "us-gaap:ConvertibleNotesPayableCurrent", … */
  concept: string;
  amountCents: bigint;
  accession: string;
  form: string;
  filed: string;
  fact: XbrlDilutionFact;
  notes: string[];
}

export interface XbrlSplitRatio {
  periodEnd: string;
  periodStart: string | null;
  /** As tagged (0.1, 10, 5, …). */
  value: number;
  concept: string;
  direction: "reverse" | "ambiguous";
  /** N of a 1-for-N reverse split; null unless unambiguous. */
  reverseFactor: number | null;
  /** "1-for-10"; null unless unambiguous. */
  ratio: string | null;
  /** Why the direction was (or was not) decided. */
  reason: string;
  accession: string;
  form: string;
  filed: string;
  fact: XbrlDilutionFact;
  notes: string[];
}

/** A text fact describing a split (rare in company facts). */
export interface XbrlSplitText {
  concept: string;
  periodEnd: string;
  text: string;
  accession: string;
  form: string;
  filed: string;
}

export interface XbrlDilutionFacts {
  warrants: XbrlWarrants[];
  conversionPrices: XbrlConversionPrice[];
  convertibleDebt: XbrlConvertibleDebt[];
  splitRatios: XbrlSplitRatio[];
  splitTexts: XbrlSplitText[];
}

// ---------------------------------------------------------------- parsing

const GAAP = "us-gaap";
const WARRANTS_OUTSTANDING = "ClassOfWarrantOrRightOutstanding";
const WARRANTS_CALLED = "ClassOfWarrantOrRightNumberOfSecuritiesCalledByWarrantsOrRights";
const WARRANT_PRICE = ["ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights1", "ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights"];
const CONVERSION_PRICE = ["DebtInstrumentConvertibleConversionPrice1", "DebtInstrumentConvertibleConversionPrice"];
const CONVERTIBLE_AMOUNTS = [
  "ConvertibleNotesPayable",
  "ConvertibleNotesPayableCurrent",
  "ConvertibleDebt",
  "ConvertibleDebtCurrent",
  "ConvertibleDebtNoncurrent",
];
/** us-gaap's split-ratio elements (the current one ends in 1; the deprecated one has none). */
const SPLIT_RATIO = /^StockholdersEquity(Note)?(Reverse)?StockSplitConversionRatio\d*$/;
/** Text facts describing a split; the first says "reverse" by its name. */
const REVERSE_SPLIT_TEXT = "StockholdersEquityReverseStockSplit";
const SPLIT_TEXT = ["StockholdersEquityReverseStockSplit", "StockholdersEquityNoteStockSplit", "StockholdersEquityStockSplit"];

const looseFact = z.object({
  start: z.string().optional(),
  end: z.string(),
  val: z.union([z.number(), z.string()]),
  accn: z.string(),
  form: z.string().optional(),
  filed: z.string(),
});
const root = z.object({
  cik: z.union([z.string(), z.number()]).optional(),
  facts: z.record(z.string(), z.unknown()).default({}),
});

interface RawFact {
  concept: string;
  unit: string;
  start: string | null;
  end: string;
  val: number | string;
  accn: string;
  form: string;
  filed: string;
}
type NumericFact = RawFact & { val: number };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every well-formed fact of one concept (any unit); malformed entries are skipped. */
function conceptFacts(gaap: Record<string, unknown>, concept: string): RawFact[] {
  const entry = gaap[concept];
  if (!isRecord(entry) || !isRecord(entry.units)) return [];
  const out: RawFact[] = [];
  for (const [unit, list] of Object.entries(entry.units)) {
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const f = looseFact.safeParse(item);
      if (!f.success) continue;
      out.push({ concept, unit, start: f.data.start ?? null, end: f.data.end, val: f.data.val, accn: f.data.accn, form: f.data.form ?? "", filed: f.data.filed });
    }
  }
  return out;
}

const numeric = (facts: RawFact[]): NumericFact[] => facts.filter((f): f is NumericFact => typeof f.val === "number" && Number.isFinite(f.val));

function byFiled(a: RawFact, b: RawFact): number {
  return a.filed < b.filed ? -1 : a.filed > b.filed ? 1 : a.accn < b.accn ? -1 : a.accn > b.accn ? 1 : 0;
}

/**
 * One fact per period end: the best-ranked unit (rank null = not accepted),
 * the instant (else the shortest duration), deduplicated across filings.
 */
function perEnd(facts: NumericFact[], unitRank: (unit: string) => number | null): Map<string, XbrlDilutionFact> {
  const groups = new Map<string, NumericFact[]>();
  for (const f of facts) {
    if (unitRank(f.unit) === null) continue;
    const list = groups.get(f.end) ?? [];
    list.push(f);
    groups.set(f.end, list);
  }
  const out = new Map<string, XbrlDilutionFact>();
  for (const [end, list] of groups) {
    const bestRank = Math.min(...list.map((f) => unitRank(f.unit)!));
    let chosen = list.filter((f) => unitRank(f.unit) === bestRank);
    const unit = chosen[0]!.unit;
    chosen = chosen.filter((f) => f.unit === unit);
    const instants = chosen.filter((f) => f.start === null);
    if (instants.length > 0) chosen = instants;
    else {
      const latestStart = chosen.map((f) => f.start!).sort().at(-1);
      chosen = chosen.filter((f) => f.start === latestStart);
    }
    out.set(end, dedupe(chosen.sort(byFiled)));
  }
  return out;
}

/** Facts of one concept, unit and period, first filed first → one value. */
function dedupe(sorted: NumericFact[]): XbrlDilutionFact {
  const first = sorted[0]!;
  const last = sorted.at(-1)!;
  const agree = sorted.every((f) => f.val === first.val);
  const kept = agree ? first : last;
  return {
    concept: `${GAAP}:${kept.concept}`,
    unit: kept.unit,
    value: kept.val,
    periodStart: kept.start,
    periodEnd: kept.end,
    accession: kept.accn,
    form: kept.form,
    filed: kept.filed,
    accessions: [...new Set(sorted.map((f) => f.accn))],
    restated: agree ? null : { value: first.val, accession: first.accn, form: first.form, filed: first.filed },
  };
}

/** The first concept of a list that states a value at each end (a fallback per period, not per company). */
function firstPerEnd(gaap: Record<string, unknown>, concepts: string[], unitRank: (unit: string) => number | null): Map<string, XbrlDilutionFact> {
  const out = new Map<string, XbrlDilutionFact>();
  for (const concept of concepts) {
    for (const [end, fact] of perEnd(numeric(conceptFacts(gaap, concept)), unitRank)) if (!out.has(end)) out.set(end, fact);
  }
  return out;
}

/** A count: "shares" first, then any other non-monetary, non-ratio unit a filer used ("warrants"). */
const countUnit = (unit: string): number | null => (unit === "shares" ? 0 : unit.includes("/") || /^[A-Z]{3}$/.test(unit) || unit === "pure" ? null : 1);
/** A price per share: USD/shares first, then other USD per-unit keys, then other currencies. */
const priceUnit = (unit: string): number | null => {
  const m = /^([A-Z]{3})\/([A-Za-z_]+)$/.exec(unit);
  if (!m) return null;
  return m[1] === "USD" ? (m[2] === "shares" ? 0 : 1) : 2;
};
const usdUnit = (unit: string): number | null => (unit === "USD" ? 0 : null);
const pureUnit = (unit: string): number | null => (unit === "pure" ? 0 : null);

const sortByEnd = <T extends { periodEnd: string }>(list: T[]): T[] => list.sort((a, b) => (a.periodEnd < b.periodEnd ? -1 : a.periodEnd > b.periodEnd ? 1 : 0));

export function parseXbrlDilution(companyFactsJson: string | object): XbrlDilutionFacts {
  let json: unknown = companyFactsJson;
  if (typeof companyFactsJson === "string") {
    try {
      json = JSON.parse(companyFactsJson);
    } catch {
      throw new EdgarFormatError("the company facts are not JSON");
    }
  }
  const parsed = root.safeParse(json);
  if (!parsed.success) throw new EdgarFormatError("the company facts have an unexpected shape");
  const gaap = parsed.data.facts[GAAP];
  if (!isRecord(gaap)) return { warrants: [], conversionPrices: [], convertibleDebt: [], splitRatios: [], splitTexts: [] };

  const splitTexts = splitTextFacts(gaap);
  return {
    warrants: warrants(gaap),
    conversionPrices: sortByEnd(
      [...firstPerEnd(gaap, CONVERSION_PRICE, priceUnit).values()].map((fact) => ({
        periodEnd: fact.periodEnd,
        conversionPrice: fact.value,
        unit: fact.unit,
        ...evidence(fact),
        fact,
        notes: restatementNotes(fact),
      })),
    ),
    convertibleDebt: sortByEnd(
      CONVERTIBLE_AMOUNTS.flatMap((concept) =>
        [...perEnd(numeric(conceptFacts(gaap, concept)), usdUnit).values()].map((fact) => ({
          periodEnd: fact.periodEnd,
          concept: fact.concept,
          amountCents: Number.isInteger(fact.value) ? BigInt(fact.value) * 100n : BigInt(Math.round(fact.value * 100)),
          ...evidence(fact),
          fact,
          notes: restatementNotes(fact),
        })),
      ),
    ),
    splitRatios: splitRatios(gaap, splitTexts),
    splitTexts,
  };
}

const evidence = (f: XbrlDilutionFact) => ({ accession: f.accession, form: f.form, filed: f.filed });
const shortConcept = (concept: string) => concept.replace(/^[a-z-]+:/, "");

function restatementNotes(f: XbrlDilutionFact): string[] {
  if (!f.restated) return [];
  return [
    `${shortConcept(f.concept)} for ${f.periodEnd} was first reported as ${formatNumber(f.restated.value)} (accn ${f.restated.accession}, ${f.restated.form || "filing"} filed ${f.restated.filed}); ` +
      `the latest filing, accn ${f.accession} (${f.form || "filing"} filed ${f.filed}), states ${formatNumber(f.value)}: the latest is kept`,
  ];
}

function warrants(gaap: Record<string, unknown>): XbrlWarrants[] {
  const outstanding = perEnd(numeric(conceptFacts(gaap, WARRANTS_OUTSTANDING)), countUnit);
  const called = perEnd(numeric(conceptFacts(gaap, WARRANTS_CALLED)), countUnit);
  const prices = firstPerEnd(gaap, WARRANT_PRICE, priceUnit);
  const ends = [...new Set([...outstanding.keys(), ...called.keys(), ...prices.keys()])];
  return ends.sort().map((end) => {
    const count = outstanding.get(end) ?? called.get(end) ?? null;
    const price = prices.get(end) ?? null;
    const notes: string[] = [];
    if (count && !outstanding.has(end)) {
      notes.push(`no ${WARRANTS_OUTSTANDING} for ${end}: the count is ${WARRANTS_CALLED} (the shares the warrants or rights call for)`);
    }
    if (count) notes.push(...restatementNotes(count));
    if (price) notes.push(...restatementNotes(price));
    const evidenceOf = (count ?? price)!;
    return {
      periodEnd: end,
      outstanding: count?.value ?? null,
      exercisePrice: price?.value ?? null,
      exercisePriceUnit: price?.unit ?? null,
      ...evidence(evidenceOf),
      outstandingFact: count,
      exercisePriceFact: price,
      notes,
    };
  });
}

function splitTextFacts(gaap: Record<string, unknown>): XbrlSplitText[] {
  const out: XbrlSplitText[] = [];
  for (const concept of SPLIT_TEXT) {
    for (const f of conceptFacts(gaap, concept)) {
      if (typeof f.val !== "string" || f.val.trim() === "") continue;
      out.push({ concept: `${GAAP}:${concept}`, periodEnd: f.end, text: f.val, accession: f.accn, form: f.form, filed: f.filed });
    }
  }
  return out.sort((a, b) => (a.filed < b.filed ? -1 : a.filed > b.filed ? 1 : 0));
}

function splitRatios(gaap: Record<string, unknown>, texts: XbrlSplitText[]): XbrlSplitRatio[] {
  const concepts = Object.keys(gaap).filter((c) => SPLIT_RATIO.test(c)).sort().reverse(); // …Ratio1 before …Ratio
  const ratios = firstPerEnd(gaap, concepts, pureUnit);
  return sortByEnd(
    [...ratios.values()].map((fact) => {
      const companions = texts.filter((t) => fact.accessions.includes(t.accession));
      const reading = readSplitRatio(fact.value, shortConcept(fact.concept), companions);
      return {
        periodEnd: fact.periodEnd,
        periodStart: fact.periodStart,
        value: fact.value,
        concept: fact.concept,
        ...reading,
        ...evidence(fact),
        fact,
        notes: restatementNotes(fact),
      };
    }),
  );
}

/** The "1-for-N" a text states ("1-for-10", "1 for 10", "one-for-ten"), or null. */
const WORD_NUMBERS: Record<string, number> = {
  two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, fifteen: 15, twenty: 20,
  "twenty-five": 25, thirty: 30, forty: 40, fifty: 50, hundred: 100, "one hundred": 100,
};
function statedReverseFactor(text: string): number | null {
  const digits = /\b(?:1|one)\s*-?\s*for\s*-?\s*(\d[\d,]*)\b/i.exec(text);
  if (digits) return Number(digits[1]!.replace(/,/g, ""));
  const words = /\bone\s*-?\s*for\s*-?\s*(one hundred|twenty-five|[a-z]+)\b/i.exec(text);
  return words ? (WORD_NUMBERS[words[1]!.toLowerCase()] ?? null) : null;
}

/**
 * N when `value` is 1/N: exactly, or 1/N rounded to the decimals the value was
 * tagged with (0.0333 for 1-for-30) provided it has three significant digits
 * and no other N rounds to it.
 */
function reciprocalWhole(value: number): { n: number; rounded: boolean } | null {
  if (!(value > 0 && value < 1)) return null;
  const approx = 1 / value;
  const nearest = Math.round(approx);
  if (nearest >= 2 && Math.abs(approx - nearest) <= 1e-9 * approx) return { n: nearest, rounded: false };
  const decimals = (String(value).split(".")[1] ?? "").length;
  const significant = String(value).replace(/^0\.0*/, "").length;
  if (String(value).includes("e") || significant < 3) return null;
  const roundsTo = (n: number) => Number((1 / n).toFixed(decimals)) === value;
  const candidates = [nearest - 1, nearest, nearest + 1].filter((n) => n >= 2 && roundsTo(n));
  return candidates.length === 1 ? { n: candidates[0]!, rounded: true } : null;
}

function readSplitRatio(
  value: number,
  concept: string,
  companions: XbrlSplitText[],
): Pick<XbrlSplitRatio, "direction" | "reverseFactor" | "ratio" | "reason"> {
  const ambiguous = (reason: string) => ({ direction: "ambiguous" as const, reverseFactor: null, ratio: null, reason });
  const reverse = (n: number, reason: string) => ({ direction: "reverse" as const, reverseFactor: n, ratio: `1-for-${n}`, reason });
  const reverseText = companions.find((t) => shortConcept(t.concept) === REVERSE_SPLIT_TEXT || /\breverse\b/i.test(t.text));
  const stated = reverseText ? statedReverseFactor(reverseText.text) : null;

  let n: number;
  let how: string;
  const reciprocal = reciprocalWhole(value);
  if (reciprocal) {
    n = reciprocal.n;
    how = reciprocal.rounded
      ? `${value} is 1/${n} to the decimals tagged: one new share for ${n} old`
      : `${value} is one new share for ${n} old`;
  } else if (value > 0 && value < 1) {
    return ambiguous(`${value} is not one share for a whole number of shares`);
  } else if (value === 1) {
    return ambiguous("a ratio of 1 is no split");
  } else if (!(Number.isInteger(value) && value >= 2)) {
    return ambiguous(`${value} is not a whole number of shares for one`);
  } else if (/Reverse/.test(concept)) {
    n = value;
    how = `${value} is tagged on ${concept}, whose name says reverse`;
  } else if (reverseText) {
    n = value;
    how = `${value} is tagged by a filing whose ${shortConcept(reverseText.concept)} describes a reverse split`;
  } else {
    return ambiguous(
      `${value} may be a ${value}-for-1 split or a 1-for-${value} reverse split (companies tag both ways) and nothing tagged says reverse`,
    );
  }
  if (stated !== null && stated !== n) {
    return ambiguous(`${how}, but the filing's ${shortConcept(reverseText!.concept)} states 1-for-${stated}`);
  }
  return reverse(n, `${how}: a 1-for-${n} reverse split`);
}

// ---------------------------------------------------------------- cross-checks

/** A warrant figure read from a filing's text (the caller holds its quote). */
export interface WarrantTextFigure {
  shares: number | null;
  price: number | null;
  /** The date the text states it as of (YYYY-MM-DD). */
  asOf: string;
}

export interface ConversionPriceTextFigure {
  price: number | null;
  asOf: string;
}

/**
 * - agrees / disagrees: both state a comparable figure for the period; on a
 *   disagreement the text is used (it carries a quote).
 * - not_tagged: XBRL states nothing comparable for that period end; the text is used.
 * - xbrl_only: the text states no figure and XBRL does; `used` is "xbrl" and
 *   the caller may fill the value from `xbrl`, with the note.
 */
export type CrossCheckVerdict = "agrees" | "disagrees" | "not_tagged" | "xbrl_only";

export interface CrossCheck<T> {
  verdict: CrossCheckVerdict;
  used: "text" | "xbrl";
  note: string;
  /** The XBRL row of the text's period end, when there is one. */
  xbrl: T | null;
}

/** Relative tolerance within which two figures agree. */
export const CROSS_CHECK_TOLERANCE = 0.005;

const within = (a: number, b: number) => Math.abs(a - b) <= CROSS_CHECK_TOLERANCE * Math.max(Math.abs(a), Math.abs(b));
const differsBy = (a: number, b: number) => `${((Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b))) * 100).toFixed(1)} %`;

function formatNumber(n: number): string {
  return n.toLocaleString("en-US", { maximumFractionDigits: 6 });
}
function formatPrice(n: number, unit: string | null = "USD/shares"): string {
  const amount = n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 6 });
  const currency = unit?.split("/")[0] ?? "USD";
  return currency === "USD" ? `$${amount}` : `${currency} ${amount}`;
}
const isUsdPrice = (unit: string | null) => unit !== null && unit.startsWith("USD/");

/** "ClassOfWarrantOrRightOutstanding tags 300,000 and … $25.00 (accn …, 10-K filed …)" grouped by filing. */
function describeTags(tags: { fact: XbrlDilutionFact; shown: string }[]): string {
  const byAccn = new Map<string, { fact: XbrlDilutionFact; shown: string }[]>();
  for (const t of tags) byAccn.set(t.fact.accession, [...(byAccn.get(t.fact.accession) ?? []), t]);
  const parts = [...byAccn.values()].map((group) => {
    const f = group[0]!.fact;
    return `${group.map((t) => `${shortConcept(t.fact.concept)} ${t.shown}`).join(" and ")} (accn ${f.accession}, ${f.form || "filing"} filed ${f.filed})`;
  });
  return `XBRL tags ${parts.join("; ")}`;
}

const day = (asOf: string) => asOf.slice(0, 10);

export function crossCheckWarrantTotal(textFigure: WarrantTextFigure, xbrl: XbrlDilutionFacts): CrossCheck<XbrlWarrants> {
  const asOf = day(textFigure.asOf);
  const row = xbrl.warrants.find((w) => w.periodEnd === asOf) ?? null;
  const { shares, price } = textFigure;
  const textStates =
    shares !== null && price !== null
      ? `${formatNumber(shares)} at ${formatPrice(price)}`
      : shares !== null
        ? formatNumber(shares)
        : price !== null
          ? `an exercise price of ${formatPrice(price)}`
          : null;
  const textSays = textStates === null ? `the report's text states no warrant figure as of ${asOf}` : `the report's text states ${textStates} as of ${asOf}`;

  const tags: { fact: XbrlDilutionFact; shown: string }[] = [];
  if (row?.outstandingFact) tags.push({ fact: row.outstandingFact, shown: formatNumber(row.outstandingFact.value) });
  if (row?.exercisePriceFact) tags.push({ fact: row.exercisePriceFact, shown: formatPrice(row.exercisePriceFact.value, row.exercisePriceFact.unit) });
  const extra = row && row.notes.length > 0 ? ` (${row.notes.join("; ")})` : "";

  if (!row) {
    return { verdict: "not_tagged", used: "text", note: `${textSays}; XBRL tags no warrant count or exercise price for ${asOf}: the text is used`, xbrl: null };
  }
  if (textStates === null) {
    return { verdict: "xbrl_only", used: "xbrl", note: `${textSays}; ${describeTags(tags)}${extra}: the XBRL figure is used, no text quotes it`, xbrl: row };
  }

  const countComparable = shares !== null && row.outstanding !== null;
  const priceComparable = price !== null && row.exercisePrice !== null && isUsdPrice(row.exercisePriceUnit);
  if (!countComparable && !priceComparable) {
    const why =
      price !== null && row.exercisePrice !== null && !isUsdPrice(row.exercisePriceUnit)
        ? `its exercise price is in ${row.exercisePriceUnit}, not comparable`
        : `nothing the text states is tagged`;
    return { verdict: "not_tagged", used: "text", note: `${textSays}; ${describeTags(tags)}${extra}; ${why}: the text is used`, xbrl: row };
  }

  const differences: string[] = [];
  if (countComparable && !within(shares, row.outstanding!)) differences.push(`the counts differ by ${differsBy(shares, row.outstanding!)}`);
  if (priceComparable && !within(price, row.exercisePrice!)) {
    differences.push(`the exercise prices differ (${formatPrice(price)} against ${formatPrice(row.exercisePrice!, row.exercisePriceUnit)})`);
  }
  if (differences.length > 0) {
    return {
      verdict: "disagrees",
      used: "text",
      note:
        `${textSays}; ${describeTags(tags)}${extra}: ${differences.join(" and ")}; ` +
        `the text is used, its words are quoted (XBRL in company facts is the undimensioned, company-wide figure)`,
      xbrl: row,
    };
  }
  const alsoTagged: string[] = [];
  if (shares === null && row.outstanding !== null) alsoTagged.push(`a count the text does not state`);
  if (price === null && row.exercisePrice !== null) alsoTagged.push(`an exercise price the text does not state`);
  return {
    verdict: "agrees",
    used: "text",
    note: `${textSays}; ${describeTags(tags)}${extra}: they agree${alsoTagged.length > 0 ? ` (XBRL also tags ${alsoTagged.join(" and ")})` : ""}`,
    xbrl: row,
  };
}

export function crossCheckConversionPrice(textFigure: ConversionPriceTextFigure, xbrl: XbrlDilutionFacts): CrossCheck<XbrlConversionPrice> {
  const asOf = day(textFigure.asOf);
  const row = xbrl.conversionPrices.find((c) => c.periodEnd === asOf) ?? null;
  const { price } = textFigure;
  const textSays =
    price === null
      ? `the report's text states no conversion price as of ${asOf}`
      : `the report's text states a conversion price of ${formatPrice(price)} as of ${asOf}`;
  if (!row) {
    return { verdict: "not_tagged", used: "text", note: `${textSays}; XBRL tags no conversion price for ${asOf}: the text is used`, xbrl: null };
  }
  const tag = describeTags([{ fact: row.fact, shown: formatPrice(row.conversionPrice, row.unit) }]);
  const extra = row.notes.length > 0 ? ` (${row.notes.join("; ")})` : "";
  if (price === null) {
    return { verdict: "xbrl_only", used: "xbrl", note: `${textSays}; ${tag}${extra}: the XBRL figure is used, no text quotes it`, xbrl: row };
  }
  if (!isUsdPrice(row.unit)) {
    return { verdict: "not_tagged", used: "text", note: `${textSays}; ${tag}${extra}; it is in ${row.unit}, not comparable: the text is used`, xbrl: row };
  }
  if (!within(price, row.conversionPrice)) {
    return {
      verdict: "disagrees",
      used: "text",
      note:
        `${textSays}; ${tag}${extra}: the conversion prices differ by ${differsBy(price, row.conversionPrice)}; ` +
        `the text is used, its words are quoted (XBRL in company facts is the undimensioned figure, one instrument's when the company has several)`,
      xbrl: row,
    };
  }
  return { verdict: "agrees", used: "text", note: `${textSays}; ${tag}${extra}: they agree`, xbrl: row };
}
