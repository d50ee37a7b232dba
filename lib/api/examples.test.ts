import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ENDPOINT_LIST, ENDPOINTS } from "@/lib/catalog";
import { buildExamples, curlExample, exampleUrl, javascriptExample, paginationExample, pythonExample, shellQuote } from "./examples";

const BASE = "https://api.example.test";
const offerings = ENDPOINTS.offerings;
const params = { ticker: "ZOFR", page: 2, limit: 50, date_from: "2025-01-01" };

/** What a POSIX shell makes of a command line: its words, one per line, with API_KEY set. */
function shellWords(command: string): string[] {
  const script = command.replace(/^curl\b/, "printf '%s\\n'");
  const output = execFileSync("sh", ["-c", script], { env: { ...process.env, API_KEY: "svc-live-test" } }).toString();
  return output.split("\n").slice(0, -1);
}

function hasPython(): boolean {
  try {
    execFileSync("python3", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("exampleUrl", () => {
  it("joins the base URL, the path and the encoded query", () => {
    expect(exampleUrl(offerings, BASE, params)).toBe(`${BASE}/v1/offerings?ticker=ZOFR&page=2&limit=50&date_from=2025-01-01`);
    expect(exampleUrl(offerings, `${BASE}/`, {})).toBe(`${BASE}/v1/offerings`);
    expect(exampleUrl(offerings, BASE, { ticker: "ZOFR,ZREG", limit: undefined, page: "" })).toBe(`${BASE}/v1/offerings?ticker=ZOFR%2CZREG`);
  });
});

describe("curl", () => {
  it("single-quotes the URL, so the shell keeps its & and ? and passes it as one word", () => {
    const code = curlExample(offerings, BASE, params);
    expect(code).toContain(`'${BASE}/v1/offerings?ticker=ZOFR&page=2&limit=50&date_from=2025-01-01'`);
    const words = shellWords(code);
    expect(words).toEqual(["-sS", `${BASE}/v1/offerings?ticker=ZOFR&page=2&limit=50&date_from=2025-01-01`, "-H", "API-KEY: svc-live-test"]);
  });

  it("sends the key from $API_KEY in the API-KEY header", () => {
    expect(curlExample(offerings, BASE, params)).toContain(`-H "API-KEY: $API_KEY"`);
  });

  it("quotes anything a hostile base URL could smuggle in", () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    const evil = "http://x.test/$(echo injected)'`echo injected`";
    const words = shellWords(curlExample(offerings, evil, { ticker: "A" }));
    expect(words[1]).toBe(`${evil}/v1/offerings?ticker=A`);
  });
});

describe("python", () => {
  const code = pythonExample(offerings, BASE, params);

  it("calls requests.get with the path, the parameters and the API-KEY header", () => {
    expect(code).toContain("import requests");
    expect(code).toContain(`requests.get(\n    "${BASE}/v1/offerings",`);
    expect(code).toContain(`params={"ticker": "ZOFR", "page": 2, "limit": 50, "date_from": "2025-01-01"}`);
    expect(code).toContain(`headers={"API-KEY": os.environ["API_KEY"]}`);
    expect(code).toContain("X-Cost-Dollars");
  });

  it.runIf(hasPython())("is valid Python", () => {
    expect(() => execFileSync("python3", ["-c", "import ast, sys; ast.parse(sys.stdin.read())"], { input: code })).not.toThrow();
  });
});

describe("javascript", () => {
  const code = javascriptExample(offerings, BASE, params);

  it("calls fetch with the path, the parameters and the API-KEY header", () => {
    expect(code).toContain(`new URL("${BASE}/v1/offerings")`);
    expect(code).toContain(`new URLSearchParams({ ticker: "ZOFR", page: "2", limit: "50", date_from: "2025-01-01" })`);
    expect(code).toContain(`headers: { "API-KEY": process.env.API_KEY }`);
    expect(code).toContain("await fetch(url");
  });

  it("is valid JavaScript (an ES module body with top-level await)", () => {
    const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => unknown;
    expect(() => new AsyncFunction("process", code)).not.toThrow();
  });

  it("builds the same URL as curl", async () => {
    const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (...args: unknown[]) => Promise<unknown>;
    let requested = "";
    let headers: Record<string, string> = {};
    const fakeFetch = async (url: URL, init: { headers: Record<string, string> }) => {
      requested = url.toString();
      headers = init.headers;
      return { ok: true, json: async () => ({ results: [] }), headers: new Headers() };
    };
    const run = new AsyncFunction("process", "fetch", "console", code);
    await run({ env: { API_KEY: "svc-live-test" } }, fakeFetch, { log() {} });
    expect(requested).toBe(exampleUrl(offerings, BASE, params));
    expect(headers).toEqual({ "API-KEY": "svc-live-test" });
  });
});

describe("buildExamples", () => {
  it("gives curl, Python and JavaScript for every endpoint of the catalog", () => {
    for (const endpoint of ENDPOINT_LIST) {
      const examples = buildExamples(endpoint, BASE, { ticker: "ZVTX", limit: 2 });
      expect(examples.map((e) => e.id)).toEqual(["curl", "python", "javascript"]);
      for (const example of examples) {
        expect(example.code, `${endpoint.name} ${example.id}`).toContain(endpoint.path);
        expect(example.code).toContain("ZVTX");
        expect(example.code).toContain("API-KEY");
        expect(example.code).not.toMatch(/svc-live-[0-9a-f]/); // never a real-looking key
      }
    }
  });
});

describe("paginationExample", () => {
  const code = paginationExample(offerings, BASE, { ticker: "ZOFR", limit: 100, page: 7 });

  it("asks for the next page while has_more is true, with the same parameters", () => {
    expect(code).toContain(`url = "${BASE}/v1/offerings"`);
    expect(code).toContain(`params={"ticker": "ZOFR", "limit": 100, "page": page}`);
    expect(code).toContain(`if not body["has_more"]:`);
    expect(code).toContain("page += 1");
    expect(code).toContain(`headers = {"API-KEY": os.environ["API_KEY"]}`);
  });

  it.runIf(hasPython())("is valid Python", () => {
    expect(() => execFileSync("python3", ["-c", "import ast, sys; ast.parse(sys.stdin.read())"], { input: code })).not.toThrow();
  });
});
