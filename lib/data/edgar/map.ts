/**
 * One company's EDGAR facts → the records of the import format (see
 * ../import/schema.ts), each citing the filing it came from. Pure: the sync
 * (./sync.ts) reads the resources and the documents, this decides what they
 * mean. docs/filings.md ("From filings to records") says the same for readers of the API.
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
 * - Warrants a prospectus registers and sells (common and pre-funded), and
 *   those sold beside it in a concurrent private placement (not registered),
 *   are dilution instruments of the offering's date, one row per kind.
 * - Resale registrations and debt shelves are not offering capacity: they
 *   make no registration record. A post-effective amendment that
 *   deregisters the unsold securities ends its shelf on its filing day.
 * - Reverse splits: an 8-K under Item 5.03 that announces one as effective,
 *   else the first prospectus that recites it (with its ratio and date).
 * - Listing deficiencies: 8-Ks whose items include 3.01, classified from the
 *   text; a later one that says compliance was regained resolves the open
 *   deficiency of that kind. Without the text an 8-K is not classified (it
 *   could be either), and the sync reports it.
 * - Financial reports and float snapshots from the XBRL facts (./facts.ts);
 *   going concern from the periodic report of the period, which makes the
 *   period's financial report itself (cash unknown) when the facts have none.
 */
import type {
  ComplianceDeficiencyRecord,
  Dataset,
  DilutionInstrumentRecord,
  Evidence,
  XbrlCheck,
  FinancialReportRecord,
  FloatSnapshotRecord,
  OfferingRecord,
  RegistrationRecord,
  ReverseSplitRecord,
} from "../import/schema";
import { emptyDataset, SERVED_TEXT_BYTES } from "../import/schema";
import { jsonTextBytes } from "../units";
import { addDays, addMonths, addYears, isoDay } from "@/lib/utils/dates";
import type { DeficiencyKind } from "./documents/eight-k";
import { parseEffectItems } from "./documents/effect-notice";
import { AUTOMATIC_SHELF_FORM, BABY_SHELF_PUBLIC_FLOAT_LIMIT_CENTS, SHELF_LIFE_YEARS } from "@/lib/ratings/thresholds";
import { publicFloatOn, type CompanyFacts } from "./facts";
import { filingUrl, submissionsUrl, type CompanyIndex, type Filing } from "./filings";
import type { Inspection } from "./documents/inspect";
import { buildLedger, partyKey, seriesKey, type IssuedInstrument, type PeriodicReportFiled } from "./ledger";
import type { EightKTermsReading, EightKWarrant } from "./documents/eight-k-terms";
import { adjustPrice, adjustShares, isNoSplit, splitFactor, splitRatio, splitShares } from "@/lib/utils/splits";
import { crossCheckConversionPrice, crossCheckWarrantTotal, type CrossCheck, type XbrlDilutionFacts } from "./xbrl-dilution";
import { isPeriodicReport, type AtmProgram, type PeriodicReading } from "./documents/periodic-report";
import type { OfferingTerms } from "./documents/prospectus";
import { agentWarrantParties, eightKParties, equityLineParties, prospectusParties, withParties } from "./parties";

/**
 * The version of the filing readers whose facts are stored. A stored
 * prospectus's facts from an older version are read again (from the stored
 * submission when there is one): raise it when the readers change what they read.
 */
export const DOCUMENT_READER_VERSION = 5;

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
  /** An 8-K under Item 5.03: the reverse splits it announces as effective, with their quotes. */
  reverseSplits?: { ratio: string; effectiveDate: string; ratioQuote: string; dateQuote: string | null }[];
  /** An EFFECT notice's own XML, when its index entry did not say. */
  effect?: { fileNumber: string; form: string | null; effectiveDate: string };
  /** An 8-K under Item 1.01 or 3.02: the financing terms it (and its press release) states, with their quotes. */
  financing?: EightKTermsReading;
  /** EIGHT_K_READER_VERSION of the reader that read an 8-K's financing items. */
  eightKReader?: number;
  /** A periodic report (10-Q, 10-K, 20-F, 40-F): what it states, with its quotes, and the version of the reader that read it. */
  periodic?: PeriodicReading & { reader: number };
}

