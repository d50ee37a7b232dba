import { isoDate } from "./text";
import { AMOUNT as DOLLARS, COUNT, parseCount, parseDollars, parseScaledDollars, quoteAround, sentencesOf, type Line } from "./text";

/**
 * The baby-shelf arithmetic a prospectus or shelf registration states under
 * General Instruction I.B.6 of Form S-3 (or I.B.5 of Form F-3): an issuer whose
 * public float is under $75 million may sell on its shelf, in any 12 months, at
 * most one third of its public float. Small caps state the figures in one
 * paragraph, each read here with its sentence:
 *
 *   "As of March 6, 2026, the aggregate market value of our outstanding common
 *   stock held by non-affiliates, or the public float, was $9,188,860, which was
 *   calculated based on 3,781,424 shares … at a price of $2.43 per share, the
 *   closing price of our common stock on January 21, 2026. Pursuant to General
 *   Instruction I.B.6 … one-third of the aggregate market value … or
 *   $3,062,953 … During the prior 12-months … we have sold … $1,020, … leaving
 *   $3,061,933 that could be sold under this prospectus supplement."
 *
 * A figure the document does not state is null: the one-third and the
 * remainder are never computed here. Nothing is read from a document that does
 * not name the instruction.
 */
export interface BabyShelf {
  /** The public float the document states, in dollars. */
  public_float: number | null;
  /** The day the public float is stated as of ("As of March 6, 2026, …"), else the day of the price it was computed at. */
  as_of: string | null;
  /** Shares held by non-affiliates the float was computed from. */
  float_shares: number | null;
  /** The price per share the float was computed at, and that price's day. */
  float_price: number | null;
  float_price_date: string | null;
  /** One third of the public float, as stated. */
  one_third_limit: number | null;
  /** What was sold under the instruction in the prior 12 months (0 when the document says nothing was). */
  sold_prior_12_months: number | null;
  /** What may still be sold under it, as stated. */
  remaining: number | null;
}

export interface BabyShelfReading {
  baby_shelf: BabyShelf | null;
  /** quote per field path ("baby_shelf.public_float") */
  evidence: Record<string, string>;
}

const INSTRUCTION = /\bI\.B\.[56]\b|\bbaby[- ]shelf\b/i;
const SCALE = String.raw`(?:\s+(million|billion))?`;
const FLOAT = new RegExp(
  String.raw`(?:aggregate market value of (?:our |the )?(?:(?:outstanding|voting|non-voting|and|registrant[’']s)\s+)*(?:common stock|common shares|ordinary shares|common equity)(?: held by non-?affiliates)?|public float)[^$]{0,120}?\b(?:was|is|of|equal(?:ed|s)?|totaled|amounted to)\s+(?:approximately\s+)?${DOLLARS}${SCALE}`,
  "i",
);
const FLOAT_BASIS = new RegExp(
  String.raw`based (?:up)?on\s+(?:approximately\s+)?(${COUNT})(?:\.\d+)?(?:\s+(million))?(?:\s+[a-z-]+){0,3}?\s+(?:shares|ordinary shares)[^$]{0,160}?${DOLLARS}\s+per (?:share|ordinary share)`,
  "i",
);
/** The float's shares: those held by non-affiliates, not all outstanding ("…, of which 6,120,400 shares are held by non-affiliates"). */
const NON_AFFILIATE_SHARES = new RegExp(String.raw`\bof which\s+(?:approximately\s+)?(${COUNT})\s+(?:shares\s+)?(?:of\s+(?:our\s+)?(?:common stock|ordinary shares)\s+)?(?:were|are|was|is)\s+held by non-?affiliates`, "i");
const FLOAT_PRICE = new RegExp(String.raw`\b(?:a|the)\s+(?:per[- ]share\s+)?price(?:\s+per\s+share)?\s+of\s+${DOLLARS}`, "i");
const DATE = /((?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2},?\s+\d{4})/;
const AMOUNT = new RegExp(DOLLARS + SCALE, "g");
/** The threshold itself ($75 million) is no figure of the company's. */
const isThreshold = (dollars: number) => dollars === 75_000_000;

function amountsIn(text: string): { dollars: number; index: number }[] {
  const out: { dollars: number; index: number }[] = [];
  for (const m of text.matchAll(AMOUNT)) {
    const dollars = parseScaledDollars(m[1]!, m[2]);
    if (dollars !== null && !isThreshold(dollars)) out.push({ dollars, index: m.index });
  }
  return out;
}


