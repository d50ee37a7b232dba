import { decodeEntities, normalizeCik, normalizeDate } from "./plain-text";
import { plainTextBlocks, type Block } from "./html";
import { readInlineXbrl, type InlineXbrl, type XbrlFact } from "./inline-xbrl";

/**
 * A filing as EDGAR serves it: the full `.txt` submission (SEC header, then
 * every document between `<DOCUMENT>` tags, HTML inline), or a primary
 * document (`.htm`, usually inline XBRL) on its own. Documents that are not
 * text (images, PDFs, zips, XBRL schemas) are listed but never parsed.
 */
export interface FilerEntry {
  cik: number;
  company: string;
  fileNumber: string | null;
}

export interface FilingHeader {
  accession: string | null;
  form: string | null;
  filed: string | null;
  /** The first filer's (the directory a filing sits in belongs to one of them). */
  cik: number | null;
  company: string | null;
  fileNumber: string | null;
  filers: FilerEntry[];
  /** 8-K item descriptions as the header lists them ("Regulation FD Disclosure"). */
  items: string[];
}

export interface FilingDocument {
  type: string;
  sequence: number | null;
  filename: string | null;
  description: string | null;
  /** Lazily parsed: most readers look at one or two documents of a filing. */
  blocks(): Block[];
  /** The document's own inline XBRL (./inline-xbrl.ts), read in the same pass as its blocks; null when it has none. */
  inlineXbrl(): InlineXbrl | null;
}

export interface Filing {
  header: FilingHeader;
  documents: FilingDocument[];
  /** The document whose type is the filing's form (the first document when none is). */
  primary: FilingDocument | null;
}

export class FilingFormatError extends Error {}

const PARSED_TYPES = /^(?!GRAPHIC|ZIP|EXCEL|PDF|JSON|XML|EX-101)/i;

function headerLines(text: string, label: string): string[] {
  const re = new RegExp(`^[ \\t]*${label}:[ \\t]*(.*?)[ \\t]*$`, "gim");
  return [...text.matchAll(re)].map((m) => m[1]!).filter(Boolean);
}

function readFilers(header: string): FilerEntry[] {
  // each FILER / SUBJECT COMPANY / FILED BY section starts a company
  const sections = header.split(/^(?:FILER|SUBJECT COMPANY|FILED BY|REPORTING-OWNER|ISSUER):\s*$/m).slice(1);
  const filers: FilerEntry[] = [];
  for (const section of sections) {
    const company = headerLines(section, "COMPANY CONFORMED NAME")[0];
    const cik = headerLines(section, "CENTRAL INDEX KEY")[0];
    if (!company || !cik || !/^\d+$/.test(cik)) continue;
    filers.push({ cik: Number(cik), company, fileNumber: headerLines(section, "SEC FILE NUMBER")[0] ?? null });
  }
  return filers;
}

export function readFilingHeader(headerText: string): FilingHeader {
  const parsed = parseSecHeader(headerText);
  const filers = readFilers(headerText);
  return {
    accession: parsed.accessionNumber,
    form: parsed.formType,
    filed: parsed.filedDate,
    cik: parsed.cik === null ? null : Number(parsed.cik),
    company: parsed.companyName,
    fileNumber: parsed.fileNumbers[0] ?? null,
    filers,
    items: headerLines(headerText, "ITEM INFORMATION"),
  };
}

function tagLine(doc: string, tag: string): string | null {
  const m = new RegExp(`^<${tag}>[ \\t]*([^\\r\\n]*)`, "im").exec(doc);
  return m ? m[1]!.trim() || null : null;
}

function looksLikeHtml(text: string): boolean {
  return /<(?:html|body|div|p|table|font)\b/i.test(text.slice(0, 20_000));
}

function makeDocument(type: string, sequence: number | null, filename: string | null, description: string | null, body: string): FilingDocument {
  let cached: { blocks: Block[]; xbrl: InlineXbrl | null } | null = null;
  const parse = PARSED_TYPES.test(type) && !/\.(?:jpe?g|gif|png|pdf|zip|xlsx?)$/i.test(filename ?? "");
  const read = () => {
    if (!parse) return { blocks: [], xbrl: null };
    cached ??= looksLikeHtml(body) ? readInlineXbrl(body) : { blocks: plainTextBlocks(body.replace(/<\/?PAGE>/gi, "\n\n")), xbrl: null };
    return cached;
  };
  return {
    type,
    sequence,
    filename,
    description,
    blocks: () => read().blocks,
    inlineXbrl: () => read().xbrl,
  };
}

/** The primary document: its type is the filing's form, else the first document. */
function primaryOf(form: string | null, documents: FilingDocument[]): FilingDocument | null {
  const normalized = form?.toUpperCase();
  return documents.find((d) => d.type.toUpperCase() === normalized) ?? documents[0] ?? null;
}

