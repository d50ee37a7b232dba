/**
 * One company's EDGAR facts → the records of the import format (see
 * ../import-schema.ts), each citing the filing it came from. Pure: the sync
 * (./sync.ts) reads the resources and the documents, this decides what they
 * mean. README's "Load real data" section has the same rules as a table.
 *
 * - Registrations: S-1, S-3, S-3ASR, F-1, F-3, F-3ASR and their amendments,
 *   grouped by file number; the first filing of the group is the record.
 *   Effective on filing for an automatic shelf (…ASR); otherwise on the date
 *   of the first EFFECT notice of that file number. A registration expires
 *   three years after it became effective (Rule 415(a)(5)); a post-effective
 *   amendment that deregisters its unsold securities ends it that day. The size
 *   comes from the latest fee exhibit of the group; without one it is
 *   unknown, and an automatic shelf has no registered maximum at all.
 * - Offerings: 424B1/B2/B4/B5/B7 takedowns, and a 424B3 that names a
 *   registration of the company's and was read as an offering of the
 *   company's, linked to it by file number. When the full
 *   submission was read (./readers), its type and terms are the prospectus's
 *   own: shares, price, gross proceeds (else the ATM maximum or the fee
 *   table's size), warrants and their price, the agent; a resale prospectus,
 *   a debt or structured-note supplement ("other", "not_equity") is no
 *   offering of the company's. Otherwise the amount is the fee exhibit's and
 *   "atm" comes from the text. An ATM supplement also makes an ATM program
 *   registration.
 * - Warrants a prospectus registers and sells (common and pre-funded) are
 *   dilution instruments of the offering's date, one row per kind.
 * - Resale registrations and debt shelves are not offering capacity: they
 *   make no registration record. A post-effective amendment that
 *   deregisters the unsold securities ends its shelf on its filing day.
 * - Listing deficiencies: 8-Ks whose items include 3.01, classified from the
 *   text; a later one that says compliance was regained resolves the open
 *   deficiency of that kind. Without the text an 8-K is not classified (it
 *   could be either), and the sync reports it.
 * - Financial reports and float snapshots from the XBRL facts (./facts.ts).
 */
import type {
  ComplianceDeficiencyRecord,
  Dataset,
  FinancialReportRecord,
  FloatSnapshotRecord,
  OfferingRecord,
  RegistrationRecord,
} from "../import-schema";
import { emptyDataset } from "../import-schema";
import type { DeficiencyKind } from "./documents";
import { parseEffectItems } from "./documents";
import { AUTOMATIC_SHELF_FORM, BABY_SHELF_PUBLIC_FLOAT_LIMIT_CENTS } from "@/lib/ratings/thresholds";
import { publicFloatOn, type CompanyFacts } from "./facts";
import { filingUrl, submissionsUrl, type CompanyIndex, type Filing } from "./filings";
import type { Inspection } from "./readers/inspect";
import type { OfferingTerms } from "./readers/offering";

/**
 * The version of the filing readers whose facts are stored. A stored
 * prospectus's facts from an older version are read again (from the stored
 * submission when there is one): raise it when the readers change what they read.
 */
export const DOCUMENT_READER_VERSION = 1;

/** A prospectus's or registration statement's terms as ./readers read them, with their quotes. */
export interface OfferingFacts {
  terms: OfferingTerms;
  evidence: Record<string, string>;
  /** A post-effective amendment that removes the unsold securities from registration. */
  deregisters: boolean;
}

/** What a filing's documents said (stored per accession, so each is read once). */
export interface DocumentFacts {
  /** The documents could not be read (absent from the source). */
  missing?: boolean;
  /** DOCUMENT_READER_VERSION of the readers that read the full submission. */
  reader?: number;
  /** What the full submission of a prospectus or registration statement states. */
  offering?: OfferingFacts;
  /** From the fee exhibit (Exhibit 107), cents as digit strings. */
  fee?: { maxAggregateOfferingCents: string | null; totalOfferingCents: string | null } | null;
  /** A prospectus (supplement) describing an at-the-market offering. */
  atm?: boolean;
  /** An 8-K under Item 3.01. */
  deficiency?: { kind: DeficiencyKind; regained: boolean; deadline: string | null };
  /** An EFFECT notice's own XML, when its index entry did not say. */
  effect?: { fileNumber: string; form: string | null; effectiveDate: string };
}

export interface CompanyInput {
  ticker: string;
  exchange: string;
  index: CompanyIndex;
  facts: CompanyFacts | null;
  documents: ReadonlyMap<string, DocumentFacts>;
}

