/**
 * The OpenAPI 3.1 document of the API, generated from the endpoint catalog,
 * the parameter descriptions, the error codes and the record schemas: nothing
 * here lists the endpoints or a record's fields a second time.
 *
 * The records' schemas are their zod schemas (lib/data/records/schemas.ts) as
 * JSON Schema. The public bodies are declared with small typed builders
 * (`Field<T>`), so a schema whose fields or field types drift from the body's
 * TypeScript type does not compile. lib/api/openapi.db.test.ts checks real
 * responses against the document.
 */
import { z } from "zod";
import { SOURCE_SCHEMA, servedRecordSchema } from "@/lib/data/records/schemas";
import { ENDPOINT_LIST, ENDPOINT_NAMES, type EndpointDefinition, type EndpointName } from "@/lib/catalog";
import { describeParameters, type ParameterDescription } from "./describe";
import { ApiError, ERROR_CODES, type ApiErrorCode, type errorBody } from "./errors";
import { DEFAULT_LIMIT, MAX_ESTIMATE_TICKER_COUNT, MAX_PAGE, MAX_TICKERS_PER_REQUEST } from "./params";
import type { estimate, health, listEndpoints } from "./public";
import { SECURITY_HEADERS } from "./response";

type Schema = { [keyword: string]: unknown };

// ───────────────────────────── typed schema builders ─────────────────────────────

/**
 * A JSON Schema that describes values of the TypeScript type T. `_type` only
 * makes Field invariant in T (Field<string> is not a Field<string | null>).
 */
interface Field<T> {
  readonly schema: Schema;
  readonly optional?: true;
  readonly _type?: (value: T) => T;
}
type Optional<T> = Field<T> & { readonly optional: true };

/** One Field per property of T; optional properties need an `optional(...)` field. */
type Fields<T> = {
  [K in keyof T]-?: object extends Pick<T, K> ? Optional<Exclude<T[K], undefined>> : Field<T[K]>;
};

const field = <T>(schema: Schema): Field<T> => ({ schema });
const described = (description?: string) => (description ? { description } : {});

const string = (description?: string) => field<string>({ type: "string", ...described(description) });
/** A fixed value; `literal` when the TypeScript type is the literal itself, `constant` when it is just string. */
const literal = <const V extends string>(value: V, description?: string) => field<V>({ type: "string", const: value, ...described(description) });
const constant = (value: string, description?: string) => field<string>({ type: "string", const: value, ...described(description) });
const dateTime = (description?: string) => field<string>({ type: "string", format: "date-time", ...described(description) });
const number = (description?: string) => field<number>({ type: "number", ...described(description) });
const integer = (description?: string, bounds: { minimum?: number; maximum?: number } = {}) =>
  field<number>({ type: "integer", ...bounds, ...described(description) });
const boolean = (description?: string) => field<boolean>({ type: "boolean", ...described(description) });
const oneOf = <const V extends string>(values: readonly V[], description?: string) =>
  field<V>({ type: "string", enum: [...values], ...described(description) });
const arrayOf = <T>(items: Field<T>, description?: string) => field<T[]>({ type: "array", items: items.schema, ...described(description) });

function optional<T>(inner: Field<T>): Optional<T> {
  return { schema: inner.schema, optional: true };
}

/** A closed object schema: every declared property, required unless optional. */
function object<T>(fields: Fields<T>, description?: string): Field<T> {
  const entries = Object.entries(fields) as [string, Field<unknown>][];
  return field({
    type: "object",
    ...described(description),
    required: entries.filter(([, f]) => !f.optional).map(([name]) => name),
    properties: Object.fromEntries(entries.map(([name, f]) => [name, f.schema])),
    additionalProperties: false,
  });
}

/** A plain schema object (no TypeScript type behind it). */
function objectSchema(properties: Record<string, Schema>, required: string[] = Object.keys(properties), description?: string): Schema {
  return { type: "object", ...described(description), required, properties, additionalProperties: false };
}

const ref = (kind: "schemas" | "responses" | "headers", name: string) => ({ $ref: `#/components/${kind}/${name}` });
const pascal = (name: string) => name.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());

// ───────────────────────────── records ─────────────────────────────