/**
 * Reads a full `.txt` submission. Throws FilingFormatError for a file that is
 * not one (no SEC header) or that was cut short (a document without its end).
 */
export function readSubmission(text: string): Filing {
  const headerStart = text.indexOf("<SEC-HEADER>");
  const headerEnd = text.indexOf("</SEC-HEADER>");
  const hasIms = /^-----BEGIN PRIVACY-ENHANCED MESSAGE-----/.test(text);
  if (headerStart < 0 || headerEnd < headerStart) {
    if (looksLikeHtml(text)) return readPrimaryDocument(text);
    throw new FilingFormatError(hasIms ? "an encrypted submission without an SEC header" : "not an EDGAR submission (no <SEC-HEADER>)");
  }
  const header = readFilingHeader(text.slice(headerStart, headerEnd));
  const documents: FilingDocument[] = [];
  let at = headerEnd;
  for (;;) {
    const start = text.indexOf("<DOCUMENT>", at);
    if (start < 0) break;
    const end = text.indexOf("</DOCUMENT>", start);
    if (end < 0) throw new FilingFormatError(`truncated: document ${documents.length + 1} has no </DOCUMENT>`);
    const doc = text.slice(start + 10, end);
    const textStart = doc.search(/<TEXT>/i);
    const textEnd = doc.search(/<\/TEXT>/i);
    if (textStart < 0 || textEnd < textStart) throw new FilingFormatError(`truncated: document ${documents.length + 1} has no </TEXT>`);
    const meta = doc.slice(0, textStart);
    const sequenceText = tagLine(meta, "SEQUENCE");
    documents.push(
      makeDocument(
        (tagLine(meta, "TYPE") ?? "").toUpperCase(),
        sequenceText && /^\d+$/.test(sequenceText) ? Number(sequenceText) : null,
        tagLine(meta, "FILENAME"),
        tagLine(meta, "DESCRIPTION"),
        doc.slice(textStart + 6, textEnd),
      ),
    );
    at = end + 11;
  }
  if (documents.length === 0) throw new FilingFormatError("an SEC header but no documents");
  // Submissions of the 1990s wrap the whole in a privacy-enhanced message, whose trailer follows </SEC-DOCUMENT>.
  const tail = text.slice(-300).replace(/-----END PRIVACY-ENHANCED MESSAGE-----\s*$/, "");
  if (!/<\/SEC-DOCUMENT>\s*$/i.test(tail) && text.includes("<SEC-DOCUMENT>")) {
    throw new FilingFormatError("truncated: no </SEC-DOCUMENT> at the end");
  }
  return { header, documents, primary: primaryOf(header.form, documents) };
}

/** A primary document served on its own (`.htm`): the header comes from its `dei:` cover facts, when it tags them. */
export function readPrimaryDocument(html: string): Filing {
  const document = makeDocument("", 1, null, null, html);
  const facts = document.inlineXbrl()?.facts ?? [];
  const coverFact = (concept: string) => facts.find((f) => f.concept.toLowerCase() === `dei:${concept.toLowerCase()}` && f.text)?.text ?? null;
  const cik = coverFact("EntityCentralIndexKey");
  const company = shownName(facts.find((f) => f.concept.toLowerCase() === "dei:entityregistrantname" && f.text));
  // a prospectus or registration statement tags no dei: facts: its first lines say what it is
  const said = coverFact("DocumentType") ? null : offeringDocumentCover(document.blocks());
  const form = coverFact("DocumentType") ?? said?.form ?? null;
  const fileNumber = coverFact("EntityFileNumber") ?? said?.fileNumber ?? null;
  const header: FilingHeader = {
    accession: null,
    form,
    filed: null,
    cik: cik && /^\d+$/.test(cik) ? Number(cik) : null,
    company,
    fileNumber,
    filers: [],
    items: [],
  };
  const primary = { ...document, type: (form ?? "").toUpperCase() };
  return { header, documents: [primary], primary };
}

/**
 * The registrant's name as the cover shows it: a tag that stops inside a
 * word the cover writes out in full ("Ford Motor Co" tagged in "Ford Motor
 * Company") gives way to the shown word; otherwise the tag's text.
 */
function shownName(fact: XbrlFact | undefined): string | null {
  if (!fact) return null;
  const rest = fact.quote?.startsWith(fact.text) ? fact.quote.slice(fact.text.length) : "";
  return /^[A-Za-z]+\.?$/.test(rest) ? fact.quote! : fact.text;
}

