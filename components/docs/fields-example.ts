import type { EndpointDoc } from "@/lib/api/docs";
import { selectFields } from "@/lib/api/fields";
import { encodeJson } from "@/lib/api/response";
import type { JsonRecord } from "@/lib/data/records";
import { chargeForBytes } from "@/lib/money";

/** The docs' `fields=` example: a rating's ticker and its seven ratings (in record order), without the explanations and cash figures. */
export const RATINGS_ONLY_FIELDS = [
  "ticker",
  "offering_ability",
  "dilution",
  "offering_frequency",
  "cash_need",
  "nasdaq_compliance",
  "overall_offering_risk",
  "warrant_exercise",
] as const;

export interface FieldsExample {
  /** The sample request's parameters, then `fields`. */
  params: { ticker: string; limit: number; fields: string };
  /** The projected body exactly as the API sends it (compact JSON). */
  body: string;
  bytes: number;
  costNanos: bigint;
  full: { bytes: number; costNanos: bigint };
}

/**
 * The endpoint's real sample response cut to `fields` the way the API cuts
 * it (the same selectFields and encoding), priced at the endpoint's price:
 * lib/api/docs.db.test.ts checks it against a live request.
 */
export function fieldsExample(doc: EndpointDoc, fields: readonly string[] = RATINGS_ONLY_FIELDS): FieldsExample | null {
  const { sample, pricePerGbNanos } = doc;
  if (!sample) return null;
  const page = JSON.parse(sample.body) as { results: JsonRecord[] };
  const bytes = encodeJson(selectFields(page, fields));
  return {
    params: { ...sample.params, fields: fields.join(",") },
    body: new TextDecoder().decode(bytes),
    bytes: bytes.byteLength,
    costNanos: chargeForBytes(bytes.byteLength, pricePerGbNanos),
    full: { bytes: sample.bytes, costNanos: sample.costNanos },
  };
}
