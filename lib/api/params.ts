import type { EndpointDefinition } from "@/lib/catalog";
import { invalidParameter, missingParameter } from "./errors";
import { acceptedFields, evidenceField } from "./fields";
import { MAX_TICKER_LENGTH, TICKER_PATTERN } from "@/lib/data/import/schema";
import { parseIsoDay } from "@/lib/utils/dates";

/**
 * Query-string validation for the data endpoints and /estimate. Every rule
 * gives a 400 with the parameter's name and a reason a person can act on.
 */
export const DEFAULT_LIMIT = 10;
export const MAX_TICKERS_PER_REQUEST = 50;
export const MAX_PAGE = 100_000;

export interface DataQuery {
  tickers: string[];
  page: number;
  limit: number;
  dateFrom?: Date;
  dateTo?: Date;
  effectiveOnly?: boolean;
  /** dilution-data's `as_of`: the ledger as it was known on this day (UTC midnight). */
  knownOn?: Date;
  /** `include=source`: each record's SEC filing (opt-in: it adds bytes, and bytes are billed). */
  includeSource?: boolean;
  /** `fields=`: only these record fields, in record order (so equal selections share a cached body). */
  fields?: string[];
}

/** What `include` accepts: a comma list of these. */
export const INCLUDE_VALUES = ["source"] as const;

type Reader = (name: string) => string | undefined;

/** Reads each parameter once; a repeated one is an error, not a guess. */
function reader(params: URLSearchParams, allowed: readonly string[]): Reader {
  for (const name of new Set(params.keys())) {
    if (!allowed.includes(name)) {
      throw invalidParameter(shorten(name), `unknown parameter; accepted parameters are ${allowed.join(", ")}`);
    }
    if (params.getAll(name).length > 1) throw invalidParameter(name, "given more than once");
  }
  return (name) => params.get(name) ?? undefined;
}

/** At most 40 characters (code points, so a surrogate pair is never cut in half). */
function shorten(value: string): string {
  const codePoints = Array.from(value);
  return codePoints.length > 40 ? `${codePoints.slice(0, 40).join("")}…` : value;
}

export function parseTickers(raw: string | undefined, parameter = "ticker"): string[] {
  if (raw === undefined || raw.trim() === "") throw missingParameter(parameter);
  const parts = raw.split(",").map((part) => part.trim().toUpperCase());
  if (parts.length > MAX_TICKERS_PER_REQUEST) {
    throw invalidParameter(parameter, `at most ${MAX_TICKERS_PER_REQUEST} tickers per request`);
  }
  for (const ticker of parts) {
    if (ticker === "") throw invalidParameter(parameter, "empty ticker in the list");
    if (ticker.length > MAX_TICKER_LENGTH) throw invalidParameter(parameter, `tickers are at most ${MAX_TICKER_LENGTH} characters`);
    if (!TICKER_PATTERN.test(ticker)) {
      throw invalidParameter(parameter, "tickers contain only letters, digits, '.' and '-', and at least one letter or digit");
    }
  }
  return [...new Set(parts)];
}

function parseInteger(raw: string | undefined, name: string, min: number, max: number, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d{1,9}$/.test(raw)) throw invalidParameter(name, `must be a whole number from ${min} to ${max}`);
  const value = Number(raw);
  if (value < min || value > max) throw invalidParameter(name, `must be a whole number from ${min} to ${max}`);
  return value;
}


function parseDate(raw: string | undefined, name: string): Date | undefined {
  if (raw === undefined) return undefined;
  // Year 0 does not exist in the calendar the database keeps (there, 1 BC is followed by AD 1).
  const day = parseIsoDay(raw);
  if (day === null || raw < "0001-01-01") throw invalidParameter(name, "must be a date as YYYY-MM-DD");
  return day;
}

function parseBoolean(raw: string | undefined, name: string): boolean | undefined {
  if (raw === undefined) return undefined;
  const value = raw.toLowerCase();
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  throw invalidParameter(name, "must be true or false");
}

/** The parameters an endpoint accepts (beyond the ticker selection). */
export function endpointParameters(endpoint: EndpointDefinition): string[] {
  return [
    "page",
    "limit",
    ...(endpoint.supportsDateRange ? ["date_from", "date_to"] : []),
    ...(endpoint.name === "registrations" ? ["effective_status"] : []),
    ...(endpoint.name === "dilution-data" ? ["as_of"] : []),
    "include",
    "fields",
  ];
}

function parseInclude(raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  const parts = raw.split(",").map((part) => part.trim().toLowerCase());
  for (const part of parts) {
    if (!(INCLUDE_VALUES as readonly string[]).includes(part)) {
      throw invalidParameter("include", `unknown value ${JSON.stringify(shorten(part))}; accepted: ${INCLUDE_VALUES.join(", ")}`);
    }
  }
  return parts.includes("source") || undefined;
}