/** Each catalog endpoint's record, by its component name. */
const RECORD_COMPONENTS: Record<EndpointName, string> = {
  "dilution-rating": "DilutionRating",
  "dilution-data": "DilutionDataRecord",
  registrations: "RegistrationRecord",
  "nasdaq-compliance": "ComplianceRecord",
  "float-outstanding": "FloatRecord",
  offerings: "OfferingRecord",
  "reverse-splits": "ReverseSplitRecord",
};

/**
 * components.schemas of the records as served (their evidence admitted) and
 * of their evidence, `Source`: zod's JSON Schema 2020-12, which OpenAPI 3.1
 * takes, with two changes of form: a value that may be null is written
 * type [t, "null"] as everywhere else in the document, and a date is its
 * format without zod's regular expression.
 */
function recordSchemas(): Record<string, Schema> {
  const registry = z.registry<{ id: string }>();
  registry.add(SOURCE_SCHEMA, { id: "Source" });
  for (const endpoint of ENDPOINT_NAMES) registry.add(servedRecordSchema(endpoint), { id: RECORD_COMPONENTS[endpoint] });
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}` });
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => {
      // The document's dialect (OpenAPI 3.1) and the component's place say these.
      delete schema.$schema;
      delete schema.$id;
      return [name, plainNullable(schema) as Schema];
    }),
  );
}

/** anyOf [S, {type: "null"}] as S with type [S.type, "null"] (and null in its enum), recursively; dates without their pattern. */
function plainNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(plainNullable);
  if (node === null || typeof node !== "object") return node;
  const entries = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, plainNullable(value)])) as Schema;
  if (entries.format === "date") delete entries.pattern;
  const { anyOf, ...outer } = entries;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return entries;
  const inner = anyOf.find((s: Schema) => s.type !== "null") as Schema | undefined;
  if (!anyOf.some((s: Schema) => s.type === "null" && Object.keys(s).length === 1) || typeof inner?.type !== "string") return entries;
  const { enum: values, ...rest } = inner;
  return { ...rest, ...outer, type: [inner.type, "null"], ...(Array.isArray(values) ? { enum: [...values, null] } : {}) };
}

const pageComponent = (endpoint: EndpointDefinition) => `${pascal(endpoint.name)}Page`;

function pageSchema(endpoint: EndpointDefinition): Schema {
  return objectSchema(
    {
      status: { type: "string", const: "success" },
      count: { type: "integer", minimum: 0, description: "Number of results in this page." },
      has_more: { type: "boolean", description: "More pages exist: request page + 1 with the same parameters." },
      page: { type: "integer", minimum: 1, description: "This page's number (the first is 1)." },
      limit: { type: "integer", minimum: 1, maximum: endpoint.maxLimit, description: "Maximum results per page." },
      results: { type: "array", items: ref("schemas", RECORD_COMPONENTS[endpoint.name]), maxItems: endpoint.maxLimit },
    },
    undefined,
    `A page of ${endpoint.path} results.`,
  );
}

// ───────────────────────────── public bodies ─────────────────────────────

type HealthBody = Awaited<ReturnType<typeof health>>;
type EndpointListBody = Awaited<ReturnType<typeof listEndpoints>>;
/** The shape every /endpoints entry shares (TypeScript infers the list as this common type). */
type PublicEndpointEntry = EndpointListBody["endpoints"][number];
type DataEndpointEntry = PublicEndpointEntry & {
  title: string;
  price_per_gb_dollars: number;
  default_limit: number;
  max_limit: number;
  max_tickers_per_request: number;
  supports_date_range: boolean;
  parameters: ParameterDescription[];
};
type EstimateBody = Awaited<ReturnType<typeof estimate>>;

const healthBody = object<HealthBody>(
  {
    status: oneOf(["ok", "degraded"], "degraded: a dependency other than the database is down (named below); keyed requests answer 503 until it is back."),
    version: constant("v1"),
    database: object<HealthBody["database"]>({ status: literal("ok"), latency_ms: integer("Round trip of a trivial query.", { minimum: 0 }) }),
    redis: optional(
      object<NonNullable<HealthBody["redis"]>>(
        { status: oneOf(["ok", "unavailable"]), latency_ms: integer("Round trip of a PING, or the time it took to fail.", { minimum: 0 }) },
        "Present when the service keeps its rate limits in Redis (REDIS_URL).",
      ),
    ),
    time: dateTime("Server time."),
  },
  "The service and its database are up; each other configured dependency with its state.",
);

const parameterDescription = object<ParameterDescription>(
  {
    name: string(),
    type: oneOf(["string", "integer", "boolean", "date"] as const),
    required: boolean(),
    description: string(),
    default: optional(number()),
    minimum: optional(number()),
    maximum: optional(number()),
    values: optional(arrayOf(string(), "The accepted entries of a comma-separated list.")),
  },
  "A query parameter of an endpoint.",
);

const dataEndpointEntry = object<DataEndpointEntry>({
  name: field<string>({ type: "string", enum: [...ENDPOINT_NAMES] }),
  method: constant("GET"),
  path: field<string>({ type: "string", enum: ENDPOINT_LIST.map((e) => e.path) }),
  title: string(),
  description: string(),
  requires_api_key: field<boolean>({ type: "boolean", const: true }),
  price_per_gb_dollars: number("Current price per GB (10^9 bytes) of response body."),
  default_limit: integer(undefined, { minimum: 1 }),
  max_limit: integer(undefined, { minimum: 1 }),
  max_tickers_per_request: integer(undefined, { minimum: 1 }),
  supports_date_range: boolean(),
  parameters: arrayOf(field<ParameterDescription>(ref("schemas", "ParameterDescription"))),
});

const publicEndpointEntry = object<PublicEndpointEntry>({
  name: string(),
  method: constant("GET"),
  path: string(),
  description: string(),
  requires_api_key: field<boolean>({ type: "boolean", const: false }),
});

const endpointListBody = object<EndpointListBody>(
  {
    status: constant("success"),
    count: integer("Number of entries.", { minimum: 0 }),
    endpoints: arrayOf(field<PublicEndpointEntry>({ anyOf: [ref("schemas", "DataEndpointEntry"), ref("schemas", "PublicEndpointEntry")] })),
    errors: arrayOf(
      field<EndpointListBody["errors"][number]>({
        type: "object",
        required: ["code", "http_status", "when", "details"],
        additionalProperties: false,
        properties: {
          code: { type: "string", enum: [...ERROR_CODES] },
          http_status: { type: "integer" },
          when: { type: "string" },
          details: { type: "array", items: { type: "string" }, description: "The keys of error.details for this code." },
        },
      }),
    ),
  },
  "Every endpoint of the API: the data endpoints (with their current price, page maximum and parameters), then the public ones; and every error code with its HTTP status, when it is answered and its details.",
);

const DOLLAR_TEXT = "^-?\\$\\d+\\.\\d+$";
const dollarText = (description: string) => field<string>({ type: "string", pattern: DOLLAR_TEXT, description: `${description} Dollars with a leading "$", e.g. "$0.000115".` });

const costEstimate = object<EstimateBody>(
  {
    endpoint: oneOf(ENDPOINT_NAMES, "The endpoint estimated."),
    ticker_count: integer("Tickers the estimate is for.", { minimum: 1 }),
    limit: integer("Page size used.", { minimum: 1 }),
    records_returned: integer("Records the request(s) would return.", { minimum: 0 }),
    estimated_bytes: integer(
      "The most response body bytes the request(s) can be billed for: the records' count times the widest each of their fields can be, whatever the records hold (so it reveals none of their values). The bill is never above it; 0 when no record would be returned (an answer without records is free).",
      { minimum: 0 },
    ),
    estimated_cost_dollars: dollarText("The most the request(s) can be charged: estimated_bytes × the price."),
    price_per_gb_dollars: number("The endpoint's current price per GB."),
    supports_date_range: boolean("Whether the endpoint accepts date_from / date_to."),
    unknown_tickers: arrayOf(string(), "The requested tickers that name no company (upper case); they return nothing and cost nothing. Empty for ticker_count."),
  },
  "A free cost estimate: an upper bound of the charge, never below it. Not wrapped in the data envelope. For ticker_count, one request per ticker is estimated from a sample of the dataset.",
);

// ───────────────────────────── errors ─────────────────────────────

type ErrorBody = ReturnType<typeof errorBody>;

const errorEnvelope = object<ErrorBody>(
  {
    status: literal("error"),
    error: object<ErrorBody["error"]>({
      code: oneOf(ERROR_CODES, "Machine-readable error code."),
      message: string("Human-readable explanation."),
      details: field<Record<string, unknown>>({ type: "object", description: "Extra data, depending on the code; {} when none." }),
    }),
    request_id: field<string>({ type: "string", format: "uuid", description: "Request identifier, also sent as X-Request-ID." }),
  },
  "Every error, in one envelope.",
);

const NO_DETAILS: Schema = { type: "object", maxProperties: 0 };
const endpointName: Schema = { type: "string", enum: [...ENDPOINT_NAMES] };

/** error.details of each code (DESIGN.md §4). */
const ERROR_DETAILS: Record<ApiErrorCode, Schema> = {
  invalid_parameter: objectSchema({ parameter: { type: "string" }, reason: { type: "string" } }),
  missing_parameter: objectSchema({ parameter: { type: "string" } }),
  missing_api_key: NO_DETAILS,
  invalid_api_key: NO_DETAILS,
  api_key_disabled: NO_DETAILS,
  api_key_expired: objectSchema({
    expired_at: { type: "string", format: "date-time", description: "When the key stopped working: its expiry, or the end of a rolled key's grace period." },
  }),
  organization_suspended: NO_DETAILS,
  ip_not_allowed: objectSchema({
    ip: { type: ["string", "null"], description: "The address the request came from, as the service saw it (null when unknown)." },
  }),
  spend_limit_reached: objectSchema({
    scope: { type: "string", enum: ["key", "organization"], description: "Whose cap: the key's own, or the organization's." },
    period: { type: "string", enum: ["day", "month"], description: "The UTC day or the UTC calendar month." },
    limit_dollars: { type: "string", pattern: DOLLAR_TEXT },
    spent_dollars: { type: "string", pattern: DOLLAR_TEXT, description: "Spent in the period before this request." },
    estimated_cost_dollars: { type: "string", pattern: DOLLAR_TEXT },
    resets_at: { type: "string", format: "date-time", description: "When the period ends (00:00 UTC the next day, or the 1st of next month)." },
    unit: { type: "string", const: "dollars" },
  }),
  endpoint_not_allowed: objectSchema({ endpoint: endpointName, allowed_endpoints: { type: "array", items: endpointName } }),
  insufficient_credits: objectSchema({
    balance_dollars: { type: "string", pattern: DOLLAR_TEXT },
    estimated_cost_dollars: { type: "string", pattern: DOLLAR_TEXT },
    unit: { type: "string", const: "dollars" },
  }),
  not_found: objectSchema({ path: { type: "string" } }),
  method_not_allowed: objectSchema({ allowed: { type: "array", items: { type: "string", const: "GET" } } }),
  rate_limit_exceeded: objectSchema({
    limit: { type: "integer", minimum: 0 },
    window: { type: "string", const: "1m" },
    retry_after: { type: "integer", minimum: 0, description: "Seconds until a request is admitted again." },
  }),
  trial_ticker_limit: objectSchema({
    endpoint: endpointName,
    limit: { type: "integer", minimum: 0 },
    used: { type: "integer", minimum: 0 },
    resets_at: { type: "string", format: "date-time", description: "Next midnight, America/Chicago." },
  }),
  internal_error: NO_DETAILS,
  service_unavailable: NO_DETAILS,
};

const statusOf = (code: ApiErrorCode) => new ApiError(code, "").status;

/** The error envelope narrowed to some codes, each with its own details. */
function errorSchema(codes: readonly ApiErrorCode[]): Schema {
  const variants = codes.map((code) => ({
    type: "object",
    properties: {
      error: { type: "object", properties: { code: { const: code }, details: ERROR_DETAILS[code] } },
    },
  }));
  return { allOf: [ref("schemas", "Error"), variants.length === 1 ? variants[0] : { oneOf: variants }] };
}

// ───────────────────────────── headers ─────────────────────────────

const HEADER_SCHEMAS: Record<string, { description: string; schema: Schema }> = {
  "X-Request-ID": { description: "Request identifier; the error envelope's request_id.", schema: { type: "string", format: "uuid" } },
  ...Object.fromEntries(
    Object.entries(SECURITY_HEADERS).map(([name, value]) => [name, { description: `Always "${value}".`, schema: { type: "string", const: value } }]),
  ),
  "X-RateLimit-Limit": { description: "The organization's requests per minute.", schema: { type: "integer", minimum: 0 } },
  "X-RateLimit-Remaining": { description: "Requests left in the current minute.", schema: { type: "integer", minimum: 0 } },
  "X-RateLimit-Reset": { description: "When the current window ends (Unix seconds).", schema: { type: "integer", minimum: 0 } },
  "X-Cost-Dollars": { description: 'What this response was charged, e.g. "$0.000012".', schema: { type: "string", pattern: DOLLAR_TEXT } },
  "X-Balance-Dollars": { description: "The organization's credit balance after the charge.", schema: { type: "string", pattern: DOLLAR_TEXT } },
  "X-Billable-Bytes": { description: "UTF-8 bytes of the response body, the charged volume (0 for a page without records, which is free).", schema: { type: "integer", minimum: 0 } },
  "X-Unknown-Tickers": {
    description: "The requested tickers that name no company, comma-separated, upper case.",
    schema: { type: "string", pattern: "^[A-Z0-9.-]+(,[A-Z0-9.-]+)*$" },
  },
  "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 0 } },
  Allow: { description: "The methods the path accepts.", schema: { type: "string" } },
};

const COMMON_HEADERS = ["X-Request-ID", ...Object.keys(SECURITY_HEADERS)];
const RATE_LIMIT_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];
const METERING_HEADERS = [...RATE_LIMIT_HEADERS, "X-Cost-Dollars", "X-Balance-Dollars", "X-Billable-Bytes"];

function headerDefinition(name: string) {
  const definition = HEADER_SCHEMAS[name];
  if (!definition) throw new Error(`no header definition for ${name}`);
  return definition;
}

/** components.headers: every header, as always sent. */
function headerComponents() {
  return Object.fromEntries(Object.keys(HEADER_SCHEMAS).map((name) => [name, { ...headerDefinition(name), required: true }]));
}

/** A response's headers: the common ones and `required` by reference, sometimes-sent ones inline. */
function headers(required: string[], optionalHeaders: { names: string[]; when: string }[] = []) {
  return Object.fromEntries([
    ...[...COMMON_HEADERS, ...required].map((name) => [name, ref("headers", name)]),
    ...optionalHeaders.flatMap(({ names, when }) =>
      names.map((name) => {
        const { description, schema } = headerDefinition(name);
        return [name, { description: `${description} ${when}`, required: false, schema }];
      }),
    ),
  ]);
}

// ───────────────────────────── responses ─────────────────────────────

const ON_DATA_ENDPOINTS = { names: RATE_LIMIT_HEADERS, when: "Sent by data endpoints once the rate limit was checked." };
const UNKNOWN_TICKERS = { names: ["X-Unknown-Tickers"], when: "Sent when a requested ticker names no company." };

/** Reusable error responses (components.responses), by name. */
const ERROR_RESPONSES: Record<string, { codes: ApiErrorCode[]; description: string; headers: ReturnType<typeof headers> }> = {
  BadRequest: {
    codes: ["invalid_parameter", "missing_parameter"],
    description: "A parameter is missing or invalid; details.parameter names it. Not charged.",
    headers: headers([], [ON_DATA_ENDPOINTS]),
  },
  Unauthorized: {
    codes: ["missing_api_key", "invalid_api_key", "api_key_disabled", "api_key_expired"],
    description: "No API-KEY header, an unknown (or deleted) key, a disabled key, or a key past its expiry (or a rolled key past its grace period).",
    headers: headers([]),
  },
  PaymentRequired: {
    codes: ["insufficient_credits", "spend_limit_reached"],
    description:
      "insufficient_credits: the balance is lower than the cost of the request. spend_limit_reached: the balance covers it, but it would take the key's or the organization's daily or monthly spend (UTC) over its cap. Nothing was returned or charged. details.estimated_cost_dollars is the request's estimate (what /estimate answers: the most it can cost), not its exact cost.",
    headers: headers([], [ON_DATA_ENDPOINTS, UNKNOWN_TICKERS]),
  },
  Forbidden: {
    codes: ["endpoint_not_allowed", "ip_not_allowed", "organization_suspended"],
    description:
      "endpoint_not_allowed: the organization's plan or the key's restrictions do not include this endpoint. ip_not_allowed: the key has an IP allow-list and the request came from elsewhere. organization_suspended: a platform administrator suspended the organization; nothing is served or charged until it is lifted.",
    headers: headers([]),
  },
  NotFound: { codes: ["not_found"], description: "No endpoint at this path.", headers: headers([]) },
  MethodNotAllowed: {
    codes: ["method_not_allowed"],
    description: "A method other than GET (or HEAD on public endpoints, or OPTIONS) was used on this path.",
    headers: headers(["Allow"]),
  },
  TooManyRequests: {
    codes: ["rate_limit_exceeded", "trial_ticker_limit"],
    description:
      "rate_limit_exceeded: the organization exceeded its requests per minute (with Retry-After). trial_ticker_limit: a trial organization exceeded its unique tickers per endpoint for the day (Chicago time).",
    headers: headers(RATE_LIMIT_HEADERS, [{ names: ["Retry-After"], when: "Sent with rate_limit_exceeded." }, UNKNOWN_TICKERS]),
  },
  EstimateRateLimited: {
    codes: ["rate_limit_exceeded"],
    description: "Too many estimates from this client in the current minute.",
    headers: headers(["Retry-After"]),
  },
  InternalError: { codes: ["internal_error"], description: "An unexpected failure. Not charged.", headers: headers([]) },
  ServiceUnavailable: {
    codes: ["service_unavailable"],
    description: "The database or the shared rate-limit store is unreachable; retry after Retry-After seconds. Not charged.",
    headers: headers(["Retry-After"]),
  },
};
type ErrorResponseName = keyof typeof ERROR_RESPONSES;

function errorResponseComponent(name: ErrorResponseName) {
  const { codes, description, headers: responseHeaders } = ERROR_RESPONSES[name]!;
  return { description, headers: responseHeaders, content: { "application/json": { schema: errorSchema(codes) } } };
}

function successResponse(description: string, schemaName: string, required: string[] = []) {
  return { description, headers: headers(required), content: { "application/json": { schema: ref("schemas", schemaName) } } };
}

function statusOfResponse(name: ErrorResponseName): number {
  const statuses = new Set(ERROR_RESPONSES[name]!.codes.map(statusOf));
  if (statuses.size !== 1) throw new Error(`response ${name} mixes statuses`);
  return [...statuses][0]!;
}

function responses(success: object, errors: ErrorResponseName[]) {
  return {
    "200": success,
    ...Object.fromEntries(errors.map((name) => [String(statusOfResponse(name)), ref("responses", name)])),
  };
}

// ───────────────────────────── parameters ─────────────────────────────

function parameterSchema(p: Pick<ParameterDescription, "type" | "default" | "minimum" | "maximum" | "values">): Schema {
  if (p.type === "date") return { type: "string", format: "date" };
  if (p.values) return { type: "array", items: { type: "string", enum: p.values }, minItems: 1 };
  return {
    type: p.type,
    ...(p.default !== undefined ? { default: p.default } : {}),
    ...(p.minimum !== undefined ? { minimum: p.minimum } : {}),
    ...(p.maximum !== undefined ? { maximum: p.maximum } : {}),
  };
}

function queryParameter(p: ParameterDescription) {
  // A list of named entries is a comma-separated array: form style, not exploded.
  const style = p.values ? { style: "form", explode: false } : {};
  return { name: p.name, in: "query", required: p.required, description: p.description, ...style, schema: parameterSchema(p) };
}

/**
 * /estimate: endpoint, ticker or ticker_count, then the union of the data
 * endpoints' own parameters (each applies only where that endpoint takes it).
 */
function estimateParameters() {
  const byName = new Map<string, { endpoint: EndpointDefinition; parameter: ParameterDescription }[]>();
  for (const endpoint of ENDPOINT_LIST) {
    for (const parameter of describeParameters(endpoint)) {
      if (parameter.name !== "ticker") byName.set(parameter.name, [...(byName.get(parameter.name) ?? []), { endpoint, parameter }]);
    }
  }
  const own = [...byName.values()].map((uses) => {
    const first = uses[0]!.parameter;
    const texts = new Set(uses.map((u) => u.parameter.description));
    const text = texts.size === 1 ? first.description : uses.map((u) => `${u.endpoint.name}: ${u.parameter.description}`).join(" ");
    const where = uses.length === ENDPOINT_LIST.length ? "" : ` Only for ${uses.map((u) => u.endpoint.name).join(", ")}.`;
    const maxima = uses.map((u) => u.parameter.maximum).filter((m): m is number => m !== undefined);
    const limitNote = maxima.length ? " At most the endpoint's max_limit (GET /endpoints)." : "";
    const values = uses.some((u) => u.parameter.values) ? [...new Set(uses.flatMap((u) => u.parameter.values ?? []))] : undefined;
    return queryParameter({
      ...first,
      ...(maxima.length ? { maximum: Math.max(...maxima) } : {}),
      ...(values ? { values } : {}),
      description: `${text}${limitNote}${where}`,
    });
  });
  return [
    {
      name: "endpoint",
      in: "query",
      required: true,
      description: "The data endpoint to estimate, by name (the path without /v1/; a /v1/ prefix is accepted).",
      schema: { type: "string", enum: [...ENDPOINT_NAMES] },
    },
    {
      name: "ticker",
      in: "query",
      required: false,
      description: `One ticker or up to ${MAX_TICKERS_PER_REQUEST} comma-separated, as the data request would send them. Give ticker or ticker_count (one is required).`,
      schema: { type: "string" },
    },
    {
      name: "ticker_count",
      in: "query",
      required: false,
      description: "Estimate one request per ticker for this many tickers sampled from the dataset, instead of ticker.",
      schema: { type: "integer", minimum: 1, maximum: MAX_ESTIMATE_TICKER_COUNT },
    },
    ...own,
  ];
}

// ───────────────────────────── operations ─────────────────────────────

const PUBLIC_ERRORS: ErrorResponseName[] = ["MethodNotAllowed", "InternalError", "ServiceUnavailable"];

function dataOperation(endpoint: EndpointDefinition) {
  return {
    get: {
      operationId: `get${pascal(endpoint.name)}`,
      tags: ["Data"],
      summary: endpoint.title,
      description: `${endpoint.summary} Paginated (page from 1, limit up to ${endpoint.maxLimit}).${
        endpoint.supportsDateRange ? " Accepts a date range (date_from, date_to)." : ""
      } Charged per byte of the response body at the endpoint's price per GB.`,
      security: [{ ApiKey: [] }],
      parameters: describeParameters(endpoint).map(queryParameter),
      responses: responses(
        {
          description:
            "A page of results. X-Cost-Dollars says what it was charged; a page without records (an unknown ticker, a page past the end) is free. Tickers that name no company are named in X-Unknown-Tickers.",
          headers: headers(METERING_HEADERS, [UNKNOWN_TICKERS]),
          content: { "application/json": { schema: ref("schemas", pageComponent(endpoint)) } },
        },
        ["BadRequest", "Unauthorized", "PaymentRequired", "Forbidden", "MethodNotAllowed", "TooManyRequests", "InternalError", "ServiceUnavailable"],
      ),
    },
  };
}

