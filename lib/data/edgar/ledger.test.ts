import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { DilutionInstrumentRecord, ReverseSplitRecord } from "../import/schema";
import { validateRecords } from "../import/validate";
import { emptyDataset } from "../import/schema";
import { readPeriodicReport, type PeriodicReading, type PeriodicReport } from "./documents/periodic-report";
import { readSubmission } from "./documents/submission";
import { filingUrl, type Filing } from "./filings";
import type { ClosingEvent } from "./documents/closings";
import { buildLedger, seriesKey, type ClosingsFiled, type PeriodicReportFiled } from "./ledger";
import { periodicReading, testFiling } from "./periodic-reading.fixture";

const CIK = "0000000001";
const evidence = (f: Filing) => ({ source_accession: f.accessionNumber, source_form: f.form, source_filed_at: f.filedAt, source_url: filingUrl(CIK, f.accessionNumber) });
let serial = 0;
const filing = (form: string, filedAt: string, reportDate: string | null = null) => testFiling(form, `0000000001-26-${String(++serial).padStart(6, "0")}`, filedAt, null, "", reportDate);

function periodic(filedAt: string, period: string, stated: Partial<PeriodicReport>, evidenceOf: Record<string, string> = {}): PeriodicReportFiled {
  return { filing: filing("10-Q", filedAt, period), reading: periodicReading(period, stated, evidenceOf) };
}

const prospectus = filing("424B5", "2025-03-03");
const issuedWarrants = (shares: string, price: string, expires: string | null = "2030-03-03"): DilutionInstrumentRecord => ({
  ticker: "EXMP",
  instrument_type: "warrant",
  name: `Warrants of 2025-03-03 (424B5 ${prospectus.accessionNumber})`,
  issued_at: "2025-03-03",
  expires_at: expires,
  shares_underlying: shares,
  exercise_price_micros: price,
  principal_cents: null,
  remaining_cents: null,
  registered: true,
  pre_funded: false,
  exercisable_at: null,
  quotes: { shares_underlying: "warrants to purchase up to 1,000,000 shares", registered: "warrants to purchase up to 1,000,000 shares" },
  ...evidence(prospectus),
});
const split = (effective: string, n: number): ReverseSplitRecord => ({ ticker: "EXMP", effective_date: effective, old_shares: String(n), new_shares: "1" });

const ledger = (issued: DilutionInstrumentRecord[], reports: PeriodicReportFiled[], splits: ReverseSplitRecord[] = [], today = "2026-06-01") =>
  buildLedger({ ticker: "EXMP", today, issued: issued.map((record) => ({ record })), reports, splits, evidence });

