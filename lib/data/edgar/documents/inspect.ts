import { isPeriodicReport, periodicFormOf, readPeriodicReport, type PeriodicReport } from "./periodic-report";
import { readOfferingTerms, type OfferingTerms } from "./prospectus";
import { readSubmission, type Filing } from "./submission";

/**
 * `data:edgar inspect`: what one filing states, under the field names of
 * ../shared/fixtures/edgar/REAL-FILINGS.md, each value with its quote in
 * `evidence`. No database and no network: a filing's text in, a plain object
 * out.
 */
export interface FilerRef {
  cik: number;
  company: string;
  file_number: string | null;
}

export type Inspection = {
  accession: string | null;
  cik: number | null;
  company: string | null;
  form: string | null;
  filed: string | null;
  file_number: string | null;
  primary_document: string | null;
  other_filers: FilerRef[] | null;
  header_items: string[] | null;
} & OfferingTerms & {
    evidence: Record<string, string>;
  };

/**
 * What a periodic report (10-Q, 10-K, 20-F, 40-F) states, in the fields of
 * fixtures/edgar/PERIODIC-FILINGS.md. A primary document served alone has no
 * SEC header: form, company and file number then come from its cover (its
 * `dei:` facts, else the cover's words), and the accession and document name
 * from where EDGAR serves it, when the path says.
 */
export type PeriodicInspection = {
  accession: string | null;
  cik: number | null;
  filed: string | null;
  primary_document: string | null;
} & PeriodicReport & {
    evidence: Record<string, string>;
  };

/** The CIK of the EDGAR folder a file sits in (`…/Archives/edgar/data/<cik>/…`), when its path says. */
export function cikFromPath(path: string | null | undefined): number | null {
  const m = /(?:^|[\\/])data[\\/](\d{1,10})[\\/]/.exec(path ?? "");
  return m ? Number(m[1]) : null;
}

export function inspectFiling(filing: Filing, options: { directoryCik?: number | null } = {}): Inspection {
  const { header } = filing;
  const mainCik = options.directoryCik && header.filers.some((f) => f.cik === options.directoryCik) ? options.directoryCik : header.cik;
  const main = header.filers.find((f) => f.cik === mainCik);
  const others = header.filers.filter((f) => f.cik !== mainCik).map((f) => ({ cik: f.cik, company: f.company, file_number: f.fileNumber }));
  const { terms, evidence } = readOfferingTerms(filing);
  return {
    accession: header.accession,
    cik: mainCik,
    company: main?.company ?? header.company,
    form: header.form,
    filed: header.filed,
    file_number: main?.fileNumber ?? header.fileNumber,
    primary_document: filing.primary?.filename ?? null,
    other_filers: others.length ? others : null,
    header_items: header.items.length ? header.items : null,
    ...terms,
    evidence: evidence as Record<string, string>,
  };
}

/** The accession of the EDGAR folder a primary document sits in (`…/data/<cik>/<18 digits>/<name>`), and the document's name. */
export function placeFromPath(path: string | null | undefined): { accession: string | null; document: string | null } {
  const m = /(?:^|[\\/])data[\\/]\d{1,10}[\\/](\d{10})(\d{2})(\d{6})[\\/]([^\\/]+)$/.exec(path ?? "");
  if (!m) return { accession: null, document: null };
  return { accession: `${m[1]}-${m[2]}-${m[3]}`, document: /\.txt$/i.test(m[4]!) ? null : m[4]! };
}

export function inspectPeriodic(filing: Filing, options: { path?: string | null } = {}): PeriodicInspection {
  const { header } = filing;
  const place = placeFromPath(options.path);
  const directoryCik = cikFromPath(options.path);
  const { report, evidence } = readPeriodicReport(filing);
  return {
    accession: header.accession ?? place.accession,
    cik: header.cik ?? directoryCik,
    filed: header.filed,
    primary_document: filing.primary?.filename ?? place.document,
    ...report,
    evidence,
  };
}

/** A periodic report's inspection for a 10-Q, 10-K, 20-F or 40-F; the offering readers' for anything else. */
export function inspectAny(filing: Filing, options: { path?: string | null } = {}): Inspection | PeriodicInspection {
  if (isPeriodicReport(periodicFormOf(filing))) return inspectPeriodic(filing, options);
  return inspectFiling(filing, { directoryCik: cikFromPath(options.path) });
}

/** Reads a filing's text (a full `.txt` submission or a primary `.htm`) and inspects it. */
export function inspectText(text: string, options: { path?: string } = {}): Inspection {
  return inspectFiling(readSubmission(text), { directoryCik: cikFromPath(options.path) });
}