export interface CompanyInput {
  ticker: string;
  exchange: string;
  /** "YYYY-MM-DD": what is still pending is judged on this day. */
  today: string;
  index: CompanyIndex;
  facts: CompanyFacts | null;
  /** The dilution facts the company tags in XBRL (warrants, conversion prices), to fill and cross-check what the text says. */
  xbrl?: XbrlDilutionFacts | null;
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
/** Forms that register one offering unless their Rule 415 box says they are a shelf. */
const ONE_OFFERING_FORM = /^(S-1|F-1)$/;

/** Two reports of one reverse split with the same ratio give days at most this far apart. */
const SAME_SPLIT_DAYS = 10;
/** Rule 479: a registration statement on file nine months without becoming effective may be declared abandoned. */
const ABANDONED_AFTER_MONTHS = 9;
/** Rule 424(b): the prospectus that prices an offering is filed within two business days of effectiveness. */
const PRICING_PROSPECTUS_DAYS = 15;

/**
 * The version of the periodic-report reader whose facts are stored. A stored
 * report read by an older version is read again (from its stored document, or
 * fetched again when it is one of the latest): raise it when the reader changes.
 */
export const PERIODIC_READER_VERSION = 5;

/** 8-K items whose text the sync reads: listing deficiencies (3.01), splits (5.03), financing agreements (1.01) and unregistered sales (3.02). */
const EIGHT_K_ITEMS_READ = new Set(["1.01", "3.01", "3.02", "5.03"]);
/** 8-K items that state financing terms (./documents/eight-k-terms.ts). */
export const FINANCING_ITEMS = ["1.01", "3.02"];
/** The version of the 8-K terms reader whose facts are stored; a stored 8-K read by an older one is read again. */
export const EIGHT_K_READER_VERSION = 3;

/** Registration and prospectus forms whose documents the sync reads (fee exhibit, ATM text), periodic reports, and 8-Ks and EFFECT notices that need their text. */
export function needsDocuments(filing: Filing): "registration" | "takedown" | "eight-k" | "effect" | "periodic" | null {
  // An amended report (10-Q/A …) most often restates one part or adds an exhibit: the original is read.
  if (isPeriodicReport(filing.form) && !filing.form.endsWith("/A")) return "periodic";
  const base = filing.form.replace(/\/A$/, "");
  if (REGISTRATION_FORM.test(filing.form) && !AUTOMATIC_SHELF_FORM.test(base)) return "registration";
  if (POST_EFFECTIVE_FORM.test(filing.form)) return "registration";
  if (TAKEDOWN_FORM.test(filing.form)) return "takedown";
  if (filing.form === "8-K" && itemsOf(filing).some((item) => EIGHT_K_ITEMS_READ.has(item))) return "eight-k";
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
    private_placement_warrants: rest.private_placement_warrants,
    reverse_splits: rest.reverse_splits,
    baby_shelf: rest.baby_shelf,
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

const shiftDay = (day: string, shift: (date: Date) => Date) => isoDay(shift(new Date(`${day}T00:00:00Z`)));
const percentToBps = (percent: number | null) => (percent === null ? null : Math.round(percent * 100));
const countText = (count: number | null) => (count === null ? null : String(count));

/** Quotes by API field, from the reader's evidence by its field; fields without a quote are left out. */
function quotesOf<F extends string>(evidence: Record<string, string>, fields: Partial<Record<F, string | null | undefined>>): Partial<Record<F, string>> | null {
  const out: Partial<Record<F, string>> = {};
  for (const [field, readerField] of Object.entries(fields) as [F, string | null | undefined][]) {
    const quote = readerField ? evidence[readerField] : undefined;
    if (quote && jsonTextBytes(quote) <= SERVED_TEXT_BYTES.quote) out[field] = quote;
  }
  return Object.keys(out).length ? out : null;
}

function byDate(a: Filing, b: Filing): number {
  return a.filedAt < b.filedAt ? -1 : a.filedAt > b.filedAt ? 1 : a.accessionNumber < b.accessionNumber ? -1 : 1;
}

function feeCents(facts: DocumentFacts | undefined): string | null {
  return facts?.fee?.maxAggregateOfferingCents ?? facts?.fee?.totalOfferingCents ?? null;
}

/** The API's offering fields → the reader's fields their quotes are under. */
const OFFERING_QUOTES = {
  offering_type: "offering_type",
  shares: "common_shares_offered",
  price: "price_per_share",
  warrants_issued: "common_warrants_offered",
  warrant_exercise_price: "warrant_exercise_price",
  underwriter: "agent",
  agent_role: "agent_role",
  prefunded_warrants: "prefunded_warrants_offered",
  prefunded_warrant_price: "prefunded_exercise_price",
  net_proceeds: "net_proceeds",
  fee_percent: "discount_or_fee_percent",
  overallotment_shares: "overallotment_shares",
} as const;

/** An offering's terms as a prospectus or registration statement states them. */
function offeringTerms(terms: OfferingTerms | undefined) {
  return {
    shares: countText(terms?.common_shares_offered ?? null),
    price_micros: dollarsToMicrosText(terms?.price_per_share ?? null),
    warrants_issued: countText(terms?.common_warrants_offered ?? null),
    warrant_price_micros: dollarsToMicrosText(terms?.warrant_exercise_price ?? null),
    underwriter: terms?.agent ?? null,
    agent_role: terms?.agent_role ?? null,
    prefunded_warrants: countText(terms?.prefunded_warrants_offered ?? null),
    prefunded_price_micros: dollarsToMicrosText(terms?.prefunded_exercise_price ?? null),
    net_proceeds_cents: dollarsToCentsText(terms?.net_proceeds ?? null),
    fee_bps: percentToBps(terms?.discount_or_fee_percent ?? null),
    overallotment_shares: countText(terms?.overallotment_shares ?? null),
  };
}

function mergeQuotes(...parts: (Record<string, string> | null)[]): Record<string, string> | null {
  const merged: Record<string, string> = Object.assign({}, ...parts.filter((p) => p !== null));
  return Object.keys(merged).length ? merged : null;
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
  /** The periodic reports whose documents were read, oldest first. */
  const periodicReports = filings.flatMap((filing) => {
    const reading = input.documents.get(filing.accessionNumber)?.periodic;
    return reading ? [{ filing, reading }] : [];
  });

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
  /** Registration statements for one offering (S-1/F-1 without a checked Rule 415 box): the offerings pipeline. */
  const pipeline = new Map<string, { group: Filing[]; effect: Filing | null; read: OfferingFacts | undefined }>();
  for (const [fileNumber, group] of groups) {
    const original = group.find((f) => !f.form.endsWith("/A")) ?? group[0]!;
    const form = original.form.replace(/\/A$/, "");
    const read = input.documents.get(original.accessionNumber)?.offering;
    if (read?.terms.offering_type === "not_equity") {
      notes.push(`${form} ${original.accessionNumber} (${fileNumber}) is a debt registration: not offering capacity`);
      continue;
    }
    const resale = isResale(read);
    const automatic = AUTOMATIC_SHELF_FORM.test(form);
    const latestRead = [...group].reverse().map((f) => input.documents.get(f.accessionNumber)?.offering).find((o) => o?.terms.offering_type);
    const rule415 = latestRead?.terms.rule_415 ?? read?.terms.rule_415 ?? null;
    const shelf = ONE_OFFERING_FORM.test(form) ? rule415 : true;
    const effect = effects.get(fileNumber);
    if (!resale && shelf === false) pipeline.set(fileNumber, { group, effect: effect?.filing ?? null, read: latestRead });
    const effectiveAt = automatic ? original.filedAt : (effect?.date ?? null);
    const ended = deregistered.get(fileNumber);
    // Rule 415(a)(5) (SHELF_LIFE_YEARS); an S-1 for one offering is spent sooner
    const lapses = effectiveAt ? shiftDay(effectiveAt, (d) => addYears(d, SHELF_LIFE_YEARS)) : null;
    const expiresAt = ended && (!lapses || ended.filedAt < lapses) ? ended.filedAt : lapses;
    // "Declared effective": the API and the ratings judge expiry (and a deregistration, which ends it) by expires_at on their own day
    const declared = effectiveAt !== null;
    const sized = [...group].reverse().find((f) => feeCents(input.documents.get(f.accessionNumber)) !== null);
    const float = input.facts ? publicFloatOn(input.facts, original.filedAt) : null;
    const endedRead = ended ? input.documents.get(ended.accessionNumber)?.offering : undefined;
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
      is_resale: resale,
      is_shelf: shelf,
      deregistered_at: ended && ended.filedAt >= original.filedAt ? ended.filedAt : null,
      quotes: mergeQuotes(
        quotesOf(read?.evidence ?? {}, { is_resale: resale ? "offering_type" : null }),
        quotesOf(latestRead?.evidence ?? {}, { is_shelf: ONE_OFFERING_FORM.test(form) ? "rule_415" : null }),
        quotesOf(input.documents.get(sized?.accessionNumber ?? "")?.offering?.evidence ?? {}, { offering_amount: automatic ? null : "max_aggregate_offering" }),
        quotesOf(endedRead?.evidence ?? {}, { deregistered_date: "offering_type" }),
      ),
      ...evidence(original),
    };
    dataset.registrations.push(record);
    if (!resale) shelves.set(fileNumber, { effectiveAt, expiresAt, isEffective: declared });
  }

  // ── takedowns (offerings), and ATM programs ──
  const priced = new Map<string, OfferingRecord>();
  /** Instruments as the prospectuses issued them: the ledger follows them through later filings. */
  const issuedInstruments: IssuedInstrument[] = [];
  for (const filing of filings) {
    if (!TAKEDOWN_FORM.test(filing.form)) continue;
    const shelf = filing.fileNumber ? shelves.get(filing.fileNumber) : undefined;
    // A 424B3 is most often a resale or merger prospectus: it is an offering of the company's only when it was read and says so.
    if (filing.form === "424B3" && (!shelf || !input.documents.get(filing.accessionNumber)?.offering)) continue;
    const docs = input.documents.get(filing.accessionNumber);
    const read = docs?.offering;
    if (read && !OFFERING_TYPE_OF[read.terms.offering_type ?? "other"]) continue; // a resale, debt or structured-note prospectus: no offering of the company's
    const terms = read?.terms;
    const said = read?.evidence ?? {};
    const amountField = terms?.gross_proceeds != null ? "gross_proceeds" : terms?.atm_max_amount != null ? "atm_max_amount" : "max_aggregate_offering";
    const amount = terms ? (dollarsToCentsText(terms.gross_proceeds ?? terms.atm_max_amount) ?? feeCents(docs)) : feeCents(docs);
    const atm = terms ? terms.offering_type === "atm" : docs?.atm === true;
    const offering: OfferingRecord = {
      ticker,
      accession_number: filing.accessionNumber,
      offering_date: filing.filedAt,
      offering_type: terms ? OFFERING_TYPE_OF[terms.offering_type!]! : atm ? "atm" : "public_offering",
      form_type: filing.form,
      ...offeringTerms(terms),
      amount_cents: amount,
      file_number: filing.fileNumber,
      status: "priced",
      quotes: quotesOf(said, { ...OFFERING_QUOTES, amount: amount === null ? null : amountField }),
      ...evidence(filing),
    };
    if (terms) {
      const issued = (kind: string, preFunded: boolean, shares: number | null, price: number | null, sharesField: string, priceField: string) => {
        if (shares === null || shares <= 0) return;
        const expires = terms.warrant_expiry && !preFunded ? terms.warrant_expiry : null;
        issuedInstruments.push({
          record: {
            ticker,
            instrument_type: "warrant",
            name: `${kind} of ${filing.filedAt} (${filing.form} ${filing.accessionNumber})`,
            issued_at: filing.filedAt,
            expires_at: expires,
            shares_underlying: String(shares),
            exercise_price_micros: dollarsToMicrosText(price),
            principal_cents: null,
            remaining_cents: null,
            // The prospectus registers what it offers.
            registered: true,
            pre_funded: preFunded,
            exercisable_at: null,
            quotes: quotesOf(said, { shares_underlying: sharesField, registered: sharesField, exercise_price: priceField, expiration_date: expires ? "warrant_expiry" : null }),
            ...evidence(filing),
          },
        });
        issuedInstruments.at(-1)!.record = withParties(issuedInstruments.at(-1)!.record, prospectusParties(terms, said));
      };
      issued("Warrants", false, terms.common_warrants_offered, terms.warrant_exercise_price, "common_warrants_offered", "warrant_exercise_price");
      issued("Pre-funded warrants", true, terms.prefunded_warrants_offered, terms.prefunded_exercise_price, "prefunded_warrants_offered", "prefunded_exercise_price");
      // Sold beside the offering in a concurrent private placement: instruments all the same, not registered.
      (terms.private_placement_warrants ?? []).forEach((warrant, index) => {
        const kind =
          warrant.pre_funded === null ? "Private placement warrants and pre-funded warrants (one count)" : warrant.pre_funded ? "Private placement pre-funded warrants" : "Private placement warrants";
        const at = `private_placement_warrants[${index}]`;
        issuedInstruments.push({
          record: {
            ticker,
            instrument_type: "warrant",
            name: `${kind}${index > 0 && terms.private_placement_warrants.filter((w) => w.pre_funded === warrant.pre_funded).length > 1 ? ` ${index + 1}` : ""} of ${filing.filedAt} (${filing.form} ${filing.accessionNumber})`,
            issued_at: filing.filedAt,
            expires_at: null,
            shares_underlying: String(warrant.shares),
            exercise_price_micros: dollarsToMicrosText(warrant.exercise_price),
            principal_cents: null,
            remaining_cents: null,
            registered: false,
            pre_funded: warrant.pre_funded === true,
            exercisable_at: null,
            quotes: quotesOf(said, { shares_underlying: `${at}.shares`, registered: `${at}.shares`, exercise_price: `${at}.exercise_price` }),
            ...evidence(filing),
          },
        });
      });
    }
    dataset.offerings.push(offering);
    if (filing.fileNumber && !priced.has(filing.fileNumber)) priced.set(filing.fileNumber, offering);
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
        atm_remaining_as_of: null,
        atm_sold_cents: null,
        atm_sold_shares: null,
        atm_report_accession: null,
        atm_report_url: null,
        over_baby_shelf: float ? float.cents >= BABY_SHELF_PUBLIC_FLOAT_LIMIT_CENTS : null,
        public_float_cents: float ? String(float.cents) : null,
        is_effective: effectiveAt !== null && (shelf?.isEffective ?? false),
        is_shelf: true,
        atm_agent: terms?.agent ?? null,
        atm_commission_bps: percentToBps(terms?.discount_or_fee_percent ?? null),
        quotes: quotesOf(said, { offering_amount: amount === null ? null : amountField, atm_agent: "agent", atm_commission_percent: "discount_or_fee_percent" }),
        ...evidence(filing),
      });
    }
  }

  // ── 8-K financings (Items 1.01, 3.02): the instruments they issue, and private placements as offerings ──
  for (const filing of filings) {
    const read = input.documents.get(filing.accessionNumber)?.financing;
    if (!read) continue;
    const { terms, evidence: said } = read;
    const day = terms.agreement_date && terms.agreement_date <= filing.filedAt ? terms.agreement_date : filing.filedAt;
    const label = `${filing.form} ${filing.accessionNumber}`;
    const isoOrNull = (text: string | null) => (text && /^\d{4}-\d{2}-\d{2}$/.test(text) && text >= day ? text : null);
    const warrantRow = (w: EightKWarrant, at: string, kind: string): IssuedInstrument | null => {
      if (w.existing || w.shares === null || w.shares <= 0) return null;
      const expires = w.pre_funded ? null : isoOrNull(w.expiry);
      const exercisable = isoOrNull(w.exercisable);
      return {
        series: w.series ? seriesKey(`Series ${w.series} warrants`) : null,
        record: {
          ticker,
          instrument_type: "warrant",
          name: `${w.series ? `Series ${w.series} ${kind.toLowerCase()}` : kind} of ${day} (${label})`,
          issued_at: day,
          expires_at: expires,
          shares_underlying: String(w.shares),
          exercise_price_micros: dollarsToMicrosText(w.exercise_price),
          principal_cents: null,
          remaining_cents: null,
          registered: terms.registered,
          pre_funded: w.pre_funded,
          exercisable_at: exercisable,
          anti_dilution: terms.anti_dilution,
          quotes: quotesOf(said, {
            shares_underlying: `${at}.shares`,
            exercise_price: `${at}.exercise_price`,
            expiration_date: expires ? `${at}.expiry` : null,
            exercisable_date: exercisable ? `${at}.exercisable` : null,
            registered: terms.registered === null ? null : "registered",
            anti_dilution: terms.anti_dilution ? "anti_dilution" : null,
          }),
          ...evidence(filing),
        },
      };
    };
    terms.warrants.forEach((w, i) => {
      const row = warrantRow(w, `warrants[${i}]`, w.pre_funded ? "Pre-funded warrants" : w.inducement ? "Inducement warrants" : "Warrants");
      if (row) issuedInstruments.push({ ...row, record: withParties(row.record, eightKParties(terms, said)) });
    });
    terms.agent_warrants.forEach((w, i) => {
      const row = warrantRow(w, `agent_warrants[${i}]`, "Placement agent warrants");
      if (!row) return;
      // the agent's warrants are its compensation, never registered by the financing's prospectus: the financing's words say nothing of them
      const { registered: _financing, ...quotes } = row.record.quotes ?? {};
      void _financing;
      const record = { ...row.record, registered: false, quotes: Object.keys(quotes).length ? quotes : null };
      issuedInstruments.push({ ...row, record: withParties(record, agentWarrantParties(terms, said, `agent_warrants[${i}]`)) });
    });
    terms.convertible_notes.forEach((note, i) => {
      if (note.principal === null) return;
      const at = `convertible_notes[${i}]`;
      const maturity = isoOrNull(note.maturity);
      const principal = dollarsToCentsText(note.principal);
      const price = dollarsToMicrosText(note.conversion_price);
      issuedInstruments.push({
        record: {
          ticker,
          instrument_type: "convertible_note",
          name: `Convertible note of ${day} (${label})`,
          issued_at: day,
          expires_at: maturity,
          // the principal over the fixed conversion price, both stated
          shares_underlying: principal !== null && price !== null && BigInt(price) > 0n ? String((BigInt(principal) * 10_000n) / BigInt(price)) : null,
          exercise_price_micros: price,
          conversion_price_micros: price,
          principal_cents: principal,
          remaining_cents: principal,
          registered: terms.registered,
          pre_funded: false,
          exercisable_at: null,
          anti_dilution: terms.anti_dilution,
          quotes: quotesOf(said, {
            principal_amount: `${at}.principal`,
            remaining_amount: `${at}.principal`,
            conversion_price: `${at}.conversion_price`,
            exercise_price: `${at}.conversion_price`,
            expiration_date: maturity ? `${at}.maturity` : null,
          }),
          ...evidence(filing),
        },
      });
      issuedInstruments.at(-1)!.record = withParties(issuedInstruments.at(-1)!.record, eightKParties(terms, said));
    });
    const line = terms.equity_line;
    if (line && line.commitment !== null) {
      issuedInstruments.push({
        series: partyKey(line.counterparty),
        record: {
          ticker,
          instrument_type: "equity_line",
          name: `Equity line${line.counterparty ? ` with ${line.counterparty}` : ""} of ${day} (${label})`,
          issued_at: day,
          expires_at: null,
          shares_underlying: null,
          exercise_price_micros: null,
          principal_cents: dollarsToCentsText(line.commitment),
          remaining_cents: dollarsToCentsText(line.commitment),
          registered: null,
          pre_funded: false,
          exercisable_at: null,
          quotes: quotesOf(said, { principal_amount: "equity_line.commitment", remaining_amount: "equity_line.commitment" }),
          ...evidence(filing),
        },
      });
      issuedInstruments.at(-1)!.record = withParties(issuedInstruments.at(-1)!.record, equityLineParties(terms, said));
    }
    // A private placement of shares (PIPE) has no prospectus: the 8-K is its record.
    const sold = terms.common_shares !== null || terms.gross_proceeds !== null || terms.warrants.some((w) => w.pre_funded && !w.existing);
    if (terms.registered === false && sold && (terms.agreement_kind === "securities_purchase" || terms.agreement_kind === "placement_agency")) {
      const common = terms.warrants.filter((w) => !w.existing && !w.pre_funded && w.shares !== null);
      const prefunded = terms.warrants.filter((w) => !w.existing && w.pre_funded && w.shares !== null);
      const total = (list: EightKWarrant[]) => (list.length ? String(list.reduce((n, w) => n + w.shares!, 0)) : null);
      const onePrice = (list: EightKWarrant[]) => (list.length && list.every((w) => w.exercise_price === list[0]!.exercise_price) ? dollarsToMicrosText(list[0]!.exercise_price) : null);
      dataset.offerings.push({
        ticker,
        accession_number: filing.accessionNumber,
        offering_date: day,
        offering_type: "pipe",
        form_type: filing.form,
        shares: countText(terms.common_shares),
        price_micros: dollarsToMicrosText(terms.price_per_share),
        amount_cents: dollarsToCentsText(terms.gross_proceeds),
        warrants_issued: total(common),
        warrant_price_micros: onePrice(common),
        underwriter: terms.placement_agent,
        agent_role: terms.agent_role === "sales_agent" ? null : terms.agent_role,
        prefunded_warrants: total(prefunded),
        prefunded_price_micros: onePrice(prefunded),
        file_number: null,
        status: "priced",
        quotes: quotesOf(said, {
          offering_type: "registered",
          shares: "common_shares",
          price: "price_per_share",
          amount: "gross_proceeds",
          warrants_issued: common.length === 1 ? "warrants[0].shares" : null,
          underwriter: "placement_agent",
          agent_role: "placement_agent",
        }),
        ...evidence(filing),
      });
    }
  }

  // ── the pipeline: registration statements for one offering ──
  const withdrawals = new Map(filings.filter((f) => f.form === "RW" && f.fileNumber).map((f) => [f.fileNumber!, f]));
  for (const [fileNumber, { group, effect, read }] of pipeline) {
    const sizes = group.map((f) => feeCents(input.documents.get(f.accessionNumber))).filter((c): c is string => c !== null);
    const sizedFirst = group.find((f) => feeCents(input.documents.get(f.accessionNumber)) !== null);
    const sizedLast = [...group].reverse().find((f) => feeCents(input.documents.get(f.accessionNumber)) !== null);
    const anticipated = sizes[0] ?? null;
    const revised = sizes.length > 1 && sizes.at(-1) !== anticipated ? sizes.at(-1)! : null;
    const sizeQuotes = mergeQuotes(
      quotesOf(input.documents.get(sizedFirst?.accessionNumber ?? "")?.offering?.evidence ?? {}, { anticipated_amount: anticipated ? "max_aggregate_offering" : null }),
      quotesOf(input.documents.get(sizedLast?.accessionNumber ?? "")?.offering?.evidence ?? {}, { revised_anticipated_amount: revised ? "max_aggregate_offering" : null }),
    );
    const takedown = priced.get(fileNumber);
    if (takedown) {
      takedown.anticipated_amount_cents = anticipated;
      takedown.revised_amount_cents = revised;
      takedown.quotes = mergeQuotes(takedown.quotes ?? null, sizeQuotes);
      continue;
    }
    const original = group[0]!;
    const latest = group.at(-1)!;
    const type = read?.terms.offering_type ? OFFERING_TYPE_OF[read.terms.offering_type] : undefined;
    const withdrawn = withdrawals.get(fileNumber);
    const abandoned = effect === null && shiftDay(latest.filedAt, (d) => addMonths(d, ABANDONED_AFTER_MONTHS)) < input.today;
    const unpricedAfterEffect = effect !== null && shiftDay(effect.filedAt, (d) => addDays(d, PRICING_PROSPECTUS_DAYS)) < input.today;
    if (!type || (!withdrawn && (abandoned || unpricedAfterEffect))) {
      const why = !type ? "its offering type was not read" : abandoned ? `not effective ${ABANDONED_AFTER_MONTHS} months after its last amendment` : "effective, but no prospectus priced it";
      notes.push(`${original.form} ${original.accessionNumber} (${fileNumber}): not listed as a pending offering: ${why}`);
      continue;
    }
    dataset.offerings.push({
      ticker,
      accession_number: original.accessionNumber,
      offering_date: original.filedAt,
      offering_type: type,
      form_type: original.form,
      ...offeringTerms(read?.terms),
      amount_cents: null,
      file_number: fileNumber,
      status: withdrawn ? "withdrawn" : "pending",
      withdrawn_at: withdrawn && withdrawn.filedAt >= original.filedAt ? withdrawn.filedAt : null,
      anticipated_amount_cents: anticipated,
      revised_amount_cents: revised,
      quotes: mergeQuotes(quotesOf(read?.evidence ?? {}, OFFERING_QUOTES), sizeQuotes),
      ...evidence(latest),
    });
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

  // ── reverse splits: an 8-K's announcement, else the first prospectus that recites the split ──
  const splits = new Map<string, { record: ReverseSplitRecord; fromEightK: boolean }>();
  const addSplit = (filing: Filing, ratio: string, effectiveDate: string | null, quotes: Record<string, string> | null, fromEightK: boolean) => {
    const shares = splitShares(ratio);
    if (!shares || !effectiveDate) return;
    // One split told by several filings, whose days may differ by a few (announced, effective, first traded): the 8-K's wins.
    const sameSplit = [...splits.entries()].find(
      ([day, s]) => day === effectiveDate || (s.record.old_shares === shares.oldShares && s.record.new_shares === shares.newShares && Math.abs(Date.parse(day) - Date.parse(effectiveDate)) <= SAME_SPLIT_DAYS * 86_400_000),
    );
    if (sameSplit && (sameSplit[1].fromEightK || !fromEightK)) return;
    if (sameSplit) splits.delete(sameSplit[0]);
    splits.set(effectiveDate, {
      fromEightK,
      record: { ticker, effective_date: effectiveDate, old_shares: shares.oldShares, new_shares: shares.newShares, quotes, ...evidence(filing) },
    });
  };
  for (const filing of filings) {
    const said = input.documents.get(filing.accessionNumber);
    for (const split of said?.reverseSplits ?? []) {
      addSplit(filing, split.ratio, split.effectiveDate, mergeQuotes({ ratio: split.ratioQuote }, split.dateQuote ? { effective_date: split.dateQuote } : null), true);
    }
    (said?.offering?.terms.reverse_splits ?? []).forEach((split, index) => {
      const at = `reverse_splits[${index}]`;
      addSplit(filing, split.ratio, split.effective_date, quotesOf(said!.offering!.evidence, { ratio: `${at}.ratio`, effective_date: `${at}.effective_date` }), false);
    });
  }
  for (const { filing, reading } of periodicReports) {
    reading.report.reverse_splits.forEach((split, index) => {
      const at = `reverse_splits[${index}]`;
      addSplit(filing, split.ratio, split.effective_date, quotesOf(reading.evidence, { ratio: `${at}.ratio`, effective_date: `${at}.effective_date` }), false);
    });
  }
  dataset.reverse_splits.push(...[...splits.values()].map((s) => s.record).sort((a, b) => (a.effective_date < b.effective_date ? -1 : 1)));

  // ── the instrument ledger: what the prospectuses issued, followed through the periodic reports ──
  // 8-Ks that state instruments exercised, converted or repaid in full close them in the ledger
  const closings = filings.flatMap((filing) => {
    const read = input.documents.get(filing.accessionNumber)?.financing;
    return read?.terms.closings?.length ? [{ filing, closings: read.terms.closings, evidence: read.evidence }] : [];
  });
  const ledger = buildLedger({ ticker, today: input.today, issued: issuedInstruments, reports: periodicReports, closings, splits: dataset.reverse_splits, evidence });
  dataset.dilution_instruments.push(...ledger.instruments);
  dataset.instrument_states.push(...ledger.states);
  notes.push(...ledger.notes);
  if (input.xbrl) crossCheckWithXbrl(ticker, dataset.dilution_instruments, input.xbrl, dataset.reverse_splits, input.today, cik);
  fillAtmRemaining(dataset.registrations, periodicReports, cik, notes);
  fillStatedBabyShelf(dataset.registrations, filings, input.documents);

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
  fillGoingConcern(ticker, dataset.financial_reports, periodicReports, evidence);

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
      quotes: quotesOf(input.documents.get(latestStated.accessionNumber)!.offering!.evidence, { outstanding: "shares_outstanding_after" }),
      ...evidence(latestStated),
    });
  }
  // … and as the latest periodic report's cover states them (a filer without XBRL facts, an IFRS filer), on the day the cover gives.
  const cover = [...periodicReports].reverse().find((r) => r.reading.report.shares_outstanding?.as_of);
  const coverShares = cover?.reading.report.shares_outstanding;
  if (cover && coverShares?.as_of && coverShares.as_of <= cover.filing.filedAt && !dataset.float_snapshots.some((s) => s.as_of >= coverShares.as_of!)) {
    dataset.float_snapshots.push({
      ticker,
      as_of: coverShares.as_of,
      float_shares: null,
      outstanding_shares: String(coverShares.value),
      public_float_cents: null,
      public_float_as_of: null,
      quotes: quotesOf(cover.reading.evidence, { outstanding: "shares_outstanding.value" }),
      ...evidence(cover.filing),
    });
  }

  return { dataset, notes };
}

