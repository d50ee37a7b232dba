/**
 * XBRL company facts (`api/xbrl/companyfacts/CIK##########.json`) → the
 * financial reports and share counts of one company. Pure: no I/O.
 *
 * - A report is a periodic filing's own balance-sheet date: for each
 *   accession, the latest `end` of its cash facts (a 10-Q also states the
 *   prior year-end as a comparative; that is not its period). When several
 *   filings state the same period (a 10-K and its 10-K/A), the first filed is
 *   the report, and its accession is the evidence.
 * - Cash: us-gaap CashAndCashEquivalentsAtCarryingValue, else the
 *   restricted-cash-inclusive CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents,
 *   else ifrs-full CashAndCashEquivalents.
 * - The quarter's operating cash flow: a three-month duration when stated;
 *   otherwise the year-to-date duration less the previous one of the same
 *   start (Q2 = H1 − Q1, Q4 = FY − 9M); for a filer that reports only
 *   annually (a 20-F), the year ÷ 4, and the report says so.
 * - Shares outstanding: dei:EntityCommonStockSharesOutstanding on its cover
 *   date. Public float: dei:EntityPublicFloat, a dollar value at the end of
 *   the second fiscal quarter (not a share count).
 */
import { z } from "zod";
import { EdgarFormatError } from "./filings";

const fact = z.object({
  start: z.string().optional(),
  end: z.string(),
  val: z.number(),
  accn: z.string(),
  form: z.string().optional(),
  filed: z.string(),
});
type Fact = z.infer<typeof fact>;

const companyFacts = z.object({
  cik: z.union([z.string(), z.number()]),
  entityName: z.string().optional(),
  facts: z.record(z.string(), z.record(z.string(), z.object({ units: z.record(z.string(), z.array(fact)) }))).default({}),
});

export type Taxonomy = "us-gaap" | "ifrs-full";

export interface FactFiling {
  accession: string;
  form: string;
  filedAt: string;
}

export interface ReportFacts {
  periodEnd: string;
  filedAt: string;
  evidence: FactFiling;
  cashCents: bigint;
  /** The quarter's net operating cash flow (negative = burn); null when not derivable. */
  operatingCashFlowCents: bigint | null;
  /** How the quarter's flow was found. */
  operatingCashFlowBasis: "quarter" | "year_to_date_difference" | "annual_quarter_average" | null;
  debtCents: bigint | null;
  concept: string;
}

export interface SharesFacts {
  asOf: string;
  outstandingShares: bigint;
  evidence: FactFiling;
  /** The latest public float stated on or before asOf, with its own date. */
  publicFloatCents: bigint | null;
  publicFloatAsOf: string | null;
}

export interface PublicFloatFact {
  asOf: string;
  cents: bigint;
  evidence: FactFiling;
}

export interface CompanyFacts {
  taxonomy: Taxonomy | null;
  reports: ReportFacts[];
  shares: SharesFacts[];
  /** Every dei:EntityPublicFloat, oldest first (one per date, first filed). */
  publicFloats: PublicFloatFact[];
}

const CASH_CONCEPTS: [Taxonomy, string][] = [
  ["us-gaap", "CashAndCashEquivalentsAtCarryingValue"],
  ["us-gaap", "CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents"],
  ["ifrs-full", "CashAndCashEquivalents"],
];
const OPERATING_CASH_FLOW: Record<Taxonomy, string[]> = {
  "us-gaap": ["NetCashProvidedByUsedInOperatingActivities", "NetCashProvidedByUsedInOperatingActivitiesContinuingOperations"],
  "ifrs-full": ["CashFlowsFromUsedInOperatingActivities", "CashFlowsFromUsedInOperations"],
};
const DEBT: Record<Taxonomy, string[]> = {
  "us-gaap": ["LongTermDebt", "LongTermDebtNoncurrent"],
  "ifrs-full": ["Borrowings", "LongtermBorrowings"],
};
const PERIODIC_FORMS = /^(10-Q|10-K|20-F|40-F|10-KT|10-QT)(\/A)?$/;

const DAY_MS = 86_400_000;
const days = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
const isQuarter = (d: number) => d >= 80 && d <= 100;
const isYear = (d: number) => d >= 350 && d <= 380;

/** Dollars (XBRL values are whole or decimal dollars) → cents, exactly for whole dollars. */
function cents(value: number): bigint {
  return Number.isInteger(value) ? BigInt(value) * 100n : BigInt(Math.round(value * 100));
}

function unitFacts(root: z.infer<typeof companyFacts>, taxonomy: string, concept: string, unit: string): Fact[] {
  return root.facts[taxonomy]?.[concept]?.units[unit] ?? [];
}

function byFiled(a: Fact, b: Fact): number {
  return a.filed < b.filed ? -1 : a.filed > b.filed ? 1 : a.accn < b.accn ? -1 : 1;
}

export function parseCompanyFacts(text: string): CompanyFacts {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new EdgarFormatError("the company facts are not JSON");
  }
  const parsed = companyFacts.safeParse(json);
  if (!parsed.success) throw new EdgarFormatError("the company facts have an unexpected shape");
  const root = parsed.data;

  const cash = CASH_CONCEPTS.find(([taxonomy, concept]) => unitFacts(root, taxonomy, concept, "USD").length > 0);
  const taxonomy = cash?.[0] ?? (root.facts["ifrs-full"] ? "ifrs-full" : root.facts["us-gaap"] ? "us-gaap" : null);
  return {
    taxonomy,
    reports: cash ? reports(root, cash[0], cash[1]) : [],
    shares: shares(root),
    publicFloats: publicFloats(root),
  };
}

