import { describe, expect, it } from "vitest";
import { validateRecords } from "../import";
import { IMPORT_KINDS, MAX_HOLDERS, TICKER_PATTERN, type Dataset, type FinancialReportRecord } from "../import/schema";
import {
  generatedTickers,
  generateSampleDataset,
  SAMPLE_ANCHOR_DATE,
  SAMPLE_DEFAULT_TICKER_COUNT,
  SAMPLE_SHOWCASE,
  SAMPLE_SHOWCASE_COUNTS,
} from "@/lib/data/sample";
import { splitAdjustedShares } from "./builder";
import { UNDERWRITERS } from "./plans";

const data = generateSampleDataset();
const anchor = SAMPLE_ANCHOR_DATE;
const BABY_SHELF_CENTS = 75_000_000 * 100;
/** Each variety case must appear at least this many times among the default tickers. */
const SEVERAL = 3;

const num = (v: number | string | null | undefined) => Number(v ?? 0);
const big = (v: number | string | null | undefined) => BigInt(v ?? 0);
const tickersOf = (records: readonly { ticker: string }[]) => new Set(records.map((r) => r.ticker));
const of = <T extends { ticker: string }>(records: readonly T[], ticker: string) => records.filter((r) => r.ticker === ticker);

function daysBefore(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

function latestReports(dataset: Dataset): Map<string, FinancialReportRecord> {
  const latest = new Map<string, FinancialReportRecord>();
  for (const r of dataset.financial_reports) {
    const seen = latest.get(r.ticker);
    if (!seen || seen.period_end < r.period_end) latest.set(r.ticker, r);
  }
  return latest;
}

/** Months of cash at the latest report; Infinity when the company burns nothing. */
function runwayMonths(report: FinancialReportRecord): number {
  const burn = num(report.quarterly_burn_cents);
  return burn === 0 ? Infinity : num(report.cash_cents) / (burn / 3);
}

describe("generateSampleDataset", () => {
  it("is deterministic: the same arguments give deep-equal data", () => {
    expect(generateSampleDataset()).toEqual(data);
    expect(generateSampleDataset({ seed: 7, tickerCount: 50 })).toEqual(generateSampleDataset({ seed: 7, tickerCount: 50 }));
    expect(generateSampleDataset({ seed: 7, tickerCount: 50 })).not.toEqual(generateSampleDataset({ seed: 8, tickerCount: 50 }));
  });

  it("keeps the first companies when more tickers are asked for", () => {
    const small = generateSampleDataset({ tickerCount: 60 });
    const tickers = new Set(small.companies.map((c) => c.ticker));
    for (const kind of IMPORT_KINDS) {
      expect((data[kind] as { ticker: string }[]).filter((r) => tickers.has(r.ticker))).toEqual(small[kind]);
    }
    expect(generatedTickers(1, 60)).toEqual(generatedTickers(1, 240).slice(0, 60));
  });

  it("has 240 unique, well-formed tickers by default", () => {
    expect(SAMPLE_DEFAULT_TICKER_COUNT).toBeGreaterThanOrEqual(200);
    const tickers = data.companies.map((c) => c.ticker);
    expect(tickers).toHaveLength(240);
    expect(new Set(tickers).size).toBe(240);
    for (const t of tickers) {
      expect(t).toMatch(/^[A-Z]{3,5}$/);
      expect(t).toMatch(TICKER_PATTERN);
    }
  });

  it("labels every company as sample data; mostly NASDAQ, some NYSE American", () => {
    for (const c of data.companies) {
      expect(c.is_sample).toBe(true);
      expect(c.name.endsWith(" (Sample)")).toBe(true);
      expect(["NASDAQ", "NYSE American"]).toContain(c.exchange);
    }
    const nyse = data.companies.filter((c) => c.exchange === "NYSE American").length;
    expect(nyse).toBeGreaterThanOrEqual(SEVERAL);
    expect(nyse).toBeLessThan(data.companies.length / 3);
  });

  it("is a valid import: every record passes the schemas, references a company, and has a unique natural key", () => {
    const { errors, counts } = validateRecords(data);
    expect(errors).toEqual([]);
    for (const kind of IMPORT_KINDS) expect(counts[kind].received).toBe(data[kind].length);
    const companies = tickersOf(data.companies);
    for (const kind of IMPORT_KINDS) {
      for (const r of data[kind] as { ticker: string }[]) expect(companies.has(r.ticker)).toBe(true);
    }
    // Accession numbers use filer ids starting with 9: never a real SEC filer.
    for (const r of [...data.registrations, ...data.offerings]) expect(r.accession_number).toMatch(/^9\d{9}-\d{2}-\d{6}$/);
  });

  it("dates nothing that happens after the anchor date", () => {
    const events = [
      ...data.financial_reports.flatMap((r) => [r.period_end, r.filed_at]),
      ...data.registrations.flatMap((r) => [r.filed_at, r.effective_at ?? r.filed_at]),
      ...data.offerings.map((r) => r.offering_date),
      ...data.dilution_instruments.flatMap((r) => [r.issued_at, r.as_of ?? r.issued_at]),
      ...data.registrations.map((r) => r.atm_remaining_as_of ?? r.filed_at),
      ...data.compliance_deficiencies.flatMap((r) => [r.notice_date, r.resolved_at ?? r.notice_date, ...(r.status_updates ?? []).map((u) => u.date)]),
      ...data.float_snapshots.map((r) => r.as_of),
    ];
    for (const d of events) expect(d <= anchor).toBe(true);
  });

  describe("covers every case several times", () => {
    const shelves = data.registrations.filter((r) => r.form_type === "S-3" || r.form_type === "F-3");

    it("companies without any shelf", () => {
      const withRegistrations = tickersOf(data.registrations);
      expect(data.companies.filter((c) => !withRegistrations.has(c.ticker)).length).toBeGreaterThanOrEqual(SEVERAL);
    });

    it("effective S-3 shelves under the baby-shelf limit and over it", () => {
      const effective = shelves.filter((r) => r.is_effective && r.expires_at! > anchor);
      const baby = effective.filter((r) => !r.over_baby_shelf);
      const over = effective.filter((r) => r.over_baby_shelf);
      expect(tickersOf(baby).size).toBeGreaterThanOrEqual(SEVERAL);
      expect(tickersOf(over).size).toBeGreaterThanOrEqual(SEVERAL);
      for (const r of baby) expect(num(r.public_float_cents)).toBeLessThan(BABY_SHELF_CENTS);
      for (const r of over) expect(num(r.public_float_cents)).toBeGreaterThanOrEqual(BABY_SHELF_CENTS);
    });

    it("ATM programs with capacity left and fully used", () => {
      const atms = data.registrations.filter((r) => r.is_atm);
      const withCapacity = atms.filter((r) => r.is_effective && num(r.atm_remaining_cents) > 0);
      const used = atms.filter((r) => r.atm_remaining_cents === 0);
      expect(tickersOf(withCapacity).size).toBeGreaterThanOrEqual(SEVERAL);
      expect(tickersOf(used).size).toBeGreaterThanOrEqual(SEVERAL);
      for (const r of atms) expect(num(r.atm_remaining_cents)).toBeLessThanOrEqual(num(r.offering_amount_cents));
    });

    it("expired shelves", () => {
      const expired = shelves.filter((r) => r.expires_at !== null && r.expires_at! < anchor);
      expect(tickersOf(expired).size).toBeGreaterThanOrEqual(SEVERAL);
      for (const r of expired) expect(r.is_effective).toBe(false);
      // … including companies whose only shelves have expired
      const onlyExpired = [...tickersOf(shelves)].filter((t) => of(shelves, t).every((r) => !r.is_effective));
      expect(onlyExpired.length).toBeGreaterThanOrEqual(SEVERAL);
    });

    it("S-1 registrations that are not yet effective", () => {
      const pending = data.registrations.filter((r) => r.form_type === "S-1" && r.effective_at === null);
      expect(tickersOf(pending).size).toBeGreaterThanOrEqual(SEVERAL);
      for (const r of pending) expect(r.is_effective).toBe(false);
    });

    it("minimum bid price and stockholders' equity deficiencies, active and resolved, with status updates and every risk level", () => {
      for (const deficiency of ["minimum_bid_price", "stockholders_equity"]) {
        for (const status of ["active", "resolved"] as const) {
          const found = data.compliance_deficiencies.filter((d) => d.deficiency === deficiency && d.status === status);
          expect(found.length, `${deficiency} ${status}`).toBeGreaterThanOrEqual(SEVERAL);
        }
      }
      for (const risk of ["Low", "Medium", "High"] as const) {
        expect(data.compliance_deficiencies.filter((d) => d.risk === risk).length, risk).toBeGreaterThanOrEqual(SEVERAL);
      }
      for (const d of data.compliance_deficiencies) {
        const updates = d.status_updates ?? [];
        expect(updates.length).toBeGreaterThan(0);
        expect(updates.map((u) => u.date)).toEqual(updates.map((u) => u.date).sort());
        for (const u of updates) expect(u.text.length).toBeGreaterThan(10);
        if (d.status === "resolved") expect(d.resolved_at).toBeTruthy();
        else expect(d.resolved_at ?? null).toBeNull();
      }
      // A company whose price is under $1 has a minimum-bid problem to show for it.
      const minBidActive = tickersOf(data.compliance_deficiencies.filter((d) => d.deficiency === "minimum_bid_price" && d.status === "active"));
      for (const t of minBidActive) expect(num(of(data.float_snapshots, t).at(-1)!.price_micros)).toBeLessThan(1_000_000);
    });

    it("cash runways from weeks to years, and companies with zero burn", () => {
      const runways = [...latestReports(data).values()].map(runwayMonths);
      expect(runways).toHaveLength(data.companies.length);
      expect(runways.filter((m) => m < 1).length, "weeks").toBeGreaterThanOrEqual(SEVERAL);
      expect(runways.filter((m) => m >= 1 && m < 6).length, "months").toBeGreaterThanOrEqual(SEVERAL);
      expect(runways.filter((m) => m >= 6 && m < 24).length, "a year or so").toBeGreaterThanOrEqual(SEVERAL);
      expect(runways.filter((m) => m >= 24 && m !== Infinity).length, "years").toBeGreaterThanOrEqual(SEVERAL);
      expect(runways.filter((m) => m === Infinity).length, "zero burn").toBeGreaterThanOrEqual(SEVERAL);
      // Eight quarters each.
      for (const c of data.companies) expect(of(data.financial_reports, c.ticker)).toHaveLength(8);
    });

    it("warrants, convertible notes, convertible preferred and equity lines with prices and dates", () => {
      const byType = (type: string) => data.dilution_instruments.filter((i) => i.instrument_type === type);
      for (const type of ["warrant", "convertible_note", "convertible_preferred", "equity_line"]) {
        expect(tickersOf(byType(type)).size, type).toBeGreaterThanOrEqual(SEVERAL);
      }
      for (const i of data.dilution_instruments.filter((i) => i.instrument_type !== "equity_line")) {
        expect(num(i.exercise_price_micros)).toBeGreaterThan(0);
        expect(i.issued_at <= anchor).toBe(true);
        expect(num(i.shares_underlying)).toBeGreaterThan(0);
      }
      for (const w of byType("warrant").filter((w) => !w.pre_funded)) expect(w.expires_at! > w.issued_at).toBe(true);
      for (const n of [...byType("convertible_note"), ...byType("convertible_preferred")]) {
        if (n.instrument_type === "convertible_note") expect(n.expires_at! > anchor).toBe(true); // maturity ahead
        expect(num(n.remaining_cents)).toBeLessThanOrEqual(num(n.principal_cents));
        expect(n.conversion_price_micros).toBe(n.exercise_price_micros);
        // shares underlying = remaining ÷ conversion price, as stated (then split-adjusted)
        const stated = (big(n.remaining_cents) * 10_000n) / big(n.stated_price_micros ?? n.exercise_price_micros);
        expect(big(n.stated_shares_underlying ?? n.shares_underlying)).toBe(stated);
      }
      // An equity line: the commitment (principal_amount), what is undrawn (remaining_amount), no fixed count or price.
      for (const line of byType("equity_line")) {
        expect(line.shares_underlying).toBeNull();
        expect(line.exercise_price_micros).toBeNull();
        expect(num(line.remaining_cents)).toBeGreaterThan(0);
        expect(num(line.remaining_cents)).toBeLessThan(num(line.principal_cents));
      }
      expect(of(byType("equity_line"), SAMPLE_SHOWCASE.babyShelf)).toHaveLength(1);
    });

    it("instruments in the ledger's terms: as_of, status, pre-funded, split-adjusted figures", () => {
      for (const i of data.dilution_instruments) {
        expect(i.as_of! >= i.issued_at && i.as_of! <= anchor, `${i.ticker} ${i.name}`).toBe(true);
        const expired = i.instrument_type === "warrant" && i.expires_at != null && i.expires_at < anchor;
        expect(i.status).toBe(expired ? "expired" : "outstanding");
        if (i.instrument_type === "warrant") expect(i.pre_funded).toBe(num(i.stated_price_micros ?? i.exercise_price_micros) === 100);
      }
      const expired = data.dilution_instruments.filter((i) => i.status === "expired");
      expect(tickersOf(expired).size).toBeGreaterThanOrEqual(SEVERAL);
      expect(tickersOf(data.dilution_instruments.filter((i) => i.pre_funded)).size).toBeGreaterThanOrEqual(SEVERAL);
      expect(tickersOf(data.dilution_instruments.filter((i) => i.anti_dilution != null)).size).toBeGreaterThanOrEqual(SEVERAL);
      // The parties a filing would name: purchasers of a private issue (or an equity line's counterparty), and the offering's agent.
      const held = data.dilution_instruments.filter((i) => i.holders != null);
      expect(tickersOf(held.filter((i) => i.instrument_type !== "equity_line")).size).toBeGreaterThanOrEqual(SEVERAL);
      for (const i of held) {
        expect(i.registered === false || i.instrument_type === "equity_line", `${i.ticker} ${i.name}`).toBe(true);
        expect(i.holders!.length).toBeGreaterThanOrEqual(1);
        expect(i.holders!.length).toBeLessThanOrEqual(MAX_HOLDERS);
      }
      const placed = data.dilution_instruments.filter((i) => i.placement_agent != null);
      expect(tickersOf(placed).size).toBeGreaterThanOrEqual(SEVERAL);
      for (const i of placed) expect(UNDERWRITERS).toContain(i.placement_agent);

      // Adjusted as lib/data/edgar/ledger.ts adjusts: the count ÷ N rounded half up, the price × N, by the splits since the stated day.
      const adjusted = data.dilution_instruments.filter((i) => i.split_adjustment != null);
      expect(tickersOf(adjusted).size).toBeGreaterThanOrEqual(SEVERAL);
      for (const i of adjusted) {
        const n = Number(/^1-for-(\d+)$/.exec(i.split_adjustment!)![1]);
        const splits = of(data.reverse_splits, i.ticker).filter((s) => s.effective_date > i.as_of! && s.effective_date <= anchor);
        expect(splits.reduce((f, s) => f * Number(s.old_shares), 1) % n).toBe(0);
        expect(num(i.shares_underlying)).toBe(splitAdjustedShares(num(i.stated_shares_underlying), n));
        expect(num(i.exercise_price_micros)).toBe(num(i.stated_price_micros) * n);
      }
      expect(splitAdjustedShares(1000, 10)).toBe(100);
      expect(splitAdjustedShares(1005, 10)).toBe(101); // halves up
      expect(splitAdjustedShares(1004, 10)).toBe(100);
      // Zivotex's two reverse splits (1-for-15, then 1-for-20): a warrant stated before both reads 1-for-300, one between them 1-for-20.
      const zivotex = of(adjusted, SAMPLE_SHOWCASE.highRisk).map((i) => i.split_adjustment);
      expect(zivotex).toContain("1-for-300");
      expect(zivotex).toContain("1-for-20");
      for (const i of data.dilution_instruments.filter((i) => i.split_adjustment == null)) {
        expect(i.stated_shares_underlying ?? null).toBeNull();
        expect(i.stated_price_micros ?? null).toBeNull();
      }
    });

    it("ATM programs with the periodic report that states what is left, and sales to date", () => {
      const atms = data.registrations.filter((r) => r.is_atm);
      for (const r of atms) {
        expect(r.atm_remaining_as_of! >= r.filed_at && r.atm_remaining_as_of! <= anchor).toBe(true);
        if (r.atm_report_accession == null) {
          // no report yet: the program's size as of its prospectus
          expect(r.atm_remaining_as_of).toBe(r.filed_at);
          expect(r.atm_remaining_cents).toBe(r.offering_amount_cents);
        } else {
          expect(num(r.atm_sold_cents) + num(r.atm_remaining_cents)).toBe(num(r.offering_amount_cents));
        }
      }
      expect(tickersOf(atms.filter((r) => r.atm_report_accession != null && num(r.atm_sold_shares) > 0)).size).toBeGreaterThanOrEqual(SEVERAL);
      // the shares sold are the ATM offerings' shares
      const zvtxAtm = of(atms, SAMPLE_SHOWCASE.highRisk).find((r) => r.atm_report_accession != null)!;
      const atmOfferings = of(data.offerings, SAMPLE_SHOWCASE.highRisk).filter((o) => o.offering_type === "atm");
      expect(num(zvtxAtm.atm_sold_shares)).toBe(atmOfferings.reduce((s, o) => s + num(o.shares), 0));
      expect(atmOfferings.every((o) => o.offering_date <= zvtxAtm.atm_remaining_as_of!)).toBe(true);
    });

    it("going-concern doubt in the latest report of distressed companies with less than a year of cash", () => {
      const latest = [...latestReports(data).values()];
      expect(latest.filter((r) => r.going_concern === true).length).toBeGreaterThanOrEqual(SEVERAL);
      expect(latest.filter((r) => r.going_concern === false).length).toBeGreaterThanOrEqual(SEVERAL);
      for (const r of latest) expect(r.going_concern_accession).toMatch(/^9\d{9}-\d{2}-\d{6}$/);
      expect(latestReports(data).get(SAMPLE_SHOWCASE.highRisk)!.going_concern).toBe(true);
      expect(latestReports(data).get(SAMPLE_SHOWCASE.lowRisk)!.going_concern).toBe(false);
    });

    it("offerings of every type, spread over the last three years", () => {
      for (const type of ["public_offering", "registered_direct", "pipe", "atm", "warrant_exercise", "convertible"]) {
        const found = data.offerings.filter((o) => o.offering_type === type);
        expect(tickersOf(found).size, type).toBeGreaterThanOrEqual(SEVERAL);
      }
      for (let year = 0; year < 3; year++) {
        const from = daysBefore(anchor, 365 * (year + 1));
        const to = daysBefore(anchor, 365 * year);
        expect(data.offerings.filter((o) => o.offering_date > from && o.offering_date <= to).length).toBeGreaterThan(100);
      }
      const financings = data.offerings.filter((o) => o.offering_type !== "atm" && o.offering_type !== "warrant_exercise");
      for (const o of financings) expect(o.offering_date >= daysBefore(anchor, 3 * 365)).toBe(true);
      for (const o of data.offerings.filter((o) => o.shares !== null && o.offering_type !== "atm")) {
        expect(big(o.amount_cents)).toBe((big(o.shares) * big(o.price_micros)) / 10_000n);
      }
      expect(data.offerings.some((o) => num(o.warrants_issued) > 0 && num(o.warrant_price_micros) > 0)).toBe(true);
    });

    it("companies on the Reg SHO threshold list", () => {
      const flagged = [...latestReports(data).values()].filter((r) => r.reg_sho);
      expect(flagged.length).toBeGreaterThanOrEqual(SEVERAL);
      expect(flagged.length).toBeLessThan(data.companies.length / 2);
    });

    it("monthly float history with ownership, and market cap = price × outstanding", () => {
      for (const c of data.companies) {
        const snapshots = of(data.float_snapshots, c.ticker);
        expect(snapshots).toHaveLength(12);
        const months = snapshots.map((s) => s.as_of.slice(0, 7));
        expect(new Set(months).size).toBe(12);
        for (let i = 1; i < snapshots.length; i++) {
          expect(num(snapshots[i]!.outstanding_shares)).toBeGreaterThanOrEqual(num(snapshots[i - 1]!.outstanding_shares));
        }
      }
      for (const s of data.float_snapshots) {
        expect(big(s.market_cap_cents)).toBe((big(s.price_micros) * big(s.outstanding_shares)) / 10_000n);
        expect(num(s.float_shares)).toBeLessThanOrEqual(num(s.outstanding_shares));
        expect(s.insider_ownership_bps! + s.institutional_ownership_bps!).toBeLessThanOrEqual(10_000);
        expect(s.insider_ownership_bps).toBeGreaterThanOrEqual(0);
      }
    });
  });

  describe("showcase tickers", () => {
    it("are the first companies of every dataset", () => {
      const showcase = Object.values(SAMPLE_SHOWCASE);
      expect(data.companies.slice(0, showcase.length).map((c) => c.ticker)).toEqual(showcase);
      expect(generateSampleDataset({ seed: 99, tickerCount: 12 }).companies.slice(0, showcase.length).map((c) => c.ticker)).toEqual(showcase);
    });

    it("include tickers with more than 100 records of one kind, exactly as documented", () => {
      for (const [kind, { ticker, count }] of Object.entries(SAMPLE_SHOWCASE_COUNTS)) {
        expect(count).toBeGreaterThan(100);
        expect(of(data[kind as keyof typeof SAMPLE_SHOWCASE_COUNTS] as readonly { ticker: string }[], ticker), `${kind} of ${ticker}`).toHaveLength(count);
      }
      expect(of(data.offerings, SAMPLE_SHOWCASE.manyOfferings)).toHaveLength(150);
      expect(of(data.registrations, SAMPLE_SHOWCASE.manyRegistrations)).toHaveLength(120);
      expect(of(data.dilution_instruments, SAMPLE_SHOWCASE.manyInstruments)).toHaveLength(130);
      expect(of(data.compliance_deficiencies, SAMPLE_SHOWCASE.manyDeficiencies)).toHaveLength(110);
    });

    it("lowRisk is calm: no shelf, offerings, instruments or deficiencies, and no cash burn", () => {
      const t = SAMPLE_SHOWCASE.lowRisk;
      expect(of(data.registrations, t)).toEqual([]);
      expect(of(data.offerings, t)).toEqual([]);
      expect(of(data.dilution_instruments, t)).toEqual([]);
      expect(of(data.compliance_deficiencies, t)).toEqual([]);
      expect(runwayMonths(latestReports(data).get(t)!)).toBe(Infinity);
      expect(of(data.financial_reports, t).every((r) => !r.reg_sho)).toBe(true);
    });

    it("highRisk has weeks of cash, a baby shelf, High active deficiencies, Reg SHO and many offerings", () => {
      const t = SAMPLE_SHOWCASE.highRisk;
      const latest = latestReports(data).get(t)!;
      expect(runwayMonths(latest)).toBeLessThan(1);
      expect(latest.reg_sho).toBe(true);
      expect(of(data.registrations, t).some((r) => r.is_effective && !r.over_baby_shelf && !r.is_atm)).toBe(true);
      const active = of(data.compliance_deficiencies, t).filter((d) => d.status === "active");
      expect(active.map((d) => d.deficiency).sort()).toEqual(["minimum_bid_price", "stockholders_equity"]);
      expect(active.every((d) => d.risk === "High")).toBe(true);
      const twoYearsAgo = daysBefore(anchor, 730);
      expect(of(data.offerings, t).filter((o) => o.offering_date >= twoYearsAgo).length).toBeGreaterThanOrEqual(6);
      expect(of(data.dilution_instruments, t).filter((i) => i.instrument_type === "warrant").length).toBeGreaterThanOrEqual(3);
    });

    it("babyShelf, atmExhausted, pendingS1 and expiredShelf show their case", () => {
      const babyShelf = of(data.registrations, SAMPLE_SHOWCASE.babyShelf);
      expect(babyShelf.some((r) => r.form_type === "S-3" && r.is_effective && !r.over_baby_shelf)).toBe(true);
      expect(babyShelf.some((r) => r.is_atm && r.is_effective && num(r.atm_remaining_cents) > 0)).toBe(true);

      const exhausted = of(data.registrations, SAMPLE_SHOWCASE.atmExhausted);
      expect(exhausted.some((r) => r.form_type === "S-3" && r.is_effective && r.over_baby_shelf)).toBe(true);
      expect(exhausted.some((r) => r.is_atm && r.is_effective && r.atm_remaining_cents === 0)).toBe(true);

      const pending = of(data.registrations, SAMPLE_SHOWCASE.pendingS1);
      expect(pending.map((r) => r.form_type).sort()).toEqual(["S-1", "S-1/A"]);
      expect(pending.every((r) => !r.is_effective && r.effective_at === null)).toBe(true);

      const expired = of(data.registrations, SAMPLE_SHOWCASE.expiredShelf);
      expect(expired.length).toBeGreaterThan(0);
      expect(expired.every((r) => !r.is_effective && r.expires_at! < anchor)).toBe(true);
    });
  });

  it("follows the anchor date", () => {
    const early = generateSampleDataset({ tickerCount: 30, anchorDate: "2025-01-15" });
    expect(early.companies.map((c) => c.ticker)).toEqual(generateSampleDataset({ tickerCount: 30 }).companies.map((c) => c.ticker));
    for (const o of early.offerings) expect(o.offering_date <= "2025-01-15").toBe(true);
    for (const s of early.float_snapshots) expect(s.as_of <= "2025-01-15").toBe(true);
    expect(() => generateSampleDataset({ anchorDate: "2025-02-30" })).toThrow(/calendar date/);
  });

  // How fast is a benchmark's question (docs/benchmarks.md), not a test's: on a loaded 2-core machine a timed test fails for the load alone.
  it("generates 10,000 distinct tickers with a year of monthly float snapshots each", () => {
    const big10k = generateSampleDataset({ tickerCount: 10_000 });
    expect(big10k.companies).toHaveLength(10_000);
    expect(new Set(big10k.companies.map((c) => c.ticker)).size).toBe(10_000);
    expect(big10k.float_snapshots).toHaveLength(120_000);
  }, 60_000);
});