/**
 * A comma list of the endpoint's record fields, case-sensitive as in the JSON
 * (spaces around a name are ignored). The evidence field only comes with
 * include=source, and include=source with a list that leaves it out would
 * pay to build what is then dropped: both are refused rather than guessed.
 */
function parseFields(raw: string | undefined, endpoint: EndpointDefinition, includeSource: boolean): string[] | undefined {
  if (raw === undefined) return undefined;
  const accepted = acceptedFields(endpoint);
  const evidence = evidenceField(endpoint);
  const acceptedText = `accepted: ${accepted.join(", ")} (${evidence} only with include=source)`;
  if (raw.trim() === "") throw invalidParameter("fields", `list at least one field, comma-separated; ${acceptedText}`);
  const wanted = new Set<string>();
  for (const name of raw.split(",").map((part) => part.trim())) {
    if (name === "") throw invalidParameter("fields", "empty field in the list");
    if (!accepted.includes(name)) {
      const otherCase = accepted.find((field) => field.toLowerCase() === name.toLowerCase());
      const hint = otherCase ? ` (names are case-sensitive: ${otherCase})` : "";
      throw invalidParameter("fields", `unknown field ${JSON.stringify(shorten(name))}${hint}; ${acceptedText}`);
    }
    if (name === evidence && !includeSource) {
      throw invalidParameter("fields", `${evidence} is only returned with include=source; add include=source or leave ${evidence} out`);
    }
    wanted.add(name);
  }
  if (includeSource && !wanted.has(evidence)) {
    throw invalidParameter("fields", `include=source adds ${evidence}, which fields leaves out; add ${evidence} to fields or drop include=source`);
  }
  return accepted.filter((field) => wanted.has(field));
}

function parsePagingAndFilters(read: Reader, endpoint: EndpointDefinition): Omit<DataQuery, "tickers"> {
  const page = parseInteger(read("page"), "page", 1, MAX_PAGE, 1);
  const limit = parseInteger(read("limit"), "limit", 1, endpoint.maxLimit, DEFAULT_LIMIT);
  const dateFrom = parseDate(read("date_from"), "date_from");
  const dateTo = parseDate(read("date_to"), "date_to");
  if (dateFrom && dateTo && dateFrom > dateTo) throw invalidParameter("date_from", "must not be after date_to");
  const effectiveOnly = parseBoolean(read("effective_status"), "effective_status");
  const knownOn = parseDate(read("as_of"), "as_of");
  const includeSource = parseInclude(read("include"));
  const fields = parseFields(read("fields"), endpoint, includeSource === true);
  return { page, limit, dateFrom, dateTo, effectiveOnly, knownOn, includeSource, fields };
}

export function parseDataQuery(params: URLSearchParams, endpoint: EndpointDefinition): DataQuery {
  const read = reader(params, ["ticker", ...endpointParameters(endpoint)]);
  return { tickers: parseTickers(read("ticker")), ...parsePagingAndFilters(read, endpoint) };
}

export const MAX_ESTIMATE_TICKER_COUNT = 10_000;

export type EstimateQuery = Omit<DataQuery, "tickers"> &
  ({ tickers: string[]; tickerCount?: undefined } | { tickers?: undefined; tickerCount: number });

/** /estimate: `endpoint`, then `ticker` or `ticker_count`, then the endpoint's own parameters. */
export function parseEstimateQuery(
  params: URLSearchParams,
  lookup: (name: string) => EndpointDefinition | undefined,
): { endpoint: EndpointDefinition; query: EstimateQuery } {
  const rawEndpoint = params.getAll("endpoint");
  if (rawEndpoint.length > 1) throw invalidParameter("endpoint", "given more than once");
  const name = rawEndpoint[0]?.trim().replace(/^\/?v1\//, "");
  if (!name) throw missingParameter("endpoint");
  const endpoint = lookup(name);
  if (!endpoint) throw invalidParameter("endpoint", "unknown endpoint; GET /endpoints lists them");
  const read = reader(params, ["endpoint", "ticker", "ticker_count", ...endpointParameters(endpoint)]);
  const rest = parsePagingAndFilters(read, endpoint);
  const ticker = read("ticker");
  const count = read("ticker_count");
  if (ticker !== undefined && count !== undefined) throw invalidParameter("ticker_count", "give either ticker or ticker_count, not both");
  if (count !== undefined) {
    return { endpoint, query: { ...rest, tickerCount: parseInteger(count, "ticker_count", 1, MAX_ESTIMATE_TICKER_COUNT, 1) } };
  }
  if (ticker === undefined) throw missingParameter("ticker");
  return { endpoint, query: { ...rest, tickers: parseTickers(ticker) } };
}