function reports(root: z.infer<typeof companyFacts>, taxonomy: Taxonomy, concept: string): ReportFacts[] {
  const cashFacts = unitFacts(root, taxonomy, concept, "USD").filter((f) => !f.form || PERIODIC_FORMS.test(f.form));
  const ownPeriod = new Map<string, string>();
  for (const f of cashFacts) if ((ownPeriod.get(f.accn) ?? "") < f.end) ownPeriod.set(f.accn, f.end);

  const first = new Map<string, Fact>();
  for (const f of [...cashFacts].sort(byFiled)) {
    if (ownPeriod.get(f.accn) !== f.end || first.has(f.end)) continue;
    first.set(f.end, f);
  }

  const flows = OPERATING_CASH_FLOW[taxonomy].map((c) => unitFacts(root, taxonomy, c, "USD")).find((list) => list.length > 0) ?? [];
  const debts = DEBT[taxonomy].map((c) => unitFacts(root, taxonomy, c, "USD"));

  return [...first.values()]
    .sort((a, b) => (a.end < b.end ? -1 : 1))
    .map((f) => {
      const flow = quarterFlow(flows, f.end, f.accn);
      const debt = debts.map((list) => valueAt(list, f.end, f.accn)).find((v) => v !== null) ?? null;
      return {
        periodEnd: f.end,
        filedAt: f.filed,
        evidence: { accession: f.accn, form: f.form ?? "", filedAt: f.filed },
        cashCents: cents(f.val),
        operatingCashFlowCents: flow?.cents ?? null,
        operatingCashFlowBasis: flow?.basis ?? null,
        debtCents: debt === null ? null : cents(debt),
        concept: `${taxonomy}:${concept}`,
      };
    });
}

/** An instant's value, preferring the report's own filing, else the first filed. */
function valueAt(facts: Fact[], end: string, accession: string): number | null {
  const at = facts.filter((f) => f.end === end && f.start === undefined);
  const own = at.find((f) => f.accn === accession);
  if (own) return own.val;
  return at.sort(byFiled)[0]?.val ?? null;
}

/** Durations ending on `end`, keyed by start, one value each (the report's own filing first). */
function durationsEnding(facts: Fact[], end: string, accession: string): Map<string, number> {
  const found = new Map<string, number>();
  const candidates = facts.filter((f) => f.end === end && f.start !== undefined);
  for (const f of [...candidates.filter((c) => c.accn === accession), ...candidates.sort(byFiled)]) {
    if (!found.has(f.start!)) found.set(f.start!, f.val);
  }
  return found;
}

function quarterFlow(facts: Fact[], end: string, accession: string): { cents: bigint; basis: NonNullable<ReportFacts["operatingCashFlowBasis"]> } | null {
  const ending = durationsEnding(facts, end, accession);
  for (const [start, value] of ending) {
    if (isQuarter(days(start, end))) return { cents: cents(value), basis: "quarter" };
  }
  for (const [start, value] of ending) {
    // The same year-to-date run, one quarter shorter.
    const earlier = facts
      .filter((f) => f.start === start && f.end < end && isQuarter(days(f.end, end)))
      .sort(byFiled)[0];
    if (earlier) return { cents: cents(value) - cents(earlier.val), basis: "year_to_date_difference" };
  }
  for (const [start, value] of ending) {
    if (isYear(days(start, end))) return { cents: cents(value) / 4n, basis: "annual_quarter_average" };
  }
  return null;
}

function shares(root: z.infer<typeof companyFacts>): SharesFacts[] {
  const outstanding = unitFacts(root, "dei", "EntityCommonStockSharesOutstanding", "shares").sort(byFiled);
  const floats = unitFacts(root, "dei", "EntityPublicFloat", "USD").sort(byFiled);
  const byDate = new Map<string, Fact>();
  for (const f of outstanding) if (!byDate.has(f.end)) byDate.set(f.end, f);
  return [...byDate.values()]
    .sort((a, b) => (a.end < b.end ? -1 : 1))
    .map((f) => {
      const float = floats.filter((p) => p.end <= f.end).sort((a, b) => (a.end < b.end ? 1 : a.end > b.end ? -1 : byFiled(a, b)))[0];
      return {
        asOf: f.end,
        outstandingShares: BigInt(Math.round(f.val)),
        evidence: { accession: f.accn, form: f.form ?? "", filedAt: f.filed },
        publicFloatCents: float ? cents(float.val) : null,
        publicFloatAsOf: float?.end ?? null,
      };
    });
}

function publicFloats(root: z.infer<typeof companyFacts>): PublicFloatFact[] {
  const byDate = new Map<string, PublicFloatFact>();
  for (const f of unitFacts(root, "dei", "EntityPublicFloat", "USD").sort(byFiled)) {
    if (!byDate.has(f.end)) byDate.set(f.end, { asOf: f.end, cents: cents(f.val), evidence: { accession: f.accn, form: f.form ?? "", filedAt: f.filed } });
  }
  return [...byDate.values()].sort((a, b) => (a.asOf < b.asOf ? -1 : 1));
}

/** The latest public float whose date is on or before a day (a registration's baby-shelf test uses the one known at filing). */
export function publicFloatOn(facts: CompanyFacts, day: string): PublicFloatFact | null {
  return [...facts.publicFloats].reverse().find((f) => f.asOf <= day && f.evidence.filedAt <= day) ?? null;
}
