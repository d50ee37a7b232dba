/**
 * Plain inputs and outputs of the ratings engine. No Prisma types: the engine
 * is a pure function of these, so it runs on database rows, imported files or
 * hand-made test fixtures alike.
 *
 * Units (as in the database): money in bigint cents, per-share prices in
 * bigint micro-dollars (1 USD = 10^6), share counts in bigint shares. Plain
 * dates (period ends, filing dates, deadlines) are `Date`s at UTC midnight.
 */

/** Every rating is one of these three words. */
export type Rating = "Low" | "Medium" | "High";

/** offering_type values of the offerings table. */
export type OfferingType =
  | "public_offering"
  | "registered_direct"
  | "pipe"
  | "atm"
  | "warrant_exercise"
  | "convertible";

/** The latest financial report (by period end) filed on or before asOf. */
export interface FinancialsInput {
  periodEnd: Date;
  cashCents: bigint;
  /** Net operating cash used per quarter; 0 (or less) when not burning cash. */
  quarterlyBurnCents: bigint;
  debtCents: bigint;
  /** On the Reg SHO threshold list. */
  regSho: boolean;
}

/** A shelf registration (S-3, F-3, S-1 …) or an at-the-market program. */
export interface RegistrationInput {
  formType: string;
  filedAt: Date;
  effectiveAt: Date | null;
  expiresAt: Date | null;
  offeringAmountCents: bigint;
  isAtm: boolean;
  /** ATM capacity still unsold; null when not reported. */
  atmRemainingCents: bigint | null;
  /** Public float at filing ≥ $75M (baby-shelf cap does not apply). */
  overBabyShelf: boolean;
  /** Public float value at filing, used when no current price is known. */
  publicFloatCents: bigint | null;
  isEffective: boolean;
}

export interface OfferingInput {
  offeringDate: Date;
  /** One of OfferingType; unknown values are ignored by the counts. */
  offeringType: OfferingType | (string & {});
  amountCents: bigint;
  shares: bigint | null;
}

/** A warrant or convertible outstanding. */
export interface InstrumentInput {
  /** warrant | convertible_note | convertible_preferred */
  instrumentType: string;
  name: string;
  issuedAt: Date;
  expiresAt: Date | null;
  sharesUnderlying: bigint;
  exercisePriceMicros: bigint | null;
  /** Convertibles: principal not yet converted or repaid; 0 = nothing left. */
  remainingCents: bigint | null;
}

export interface DeficiencyInput {
  /** e.g. minimum_bid_price, stockholders_equity; may be empty. */
  deficiency: string;
  /** active | resolved */
  status: string;
  noticeDate: Date;
  deadline: Date | null;
  resolvedAt: Date | null;
}

/** The latest float snapshot on or before asOf. */
export interface FloatInput {
  asOf: Date;
  floatShares: bigint;
  outstandingShares: bigint;
  priceMicros: bigint | null;
  marketCapCents: bigint | null;
}

export interface RatingInputs {
  ticker: string;
  /** The instant the rating is computed for; date rules use its UTC day. */
  asOf: Date;
  latestFinancials?: FinancialsInput;
  registrations: RegistrationInput[];
  offerings: OfferingInput[];
  instruments: InstrumentInput[];
  deficiencies: DeficiencyInput[];
  latestFloat?: FloatInput;
}

/** The /v1/dilution-rating record: keys are the spec's field names. */
export interface DilutionRating {
  ticker: string;
  offering_ability: Rating;
  offering_ability_desc: string;
  dilution: Rating;
  /** Starts with the percent value, e.g. "38.2% potential dilution: …". */
  dilution_desc: string;
  offering_frequency: Rating;
  offering_frequency_desc: string;
  cash_need: Rating;
  cash_need_desc: string;
  nasdaq_compliance: Rating;
  nasdaq_compliance_desc: string;
  overall_offering_risk: Rating;
  regsho: boolean;
  /** Dollars (cents precision): reported cash less the burn since period end. */
  estimated_cash: number;
  /** Dollars per quarter; 0 when the company does not burn cash. */
  cash_burn: number;
  /**
   * Months of cash left, rounded to 1 decimal. null when the company does not
   * burn cash (the runway is unlimited, which JSON cannot write as a number)
   * or when no financial report is on file (unknown).
   */
  cash_remaining_months: number | null;
}
