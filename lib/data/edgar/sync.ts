/**
 * The EDGAR sync: for each ticker, read its filing index and XBRL facts from
 * an EDGAR source (SEC, a base URL, or a folder in EDGAR's layout; see
 * ./source.ts), read the documents that say what the index cannot (fee
 * exhibits, 424B texts, Item 3.01 8-Ks), map them to records (./map.ts) and
 * load them through the import pipeline, one transaction per ticker.
 *
 *   const report = await syncEdgar(prisma, { source, tickers: ["TSLA"] });
 *
 * - Incremental: the filing index and facts are asked for with the
 *   validators of the last run (ETag / Last-Modified); when neither changed,
 *   the ticker is done after two conditional requests. What a filing's
 *   documents said is stored per accession (edgar_filing_facts), so each
 *   document is read once, ever.
 * - Idempotent: the import writes only what differs, and records this sync
 *   wrote earlier that the filings no longer give are removed; a second run
 *   over the same filings changes nothing.
 * - One ticker's failure is reported and the others go on; every applied
 *   run is a data_loads row (the console's Data page).
 */
import type { Prisma, PrismaClient } from "@/lib/db";
import { computeDilutionRating } from "@/lib/ratings/engine";
import type { DilutionRating } from "@/lib/ratings/types";
import { addYears, isoDay, utcDayStart } from "@/lib/utils/dates";
import { formatImportError, importDataset, type KindCounts } from "../import";
import { IMPORT_KINDS, type ImportKind } from "../import/schema";
import { recordDataLoad, type LoadActor } from "../import/loads";
import { loadRatingInputs } from "../records/rating-inputs";
import { bumpDatasetVersion, notifyDataChanged } from "../version";
import { parseEffectNotice } from "./documents/effect-notice";
import { classifyDeficiency, complianceDeadline, regainsCompliance } from "./documents/eight-k";
import { feeExhibitCents } from "./documents/fee-table";
import { parseFilingIndex, pickFeeExhibit, pickPressRelease } from "./documents/filing-index";
import { readEightKTerms } from "./documents/eight-k-terms";
import { parseXbrlDilution, type XbrlDilutionFacts } from "./xbrl-dilution";
import { readAnnouncedReverseSplits } from "./documents/reverse-splits";
import { htmlToText } from "./documents/plain-text";
import { isAtmOffering } from "./documents/prospectus";
import { parseCompanyFacts, type CompanyFacts } from "./facts";
import {
  archivePath,
  companyFactsPath,
  isListedExchange,
  parseSubmissions,
  parseSubmissionsPage,
  parseTickers,
  storedDocumentName,
  submissionsPagePath,
  submissionsPath,
  TICKERS_EXCHANGE_PATH,
  TICKERS_PATH,
  type CompanyIndex,
  type Filing,
  type ListedCompany,
} from "./filings";
import { DOCUMENT_READER_VERSION, EIGHT_K_READER_VERSION, FINANCING_ITEMS, documentFactsOf, mapCompany, needsDocuments, PERIODIC_READER_VERSION, type DocumentFacts } from "./map";
import { readPeriodicReport } from "./documents/periodic-report";
import { inspectFiling } from "./documents/inspect";
import { readSubmission } from "./documents/submission";
import { gunzipSync, gzipSync } from "node:zlib";
import type { EdgarSource, Fetched, Validators } from "./source";

export interface SyncOptions {
  /** Tickers to sync; with `all`, every company listed on Nasdaq, NYSE and NYSE American. */
  tickers?: string[];
  all?: boolean;
  /** Documents are read for filings filed on or after this day ("YYYY-MM-DD"); default: three years before today. */
  since?: string;
  dryRun?: boolean;
  /** Drop the sample dataset first (a dry run only says it would). */
  removeSample?: boolean;
  /** Tickers synced at once (the source keeps to SEC's 10 requests a second whatever this is). */
  concurrency?: number;
  now?: Date;
  actor?: LoadActor;
}

export type TickerStatus = "changed" | "unchanged" | "not_modified" | "failed";

