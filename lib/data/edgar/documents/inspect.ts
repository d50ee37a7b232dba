import { readEightKTerms, eightKItems, type EightKTerms } from "./eight-k-terms";
import { blocksText, rowText } from "./html";
import { isPeriodicReport, periodicFormOf, readPeriodicReport, type FieldSource, type PeriodicReport } from "./periodic-report";
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
    /** per field path, whether the value is the filer's inline-XBRL tag or the text (./periodic-tags.ts) */
    sources: Record<string, FieldSource>;
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
  const { report, evidence, sources } = readPeriodicReport(filing);
  return {
    accession: header.accession ?? place.accession,
    cik: header.cik ?? directoryCik,
    filed: header.filed,
    primary_document: filing.primary?.filename ?? place.document,
    ...report,
    evidence,
    sources: sources ?? {},
  };
}

/**
 * What an 8-K states: the offering readers' inspection (header fields; its
 * offering terms are null, an 8-K being no prospectus), the item numbers it
 * carries (`items`: its headings, and the header's ITEM INFORMATION lines),
 * and the financing terms of its Items 1.01 and 3.02 with the EX-99 press
 * release they point to (./eight-k-terms.ts), each with its quote.
 */
export type EightKInspection = Inspection &
  EightKTerms & {
    items: string[] | null;
  };

/** 8-K item titles as EDGAR's header lists them (ITEM INFORMATION), by the words they start with. */
const ITEM_TITLES: [string, string][] = [
  ["1.01", "entry into a material definitive agreement"],
  ["1.02", "termination of a material definitive agreement"],
  ["1.03", "bankruptcy or receivership"],
  ["1.04", "mine safety"],
  ["1.05", "material cybersecurity incident"],
  ["2.01", "completion of acquisition or disposition"],
  ["2.02", "results of operations and financial condition"],
  ["2.03", "creation of a direct financial obligation"],
  ["2.04", "triggering events that accelerate or increase"],
  ["2.05", "costs associated with exit or disposal"],
  ["2.06", "material impairments"],
  ["3.01", "notice of delisting or failure to satisfy"],
  ["3.02", "unregistered sales of equity securities"],
  ["3.03", "material modification to rights of security holders"],
  ["4.01", "changes in registrant's certifying accountant"],
  ["4.02", "non-reliance on previously issued financial statements"],
  ["5.01", "changes in control of registrant"],
  ["5.02", "departure of directors or"],
  ["5.03", "amendments to articles of incorporation or bylaws"],
  ["5.04", "temporary suspension of trading"],
  ["5.05", "amendments to the registrant's code of ethics"],
  ["5.06", "change in shell company status"],
  ["5.07", "submission of matters to a vote of security holders"],
  ["5.08", "shareholder director nominations"],
  ["7.01", "regulation fd disclosure"],
  ["8.01", "other events"],
  ["9.01", "financial statements and exhibits"],
];