export interface MappedCompany {
  dataset: Dataset;
  /** What the filings could not tell (reported by the sync). */
  notes: string[];
}

const REGISTRATION_FORM = /^(S-1|S-3|S-3ASR|F-1|F-3|F-3ASR)(\/A)?$/;
const POST_EFFECTIVE_FORM = /^POS AM$/;
const TAKEDOWN_FORM = /^424B[1-57]$/;
const SHELF_LIFE_YEARS = 3;

/** Registration and prospectus forms whose documents the sync reads (fee exhibit, ATM text). */
export function needsDocuments(filing: Filing): "registration" | "takedown" | "deficiency" | "effect" | null {
  const base = filing.form.replace(/\/A$/, "");
  if (REGISTRATION_FORM.test(filing.form) && !AUTOMATIC_SHELF_FORM.test(base)) return "registration";
  if (POST_EFFECTIVE_FORM.test(filing.form)) return "registration";
  if (TAKEDOWN_FORM.test(filing.form)) return "takedown";
  if (filing.form === "8-K" && itemsOf(filing).includes("3.01")) return "deficiency";
  if (filing.form === "EFFECT" && !parseEffectItems(filing.items)) return "effect";
  return null;
}

function itemsOf(filing: Filing): string[] {
  return filing.items.split(",").map((item) => item.trim());
}

const dollarsToCentsText = (dollars: number | null) => (dollars === null ? null : String(Math.round(dollars * 100)));
const dollarsToMicrosText = (dollars: number | null) => (dollars === null ? null : String(Math.round(dollars * 1_000_000)));

/** The stored facts of a full submission read by ./readers: its terms, and the fee and ATM facts the mapping has always used. */
export function documentFactsOf(inspection: Inspection): DocumentFacts {
  const { evidence, ...rest } = inspection;
  const terms: OfferingTerms = {
    offering_type: rest.offering_type,
    common_shares_offered: rest.common_shares_offered,
    prefunded_warrants_offered: rest.prefunded_warrants_offered,
    prefunded_exercise_price: rest.prefunded_exercise_price,
    common_warrants_offered: rest.common_warrants_offered,
    warrant_exercise_price: rest.warrant_exercise_price,
    warrant_term: rest.warrant_term,
    warrant_expiry: rest.warrant_expiry,
    price_per_share: rest.price_per_share,
    gross_proceeds: rest.gross_proceeds,
    net_proceeds: rest.net_proceeds,
    discount_or_fee_percent: rest.discount_or_fee_percent,
    agent: rest.agent,
    agent_role: rest.agent_role,
    atm_max_amount: rest.atm_max_amount,
    overallotment_shares: rest.overallotment_shares,
    shares_outstanding_before: rest.shares_outstanding_before,
    shares_outstanding_after: rest.shares_outstanding_after,
    max_aggregate_offering: rest.max_aggregate_offering,
    fee_table_kind: rest.fee_table_kind,
    rule_415: rest.rule_415,
  };
  const size = dollarsToCentsText(terms.max_aggregate_offering);
  return {
    reader: DOCUMENT_READER_VERSION,
    offering: { terms, evidence, deregisters: terms.offering_type === "other" && /\bderegister/i.test(evidence.offering_type ?? "") },
    fee: size === null ? null : { maxAggregateOfferingCents: size, totalOfferingCents: null },
    atm: terms.offering_type === "atm",
  };
}

/** The prospectus types that are offerings of the company's, as the offerings table names them. */
const OFFERING_TYPE_OF: Partial<Record<NonNullable<OfferingTerms["offering_type"]>, OfferingRecord["offering_type"]>> = {
  underwritten_firm_commitment: "public_offering",
  registered_direct: "registered_direct",
  atm: "atm",
  best_efforts: "best_efforts",
  ipo: "ipo",
  rights: "rights",
};

function isResale(offering: OfferingFacts | undefined): boolean {
  return offering?.terms.offering_type === "other" && /\bresale\b|selling (?:stock|share|security)holders?/i.test(offering.evidence.offering_type ?? "");
}

function addYears(day: string, years: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.toISOString().slice(0, 10);
}

function byDate(a: Filing, b: Filing): number {
  return a.filedAt < b.filedAt ? -1 : a.filedAt > b.filedAt ? 1 : a.accessionNumber < b.accessionNumber ? -1 : 1;
}

