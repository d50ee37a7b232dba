import type { EndpointDefinition } from "@/lib/catalog";
import { API_RECORD_FIELDS, EVIDENCE_FIELDS } from "@/lib/data/records/schemas";
import type { JsonRecord } from "@/lib/data/records";

/**
 * `fields=`: the top-level record fields a data request returns. The names
 * are the record schema's own (lib/data/records/schemas.ts), so this list cannot drift from
 * what the endpoints produce.
 */

/** What `fields` accepts on this endpoint, in record order; the evidence field (last) only with include=source. */
export function acceptedFields(endpoint: EndpointDefinition): readonly string[] {
  return [...API_RECORD_FIELDS[endpoint.name], EVIDENCE_FIELDS[endpoint.name]];
}

export function evidenceField(endpoint: EndpointDefinition): string {
  return EVIDENCE_FIELDS[endpoint.name];
}

/** The page with each record cut down to these fields, in the record's own order. */
export function selectFields<Page extends { results: JsonRecord[] }>(page: Page, fields: readonly string[]): Page {
  const wanted = new Set(fields);
  return {
    ...page,
    results: page.results.map((record) => Object.fromEntries(Object.entries(record).filter(([name]) => wanted.has(name)))),
  };
}