/** A report's ATM program is this registration's when what both state agrees (agent, size) and at least one of them is stated on both sides. */
function sameAtmProgram(program: AtmProgram, registration: RegistrationRecord): boolean {
  const agents = [partyKey(program.agent), partyKey(registration.atm_agent)];
  const sizes = [program.max_amount === null ? null : String(Math.round(program.max_amount * 100)), registration.offering_amount_cents == null ? null : String(registration.offering_amount_cents)];
  const agentsAgree = agents[0] !== null && agents[1] !== null ? agents[0] === agents[1] : null;
  const sizesAgree = sizes[0] !== null && sizes[1] !== null ? sizes[0] === sizes[1] : null;
  return agentsAgree !== false && sizesAgree !== false && (agentsAgree === true || sizesAgree === true);
}

/**
 * What each at-the-market program has left: from the latest periodic report
 * filed after its prospectus that states it for that program (its remaining
 * amount, else its size less its gross sales to date, both stated), with its
 * sales to date; until a report does, the program's size as of its prospectus.
 * A report whose programs cannot be told apart (two of one agent and size)
 * says nothing of either.
 */
function fillAtmRemaining(registrations: RegistrationRecord[], reports: PeriodicReportFiled[], cik: string, notes: string[]): void {
  /** A report's program goes to one registration: the newest it matches (a newer supplement of the same agent is the program the report speaks of). */
  const used = new Set<string>();
  const newestFirst = registrations.filter((r) => r.is_atm).sort((a, b) => (a.filed_at < b.filed_at ? 1 : a.filed_at > b.filed_at ? -1 : a.accession_number < b.accession_number ? 1 : -1));
  for (const registration of newestFirst) {
    let found: { filing: Filing; program: AtmProgram; at: string; evidence: Record<string, string>; remainingCents: string | null } | null = null;
    for (const { filing, reading } of reports) {
      if (filing.filedAt <= registration.filed_at) continue;
      const programs = reading.report.atm_programs
        .map((program, i) => ({ program, i }))
        .filter(({ program, i }) => !used.has(`${filing.accessionNumber}#${i}`) && sameAtmProgram(program, registration));
      if (programs.length > 1) notes.push(`${filing.form} ${filing.accessionNumber}: ${programs.length} ATM programs match ${registration.accession_number}: none is used`);
      if (programs.length !== 1) continue;
      const { program, i } = programs[0]!;
      used.add(`${filing.accessionNumber}#${i}`);
      const stated = program.remaining ?? (program.max_amount !== null && program.gross_sold_to_date !== null ? program.max_amount - program.gross_sold_to_date : null);
      if (stated === null && program.gross_sold_to_date === null && program.shares_sold_to_date === null) continue;
      const remainingCents = stated === null ? null : String(Math.max(0, Math.round(stated * 100)));
      if (remainingCents !== null && registration.offering_amount_cents != null && BigInt(remainingCents) > BigInt(registration.offering_amount_cents)) {
        notes.push(`${filing.form} ${filing.accessionNumber}: ATM remaining ${stated} exceeds the program ${registration.accession_number}'s size: not used`);
        continue;
      }
      found = { filing, program, at: `atm_programs[${i}]`, evidence: reading.evidence, remainingCents };
    }
    if (!found) {
      if (registration.offering_amount_cents != null) {
        registration.atm_remaining_cents = registration.offering_amount_cents;
        registration.atm_remaining_as_of = registration.filed_at;
        const sizeQuote = registration.quotes?.offering_amount;
        if (sizeQuote) registration.quotes = { ...registration.quotes, amount_remaining_atm: sizeQuote };
      }
      continue;
    }
    const { filing, program, at, evidence, remainingCents } = found;
    registration.atm_remaining_cents = remainingCents;
    registration.atm_remaining_as_of = program.as_of ?? found.filing.reportDate ?? filing.filedAt;
    registration.atm_sold_cents = dollarsToCentsText(program.gross_sold_to_date);
    registration.atm_sold_shares = countText(program.shares_sold_to_date);
    registration.atm_report_accession = filing.accessionNumber;
    registration.atm_report_url = filingUrl(cik, filing.accessionNumber);
    registration.quotes = mergeQuotes(
      registration.quotes ?? null,
      quotesOf(evidence, {
        amount_remaining_atm: remainingCents === null ? null : program.remaining !== null ? `${at}.remaining` : `${at}.gross_sold_to_date`,
        atm_sold_amount: `${at}.gross_sold_to_date`,
        atm_sold_shares: `${at}.shares_sold_to_date`,
      }),
    );
  }
}

