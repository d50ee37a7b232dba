/**
 * One sample company built from its plan: its price path and share count,
 * shelves and ATM programs, financings, warrants and convertibles, listing
 * deficiencies, float snapshots and financial reports, appended to the
 * dataset in the import format.
 */
import { BABY_SHELF_PUBLIC_FLOAT_LIMIT_CENTS, SHELF_LIFE_YEARS } from "@/lib/ratings/thresholds";
import { adjustShares } from "@/lib/utils/splits";
import type {
  CompanyRecord,
  ComplianceDeficiencyRecord,
  Dataset,
  DilutionInstrumentRecord,
  FinancialReportRecord,
  FloatSnapshotRecord,
  OfferingRecord,
  OfferingType,
  RegistrationRecord,
  ReverseSplitRecord,
  RiskLevel,
  StatusUpdate,
} from "../import/schema";
import { DOLLAR, MILLION, mulDiv, roundTo, toMicros } from "./amounts";
import { addYearsToDay, dayOf, iso, monthEnd, monthLabel, monthOf, monthsBefore, yearOf } from "./days";
import { randomName, SAMPLE_SHOWCASE, UNDERWRITERS, type AtmCase, type CompanyPlan } from "./plans";
import { mix, Rng } from "./rng";

const OFFERING_LABELS: Record<OfferingType, string> = {
  public_offering: "Public Offering",
  registered_direct: "Registered Direct",
  pipe: "PIPE",
  atm: "ATM",
  warrant_exercise: "Warrant Exercise",
  convertible: "Convertible",
  best_efforts: "Best-Efforts Offering",
  ipo: "Initial Public Offering",
  rights: "Rights Offering",
};

const WINDOW_DAYS = 3 * 365; // offerings: the last three years
const HISTORY_MONTHS = 36;

interface Warrant {
  record: DilutionInstrumentRecord;
  price: number; // micros
  issued: number; // day
  outstanding: number;
  /** The count it was issued for. */
  initial: number;
  /** The day of the latest exercise, when holders exercised some. */
  lastExercise: number | null;
}

/** An ATM program and the sales through it: [day, cents]. */
interface AtmProgram {
  record: RegistrationRecord;
  sales: [number, number][];
  /** Shares sold through it (the ATM offerings' shares). */
  soldShares: number;
  /** The day sales stopped (the latest reported quarter's end, or the shelf's expiry); null when no report covers the program yet. */
  salesEnd: number | null;
}

/** Fictional purchasers of the sample's equity lines. */
const EQUITY_LINE_PURCHASERS = ["Meridian Lane Capital Fund", "Tidewater Opportunity Partners", "Halcyon Ridge Investors"];
/** Fictional purchasers an 8-K of a private placement names (its warrants' and notes' holders). */
const PRIVATE_PLACEMENT_PURCHASERS = [
  "Eastbrook Opportunity Master Fund Ltd.",
  "Corvid Point Capital LP",
  "Silver Fen Healthcare Partners, L.P.",
  "Marlowe Street Special Situations Fund",
  "Juniper Hollow Investors LLC",
];

/** The baby-shelf limit of the ratings (lib/ratings/thresholds.ts), in the sample's number cents. */
const BABY_SHELF_LIMIT_CENTS = Number(BABY_SHELF_PUBLIC_FLOAT_LIMIT_CENTS);

export class CompanyBuilder {
  private readonly prices: number[]; // dollars, index 0 = 36 months ago, 36 = anchor month
  private readonly sharesTarget: number;
  /** Shares outstanding three years ago; provisional until all offerings exist. */
  private baseShares: number;
  private readonly cik: string;
  private sequence = 0;
  private readonly registrations: RegistrationRecord[] = [];
  private readonly offerings: OfferingRecord[] = [];
  /** Share-count changes: [day, shares]. */
  private readonly issued: [number, number][] = [];
  private readonly warrants: Warrant[] = [];
  private readonly instruments: DilutionInstrumentRecord[] = [];
  private readonly instrumentNames = new Set<string>();
  /** The underwriter or placement agent of the offering each instrument was issued in. */
  private readonly agentOf = new Map<DilutionInstrumentRecord, string>();
  private readonly deficiencies: ComplianceDeficiencyRecord[] = [];
  private readonly atmPrograms: AtmProgram[] = [];
  private readonly splits: ReverseSplitRecord[] = [];
  /** The periodic report of each quarter end: its accession, made when first cited. */
  private readonly reportAccessions = new Map<number, string>();
  private minBidNotice: number | null = null;

  constructor(
    private readonly rng: Rng,
    private readonly anchor: number,
    private readonly index: number,
    private readonly ticker: string,
    private readonly plan: CompanyPlan,
    private readonly out: Dataset,
  ) {
    this.cik = String(9_000_000_000 + index);
    if (plan.minBid === "active") this.minBidNotice = anchor - (plan.minBidNoticeDaysAgo ?? rng.int(15, 330));
    this.prices = this.pricePath();
    this.sharesTarget = Math.max(1_000_000, Math.round(plan.marketCapCents / (plan.priceNow * DOLLAR)));
    this.baseShares = roundTo(this.sharesTarget * 0.6, 1000);
  }

