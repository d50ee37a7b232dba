/**
 * What the sample's companies are to be: the showcase companies, each with
 * its fixed plan, and the random plans of the others (tier, sector, shelf,
 * ATM, cash, financings, deficiencies), which the builder turns into records.
 */
import { MILLION, roundTo } from "./amounts";
import type { Rng } from "./rng";

/**
 * Fixed showcase tickers, present in every generated dataset (they are the
 * first companies, so any tickerCount ≥ 10 has them all):
 *
 * - highRisk (ZVTX): weeks of cash, baby-shelf-limited S-3 with an almost
 *   used-up ATM, frequent offerings with warrants, active minimum-bid-price and
 *   stockholders'-equity deficiencies (High), on the Reg SHO threshold list,
 *   going-concern doubt in its latest report, two reverse splits behind it
 *   (its warrants stated before them are split-adjusted, one old series
 *   expired).
 * - lowRisk (QLMN): the calm one: no shelf, no offerings, no warrants or
 *   convertibles, no deficiencies, cash-flow positive (zero burn).
 * - babyShelf (ZBBY): effective S-3 with public float under $75M, ATM with
 *   remaining capacity, and an equity line (a standby equity purchase
 *   agreement) partly drawn.
 * - atmExhausted (ZATM): effective S-3 over the baby-shelf threshold whose ATM
 *   is fully used (atm_remaining_cents 0).
 * - pendingS1 (ZIPO): an S-1 filed and amended but not yet effective.
 * - expiredShelf (ZEXP): its only shelf (and ATM) expired.
 * - manyOfferings (ZOFR): 150 offerings.
 * - manyRegistrations (ZREG): 120 registrations.
 * - manyInstruments (ZWRT): 130 dilution instruments (warrants, notes, preferred).
 * - manyDeficiencies (ZCMP): 110 compliance deficiencies.
 */
export const SAMPLE_SHOWCASE = {
  highRisk: "ZVTX",
  lowRisk: "QLMN",
  babyShelf: "ZBBY",
  atmExhausted: "ZATM",
  pendingS1: "ZIPO",
  expiredShelf: "ZEXP",
  manyOfferings: "ZOFR",
  manyRegistrations: "ZREG",
  manyInstruments: "ZWRT",
  manyDeficiencies: "ZCMP",
} as const;

/** Exact record counts of the bulk showcase tickers. */
export const SAMPLE_SHOWCASE_COUNTS = {
  offerings: { ticker: SAMPLE_SHOWCASE.manyOfferings, count: 150 },
  registrations: { ticker: SAMPLE_SHOWCASE.manyRegistrations, count: 120 },
  dilution_instruments: { ticker: SAMPLE_SHOWCASE.manyInstruments, count: 130 },
  compliance_deficiencies: { ticker: SAMPLE_SHOWCASE.manyDeficiencies, count: 110 },
} as const;

export type Tier = "calm" | "growth" | "distressed";
export type ShelfCase = "none" | "baby" | "large" | "expired" | "pending_s1";
export type AtmCase = "none" | "capacity" | "exhausted";
export type DeficiencyCase = "none" | "active" | "resolved";

