/**
 * Every threshold and band of the ratings engine, in one place.
 *
 * Each constant says what it means for a trader and why it has its value.
 * The engine (./engine.ts) reads nothing else: change a band here and the
 * ratings, their `_desc` texts and the tests follow.
 *
 * Conventions:
 * - Ratios are compared in integer TENTHS of the unit that the `_desc` text
 *   shows (tenths of a month, tenths of a percent), after rounding half up.
 *   So a rating always agrees with the figure printed next to it: a desc
 *   that says "6.0 months" is never rated as "under 6 months".
 * - Money is bigint cents, share prices bigint micro-dollars, share counts
 *   bigint shares, as in the database.
 */
import type { Rating } from "./types";

// ───────────────────────────── cash need ─────────────────────────────

/** A quarter is three months: runway months = estimated cash ÷ (quarterly burn ÷ 3). */
export const MONTHS_PER_QUARTER = 3n;

/**
 * Days in an average quarter, as the fraction 36525 / 400 (= 365.25 / 4 =
 * 91.3125 days). Used to prorate the quarterly burn over the days elapsed
 * since the last reported period end: the cash a trader should assume is
 * gone even though no new report has been filed yet.
 */
export const DAYS_PER_QUARTER_NUMERATOR = 36_525n;
export const DAYS_PER_QUARTER_DENOMINATOR = 400n;

/**
 * Cash need is High below 6.0 months of runway: the company has to raise
 * within about two quarters, usually before or right after its next 10-Q,
 * and small caps in that position nearly always sell stock.
 */
export const CASH_NEED_HIGH_BELOW_MONTHS_TENTHS = 60n;

/**
 * Cash need is Medium from 6.0 to below 18.0 months, and Low from 18.0
 * months on. Auditors look 12 months ahead for a going-concern warning and a
 * financing takes a quarter to arrange, so under 18 months a raise within the
 * coming year is likely; at 18 months or more the company is funded past its
 * next annual audit with a cushion.
 */
export const CASH_NEED_MEDIUM_BELOW_MONTHS_TENTHS = 180n;

/**
 * With no financial report on file the cash position is unknown. The rating
 * is Medium: "Low" would tell a trader the company is funded, which nobody
 * knows, and "High" would claim an urgency no fact supports. The desc says the
 * report is missing, `cash_remaining_months` is null and `estimated_cash` /
 * `cash_burn` are 0.
 */
export const CASH_NEED_WITHOUT_FINANCIALS: Rating = "Medium";

// ───────────────────────────── offering ability ─────────────────────────────

/**
 * Baby-shelf rule (Form S-3 General Instruction I.B.6): a company whose
 * public float is below $75M may sell at most one third of its public float
 * value on an S-3/F-3 shelf in 12 months. At or above $75M there is no cap.
 */
export const BABY_SHELF_PUBLIC_FLOAT_LIMIT_CENTS = 75_000_000_00n;
export const BABY_SHELF_FRACTION_NUMERATOR = 1n;
export const BABY_SHELF_FRACTION_DENOMINATOR = 3n;

/**
 * Forms whose sales the baby-shelf cap limits: S-3 and F-3 shelves (and
 * their amendments). ATM programs are sold off such a shelf, so they are
 * limited too. Other registrations (S-1, F-1) count at their full amount.
 */
export const BABY_SHELF_FORM_PATTERN = /^[SF]-3/i;

/**
 * An automatic shelf registration (S-3ASR, F-3ASR) of a well-known seasoned
 * issuer: effective on filing and with no registered maximum, so offering
 * ability is High whatever the market cap (the rating says so in words).
 */
export const AUTOMATIC_SHELF_FORM = /^[SF]-3ASR$/i;

/**
 * Rule 415(a)(5): a shelf registration (an offering made continuously or
 * later, and an ATM program sold off it) may be used for three years from the
 * day it became effective; then it lapses and the company must register
 * again. A shelf effective on 29 February lapses on 28 February three years
 * later (lib/utils/dates addYears: the last day of February is its
 * anniversary).
 */
export const SHELF_LIFE_YEARS = 3;