describe("the instrument ledger", () => {
  it("a periodic report that re-discloses a tracked warrant updates it, with a second state, never a second row", () => {
    const q1 = periodic(
      "2025-05-12",
      "2025-03-31",
      { warrants: [{ series: null, shares_outstanding: 1_000_000, exercise_price: 4, expiry: "2030-03-03", as_of: "2025-03-31" }] },
      { "warrants[0].shares_outstanding": "1,000,000 warrants outstanding at March 31, 2025" },
    );
    const { instruments, states } = ledger([issuedWarrants("1000000", "4000000")], [q1]);
    expect(instruments).toHaveLength(1);
    expect(instruments[0]).toMatchObject({ shares_underlying: "1000000", status: "outstanding", as_of: "2025-03-31", source_accession: q1.filing.accessionNumber });
    expect(instruments[0]!.quotes).toEqual({ shares_underlying: "1,000,000 warrants outstanding at March 31, 2025" });
    expect(states.map((s) => [s.known_at, s.as_of, s.shares_underlying])).toEqual([
      ["2025-03-03", "2025-03-03", "1000000"],
      ["2025-05-12", "2025-03-31", "1000000"],
    ]);
  });

  it("follows a price reset and a partial exercise by expiry; a filing that states no exercise makes no 'exercised'", () => {
    const reset = periodic("2025-05-12", "2025-03-31", { warrants: [{ series: null, shares_outstanding: 1_000_000, exercise_price: 1.5, expiry: "2030-03-03", as_of: "2025-03-31" }] });
    const fewer = periodic("2025-08-11", "2025-06-30", { warrants: [{ series: null, shares_outstanding: 600_000, exercise_price: 1.5, expiry: "2030-03-03", as_of: "2025-06-30" }] });
    const { instruments } = ledger([issuedWarrants("1000000", "4000000")], [reset, fewer]);
    expect(instruments).toHaveLength(1);
    expect(instruments[0]).toMatchObject({ shares_underlying: "600000", exercise_price_micros: "1500000", status: "outstanding" });
  });

  it("a series that matches nothing, or more than one tracked warrant, is a new instrument, never a guess", () => {
    const twin = { ...issuedWarrants("1000000", "4000000"), name: "Warrants of 2025-03-03 (second tranche)" };
    const q1 = periodic("2025-05-12", "2025-03-31", {
      warrants: [
        { series: null, shares_outstanding: 1_000_000, exercise_price: 4, expiry: "2030-03-03", as_of: "2025-03-31" },
        { series: "Series B", shares_outstanding: 250_000, exercise_price: 9, expiry: "2028-01-15", as_of: "2025-03-31" },
      ],
    });
    const result = ledger([issuedWarrants("1000000", "4000000"), twin], [q1]);
    expect(result.instruments.map((i) => i.name)).toEqual([
      "Warrants of 2025-03-03 (424B5 0000000001-26-000001)",
      "Warrants of 2025-03-03 (second tranche)",
      `Warrants (reported 2025-03-31, 10-Q ${q1.filing.accessionNumber})`,
      `Series B warrants (reported 2025-03-31, 10-Q ${q1.filing.accessionNumber})`,
    ]);
    expect(result.notes.join(" ")).toContain("matches 2 tracked instruments");
  });

  it("a named series is recognised by its name across reports, whatever its count and price do", () => {
    const q1 = periodic("2025-05-12", "2025-03-31", { warrants: [{ series: "Series A Warrants", shares_outstanding: 500_000, exercise_price: 2, expiry: null, as_of: "2025-03-31" }] });
    const q2 = periodic("2025-08-11", "2025-06-30", { warrants: [{ series: "series A warrant", shares_outstanding: 120_000, exercise_price: 0.8, expiry: null, as_of: "2025-06-30" }] });
    const { instruments, states } = ledger([], [q1, q2]);
    expect(instruments).toHaveLength(1);
    expect(instruments[0]).toMatchObject({ shares_underlying: "120000", issued_at: "2025-03-31", as_of: "2025-06-30" });
    expect(states).toHaveLength(2);
  });

  it("shows earlier figures split-adjusted from the day a split takes effect, with the stated figures and the split beside them", () => {
    const before = ledger([issuedWarrants("1000", "4000000")], [], [split("2026-07-01", 10)], "2026-06-30");
    expect(before.instruments[0]).toMatchObject({ shares_underlying: "1000", exercise_price_micros: "4000000", split_adjustment: null, stated_shares_underlying: null });
    const after = ledger([issuedWarrants("1000", "4000000")], [], [split("2026-07-01", 10)], "2026-07-01");
    expect(after.instruments[0]).toMatchObject({
      shares_underlying: "100",
      exercise_price_micros: "40000000",
      stated_shares_underlying: "1000",
      stated_price_micros: "4000000",
      split_adjustment: "1-for-10",
    });
    // the history keeps what each filing stated
    expect(after.states[0]).toMatchObject({ shares_underlying: "1000", price_micros: "4000000" });
  });

  it("a report filed after a split re-quotes the adjusted count: it is matched and never divided again; one between two splits takes the second only", () => {
    const splits = [split("2025-06-02", 10), split("2025-10-01", 5)];
    // filed after the first split: 1,000,000 → 100,000 at $40, as the statements restate it
    const q2 = periodic("2025-08-11", "2025-06-30", { warrants: [{ series: null, shares_outstanding: 100_000, exercise_price: 40, expiry: "2030-03-03", as_of: "2025-06-30" }] });
    const { instruments, states } = ledger([issuedWarrants("1000000", "4000000")], [q2], splits, "2026-01-05");
    expect(instruments).toHaveLength(1);
    expect(instruments[0]).toMatchObject({ shares_underlying: "20000", exercise_price_micros: "200000000", stated_shares_underlying: "100000", split_adjustment: "1-for-5" });
    expect(states.map((s) => s.shares_underlying)).toEqual(["1000000", "100000"]);
  });

  it("a warrant whose expiry has passed is expired and stays listed", () => {
    const { instruments } = ledger([issuedWarrants("1000000", "4000000", "2026-03-03")], [], [], "2026-03-04");
    expect(instruments[0]).toMatchObject({ status: "expired", shares_underlying: "1000000" });
  });

  it("a total without series is one instrument flagged reported_total, followed across reports; a report with series adds no total", () => {
    const q1 = periodic("2025-05-12", "2025-03-31", { warrants_total: { shares_outstanding: 2_500_000, weighted_average_exercise_price: 3.1, as_of: "2025-03-31" } });
    const q2 = periodic("2025-08-11", "2025-06-30", { warrants_total: { shares_outstanding: 2_400_000, weighted_average_exercise_price: 3.05, as_of: "2025-06-30" } });
    const q3 = periodic("2025-11-10", "2025-09-30", {
      warrants: [{ series: "Series C", shares_outstanding: 10, exercise_price: 1, expiry: null, as_of: "2025-09-30" }],
      warrants_total: { shares_outstanding: 2_400_010, weighted_average_exercise_price: 3, as_of: "2025-09-30" },
    });
    const { instruments } = ledger([], [q1, q2, q3]);
    const totals = instruments.filter((i) => i.reported_total);
    expect(totals).toHaveLength(1);
    // the report that breaks them down also states the total, as of its own day: it covers the series it lists
    expect(totals[0]).toMatchObject({ shares_underlying: "2400010", exercise_price_micros: "3000000", as_of: "2025-09-30" });
    expect(instruments.filter((i) => !i.reported_total).map((i) => i.issued_at)).toEqual(["2025-09-30"]);
  });

  it("a report of no warrants outstanding lists none, and brings a tracked total to zero", () => {
    const none = (filed: string, period: string) => periodic(filed, period, { warrants_total: { shares_outstanding: 0, weighted_average_exercise_price: null, as_of: period } });
    expect(ledger([], [none("2025-05-12", "2025-03-31")]).instruments).toEqual([]);
    const q1 = periodic("2025-05-12", "2025-03-31", { warrants_total: { shares_outstanding: 2_500_000, weighted_average_exercise_price: 3.1, as_of: "2025-03-31" } });
    const totals = ledger([], [q1, none("2025-08-11", "2025-06-30")]).instruments.filter((i) => i.reported_total);
    expect(totals).toHaveLength(1);
    expect(totals[0]).toMatchObject({ shares_underlying: "0", as_of: "2025-06-30" });
  });

  it("notes whose names say which they are are told apart, whatever their maturity", () => {
    const note = (name: string, principal: number) => ({ kind: "note" as const, name, principal_or_stated_outstanding: principal, conversion_price: 1, maturity: "2027-01-01", as_of: "2025-03-31" });
    const q1 = periodic("2025-05-12", "2025-03-31", { convertibles: [note("Series A Notes", 100_000), note("Series B Notes", 200_000)] });
    const q2 = periodic("2025-08-11", "2025-06-30", { convertibles: [{ ...note("Series A Notes", 90_000), as_of: "2025-06-30" }, { ...note("Series B Notes", 150_000), as_of: "2025-06-30" }] });
    const { instruments } = ledger([], [q1, q2]);
    expect(instruments.map((i) => [i.name.slice(0, 14), i.remaining_cents])).toEqual([
      ["Series A Notes", "9000000"],
      ["Series B Notes", "15000000"],
    ]);
  });

  it("a convertible note is followed by name and maturity; its shares are its outstanding principal over the stated conversion price", () => {
    const q1 = periodic("2025-05-12", "2025-03-31", { convertibles: [{ kind: "note", name: "8% Convertible Promissory Note", principal_or_stated_outstanding: 500_000, conversion_price: 0.5, maturity: "2026-05-01", as_of: "2025-03-31" }] });
    const q2 = periodic("2025-08-11", "2025-06-30", { convertibles: [{ kind: "note", name: "Convertible note", principal_or_stated_outstanding: 200_000, conversion_price: null, maturity: "2026-05-01", as_of: "2025-06-30" }] });
    const { instruments } = ledger([], [q1, q2]);
    expect(instruments).toHaveLength(1);
    expect(instruments[0]).toMatchObject({
      instrument_type: "convertible_note",
      principal_cents: "50000000",
      remaining_cents: "20000000",
      conversion_price_micros: "500000",
      shares_underlying: "400000",
      expires_at: "2026-05-01",
    });
  });

  it("preferred counts are not divided by the common split: the stated value stays, the conversion price is adjusted", () => {
    const q1 = periodic("2025-05-12", "2025-03-31", { convertibles: [{ kind: "preferred", name: "Series X Convertible Preferred Stock", principal_or_stated_outstanding: 1_000_000, conversion_price: 2, maturity: null, as_of: "2025-03-31" }] });
    const { instruments } = ledger([], [q1], [split("2025-06-02", 10)], "2025-07-01");
    expect(instruments[0]).toMatchObject({ remaining_cents: "100000000", conversion_price_micros: "20000000", shares_underlying: "50000", stated_shares_underlying: "500000" });
  });

  it("its rows and history pass the import's validation", () => {
    const q1 = periodic("2025-05-12", "2025-03-31", {
      warrants: [{ series: null, shares_outstanding: 1_000_000, exercise_price: 4, expiry: "2030-03-03", as_of: "2025-03-31" }],
      convertibles: [{ kind: "note", name: "Notes", principal_or_stated_outstanding: null, conversion_price: null, maturity: null, as_of: "2025-03-31" }],
    });
    const { instruments, states } = ledger([issuedWarrants("1000000", "4000000")], [q1], [split("2025-06-02", 10)]);
    const dataset = emptyDataset();
    dataset.companies.push({ ticker: "EXMP", name: "Example", exchange: "Nasdaq", is_sample: false });
    dataset.dilution_instruments.push(...instruments);
    dataset.instrument_states.push(...states);
    expect(validateRecords(dataset).errors).toEqual([]);
  });

  it("a named series a later report re-quotes as it was before a split is adjusted, never taken as the new count", () => {
    const issued = { ...issuedWarrants("1000000", "4000000"), name: "Series A warrants of 2025-03-03" };
    const q = periodic("2025-11-10", "2025-09-30", { warrants: [{ series: "Series A Warrants", shares_outstanding: 1_000_000, exercise_price: 4, expiry: "2030-03-03", as_of: "2025-09-30" }] });
    const result = buildLedger({ ticker: "EXMP", today: "2026-01-05", issued: [{ record: issued, series: seriesKey("Series A warrants") }], reports: [q], splits: [split("2025-06-02", 10)], evidence });
    expect(result.instruments).toHaveLength(1);
    expect(result.instruments[0]).toMatchObject({ shares_underlying: "100000", exercise_price_micros: "40000000", split_adjustment: null });
    expect(result.notes.join(" ")).toContain("before a reverse split");
  });

  it("an 8-K beside its prospectus is one instrument even when the 8-K states no price", () => {
    const eightK = filing("8-K", "2025-03-04");
    const fromEightK = { ...issuedWarrants("1000000", "4000000"), name: "Warrants of 2025-03-03 (8-K)", exercise_price_micros: null, ...evidence(eightK) };
    const { instruments } = ledger([issuedWarrants("1000000", "4000000"), fromEightK], []);
    expect(instruments).toHaveLength(1);
    expect(instruments[0]).toMatchObject({ exercise_price_micros: "4000000", source_accession: eightK.accessionNumber });
  });

  it("two instruments of one name get names of their own (the name is the import's key), and a larger later principal stays valid", () => {
    const q1 = periodic("2025-05-12", "2025-03-31", {
      warrants: [
        { series: "Series A Warrants", shares_outstanding: 100, exercise_price: 5, expiry: "2029-01-01", as_of: "2025-03-31" },
        { series: "Series A Warrants", shares_outstanding: 200, exercise_price: 3, expiry: "2030-01-01", as_of: "2025-03-31" },
      ],
      convertibles: [{ kind: "note", name: "Bridge note", principal_or_stated_outstanding: 500_000, conversion_price: 1, maturity: "2026-05-01", as_of: "2025-03-31" }],
    });
    const q2 = periodic("2025-08-11", "2025-06-30", { convertibles: [{ kind: "note", name: "Bridge note", principal_or_stated_outstanding: 1_500_000, conversion_price: 1, maturity: "2026-05-01", as_of: "2025-06-30" }] });
    const { instruments, states } = ledger([], [q1, q2]);
    expect(new Set(instruments.map((i) => i.name)).size).toBe(instruments.length);
    expect(instruments.find((i) => i.instrument_type === "convertible_note")).toMatchObject({ principal_cents: "150000000", remaining_cents: "150000000" });
    const dataset = emptyDataset();
    dataset.companies.push({ ticker: "EXMP", name: "Example", exchange: "Nasdaq", is_sample: false });
    dataset.dilution_instruments.push(...instruments);
    dataset.instrument_states.push(...states);
    expect(validateRecords(dataset).errors).toEqual([]);
  });

  it("series names compare without their filler words", () => {
    expect(seriesKey("The Series A Warrants")).toBe(seriesKey("series A warrant"));
    expect(seriesKey("Warrants")).toBeNull();
  });
});

