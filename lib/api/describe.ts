import type { EndpointDefinition } from "@/lib/catalog";
import { acceptedFields, evidenceField } from "./fields";
import { DEFAULT_LIMIT, MAX_TICKERS_PER_REQUEST } from "./params";

/**
 * Human- and machine-readable description of an endpoint's parameters, read
 * by /endpoints, the OpenAPI document and the docs page.
 */
export interface ParameterDescription {
  name: string;
  type: "string" | "integer" | "boolean" | "date";
  required: boolean;
  description: string;
  default?: number;
  minimum?: number;
  maximum?: number;
  /** A comma list's accepted entries. */
  values?: string[];
}

/** The date date_from and date_to compare, in words, for an endpoint with a date range. */
const DATE_RANGE_FIELDS: Record<string, string> = {
  registrations: "filing date",
  "nasdaq-compliance": "notice date",
  offerings: "offering date",
  "reverse-splits": "effective date",
};
export const dateRangeField = (endpointName: string) => DATE_RANGE_FIELDS[endpointName] ?? "date";

export function describeParameters(endpoint: EndpointDefinition): ParameterDescription[] {
  const parameters: ParameterDescription[] = [
    {
      name: "ticker",
      type: "string",
      required: true,
      description: `Ticker symbol, or up to ${MAX_TICKERS_PER_REQUEST} comma-separated. Letters, digits, '.' and '-' (at least one letter or digit); case-insensitive.`,
    },
    { name: "page", type: "integer", required: false, description: "Page number, from 1.", default: 1, minimum: 1 },
    {
      name: "limit",
      type: "integer",
      required: false,
      description: "Results per page.",
      default: DEFAULT_LIMIT,
      minimum: 1,
      maximum: endpoint.maxLimit,
    },
  ];
  if (endpoint.supportsDateRange) {
    const field = dateRangeField(endpoint.name);
    parameters.push(
      { name: "date_from", type: "date", required: false, description: `Earliest ${field} (YYYY-MM-DD, inclusive).` },
      { name: "date_to", type: "date", required: false, description: `Latest ${field} (YYYY-MM-DD, inclusive).` },
    );
  }
  if (endpoint.name === "registrations") {
    parameters.push({
      name: "effective_status",
      type: "boolean",
      required: false,
      description: "When true, only registrations that are effective (and not expired) are returned.",
    });
  }
  if (endpoint.name === "dilution-data") {
    parameters.push({
      name: "as_of",
      type: "date",
      required: false,
      description:
        "The ledger as it was known on this day (YYYY-MM-DD): each instrument's latest state filed on or before it, adjusted for the reverse splits effective by it, and only the instruments known by then. Default: today.",
    });
  }
  parameters.push({
    name: "include",
    type: "string",
    required: false,
    description:
      endpoint.name === "dilution-rating"
        ? "include=source adds `sources`: every SEC filing (accession number, form, filing date, URL) the ratings used, or a note that the company is sample data. Opt-in: the extra bytes are billed."
        : "include=source adds `source` to each record: the SEC filing (accession number, form, filing date, URL) it came from, or a note that it is sample or imported data. Opt-in: the extra bytes are billed.",
  });
  const evidence = evidenceField(endpoint);
  parameters.push({
    name: "fields",
    type: "string",
    required: false,
    description: `Comma-separated record fields to return, case-sensitive as in the JSON: ${acceptedFields(endpoint).join(", ")}. Each record then holds only these, in its usual order (the record schema's other required fields are absent), and only the smaller body is billed. ${evidence} only with include=source (and then it must be listed).`,
    values: [...acceptedFields(endpoint)],
  });
  return parameters;
}