export interface CompanyPlan {
  name?: string;
  exchange: "NASDAQ" | "NYSE American";
  sector: string;
  tier: Tier;
  foreign: boolean;
  /** Target market capitalisation today, cents. */
  marketCapCents: number;
  priceNow: number; // dollars
  /** Monthly log drift of the price (forward in time) and its volatility. */
  drift: number;
  volatility: number;
  insiderBps: number;
  institutionalBps: number;
  shelf: ShelfCase;
  priorExpiredShelf: boolean;
  atm: AtmCase;
  /** Months of cash at the latest report; null = the company burns no cash. */
  runwayMonths: number | null;
  /** Quarterly cash burn, cents (0 when runwayMonths is null). */
  burnCents: number;
  plainDebtCents: number;
  /** Financings (public offerings, registered directs, PIPEs, convertibles) in the last 3 years. */
  financings: number;
  /** Size of one financing as a share of market cap. */
  raiseFraction: readonly [number, number];
  withWarrants: number; // probability a financing carries warrants
  warrantExercises: boolean;
  convertiblePreferred: number;
  minBid: DeficiencyCase;
  /** Days since the active minimum-bid notice (random when absent). */
  minBidNoticeDaysAgo?: number;
  equity: DeficiencyCase;
  /** Days since the active stockholders'-equity notice (random when absent). */
  equityNoticeDaysAgo?: number;
  otherDeficiency: DeficiencyCase;
  regSho: boolean;
  filingLagDays: number;
  /** Exact totals for the bulk showcases. */
  bulk?: { offerings?: number; registrations?: number; instruments?: number; deficiencies?: number };
  /** Reverse splits a showcase has done, 1-for-factor that many days before the anchor (others get one with a regained bid price). */
  reverseSplits?: readonly { daysAgo: number; factor: number }[];
  /** An equity line (a standby equity purchase agreement); absent: some distressed small caps have one, at random. */
  equityLine?: boolean;
}

const SECTORS: Record<string, readonly string[]> = {
  Biotechnology: ["Therapeutics", "Biosciences", "Pharma", "Bio", "Oncology", "Genomics"],
  "Medical Devices": ["Medical", "Surgical", "Diagnostics", "Health"],
  "Clean Energy": ["Energy", "Power", "Solar", "Hydrogen"],
  Software: ["Software", "Systems", "Labs", "AI", "Cloud"],
  "Electric Vehicles": ["Motors", "Mobility", "EV"],
  Mining: ["Mining", "Resources", "Metals", "Lithium"],
  Fintech: ["Financial", "Pay", "Capital"],
  "Crypto Mining": ["Digital", "Blockchain", "Hash"],
  Shipping: ["Shipping", "Maritime", "Tankers"],
  Semiconductors: ["Semiconductor", "Photonics", "Micro"],
  "Consumer Goods": ["Brands", "Foods", "Beverage"],
  Cannabis: ["Cannabis", "Botanicals"],
};
const SECTOR_WEIGHTS: [string, number][] = [
  ["Biotechnology", 30],
  ["Medical Devices", 9],
  ["Clean Energy", 8],
  ["Software", 10],
  ["Electric Vehicles", 5],
  ["Mining", 6],
  ["Fintech", 6],
  ["Crypto Mining", 5],
  ["Shipping", 4],
  ["Semiconductors", 6],
  ["Consumer Goods", 7],
  ["Cannabis", 4],
];
const NAME_HEADS = [
  "Ab", "Ael", "Al", "Am", "Ar", "Ast", "Aur", "Bel", "Bri", "Cal", "Cel", "Cor", "Cyr", "Dal", "Dyn", "El", "Ev", "Fen",
  "Gal", "Hel", "Hal", "Ion", "Jen", "Kal", "Kor", "Lum", "Lyr", "Mer", "Nex", "Nov", "Ob", "Or", "Pel", "Pyr", "Quan",
  "Rav", "Ros", "Sol", "Syn", "Tal", "Ter", "Ul", "Ver", "Vor", "Xen", "Yar", "Zel", "Zen",
];
const NAME_TAILS = ["ada", "ara", "ex", "ion", "is", "ix", "on", "ora", "um", "yx", "eon", "ia", "ant", "ova", "era", "ium", "etic", "aris"];
const NAME_FORMS = [" Inc.", " Inc.", " Corp.", " Holdings Inc.", " Ltd.", " Group Inc."];
export const UNDERWRITERS = [
  "Harborline Securities",
  "Northgate Capital Markets",
  "Redwood Row Partners",
  "Kestrel & Co.",
  "Bluewater Placement Group",
  "Summit Ridge Securities",
  "Granite Bay Capital",
  "Lantern Street Partners",
];

export function randomName(rng: Rng, sector: string): string {
  const word = rng.pick(SECTORS[sector]!);
  return `${rng.pick(NAME_HEADS)}${rng.pick(NAME_TAILS)} ${word}${rng.pick(NAME_FORMS)}`;
}