  build(): void {
    const { plan } = this;
    const company: CompanyRecord = {
      ticker: this.ticker,
      name: `${plan.name ?? randomName(this.rng, plan.sector)} (Sample)`,
      exchange: plan.exchange,
      sector: plan.sector,
      is_sample: true,
    };
    this.out.companies.push(company);

    this.shelves();
    this.financings();
    this.exercises();
    this.convertiblePreferred();
    if (plan.bulk?.registrations) this.bulkRegistrations(plan.bulk.registrations);
    if (plan.bulk?.instruments) this.bulkInstruments(plan.bulk.instruments);
    this.deficiencyHistory();
    if (plan.bulk?.deficiencies) this.bulkDeficiencies(plan.bulk.deficiencies);
    for (const split of plan.reverseSplits ?? []) {
      this.addSplit({ ticker: this.ticker, effective_date: iso(this.anchor - split.daysAgo), old_shares: split.factor, new_shares: 1 });
    }

    this.issued.sort((a, b) => a[0] - b[0]);
    // Shares outstanding today ≈ the target (so market cap ≈ plan), at least 15 %
    // of them older than the offerings; then the public float of each filing.
    const issuedTotal = this.issued.reduce((s, [, n]) => s + n, 0);
    this.baseShares = roundTo(Math.max(this.sharesTarget * 0.15, this.sharesTarget - issuedTotal), 1000);
    for (const r of this.registrations) {
      const publicFloat = this.publicFloatCents(dayOf(r.filed_at));
      r.public_float_cents = publicFloat;
      r.over_baby_shelf = publicFloat >= BABY_SHELF_LIMIT_CENTS;
    }
    this.offerings.sort((a, b) => (a.offering_date < b.offering_date ? -1 : a.offering_date > b.offering_date ? 1 : 0));
    for (const w of this.warrants) w.record.shares_underlying = w.outstanding;

    this.out.registrations.push(...this.registrations);
    this.out.offerings.push(...this.offerings);
    this.out.dilution_instruments.push(...this.instruments);
    this.out.compliance_deficiencies.push(...this.deficiencies);
    this.floatSnapshots();
    this.financialReports();
    this.ledger();
  }

  // ── prices and shares ──

  private pricePath(): number[] {
    const { plan, rng } = this;
    const prices = new Array<number>(HISTORY_MONTHS + 1);
    prices[HISTORY_MONTHS] = plan.priceNow;
    for (let m = HISTORY_MONTHS; m > 0; m--) {
      const step = plan.drift + plan.volatility * rng.normal();
      prices[m - 1] = Math.min(2000, Math.max(0.05, prices[m]! / Math.exp(step)));
    }
    if (this.minBidNotice !== null) {
      // Below $1 since the month before the notice.
      const from = HISTORY_MONTHS - monthsBefore(this.minBidNotice, this.anchor) - 1;
      for (let m = Math.max(0, from); m <= HISTORY_MONTHS; m++) prices[m] = Math.min(prices[m]!, rng.float(0.2, 0.97));
      prices[HISTORY_MONTHS] = plan.priceNow;
    }
    return prices;
  }

  private priceAt(day: number): number {
    const m = HISTORY_MONTHS - monthsBefore(day, this.anchor);
    return this.prices[Math.min(HISTORY_MONTHS, Math.max(0, m))]!;
  }

  private sharesAt(day: number): number {
    let shares = this.baseShares;
    for (const [d, n] of this.issued) if (d <= day) shares += n;
    return shares;
  }

  private floatAt(day: number): number {
    return Math.floor((this.sharesAt(day) * (10_000 - this.plan.insiderBps)) / 10_000);
  }

  /** Market value of the public float on a day, cents. */
  private publicFloatCents(day: number): number {
    return mulDiv(this.floatAt(day), toMicros(this.priceAt(day)), 10_000);
  }

  private accession(day: number): string {
    this.sequence += 1;
    const yy = String(yearOf(day) % 100).padStart(2, "0");
    return `${this.cik}-${yy}-${String(this.sequence).padStart(6, "0")}`;
  }

  private fileNumber(): string {
    return `333-${String(200_000 + ((this.index * 37 + this.sequence * 7919) % 800_000)).padStart(6, "0")}`;
  }

  // ── registrations and ATM programs ──

  /** Files the shelves of the plan and their ATM programs, with the programs' planned sales (not yet priced). */
  private shelves(): void {
    const { plan, rng, anchor } = this;
    const shelfForm = plan.foreign ? "F-3" : "S-3";

    const fileShelf = (filed: number, effective: number | null): RegistrationRecord => {
      const expires = effective === null ? null : addYearsToDay(effective, SHELF_LIFE_YEARS);
      const publicFloat = this.publicFloatCents(filed);
      const over = publicFloat >= BABY_SHELF_LIMIT_CENTS;
      const amount = over
        ? roundTo(rng.logUniform(100, 750) * MILLION, 5 * MILLION)
        : rng.pick([50, 75, 100, 150]) * MILLION;
      const record: RegistrationRecord = {
        ticker: this.ticker,
        accession_number: this.accession(filed),
        form_type: shelfForm,
        file_number: this.fileNumber(),
        filed_at: iso(filed),
        effective_at: effective === null ? null : iso(effective),
        expires_at: expires === null ? null : iso(expires),
        offering_amount_cents: amount,
        is_atm: false,
        atm_remaining_cents: null,
        over_baby_shelf: over,
        public_float_cents: publicFloat,
        is_effective: effective !== null && effective <= anchor && (expires === null || expires > anchor),
      };
      this.registrations.push(record);
      return record;
    };

    const fileAtm = (shelf: RegistrationRecord, case_: AtmCase) => {
      const shelfEffective = dayOf(shelf.effective_at!);
      const shelfExpires = dayOf(shelf.expires_at!);
      // Filed at least a month before the latest quarter a periodic report covers, so that report states its sales.
      const reported = this.latestReportedQuarter();
      const lastDay = Math.min(reported - 30, shelfExpires - 60);
      const filed = lastDay > shelfEffective ? rng.int(shelfEffective, lastDay) : shelfEffective;
      const publicFloat = Number(shelf.public_float_cents);
      const amount = shelf.over_baby_shelf
        ? roundTo(rng.logUniform(25, 250) * MILLION, MILLION)
        : Math.max(DOLLAR * 100_000, Math.min(roundTo(rng.logUniform(3, 15) * MILLION, 100_000 * DOLLAR), roundTo(publicFloat / 3 - 50_000 * DOLLAR, 100_000 * DOLLAR)));
      let remaining = case_ === "exhausted" ? 0 : Math.round(amount * rng.float(0.15, 0.9));
      // Sales through the program: roughly quarterly, until it expired or the latest reported quarter's end.
      const salesEnd = Math.min(reported, shelfExpires - 1);
      if (filed >= salesEnd) remaining = amount; // no report covers it yet: its size as of its prospectus
      const record: RegistrationRecord = {
        ticker: this.ticker,
        accession_number: this.accession(filed),
        form_type: "424B5",
        file_number: shelf.file_number,
        filed_at: iso(filed),
        effective_at: iso(filed),
        expires_at: shelf.expires_at,
        offering_amount_cents: amount,
        is_atm: true,
        atm_remaining_cents: remaining,
        over_baby_shelf: shelf.over_baby_shelf,
        public_float_cents: shelf.public_float_cents,
        is_effective: shelf.is_effective,
      };
      this.registrations.push(record);
      const program: AtmProgram = { record, sales: [], soldShares: 0, salesEnd: filed >= salesEnd ? null : salesEnd };
      this.atmPrograms.push(program);
      const count = Math.max(1, Math.min(8, Math.floor((salesEnd - filed) / 91)));
      const used = amount - remaining;
      if (used <= 0) return;
      const weights = Array.from({ length: count }, () => rng.float(0.3, 1));
      const total = weights.reduce((s, w) => s + w, 0);
      let left = used;
      weights.forEach((w, i) => {
        const part = i === count - 1 ? left : Math.floor((used * w) / total);
        left -= part;
        const day = filed + Math.floor(((salesEnd - filed) * (i + rng.float(0.2, 1))) / count);
        program.sales.push([day, part]);
      });
    };

    const hasShelf = plan.shelf === "baby" || plan.shelf === "large";
    if ((plan.priorExpiredShelf && hasShelf) || plan.shelf === "expired") {
      const effective = addYearsToDay(anchor, -SHELF_LIFE_YEARS) - rng.int(15, 700);
      const old = fileShelf(effective - rng.int(10, 45), effective);
      if (plan.shelf === "expired" && plan.atm !== "none") fileAtm(old, plan.atm);
    }
    if (hasShelf) {
      const filed = anchor - rng.int(60, 900);
      const shelf = fileShelf(filed, filed + rng.int(10, 45));
      if (plan.atm !== "none") fileAtm(shelf, plan.atm);
    }
    if (plan.shelf === "pending_s1") {
      const filed = anchor - rng.int(20, 120);
      const accession = this.accession(filed);
      const fileNumber = this.fileNumber();
      const amount = roundTo(rng.logUniform(5, 40) * MILLION, 100_000 * DOLLAR);
      const s1 = (form: string, day: number, acc: string): RegistrationRecord => ({
        ticker: this.ticker,
        accession_number: acc,
        form_type: form,
        file_number: fileNumber,
        filed_at: iso(day),
        effective_at: null,
        expires_at: null,
        offering_amount_cents: amount,
        is_atm: false,
        atm_remaining_cents: null,
        over_baby_shelf: false,
        public_float_cents: this.publicFloatCents(day),
        is_effective: false,
      });
      this.registrations.push(s1("S-1", filed, accession));
      if (rng.chance(0.5) || this.ticker === SAMPLE_SHOWCASE.pendingS1) {
        const amended = Math.min(anchor - 1, filed + rng.int(10, 40));
        this.registrations.push(s1("S-1/A", amended, this.accession(amended)));
      }
    }
  }