function itemNumberOfTitle(title: string): string | null {
  const t = title.toLowerCase().replace(/[\u2018\u2019]/g, "'").replace(/\s+/g, " ").trim();
  return ITEM_TITLES.find(([, words]) => t.startsWith(words) || t.startsWith(words.replace(/'s/g, "s")))?.[0] ?? null;
}

export const EIGHT_K_FORMS = /^8-K(?:\/A)?$/i;

/** The form of an 8-K without SEC header or `dei:DocumentType`: its cover's "FORM 8-K". */
function eightKFormOf(filing: Filing): string | null {
  if (filing.header.form) return filing.header.form;
  for (const block of (filing.primary?.blocks() ?? []).slice(0, 60)) {
    const text = block.kind === "text" ? block.text : block.rows.map((row) => row.filter(Boolean).join(" ")).join(" ");
    const m = /^FORM\s+(8-K(?:\/A)?)\b/i.exec(text.trim());
    if (m) return m[1]!.toUpperCase();
  }
  return null;
}

const EXACT_NAME = /\(?\s*Exact name of (?:the )?registrants?\s+as specified in (?:its|their) (?:charters?|articles[^)]*)\s*\)?/i;
const FILE_NUMBER_LABEL = /\bCommission\s+File\s+(?:Number|No\.?)/i;
/** "001-34426", "000-27038", "333-270001": an Exchange Act or Securities Act file number (not a phone number, an EIN or a zip code). */
const FILE_NUMBER = /\b(?:0\d{2}|333|81[124])-\d{5,6}\b/;
const NOT_A_NAME = /^(?:FORM\b|CURRENT REPORT|Date of Report|Pursuant to|UNITED STATES|SECURITIES AND EXCHANGE|Washington)/i;

/**
 * A primary document's cover without SEC header or `dei:` facts (an 8-K before
 * inline XBRL): the registrant's name, the line above "(Exact name of registrant
 * as specified in its charter)" (or before it on the same line), and the file
 * number beside or just above "(Commission File Number)".
 */
export function coverIdentity(filing: Filing): { company: string | null; fileNumber: string | null } {
  const lines: string[] = [];
  for (const block of (filing.primary?.blocks() ?? []).slice(0, 80)) {
    if (block.kind === "text") lines.push(block.text);
    else for (const row of block.rows) lines.push(rowText(row));
  }
  let company: string | null = null;
  const nameAt = lines.findIndex((l) => EXACT_NAME.test(l));
  if (nameAt >= 0) {
    const sameLine = lines[nameAt]!.slice(0, lines[nameAt]!.search(EXACT_NAME)).trim();
    const candidate = sameLine || (nameAt > 0 ? lines[nameAt - 1]!.trim() : "");
    if (candidate && candidate.length <= 150 && !NOT_A_NAME.test(candidate) && /[A-Za-z]/.test(candidate)) company = candidate;
  }
  let fileNumber: string | null = null;
  const labelAt = lines.findIndex((l) => FILE_NUMBER_LABEL.test(l));
  if (labelAt >= 0) {
    for (const line of [lines[labelAt]!, lines[labelAt - 1] ?? "", lines[labelAt - 2] ?? ""]) {
      const m = FILE_NUMBER.exec(line);
      if (m) {
        fileNumber = m[0];
        break;
      }
    }
  }
  return { company, fileNumber };
}

export function isEightK(filing: Filing): boolean {
  return EIGHT_K_FORMS.test((eightKFormOf(filing) ?? "").trim());
}

export function inspectEightK(filing: Filing, options: { path?: string | null } = {}): EightKInspection {
  const base = inspectFiling(filing, { directoryCik: cikFromPath(options.path) });
  const place = placeFromPath(options.path);
  const text = blocksText(filing.primary?.blocks() ?? []);
  const releases = filing.documents.filter((d) => d !== filing.primary && /^EX-99\b/i.test(d.type)).map((d) => blocksText(d.blocks()));
  const { terms, evidence } = readEightKTerms(text, releases.length ? releases.join("\n") : null);
  const fromHeader = filing.header.items.map(itemNumberOfTitle).filter((n): n is string => n !== null);
  const items = [...new Set([...eightKItems(text), ...fromHeader])].sort((a, b) => Number(a) - Number(b));
  const cover = base.company === null || base.file_number === null ? coverIdentity(filing) : null;
  return {
    ...base,
    company: base.company ?? cover?.company ?? null,
    file_number: base.file_number ?? cover?.fileNumber ?? null,
    accession: base.accession ?? place.accession,
    cik: base.cik ?? cikFromPath(options.path),
    form: base.form ?? eightKFormOf(filing),
    primary_document: base.primary_document ?? place.document,
    items: items.length ? items : null,
    ...terms,
    evidence: { ...base.evidence, ...evidence },
  };
}

/** A periodic report's inspection for a 10-Q, 10-K, 20-F or 40-F; an 8-K's for an 8-K; the offering readers' for anything else. */
export function inspectAny(filing: Filing, options: { path?: string | null } = {}): Inspection | PeriodicInspection | EightKInspection {
  if (isPeriodicReport(periodicFormOf(filing))) return inspectPeriodic(filing, options);
  if (isEightK(filing)) return inspectEightK(filing, options);
  return inspectOffering(filing, options);
}

/** A prospectus or registration statement; served as its primary `.htm` alone, its place and cover say what no SEC header does. */
function inspectOffering(filing: Filing, options: { path?: string | null } = {}): Inspection {
  const base = inspectFiling(filing, { directoryCik: cikFromPath(options.path) });
  if (filing.header.accession !== null) return base;
  const place = placeFromPath(options.path);
  const cover = base.company === null || base.file_number === null ? coverIdentity(filing) : null;
  return {
    ...base,
    company: base.company ?? cover?.company ?? null,
    file_number: base.file_number ?? cover?.fileNumber ?? null,
    accession: place.accession,
    cik: base.cik ?? cikFromPath(options.path),
    primary_document: base.primary_document ?? place.document,
  };
}

/** Reads a filing's text (a full `.txt` submission or a primary `.htm`) and inspects it. */
export function inspectText(text: string, options: { path?: string } = {}): Inspection {
  return inspectFiling(readSubmission(text), { directoryCik: cikFromPath(options.path) });
}