function publicOperation(operationId: string, summary: string, description: string, success: object, errors: ErrorResponseName[], parameters: object[] = []) {
  return {
    get: {
      operationId,
      tags: ["Public"],
      summary,
      description: `${description} Free; no API key. HEAD is accepted too.`,
      security: [],
      ...(parameters.length ? { parameters } : {}),
      responses: responses(success, errors),
    },
  };
}

// ───────────────────────────── the document ─────────────────────────────

const API_DESCRIPTION = [
  "Read-only JSON data on the dilution risk of listed companies, selected by ticker: dilution ratings, dilution data (warrants and convertibles), offerings, shelf registrations, listing-compliance deficiencies, and float and shares outstanding.",
  "",
  "**Authentication.** Data endpoints (`/v1/...`) need the `API-KEY` header. `/health`, `/endpoints`, `/estimate` and `/openapi.json` are free and need no key.",
  "",
  "**Pricing.** Usage is paid from a prepaid credit balance. A successful data response is charged its body's UTF-8 bytes × the endpoint's price per GB (10^9 bytes), rounded up to the nano-dollar; `X-Cost-Dollars` and `X-Balance-Dollars` report the charge and the balance after it. Prices are listed by `GET /endpoints` and returned by `GET /estimate`, which gives for free the most a request can cost (an upper bound from the record count and the widest each field can be; the bill is never above it). A failed or refused request is never charged, and neither is a page without records; tickers that name no company are named in `X-Unknown-Tickers`.",
  "",
  "**Check order.** Every data request passes these checks in order, and the first failure is returned: 1. authentication (401), 2. endpoint permission (403), 3. the organization's per-minute rate limit (429 rate_limit_exceeded), 4. credit check (402), 5. trial accounts' daily unique-ticker limit (429 trial_ticker_limit), 6. processing (400 for bad parameters).",
  "",
  `**Pagination.** \`page\` starts at 1 (at most ${MAX_PAGE}); \`limit\` defaults to ${DEFAULT_LIMIT}. While \`has_more\` is true, request the next page with the same parameters.`,
  "",
  "Every response carries `X-API-Version: v1`, `X-Request-ID` and the security headers; errors use one envelope with a stable `error.code`.",
].join("\n");

