import type { EndpointDefinition } from "@/lib/catalog";

/**
 * The copyable request examples of the docs page: curl, Python (requests)
 * and JavaScript (fetch), as pure functions of a catalog entry, the base URL
 * and the request's parameters. The key is read from the API_KEY environment
 * variable in every language, so a pasted example never holds a secret.
 */
export type ExampleLanguage = "curl" | "python" | "javascript";

export interface CodeExample {
  id: ExampleLanguage;
  /** Tab label. */
  label: string;
  /** Language of the code, for the code block's label. */
  language: string;
  code: string;
}

/** Query parameters in the order they should appear; empty values are left out. */
export type ExampleParams = Record<string, string | number | boolean | undefined>;

export const API_KEY_ENV = "API_KEY";

type ExampleEndpoint = Pick<EndpointDefinition, "path">;

function entries(params: ExampleParams): [string, string | number | boolean][] {
  return Object.entries(params).filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined && entry[1] !== "");
}

/** The full request URL: base URL without its trailing slash, the path, the encoded query. */
export function exampleUrl(endpoint: ExampleEndpoint, baseUrl: string, params: ExampleParams): string {
  const query = new URLSearchParams(entries(params).map(([name, value]) => [name, String(value)])).toString();
  return `${baseUrl.replace(/\/+$/, "")}${endpoint.path}${query ? `?${query}` : ""}`;
}

/** POSIX shell single-quoting: nothing inside is expanded, `'` becomes `'\''`. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

export function curlExample(endpoint: ExampleEndpoint, baseUrl: string, params: ExampleParams): string {
  // The URL in single quotes (its `&` and `?` stay literal), the header in
  // double quotes so that the shell fills in $API_KEY.
  return [`curl -sS ${shellQuote(exampleUrl(endpoint, baseUrl, params))} \\`, `  -H "API-KEY: $${API_KEY_ENV}"`].join("\n");
}

// JSON string literals are valid string literals in both Python and JavaScript.
const literal = (value: string) => JSON.stringify(value);

function pythonValue(value: string | number | boolean): string {
  if (typeof value === "number") return String(value);
  return literal(String(value));
}

export function pythonExample(endpoint: ExampleEndpoint, baseUrl: string, params: ExampleParams): string {
  const pairs = entries(params).map(([name, value]) => `${literal(name)}: ${pythonValue(value)}`);
  return [
    "import os",
    "",
    "import requests",
    "",
    "response = requests.get(",
    `    ${literal(exampleUrl(endpoint, baseUrl, {}))},`,
    `    params={${pairs.join(", ")}},`,
    `    headers={"API-KEY": os.environ[${literal(API_KEY_ENV)}]},`,
    "    timeout=30,",
    ")",
    "body = response.json()",
    "if response.status_code != 200:",
    `    raise SystemExit(f"{body['error']['code']}: {body['error']['message']}")`,
    "",
    `print("cost", response.headers["X-Cost-Dollars"], "balance", response.headers["X-Balance-Dollars"])`,
    `for record in body["results"]:`,
    "    print(record)",
  ].join("\n");
}

export function javascriptExample(endpoint: ExampleEndpoint, baseUrl: string, params: ExampleParams): string {
  const pairs = entries(params).map(([name, value]) => `${/^[a-z_][a-z0-9_]*$/i.test(name) ? name : literal(name)}: ${literal(String(value))}`);
  return [
    "// Node.js 18+ as an ES module (example.mjs), or any modern browser console",
    `const url = new URL(${literal(exampleUrl(endpoint, baseUrl, {}))});`,
    `url.search = new URLSearchParams({ ${pairs.join(", ")} }).toString();`,
    "",
    "const response = await fetch(url, {",
    `  headers: { "API-KEY": process.env.${API_KEY_ENV} },`,
    "});",
    "const body = await response.json();",
    "if (!response.ok) throw new Error(`${body.error.code}: ${body.error.message}`);",
    "",
    `console.log("cost", response.headers.get("X-Cost-Dollars"), "balance", response.headers.get("X-Balance-Dollars"));`,
    "console.log(body.results);",
  ].join("\n");
}

/** The three examples, in tab order. */
export function buildExamples(endpoint: ExampleEndpoint, baseUrl: string, params: ExampleParams): CodeExample[] {
  return [
    { id: "curl", label: "curl", language: "shell", code: curlExample(endpoint, baseUrl, params) },
    { id: "python", label: "Python", language: "python", code: pythonExample(endpoint, baseUrl, params) },
    { id: "javascript", label: "JavaScript", language: "javascript", code: javascriptExample(endpoint, baseUrl, params) },
  ];
}

/** Python that walks every page of a request: the spec's rule, "while has_more, ask for the next page". */
export function paginationExample(endpoint: ExampleEndpoint, baseUrl: string, params: ExampleParams): string {
  const pairs = entries(params)
    .filter(([name]) => name !== "page")
    .map(([name, value]) => `${literal(name)}: ${pythonValue(value)}`);
  return [
    "import os",
    "",
    "import requests",
    "",
    `url = ${literal(exampleUrl(endpoint, baseUrl, {}))}`,
    `headers = {"API-KEY": os.environ[${literal(API_KEY_ENV)}]}`,
    "records, page = [], 1",
    "while True:",
    "    response = requests.get(",
    `        url, params={${[...pairs, `"page": page`].join(", ")}}, headers=headers, timeout=30`,
    "    )",
    "    response.raise_for_status()",
    "    body = response.json()",
    `    records += body["results"]`,
    `    if not body["has_more"]:`,
    "        break",
    "    page += 1",
    "",
    `print(len(records), "records")`,
  ].join("\n");
}