export interface TickerReport {
  ticker: string;
  cik: string | null;
  status: TickerStatus;
  /** Per kind: received, created, updated, unchanged, and removed (records of an earlier sync the filings no longer give). */
  counts: Partial<Record<ImportKind, KindCounts>>;
  /** An older page of the filing index could not be read: the history before it is missing. */
  partial: boolean;
  notes: string[];
  error?: string;
  /** The ratings computed from the synced facts (not on a dry run or a failure). */
  rating?: DilutionRating;
}

export interface SyncReport {
  source: string;
  dryRun: boolean;
  since: string;
  startedAt: Date;
  durationMs: number;
  /** Requests sent (HTTP) or files read (folder). */
  requests: number;
  removedSample: number;
  tickers: TickerReport[];
  /** Records created, updated or removed over all tickers. */
  changed: number;
  failed: number;
}

const DEFAULT_CONCURRENCY = 4;
const DOCUMENT_YEARS = 3;
/**
 * Periodic reports fetched by a sync: the latest few of the company's (a
 * 10-K and the 10-Qs since, or a 20-F or two). Older ones count once they are
 * stored, so the ledger's history grows sync by sync without fetching a
 * company's every report each time.
 */
const PERIODIC_REPORTS_FETCHED = 4;

export class EdgarSyncError extends Error {}

function defaultSince(now: Date): string {
  return isoDay(addYears(utcDayStart(now), -DOCUMENT_YEARS));
}

const text = (fetched: Fetched): string | null => (fetched.status === "ok" ? fetched.body.toString("utf8") : null);

export async function syncEdgar(prisma: PrismaClient, source: EdgarSource, options: SyncOptions): Promise<SyncReport> {
  const startedAt = options.now ?? new Date();
  const clock = performance.now();
  const dryRun = options.dryRun ?? false;
  const since = options.since ?? defaultSince(startedAt);
  let removedSample = 0;
  if (options.removeSample) {
    removedSample = dryRun ? await prisma.company.count({ where: { isSample: true } }) : await removeSampleData(prisma, options.actor ?? {});
  }

  const listed = await readTickers(source, options.all ?? false);
  const wanted = options.all
    ? [...listed.values()].filter((c) => isListedExchange(c.exchange)).map((c) => c.ticker)
    : [...new Set((options.tickers ?? []).map((t) => t.trim().toUpperCase()).filter(Boolean))];
  if (wanted.length === 0) throw new EdgarSyncError(options.all ? "The tickers file lists no company on Nasdaq, NYSE or NYSE American." : "Name the tickers to sync (--tickers TSLA,ABEO) or use --all.");

  const results: TickerReport[] = new Array(wanted.length);
  let next = 0;
  const worker = async () => {
    while (next < wanted.length) {
      const i = next++;
      results[i] = await syncTicker(prisma, source, wanted[i]!, listed.get(wanted[i]!), { since, dryRun, today: isoDay(startedAt) });
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, wanted.length) }, worker));

  if (!dryRun) await attachRatings(prisma, results, startedAt);
  const report: SyncReport = {
    source: source.description,
    dryRun,
    since,
    startedAt,
    durationMs: Math.round(performance.now() - clock),
    requests: source.requests,
    removedSample,
    tickers: results,
    changed: results.reduce((n, r) => n + changedIn(r.counts), 0),
    failed: results.filter((r) => r.status === "failed").length,
  };
  if (!dryRun) await recordSync(prisma, report, options.actor ?? {});
  return report;
}

function changedIn(counts: Partial<Record<ImportKind, KindCounts>>): number {
  return Object.values(counts).reduce((n, c) => n + c.created + c.updated + (c.removed ?? 0), 0);
}

async function readTickers(source: EdgarSource, needExchange: boolean): Promise<Map<string, ListedCompany>> {
  let fetched = await source.get(TICKERS_EXCHANGE_PATH);
  if (fetched.status !== "ok") {
    if (needExchange) throw new EdgarSyncError(`--all needs ${TICKERS_EXCHANGE_PATH} (which names each company's exchange); the source has none.`);
    fetched = await source.get(TICKERS_PATH);
  }
  const body = text(fetched);
  if (body === null) throw new EdgarSyncError(`The source has no tickers file (${TICKERS_EXCHANGE_PATH} or ${TICKERS_PATH}).`);
  const map = new Map<string, ListedCompany>();
  for (const company of parseTickers(body)) if (!map.has(company.ticker)) map.set(company.ticker, company);
  return map;
}

