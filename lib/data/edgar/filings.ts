/**
 * EDGAR's filing index of a company (`submissions/CIK##########.json`): its
 * identity and the filings, read from the column arrays of `filings.recent`
 * and of the older pages that `filings.files` names. Also the tickers files
 * (`company_tickers.json`, `company_tickers_exchange.json`) and SEC's URLs.
 * Pure functions of the JSON text: no I/O.
 */
import { z } from "zod";

export interface Filing {
  accessionNumber: string;
  form: string;
  /** "YYYY-MM-DD" */
  filedAt: string;
  /** The period a periodic report covers, "YYYY-MM-DD"; null when none. */
  reportDate: string | null;
  /** "333-231168"; null when the filing has none. */
  fileNumber: string | null;
  /** 8-K items ("2.02,9.01") or an EFFECT notice's ("S-3,,2024-07-01 16:00:00"). */
  items: string;
  primaryDocument: string | null;
}

export interface CompanyIndex {
  cik: string;
  name: string;
  sic: string | null;
  sicDescription: string | null;
  tickers: string[];
  exchanges: string[];
  filings: Filing[];
  /** Older pages named in `filings.files`, to read next. */
  olderPages: string[];
}

const columns = z.object({
  accessionNumber: z.array(z.string()),
  filingDate: z.array(z.string()),
  form: z.array(z.string()),
  reportDate: z.array(z.string().nullable()).optional(),
  fileNumber: z.array(z.string().nullable()).optional(),
  items: z.array(z.string().nullable()).optional(),
  primaryDocument: z.array(z.string().nullable()).optional(),
});

const submissions = z.object({
  cik: z.union([z.string(), z.number()]),
  name: z.string(),
  sic: z.string().nullish(),
  sicDescription: z.string().nullish(),
  tickers: z.array(z.string()).default([]),
  exchanges: z.array(z.string().nullable()).default([]),
  filings: z.object({
    recent: columns,
    files: z.array(z.object({ name: z.string() })).default([]),
  }),
});

export class EdgarFormatError extends Error {}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new EdgarFormatError(`${what} is not JSON`);
  }
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join(".") || "(root)"}: ${issue.message}` : "unexpected shape";
}

export function padCik(cik: string | number): string {
  return String(cik).replace(/^0+/, "").padStart(10, "0");
}

function filingsOf(c: z.infer<typeof columns>): Filing[] {
  const list: Filing[] = [];
  for (let i = 0; i < c.accessionNumber.length; i++) {
    const accessionNumber = c.accessionNumber[i]!;
    const form = c.form[i];
    const filedAt = c.filingDate[i];
    if (!form || !filedAt) continue;
    list.push({
      accessionNumber,
      form: form.trim(),
      filedAt,
      reportDate: c.reportDate?.[i] || null,
      fileNumber: c.fileNumber?.[i]?.trim() || null,
      items: c.items?.[i] ?? "",
      primaryDocument: c.primaryDocument?.[i] || null,
    });
  }
  return list;
}

/** `submissions/CIK##########.json` */
export function parseSubmissions(text: string): CompanyIndex {
  const parsed = submissions.safeParse(parseJson(text, "the filing index"));
  if (!parsed.success) throw new EdgarFormatError(`the filing index has an unexpected shape (${describe(parsed.error)})`);
  const s = parsed.data;
  return {
    cik: padCik(s.cik),
    name: s.name.trim(),
    sic: s.sic?.trim() || null,
    sicDescription: s.sicDescription?.trim() || null,
    tickers: s.tickers.map((t) => t.trim().toUpperCase()),
    exchanges: s.exchanges.map((e) => e?.trim() ?? ""),
    filings: filingsOf(s.filings.recent),
    olderPages: s.filings.files.map((f) => f.name),
  };
}

/** An older page (`submissions/CIK##########-submissions-001.json`): the same columns at its root. */
export function parseSubmissionsPage(text: string): Filing[] {
  const parsed = columns.safeParse(parseJson(text, "an older page of the filing index"));
  if (!parsed.success) throw new EdgarFormatError(`an older page of the filing index has an unexpected shape (${describe(parsed.error)})`);
  return filingsOf(parsed.data);
}