  // ── offerings ──

  private financings(): void {
    const { plan, rng, anchor } = this;
    for (const program of this.atmPrograms) {
      for (const [day, cents] of program.sales) program.soldShares += Number(this.offer("atm", day, { amountCents: cents }).shares);
    }

    let count = plan.financings;
    if (plan.bulk?.offerings) count = plan.bulk.offerings - this.offerings.length;
    const hasShelf = plan.shelf === "baby" || plan.shelf === "large";
    const types: [OfferingType, number][] =
      plan.tier === "calm"
        ? [
            ["public_offering", 70],
            ["convertible", 30],
          ]
        : plan.tier === "growth"
          ? [
              ["public_offering", 45],
              ["registered_direct", hasShelf ? 20 : 0],
              ["pipe", 15],
              ["convertible", 20],
            ]
          : [
              ["public_offering", 25],
              ["registered_direct", hasShelf ? 30 : 0],
              ["pipe", 25],
              ["convertible", 15],
            ];
    const days = Array.from({ length: count }, () => anchor - rng.int(1, WINDOW_DAYS)).sort((a, b) => a - b);
    for (const day of days) this.offer(rng.weighted(types), day, {});
  }

  private offer(type: OfferingType, day: number, opts: { amountCents?: number; shares?: number; priceMicros?: number }): OfferingRecord {
    const { plan, rng } = this;
    const market = this.priceAt(day);
    let shares: number | null;
    let price: number;
    let amount: number;
    if (type === "atm") {
      price = toMicros(market * rng.float(0.92, 1.02));
      amount = opts.amountCents!;
      shares = Math.max(1, Math.round((amount * 10_000) / price));
    } else if (type === "warrant_exercise") {
      price = opts.priceMicros!;
      shares = opts.shares!;
      amount = mulDiv(shares, price, 10_000);
    } else {
      const fraction = rng.float(plan.raiseFraction[0], plan.raiseFraction[1]);
      const raise = fraction * this.sharesTarget * market * DOLLAR; // cents
      if (type === "convertible") {
        price = toMicros(market * rng.float(1.0, 1.3)); // conversion price
        amount = roundTo(raise, 100_000 * DOLLAR);
        shares = null;
      } else {
        const discount = type === "public_offering" ? rng.float(0.7, 0.95) : rng.float(0.75, 1.0);
        price = toMicros(market * discount);
        shares = roundTo((raise * 10_000) / price, 100);
        amount = mulDiv(shares, price, 10_000);
      }
    }
    const form =
      type === "public_offering"
        ? plan.shelf === "baby" || plan.shelf === "large"
          ? "424B5"
          : "424B4"
        : type === "registered_direct" || type === "atm"
          ? "424B5"
          : type === "warrant_exercise"
            ? rng.pick(["10-Q", "8-K"])
            : "8-K";
    const record: OfferingRecord = {
      ticker: this.ticker,
      accession_number: this.accession(day),
      offering_date: iso(day),
      offering_type: type,
      form_type: form,
      shares,
      price_micros: price,
      amount_cents: amount,
      warrants_issued: null,
      warrant_price_micros: null,
      underwriter: type === "warrant_exercise" ? null : type === "pipe" && rng.chance(0.3) ? null : rng.pick(UNDERWRITERS),
    };
    this.offerings.push(record);
    if (shares !== null) this.issued.push([day, shares]);

    const label = OFFERING_LABELS[type];
    if (shares !== null && (type === "public_offering" || type === "registered_direct" || type === "pipe") && rng.chance(plan.withWarrants)) {
      const warrants = roundTo(shares * rng.float(0.5, 1.0), 100);
      const warrantPrice = toMicros((price / 1e6) * rng.float(1.0, 1.25));
      record.warrants_issued = warrants;
      record.warrant_price_micros = warrantPrice;
      this.addWarrant(`${monthLabel(day)} ${label} Warrants`, day, warrants, warrantPrice, addYearsToDay(day, 5), type, record.underwriter);
      if (type !== "public_offering" && rng.chance(0.25)) {
        const prefunded = roundTo(shares * rng.float(0.1, 0.4), 100);
        this.addWarrant(`${monthLabel(day)} Pre-Funded Warrants`, day, prefunded, 100, null, type, record.underwriter);
      }
    }
    if (type === "convertible") this.addNote(day, amount, price, record.underwriter ?? null);
    return record;
  }