async function syncTicker(
  prisma: PrismaClient,
  source: EdgarSource,
  ticker: string,
  listed: ListedCompany | undefined,
  { since, dryRun, today }: { since: string; dryRun: boolean; today: string },
): Promise<TickerReport> {
  const report: TickerReport = { ticker, cik: listed?.cik ?? null, status: "failed", counts: {}, partial: false, notes: [] };
  try {
    if (!listed) throw new EdgarSyncError(`${ticker} is not in SEC's tickers file`);
    const existing = await prisma.company.findUnique({ where: { ticker }, select: { isSample: true } });
    if (existing?.isSample) {
      throw new EdgarSyncError(`${ticker} is a sample company here; drop the sample data first (npm run data:remove-sample, or --remove-sample)`);
    }
    const cik = listed.cik;
    const state = await prisma.edgarCompany.findUnique({ where: { cik } });
    const validators = (etag: string | null | undefined, lastModified: string | null | undefined): Validators | undefined =>
      etag || lastModified ? { etag, lastModified } : undefined;

    let submissions = await source.get(submissionsPath(cik), validators(state?.submissionsEtag, state?.submissionsLastModified));
    let facts = await source.get(companyFactsPath(cik), validators(state?.factsEtag, state?.factsLastModified));
    if (submissions.status === "not-modified" && facts.status === "not-modified") {
      report.status = "not_modified";
      report.partial = state?.partial ?? false;
      return report;
    }
    // One of the two changed: both are needed to map the company.
    if (submissions.status === "not-modified") submissions = await source.get(submissionsPath(cik));
    if (facts.status === "not-modified") facts = await source.get(companyFactsPath(cik));
    const submissionsText = text(submissions);
    if (submissionsText === null) throw new EdgarSyncError(`SEC has no filing index for CIK ${cik}`);
    const resources: CompanyResources = { submissions: submissionsText, pages: [], facts: text(facts) };
    for (const page of parseSubmissions(submissionsText).olderPages) {
      const older = text(await source.get(submissionsPagePath(page)));
      if (older === null) {
        report.partial = true;
        report.notes.push(`older page ${page} of the filing index is missing: the history before it is partial`);
      } else resources.pages.push(older);
    }
    const saved = {
      submissionsEtag: submissions.status === "ok" ? (submissions.validators.etag ?? null) : null,
      submissionsLastModified: submissions.status === "ok" ? (submissions.validators.lastModified ?? null) : null,
      factsEtag: facts.status === "ok" ? (facts.validators.etag ?? null) : null,
      factsLastModified: facts.status === "ok" ? (facts.validators.lastModified ?? null) : null,
      partial: report.partial,
    };
    await applyCompany(prisma, source, report, { ticker, cik, exchange: listed.exchange, resources, saved, since, dryRun, today });
  } catch (error) {
    report.status = "failed";
    report.error = error instanceof Error ? error.message.split("\n")[0]!.slice(0, 500) : String(error);
  }
  return report;
}

/** What a company's records are mapped from: its filing index (and older pages) and XBRL facts, as EDGAR served them. */
interface CompanyResources {
  submissions: string;
  pages: string[];
  facts: string | null;
}

interface CompanyState {
  submissionsEtag: string | null;
  submissionsLastModified: string | null;
  factsEtag: string | null;
  factsLastModified: string | null;
  partial: boolean;
}

/**
 * Maps one company's resources and documents to records and imports them
 * (the sync's second half, and all of `reextract`). Without a source, nothing
 * is fetched: documents come from the filings and facts stored earlier.
 */
