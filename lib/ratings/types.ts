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
  | "convertible"
  | "best_efforts"
  | "ipo"
  | "rights";

/** The SEC filing a fact came from (facts from imports or sample data have none). */
export interface SourceRef {
  accession: string;
  form: string;
  filedAt: Date;
  url: string;
}

/**
 * The latest financial report (by period end) filed on or before asOf that
 * states its cash: a report read from a periodic report's text alone (going
 * concern, no cash figure) is not one; its statement comes as
 * RatingInputs.goingConcernReport.
 */
export interface FinancialsInput {
  periodEnd: Date;
  cashCents: bigint;
  /** Net operating cash used per quarter; 0 (or less) when not burning cash; null when not reported. */
  quarterlyBurnCents: bigint | null;
  debtCents: bigint | null;
  /** On the Reg SHO threshold list; null when unknown. */
  regSho: boolean | null;
  /**
   * The periodic report of this period states substantial doubt about the
   * company continuing as a going concern; null (or absent) when the report
   * was not read for it.
   */
  goingConcern?: boolean | null;
  /** The filing that states the going-concern doubt, when known. */
  goingConcernAccession?: string | null;
  source?: SourceRef | null;
}

/**
 * The latest financial report (by period end) filed on or before asOf that
 * states whether there is substantial doubt about the company continuing as a
 * going concern, whether or not it states cash.
 */
export interface GoingConcernInput {
  periodEnd: Date;
  goingConcern: boolean;
  /** The periodic report that states it, when known. */
  goingConcernAccession: string | null;
  source?: SourceRef | null;
}

/** A shelf registration (S-3, F-3, S-1 …) or an at-the-market program. */
export interface RegistrationInput {
  formType: string;
  filedAt: Date;
  effectiveAt: Date | null;
  expiresAt: Date | null;
  /** Null when the filings do not state it (an automatic shelf has no registered maximum). */
  offeringAmountCents: bigint | null;
  isAtm: boolean;
  /** ATM capacity still unsold; null when not reported. */
  atmRemainingCents: bigint | null;
  /** The day atmRemainingCents is stated for; a figure stated after the as-of day is not used then. */
  atmRemainingAsOf?: Date | null;
  /** ATM gross sales to date as the latest periodic report states them; null when not stated. */
  atmSoldCents?: bigint | null;
  /** Public float at filing ≥ $75M (baby-shelf cap does not apply); null when unknown. */
  overBabyShelf: boolean | null;
  /** Public float value at filing, used when no current price is known. */
  publicFloatCents: bigint | null;
  /** What a filing under it states may still be sold under the baby-shelf limit (I.B.6); absent or null when not stated. */
  babyShelfCapacityCents?: bigint | null;
  /** The day that stated capacity is for: it speaks for the 12 months from it. */
  babyShelfAsOf?: Date | null;
  /** What that filing states was sold under I.B.6 in the prior 12 months; absent or null when not stated. */
  babyShelfSoldCents?: bigint | null;
  isEffective: boolean;
  /** The registration's file number (333-…), when known. */
  fileNumber?: string;
  /** The filing that is the registration's record, when known. */
  accessionNumber?: string;
  source?: SourceRef | null;
  /** The EDGAR EFFECT notice, when effectiveness came from one. */
  effectiveSource?: SourceRef | null;
}

export interface OfferingInput {
  offeringDate: Date;
  /** One of OfferingType; unknown values are ignored by the counts. */
  offeringType: OfferingType | (string & {});
  amountCents: bigint | null;
  shares: bigint | null;
  /** Price per share (micro-dollars), when stated: shares × price is the amount sold when no amount is stated. */
  priceMicros?: bigint | null;
  /** The prospectus form (424B5 …), when known. */
  formType?: string | null;
  /** The registration it was taken down from (333-…), when known. */
  fileNumber?: string | null;
  source?: SourceRef | null;
}

/** dilution_instruments.status (INSTRUMENT_STATUSES in lib/data/import/schema.ts); only outstanding ones dilute. */
export type InstrumentStatus = "outstanding" | "expired" | "exercised" | "converted" | "redeemed";