export function readBabyShelf(lines: readonly Line[]): BabyShelfReading {
  const paragraphs = lines.filter((l) => l.cells === null).map((l) => l.text);
  const at = paragraphs.findIndex((p) => INSTRUCTION.test(p) && /one[- ]third/i.test(p));
  if (at < 0) return { baby_shelf: null, evidence: {} };
  // The arithmetic sits in the paragraph that names the instruction and the one before it (where the float is often stated).
  const sentences = [paragraphs[at - 1] ?? "", paragraphs[at]!, paragraphs[at + 1] ?? ""].flatMap((p) => sentencesOf(p).map((s) => s.text));
  const evidence: Record<string, string> = {};
  const found: BabyShelf = {
    public_float: null,
    as_of: null,
    float_shares: null,
    float_price: null,
    float_price_date: null,
    one_third_limit: null,
    sold_prior_12_months: null,
    remaining: null,
  };
  /** The value, and the words around where it is stated (`at`, an index in the sentence). */
  const set = <K extends keyof BabyShelf>(field: K, value: BabyShelf[K], sentence: string, at = 0) => {
    if (value === null || found[field] !== null) return;
    found[field] = value;
    evidence[`baby_shelf.${field}`] = quoteAround(sentence.trim(), at, at + 1);
  };

  for (const sentence of sentences) {
    const float = FLOAT.exec(sentence);
    if (float && found.public_float === null) {
      const dollars = parseScaledDollars(float[1]!, float[2]);
      if (dollars !== null && !isThreshold(dollars)) {
        set("public_float", dollars, sentence, float.index + float[0].length - 1);
        const lead = /^\s*(?:As of|On)\s+/i.test(sentence) ? DATE.exec(sentence.slice(0, 40)) : new RegExp(String.raw`\bas of\s+${DATE.source}`, "i").exec(sentence);
        // "based on a total number of 1,288,000 shares … outstanding, of which 1,270,500 shares … were held by non-affiliates, and a price of $3.24 per share"
        const held = NON_AFFILIATE_SHARES.exec(sentence);
        const price = held ? FLOAT_PRICE.exec(sentence.slice(held.index)) : null;
        if (held && price) {
          set("float_shares", parseCount(held[1]!), sentence, held.index);
          const priceAt = held.index + price.index;
          set("float_price", parseDollars(price[1]!), sentence, priceAt);
          const priceDay = DATE.exec(sentence.slice(priceAt + price[0].length));
          set("float_price_date", priceDay ? isoDate(priceDay[1]!) : null, sentence, priceAt + price[0].length + (priceDay?.index ?? 0));
        }
        const basis = held ? null : FLOAT_BASIS.exec(sentence);
        if (basis) {
          const shares = parseCount(basis[1]!);
          set("float_shares", shares === null ? null : basis[2] ? Math.round(shares * 1_000_000) : shares, sentence, basis.index);
          set("float_price", parseDollars(basis[3]!), sentence, basis.index + basis[0].length - 1);
          const priceDay = DATE.exec(sentence.slice(basis.index + basis[0].length));
          set("float_price_date", priceDay ? isoDate(priceDay[1]!) : null, sentence, basis.index + basis[0].length + (priceDay?.index ?? 0));
        }
        set("as_of", lead ? isoDate(lead[1]!) : found.float_price_date, sentence, lead ? lead.index : sentence.length - 1);
      }
    }
    if (/one[- ]third/i.test(sentence) && INSTRUCTION.test(sentence)) {
      const third = amountsIn(sentence.slice(sentence.search(/one[- ]third/i))).find((a) => a.dollars !== found.public_float);
      if (third) set("one_third_limit", third.dollars, sentence, sentence.search(/one[- ]third/i) + third.index);
    }
    const period = /(?:prior|preceding|previous)\s+(?:12|twelve)[- ](?:calendar[- ])?months?|(?:12|twelve)[- ](?:calendar[- ])?months?\s+(?:prior|preceding|before)|(?:12|twelve)[- ]month period (?:that ends|ending) on/i.exec(sentence);
    if (period && /\b(?:sold|offered|issued)\b/i.test(sentence)) {
      if (/\b(?:have|has) not (?:offered or )?(?:sold|offered|issued)\b|\bno (?:securities|shares)\b[^.]{0,60}\b(?:sold|offered)\b/i.test(sentence)) set("sold_prior_12_months", 0, sentence);
      else {
        // the first amount after the period is named and before what is left; never the float or its third
        const rest = sentence.slice(period.index);
        const left = rest.search(/\bleaving\b|\bremain/i);
        const sold = amountsIn(left < 0 ? rest : rest.slice(0, left)).find((a) => a.dollars !== found.public_float && a.dollars !== found.one_third_limit);
        if (sold) set("sold_prior_12_months", sold.dollars, sentence, period.index + sold.index);
      }
    }
    const leaving =
      new RegExp(String.raw`\bleaving(?: us with)?(?: approximately)?\s+${DOLLARS}${SCALE}`, "i").exec(sentence) ??
      // "As a result, pursuant to General Instruction I.B.6 …, we are currently eligible to offer and sell up to an aggregate of approximately $10.4 million"
      (INSTRUCTION.test(sentence) ? new RegExp(String.raw`\b(?:we are|we're) (?:currently )?eligible to (?:offer and )?sell (?:up to )?(?:an aggregate (?:amount )?of )?(?:approximately )?${DOLLARS}${SCALE}`, "i").exec(sentence) : null);
    if (leaving) set("remaining", parseScaledDollars(leaving[1]!, leaving[2]), sentence, leaving.index);
  }
  const any = Object.values(found).some((v) => v !== null);
  return any ? { baby_shelf: found, evidence } : { baby_shelf: null, evidence: {} };
}