async function applyCompany(
  prisma: PrismaClient,
  source: EdgarSource | null,
  report: TickerReport,
  input: { ticker: string; cik: string; exchange: string | null; resources: CompanyResources; saved: CompanyState | null; since: string; dryRun: boolean; today: string },
): Promise<void> {
  const { ticker, cik, resources, saved, since, dryRun } = input;
  const index = parseSubmissions(resources.submissions);
  for (const page of resources.pages) index.filings.push(...parseSubmissionsPage(page));
  const companyFacts: CompanyFacts | null = resources.facts === null ? null : parseCompanyFacts(resources.facts);

  const { documents, fresh, filings } = await readDocuments(prisma, source, index, since);
  const exchange = input.exchange ?? (index.exchanges[index.tickers.indexOf(ticker)] || index.exchanges[0] || "unknown");
  const mapped = mapCompany({ ticker, exchange, today: input.today, index, facts: companyFacts, xbrl: readXbrlDilution(resources.facts), documents });
  report.notes.push(...mapped.notes);

  const imported = await importDataset(prisma, mapped.dataset, {
    dryRun,
    replaceFilingRowsOf: ticker,
    onApplied: async (tx) => {
      if (saved) {
        const state = {
          ...saved,
          latestAccession: [...index.filings].sort((a, b) => (a.filedAt < b.filedAt ? 1 : -1))[0]?.accessionNumber ?? null,
          syncedAt: new Date(),
          resourcesGzip: gzipSync(JSON.stringify(resources)),
        };
        await tx.edgarCompany.upsert({ where: { cik }, create: { cik, ...state }, update: state });
      }
      for (const [accession, filing] of filings) {
        await tx.edgarFiling.upsert({
          where: { accessionNumber: accession },
          create: { accessionNumber: accession, cik, form: filing.form, filedAt: new Date(`${filing.filedAt}T00:00:00Z`), bytes: Buffer.byteLength(filing.text), textGzip: gzipSync(filing.text) },
          update: {},
        });
      }
      for (const [accession, { form, facts: said }] of fresh) {
        await tx.edgarFilingFacts.upsert({
          where: { accessionNumber: accession },
          create: { accessionNumber: accession, cik, form, facts: said as Prisma.InputJsonObject },
          update: { facts: said as Prisma.InputJsonObject },
        });
      }
    },
  });
  if (!imported.ok) {
    throw new EdgarSyncError(`the mapped records were refused: ${imported.errors.slice(0, 3).map(formatImportError).join("; ")}`);
  }
  for (const kind of IMPORT_KINDS) {
    const c = imported.counts[kind];
    if (c.received > 0 || c.removed) report.counts[kind] = c;
  }
  report.status = changedIn(report.counts) > 0 ? "changed" : "unchanged";
}

export interface ReextractReport {
  tickers: TickerReport[];
  filingsRead: number;
  durationMs: number;
  changed: number;
  failed: number;
}

/**
 * `data:edgar reextract`: the filing readers run again over the filings the
 * syncs stored, and every EDGAR company's records are mapped again from its
 * stored filing index and facts. No network: what was never stored stays as
 * it was read.
 */
export async function reextractEdgar(prisma: PrismaClient, options: { tickers?: string[]; dryRun?: boolean; now?: Date; actor?: LoadActor } = {}): Promise<ReextractReport> {
  const clock = performance.now();
  const today = isoDay(options.now ?? new Date());
  const companies = await prisma.company.findMany({
    where: { isSample: false, cik: { not: null }, ...(options.tickers?.length ? { ticker: { in: options.tickers } } : {}) },
    select: { ticker: true, cik: true, exchange: true },
    orderBy: { ticker: "asc" },
  });
  const results: TickerReport[] = [];
  let filingsRead = 0;
  for (const company of companies) {
    const report: TickerReport = { ticker: company.ticker, cik: company.cik, status: "failed", counts: {}, partial: false, notes: [] };
    results.push(report);
    try {
      const state = await prisma.edgarCompany.findUnique({ where: { cik: company.cik! } });
      if (!state?.resourcesGzip) throw new EdgarSyncError("no stored filing index: sync it once with this version");
      const resources = JSON.parse(gunzipSync(state.resourcesGzip).toString("utf8")) as CompanyResources;
      report.partial = state.partial;
      const before = reextractCounter.read;
      await applyCompany(prisma, null, report, { ticker: company.ticker, cik: company.cik!, exchange: company.exchange, resources, saved: null, since: "0000-01-01", dryRun: options.dryRun ?? false, today });
      filingsRead += reextractCounter.read - before;
    } catch (error) {
      report.status = "failed";
      report.error = error instanceof Error ? error.message.split("\n")[0]!.slice(0, 500) : String(error);
    }
  }
  const startedAt = options.now ?? new Date();
  if (!options.dryRun) await attachRatings(prisma, results, startedAt);
  const report: ReextractReport = {
    tickers: results,
    filingsRead,
    durationMs: Math.round(performance.now() - clock),
    changed: results.reduce((n, r) => n + changedIn(r.counts), 0),
    failed: results.filter((r) => r.status === "failed").length,
  };
  if (!options.dryRun && results.length > 0) {
    const failures = results.filter((t) => t.status === "failed").map((t) => `${t.ticker}: ${t.error}`);
    await recordDataLoad(prisma, {
      kind: "edgar-reextract",
      source: `stored filings · ${results.length} ticker(s) · ${filingsRead} filing(s) read again`,
      status: report.failed === results.length ? "failed" : "applied",
      counts: syncTotals(report),
      errors: failures.slice(0, 20),
      errorCount: failures.length,
      durationMs: report.durationMs,
      startedAt,
      ...(options.actor ?? {}),
    });
  }
  return report;
}