export function randomPlan(rng: Rng): CompanyPlan {
  const tier = rng.weighted<Tier>([
    ["calm", 25],
    ["growth", 35],
    ["distressed", 40],
  ]);
  const sector = rng.weighted(SECTOR_WEIGHTS);
  const exchange = rng.chance(tier === "calm" ? 0.05 : tier === "growth" ? 0.1 : 0.2) ? "NYSE American" : "NASDAQ";
  const base = {
    exchange,
    sector,
    tier,
    foreign: rng.chance(0.08),
    plainDebtCents: 0,
    convertiblePreferred: 0,
    otherDeficiency: "none" as DeficiencyCase,
    filingLagDays: rng.int(30, 75),
  } satisfies Partial<CompanyPlan>;

  if (tier === "calm") {
    const zeroBurn = rng.chance(0.5);
    const burnCents = zeroBurn ? 0 : roundTo(rng.logUniform(1, 20) * MILLION, 1000);
    return {
      ...base,
      marketCapCents: Math.round(rng.logUniform(300, 20_000) * MILLION),
      priceNow: rng.logUniform(8, 200),
      drift: rng.float(-0.005, 0.02),
      volatility: rng.float(0.04, 0.09),
      insiderBps: rng.int(100, 1500),
      institutionalBps: rng.int(5000, 8300),
      shelf: rng.weighted<ShelfCase>([
        ["none", 40],
        ["large", 45],
        ["expired", 15],
      ]),
      priorExpiredShelf: rng.chance(0.3),
      atm: rng.weighted<AtmCase>([
        ["none", 80],
        ["capacity", 20],
      ]),
      runwayMonths: zeroBurn ? null : rng.float(24, 96),
      burnCents,
      plainDebtCents: rng.chance(0.4) ? roundTo(rng.logUniform(5, 200) * MILLION, 100_000) : 0,
      financings: rng.int(0, 2),
      raiseFraction: [0.02, 0.08],
      withWarrants: 0,
      warrantExercises: false,
      minBid: "none",
      equity: "none",
      otherDeficiency: rng.chance(0.05) ? "resolved" : "none",
      regSho: false,
    };
  }

  if (tier === "growth") {
    const runwayMonths = rng.weighted<number>([
      [rng.float(3, 6), 15],
      [rng.float(6, 18), 45],
      [rng.float(18, 48), 40],
    ]);
    return {
      ...base,
      marketCapCents: Math.round(rng.logUniform(80, 2000) * MILLION),
      priceNow: rng.logUniform(2.5, 40),
      drift: rng.float(-0.03, 0.02),
      volatility: rng.float(0.08, 0.16),
      insiderBps: rng.int(500, 3000),
      institutionalBps: rng.int(2000, 6000),
      shelf: rng.weighted<ShelfCase>([
        ["large", 60],
        ["baby", 8],
        ["none", 10],
        ["expired", 10],
        ["pending_s1", 12],
      ]),
      priorExpiredShelf: rng.chance(0.25),
      atm: rng.weighted<AtmCase>([
        ["none", 40],
        ["capacity", 48],
        ["exhausted", 12],
      ]),
      runwayMonths,
      burnCents: roundTo(rng.logUniform(4, 40) * MILLION, 1000),
      plainDebtCents: rng.chance(0.25) ? roundTo(rng.logUniform(2, 50) * MILLION, 100_000) : 0,
      financings: rng.int(1, 6),
      raiseFraction: [0.05, 0.15],
      withWarrants: 0.3,
      warrantExercises: true,
      convertiblePreferred: rng.chance(0.1) ? 1 : 0,
      minBid: rng.weighted<DeficiencyCase>([
        ["none", 85],
        ["resolved", 15],
      ]),
      equity: rng.chance(0.05) ? "resolved" : "none",
      otherDeficiency: rng.chance(0.06) ? rng.pick(["active", "resolved"] as const) : "none",
      regSho: rng.chance(0.03),
    };
  }

  const priceNow = rng.weighted<number>([
    [rng.logUniform(0.08, 0.99), 60],
    [rng.logUniform(1, 4), 40],
  ]);
  const runwayMonths = rng.weighted<number>([
    [rng.float(0.2, 0.95), 25],
    [rng.float(1, 6), 45],
    [rng.float(6, 18), 30],
  ]);
  return {
    ...base,
    marketCapCents: Math.round(rng.logUniform(3, 40) * MILLION),
    priceNow,
    drift: rng.float(-0.05, -0.005),
    volatility: rng.float(0.12, 0.25),
    insiderBps: rng.int(200, 2500),
    institutionalBps: rng.int(300, 2500),
    shelf: rng.weighted<ShelfCase>([
      ["baby", 55],
      ["none", 15],
      ["expired", 15],
      ["pending_s1", 15],
    ]),
    priorExpiredShelf: rng.chance(0.2),
    atm: rng.weighted<AtmCase>([
      ["none", 30],
      ["capacity", 40],
      ["exhausted", 30],
    ]),
    runwayMonths,
    burnCents: roundTo(rng.logUniform(1, 8) * MILLION, 1000),
    plainDebtCents: rng.chance(0.2) ? roundTo(rng.logUniform(0.5, 5) * MILLION, 10_000) : 0,
    financings: rng.int(3, 12),
    raiseFraction: [0.1, 0.4],
    withWarrants: 0.65,
    warrantExercises: true,
    convertiblePreferred: rng.chance(0.2) ? rng.int(1, 2) : 0,
    minBid: priceNow < 1 ? (rng.chance(0.9) ? "active" : "none") : rng.chance(0.35) ? "resolved" : "none",
    equity: rng.weighted<DeficiencyCase>([
      ["none", 60],
      ["active", 25],
      ["resolved", 15],
    ]),
    otherDeficiency: rng.chance(0.08) ? rng.pick(["active", "resolved"] as const) : "none",
    regSho: rng.chance(0.2),
  };
}