  private addSplit(split: ReverseSplitRecord): void {
    this.splits.push(split);
    this.out.reverse_splits.push(split);
  }

  private uniqueName(type: string, name: string): string {
    let candidate = name;
    for (let n = 2; this.instrumentNames.has(`${type}\u0000${candidate}`); n++) candidate = `${name} (${n})`;
    this.instrumentNames.add(`${type}\u0000${candidate}`);
    return candidate;
  }

  /** A warrant an offering sold: registered when a prospectus sold it (public offering, registered direct), not when a PIPE did. */
  private addWarrant(name: string, issued: number, shares: number, priceMicros: number, expires: number | null, soldIn: OfferingType, agent: string | null = null): void {
    const record: DilutionInstrumentRecord = {
      ticker: this.ticker,
      instrument_type: "warrant",
      name: this.uniqueName("warrant", name),
      issued_at: iso(issued),
      expires_at: expires === null ? null : iso(expires),
      shares_underlying: shares,
      exercise_price_micros: priceMicros,
      principal_cents: null,
      remaining_cents: null,
      registered: soldIn !== "pipe",
      pre_funded: priceMicros <= PRE_FUNDED_PRICE_MICROS,
    };
    this.instruments.push(record);
    if (agent) this.agentOf.set(record, agent);
    this.warrants.push({ record, price: priceMicros, issued, outstanding: shares, initial: shares, lastExercise: null });
  }

  private addNote(issued: number, principal: number, conversionMicros: number, agent: string | null): void {
    const { rng, anchor } = this;
    let maturity = addYearsToDay(issued, rng.int(2, 4));
    while (maturity <= anchor) maturity = addYearsToDay(maturity, 1);
    const remaining = rng.chance(0.4) ? principal : Math.round(principal * rng.float(0.3, 0.9));
    const rate = rng.pick(["4.0%", "6.5%", "8.0%", "10.0%", "12.0%"]);
    this.instruments.push({
      ticker: this.ticker,
      instrument_type: "convertible_note",
      name: this.uniqueName("convertible_note", `${rate} Senior Convertible Notes due ${yearOf(maturity)}`),
      issued_at: iso(issued),
      expires_at: iso(maturity),
      shares_underlying: mulDiv(remaining, 10_000, conversionMicros),
      exercise_price_micros: conversionMicros,
      conversion_price_micros: conversionMicros,
      principal_cents: principal,
      remaining_cents: remaining,
      registered: false, // sold privately, announced by an 8-K
    });
    if (agent) this.agentOf.set(this.instruments.at(-1)!, agent);
  }

  /** Holders exercise some in-the-money warrants (not the pre-funded ones, for simplicity). */
  private exercises(): void {
    const { plan, rng, anchor } = this;
    if (!plan.warrantExercises) return;
    for (const w of [...this.warrants]) {
      if (w.price <= 100) continue;
      const day = w.issued + rng.int(30, 400);
      if (day >= anchor || toMicros(this.priceAt(day)) <= w.price || !rng.chance(0.6)) continue;
      const shares = roundTo(w.outstanding * rng.float(0.1, 0.6), 100);
      if (shares >= w.outstanding) continue;
      w.outstanding -= shares;
      w.lastExercise = day;
      this.offer("warrant_exercise", day, { shares, priceMicros: w.price });
    }
  }

  private convertiblePreferred(): void {
    const { plan, rng, anchor } = this;
    for (let i = 0; i < plan.convertiblePreferred; i++) {
      const day = anchor - rng.int(30, WINDOW_DAYS);
      const stated = roundTo(plan.marketCapCents * rng.float(0.05, 0.2), 10_000 * DOLLAR);
      const conversion = toMicros(this.priceAt(day) * rng.float(0.9, 1.2));
      const remaining = Math.round(stated * rng.float(0.3, 1));
      this.instruments.push({
        ticker: this.ticker,
        instrument_type: "convertible_preferred",
        name: this.uniqueName("convertible_preferred", `Series ${"ABCDEFGH"[i]} Convertible Preferred Stock`),
        issued_at: iso(day),
        expires_at: null,
        shares_underlying: mulDiv(remaining, 10_000, conversion),
        exercise_price_micros: conversion,
        conversion_price_micros: conversion,
        principal_cents: stated,
        remaining_cents: remaining,
      });
    }
  }

  // ── bulk showcases ──

  /** Older filing history (S-3s, amendments, S-8s, ATM supplements) up to `total`. */
  private bulkRegistrations(total: number): void {
    const { rng, anchor } = this;
    const extra = total - this.registrations.length;
    const forms = ["S-3", "S-3/A", "424B5", "S-8", "S-1", "S-1/A", "POS AM", "S-8"];
    for (let i = 0; i < extra; i++) {
      const filed = anchor - 90 - Math.floor(((extra - i) * (8 * 365)) / extra) + rng.int(0, 10);
      const form = forms[i % forms.length]!;
      const shelfLike = form === "S-3" || form === "424B5";
      const effective = form.endsWith("/A") ? null : form === "S-8" || form === "424B5" ? filed : Math.min(anchor, filed + rng.int(10, 40));
      const expires = shelfLike && effective !== null ? addYearsToDay(effective, SHELF_LIFE_YEARS) : null;
      const amount = form === "S-8" ? roundTo(rng.logUniform(1, 20) * MILLION, 100_000 * DOLLAR) : roundTo(rng.logUniform(20, 300) * MILLION, MILLION);
      const isAtm = form === "424B5";
      this.registrations.push({
        ticker: this.ticker,
        accession_number: this.accession(filed),
        form_type: form,
        file_number: this.fileNumber(),
        filed_at: iso(filed),
        effective_at: effective === null ? null : iso(effective),
        expires_at: expires === null ? null : iso(expires),
        offering_amount_cents: amount,
        is_atm: isAtm,
        atm_remaining_cents: isAtm ? (expires !== null && expires > anchor ? Math.round(amount * rng.float(0, 0.8)) : 0) : null,
        over_baby_shelf: true,
        public_float_cents: this.publicFloatCents(filed),
        is_effective:
          effective !== null &&
          (expires !== null ? expires > anchor : form === "S-8" || (form === "S-1" && anchor - effective < 270)),
      });
    }
  }

