/**
 * The ratings engine: stored facts → the /v1/dilution-rating record.
 *
 * Pure functions, no I/O, no clock: everything is relative to `inputs.asOf`,
 * and every date rule compares UTC calendar days (the facts are plain dates).
 * Facts dated after asOf are ignored, so a rating can be recomputed for any
 * past day from the same rows. Bands live in ./thresholds.ts.
 */
import { adjustPrice, splitFactor } from "@/lib/utils/splits";
import { addMonths, addYears, daysBetween, isoDay, utcDayStart } from "@/lib/utils/dates";
import {
  formatMoney,
  formatPercentTenths,
  formatPrice,
  formatShares,
  formatTenths,
  pluralize,
  roundDiv,
} from "./format";
import {
  AUTOMATIC_SHELF_FORM,
  BABY_SHELF_FORM_PATTERN,
  BABY_SHELF_FRACTION_DENOMINATOR,
  BABY_SHELF_FRACTION_NUMERATOR,
  BABY_SHELF_PUBLIC_FLOAT_LIMIT_CENTS,
  BABY_SHELF_SALES_WINDOW_MONTHS,
  CASH_NEED_HIGH_BELOW_MONTHS_TENTHS,
  CASH_NEED_MEDIUM_BELOW_MONTHS_TENTHS,
  CASH_NEED_WITHOUT_FINANCIALS,
  COMPLIANCE_HIGH_ABOVE_ACTIVE_COUNT,
  COMPLIANCE_URGENT_DEADLINE_DAYS,
  COUNTED_INSTRUMENT_STATUS,
  DAYS_PER_QUARTER_DENOMINATOR,
  DAYS_PER_QUARTER_NUMERATOR,
  DILUTION_HIGH_MIN_PCT_TENTHS,
  DILUTION_MEDIUM_MIN_PCT_TENTHS,
  GOING_CONCERN_RAISES_CASH_NEED_LEVELS,
  MONTHS_PER_QUARTER,
  OFFERING_ABILITY_HIGH_MIN_PCT_TENTHS,
  OFFERING_ABILITY_MEDIUM_MIN_PCT_TENTHS,
  OFFERING_FREQUENCY_HIGH_MIN_EVENTS,
  OFFERING_FREQUENCY_MEDIUM_MIN_EVENTS,
  OFFERING_FREQUENCY_WINDOW_YEARS,
  OVERALL_RISK_MATRIX,
  REVERSE_SPLIT_LOOKBACK_MONTHS,
  WARRANT_EXERCISE_HIGH_MIN_PCT_TENTHS,
  WARRANT_EXERCISE_MEDIUM_MIN_PCT_TENTHS,
  WARRANT_NEAR_THE_MONEY_MIN_PRICE_PCT,
  WARRANT_WEIGHT_FAR_OUT_OF_THE_MONEY_TENTHS,
  WARRANT_WEIGHT_IN_THE_MONEY_TENTHS,
  WARRANT_WEIGHT_NEAR_THE_MONEY_TENTHS,
} from "./thresholds";
import type {
  DeficiencyInput,
  DilutionRating,
  FinancialsInput,
  GoingConcernInput,
  InstrumentInput,
  OfferingInput,
  Rating,
  RatingInputs,
  RegistrationInput,
  ReverseSplitInput,
  SharePrice,
  SourceRef,
} from "./types";

/** A rating and the words that explain it. */
export interface RatingResult {
  rating: Rating;
  desc: string;
}

// ───────────────────────────── dates and helpers ─────────────────────────────

/** cents per share price in micro-dollars: cents × 10^4 = micro-dollars. */
const MICROS_PER_CENT = 10_000n;

/** First day of the offering-frequency window (inclusive) for an as-of instant. */
export function offeringWindowStart(asOf: Date): Date {
  return addYears(utcDayStart(asOf), -OFFERING_FREQUENCY_WINDOW_YEARS);
}

const RANK: Record<Rating, number> = { Low: 0, Medium: 1, High: 2 };
const BY_RANK: readonly Rating[] = ["Low", "Medium", "High"];

export function maxRating(...ratings: Rating[]): Rating {
  return ratings.reduce<Rating>((best, r) => (RANK[r] > RANK[best] ? r : best), "Low");
}

function raiseLevels(rating: Rating, levels: number): Rating {
  return BY_RANK[Math.max(0, Math.min(RANK[rating] + levels, 2))]!;
}

function raiseOneLevel(rating: Rating): Rating {
  return raiseLevels(rating, 1);
}