/**
 * Offering ability is High when the company can raise at least 20.0% of its
 * market cap right now: a deal of that size is a heavy, price-moving
 * offering. A baby-shelf company with its full ⅓-of-float room and a float of
 * 60% or more of its market cap lands here.
 */
export const OFFERING_ABILITY_HIGH_MIN_PCT_TENTHS = 200n;

/**
 * Offering ability is Medium from 5.0% to below 20.0% of market cap, and Low
 * below 5.0% (or with nothing raisable): under 5% an offering barely moves the
 * share count. When the market cap is unknown, any capacity above zero is
 * Medium (it exists, its weight cannot be judged).
 */
export const OFFERING_ABILITY_MEDIUM_MIN_PCT_TENTHS = 50n;

// ───────────────────────────── dilution ─────────────────────────────

/**
 * Dilution is High when warrants, convertibles and the shares the company
 * can sell right now add 30.0% or more to the shares outstanding: almost a
 * third more stock that can hit the market.
 */
export const DILUTION_HIGH_MIN_PCT_TENTHS = 300n;

/**
 * Dilution is Medium from 10.0% to below 30.0%, Low below 10.0%: under a
 * tenth of the share count the overhang is small against normal trading.
 * When shares outstanding are unknown and something can dilute, the rating
 * is Medium (the size cannot be measured).
 */
export const DILUTION_MEDIUM_MIN_PCT_TENTHS = 100n;

// ───────────────────────────── offering frequency ─────────────────────────────

/** Offering frequency looks back this many calendar years from the as-of day. */
export const OFFERING_FREQUENCY_WINDOW_YEARS = 2;

/**
 * Offering frequency is High at 4 or more financing events (offerings, ATM
 * uses, PIPEs, warrant exercises) in the window: the company raises about
 * every six months or more often, a serial diluter.
 */
export const OFFERING_FREQUENCY_HIGH_MIN_EVENTS = 4;

/**
 * Offering frequency is Medium at 2 or 3 events (roughly a raise a year),
 * Low at 0 or 1: one financing in two years is normal for a small cap.
 */
export const OFFERING_FREQUENCY_MEDIUM_MIN_EVENTS = 2;

// ───────────────────────────── listing compliance ─────────────────────────────

/**
 * Listing compliance is High when a deadline to regain compliance is at most
 * 60 days away (or already passed), or when more than one deficiency is
 * active: the company must act now, typically by a reverse split or, for an
 * equity deficiency, by selling stock. One active deficiency with more time
 * (or no deadline yet) is Medium; none active is Low.
 */
export const COMPLIANCE_URGENT_DEADLINE_DAYS = 60;

/** More active deficiencies than this make listing compliance High. */
export const COMPLIANCE_HIGH_ABOVE_ACTIVE_COUNT = 1;

// ───────────────────────────── overall offering risk ─────────────────────────────

/**
 * Overall offering risk: how likely the company is to sell stock soon.
 *
 * It crosses the PRESSURE to raise (cash need) with the MEANS to raise (the
 * higher of offering ability and offering frequency: a shelf makes a deal
 * easy, and a company that raised often has the bankers and investors to do it
 * again, with or without a shelf):
 *
 * | cash need ↓ / means → | Low    | Medium | High   |
 * |-----------------------|--------|--------|--------|
 * | Low                   | Low    | Low    | Medium |
 * | Medium                | Medium | Medium | Medium*|
 * | High                  | Medium | High   | High   |
 *
 * (*) High when offering ability AND offering frequency are both High: a
 * company with under 18 months of cash, a large shelf and a habit of using it.
 *
 * Then an urgent listing deficiency (nasdaq_compliance High) raises the result
 * one level: to keep the listing, companies reverse-split and raise equity.
 *
 * Potential dilution (warrant and convertible overhang) is not part of it:
 * it measures how much stock could come, not whether the company will sell.
 */
export const OVERALL_RISK_MATRIX: Readonly<Record<Rating, Readonly<Record<Rating, Rating>>>> = {
  Low: { Low: "Low", Medium: "Low", High: "Medium" },
  Medium: { Low: "Medium", Medium: "Medium", High: "Medium" },
  High: { Low: "Medium", Medium: "High", High: "High" },
};