  /** Many warrant series and note tranches up to `total`. */
  private bulkInstruments(total: number): void {
    const { rng, anchor } = this;
    const extra = total - this.instruments.length;
    for (let i = 0; i < extra; i++) {
      const issued = anchor - 30 - Math.floor(((extra - i) * (5 * 365)) / extra);
      const price = this.priceAt(issued);
      if (i % 5 === 4) {
        const principal = roundTo(rng.logUniform(0.25, 2) * MILLION, 10_000 * DOLLAR);
        const conversion = toMicros(price * rng.float(0.8, 1.1));
        const remaining = Math.round(principal * rng.float(0.2, 1));
        this.instruments.push({
          ticker: this.ticker,
          instrument_type: "convertible_note",
          name: this.uniqueName("convertible_note", `Tranche ${i + 1} Convertible Note`),
          issued_at: iso(issued),
          expires_at: iso(Math.max(addYearsToDay(issued, 1), anchor + rng.int(30, 700))),
          shares_underlying: mulDiv(remaining, 10_000, conversion),
          exercise_price_micros: conversion,
          conversion_price_micros: conversion,
          principal_cents: principal,
          remaining_cents: remaining,
          registered: false,
        });
      } else {
        const shares = roundTo(rng.logUniform(50_000, 2_000_000), 100);
        this.instruments.push({
          ticker: this.ticker,
          instrument_type: "warrant",
          name: this.uniqueName("warrant", `Series ${i + 1} Warrants`),
          issued_at: iso(issued),
          expires_at: iso(addYearsToDay(issued, 5)),
          shares_underlying: shares,
          exercise_price_micros: toMicros(price * rng.float(0.9, 1.5)),
          principal_cents: null,
          remaining_cents: null,
          registered: true,
          pre_funded: false,
        });
      }
    }
  }

  /** Ten years of notices, nearly all resolved, up to `total`. */
  private bulkDeficiencies(total: number): void {
    const { rng, anchor } = this;
    const extra = total - this.deficiencies.length;
    const kinds = ["minimum_bid_price", "stockholders_equity", "periodic_filing", "market_value_of_listed_securities", "audit_committee", ""];
    const taken = new Set(this.deficiencies.map((d) => `${d.deficiency}|${d.notice_date}`));
    for (let i = 0; i < extra; i++) {
      const kind = kinds[i % kinds.length]!;
      let notice = anchor - 400 - Math.floor(((extra - i) * (10 * 365)) / extra);
      while (taken.has(`${kind}|${iso(notice)}`)) notice -= 1;
      taken.add(`${kind}|${iso(notice)}`);
      const deadline = notice + 180;
      const resolved = notice + rng.int(20, 170);
      this.deficiencies.push({
        ticker: this.ticker,
        deficiency: kind,
        status: "resolved",
        risk: "Low",
        notice_date: iso(notice),
        deadline: iso(deadline),
        resolved_at: iso(resolved),
        status_updates: [
          { date: iso(notice), text: noticeText(kind, this.plan.exchange, deadline) },
          { date: iso(resolved), text: "The exchange confirmed the company regained compliance; the matter is closed." },
        ],
      });
    }
  }

  // ── compliance ──

