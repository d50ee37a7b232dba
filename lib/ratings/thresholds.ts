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

/**
 * Going-concern doubt: when the latest financial report states substantial
 * doubt about the company continuing as a going concern, cash need is raised
 * one level (Low → Medium, Medium → High), so it is at least Medium. The
 * auditor (or management) has said in writing that the company cannot fund
 * the next 12 months without new money: whatever the runway arithmetic says,
 * a raise is coming. Only the latest report by period end that states it
 * either way counts: a later report without the doubt means it was lifted.
 * It may be a later report than the one the runway is computed from (a
 * report read from its text alone states going concern but no cash).
 */
export const GOING_CONCERN_RAISES_CASH_NEED_LEVELS = 1;

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
 * The sales the one third is reduced by: those of the 12 calendar months
 * before the day (General Instruction I.B.6: "during the prior 12 calendar
 * month period"); a sale on the same day a year before is out.
 */
export const BABY_SHELF_SALES_WINDOW_MONTHS = 12;

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

/**
 * Only instruments in the ledger's `outstanding` state count as potential
 * shares: an expired, exercised or converted one is gone. A state is a fact
 * of the day it is stated for (`as_of`): a rating computed for an earlier
 * day still counts the instrument as it was then. An instrument without a
 * fixed share count (a convertible without a fixed conversion price) cannot
 * be counted; dilution_desc says how many there are.
 */
export const COUNTED_INSTRUMENT_STATUS = "outstanding";

// ───────────────────────────── warrant exercise ─────────────────────────────

/**
 * warrant_exercise: how much stock outstanding warrants are likely to turn
 * into soon. Holders exercise warrants that are in the money (exercise price
 * at or below the share price) and sell the shares; warrants far above the
 * price rarely get exercised before they expire. So each warrant share is
 * weighted by how near its exercise price is to the latest known share price:
 *
 * - in the money (exercise price ≤ share price), and every pre-funded warrant
 *   (a nominal exercise price, already paid for): full weight, 10/10;
 * - near the money (share price ≥ 50% of the exercise price: the stock must
 *   rise at most 2× to reach it), or with an exercise price not on file, or
 *   when no share price is on file at all: half weight, 5/10;
 * - far out of the money (share price < 50% of the exercise price): 1/10.
 *
 * The weighted warrant shares, in percent of shares outstanding (in tenths,
 * as printed), give the rating (WARRANT_EXERCISE_HIGH_MIN_PCT_TENTHS, …).
 */
export const WARRANT_WEIGHT_IN_THE_MONEY_TENTHS = 10n;
export const WARRANT_WEIGHT_NEAR_THE_MONEY_TENTHS = 5n;
export const WARRANT_WEIGHT_FAR_OUT_OF_THE_MONEY_TENTHS = 1n;

/**
 * A warrant is near the money when the share price is at least this percent
 * of its exercise price (exactly 50% is near; below it is far out of the
 * money). Small caps that issue warrants move 50–100% in weeks, so a stock
 * at half the exercise price can get there; below half it takes a rally most
 * of them never see before the warrants expire.
 */
export const WARRANT_NEAR_THE_MONEY_MIN_PRICE_PCT = 50n;

/**
 * warrant_exercise is High when the weighted warrant shares are 20.0% or
 * more of the shares outstanding: a fifth more stock that holders can take
 * and sell now, as heavy as an offering that offering_ability rates High
 * (20% of market cap), and a ceiling on the price at the exercise price.
 */
export const WARRANT_EXERCISE_HIGH_MIN_PCT_TENTHS = 200n;

/**
 * warrant_exercise is Medium from 5.0% to below 20.0%, Low below 5.0%: under
 * a twentieth of the share count, exercises are absorbed by normal trading.
 * With no warrants outstanding it is Low; with warrants but shares
 * outstanding unknown it is Medium (the weight cannot be measured).
 */
export const WARRANT_EXERCISE_MEDIUM_MIN_PCT_TENTHS = 50n;

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

/**
 * A reverse split that took effect in the 12 months up to the as-of day (both
 * days included) is recent: companies reverse-split to keep a listing or to
 * make the stock sellable again, and an offering usually follows within
 * months. It weighs on overall_offering_risk (see OVERALL_RISK_MATRIX) and
 * nasdaq_compliance_desc names it.
 */
export const REVERSE_SPLIT_LOOKBACK_MONTHS = 12;

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
 * Then listing pressure, at most once:
 *
 * - raised one level when a listing deficiency is urgent (nasdaq_compliance
 *   High: a deadline at most 60 days away, or several active), or when a
 *   deficiency is active AND the company reverse-split in the last 12 months
 *   (REVERSE_SPLIT_LOOKBACK_MONTHS): the split did not end the trouble, and
 *   what is left to do is raise equity;
 * - otherwise at least Medium when a deficiency is active (nasdaq_compliance
 *   Medium) or the company reverse-split in the last 12 months: either one
 *   is a company preparing its stock for a raise or its listing for a fight.
 *
 * Potential dilution (warrant and convertible overhang) and warrant_exercise
 * are not part of it: they measure how much stock could come (and warrant
 * exercise brings stock the holders sell, not the company), not whether the
 * company will sell. Going-concern doubt enters through cash need.
 */
export const OVERALL_RISK_MATRIX: Readonly<Record<Rating, Readonly<Record<Rating, Rating>>>> = {
  Low: { Low: "Low", Medium: "Low", High: "Medium" },
  Medium: { Low: "Medium", Medium: "Medium", High: "Medium" },
  High: { Low: "Medium", Medium: "High", High: "High" },
};