/** Stored filings read again (for the reextract report). */
const reextractCounter = { read: 0 };

interface FetchedFiling {
  form: string;
  filedAt: string;
  text: string;
}

/**
 * What the documents of the company's relevant filings said: from the store
 * when read before by this version of the readers, otherwise read now (only
 * for filings on or after `since`): a prospectus or registration statement
 * from its stored submission when there is one, else fetched. `fresh` holds
 * the facts read now and `filings` the submissions fetched now, to be stored
 * with the import. Without a source nothing is fetched.
 */
async function readDocuments(
  prisma: PrismaClient,
  source: EdgarSource | null,
  index: CompanyIndex,
  since: string,
): Promise<{ documents: Map<string, DocumentFacts>; fresh: Map<string, { form: string; facts: DocumentFacts }>; filings: Map<string, FetchedFiling> }> {
  const relevant = index.filings.filter((f) => needsDocuments(f) !== null);
  const accessions = relevant.map((f) => f.accessionNumber);
  const stored = relevant.length ? await prisma.edgarFilingFacts.findMany({ where: { accessionNumber: { in: accessions } } }) : [];
  const documents = new Map<string, DocumentFacts>(stored.map((row) => [row.accessionNumber, row.facts as DocumentFacts]));
  const kept = new Set(
    relevant.length ? (await prisma.edgarFiling.findMany({ where: { accessionNumber: { in: accessions } }, select: { accessionNumber: true } })).map((r) => r.accessionNumber) : [],
  );
  const fresh = new Map<string, { form: string; facts: DocumentFacts }>();
  const filings = new Map<string, FetchedFiling>();
  const latestReports = new Set(
    relevant
      .filter((f) => needsDocuments(f) === "periodic" && f.filedAt >= since)
      .sort((a, b) => (a.filedAt < b.filedAt ? 1 : a.filedAt > b.filedAt ? -1 : 0))
      .slice(0, PERIODIC_REPORTS_FETCHED)
      .map((f) => f.accessionNumber),
  );
  for (const filing of relevant) {
    const known = documents.get(filing.accessionNumber);
    if (needsDocuments(filing) === "periodic") {
      if (known?.missing || (known?.periodic?.reader ?? 0) >= PERIODIC_READER_VERSION) continue;
      let facts: DocumentFacts | null = null;
      if (kept.has(filing.accessionNumber)) {
        const row = await prisma.edgarFiling.findUnique({ where: { accessionNumber: filing.accessionNumber } });
        if (row) {
          reextractCounter.read++;
          facts = readPeriodicFacts(gunzipSync(row.textGzip).toString("utf8"));
        }
      } else if (source && latestReports.has(filing.accessionNumber)) {
        const primary = filing.primaryDocument ? storedDocumentName(filing.primaryDocument) : null;
        const body = primary ? text(await source.get(archivePath(index.cik, filing.accessionNumber, primary))) : null;
        facts = body === null ? { missing: true } : readPeriodicFacts(body);
        if (body !== null && facts) filings.set(filing.accessionNumber, { form: filing.form, filedAt: filing.filedAt, text: body });
      }
      if (!facts) continue;
      documents.set(filing.accessionNumber, facts);
      fresh.set(filing.accessionNumber, { form: filing.form, facts });
      continue;
    }
    const offeringDocument = needsDocuments(filing) === "registration" || needsDocuments(filing) === "takedown";
    const financing = needsDocuments(filing) === "eight-k" && filing.items.split(",").some((item) => FINANCING_ITEMS.includes(item.trim()));
    const current = known && (!offeringDocument || (known.reader ?? 0) >= DOCUMENT_READER_VERSION) && (!financing || (known.eightKReader ?? 0) >= EIGHT_K_READER_VERSION);
    if (current || filing.filedAt < since) continue;
    let facts: DocumentFacts | null = null;
    if (offeringDocument && kept.has(filing.accessionNumber)) {
      const row = await prisma.edgarFiling.findUnique({ where: { accessionNumber: filing.accessionNumber } });
      if (row) {
        reextractCounter.read++;
        facts = readSubmissionFacts(gunzipSync(row.textGzip).toString("utf8"), index.cik);
      }
    }
    if (!facts && source) {
      const fetched = await readFilingDocuments(source, index, filing);
      facts = fetched.facts;
      if (fetched.text !== null) filings.set(filing.accessionNumber, { form: filing.form, filedAt: filing.filedAt, text: fetched.text });
    }
    if (!facts) continue;
    documents.set(filing.accessionNumber, facts);
    fresh.set(filing.accessionNumber, { form: filing.form, facts });
  }
  return { documents, fresh, filings };
}