  private deficiencyHistory(): void {
    const { plan, rng, anchor } = this;
    const exchange = plan.exchange;
    const push = (
      deficiency: string,
      status: "active" | "resolved",
      risk: RiskLevel,
      notice: number,
      deadline: number | null,
      resolved: number | null,
      updates: StatusUpdate[],
    ) =>
      this.deficiencies.push({
        ticker: this.ticker,
        deficiency,
        status,
        risk,
        notice_date: iso(notice),
        deadline: deadline === null ? null : iso(deadline),
        resolved_at: resolved === null ? null : iso(resolved),
        status_updates: updates.filter((u) => u.date <= iso(anchor)).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)),
      });

    if (plan.minBid === "active") {
      const notice = this.minBidNotice!;
      let deadline = notice + 180;
      const updates: StatusUpdate[] = [{ date: iso(notice), text: noticeText("minimum_bid_price", exchange, deadline) }];
      let risk: RiskLevel = anchor - notice > 120 ? "High" : "Medium";
      if (deadline <= anchor) {
        const second = deadline + 180;
        updates.push({
          date: iso(deadline + 1),
          text: `Granted an additional 180-day compliance period, until ${iso(second)}; the company intends to effect a reverse stock split if necessary.`,
        });
        deadline = second;
        risk = "High";
        if (deadline - anchor < 60) updates.push({ date: iso(anchor - 5), text: "Shareholders approved a reverse stock split of up to 1-for-25 at a special meeting." });
      }
      push("minimum_bid_price", "active", risk, notice, deadline, null, updates);
    } else if (plan.minBid === "resolved") {
      const notice = anchor - rng.int(220, 1000);
      const resolved = notice + rng.int(40, 200);
      const split = rng.chance(0.5);
      const updates: StatusUpdate[] = [{ date: iso(notice), text: noticeText("minimum_bid_price", exchange, notice + 180) }];
      if (split) {
        const factor = rng.pick([5, 10, 15, 20, 25]);
        updates.push({ date: iso(resolved - 12), text: `Effected a 1-for-${factor} reverse stock split.` });
        this.addSplit({ ticker: this.ticker, effective_date: iso(resolved - 12), old_shares: factor, new_shares: 1 });
      }
      updates.push({ date: iso(resolved), text: "Regained compliance: the closing bid price was at or above $1.00 for 10 consecutive business days." });
      push("minimum_bid_price", "resolved", "Low", notice, notice + 180, resolved, updates);
    }

    if (plan.equity === "active") {
      const notice = anchor - (plan.equityNoticeDaysAgo ?? rng.int(20, 250));
      const deadline = notice + 180;
      const updates: StatusUpdate[] = [{ date: iso(notice), text: noticeText("stockholders_equity", exchange, deadline) }];
      let risk: RiskLevel = "High";
      if (anchor - notice > 45) {
        updates.push({ date: iso(notice + 45), text: "Submitted a plan to regain compliance with the stockholders' equity requirement." });
        if (anchor - notice > 75) {
          updates.push({ date: iso(notice + 75), text: `The exchange accepted the plan and granted an extension until ${iso(deadline)}.` });
          risk = deadline - anchor > 60 ? "Medium" : "High";
        }
      }
      push("stockholders_equity", "active", risk, notice, deadline, null, updates);
    } else if (plan.equity === "resolved") {
      const notice = anchor - rng.int(200, 1000);
      const resolved = notice + rng.int(60, 180);
      push("stockholders_equity", "resolved", "Low", notice, notice + 180, resolved, [
        { date: iso(notice), text: noticeText("stockholders_equity", exchange, notice + 180) },
        { date: iso(notice + 45), text: "Submitted a plan to regain compliance with the stockholders' equity requirement." },
        { date: iso(resolved), text: "Regained compliance after an equity financing; the exchange closed the matter." },
      ]);
    }

    if (plan.otherDeficiency !== "none") {
      const kind = rng.pick(["periodic_filing", "market_value_of_listed_securities", "audit_committee", ""]);
      if (plan.otherDeficiency === "active") {
        const notice = anchor - rng.int(10, 150);
        push(kind, "active", kind === "periodic_filing" ? "High" : "Medium", notice, notice + 180, null, [
          { date: iso(notice), text: noticeText(kind, exchange, notice + 180) },
        ]);
      } else {
        const notice = anchor - rng.int(150, 1000);
        const resolved = notice + rng.int(15, 140);
        push(kind, "resolved", "Low", notice, notice + 180, resolved, [
          { date: iso(notice), text: noticeText(kind, exchange, notice + 180) },
          { date: iso(resolved), text: "The exchange confirmed the company regained compliance; the matter is closed." },
        ]);
      }
    }
  }

  // ── float and financials ──

  private floatSnapshots(): void {
    const { plan, rng, anchor } = this;
    let insider = plan.insiderBps;
    let institutional = plan.institutionalBps;
    for (let offset = -12; offset <= -1; offset++) {
      const day = monthEnd(anchor, offset);
      insider = Math.max(0, Math.min(9000, insider + rng.int(-40, 30)));
      institutional = Math.max(0, Math.min(9800 - insider, institutional + rng.int(-120, 120)));
      const outstanding = this.sharesAt(day);
      const float = Math.floor((outstanding * (10_000 - insider)) / 10_000);
      const price = toMicros(this.priceAt(day));
      const snapshot: FloatSnapshotRecord = {
        ticker: this.ticker,
        as_of: iso(day),
        float_shares: float,
        outstanding_shares: outstanding,
        price_micros: price,
        market_cap_cents: mulDiv(price, outstanding, 10_000),
        insider_ownership_bps: insider,
        institutional_ownership_bps: institutional,
      };
      this.out.float_snapshots.push(snapshot);
    }
  }

  private financialReports(): void {
    const { plan, rng } = this;
    const latest = this.latestReportedQuarter();
    const periods = Array.from({ length: 8 }, (_, i) => monthEnd(latest, -3 * (7 - i)));

    const raisedNet = (from: number, to: number) => {
      const [a, b] = [iso(from), iso(to)];
      let sum = 0;
      for (const o of this.offerings) {
        if (o.offering_date > a && o.offering_date <= b) sum += Number(o.amount_cents);
      }
      return Math.round(sum * 0.93);
    };
    const notes = this.instruments.filter((i) => i.instrument_type === "convertible_note");
    const debtAt = (day: number) =>
      plan.plainDebtCents + notes.filter((n) => n.issued_at <= iso(day)).reduce((s, n) => s + Number(n.remaining_cents ?? 0), 0);

    const burns = periods.map(() => (plan.runwayMonths === null ? 0 : roundTo(plan.burnCents * rng.float(0.85, 1.15), 1000)));
    const cash = new Array<number>(8);
    cash[7] =
      plan.runwayMonths === null
        ? roundTo(plan.marketCapCents * rng.float(0.05, 0.2), 1000)
        : Math.round((plan.runwayMonths * burns[7]!) / 3);
    for (let i = 7; i > 0; i--) {
      const before = cash[i]! + burns[i]! - raisedNet(periods[i - 1]!, periods[i]!);
      const floor = plan.runwayMonths === null ? Math.round(cash[i]! * rng.float(0.85, 0.98)) : Math.round(burns[i]! * rng.float(0.3, 0.6));
      cash[i - 1] = Math.max(before, floor);
    }
    const regShoReports = plan.regSho ? rng.int(1, 3) : 0;
    periods.forEach((period, i) => {
      const report: FinancialReportRecord = {
        ticker: this.ticker,
        period_end: iso(period),
        filed_at: iso(this.reportFiledOn(period)),
        cash_cents: cash[i]!,
        quarterly_burn_cents: burns[i]!,
        debt_cents: debtAt(period),
        reg_sho: i >= 8 - regShoReports,
      };
      if (i === periods.length - 1) {
        // The latest report says whether there is substantial doubt about continuing as a going concern:
        // a distressed company with less than a year of cash says there is.
        report.going_concern = plan.tier === "distressed" && plan.runwayMonths !== null && plan.runwayMonths < GOING_CONCERN_RUNWAY_MONTHS;
        report.going_concern_accession = this.reportAccession(period);
      }
      this.out.financial_reports.push(report);
    });
  }

  // ── the instrument ledger: each instrument's latest state, split-adjusted, and what the ATM reports say ──

  /** The latest quarter end whose periodic report is filed by the anchor day. */
  private latestReportedQuarter(): number {
    let latest = monthEnd(this.anchor, -1);
    while (monthOf(latest) % 3 !== 0 || latest + this.plan.filingLagDays > this.anchor) latest = monthEnd(latest, -1);
    return latest;
  }

  /** The day the periodic report of a quarter end is filed (an annual report two weeks later). */
  private reportFiledOn(quarterEnd: number): number {
    return Math.min(this.anchor, quarterEnd + this.plan.filingLagDays + (monthOf(quarterEnd) === 12 ? 15 : 0));
  }

  /** The first quarter end on or after a day. */
  private quarterEndOn(day: number): number {
    let end = monthEnd(day, 0);
    while (monthOf(end) % 3 !== 0) end = monthEnd(end, 1);
    return end;
  }

  private reportAccession(quarterEnd: number): string {
    let accession = this.reportAccessions.get(quarterEnd);
    if (accession === undefined) {
      accession = this.accession(this.reportFiledOn(quarterEnd));
      this.reportAccessions.set(quarterEnd, accession);
    }
    return accession;
  }

  /**
   * The state each instrument was last stated in, as the EDGAR sync's ledger
   * (lib/data/edgar/ledger.ts) records it: the day it is stated for (`as_of`),
   * its status, and its figures in today's share basis: a figure stated before
   * a reverse split is divided (counts, rounded half up) or multiplied (prices)
   * by the splits since, with the stated figures and the split kept beside it.
   * Then the ATM programs' sales as their latest periodic report states them,
   * an equity line for some small caps, and older warrants that have expired.
   */
  private ledger(): void {
    const { plan, rng, anchor } = this;
    const latest = this.latestReportedQuarter();
    const today = iso(anchor);
    const splits = this.splits;
    /** The quarter end a report covering `day` states, with the day it is filed; null when not filed yet. */
    const reportCovering = (day: number) => {
      const end = this.quarterEndOn(day);
      return end <= latest ? { asOf: end, known: this.reportFiledOn(end) } : null;
    };

    if (plan.tier !== "calm" && this.warrants.length > 0 && (this.ticker === SAMPLE_SHOWCASE.highRisk || rng.chance(0.35))) {
      // A warrant of an offering before the three years of offerings, its five years since run out.
      const issued = addYearsToDay(anchor, -5) - rng.int(30, 700);
      const shares = roundTo(rng.logUniform(100_000, 3_000_000), 100);
      const price = toMicros(this.priceAt(issued) * rng.float(1.5, 4));
      this.addWarrant(`${monthLabel(issued)} Public Offering Warrants`, issued, shares, price, addYearsToDay(issued, 5), "public_offering");
      const added = this.instruments.at(-1)!;
      this.out.dilution_instruments.push(added);
    }

    const lineCompany = plan.equityLine ?? (plan.tier === "distressed" && plan.marketCapCents < 50 * MILLION && rng.chance(0.12));
    if (lineCompany) {
      const issued = anchor - rng.int(90, 540);
      const commitment = roundTo(plan.marketCapCents * rng.float(0.4, 1.2), 500_000 * DOLLAR);
      const undrawn = roundTo(commitment * rng.float(0.35, 0.9), 1_000 * DOLLAR);
      const purchaser = rng.pick(EQUITY_LINE_PURCHASERS);
      const record: DilutionInstrumentRecord = {
        ticker: this.ticker,
        instrument_type: "equity_line",
        name: this.uniqueName("equity_line", `Standby Equity Purchase Agreement with ${purchaser}`),
        issued_at: iso(issued),
        expires_at: iso(addYearsToDay(issued, 3)),
        shares_underlying: null, // shares are sold at the market price of each draw: no fixed count
        exercise_price_micros: null,
        principal_cents: commitment, // the purchaser's commitment
        remaining_cents: undrawn, // the commitment not yet drawn
        registered: null,
        pre_funded: false,
        holders: [purchaser], // the counterparty its 8-K names
      };
      this.instruments.push(record);
      this.out.dilution_instruments.push(record);
    }

    const warrantOf = new Map(this.warrants.map((w) => [w.record, w]));
    // The parties' own stream: drawing them leaves every other sample value as it was.
    const parties = new Rng(mix(this.index, 0x9a27e5));
    const splitsBetween = (after: number, upTo: string) => {
      const from = iso(after);
      return splits.filter((s) => s.effective_date > from && s.effective_date <= upTo).reduce((f, s) => f * Number(s.old_shares), 1);
    };
    for (const instrument of this.instruments) {
      const type = instrument.instrument_type;
      const issued = dayOf(instrument.issued_at);
      const convertible = type === "convertible_note" || type === "convertible_preferred";
      // Warrants are stated by the prospectus or 8-K that sold them, and again by the report after an exercise;
      // notes, preferred and equity lines by every periodic report (principal, stated value, undrawn commitment).
      const warrant = warrantOf.get(instrument);
      const report =
        type === "warrant"
          ? warrant?.lastExercise == null
            ? null
            : reportCovering(warrant.lastExercise)
          : latest >= issued
            ? { asOf: latest, known: this.reportFiledOn(latest) }
            : null;
      // The sample's figures are in the share basis of the issue day; a filing states them in the basis of its own day.
      const native = {
        shares: instrument.shares_underlying == null ? null : Number(instrument.shares_underlying),
        price: instrument.exercise_price_micros == null ? null : Number(instrument.exercise_price_micros),
        principal: instrument.principal_cents == null ? null : Number(instrument.principal_cents),
        remaining: instrument.remaining_cents == null ? null : Number(instrument.remaining_cents),
      };
      const stages: { known: number; asOf: number; shares: number | null; remaining: number | null }[] = [];
      if (type === "warrant") {
        stages.push({ known: issued, asOf: issued, shares: warrant?.initial ?? native.shares, remaining: null });
        if (report) stages.push({ known: report.known, asOf: report.asOf, shares: native.shares, remaining: null });
      } else if (report) {
        stages.push({ known: issued, asOf: issued, shares: null, remaining: native.principal });
        stages.push({ known: report.known, asOf: report.asOf, shares: null, remaining: native.remaining });
      } else stages.push({ known: issued, asOf: issued, shares: null, remaining: native.remaining });

      const stated = stages.map((stage) => {
        const f = splitsBetween(issued, iso(stage.known));
        const price = native.price === null ? null : native.price * f;
        const shares = convertible
          ? stage.remaining === null || price === null
            ? null
            : mulDiv(stage.remaining, 10_000, price)
          : stage.shares === null
            ? null
            : splitAdjustedShares(stage.shares, f);
        return { ...stage, shares, price };
      });
      for (const state of stated) {
        this.out.instrument_states.push({
          ticker: this.ticker,
          instrument_type: type,
          instrument_name: instrument.name,
          known_at: iso(state.known),
          as_of: iso(state.asOf),
          status: "outstanding",
          shares_underlying: state.shares,
          price_micros: state.price,
          principal_cents: native.principal,
          remaining_cents: state.remaining,
          expires_at: instrument.expires_at ?? null,
        });
      }

      const last = stated.at(-1)!;
      instrument.as_of = iso(last.asOf);
      instrument.status = type === "warrant" && instrument.expires_at != null && instrument.expires_at < today ? "expired" : "outstanding";
      if (type === "convertible_note" || (type === "warrant" && instrument.registered === false)) {
        // Price protection is read from the 8-K of a private placement only.
        instrument.anti_dilution = rng.weighted<"customary" | "reset" | "full_ratchet">([
          ["customary", 70],
          ["reset", 20],
          ["full_ratchet", 10],
        ]);
        // Its 8-K names the purchasers (the holders) more often than not; the public buyers of a registered offering go unnamed.
        if (parties.chance(0.6)) {
          const first = parties.int(0, PRIVATE_PLACEMENT_PURCHASERS.length - 1);
          const count = parties.chance(0.3) ? 2 : 1;
          instrument.holders = PRIVATE_PLACEMENT_PURCHASERS.slice(first, first + count);
        }
      }
      // The underwriter or placement agent of the offering it was issued in, as the prospectus or 8-K names it.
      instrument.placement_agent = this.agentOf.get(instrument) ?? null;
      // Then to today's basis: the splits since the latest state was filed.
      const factor = splitsBetween(last.known, today);
      const adjusted = factor > 1 && (last.shares !== null || last.price !== null);
      instrument.shares_underlying = last.shares === null ? null : adjusted ? splitAdjustedShares(last.shares, factor) : last.shares;
      instrument.exercise_price_micros = last.price === null ? null : adjusted ? last.price * factor : last.price;
      if (convertible) instrument.conversion_price_micros = instrument.exercise_price_micros;
      if (adjusted) {
        instrument.stated_shares_underlying = last.shares;
        instrument.stated_price_micros = last.price;
        instrument.split_adjustment = `1-for-${factor}`;
      }
    }

    for (const program of this.atmPrograms) {
      const r = program.record;
      if (program.salesEnd === null) {
        r.atm_remaining_as_of = r.filed_at; // no report yet: the program's size as of its prospectus
        continue;
      }
      const quarter = this.quarterEndOn(program.salesEnd);
      r.atm_remaining_as_of = iso(quarter);
      r.atm_sold_cents = Number(r.offering_amount_cents) - Number(r.atm_remaining_cents);
      r.atm_sold_shares = program.soldShares;
      r.atm_report_accession = this.reportAccession(quarter);
    }
    // The bulk showcase's older ATM supplements: sales to date as the latest report covering each states them (no share count).
    for (const r of this.registrations) {
      if (!r.is_atm || r.atm_remaining_as_of !== undefined) continue;
      const filed = dayOf(r.filed_at);
      const ended = r.expires_at != null && dayOf(r.expires_at) <= latest ? this.quarterEndOn(dayOf(r.expires_at) - 1) : latest;
      if (ended <= filed) {
        r.atm_remaining_cents = r.offering_amount_cents;
        r.atm_remaining_as_of = r.filed_at;
        continue;
      }
      r.atm_remaining_as_of = iso(ended);
      r.atm_sold_cents = Number(r.offering_amount_cents) - Number(r.atm_remaining_cents);
      r.atm_report_accession = this.reportAccession(ended);
    }
  }
}