describe("closings: instruments a filing says were exercised, converted or repaid in full", () => {
  const SENTENCE = "On May 20, 2025, the holders of the Series A Warrants and the Series B Warrants exercised all of their warrants.";
  const q1 = () =>
    periodic("2025-05-12", "2025-03-31", {
      warrants: [
        { series: "Series A Warrants", shares_outstanding: 500_000, exercise_price: 2, expiry: "2030-01-15", as_of: "2025-03-31" },
        { series: "Series B Warrants", shares_outstanding: 300_000, exercise_price: 3, expiry: "2027-01-15", as_of: "2025-03-31" },
      ],
    });
  const closingReport = (filedAt: string, period: string, closings: ClosingEvent[], quote = SENTENCE, stated: Partial<PeriodicReport> = {}) =>
    periodic(filedAt, period, { ...stated, closings }, Object.fromEntries(closings.flatMap((_, i) => [[`closings[${i}].kind`, quote]])));
  const exercised = (instruments: string[], date: string | null = "2025-05-20"): ClosingEvent => ({ kind: "exercised", instruments, date, subsequent: false });
  const eightK = (filedAt: string, closings: ClosingEvent[], quote: string): ClosingsFiled => ({
    filing: filing("8-K", filedAt, filedAt),
    closings,
    evidence: Object.fromEntries(closings.map((_, i) => [`closings[${i}].kind`, quote])),
  });

  it("one event naming two warrant series closes both: each stays listed with its status, as of the day stated, quoted", () => {
    const first = q1();
    const q2 = closingReport("2025-08-11", "2025-06-30", [exercised(["Series A Warrants", "Series B Warrants"])]);
    const { instruments, states, notes } = ledger([], [first, q2]);
    expect(instruments).toHaveLength(2);
    for (const row of instruments) {
      expect(row).toMatchObject({ status: "exercised", as_of: "2025-05-20", source_accession: q2.filing.accessionNumber });
      expect(row.quotes).toEqual({ status: SENTENCE });
    }
    // the figures it closed stay on the row; the history keeps the earlier outstanding state
    expect(instruments.map((i) => i.shares_underlying)).toEqual(["500000", "300000"]);
    const seriesA = states.filter((s) => s.instrument_name === instruments[0]!.name);
    expect(seriesA.map((s) => [s.known_at, s.as_of, s.status, s.shares_underlying])).toEqual([
      ["2025-05-12", "2025-03-31", "outstanding", "500000"],
      ["2025-08-11", "2025-05-20", "exercised", "500000"],
    ]);
    expect(seriesA[1]!.quotes).toEqual({ status: SENTENCE });
    expect(notes).toEqual([]);
  });

  it("a name that matches nothing, more than one instrument, or no kind the event closes changes nothing and is noted", () => {
    const twins = [
      { ...issuedWarrants("1000000", "10000"), name: "Pre-funded warrants of 2025-03-03 (first)", pre_funded: true, expires_at: null },
      { ...issuedWarrants("2000000", "10000"), name: "Pre-funded warrants of 2025-03-03 (second)", pre_funded: true, expires_at: null },
    ];
    const q2 = closingReport("2025-08-11", "2025-06-30", [
      exercised(["Series C Warrants"]),
      exercised(["Pre-Funded Warrants"]),
      { kind: "redeemed", instruments: ["Series A Warrants"], date: "2025-06-01", subsequent: false },
    ]);
    const { instruments, notes } = ledger(twins, [q1(), q2]);
    expect(instruments.map((i) => i.status)).toEqual(["outstanding", "outstanding", "outstanding", "outstanding"]);
    expect(notes).toEqual([
      expect.stringContaining("Series C Warrants (exercised 2025-05-20) matches no tracked instruments: nothing closed"),
      expect.stringContaining("Pre-Funded Warrants (exercised 2025-05-20) matches 2 tracked instruments: nothing closed"),
      expect.stringContaining("Series A Warrants (redeemed 2025-06-01) names no kind of instrument that is redeemed: nothing closed"),
    ]);
  });

  it("a report without a closing sentence closes nothing, whatever its counts do", () => {
    const q2 = periodic("2025-08-11", "2025-06-30", { warrants: [{ series: "Series A Warrants", shares_outstanding: 1, exercise_price: 2, expiry: "2030-01-15", as_of: "2025-06-30" }] });
    expect(ledger([], [q1(), q2]).instruments.map((i) => i.status)).toEqual(["outstanding", "outstanding"]);
  });

  it("closes the pre-funded warrants a prospectus sold when a report says all of the Pre-Funded Warrants were exercised", () => {
    const sold = { ...issuedWarrants("800000", "100"), name: "Pre-funded warrants of 2025-03-03", pre_funded: true, expires_at: null };
    const q1 = closingReport("2025-05-12", "2025-03-31", [exercised(["Pre-Funded Warrants"], null)], "During the three months ended March 31, 2025, all of the outstanding Pre-Funded Warrants were exercised.");
    const { instruments } = ledger([sold, issuedWarrants("1000000", "4000000")], [q1]);
    expect(instruments.find((i) => i.pre_funded)).toMatchObject({ status: "exercised", as_of: "2025-03-31", shares_underlying: "800000" });
    expect(instruments.find((i) => !i.pre_funded)).toMatchObject({ status: "outstanding" });
  });

  it("a year-old closing told again does not close a newer instrument of the same name", () => {
    const first = { ...issuedWarrants("800000", "100"), name: "Pre-funded warrants of 2025-03-03", pre_funded: true, expires_at: null };
    const second = { ...first, name: "Pre-funded warrants of 2025-09-01", issued_at: "2025-09-01", shares_underlying: "500000" };
    const told = "During 2025, all of the outstanding Pre-Funded Warrants were exercised.";
    const q1 = closingReport("2025-05-12", "2025-03-31", [exercised(["Pre-Funded Warrants"], null)], told);
    const k = closingReport("2026-03-10", "2025-12-31", [exercised(["Pre-Funded Warrants"], null)], told);
    const { instruments, notes } = ledger([first, second], [q1, k]);
    expect(instruments.find((i) => i.name === first.name)).toMatchObject({ status: "exercised", as_of: "2025-03-31" });
    expect(instruments.find((i) => i.name === second.name)).toMatchObject({ status: "outstanding" });
    expect(notes.some((n) => /already exercised: nothing closed/.test(n))).toBe(true);
  });

  it("an 8-K's conversion in full closes the note a report follows: converted, nothing remaining, and the rows pass the import", () => {
    const q1 = periodic("2025-05-12", "2025-03-31", {
      convertibles: [{ kind: "note", name: "2024 Convertible Note", principal_or_stated_outstanding: 500_000, conversion_price: 0.5, maturity: "2026-05-01", as_of: "2025-03-31" }],
    });
    const quote = "On June 3, 2025, the holder converted the entire outstanding principal balance of the 2024 Convertible Note into 1,000,000 shares of common stock.";
    const k = eightK("2025-06-05", [{ kind: "converted", instruments: ["2024 Convertible Note"], date: "2025-06-03", subsequent: false }], quote);
    const result = buildLedger({ ticker: "EXMP", today: "2026-01-05", issued: [], reports: [q1], closings: [k], splits: [], evidence });
    expect(result.instruments).toEqual([
      expect.objectContaining({ status: "converted", as_of: "2025-06-03", principal_cents: "50000000", remaining_cents: "0", conversion_price_micros: "500000", source_accession: k.filing.accessionNumber }),
    ]);
    expect(result.instruments[0]!.quotes).toEqual({ status: quote, remaining_amount: quote });
    const dataset = emptyDataset();
    dataset.companies.push({ ticker: "EXMP", name: "Example", exchange: "Nasdaq", is_sample: false });
    dataset.dilution_instruments.push(...result.instruments);
    dataset.instrument_states.push(...result.states);
    expect(validateRecords(dataset).errors).toEqual([]);
  });

  it("a note repaid in full is redeemed; a later report telling the same closing again changes nothing", () => {
    const q1 = periodic("2025-05-12", "2025-03-31", {
      convertibles: [{ kind: "note", name: "January 2025 Note", principal_or_stated_outstanding: 250_000, conversion_price: 1, maturity: "2026-01-15", as_of: "2025-03-31" }],
    });
    const repaid: ClosingEvent = { kind: "redeemed", instruments: ["January 2025 Note"], date: "2025-06-13", subsequent: false };
    const k = eightK("2025-06-16", [repaid], "On June 13, 2025, the Company repaid the January 2025 Note in full.");
    const q2 = closingReport("2025-08-11", "2025-06-30", [repaid], "On June 13, 2025, the January 2025 Note was repaid in full.");
    const result = buildLedger({ ticker: "EXMP", today: "2026-01-05", issued: [], reports: [q1, q2], closings: [k], splits: [], evidence });
    expect(result.instruments[0]).toMatchObject({ status: "redeemed", as_of: "2025-06-13", remaining_cents: "0", source_accession: k.filing.accessionNumber });
    expect(result.states.map((s) => s.status)).toEqual(["outstanding", "redeemed"]);
    expect(result.notes).toEqual([]);
  });

  it("a closed series is never reopened by a later report that re-quotes an earlier day; one stated outstanding after its closing is reopened, with a note", () => {
    const q3 = periodic("2024-11-10", "2024-09-30", { warrants: [{ series: "Series A Warrants", shares_outstanding: 500_000, exercise_price: 2, expiry: "2030-01-15", as_of: "2024-09-30" }] });
    const k = eightK("2025-02-07", [exercised(["Series A Warrants"], "2025-02-05")], "On February 5, 2025, the Series A Warrants were exercised in full.");
    // the 10-K for 2024, filed after the 8-K, lists the series as it stood on December 31, 2024
    const tenK = periodic("2025-03-15", "2024-12-31", { warrants: [{ series: "Series A Warrants", shares_outstanding: 500_000, exercise_price: 2, expiry: "2030-01-15", as_of: "2024-12-31" }] });
    const closed = buildLedger({ ticker: "EXMP", today: "2025-04-01", issued: [], reports: [q3, tenK], closings: [k], splits: [], evidence });
    expect(closed.instruments).toHaveLength(1);
    expect(closed.instruments[0]).toMatchObject({ status: "exercised", as_of: "2025-02-05", source_accession: k.filing.accessionNumber });
    expect(closed.states.map((s) => [s.known_at, s.status])).toEqual([
      ["2024-11-10", "outstanding"],
      ["2025-02-07", "exercised"],
    ]);
    expect(closed.notes.join("\n")).toContain("an earlier state re-quoted, not taken");
    // a 10-Q stating the series outstanding on March 31, 2025, after the day it was exercised: the latest evidence wins, and says so
    const q1 = periodic("2025-05-12", "2025-03-31", { warrants: [{ series: "Series A Warrants", shares_outstanding: 200_000, exercise_price: 2, expiry: "2030-01-15", as_of: "2025-03-31" }] });
    const reopened = buildLedger({ ticker: "EXMP", today: "2025-06-01", issued: [], reports: [q3, tenK, q1], closings: [k], splits: [], evidence });
    expect(reopened.instruments).toHaveLength(1);
    expect(reopened.instruments[0]).toMatchObject({ status: "outstanding", shares_underlying: "200000", as_of: "2025-03-31" });
    expect(reopened.notes.join("\n")).toContain("after it was exercised as of 2025-02-05");
    expect(reopened.notes.join("\n")).toContain("reopened on the report's figures");
  });

  it("a closing dated before a day its own filing, or an earlier one, states the instrument outstanding is not applied", () => {
    const q2 = closingReport("2025-08-11", "2025-06-30", [exercised(["Series A Warrants"], "2025-05-01")], "On May 1, 2025, the Series A Warrants were exercised in full.", {
      warrants: [{ series: "Series A Warrants", shares_outstanding: 500_000, exercise_price: 2, expiry: "2030-01-15", as_of: "2025-06-30" }],
    });
    const result = ledger([], [q1(), q2]);
    expect(result.instruments.find((i) => i.name.startsWith("Series A"))).toMatchObject({ status: "outstanding", as_of: "2025-06-30" });
    expect(result.notes.join("\n")).toContain("states it outstanding as of 2025-06-30: not closed");
  });

  it("carries the closed figures into the closing filing's share basis, so a split between them is not applied twice", () => {
    const k = eightK("2025-08-01", [exercised(["Series A Warrants"], "2025-07-30")], "On July 30, 2025, the Series A Warrants were exercised in full.");
    const result = buildLedger({ ticker: "EXMP", today: "2025-09-01", issued: [], reports: [q1()], closings: [k], splits: [split("2025-06-02", 10)], evidence });
    const seriesA = result.instruments.find((i) => i.name.startsWith("Series A"))!;
    expect(seriesA).toMatchObject({ status: "exercised", shares_underlying: "50000", exercise_price_micros: "20000000", split_adjustment: null });
  });
});