/** The dilution facts the company tags in XBRL; null without company facts or when they cannot be read. */
function readXbrlDilution(facts: string | null): XbrlDilutionFacts | null {
  if (facts === null) return null;
  try {
    return parseXbrlDilution(facts);
  } catch {
    return null;
  }
}

/** What a periodic report states (its primary document or full submission); null when it cannot be read as one. */
function readPeriodicFacts(document: string): DocumentFacts | null {
  try {
    return { periodic: { ...readPeriodicReport(readSubmission(document)), reader: PERIODIC_READER_VERSION } };
  } catch {
    return null;
  }
}

/** The offering facts of a full submission, read by the filing readers; null when it is not one. */
function readSubmissionFacts(submission: string, cik: string): DocumentFacts | null {
  try {
    return documentFactsOf(inspectFiling(readSubmission(submission), { directoryCik: Number(cik) }));
  } catch {
    return null;
  }
}

async function readFilingDocuments(source: EdgarSource, index: CompanyIndex, filing: Filing): Promise<{ facts: DocumentFacts; text: string | null }> {
  const cik = index.cik;
  const kind = needsDocuments(filing);
  const read = async (name: string) => text(await source.get(archivePath(cik, filing.accessionNumber, name)));
  const primary = filing.primaryDocument ? storedDocumentName(filing.primaryDocument) : null;

  if (kind === "eight-k" || kind === "effect") {
    const body = primary ? await read(primary) : null;
    if (body === null) return { facts: { missing: true }, text: null };
    if (kind === "effect") {
      const notice = parseEffectNotice(body);
      return { facts: notice ? { effect: { fileNumber: notice.fileNumber, form: notice.form, effectiveDate: notice.effectiveDate } } : { missing: true }, text: null };
    }
    const words = htmlToText(body);
    const items = filing.items.split(",").map((item) => item.trim());
    const facts: DocumentFacts = {};
    if (items.includes("3.01")) facts.deficiency = { kind: classifyDeficiency(words), regained: regainsCompliance(words), deadline: complianceDeadline(words) };
    if (items.some((item) => FINANCING_ITEMS.includes(item))) {
      // The press release (Exhibit 99) when the items point to one: it often carries the terms in one place.
      let release: string | null = null;
      if (/press release|exhibit 99/i.test(words)) {
        const listing = await read("index.json");
        const exhibit = listing === null ? null : pickPressRelease(parseFilingIndex(listing));
        const body = exhibit ? await read(exhibit) : null;
        release = body === null ? null : htmlToText(body);
      }
      const { terms, evidence } = readEightKTerms(words, release);
      facts.financing = { terms, evidence };
      facts.eightKReader = EIGHT_K_READER_VERSION;
    }
    if (items.includes("5.03")) {
      facts.reverseSplits = readAnnouncedReverseSplits(words, index.name)
        .filter((split) => split.effective_date !== null)
        .map((split) => ({ ratio: split.ratio, effectiveDate: split.effective_date!, ratioQuote: split.ratioQuote, dateQuote: split.dateQuote }));
    }
    return { facts, text: null };
  }

  // A prospectus or registration statement: the full submission (SEC header, the document and its exhibits in one request).
  const submission = await read(`${filing.accessionNumber}.txt`);
  if (submission !== null) {
    const facts = readSubmissionFacts(submission, cik);
    if (facts) return { facts, text: submission };
  }
  // Without it: the fee exhibit, and for a takedown the text (at-the-market or not).
  const listing = await read("index.json");
  const entries = listing === null ? [] : parseFilingIndex(listing);
  const exhibit = pickFeeExhibit(entries);
  const exhibitText = exhibit ? await read(exhibit) : null;
  const size = exhibitText === null ? null : feeExhibitCents(exhibitText);
  const facts: DocumentFacts = { fee: size === null ? null : { maxAggregateOfferingCents: size.toString(), totalOfferingCents: null } };
  if (kind === "takedown") {
    const body = primary ? await read(primary) : null;
    if (body !== null) facts.atm = isAtmOffering(htmlToText(body));
    else if (listing === null) return { facts: { missing: true, reader: DOCUMENT_READER_VERSION }, text: null };
  } else if (listing === null) return { facts: { missing: true, reader: DOCUMENT_READER_VERSION }, text: null };
  return { facts, text: null };
}