/** A pre-funded warrant's nominal exercise price: $0.0001. */
const PRE_FUNDED_PRICE_MICROS = 100;
/** A distressed company with less cash than this says there is substantial doubt about it continuing as a going concern. */
const GOING_CONCERN_RUNWAY_MONTHS = 12;

/** A count after a 1-for-N reverse split, by the one rule the EDGAR ledger and the records use (lib/utils/splits.ts). */
export function splitAdjustedShares(shares: number, factor: number): number {
  return Number(adjustShares(BigInt(shares), { num: BigInt(factor), den: 1n }));
}

function noticeText(kind: string, exchange: string, deadline: number): string {
  const nyse = exchange === "NYSE American";
  switch (kind) {
    case "minimum_bid_price":
      return nyse
        ? `Received notice from NYSE American that the common stock has traded at a low selling price (Company Guide Section 1003(f)(v)); the company must cure by ${iso(deadline)}.`
        : `Received a Nasdaq deficiency letter: the closing bid price was below $1.00 for 30 consecutive business days (Listing Rule 5550(a)(2)); compliance period ends ${iso(deadline)}.`;
    case "stockholders_equity":
      return nyse
        ? `Received notice from NYSE American that stockholders' equity is below the continued listing standard (Company Guide Section 1003(a)); plan due within 45 days.`
        : `Received a Nasdaq deficiency letter: stockholders' equity is below the $2.5 million minimum (Listing Rule 5550(b)(1)); plan due within 45 days.`;
    case "periodic_filing":
      return `Received notice of non-compliance for not filing its periodic report on time; the company must file by ${iso(deadline)}.`;
    case "market_value_of_listed_securities":
      return `Received notice that the market value of listed securities was below $35 million for 30 consecutive business days; compliance period ends ${iso(deadline)}.`;
    case "audit_committee":
      return `Received notice that the audit committee no longer meets the composition requirement after a director resigned; cure period ends ${iso(deadline)}.`;
    default:
      return `Received a listing-compliance notice from the exchange; response due by ${iso(deadline)}.`;
  }
}
