import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  CASH_NEED_HIGH_BELOW_MONTHS_TENTHS,
  CASH_NEED_MEDIUM_BELOW_MONTHS_TENTHS,
  COMPLIANCE_HIGH_ABOVE_ACTIVE_COUNT,
  COMPLIANCE_URGENT_DEADLINE_DAYS,
  DILUTION_HIGH_MIN_PCT_TENTHS,
  DILUTION_MEDIUM_MIN_PCT_TENTHS,
  GOING_CONCERN_RAISES_CASH_NEED_LEVELS,
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

/**
 * docs/data.md's "Ratings" section states the bands of thresholds.ts in
 * words. Each row and figure is rebuilt here from the constants, so changing
 * a threshold without the documentation (or the other way round) fails.
 */
const docs = readFileSync(path.resolve(import.meta.dirname, "../../docs/data.md"), "utf8");
const section = docs.slice(docs.indexOf("## Ratings\n"), docs.indexOf("\n## ", docs.indexOf("## Ratings\n") + 1));

/** Tenths as the docs write them: 60 → "6", 205 → "20.5". */
const tenths = (value: bigint) => (value % 10n === 0n ? `${value / 10n}` : `${value / 10n}.${value % 10n}`);
const pct = (value: bigint) => `${tenths(value)}%`;
/** A weight in tenths as a percent: 10 → "100%", 5 → "50%". */
const weight = (value: bigint) => `${value * 10n}%`;

describe("docs/data.md's ratings section follows thresholds.ts", () => {
  it("has the section", () => {
    expect(section.startsWith("## Ratings\n")).toBe(true);
    expect(section).toContain("lib/ratings/thresholds.ts");
  });

  it.each<[string, string]>([
    [
      "cash_need",
      `| cash_need (months = estimated cash ÷ (quarterly burn ÷ 3)) | ≥ ${tenths(CASH_NEED_MEDIUM_BELOW_MONTHS_TENTHS)} months, or no burn | ${tenths(CASH_NEED_HIGH_BELOW_MONTHS_TENTHS)} to < ${tenths(CASH_NEED_MEDIUM_BELOW_MONTHS_TENTHS)} months, or no report, or burn not reported | < ${tenths(CASH_NEED_HIGH_BELOW_MONTHS_TENTHS)} months |`,
    ],
    [
      "offering_ability",
      `| offering_ability (raisable now ÷ market cap) | nothing raisable, or < ${pct(OFFERING_ABILITY_MEDIUM_MIN_PCT_TENTHS)} | ${pct(OFFERING_ABILITY_MEDIUM_MIN_PCT_TENTHS)} to < ${pct(OFFERING_ABILITY_HIGH_MIN_PCT_TENTHS)}, or market cap unknown, or a registration of unstated size | ≥ ${pct(OFFERING_ABILITY_HIGH_MIN_PCT_TENTHS)}, or an effective automatic shelf (S-3ASR: no maximum) |`,
    ],
    [
      "dilution",
      `| dilution ((warrant + convertible shares + raisable shares) ÷ outstanding) | < ${pct(DILUTION_MEDIUM_MIN_PCT_TENTHS)} | ${pct(DILUTION_MEDIUM_MIN_PCT_TENTHS)} to < ${pct(DILUTION_HIGH_MIN_PCT_TENTHS)} | ≥ ${pct(DILUTION_HIGH_MIN_PCT_TENTHS)} |`,
    ],
    [
      "warrant_exercise",
      `| warrant_exercise (warrant shares weighted by moneyness ÷ outstanding) | < ${pct(WARRANT_EXERCISE_MEDIUM_MIN_PCT_TENTHS)}, or no warrants outstanding | ${pct(WARRANT_EXERCISE_MEDIUM_MIN_PCT_TENTHS)} to < ${pct(WARRANT_EXERCISE_HIGH_MIN_PCT_TENTHS)}, or outstanding unknown | ≥ ${pct(WARRANT_EXERCISE_HIGH_MIN_PCT_TENTHS)} |`,
    ],
    [
      "offering_frequency",
      `| offering_frequency (offerings, ATM uses, PIPEs, warrant exercises, last ${OFFERING_FREQUENCY_WINDOW_YEARS} years) | 0–${OFFERING_FREQUENCY_MEDIUM_MIN_EVENTS - 1} | ${OFFERING_FREQUENCY_MEDIUM_MIN_EVENTS}–${OFFERING_FREQUENCY_HIGH_MIN_EVENTS - 1} | ≥ ${OFFERING_FREQUENCY_HIGH_MIN_EVENTS} |`,
    ],
    [
      "nasdaq_compliance",
      `| nasdaq_compliance (active deficiencies) | none | ${COMPLIANCE_HIGH_ABOVE_ACTIVE_COUNT === 1 ? "one" : `up to ${COMPLIANCE_HIGH_ABOVE_ACTIVE_COUNT}`}, deadline > ${COMPLIANCE_URGENT_DEADLINE_DAYS} days away | several, or deadline ≤ ${COMPLIANCE_URGENT_DEADLINE_DAYS} days |`,
    ],
  ])("states the %s bands", (_name, row) => {
    expect(section).toContain(row);
  });

  it("states the overall matrix as it is", () => {
    // The row in words, checked cell by cell against the matrix.
    expect(section).toContain(
      "| overall_offering_risk | cash need Low and neither ability nor frequency High | otherwise | cash need High with ability or frequency ≥ Medium, or cash need Medium with both High |",
    );
    expect(OVERALL_RISK_MATRIX.Low).toEqual({ Low: "Low", Medium: "Low", High: "Medium" });
    expect(OVERALL_RISK_MATRIX.Medium).toEqual({ Low: "Medium", Medium: "Medium", High: "Medium" });
    expect(OVERALL_RISK_MATRIX.High).toEqual({ Low: "Medium", Medium: "High", High: "High" });
    const months = `${REVERSE_SPLIT_LOOKBACK_MONTHS} months`;
    expect(section).toContain(`reverse split in the last ${months}`);
  });

  it("states the warrant weights, the near-the-money line and going concern's step", () => {
    const flat = section.replace(/\s+/g, " ");
    expect(flat).toContain(`price ≤ share price) and every pre-funded warrant ${weight(WARRANT_WEIGHT_IN_THE_MONEY_TENTHS)}`);
    expect(flat).toContain(`(share price ≥ ${WARRANT_NEAR_THE_MONEY_MIN_PRICE_PCT}% of the exercise price), no exercise price on file, or no share price on file ${weight(WARRANT_WEIGHT_NEAR_THE_MONEY_TENTHS)}`);
    expect(flat).toContain(`(share price < ${WARRANT_NEAR_THE_MONEY_MIN_PRICE_PCT}% of the exercise price) ${weight(WARRANT_WEIGHT_FAR_OUT_OF_THE_MONEY_TENTHS)}`);
    expect(GOING_CONCERN_RAISES_CASH_NEED_LEVELS).toBe(1);
    expect(flat).toContain("raises it one level, so it is at least Medium");
  });
});