describe("the ledger on Marathon's real 10-Q and 10-K (2023)", () => {
  const read = (file: string): PeriodicReading => readPeriodicReport(readSubmission(readFileSync(path.join(process.cwd(), "fixtures/edgar/Archives/edgar/data/1507605", file), "utf8")));
  // filing days as each report's signature states them
  const q2: PeriodicReportFiled = { filing: { ...filing("10-Q", "2023-08-08", "2023-06-30"), accessionNumber: "0001493152-23-027174" }, reading: read("000149315223027174/form10-q.htm") };
  const fy: PeriodicReportFiled = { filing: { ...filing("10-K", "2024-02-28", "2023-12-31"), accessionNumber: "0001628280-24-007680" }, reading: read("000162828024007680/mara-20231231.htm") };

  it("follows the 2026 convertible notes from $747.5M to $330.7M, and the warrant total, in one row each", () => {
    const { instruments, states } = buildLedger({ ticker: "MARA", today: "2024-03-01", issued: [], reports: [q2, fy], splits: [], evidence });
    const notes = instruments.filter((i) => i.instrument_type === "convertible_note");
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      principal_cents: "74750000000",
      remaining_cents: "33070700000",
      conversion_price_micros: "76170000",
      expires_at: "2026-12-01",
      as_of: "2023-12-31",
      source_accession: "0001628280-24-007680",
    });
    expect(notes[0]!.quotes?.remaining_amount).toMatch(/330,707/);
    const total = instruments.filter((i) => i.reported_total);
    expect(total).toHaveLength(1);
    expect(total[0]).toMatchObject({ shares_underlying: "324375", exercise_price_micros: "25000000", as_of: "2023-12-31" });
    expect(states.filter((s) => s.instrument_name === notes[0]!.name).map((s) => [s.as_of, s.remaining_cents])).toEqual([
      ["2023-06-30", "74750000000"],
      ["2023-12-31", "33070700000"],
    ]);
  });

  it("closes the Series A Preferred Stock the 10-Q lists: the 10-K says all of it was redeemed", () => {
    const { instruments, states } = buildLedger({ ticker: "MARA", today: "2024-03-01", issued: [], reports: [q2, fy], splits: [], evidence });
    const preferred = instruments.filter((i) => i.instrument_type === "convertible_preferred");
    expect(preferred).toHaveLength(1);
    expect(preferred[0]).toMatchObject({ status: "redeemed", as_of: "2023-12-31", conversion_price_micros: "14520000", source_accession: "0001628280-24-007680" });
    expect(preferred[0]!.quotes?.status).toBe("As of December 31, 2023, all of the outstanding Series A Preferred Stock were redeemed at 105% of the $1,000 stated value per share for $15.8 million.");
    expect(states.filter((s) => s.instrument_name === preferred[0]!.name).map((s) => [s.as_of, s.status])).toEqual([
      ["2023-06-30", "outstanding"],
      ["2023-12-31", "redeemed"],
    ]);
  });
});