export interface ListedCompany {
  ticker: string;
  cik: string;
  name: string;
  /** From company_tickers_exchange.json; null from company_tickers.json. */
  exchange: string | null;
}

const tickersFile = z.record(z.string(), z.object({ cik_str: z.union([z.number(), z.string()]), ticker: z.string(), title: z.string() }));
const tickersExchangeFile = z.object({ fields: z.array(z.string()), data: z.array(z.array(z.union([z.string(), z.number(), z.null()]))) });

/** `company_tickers.json` or `company_tickers_exchange.json`, as SEC publishes them. */
export function parseTickers(text: string): ListedCompany[] {
  const root = parseJson(text, "the tickers file");
  const withExchange = tickersExchangeFile.safeParse(root);
  if (withExchange.success) {
    const at = (name: string) => withExchange.data.fields.indexOf(name);
    const [cik, name, ticker, exchange] = [at("cik"), at("name"), at("ticker"), at("exchange")];
    if (cik < 0 || ticker < 0) throw new EdgarFormatError("the tickers file has no cik or ticker field");
    return withExchange.data.data.flatMap((row) => {
      const symbol = row[ticker];
      const id = row[cik];
      if (symbol === null || symbol === undefined || id === null || id === undefined) return [];
      return [{
        ticker: String(symbol).trim().toUpperCase(),
        cik: padCik(id),
        name: String(row[name] ?? "").trim(),
        exchange: exchange >= 0 && row[exchange] ? String(row[exchange]).trim() : null,
      }];
    });
  }
  const plain = tickersFile.safeParse(root);
  if (!plain.success) throw new EdgarFormatError(`the tickers file has an unexpected shape (${describe(plain.error)})`);
  return Object.values(plain.data).map((r) => ({ ticker: r.ticker.trim().toUpperCase(), cik: padCik(r.cik_str), name: r.title.trim(), exchange: null }));
}

/** The exchanges whose companies `--all` syncs, as SEC's tickers file names them. */
export const LISTED_EXCHANGES = new Set(["nasdaq", "nyse", "nyse american", "nyse mkt", "nyse arca"]);

export function isListedExchange(exchange: string | null): boolean {
  return exchange !== null && LISTED_EXCHANGES.has(exchange.trim().toLowerCase());
}

// ───────────────────────────── SEC's paths and URLs ─────────────────────────────

export const TICKERS_EXCHANGE_PATH = "files/company_tickers_exchange.json";
export const TICKERS_PATH = "files/company_tickers.json";
export const submissionsPath = (cik: string) => `submissions/CIK${padCik(cik)}.json`;
export const submissionsPagePath = (name: string) => `submissions/${name}`;
export const companyFactsPath = (cik: string) => `api/xbrl/companyfacts/CIK${padCik(cik)}.json`;

const noDashes = (accession: string) => accession.replace(/-/g, "");
const cikNumber = (cik: string) => String(Number(cik));

/** A file of a filing's folder: `Archives/edgar/data/<cik>/<accession without dashes>/<name>`. */
export function archivePath(cik: string, accession: string, name: string): string {
  return `Archives/edgar/data/${cikNumber(cik)}/${noDashes(accession)}/${name}`;
}

/** The filing's index page on sec.gov: the URL a record cites as its evidence. */
export function filingUrl(cik: string, accession: string): string {
  return `https://www.sec.gov/Archives/edgar/data/${cikNumber(cik)}/${noDashes(accession)}/${accession}-index.htm`;
}

export function submissionsUrl(cik: string): string {
  return `https://data.sec.gov/${submissionsPath(cik)}`;
}

/** Where a filing's primary document is stored: EDGAR shows EFFECT notices through an XSL folder ("xslEFFECTX01/primary_doc.xml") but stores the raw XML beside it. */
export function storedDocumentName(primaryDocument: string): string {
  return primaryDocument.replace(/^xsl[^/]*\//, "");
}