function bigMin(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

function bigMax(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

function sum(values: Iterable<bigint>): bigint {
  let total = 0n;
  for (const v of values) total += v;
  return total;
}

/** Dollars as a JSON number (cent precision). */
function centsToDollars(cents: bigint): number {
  return Number(cents) / 100;
}

function sameDay(a: Date, b: Date): boolean {
  return utcDayStart(a).getTime() === utcDayStart(b).getTime();
}

function onOrBefore(date: Date, day: Date): boolean {
  return utcDayStart(date).getTime() <= day.getTime();
}

function after(date: Date, day: Date): boolean {
  return utcDayStart(date).getTime() > day.getTime();
}

// ───────────────────────────── cash need ─────────────────────────────

export interface CashEstimate {
  /** Reported cash less the burn prorated since period end, never below 0. */
  estimatedCashCents: bigint;
  /** Quarterly burn; 0 when the company does not burn cash. */
  quarterlyBurnCents: bigint;
  /** Days from the period end to the as-of day (0 if asOf is earlier). */
  daysElapsed: number;
  /** Months of cash left in tenths (rounded half up); null when not burning. */
  monthsTenths: bigint | null;
}

/** The estimate for a report whose burn is known (rateCashNeed handles an unknown one). */
export function estimateCash(financials: FinancialsInput, asOf: Date): CashEstimate {
  const reported = financials.quarterlyBurnCents ?? 0n;
  const burn = reported > 0n ? reported : 0n;
  const daysElapsed = Math.max(0, daysBetween(financials.periodEnd, asOf));
  // burn × days ÷ (days per quarter), with days per quarter = NUMERATOR / DENOMINATOR.
  const burnedSince = roundDiv(burn * BigInt(daysElapsed) * DAYS_PER_QUARTER_DENOMINATOR, DAYS_PER_QUARTER_NUMERATOR);
  const estimatedCashCents = bigMax(0n, financials.cashCents - burnedSince);
  // months = estimated cash ÷ (burn ÷ 3) = 3 × cash ÷ burn; in tenths: 30 × cash ÷ burn.
  const monthsTenths = burn > 0n ? roundDiv(estimatedCashCents * MONTHS_PER_QUARTER * 10n, burn) : null;
  return { estimatedCashCents, quarterlyBurnCents: burn, daysElapsed, monthsTenths };
}

export function cashNeedBand(monthsTenths: bigint): Rating {
  if (monthsTenths < CASH_NEED_HIGH_BELOW_MONTHS_TENTHS) return "High";
  if (monthsTenths < CASH_NEED_MEDIUM_BELOW_MONTHS_TENTHS) return "Medium";
  return "Low";
}

export interface CashNeedResult extends RatingResult {
  /** null without a financial report. */
  estimatedCashCents: bigint | null;
  /** null when unknown. */
  quarterlyBurnCents: bigint | null;
  /** null when not burning cash or without financials. */
  monthsTenths: bigint | null;
}

/**
 * Cash need: the runway band, from the latest report that states cash, then
 * raised for going-concern doubt stated in the latest report that states
 * going concern either way (GOING_CONCERN_RAISES_CASH_NEED_LEVELS). The two
 * may be different reports: a report read from its text alone says going
 * concern without cash, and never blanks the cash of the report before it.
 */
export function rateCashNeed(inputs: RatingInputs): CashNeedResult {
  const result = rateRunway(inputs);
  const statement = goingConcernStatement(inputs);
  if (statement?.goingConcern !== true) return result;
  const raised = raiseLevels(result.rating, GOING_CONCERN_RAISES_CASH_NEED_LEVELS);
  const filing = statement.goingConcernAccession ? ` (${statement.goingConcernAccession})` : "";
  const effect = raised === result.rating ? "" : `: raised from ${result.rating}`;
  return {
    ...result,
    rating: raised,
    desc: `${result.desc}; the report for the period ended ${isoDay(statement.periodEnd)}${filing} states substantial doubt about continuing as a going concern${effect}`,
  };
}

/**
 * The going-concern statement the rating uses: the latest report that states
 * it either way (RatingInputs.goingConcernReport), else, when that is not
 * given, the latest financial report's own; null when none states it.
 */
export function goingConcernStatement(inputs: RatingInputs): GoingConcernInput | null {
  if (inputs.goingConcernReport !== undefined) return inputs.goingConcernReport;
  const financials = inputs.latestFinancials;
  if (financials?.goingConcern == null) return null;
  return { periodEnd: financials.periodEnd, goingConcern: financials.goingConcern, goingConcernAccession: financials.goingConcernAccession ?? null, source: financials.source ?? null };
}

/** going_concern of the record: the latest statement's; null when no report states it either way. */
export function goingConcern(inputs: RatingInputs): boolean | null {
  return goingConcernStatement(inputs)?.goingConcern ?? null;
}

function rateRunway(inputs: RatingInputs): CashNeedResult {
  const financials = inputs.latestFinancials;
  if (!financials) {
    // A report read from its text alone (it states going concern) gives no cash figure.
    const textOnly = goingConcernStatement(inputs);
    return {
      rating: CASH_NEED_WITHOUT_FINANCIALS,
      desc: textOnly
        ? `No cash figure on file (the report for the period ended ${isoDay(textOnly.periodEnd)} states none): cash position and burn unknown`
        : "No financial report on file: cash position and burn unknown",
      estimatedCashCents: null,
      quarterlyBurnCents: null,
      monthsTenths: null,
    };
  }
  const period = isoDay(financials.periodEnd);
  const reported = formatMoney(bigMax(0n, financials.cashCents));
  const cited = financials.source ? ` (${financials.source.form} filed ${isoDay(financials.source.filedAt)})` : "";
  const burn = financials.quarterlyBurnCents;
  if (burn === null) {
    return {
      rating: CASH_NEED_WITHOUT_FINANCIALS,
      desc: `Operating cash flow not reported for the period ended ${period}, so the burn and runway are unknown; ${reported} cash reported${cited}`,
      estimatedCashCents: bigMax(0n, financials.cashCents),
      quarterlyBurnCents: null,
      monthsTenths: null,
    };
  }
  const estimate = estimateCash(financials, inputs.asOf);
  if (estimate.monthsTenths === null) {
    return {
      ...estimate,
      rating: "Low",
      desc: `The company is not burning cash (no operating cash burn in the period ended ${period}); ${reported} cash reported${cited}`,
    };
  }
  const head = `${formatTenths(estimate.monthsTenths)} months of cash left at the current burn (${formatMoney(estimate.quarterlyBurnCents)} per quarter)`;
  let tail: string;
  if (estimate.daysElapsed === 0) tail = `${reported} cash reported for the period ended ${period}`;
  else if (estimate.estimatedCashCents === 0n) tail = `the ${reported} reported for the period ended ${period} is estimated spent`;
  else tail = `estimated ${formatMoney(estimate.estimatedCashCents)} now, from ${reported} reported for the period ended ${period}`;
  return { ...estimate, rating: cashNeedBand(estimate.monthsTenths), desc: `${head}: ${tail}${cited}` };
}

// ───────────────────────────── offering capacity ─────────────────────────────

export type BabyShelfStatus =
  /** Public float < $75M: sales on S-3/F-3 shelves and ATMs are capped at ⅓ of it. */
  | "applies"
  /** Public float ≥ $75M: no cap. */
  | "not_applicable"
  /** No public float figure and no filing flag: the cap cannot be computed (not applied). */
  | "unknown"
  /** No S-3/F-3 shelf or ATM is effective: the rule has nothing to limit. */
  | "none";

export interface OfferingCapacity {
  /** Effective, unexpired registrations other than ATM programs. */
  effectiveShelves: RegistrationInput[];
  /** Effective, unexpired ATM programs. */
  effectiveAtms: RegistrationInput[];
  /** Registrations that expired on or before the as-of day, latest first. */
  expired: RegistrationInput[];
  /** Filed, unexpired, not (yet) effective on the as-of day. */
  pending: RegistrationInput[];
  /** Sum of ATM remaining capacity (a program with no figure counts at its full size). */
  atmRemainingCents: bigint;
  /** What ATM programs sold off the effective shelves (same file number): taken off the shelves' size. */
  shelfSoldOnAtmsCents: bigint;
  /** Some effective ATM reports no remaining figure. */
  atmRemainingUnknown: boolean;
  /** Effective registrations whose size the filings do not state (not counted in the sums). */
  unsized: RegistrationInput[];
  /** One of them is an automatic shelf (S-3ASR/F-3ASR): no registered maximum at all. */
  automaticShelf: RegistrationInput | null;
  /** Public float value in cents, and where it came from. */
  publicFloatCents: bigint | null;
  publicFloatSource: "float_snapshot" | "registration" | null;
  babyShelf: BabyShelfStatus;
  /** What the cap lets the company still sell when it applies (babyShelfRoom: stated, else ⅓ of public float less the last 12 months' sales). */
  babyShelfCapCents: bigint | null;
  /** How that cap was found. */
  babyShelfRoom: BabyShelfRoom;
  /** What the S-3/F-3 shelves and ATMs could sell before the cap. */
  babyLimitedPoolCents: bigint;
  /** The cap is below that pool, so it decides the raisable amount. */
  babyShelfBinding: boolean;
  /** What the company can sell right now through registered offerings. */
  raisableCents: bigint;
  /** Market cap from the float snapshot (or outstanding × price); null if unknown. */
  marketCapCents: bigint | null;
}

export function isBabyShelfLimited(registration: RegistrationInput): boolean {
  return registration.isAtm || BABY_SHELF_FORM_PATTERN.test(registration.formType.trim());
}

function isExpiredOn(registration: RegistrationInput, day: Date): boolean {
  return registration.expiresAt !== null && !after(registration.expiresAt, day);
}

/** Effective (flag set and effective date, if any, reached) and not expired on the as-of day. */
export function isEffectiveOn(registration: RegistrationInput, asOf: Date): boolean {
  const day = utcDayStart(asOf);
  return (
    registration.isEffective &&
    (registration.effectiveAt === null || onOrBefore(registration.effectiveAt, day)) &&
    !isExpiredOn(registration, day)
  );
}

/** Price of one share in micro-dollars from the latest float snapshot, if positive. */
function currentPriceMicros(inputs: Pick<RatingInputs, "latestFloat">): bigint | null {
  const price = inputs.latestFloat?.priceMicros ?? null;
  return price !== null && price > 0n ? price : null;
}

export function marketCapCents(inputs: RatingInputs): bigint | null {
  const float = inputs.latestFloat;
  if (!float) return null;
  if (float.marketCapCents !== null && float.marketCapCents > 0n) return float.marketCapCents;
  const price = currentPriceMicros(inputs);
  if (price === null || float.outstandingShares <= 0n) return null;
  return (float.outstandingShares * price) / MICROS_PER_CENT;
}

/** An ATM's remaining amount on the as-of day: null when not reported, or stated for a later day. */
export function atmRemainingOn(registration: RegistrationInput, day: Date): bigint | null {
  if (registration.atmRemainingCents === null) return null;
  if (registration.atmRemainingAsOf && after(registration.atmRemainingAsOf, day)) return null;
  return registration.atmRemainingCents;
}

/** What an ATM program sold by the as-of day, as far as the figures tell (0 when unknown). */
function atmSoldOn(registration: RegistrationInput, day: Date): bigint {
  if (registration.atmRemainingAsOf && after(registration.atmRemainingAsOf, day)) return 0n;
  if (registration.atmSoldCents != null) return bigMax(0n, registration.atmSoldCents);
  const remaining = registration.atmRemainingCents;
  const size = registration.offeringAmountCents;
  return remaining !== null && size !== null ? bigMax(0n, size - remaining) : 0n;
}

// ───────────────────────────── baby-shelf room ─────────────────────────────

/** A public float value, its day (null when not known) and where it came from. */
export interface PublicFloatFigure {
  cents: bigint;
  asOf: Date | null;
  source: "float_snapshot" | "registration";
}

/**
 * The latest known public float value on the as-of day: float shares × the
 * latest float snapshot's price when both are known (on that snapshot's day),
 * else that snapshot's dollar figure from the cover page
 * (dei:EntityPublicFloat, on its day), else the figure of the latest-filed
 * S-3/F-3 shelf or ATM program (a float at filing keeps no day).
 */
export function latestPublicFloat(inputs: Pick<RatingInputs, "asOf" | "latestFloat" | "registrations">): PublicFloatFigure | null {
  const day = utcDayStart(inputs.asOf);
  const price = currentPriceMicros(inputs);
  const latestFloat = inputs.latestFloat;
  if (latestFloat && price !== null && latestFloat.floatShares !== null) {
    return { cents: (latestFloat.floatShares * price) / MICROS_PER_CENT, asOf: latestFloat.asOf, source: "float_snapshot" };
  }
  if (latestFloat?.publicFloatCents != null) return { cents: latestFloat.publicFloatCents, asOf: latestFloat.publicFloatAsOf ?? null, source: "float_snapshot" };
  const filed = inputs.registrations
    .filter((r) => isBabyShelfLimited(r) && r.publicFloatCents !== null && onOrBefore(r.filedAt, day))
    .sort((a, b) => b.filedAt.getTime() - a.filedAt.getTime())[0];
  return filed ? { cents: filed.publicFloatCents!, asOf: null, source: "registration" } : null;
}

/**
 * What General Instruction I.B.6 of Form S-3 (I.B.5 of F-3) lets the company
 * still sell off its shelves in the 12 months up to the as-of day. Public
 * float under $75M: one third of it, less what was sold under the instruction
 * in the 12 calendar months before the day. One figure per company, whichever
 * of its registrations it is shown on.
 */
export interface BabyShelfRoom {
  /**
   * applies: public float under $75M, or a filing's stated figure with no float on file;
   * not_applicable: float $75M or more (or, without a float figure, a filing says it is);
   * unknown: no float figure and no stated figure.
   */
  status: "applies" | "not_applicable" | "unknown";
  /** What may still be sold; null when the limit does not apply, or when a sale in the 12 months cannot be counted. Never below 0. */
  capacityCents: bigint | null;
  /** stated: the figure a filing states (statedBy); computed: one third of the float less the sales below. */
  basis: "stated" | "computed" | null;
  statedBy: RegistrationInput | null;
  /** The day the figures are for: the stated day, or the as-of day for a computed figure. */
  asOf: Date | null;
  /** The latest known public float: what decides whether the limit applies, and what a computed figure is one third of. */
  publicFloat: PublicFloatFigure | null;
  /** One third of publicFloat. */
  thirdCents: bigint | null;
  /** Sold under the instruction in the 12 months: the stated figure, or takedownsCents + atmSoldCents; null when not all known. */
  soldCents: bigint | null;
  /** Priced offerings taken down off an S-3/F-3 shelf (its file number) in the 12 months, ATM supplements aside. */
  takedownsCents: bigint;
  /** ATM programs' sales to date, as reported for a day in the 12 months, of programs begun in them. */
  atmSoldCents: bigint;
  /** Sales in the 12 months whose amount is not known (not counted): a takedown with no amount, or an ATM program begun before the 12 months whose sales to date include earlier ones. */
  uncounted: string[];
}

/** A priced takedown's gross amount: as stated, else shares × price; null when neither is. */
function takedownCents(offering: OfferingInput): bigint | null {
  if (offering.amountCents != null) return bigMax(0n, offering.amountCents);
  if (offering.shares != null && offering.priceMicros != null) return bigMax(0n, (offering.shares * offering.priceMicros) / MICROS_PER_CENT);
  return null;
}

/**
 * The company's baby-shelf room on the as-of day (BabyShelfRoom). A stated
 * figure wins: the latest-filed S-3/F-3 shelf or ATM program whose filing
 * states what may still be sold, for a day in the 12 months up to the as-of
 * day. Otherwise, with the latest known public float under $75M, one third of
 * it less what was sold in the 12 calendar months before the day (a sale on
 * the same day a year before is out): the priced takedowns off the company's
 * S-3/F-3 shelves (an offering under one of their file numbers, by its
 * stated amount, else shares × price; an ATM supplement is not a sale, its
 * program's sales are counted below, so nothing is counted twice), and the
 * sales to date each ATM program reports for a day in the 12 months (none
 * when its report is for a day before them, or after the as-of day). Sales to
 * date of a program begun before the 12 months include earlier ones: they
 * cannot be counted, and the capacity is then unknown (null). Never below 0.
 */
export function babyShelfRoom(inputs: Pick<RatingInputs, "asOf" | "latestFloat" | "registrations" | "offerings">): BabyShelfRoom {
  const day = utcDayStart(inputs.asOf);
  const windowStart = addMonths(day, -BABY_SHELF_SALES_WINDOW_MONTHS);
  const inWindow = (date: Date) => after(date, windowStart) && onOrBefore(date, day);
  const limited = inputs.registrations.filter((r) => isBabyShelfLimited(r) && onOrBefore(r.filedAt, day));
  const publicFloat = latestPublicFloat(inputs);
  const none = { capacityCents: null, basis: null, statedBy: null, asOf: null, publicFloat, thirdCents: null, soldCents: null, takedownsCents: 0n, atmSoldCents: 0n, uncounted: [] };
  let status: BabyShelfRoom["status"];
  if (publicFloat !== null) status = publicFloat.cents < BABY_SHELF_PUBLIC_FLOAT_LIMIT_CENTS ? "applies" : "not_applicable";
  else status = limited.some((r) => r.overBabyShelf === true) ? "not_applicable" : "unknown";
  if (status === "not_applicable") return { status, ...none };

  const shelfFiles = new Set(limited.filter((r) => !r.isAtm && r.fileNumber).map((r) => r.fileNumber!));
  /** What was sold after `since` (exclusive) and by the day: takedowns off the shelves, and ATM programs' sales to date. */
  const soldSince = (since: Date, period: string) => {
    const uncounted: string[] = [];
    let takedownsCents = 0n;
    for (const o of inputs.offerings) {
      if (o.offeringType === "atm" || !o.fileNumber || !shelfFiles.has(o.fileNumber) || !after(o.offeringDate, since) || !onOrBefore(o.offeringDate, day)) continue;
      const cents = takedownCents(o);
      if (cents === null) uncounted.push(`the ${isoDay(o.offeringDate)} takedown's amount`);
      else takedownsCents += cents;
    }
    let atmSoldCents = 0n;
    const programs = limited.filter((a) => a.isAtm && onOrBefore(a.filedAt, day));
    for (const r of programs) {
      // a figure with no day is taken as stated for the as-of day
      const reported = r.atmRemainingAsOf ? utcDayStart(r.atmRemainingAsOf) : day;
      if (after(reported, day)) {
        // only a later report tells this program's sales: those by the day are not known
        if (after(reported, since) && r.atmRemainingAsOf && !sameDay(r.atmRemainingAsOf, r.filedAt)) uncounted.push(`the ${isoDay(r.filedAt)} ATM program's sales by ${isoDay(day)}`);
        continue;
      }
      if (!after(reported, since)) continue;
      const sold = atmSoldOn(r, day);
      if (sold === 0n) continue;
      if (!after(r.filedAt, since) && !sameDay(r.filedAt, since)) {
        uncounted.push(`the ${isoDay(r.filedAt)} ATM program's sales ${period} (of ${formatMoney(sold)} to date)`);
      } else if (programs.some((o) => o !== r && o.offeringAmountCents === r.offeringAmountCents && o.atmRemainingAsOf && after(o.atmRemainingAsOf, since))) {
        // two programs of one size may be one program filed again, its sales to date told twice
        uncounted.push(`the ${isoDay(r.filedAt)} ATM program's sales, which another of the same size may also report`);
      } else atmSoldCents += sold;
    }
    return { takedownsCents, atmSoldCents, uncounted };
  };

  // (stated for a day in the 12 months up to the as-of day: an older statement says nothing of today's room)
  const stated = limited
    .filter((r) => r.babyShelfCapacityCents != null && r.babyShelfAsOf != null && inWindow(r.babyShelfAsOf))
    .sort((a, b) => b.filedAt.getTime() - a.filedAt.getTime())[0];
  if (stated) {
    // the statement counts what was sold before its day; what was sold since comes off it
    const statedOn = utcDayStart(stated.babyShelfAsOf!);
    const since = soldSince(statedOn, `since ${isoDay(statedOn)}`);
    const laterCents = since.takedownsCents + since.atmSoldCents;
    return {
      ...none,
      status: "applies",
      capacityCents: since.uncounted.length ? null : bigMax(0n, stated.babyShelfCapacityCents! - laterCents),
      basis: "stated",
      statedBy: stated,
      asOf: laterCents > 0n || since.uncounted.length ? day : statedOn,
      soldCents: stated.babyShelfSoldCents == null || since.uncounted.length ? null : stated.babyShelfSoldCents + laterCents,
      takedownsCents: since.takedownsCents,
      atmSoldCents: since.atmSoldCents,
      uncounted: since.uncounted,
    };
  }
  if (status !== "applies") return { status, ...none };

  const thirdCents = (bigMax(0n, publicFloat!.cents) * BABY_SHELF_FRACTION_NUMERATOR) / BABY_SHELF_FRACTION_DENOMINATOR;
  const { takedownsCents, atmSoldCents, uncounted } = soldSince(windowStart, "in the last 12 months");
  const soldCents = takedownsCents + atmSoldCents;
  return {
    status,
    capacityCents: uncounted.length ? null : bigMax(0n, thirdCents - soldCents),
    basis: "computed",
    statedBy: null,
    asOf: day,
    publicFloat,
    thirdCents,
    soldCents: uncounted.length ? null : soldCents,
    takedownsCents,
    atmSoldCents,
    uncounted,
  };
}

export function computeOfferingCapacity(inputs: RatingInputs): OfferingCapacity {
  const day = utcDayStart(inputs.asOf);
  const known = inputs.registrations.filter((r) => onOrBefore(r.filedAt, day));
  const effective = known.filter((r) => isEffectiveOn(r, day));
  const effectiveShelves = effective.filter((r) => !r.isAtm);
  const effectiveAtms = effective.filter((r) => r.isAtm);
  const expired = known
    .filter((r) => isExpiredOn(r, day))
    .sort((a, b) => b.expiresAt!.getTime() - a.expiresAt!.getTime());
  const pending = known.filter((r) => !isEffectiveOn(r, day) && !isExpiredOn(r, day));

  const remainingOf = (r: RegistrationInput) => atmRemainingOn(r, day);
  const atmRemainingUnknown = effectiveAtms.some((r) => remainingOf(r) === null);
  const sizeOf = (r: RegistrationInput) => (r.isAtm ? (remainingOf(r) ?? r.offeringAmountCents) : r.offeringAmountCents);
  const unsized = effective.filter((r) => sizeOf(r) === null);
  const automaticShelf = unsized.find((r) => AUTOMATIC_SHELF_FORM.test(r.formType.trim())) ?? null;
  const atmRemainingCents = sum(effectiveAtms.map((r) => bigMax(0n, sizeOf(r) ?? 0n)));
  // A shelf's remaining size: what ATM programs sold off it (same file number)
  // is used capacity. Other takedowns are not subtracted (a prospectus
  // supplement's amount is what it offered, not what it sold).
  const soldOff = (r: RegistrationInput) => {
    if (r.offeringAmountCents === null || !r.fileNumber) return 0n;
    const sold = sum(known.filter((a) => a.isAtm && a.fileNumber === r.fileNumber).map((a) => atmSoldOn(a, day)));
    return bigMin(bigMax(0n, r.offeringAmountCents), sold);
  };
  const shelfSoldOnAtmsCents = sum(effectiveShelves.map(soldOff));
  const shelfRemaining = (r: RegistrationInput) => bigMax(0n, (r.offeringAmountCents ?? 0n) - soldOff(r));
  const babyShelfCents = sum(effectiveShelves.filter(isBabyShelfLimited).map(shelfRemaining));
  const otherShelfCents = sum(effectiveShelves.filter((r) => !isBabyShelfLimited(r)).map(shelfRemaining));
  // ATM sales are takedowns off a shelf: they use its capacity rather than add
  // to it. So the pool is the larger of the two, not their sum (an ATM with no
  // shelf row on file still counts on its own).
  const babyLimitedPoolCents = bigMax(babyShelfCents, atmRemainingCents);
  const babyLimited = effective.filter(isBabyShelfLimited);

  // The baby-shelf room (babyShelfRoom): a filing's stated figure, else one third of the latest
  // known public float less what was sold under I.B.6 in the 12 months before the day. When a sale
  // in them cannot be counted, the cap is one third of the float less what can: the most the rule allows.
  const room = babyShelfRoom(inputs);
  const publicFloatCents = room.publicFloat?.cents ?? null;
  const publicFloatSource: OfferingCapacity["publicFloatSource"] = room.publicFloat?.source ?? null;
  const babyShelf: BabyShelfStatus = babyLimited.length === 0 ? "none" : room.status;
  const babyShelfCapCents =
    babyShelf !== "applies" ? null : (room.capacityCents ?? (room.thirdCents !== null ? bigMax(0n, room.thirdCents - room.takedownsCents - room.atmSoldCents) : null));

  const babyShelfBinding = babyShelfCapCents !== null && babyShelfCapCents < babyLimitedPoolCents;
  const limitedCents = babyShelfCapCents !== null ? bigMin(babyLimitedPoolCents, babyShelfCapCents) : babyLimitedPoolCents;

  return {
    effectiveShelves,
    effectiveAtms,
    expired,
    pending,
    atmRemainingCents,
    shelfSoldOnAtmsCents,
    atmRemainingUnknown,
    unsized,
    automaticShelf,
    publicFloatCents,
    publicFloatSource,
    babyShelf,
    babyShelfCapCents,
    babyShelfRoom: room,
    babyLimitedPoolCents,
    babyShelfBinding,
    raisableCents: limitedCents + otherShelfCents,
    marketCapCents: marketCapCents(inputs),
  };
}

// ───────────────────────────── offering ability ─────────────────────────────

export function offeringAbilityBand(raisableCents: bigint, marketCap: bigint | null): Rating {
  if (raisableCents <= 0n) return "Low";
  if (marketCap === null || marketCap <= 0n) return "Medium";
  const pctTenths = roundDiv(raisableCents * 1000n, marketCap);
  if (pctTenths >= OFFERING_ABILITY_HIGH_MIN_PCT_TENTHS) return "High";
  if (pctTenths >= OFFERING_ABILITY_MEDIUM_MIN_PCT_TENTHS) return "Medium";
  return "Low";
}

function registrationLabel(registration: RegistrationInput): string {
  return registration.isAtm ? "ATM program" : `${registration.formType.trim() || "Shelf"} shelf`;
}

/**
 * A registration as its evidence names it: "S-3ASR 333-231168, effective
 * 2019-05-02" (from filings); the plain label for imported or sample data.
 */
function registrationCited(registration: RegistrationInput): string {
  if (!registration.source || !registration.fileNumber) return `${registrationLabel(registration)} effective`;
  const form = registration.isAtm ? `ATM program (${registration.source.form}) under ${registration.fileNumber}` : `${registration.formType.trim()} ${registration.fileNumber}`;
  return registration.effectiveAt ? `${form}, effective ${isoDay(registration.effectiveAt)}` : `${form}, effective`;
}

/** "1/3 of the $30.0M public float less $5.0M sold in the last 12 months", or the stated figure and its day. */
function babyShelfBasis(capacity: OfferingCapacity): string {
  const room = capacity.babyShelfRoom;
  if (room.basis === "stated") return `${formatMoney(capacity.babyShelfCapCents!)} left as a filing states it on ${isoDay(room.asOf!)}`;
  const sold = room.takedownsCents + room.atmSoldCents;
  let text = `1/3 of the ${formatMoney(capacity.publicFloatCents!)} public float`;
  if (sold > 0n) text += ` less ${formatMoney(sold)} sold in the last 12 months`;
  if (room.uncounted.length) text += `; ${uncountedText(room.uncounted)}`;
  return text;
}

/** The sales in the last 12 months that could not be counted, in a few words. */
function uncountedText(uncounted: string[]): string {
  const first = uncounted[0]!;
  return `${uncounted.length === 1 ? first : `${first} and ${uncounted.length - 1} more`} not known`;
}

export function rateOfferingAbility(
  inputs: RatingInputs,
  capacity: OfferingCapacity = computeOfferingCapacity(inputs),
): RatingResult {
  const { effectiveShelves, effectiveAtms } = capacity;
  if (effectiveShelves.length === 0 && effectiveAtms.length === 0) {
    const notes: string[] = [];
    const lastExpired = capacity.expired[0];
    if (lastExpired) {
      const name = lastExpired.source && lastExpired.fileNumber ? `${lastExpired.formType.trim()} ${lastExpired.fileNumber}` : registrationLabel(lastExpired);
      notes.push(`${name} expired on ${isoDay(lastExpired.expiresAt!)}`);
    }
    for (const r of capacity.pending) {
      const label = r.isAtm ? "ATM program" : r.formType.trim() || "Registration";
      notes.push(`${label} filed on ${isoDay(r.filedAt)} is not yet effective`);
    }
    const desc = notes.length ? `No effective shelf registration: ${notes.join("; ")}` : "No effective shelf registration";
    return { rating: "Low", desc };
  }

  let head: string;
  if (effectiveShelves.length === 1) head = registrationCited(effectiveShelves[0]!);
  else if (effectiveShelves.length > 1) {
    const sourced = effectiveShelves.every((r) => r.source && r.fileNumber);
    const forms = sourced
      ? effectiveShelves.map(registrationCited).join("; ")
      : [...new Set(effectiveShelves.map((r) => r.formType.trim()))].join(", ");
    head = `${effectiveShelves.length} shelves effective (${forms})`;
  } else if (effectiveAtms.length === 1) head = effectiveAtms[0]!.source ? registrationCited(effectiveAtms[0]!) : "ATM program effective";
  else head = `${effectiveAtms.length} ATM programs effective`;

  // An automatic shelf registers no maximum: a well-known seasoned issuer can
  // sell any amount off it, which no market-cap ratio can bound.
  if (capacity.automaticShelf) {
    return {
      rating: "High",
      desc: `${head}: an automatic shelf has no registered maximum, so the amount it can raise is not capped`,
    };
  }

  const raisable = capacity.raisableCents;
  const unsized = capacity.unsized.length
    ? `; size of ${capacity.unsized.length === 1 ? "one registration" : `${capacity.unsized.length} registrations`} not stated in the filings (not counted)`
    : "";
  let text: string;
  if (raisable <= 0n) {
    text = capacity.unsized.length ? `${head}, amount raisable unknown${unsized}` : `${head}, nothing raisable now`;
    if (capacity.babyShelfBinding && !capacity.unsized.length) text += `: the baby-shelf limit is used up (${babyShelfBasis(capacity)})`;
  } else {
    text = `${head}, ${formatMoney(raisable)} raisable`;
    if (capacity.babyLimitedPoolCents > 0n) {
      const float = capacity.publicFloatCents;
      switch (capacity.babyShelf) {
        case "applies": {
          const uncounted = capacity.babyShelfRoom.uncounted;
          text += capacity.babyShelfBinding
            ? ` under the baby-shelf limit (${babyShelfBasis(capacity)})`
            : ` within the ${formatMoney(capacity.babyShelfCapCents!)} baby-shelf limit${uncounted.length ? ` (at most: ${uncountedText(uncounted)})` : ""}`;
          break;
        }
        case "not_applicable":
          text +=
            float !== null
              ? ` with no baby-shelf limit (public float ${formatMoney(float)})`
              : " with no baby-shelf limit (public float over $75M at filing)";
          break;
        case "unknown":
          text += " (baby-shelf limit unknown: no public float figure)";
          break;
        case "none":
          break;
      }
    }
    const cap = capacity.marketCapCents;
    text += cap !== null
      ? `, ${formatPercentTenths(roundDiv(raisable * 1000n, cap))} of the ${formatMoney(cap)} market cap`
      : ", market cap unknown";
  }

  if (capacity.shelfSoldOnAtmsCents > 0n) text += `; shelf size net of ${formatMoney(capacity.shelfSoldOnAtmsCents)} sold on its ATM`;
  if (effectiveAtms.length > 0) {
    const atm = effectiveAtms.length === 1 ? "ATM" : `${effectiveAtms.length} ATMs`;
    if (capacity.atmRemainingUnknown) text += `; ${atm} remaining capacity not reported (counted at ${formatMoney(capacity.atmRemainingCents)})`;
    else if (capacity.atmRemainingCents === 0n) text += `; ${atm} fully used ($0 remaining)`;
    else text += `; ${atm} with ${formatMoney(capacity.atmRemainingCents)} remaining`;
  }
  if (raisable > 0n) text += unsized;

  // A registration of unknown size could raise more than the counted amount: at least Medium.
  const band = offeringAbilityBand(raisable, capacity.marketCapCents);
  return { rating: capacity.unsized.length ? maxRating(band, "Medium") : band, desc: text };
}

// ───────────────────────────── dilution ─────────────────────────────

/**
 * The ledger says the instrument ended (expired, exercised, converted) by the
 * as-of day. A state stated for a later day is not known yet then.
 */
export function hasEnded(instrument: InstrumentInput, asOf: Date): boolean {
  const status = (instrument.status ?? COUNTED_INSTRUMENT_STATUS).trim().toLowerCase();
  if (status === COUNTED_INSTRUMENT_STATUS) return false;
  return instrument.statusAsOf == null || onOrBefore(instrument.statusAsOf, utcDayStart(asOf));
}

/**
 * Issued by the as-of day, not expired on it, not ended in the ledger, and
 * (a convertible) with something left to convert: it can still turn into
 * shares, whether or not its share count is fixed.
 */
export function isLiveInstrument(instrument: InstrumentInput, asOf: Date): boolean {
  const day = utcDayStart(asOf);
  if (!onOrBefore(instrument.issuedAt, day)) return false;
  if (instrument.expiresAt !== null && !after(instrument.expiresAt, day)) return false;
  if (hasEnded(instrument, day)) return false;
  // A convertible with nothing left to convert (converted or repaid) is gone.
  if (instrument.instrumentType.startsWith("convertible") && instrument.remainingCents === 0n) return false;
  return true;
}

/**
 * The instruments to count, without the warrants a periodic report's total
 * already covers: a live `reportedTotal` warrant row is every warrant the
 * company had on its day (its statusAsOf), so a warrant issued on or before
 * that day is in it and is not counted again; one issued after is added.
 */
export function countableInstruments(inputs: RatingInputs): InstrumentInput[] {
  const day = utcDayStart(inputs.asOf);
  const totals = inputs.instruments.filter((i) => i.reportedTotal && isLiveInstrument(i, day));
  const coveredUpTo = totals.reduce<Date | null>((latest, t) => {
    const until = t.statusAsOf ?? t.issuedAt;
    return latest === null || until > latest ? until : latest;
  }, null);
  if (coveredUpTo === null) return inputs.instruments;
  return inputs.instruments.filter((i) => i.reportedTotal || i.instrumentType !== "warrant" || i.issuedAt > coveredUpTo);
}

/** A live instrument with a fixed share count above zero: its shares are counted. */
export function isOutstandingInstrument(instrument: InstrumentInput, asOf: Date): boolean {
  return isLiveInstrument(instrument, asOf) && instrument.sharesUnderlying !== null && instrument.sharesUnderlying > 0n;
}

/** Live instruments whose share count is not fixed (not counted). */
function unfixedInstruments(inputs: RatingInputs): InstrumentInput[] {
  return inputs.instruments.filter((i) => i.sharesUnderlying === null && isLiveInstrument(i, inputs.asOf));
}

/** The shares of an instrument that isOutstandingInstrument admits. */
function sharesOf(instrument: InstrumentInput): bigint {
  return instrument.sharesUnderlying ?? 0n;
}

/** "1 convertible with no fixed share count", "2 instruments with …". */
function unfixedText(unfixed: InstrumentInput[]): string {
  const allConvertible = unfixed.every((i) => i.instrumentType.startsWith("convertible"));
  const allWarrants = unfixed.every((i) => i.instrumentType === "warrant");
  const noun = allConvertible ? "convertible" : allWarrants ? "warrant" : "instrument";
  return `${pluralize(unfixed.length, noun)} with no fixed share count (not counted)`;
}

export function dilutionBand(pctTenths: bigint): Rating {
  if (pctTenths >= DILUTION_HIGH_MIN_PCT_TENTHS) return "High";
  if (pctTenths >= DILUTION_MEDIUM_MIN_PCT_TENTHS) return "Medium";
  return "Low";
}

export interface DilutionResult extends RatingResult {
  instrumentShares: bigint;
  /** Shares the raisable amount buys at the current price; null without a price. */
  raisableShares: bigint | null;
  outstandingShares: bigint | null;
  /** Potential dilution in tenths of a percent; null when outstanding is unknown. */
  pctTenths: bigint | null;
}

export function rateDilution(
  inputs: RatingInputs,
  capacity: OfferingCapacity = computeOfferingCapacity(inputs),
): DilutionResult {
  const outstandingInstruments = countableInstruments(inputs).filter((i) => isOutstandingInstrument(i, inputs.asOf));
  const instrumentShares = sum(outstandingInstruments.map(sharesOf));
  const unfixed = unfixedInstruments(inputs);
  const price = currentPriceMicros(inputs);
  const raisable = capacity.raisableCents;
  const raisableShares = price !== null ? (raisable * MICROS_PER_CENT) / price : raisable > 0n ? null : 0n;
  const outstanding = inputs.latestFloat && inputs.latestFloat.outstandingShares > 0n ? inputs.latestFloat.outstandingShares : null;

  // the largest instruments by name (their names cite the filing), so a trader sees what the shares are
  const largest = [...outstandingInstruments].sort((a, b) => (sharesOf(b) > sharesOf(a) ? 1 : sharesOf(b) < sharesOf(a) ? -1 : 0)).slice(0, 2);
  const named = largest.map((i) => {
    const price = i.exercisePriceMicros ?? i.conversionPriceMicros ?? null;
    return `${formatShares(sharesOf(i))} ${i.name}${price !== null ? ` at ${formatPrice(price)}` : ""}`;
  });
  const more = outstandingInstruments.length - largest.length;
  const fromInstruments =
    `${formatShares(instrumentShares)} shares from warrants and convertibles${named.length ? ` (${named.join("; ")}${more > 0 ? `; ${more} more` : ""})` : ""}` +
    (unfixed.length ? `, plus ${unfixedText(unfixed)}` : "");
  const fromShelf =
    raisableShares !== null
      ? `${formatShares(raisableShares)} raisable on the shelf`
      : `${formatMoney(raisable)} of shelf capacity not counted (no share price)`;

  if (outstanding === null) {
    if (instrumentShares === 0n && raisable === 0n && unfixed.length === 0) {
      return {
        rating: "Low",
        desc: "0.0% potential dilution: no warrants, convertibles or offering capacity on file",
        instrumentShares,
        raisableShares,
        outstandingShares: null,
        pctTenths: 0n,
      };
    }
    return {
      rating: "Medium",
      desc: `Unknown potential dilution: ${fromInstruments}, ${fromShelf}, but shares outstanding are not on file`,
      instrumentShares,
      raisableShares,
      outstandingShares: null,
      pctTenths: null,
    };
  }

  const potential = instrumentShares + (raisableShares ?? 0n);
  const pctTenths = roundDiv(potential * 1000n, outstanding);
  return {
    rating: dilutionBand(pctTenths),
    desc: `${formatPercentTenths(pctTenths)} potential dilution: ${fromInstruments}, ${fromShelf}, vs ${formatShares(outstanding)} outstanding`,
    instrumentShares,
    raisableShares,
    outstandingShares: outstanding,
    pctTenths,
  };
}

// ───────────────────────────── warrant exercise ─────────────────────────────

/**
 * The share price warrants are compared with: the latest daily close on or
 * before the as-of day, else the float snapshot's price, else the latest
 * priced offering's price per share (the last price anyone paid, when no
 * market price is on file); null when none is on file.
 */
export function sharePriceForWarrants(inputs: RatingInputs): SharePrice | null {
  const day = utcDayStart(inputs.asOf);
  const close = inputs.latestClose;
  if (close && close.closeMicros > 0n && onOrBefore(close.date, day)) return { kind: "close", priceMicros: close.closeMicros, date: close.date };
  const snapshot = inputs.latestFloat;
  if (snapshot && snapshot.priceMicros !== null && snapshot.priceMicros > 0n && onOrBefore(snapshot.asOf, day)) {
    return { kind: "float_snapshot", priceMicros: snapshot.priceMicros, date: snapshot.asOf };
  }
  const offering = inputs.latestOfferingPrice;
  if (offering && offering.priceMicros > 0n && onOrBefore(offering.offeringDate, day)) {
    // an offering before a reverse split was priced in the old shares: in today's basis, like the warrants' split-adjusted prices
    const splits = (inputs.reverseSplits ?? []).map((s) => ({ effectiveDate: isoDay(s.effectiveDate), oldShares: BigInt(s.oldShares), newShares: BigInt(s.newShares) }));
    const priceMicros = adjustPrice(offering.priceMicros, splitFactor(splits, isoDay(offering.offeringDate), isoDay(day)))!;
    return { kind: "offering", priceMicros, date: offering.offeringDate, ...(priceMicros !== offering.priceMicros ? { statedMicros: offering.priceMicros } : {}) };
  }
  return null;
}

function sharePriceText(price: SharePrice | null): string {
  if (price === null) return "no share price on file (no close, float snapshot or offering price)";
  const at = `${formatPrice(price.priceMicros)} on ${isoDay(price.date)}`;
  switch (price.kind) {
    case "close":
      return `vs last close ${at}`;
    case "float_snapshot":
      return `vs the float snapshot price ${at} (no close on file)`;
    case "offering":
      return price.statedMicros === undefined
        ? `vs the latest offering price ${at} (no market price on file)`
        : `vs the latest offering price ${at}, split-adjusted from ${formatPrice(price.statedMicros)} (no market price on file)`;
  }
}

export type Moneyness = "in_the_money" | "near_the_money" | "far_out_of_the_money" | "unknown";

/** Where a warrant stands against the share price (WARRANT_NEAR_THE_MONEY_MIN_PRICE_PCT). */
export function warrantMoneyness(warrant: InstrumentInput, priceMicros: bigint | null): Moneyness {
  if (warrant.preFunded) return "in_the_money";
  const strike = warrant.exercisePriceMicros;
  if (strike === null || priceMicros === null) return "unknown";
  if (strike <= priceMicros) return "in_the_money";
  return priceMicros * 100n >= strike * WARRANT_NEAR_THE_MONEY_MIN_PRICE_PCT ? "near_the_money" : "far_out_of_the_money";
}

export function warrantExerciseBand(pctTenths: bigint): Rating {
  if (pctTenths >= WARRANT_EXERCISE_HIGH_MIN_PCT_TENTHS) return "High";
  if (pctTenths >= WARRANT_EXERCISE_MEDIUM_MIN_PCT_TENTHS) return "Medium";
  return "Low";
}

interface WarrantBucket {
  shares: bigint;
  minPrice: bigint | null;
  maxPrice: bigint | null;
}

function priceRange(bucket: WarrantBucket): string {
  if (bucket.minPrice === null || bucket.maxPrice === null) return "";
  return bucket.minPrice === bucket.maxPrice ? formatPrice(bucket.minPrice) : `${formatPrice(bucket.minPrice)}-${formatPrice(bucket.maxPrice)}`;
}

export interface WarrantExerciseResult extends RatingResult {
  price: SharePrice | null;
  inTheMoneyShares: bigint;
  preFundedShares: bigint;
  nearShares: bigint;
  farShares: bigint;
  unknownShares: bigint;
  /** Warrant shares × their weight, in tenths of a share. */
  weightedTenths: bigint;
  outstandingShares: bigint | null;
  /** Weighted warrant shares in tenths of a percent of outstanding; null when outstanding is unknown. */
  pctTenths: bigint | null;
}

export function rateWarrantExercise(inputs: RatingInputs): WarrantExerciseResult {
  const day = utcDayStart(inputs.asOf);
  const isWarrant = (i: InstrumentInput) => i.instrumentType.trim().toLowerCase() === "warrant";
  const issued = countableInstruments(inputs).filter((i) => isWarrant(i) && onOrBefore(i.issuedAt, day));
  const live = issued.filter((i) => isLiveInstrument(i, day));
  const counted = live.filter((i) => isOutstandingInstrument(i, day));
  const unfixed = live.filter((i) => i.sharesUnderlying === null);
  const price = sharePriceForWarrants(inputs);
  const outstanding = inputs.latestFloat && inputs.latestFloat.outstandingShares > 0n ? inputs.latestFloat.outstandingShares : null;

  const buckets: Record<Moneyness, WarrantBucket> = {
    in_the_money: { shares: 0n, minPrice: null, maxPrice: null },
    near_the_money: { shares: 0n, minPrice: null, maxPrice: null },
    far_out_of_the_money: { shares: 0n, minPrice: null, maxPrice: null },
    unknown: { shares: 0n, minPrice: null, maxPrice: null },
  };
  let preFundedShares = 0n;
  for (const warrant of counted) {
    const shares = sharesOf(warrant);
    const moneyness = warrantMoneyness(warrant, price?.priceMicros ?? null);
    const bucket = buckets[moneyness];
    bucket.shares += shares;
    if (warrant.preFunded) {
      preFundedShares += shares;
      continue;
    }
    const strike = warrant.exercisePriceMicros;
    if (strike !== null) {
      bucket.minPrice = bucket.minPrice === null ? strike : bigMin(bucket.minPrice, strike);
      bucket.maxPrice = bucket.maxPrice === null ? strike : bigMax(bucket.maxPrice, strike);
    }
  }
  const itm = buckets.in_the_money;
  const near = buckets.near_the_money;
  const far = buckets.far_out_of_the_money;
  const unknown = buckets.unknown;
  const weightedTenths =
    itm.shares * WARRANT_WEIGHT_IN_THE_MONEY_TENTHS +
    (near.shares + unknown.shares) * WARRANT_WEIGHT_NEAR_THE_MONEY_TENTHS +
    far.shares * WARRANT_WEIGHT_FAR_OUT_OF_THE_MONEY_TENTHS;
  const base = {
    price,
    inTheMoneyShares: itm.shares,
    preFundedShares,
    nearShares: near.shares,
    farShares: far.shares,
    unknownShares: unknown.shares,
    weightedTenths,
    outstandingShares: outstanding,
  };

  if (counted.length === 0) {
    const ended = issued.length - live.length;
    let desc: string;
    if (unfixed.length > 0) desc = `No warrant shares to count: ${unfixedText(unfixed)}`;
    else if (ended > 0) desc = `No outstanding warrants (${pluralize(ended, "warrant")} on file expired or exercised)`;
    else desc = "No warrants on file";
    return { ...base, rating: "Low", desc, pctTenths: outstanding === null ? null : 0n };
  }

  const parts: string[] = [];
  const itmDetail: string[] = [];
  const pricedItm = itm.shares - preFundedShares;
  if (pricedItm > 0n) itmDetail.push(`${formatShares(pricedItm)} at ${priceRange(itm)}`);
  if (preFundedShares > 0n) itmDetail.push(`${formatShares(preFundedShares)} pre-funded`);
  parts.push(itm.shares > 0n ? `${formatShares(itm.shares)} in the money (${itmDetail.join(", ")})` : "none in the money");
  if (near.shares > 0n) parts.push(`${formatShares(near.shares)} near the money at ${priceRange(near)} (half weight)`);
  if (far.shares > 0n) parts.push(`${formatShares(far.shares)} far out of the money at ${priceRange(far)} (1/10 weight)`);
  if (unknown.shares > 0n) {
    parts.push(price === null ? `${formatShares(unknown.shares)} not comparable to a price (half weight)` : `${formatShares(unknown.shares)} at an exercise price not on file (half weight)`);
  }
  if (unfixed.length > 0) parts.push(unfixedText(unfixed));
  const tail = `${parts.join(", ")}; ${sharePriceText(price)}`;

  if (outstanding === null) {
    return {
      ...base,
      rating: weightedTenths > 0n ? "Medium" : "Low",
      desc: `Unknown share of outstanding (shares outstanding not on file), warrant shares: ${tail}`,
      pctTenths: null,
    };
  }
  // weighted shares ÷ outstanding in tenths of a percent: (weightedTenths ÷ 10) × 1000 ÷ outstanding.
  const pctTenths = roundDiv(weightedTenths * 100n, outstanding);
  const bands = `High from ${formatPercentTenths(WARRANT_EXERCISE_HIGH_MIN_PCT_TENTHS)}, Medium from ${formatPercentTenths(WARRANT_EXERCISE_MEDIUM_MIN_PCT_TENTHS)}`;
  return {
    ...base,
    rating: warrantExerciseBand(pctTenths),
    desc: `${formatPercentTenths(pctTenths)} of ${formatShares(outstanding)} outstanding in warrant shares weighted by moneyness (${bands}): ${tail}`,
    pctTenths,
  };
}

// ───────────────────────────── offering frequency ─────────────────────────────

export interface OfferingCounts {
  /** Public (underwritten, best-efforts, rights, initial) offerings, registered directs and convertible financings. */
  offerings: number;
  atmUses: number;
  pipes: number;
  warrantExercises: number;
}

const OFFERING_BUCKET: Record<string, keyof OfferingCounts> = {
  public_offering: "offerings",
  registered_direct: "offerings",
  convertible: "offerings",
  best_efforts: "offerings",
  ipo: "offerings",
  rights: "offerings",
  atm: "atmUses",
  pipe: "pipes",
  warrant_exercise: "warrantExercises",
};

/** Counts by kind over the window [asOf day − 2 years, asOf day], both ends included. */
export function countOfferings(offerings: OfferingInput[], asOf: Date): OfferingCounts {
  const day = utcDayStart(asOf);
  const start = offeringWindowStart(asOf);
  const counts: OfferingCounts = { offerings: 0, atmUses: 0, pipes: 0, warrantExercises: 0 };
  for (const offering of offerings) {
    const date = utcDayStart(offering.offeringDate);
    if (date < start || date > day) continue;
    const bucket = OFFERING_BUCKET[offering.offeringType.trim().toLowerCase()];
    if (bucket) counts[bucket] += 1;
  }
  return counts;
}

export function offeringFrequencyBand(events: number): Rating {
  if (events >= OFFERING_FREQUENCY_HIGH_MIN_EVENTS) return "High";
  if (events >= OFFERING_FREQUENCY_MEDIUM_MIN_EVENTS) return "Medium";
  return "Low";
}

export function rateOfferingFrequency(inputs: RatingInputs): RatingResult & { counts: OfferingCounts } {
  const counts = countOfferings(inputs.offerings, inputs.asOf);
  const events = counts.offerings + counts.atmUses + counts.pipes + counts.warrantExercises;
  const desc =
    `${pluralize(counts.offerings, "offering")}, ${pluralize(counts.atmUses, "ATM use")}, ` +
    `${pluralize(counts.pipes, "PIPE")}, ${pluralize(counts.warrantExercises, "warrant exercise")} ` +
    `in the last ${OFFERING_FREQUENCY_WINDOW_YEARS} years`;
  return { rating: offeringFrequencyBand(events), desc, counts };
}

// ───────────────────────────── listing compliance ─────────────────────────────

const DEFICIENCY_NAMES: Record<string, string> = {
  minimum_bid_price: "minimum bid price",
  bid_price: "minimum bid price",
  stockholders_equity: "stockholders' equity",
  shareholders_equity: "stockholders' equity",
  market_value_of_listed_securities: "market value of listed securities",
  mvls: "market value of listed securities",
  market_value_of_publicly_held_shares: "market value of publicly held shares",
  mvphs: "market value of publicly held shares",
  publicly_held_shares: "publicly held shares",
  round_lot_holders: "round-lot holders",
  periodic_filing: "late periodic filing",
  delinquent_filing: "late periodic filing",
  late_filing: "late periodic filing",
  annual_meeting: "annual meeting",
  audit_committee: "audit committee composition",
  board_independence: "board independence",
  net_income: "net income",
};

/** The kind of a deficiency in words: "minimum bid price", "stockholders' equity". */
export function deficiencyName(deficiency: string): string {
  const key = deficiency.trim().toLowerCase().replace(/[\s-]+/g, "_");
  if (!key) return "unspecified listing";
  return DEFICIENCY_NAMES[key] ?? key.replace(/_/g, " ");
}

/** "active", "resolved", or "future" (notice after the as-of day) on the as-of day. */
export function deficiencyStateOn(deficiency: DeficiencyInput, asOf: Date): "active" | "resolved" | "future" {
  const day = utcDayStart(asOf);
  if (after(deficiency.noticeDate, day)) return "future";
  // A resolution date decides; a deficiency resolved after asOf was still active then.
  if (deficiency.resolvedAt !== null) return onOrBefore(deficiency.resolvedAt, day) ? "resolved" : "active";
  return deficiency.status.trim().toLowerCase() === "active" ? "active" : "resolved";
}

function deadlineText(deadline: Date | null, asOf: Date): string {
  if (deadline === null) return "no deadline set";
  const days = daysBetween(asOf, deadline);
  return days >= 0
    ? `deadline ${isoDay(deadline)} (${pluralize(days, "day")} left)`
    : `deadline ${isoDay(deadline)} passed ${pluralize(-days, "day")} ago`;
}

/** First day (inclusive) of the window in which a reverse split is recent. */
export function reverseSplitWindowStart(asOf: Date): Date {
  return addMonths(utcDayStart(asOf), -REVERSE_SPLIT_LOOKBACK_MONTHS);
}

/** Reverse splits effective in the REVERSE_SPLIT_LOOKBACK_MONTHS up to the as-of day, both days included, oldest first. */
export function recentReverseSplits(inputs: RatingInputs): ReverseSplitInput[] {
  const day = utcDayStart(inputs.asOf);
  const start = reverseSplitWindowStart(inputs.asOf);
  return (inputs.reverseSplits ?? [])
    .filter((s) => !after(s.effectiveDate, day) && utcDayStart(s.effectiveDate) >= start)
    .sort((a, b) => a.effectiveDate.getTime() - b.effectiveDate.getTime());
}

/** "; 1-for-20 reverse split effective 2025-01-05" (nasdaq_compliance_desc names what weighs on the overall rating). */
function reverseSplitText(splits: ReverseSplitInput[]): string {
  if (splits.length === 0) return "";
  const ratio = (s: ReverseSplitInput) => `${s.newShares}-for-${s.oldShares}`;
  if (splits.length === 1) return `; ${ratio(splits[0]!)} reverse split effective ${isoDay(splits[0]!.effectiveDate)}`;
  return `; reverse splits ${splits.map((s) => `${ratio(s)} effective ${isoDay(s.effectiveDate)}`).join(" and ")}`;
}

/** Listing compliance from the deficiencies; its desc also names a recent reverse split. */
export function rateNasdaqCompliance(inputs: RatingInputs): RatingResult {
  const result = rateDeficiencies(inputs);
  return { ...result, desc: result.desc + reverseSplitText(recentReverseSplits(inputs)) };
}

function rateDeficiencies(inputs: RatingInputs): RatingResult {
  const active: DeficiencyInput[] = [];
  const resolved: DeficiencyInput[] = [];
  for (const d of inputs.deficiencies) {
    const state = deficiencyStateOn(d, inputs.asOf);
    if (state === "active") active.push(d);
    else if (state === "resolved") resolved.push(d);
  }

  if (active.length === 0) {
    const last = resolved.sort(
      (a, b) => (b.resolvedAt ?? b.noticeDate).getTime() - (a.resolvedAt ?? a.noticeDate).getTime(),
    )[0];
    if (!last) return { rating: "Low", desc: "No active listing deficiency" };
    const when = last.resolvedAt ? ` on ${isoDay(last.resolvedAt)}` : "";
    return {
      rating: "Low",
      desc: `No active listing deficiency; the last one, ${deficiencyName(last.deficiency)} (notice ${isoDay(last.noticeDate)}), was resolved${when}`,
    };
  }

  // Most urgent first: nearest deadline, no deadline last, then oldest notice.
  active.sort((a, b) => {
    const da = a.deadline?.getTime() ?? Number.POSITIVE_INFINITY;
    const db = b.deadline?.getTime() ?? Number.POSITIVE_INFINITY;
    return da !== db ? da - db : a.noticeDate.getTime() - b.noticeDate.getTime();
  });
  const urgent = active.some(
    (d) => d.deadline !== null && daysBetween(inputs.asOf, d.deadline) <= COMPLIANCE_URGENT_DEADLINE_DAYS,
  );
  const rating: Rating = urgent || active.length > COMPLIANCE_HIGH_ABOVE_ACTIVE_COUNT ? "High" : "Medium";

  // A notice from a filing names it: "notice 2025-03-10 (8-K 0001493152-25-010077)".
  const notice = (d: DeficiencyInput) => `notice ${isoDay(d.noticeDate)}${d.source ? ` (${d.source.form} ${d.source.accession})` : ""}`;
  if (active.length === 1) {
    const d = active[0]!;
    return {
      rating,
      desc: `Active ${deficiencyName(d.deficiency)} deficiency: ${notice(d)}, ${deadlineText(d.deadline, inputs.asOf)}`,
    };
  }
  const items = active.map((d) => `${deficiencyName(d.deficiency)} (${notice(d)}, ${deadlineText(d.deadline, inputs.asOf)})`);
  return { rating, desc: `${active.length} active deficiencies: ${items.join("; ")}` };
}

// ───────────────────────────── overall ─────────────────────────────

export interface OverallParts {
  cashNeed: Rating;
  offeringAbility: Rating;
  offeringFrequency: Rating;
  /** Low: no active deficiency; Medium: one, not urgent; High: urgent or several. */
  nasdaqCompliance: Rating;
  /** A reverse split took effect in the REVERSE_SPLIT_LOOKBACK_MONTHS up to the as-of day. */
  recentReverseSplit?: boolean;
}

/** The composite documented at OVERALL_RISK_MATRIX in ./thresholds.ts. */
export function overallOfferingRisk(parts: OverallParts): Rating {
  const means = maxRating(parts.offeringAbility, parts.offeringFrequency);
  let rating = OVERALL_RISK_MATRIX[parts.cashNeed][means];
  if (parts.cashNeed === "Medium" && parts.offeringAbility === "High" && parts.offeringFrequency === "High") rating = "High";
  // Listing pressure, applied once.
  const activeDeficiency = parts.nasdaqCompliance !== "Low";
  const split = parts.recentReverseSplit === true;
  if (parts.nasdaqCompliance === "High" || (activeDeficiency && split)) rating = raiseOneLevel(rating);
  else if (activeDeficiency || split) rating = maxRating(rating, "Medium");
  return rating;
}

// ───────────────────────────── the record ─────────────────────────────

export function computeDilutionRating(inputs: RatingInputs): DilutionRating {
  const capacity = computeOfferingCapacity(inputs);
  const cash = rateCashNeed(inputs);
  const ability = rateOfferingAbility(inputs, capacity);
  const dilution = rateDilution(inputs, capacity);
  const frequency = rateOfferingFrequency(inputs);
  const compliance = rateNasdaqCompliance(inputs);
  const warrants = rateWarrantExercise(inputs);
  return {
    ticker: inputs.ticker,
    offering_ability: ability.rating,
    offering_ability_desc: ability.desc,
    dilution: dilution.rating,
    dilution_desc: dilution.desc,
    offering_frequency: frequency.rating,
    offering_frequency_desc: frequency.desc,
    cash_need: cash.rating,
    cash_need_desc: cash.desc,
    nasdaq_compliance: compliance.rating,
    nasdaq_compliance_desc: compliance.desc,
    overall_offering_risk: overallOfferingRisk({
      cashNeed: cash.rating,
      offeringAbility: ability.rating,
      offeringFrequency: frequency.rating,
      nasdaqCompliance: compliance.rating,
      recentReverseSplit: recentReverseSplits(inputs).length > 0,
    }),
    regsho: inputs.regSho !== undefined ? inputs.regSho : (inputs.latestFinancials?.regSho ?? null),
    estimated_cash: cash.estimatedCashCents === null ? null : centsToDollars(cash.estimatedCashCents),
    cash_burn: cash.quarterlyBurnCents === null ? null : centsToDollars(cash.quarterlyBurnCents),
    cash_remaining_months: cash.monthsTenths === null ? null : Number(cash.monthsTenths) / 10,
    warrant_exercise: warrants.rating,
    warrant_exercise_desc: warrants.desc,
    going_concern: goingConcern(inputs),
  };
}

/**
 * Every filing a rating's inputs came from, latest first, each once: what
 * `include=source` lists as the rating's `sources`.
 */
export function ratingSources(inputs: RatingInputs): SourceRef[] {
  const refs: (SourceRef | null | undefined)[] = [
    inputs.latestFinancials?.source,
    goingConcernStatement(inputs)?.source,
    inputs.latestFloat?.source,
    ...inputs.registrations.flatMap((r) => [r.source, r.effectiveSource]),
    ...inputs.offerings.map((o) => o.source),
    // An instrument the ledger says ended is not part of the rating.
    ...inputs.instruments.filter((i) => !hasEnded(i, inputs.asOf)).map((i) => i.source),
    ...inputs.deficiencies.map((d) => d.source),
    ...recentReverseSplits(inputs).map((s) => s.source),
    sharePriceForWarrants(inputs)?.kind === "offering" ? inputs.latestOfferingPrice?.source : null,
  ];
  const byAccession = new Map<string, SourceRef>();
  for (const ref of refs) if (ref && !byAccession.has(ref.accession)) byAccession.set(ref.accession, ref);
  return [...byAccession.values()].sort(
    (a, b) => b.filedAt.getTime() - a.filedAt.getTime() || (a.accession < b.accession ? -1 : 1),
  );
}