/** XBRL's warrant count is read only when it is this recent: an old tag says nothing of today. */
const XBRL_WARRANTS_MONTHS = 15;

/** A cross-check as the record keeps it; null when nothing was tagged for that day (nothing to compare). */
function xbrlCheckOf(check: CrossCheck<{ accession: string }>, value: number | null): XbrlCheck | null {
  if (check.verdict === "not_tagged") return null;
  let note = check.note;
  while (jsonTextBytes(note) > SERVED_TEXT_BYTES.xbrlNote) note = note.slice(0, -2) + "…";
  return { verdict: check.verdict, used: check.used, value, accession: check.xbrl?.accession ?? null, note };
}

/**
 * The text's figures beside what the company tags in XBRL as of the same day
 * (./xbrl-dilution.ts): the warrant total, and the conversion price of a
 * company's one convertible note. The text is used whenever it states the
 * figure (its words are quoted); the check says whether XBRL agrees. XBRL
 * fills a price the text leaves out, and gives the warrant total when no
 * filing's text gives any warrant (from a recent tag only).
 */
function crossCheckWithXbrl(ticker: string, instruments: DilutionInstrumentRecord[], xbrl: XbrlDilutionFacts, reverseSplits: ReverseSplitRecord[], today: string, cik: string): void {
  const total = instruments.find((i) => i.reported_total);
  if (total?.as_of) {
    const stated = (value: string | number | null | undefined) => (value === null || value === undefined ? null : Number(value));
    const shares = stated(total.stated_shares_underlying ?? total.shares_underlying);
    const priceMicros = stated(total.stated_price_micros ?? total.exercise_price_micros);
    const check = crossCheckWarrantTotal({ shares, price: priceMicros === null ? null : priceMicros / 1_000_000, asOf: total.as_of }, xbrl);
    total.xbrl_check = xbrlCheckOf(check, check.xbrl?.outstanding ?? check.xbrl?.exercisePrice ?? null);
    const tagged = check.xbrl?.exercisePrice;
    if (priceMicros === null && check.verdict === "agrees" && tagged != null && !total.split_adjustment) total.exercise_price_micros = dollarsToMicrosText(tagged);
  } else if (!instruments.some((i) => i.instrument_type === "warrant" && i.status === "outstanding")) {
    const latest = [...xbrl.warrants].filter((w) => w.outstanding !== null && w.outstanding > 0).sort((a, b) => (a.periodEnd < b.periodEnd ? 1 : -1))[0];
    const recent = latest && shiftDay(latest.periodEnd, (d) => addMonths(d, XBRL_WARRANTS_MONTHS)) >= today;
    if (latest && recent && /^\d{10}-\d{2}-\d{6}$/.test(latest.accession)) {
      const check = crossCheckWarrantTotal({ shares: null, price: null, asOf: latest.periodEnd }, xbrl);
      // the tag is in the basis of the day it was filed: the reverse splits since apply
      const splits = reverseSplits.map((s) => ({ effectiveDate: s.effective_date, oldShares: BigInt(s.old_shares), newShares: BigInt(s.new_shares ?? 1) }));
      const factor = splitFactor(splits, latest.filed, today);
      const ratio = isNoSplit(factor) ? null : splitRatio(factor);
      if (!isNoSplit(factor) && ratio === null) return;
      const statedShares = BigInt(Math.round(latest.outstanding!));
      const statedPrice = latest.exercisePrice !== null && latest.exercisePriceUnit === "USD/shares" ? BigInt(Math.round(latest.exercisePrice * 1_000_000)) : null;
      instruments.push({
        ticker,
        instrument_type: "warrant",
        name: "Warrants outstanding in total, as the XBRL facts tag them",
        issued_at: latest.periodEnd,
        expires_at: null,
        shares_underlying: String(adjustShares(statedShares, factor)),
        exercise_price_micros: statedPrice === null ? null : String(adjustPrice(statedPrice, factor)),
        stated_shares_underlying: ratio ? String(statedShares) : null,
        stated_price_micros: ratio && statedPrice !== null ? String(statedPrice) : null,
        split_adjustment: ratio,
        principal_cents: null,
        remaining_cents: null,
        registered: null,
        pre_funded: false,
        exercisable_at: null,
        status: "outstanding",
        as_of: latest.periodEnd,
        reported_total: true,
        xbrl_check: xbrlCheckOf(check, latest.outstanding),
        quotes: null,
        source_accession: latest.accession,
        source_form: latest.form,
        source_filed_at: latest.filed,
        source_url: filingUrl(cik, latest.accession),
      });
    }
  }
  const notes = instruments.filter((i) => i.instrument_type === "convertible_note" && i.status === "outstanding" && i.as_of);
  if (notes.length === 1) {
    const note = notes[0]!;
    const priceMicros = note.stated_price_micros ?? note.conversion_price_micros;
    const check = crossCheckConversionPrice({ price: priceMicros == null ? null : Number(priceMicros) / 1_000_000, asOf: note.as_of! }, xbrl);
    note.xbrl_check = xbrlCheckOf(check, check.xbrl?.conversionPrice ?? null);
  }
}