function feeCents(facts: DocumentFacts | undefined): string | null {
  return facts?.fee?.maxAggregateOfferingCents ?? facts?.fee?.totalOfferingCents ?? null;
}

export function mapCompany(input: CompanyInput): MappedCompany {
  const { ticker, index } = input;
  const cik = index.cik;
  const notes: string[] = [];
  const dataset = emptyDataset();
  const evidence = (filing: Filing) => ({
    source_accession: filing.accessionNumber,
    source_form: filing.form,
    source_filed_at: filing.filedAt,
    source_url: filingUrl(cik, filing.accessionNumber),
  });
  const filings = [...index.filings].sort(byDate);

  dataset.companies.push({
    ticker,
    name: index.name,
    exchange: input.exchange,
    sector: index.sicDescription,
    is_sample: false,
    cik,
    sic: index.sic && /^\d{3,4}$/.test(index.sic) ? index.sic : null,
    source_url: submissionsUrl(cik),
  });

  // ── registrations ──
  const effects = new Map<string, { date: string; filing: Filing }>();
  for (const filing of filings.filter((f) => f.form === "EFFECT" && f.fileNumber)) {
    const stated = parseEffectItems(filing.items) ?? input.documents.get(filing.accessionNumber)?.effect ?? null;
    const date = stated?.effectiveDate ?? null;
    if (!date) {
      notes.push(`EFFECT ${filing.accessionNumber}: effective date not stated`);
      continue;
    }
    if (!effects.has(filing.fileNumber!)) effects.set(filing.fileNumber!, { date, filing });
  }

  const groups = new Map<string, Filing[]>();
  const deregistered = new Map<string, Filing>();
  for (const filing of filings) {
    if (!filing.fileNumber) continue;
    if (POST_EFFECTIVE_FORM.test(filing.form) && input.documents.get(filing.accessionNumber)?.offering?.deregisters && !deregistered.has(filing.fileNumber)) {
      deregistered.set(filing.fileNumber, filing);
    }
    if (!REGISTRATION_FORM.test(filing.form)) continue;
    groups.set(filing.fileNumber, [...(groups.get(filing.fileNumber) ?? []), filing]);
  }
  const shelves = new Map<string, { effectiveAt: string | null; expiresAt: string | null; isEffective: boolean }>();
  for (const [fileNumber, group] of groups) {
    const original = group.find((f) => !f.form.endsWith("/A")) ?? group[0]!;
    const form = original.form.replace(/\/A$/, "");
    const read = input.documents.get(original.accessionNumber)?.offering;
    if (isResale(read) || read?.terms.offering_type === "not_equity") {
      notes.push(`${form} ${original.accessionNumber} (${fileNumber}) is ${read!.terms.offering_type === "not_equity" ? "a debt registration" : "a resale registration"}: not offering capacity`);
      continue;
    }
    const automatic = AUTOMATIC_SHELF_FORM.test(form);
    const effect = effects.get(fileNumber);
    const effectiveAt = automatic ? original.filedAt : (effect?.date ?? null);
    const ended = deregistered.get(fileNumber);
    // Rule 415(a)(5): a registration for a continuous offering is good for three years from effectiveness (an S-1 for one offering is spent sooner)
    const lapses = effectiveAt ? addYears(effectiveAt, SHELF_LIFE_YEARS) : null;
    const expiresAt = ended && (!lapses || ended.filedAt < lapses) ? ended.filedAt : lapses;
    // "Declared effective": the API and the ratings judge expiry (and a deregistration, which ends it) by expires_at on their own day
    const declared = effectiveAt !== null;
    const sized = [...group].reverse().find((f) => feeCents(input.documents.get(f.accessionNumber)) !== null);
    const float = input.facts ? publicFloatOn(input.facts, original.filedAt) : null;
    const record: RegistrationRecord = {
      ticker,
      accession_number: original.accessionNumber,
      form_type: form,
      file_number: fileNumber,
      filed_at: original.filedAt,
      effective_at: effectiveAt,
      expires_at: expiresAt,
      offering_amount_cents: automatic ? null : sized ? feeCents(input.documents.get(sized.accessionNumber)) : null,
      is_atm: false,
      // A well-known seasoned issuer (the only kind that may file an automatic shelf) has a public float of $700M or more.
      over_baby_shelf: automatic ? true : float ? float.cents >= BABY_SHELF_PUBLIC_FLOAT_LIMIT_CENTS : null,
      public_float_cents: float ? String(float.cents) : null,
      is_effective: declared,
      effective_accession: !automatic && effect ? effect.filing.accessionNumber : null,
      effective_filed_at: !automatic && effect ? effect.filing.filedAt : null,
      effective_url: !automatic && effect ? filingUrl(cik, effect.filing.accessionNumber) : null,
      ...evidence(original),
    };
    dataset.registrations.push(record);
    shelves.set(fileNumber, { effectiveAt, expiresAt, isEffective: declared });
  }

  // ── takedowns (offerings), and ATM programs ──
  for (const filing of filings) {
    if (!TAKEDOWN_FORM.test(filing.form)) continue;
    const shelf = filing.fileNumber ? shelves.get(filing.fileNumber) : undefined;
    // A 424B3 is most often a resale or merger prospectus: it is an offering of the company's only when it was read and says so.
    if (filing.form === "424B3" && (!shelf || !input.documents.get(filing.accessionNumber)?.offering)) continue;
    const docs = input.documents.get(filing.accessionNumber);
    const read = docs?.offering;
    if (read && !OFFERING_TYPE_OF[read.terms.offering_type ?? "other"]) continue; // a resale, debt or structured-note prospectus: no offering of the company's
    const terms = read?.terms;
    const amount = terms ? (dollarsToCentsText(terms.gross_proceeds ?? terms.atm_max_amount) ?? feeCents(docs)) : feeCents(docs);
    const atm = terms ? terms.offering_type === "atm" : docs?.atm === true;
    const offering: OfferingRecord = {
      ticker,
      accession_number: filing.accessionNumber,
      offering_date: filing.filedAt,
      offering_type: terms ? OFFERING_TYPE_OF[terms.offering_type!]! : atm ? "atm" : "public_offering",
      form_type: filing.form,
      shares: terms?.common_shares_offered == null ? null : String(terms.common_shares_offered),
      price_micros: dollarsToMicrosText(terms?.price_per_share ?? null),
      amount_cents: amount,
      warrants_issued: terms?.common_warrants_offered == null ? null : String(terms.common_warrants_offered),
      warrant_price_micros: dollarsToMicrosText(terms?.warrant_exercise_price ?? null),
      underwriter: terms?.agent ?? null,
      file_number: filing.fileNumber,
      ...evidence(filing),
    };
    if (terms) {
      const issued = (kind: string, shares: number | null, price: number | null) => {
        if (shares === null || shares <= 0) return;
        dataset.dilution_instruments.push({
          ticker,
          instrument_type: "warrant",
          name: `${kind} of ${filing.filedAt} (${filing.form} ${filing.accessionNumber})`,
          issued_at: filing.filedAt,
          expires_at: terms.warrant_expiry && kind === "Warrants" ? terms.warrant_expiry : null,
          shares_underlying: String(shares),
          exercise_price_micros: dollarsToMicrosText(price),
          principal_cents: null,
          remaining_cents: null,
          ...evidence(filing),
        });
      };
      issued("Warrants", terms.common_warrants_offered, terms.warrant_exercise_price);
      issued("Pre-funded warrants", terms.prefunded_warrants_offered, terms.prefunded_exercise_price);
    }
    dataset.offerings.push(offering);
    if (atm && filing.fileNumber) {
      const float = input.facts ? publicFloatOn(input.facts, filing.filedAt) : null;
      // The program can sell once both the shelf and the supplement are in force.
      const effectiveAt = shelf?.effectiveAt ? (shelf.effectiveAt > filing.filedAt ? shelf.effectiveAt : filing.filedAt) : null;
      dataset.registrations.push({
        ticker,
        accession_number: filing.accessionNumber,
        form_type: filing.form,
        file_number: filing.fileNumber,
        filed_at: filing.filedAt,
        effective_at: effectiveAt,
        expires_at: shelf?.expiresAt ?? null,
        offering_amount_cents: amount,
        is_atm: true,
        atm_remaining_cents: null,
        over_baby_shelf: float ? float.cents >= BABY_SHELF_PUBLIC_FLOAT_LIMIT_CENTS : null,
        public_float_cents: float ? String(float.cents) : null,
        is_effective: effectiveAt !== null && (shelf?.isEffective ?? false),
        ...evidence(filing),
      });
    }
  }

  const unread = filings.filter((f) => (TAKEDOWN_FORM.test(f.form) || REGISTRATION_FORM.test(f.form)) && input.documents.get(f.accessionNumber)?.missing).length;
  if (unread) notes.push(`${unread} prospectus or registration document(s) not available from the source: mapped from the filing index alone`);

  // ── listing deficiencies ──
  let unclassified = 0;
  for (const filing of filings) {
    if (filing.form !== "8-K" || !itemsOf(filing).includes("3.01")) continue;
    const said = input.documents.get(filing.accessionNumber)?.deficiency;
    if (!said) {
      unclassified += 1;
      continue;
    }
    const open = dataset.compliance_deficiencies.filter((d) => d.status === "active");
    if (said.regained) {
      const resolved = [...open].reverse().find((d) => said.kind === "other" || d.deficiency === said.kind) ?? open.at(-1);
      if (resolved) {
        resolved.status = "resolved";
        resolved.resolved_at = filing.filedAt;
        resolved.status_updates = [...(resolved.status_updates ?? []), { date: filing.filedAt, text: `Compliance regained (8-K ${filing.accessionNumber}).` }];
      } else notes.push(`8-K ${filing.accessionNumber} says compliance was regained, but no earlier notice is on file`);
      continue;
    }
    const record: ComplianceDeficiencyRecord = {
      ticker,
      deficiency: said.kind,
      status: "active",
      risk: said.kind === "periodic_filing" || said.kind === "other" ? "High" : "Medium",
      notice_date: filing.filedAt,
      deadline: said.deadline && said.deadline >= filing.filedAt ? said.deadline : null,
      resolved_at: null,
      status_updates: [{ date: filing.filedAt, text: `Notice of a ${said.kind.replace(/_/g, " ")} deficiency (8-K Item 3.01, ${filing.accessionNumber}).` }],
      ...evidence(filing),
    };
    // One deficiency per kind and notice day (the import's key); a second 8-K that day repeats it.
    if (!dataset.compliance_deficiencies.some((d) => d.deficiency === record.deficiency && d.notice_date === record.notice_date)) {
      dataset.compliance_deficiencies.push(record);
    }
  }
  if (unclassified) notes.push(`${unclassified} Item 3.01 8-K(s) not classified: their text was not available`);

  // ── financial reports and float ──
  if (input.facts) {
    for (const report of input.facts.reports) {
      const flow = report.operatingCashFlowCents;
      const financial: FinancialReportRecord = {
        ticker,
        period_end: report.periodEnd,
        filed_at: report.filedAt < report.periodEnd ? report.periodEnd : report.filedAt,
        cash_cents: String(report.cashCents < 0n ? 0n : report.cashCents),
        operating_cash_flow_cents: flow === null ? null : String(flow),
        quarterly_burn_cents: flow === null ? null : String(flow < 0n ? -flow : 0n),
        debt_cents: report.debtCents === null || report.debtCents < 0n ? null : String(report.debtCents),
        reg_sho: null,
        source_accession: report.evidence.accession,
        source_form: report.evidence.form,
        source_filed_at: report.evidence.filedAt,
        source_url: filingUrl(cik, report.evidence.accession),
      };
      dataset.financial_reports.push(financial);
    }
    for (const s of input.facts.shares) {
      const snapshot: FloatSnapshotRecord = {
        ticker,
        as_of: s.asOf,
        float_shares: null,
        outstanding_shares: String(s.outstandingShares),
        public_float_cents: s.publicFloatCents === null ? null : String(s.publicFloatCents),
        public_float_as_of: s.publicFloatAsOf,
        source_accession: s.evidence.accession,
        source_form: s.evidence.form,
        source_filed_at: s.evidence.filedAt,
        source_url: filingUrl(cik, s.evidence.accession),
      };
      dataset.float_snapshots.push(snapshot);
    }
  } else notes.push("no XBRL company facts: cash, burn and shares unknown");

  // Shares outstanding as the latest prospectus states them, when the XBRL facts know nothing as recent.
  const latestStated = [...filings].reverse().find((f) => TAKEDOWN_FORM.test(f.form) && input.documents.get(f.accessionNumber)?.offering?.terms.shares_outstanding_after != null);
  if (latestStated && !dataset.float_snapshots.some((s) => s.as_of >= latestStated.filedAt)) {
    const stated = input.documents.get(latestStated.accessionNumber)!.offering!.terms;
    dataset.float_snapshots.push({
      ticker,
      as_of: latestStated.filedAt,
      float_shares: null,
      outstanding_shares: String(stated.shares_outstanding_after),
      public_float_cents: null,
      public_float_as_of: null,
      ...evidence(latestStated),
    });
  }

  return { dataset, notes };
}