/** A warrant or convertible (the instrument ledger's latest state of it). */
export interface InstrumentInput {
  /** warrant | convertible_note | convertible_preferred */
  instrumentType: string;
  name: string;
  issuedAt: Date;
  expiresAt: Date | null;
  /** Split-adjusted; null when the filings state no fixed count (a convertible without a fixed conversion price). */
  sharesUnderlying: bigint | null;
  /** Split-adjusted exercise price (warrants; for older rows also a convertible's conversion price). */
  exercisePriceMicros: bigint | null;
  /** Convertibles: the split-adjusted conversion price, when fixed. */
  conversionPriceMicros?: bigint | null;
  /** A pre-funded warrant (exercisable for a nominal price). Absent = false. */
  preFunded?: boolean;
  /** The ledger's latest state; absent = outstanding. */
  status?: InstrumentStatus | (string & {});
  /** The day that state is stated for; null when not stated. */
  statusAsOf?: Date | null;
  /** A periodic report's total of all the company's warrants on statusAsOf: it covers the warrants issued by then. Absent = false. */
  reportedTotal?: boolean;
  /** Convertibles: principal not yet converted or repaid; 0 = nothing left. */
  remainingCents: bigint | null;
  source?: SourceRef | null;
}

export interface DeficiencyInput {
  /** e.g. minimum_bid_price, stockholders_equity; may be empty. */
  deficiency: string;
  /** active | resolved */
  status: string;
  noticeDate: Date;
  deadline: Date | null;
  resolvedAt: Date | null;
  source?: SourceRef | null;
}

/** A reverse split (old_shares-for-new_shares, e.g. 20-for-1). */
export interface ReverseSplitInput {
  effectiveDate: Date;
  oldShares: number;
  newShares: number;
  source?: SourceRef | null;
}

/** A share price and where it came from (the warrant_exercise rating compares exercise prices with it). */
export interface SharePrice {
  /** close: the latest daily close; float_snapshot: the float snapshot's price; offering: the latest priced offering's price per share. */
  kind: "close" | "float_snapshot" | "offering";
  /** In today's share basis. */
  priceMicros: bigint;
  date: Date;
  /** An offering's price as it was stated, when reverse splits since moved it (priceMicros is then adjusted). */
  statedMicros?: bigint;
}

/** The latest float snapshot on or before asOf. */
export interface FloatInput {
  asOf: Date;
  /** Null when unknown (EDGAR states the public float in dollars). */
  floatShares: bigint | null;
  outstandingShares: bigint;
  priceMicros: bigint | null;
  marketCapCents: bigint | null;
  /** dei:EntityPublicFloat, the public float's dollar value, when on file. */
  publicFloatCents?: bigint | null;
  /** The day publicFloatCents is for (the end of the second fiscal quarter), when known. */
  publicFloatAsOf?: Date | null;
  source?: SourceRef | null;
}

export interface RatingInputs {
  ticker: string;
  /** The instant the rating is computed for; date rules use its UTC day. */
  asOf: Date;
  latestFinancials?: FinancialsInput;
  /**
   * The latest report that states going concern either way (it may be a later
   * one than latestFinancials, read from its text alone). null: none does.
   * Absent: latestFinancials' own goingConcern is the statement.
   */
  goingConcernReport?: GoingConcernInput | null;
  registrations: RegistrationInput[];
  offerings: OfferingInput[];
  instruments: InstrumentInput[];
  deficiencies: DeficiencyInput[];
  latestFloat?: FloatInput;
  /** The latest daily close on or before asOf (daily_prices). */
  latestClose?: { date: Date; closeMicros: bigint };
  /** The latest priced offering on or before asOf that states a price per share (not a warrant exercise or convertible). */
  latestOfferingPrice?: { offeringDate: Date; priceMicros: bigint; source?: SourceRef | null };
  /** Reverse splits effective in the REVERSE_SPLIT_LOOKBACK_MONTHS before asOf (earlier ones are ignored). Absent = none. */
  reverseSplits?: ReverseSplitInput[];
  /**
   * On a Reg SHO threshold list on the as-of day: from the imported lists
   * when one covers that day, else the latest report's flag; null = unknown.
   */
  regSho?: boolean | null;
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
  /** null when unknown: no threshold list covers the day and no report states it. */
  regsho: boolean | null;
  /** Dollars (cents precision): reported cash less the burn since period end; null without a report. */
  estimated_cash: number | null;
  /** Dollars per quarter; 0 when the company does not burn cash; null when unknown. */
  cash_burn: number | null;
  /**
   * Months of cash left, rounded to 1 decimal. null when the company does not
   * burn cash (the runway is unlimited, which JSON cannot write as a number)
   * or when no financial report is on file (unknown).
   */
  cash_remaining_months: number | null;
  /** How likely outstanding warrants are to be exercised into new shares: in-the-money warrant shares against shares outstanding. */
  warrant_exercise: Rating;
  /** Starts with the weighted percent, e.g. "65.6% of 3.2M outstanding in warrant shares, weighted by moneyness: …". */
  warrant_exercise_desc: string;
  /** The latest financial report states substantial doubt about continuing as a going concern; null when no report states it either way. */
  going_concern: boolean | null;
}