/**
 * The baby-shelf arithmetic (General Instruction I.B.6) the latest filing
 * under a registration states, on that registration (a shelf, or an ATM
 * program from its supplement on): what may still be sold, else one third of
 * the float less what was sold when both are stated; what was sold in the
 * prior 12 months; and the public float it states, which wins over the XBRL
 * figure. Each with its sentence.
 */
function fillStatedBabyShelf(registrations: RegistrationRecord[], filings: Filing[], documents: ReadonlyMap<string, DocumentFacts>): void {
  for (const registration of registrations) {
    if (registration.is_resale) continue;
    const stated = [...filings]
      .reverse()
      .find((f) => f.fileNumber === registration.file_number && f.filedAt >= registration.filed_at && documents.get(f.accessionNumber)?.offering?.terms.baby_shelf);
    const read = stated ? documents.get(stated.accessionNumber)!.offering! : null;
    const shelf = read?.terms.baby_shelf;
    if (!stated || !read || !shelf) continue;
    const remaining = shelf.remaining ?? (shelf.one_third_limit !== null && shelf.sold_prior_12_months !== null ? Math.max(0, shelf.one_third_limit - shelf.sold_prior_12_months) : null);
    registration.baby_shelf_capacity_cents = dollarsToCentsText(remaining);
    registration.baby_shelf_sold_cents = dollarsToCentsText(shelf.sold_prior_12_months);
    // the day the document states them for; a base prospectus recited in a later supplement keeps its own older day
    registration.baby_shelf_as_of = (remaining !== null || shelf.sold_prior_12_months !== null) && shelf.as_of && shelf.as_of <= stated.filedAt ? shelf.as_of : null;
    if (shelf.public_float !== null) {
      registration.public_float_cents = dollarsToCentsText(shelf.public_float);
      registration.over_baby_shelf = shelf.public_float * 100 >= Number(BABY_SHELF_PUBLIC_FLOAT_LIMIT_CENTS);
    }
    registration.quotes = mergeQuotes(
      registration.quotes ?? null,
      quotesOf(read.evidence, {
        baby_shelf_capacity: remaining === null ? null : shelf.remaining !== null ? "baby_shelf.remaining" : "baby_shelf.one_third_limit",
        baby_shelf_sold_12m: "baby_shelf.sold_prior_12_months",
        public_float: "baby_shelf.public_float",
      }),
    );
  }
}