/**
 * A prospectus's or registration statement's form and file number from its
 * first lines: "Filed Pursuant to Rule 424(b)(5)" and "Registration No.
 * 333-271045", or a facing page's "FORM S-1 REGISTRATION STATEMENT UNDER THE
 * SECURITIES ACT OF 1933" ("Amendment No. 3 to Form S-1": S-1/A).
 */
function offeringDocumentCover(blocks: Block[]): { form: string; fileNumber: string | null } | null {
  const lines = blocks.slice(0, 60).flatMap((b) => (b.kind === "text" ? [b.text] : b.rows.map((row) => row.filter(Boolean).join(" "))));
  const text = lines.join("\n");
  const fileNumber = /\bRegistration (?:Statement )?Nos?\.?:?\s*(333-\d{5,6})\b/i.exec(text)?.[1] ?? null;
  // the legend is a line of its own at the top ("filed pursuant to Rule 424(b)(5)" inside a 10-Q's sentence is not it)
  const legend = lines.slice(0, 15).map((l) => /^Filed\s+Pursuant\s+to\s+Rule\s+424\s*\(\s*b\s*\)\s*\(\s*([1-57])\s*\)/i.exec(l.trim())).find((m) => m !== null && m.input.length <= 80);
  if (legend) return { form: `424B${legend[1]}`, fileNumber };
  const facing = /\bFORM ([SF]-[13])\s+REGISTRATION STATEMENT\s+UNDER\s+THE\s+SECURITIES ACT OF 1933\b/i.exec(text.replace(/\s+/g, " "));
  // (the facing page's own heading: "FORM S-1" on its line, before any sentence)
  if (!facing || !lines.slice(0, 30).some((l) => /^FORM [SF]-[13]$/i.test(l.trim()))) return null;
  // "Amendment No. 3 to: FORM S-1", "PRE-EFFECTIVE AMENDMENT NO. 1 TO FORM S-3" above the form's name
  const amended = /\bAmendment\s+No\.\s*\d+\b/i.test(text.replace(/\s+/g, " ").slice(0, facing.index + facing[0].length));
  return { form: `${facing[1]!.toUpperCase()}${amended ? "/A" : ""}`, fileNumber };
}

// ───────────────────────────── SEC headers ─────────────────────────────

export interface SecHeader {
  accessionNumber: string | null;
  formType: string | null;
  fileNumbers: string[];
  /** YYYY-MM-DD */
  filedDate: string | null;
  /** 10 digits */
  cik: string | null;
  companyName: string | null;
  /** "2834" */
  sic: string | null;
}

/** Every value of a "KEY:<tabs>value" line of the header text, or of its `<KEY-TAG>value` SGML form. */
function headerValues(text: string, label: string, sgmlTag: string): string[] {
  const escaped = label.replace(/ /g, "[ \\t]+");
  const lines = [...text.matchAll(new RegExp(`^[ \\t]*${escaped}:[ \\t]*(.*?)[ \\t\\r]*$`, "gm"))];
  const sgml = [...text.matchAll(new RegExp(`<${sgmlTag}>[ \\t]*([^<\\r\\n]*)`, "gi"))];
  return [...lines, ...sgml].map((m) => decodeEntities(m[1] ?? "").trim()).filter((value) => value !== "");
}

function firstHeaderValue(text: string, label: string, sgmlTag: string): string | null {
  return headerValues(text, label, sgmlTag)[0] ?? null;
}

/**
 * The header EDGAR puts above a filing (`-index-headers.html`, `.hdr.sgml`,
 * the top of the `.txt`). When several companies are named (filer, subject
 * company, filed by), company fields are the first one's.
 */
export function parseSecHeader(text: string): SecHeader {
  const sicText = firstHeaderValue(text, "STANDARD INDUSTRIAL CLASSIFICATION", "ASSIGNED-SIC");
  const sic = sicText === null ? null : (/\[(\d{3,4})\]/.exec(sicText)?.[1] ?? (/^\d{3,4}$/.test(sicText) ? sicText : null));
  const filed = firstHeaderValue(text, "FILED AS OF DATE", "FILING-DATE");
  return {
    accessionNumber: firstHeaderValue(text, "ACCESSION NUMBER", "ACCESSION-NUMBER"),
    formType: firstHeaderValue(text, "CONFORMED SUBMISSION TYPE", "TYPE") ?? firstHeaderValue(text, "FORM TYPE", "FORM-TYPE"),
    fileNumbers: [...new Set(headerValues(text, "SEC FILE NUMBER", "FILE-NUMBER"))],
    filedDate: filed === null ? null : normalizeDate(filed),
    cik: normalizeCik(firstHeaderValue(text, "CENTRAL INDEX KEY", "CIK")),
    companyName: firstHeaderValue(text, "COMPANY CONFORMED NAME", "CONFORMED-NAME"),
    sic,
  };
}