export function buildOpenApiDocument(serverUrl: string): object {
  const { Source, ...records } = recordSchemas();
  const schemas: Record<string, unknown> = {
    ...records,
    ...Object.fromEntries(ENDPOINT_LIST.map((endpoint) => [pageComponent(endpoint), pageSchema(endpoint)])),
    CostEstimate: costEstimate.schema,
    Health: healthBody.schema,
    EndpointList: endpointListBody.schema,
    DataEndpointEntry: dataEndpointEntry.schema,
    PublicEndpointEntry: publicEndpointEntry.schema,
    ParameterDescription: parameterDescription.schema,
    Source,
    OpenApiDocument: { type: "object", required: ["openapi", "info", "paths"], properties: { openapi: { type: "string" } } },
    Error: errorEnvelope.schema,
  };

  const paths: Record<string, unknown> = {
    "/health": publicOperation(
      "getHealth",
      "Health check",
      "Service health: the database (without it, 503) and each other configured dependency (Redis: degraded when down).",
      successResponse("The service and its database are up; status says whether every other dependency is.", "Health"),
      PUBLIC_ERRORS,
    ),
    "/endpoints": publicOperation(
      "listEndpoints",
      "List endpoints",
      "Every endpoint with its path and parameters; data endpoints with their current price per GB, page maximum and date-range support.",
      successResponse("The endpoint list.", "EndpointList"),
      PUBLIC_ERRORS,
    ),
    "/estimate": publicOperation(
      "estimateCost",
      "Estimate the cost of a request",
      "Records, bytes and dollars a data request would return and cost, computed on the same data. Limited per client IP per minute.",
      successResponse("The estimate.", "CostEstimate"),
      ["BadRequest", "MethodNotAllowed", "EstimateRateLimited", "InternalError", "ServiceUnavailable"],
      estimateParameters(),
    ),
    "/openapi.json": publicOperation(
      "getOpenApiDocument",
      "This OpenAPI document",
      "The OpenAPI 3.1 description of this API.",
      successResponse("The OpenAPI document.", "OpenApiDocument"),
      ["MethodNotAllowed", "InternalError"],
    ),
    ...Object.fromEntries(ENDPOINT_LIST.map((endpoint) => [endpoint.path, dataOperation(endpoint)])),
  };

  return {
    openapi: "3.1.0",
    info: { title: "Dilution Data API", version: "v1", description: API_DESCRIPTION },
    servers: [{ url: serverUrl }],
    tags: [
      { name: "Data", description: "Metered data endpoints; API-KEY header required." },
      { name: "Public", description: "Free endpoints; no key." },
    ],
    paths,
    components: {
      securitySchemes: {
        ApiKey: { type: "apiKey", in: "header", name: "API-KEY", description: "Your API key, e.g. svc-live-<64 hex characters>." },
      },
      schemas,
      headers: headerComponents(),
      responses: Object.fromEntries(Object.keys(ERROR_RESPONSES).map((name) => [name, errorResponseComponent(name)])),
    },
  };
}