/**
 * Going-concern doubt (or that the notes state none), from each periodic
 * report onto the financial report of the same period (the latest filed, when
 * amended), with the report's accession and quote. A period the XBRL facts
 * give no financial report for (a filer without XBRL facts for it, an IFRS
 * filer) gets one from the periodic report itself: its period end, its filing
 * day and filing, and the statement; cash, burn and debt null, since the text
 * reader reads none (the ratings take cash from the latest report that has it).
 */
function fillGoingConcern(ticker: string, reports: FinancialReportRecord[], periodic: readonly PeriodicReportFiled[], evidence: (filing: Filing) => Evidence): void {
  /** The reports made here from a periodic report's text: a later filing for the period is their source. */
  const fromText = new Set<FinancialReportRecord>();
  for (const { filing, reading } of periodic) {
    const doubt = reading.report.going_concern;
    const period = reading.report.period ?? filing.reportDate;
    if (doubt === null || !period) continue;
    let financial = reports.find((f) => f.period_end === period);
    if (!financial) {
      // a period ending after the filing is no period of that filing's report
      if (period > filing.filedAt) continue;
      financial = { ticker, period_end: period, filed_at: filing.filedAt, cash_cents: null, quarterly_burn_cents: null, operating_cash_flow_cents: null, debt_cents: null, reg_sho: null, ...evidence(filing) };
      reports.push(financial);
      fromText.add(financial);
    } else if (fromText.has(financial)) Object.assign(financial, { filed_at: filing.filedAt, ...evidence(filing) });
    financial.going_concern = doubt;
    financial.going_concern_accession = filing.accessionNumber;
    financial.quotes = doubt ? quotesOf(reading.evidence, { going_concern: "going_concern" }) : null;
  }
}