async function attachRatings(prisma: PrismaClient, results: TickerReport[], asOf: Date): Promise<void> {
  const synced = results.filter((r) => r.status !== "failed").map((r) => r.ticker);
  if (synced.length === 0) return;
  const companies = await prisma.company.findMany({ where: { ticker: { in: synced } }, select: { id: true, ticker: true } });
  const inputs = await loadRatingInputs(prisma, companies.map((c) => c.id), asOf);
  const byTicker = new Map(companies.map((c) => [c.ticker, c.id]));
  for (const result of results) {
    const loaded = inputs.get(byTicker.get(result.ticker) ?? "");
    if (loaded) result.rating = computeDilutionRating({ ...loaded, ticker: result.ticker, asOf });
  }
}

/** A run's counts by kind, summed over its tickers. */
export function syncTotals(report: { tickers: TickerReport[] }): Partial<Record<ImportKind, KindCounts>> {
  const counts: Partial<Record<ImportKind, KindCounts>> = {};
  for (const t of report.tickers) {
    for (const [kind, c] of Object.entries(t.counts) as [ImportKind, KindCounts][]) {
      const sum = (counts[kind] ??= { received: 0, created: 0, updated: 0, unchanged: 0 });
      sum.received += c.received;
      sum.created += c.created;
      sum.updated += c.updated;
      sum.unchanged += c.unchanged;
      if (c.removed) sum.removed = (sum.removed ?? 0) + c.removed;
    }
  }
  return counts;
}

/** Every applied sync is one data_loads row: counts by kind summed over tickers, the tickers that failed. */
async function recordSync(prisma: PrismaClient, report: SyncReport, actor: LoadActor): Promise<void> {
  const counts = syncTotals(report);
  const failures = report.tickers.filter((t) => t.status === "failed").map((t) => `${t.ticker}: ${t.error}`);
  await recordDataLoad(prisma, {
    kind: "edgar",
    source: `${report.source} · ${report.tickers.length} ticker(s) · ${report.requests} request(s)`,
    status: report.failed === report.tickers.length ? "failed" : "applied",
    counts,
    errors: failures.slice(0, 20),
    errorCount: failures.length,
    durationMs: report.durationMs,
    startedAt: report.startedAt,
    ...actor,
  });
}

/**
 * Drops the sample dataset (every company labelled sample, with its records)
 * in one transaction, recorded as a data load; the embedded database does not
 * seed it again once dropped. Returns how many companies were removed.
 */
export async function removeSampleData(prisma: PrismaClient, actor: LoadActor): Promise<number> {
  const startedAt = new Date();
  const clock = performance.now();
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.company.deleteMany({ where: { isSample: true } });
    if (count > 0) await bumpDatasetVersion(tx);
    await recordDataLoad(tx, {
      kind: "remove-sample",
      source: "sample dataset",
      status: "applied",
      counts: { companies: { received: 0, created: 0, updated: 0, unchanged: 0, removed: count } },
      errors: [],
      errorCount: 0,
      durationMs: performance.now() - clock,
      startedAt,
      ...actor,
    });
    return count;
  }).then((count) => {
    if (count > 0) notifyDataChanged();
    return count;
  });
}