/** The showcase plans, in SAMPLE_SHOWCASE order. */
export function showcasePlans(): ((rng: Rng) => CompanyPlan)[] {
  const common = {
    exchange: "NASDAQ",
    foreign: false,
    plainDebtCents: 0,
    convertiblePreferred: 0,
    otherDeficiency: "none",
    filingLagDays: 40,
    priorExpiredShelf: false,
  } as const;
  const distressed = {
    ...common,
    tier: "distressed",
    drift: -0.05,
    volatility: 0.15,
    insiderBps: 1200,
    institutionalBps: 900,
    burnCents: 4 * MILLION,
    raiseFraction: [0.15, 0.35],
    withWarrants: 0.8,
    warrantExercises: true,
  } as const;
  const growth = {
    ...common,
    tier: "growth",
    drift: 0,
    volatility: 0.1,
    insiderBps: 1500,
    institutionalBps: 4500,
    raiseFraction: [0.05, 0.12],
    withWarrants: 0.2,
    warrantExercises: true,
    minBid: "none",
    equity: "none",
    regSho: false,
  } as const;
  return [
    // highRisk
    () => ({
      ...distressed,
      name: "Zivotex Therapeutics Inc.",
      sector: "Biotechnology",
      marketCapCents: 9 * MILLION,
      priceNow: 0.31,
      shelf: "baby",
      atm: "capacity",
      runwayMonths: 0.7,
      financings: 9,
      convertiblePreferred: 1,
      minBid: "active",
      minBidNoticeDaysAgo: 200, // in its second 180-day period: High
      equity: "active",
      equityNoticeDaysAgo: 30, // no plan accepted yet: High
      regSho: true,
      reverseSplits: [
        { daysAgo: 640, factor: 15 },
        { daysAgo: 300, factor: 20 },
      ],
    }),
    // lowRisk
    () => ({
      ...common,
      name: "Quillman Instruments Corp.",
      sector: "Semiconductors",
      tier: "calm",
      marketCapCents: 2_400 * MILLION,
      priceNow: 48.5,
      drift: 0.008,
      volatility: 0.05,
      insiderBps: 900,
      institutionalBps: 7800,
      shelf: "none",
      atm: "none",
      runwayMonths: null,
      burnCents: 0,
      financings: 0,
      raiseFraction: [0.02, 0.05],
      withWarrants: 0,
      warrantExercises: false,
      minBid: "none",
      equity: "none",
      regSho: false,
    }),
    // babyShelf
    () => ({
      ...distressed,
      name: "Zephyr Bay Biosciences Inc.",
      sector: "Biotechnology",
      marketCapCents: 28 * MILLION,
      priceNow: 1.85,
      drift: -0.02,
      shelf: "baby",
      atm: "capacity",
      runwayMonths: 5,
      financings: 5,
      minBid: "none",
      equity: "none",
      regSho: false,
      equityLine: true,
    }),
    // atmExhausted
    () => ({
      ...growth,
      name: "Zaltamo Energy Corp.",
      sector: "Clean Energy",
      marketCapCents: 420 * MILLION,
      priceNow: 6.4,
      shelf: "large",
      atm: "exhausted",
      runwayMonths: 9,
      burnCents: 18 * MILLION,
      financings: 3,
    }),
    // pendingS1
    () => ({
      ...distressed,
      name: "Zipora Mobility Holdings Inc.",
      sector: "Electric Vehicles",
      exchange: "NYSE American",
      marketCapCents: 22 * MILLION,
      priceNow: 2.1,
      drift: -0.03,
      shelf: "pending_s1",
      atm: "none",
      runwayMonths: 2.5,
      financings: 4,
      minBid: "none",
      equity: "resolved",
      regSho: false,
    }),
    // expiredShelf
    () => ({
      ...growth,
      name: "Zexion Resources Ltd.",
      sector: "Mining",
      marketCapCents: 160 * MILLION,
      priceNow: 3.2,
      shelf: "expired",
      atm: "capacity",
      runwayMonths: 14,
      burnCents: 6 * MILLION,
      financings: 2,
    }),
    // manyOfferings: a serial diluter, 150 offerings in three years
    () => ({
      ...growth,
      name: "Zofrenda Pharma Inc.",
      sector: "Biotechnology",
      marketCapCents: 300 * MILLION,
      priceNow: 4.75,
      drift: -0.01,
      shelf: "large",
      atm: "capacity",
      runwayMonths: 7,
      burnCents: 22 * MILLION,
      financings: 0, // set from bulk
      raiseFraction: [0.004, 0.012],
      withWarrants: 0,
      warrantExercises: false,
      bulk: { offerings: SAMPLE_SHOWCASE_COUNTS.offerings.count },
    }),
    // manyRegistrations
    () => ({
      ...growth,
      name: "Zeregal Systems Inc.",
      sector: "Software",
      marketCapCents: 650 * MILLION,
      priceNow: 11.2,
      shelf: "large",
      atm: "capacity",
      runwayMonths: 20,
      burnCents: 15 * MILLION,
      financings: 3,
      bulk: { registrations: SAMPLE_SHOWCASE_COUNTS.registrations.count },
    }),
    // manyInstruments
    () => ({
      ...distressed,
      name: "Zwarta Genomics Inc.",
      sector: "Biotechnology",
      marketCapCents: 35 * MILLION,
      priceNow: 1.2,
      drift: -0.03,
      shelf: "baby",
      atm: "exhausted",
      runwayMonths: 4,
      financings: 10,
      convertiblePreferred: 2,
      minBid: "resolved",
      equity: "none",
      regSho: false,
      bulk: { instruments: SAMPLE_SHOWCASE_COUNTS.dilution_instruments.count },
    }),
    // manyDeficiencies
    () => ({
      ...distressed,
      name: "Zacompra Health Inc.",
      sector: "Medical Devices",
      marketCapCents: 12 * MILLION,
      priceNow: 0.55,
      shelf: "expired",
      atm: "none",
      runwayMonths: 3,
      financings: 6,
      minBid: "active",
      equity: "resolved",
      otherDeficiency: "active",
      regSho: true,
      bulk: { deficiencies: SAMPLE_SHOWCASE_COUNTS.compliance_deficiencies.count },
    }),
  ];
}
