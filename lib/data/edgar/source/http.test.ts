import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeEdgar, type FakeEdgar, type FakeEdgarRequest } from "@/tools/edgar/fake-server";
import { parseRetryAfter } from "./http";
import { EdgarFetchError, openEdgarSource, type EdgarSource, type SourceOptions } from "./index";

/** The HTTP source against the fake EDGAR over real sockets, and its retry and pacing rules with a stand-in fetch and clock. */
const FIXTURES = "/work/shared/fixtures/edgar";
const TESLA = "CIK0001318605";
const UA = "Dilution Tests tests@example.com";
const INDEX = "Archives/edgar/data/1648960/000121390024004875/index.json";
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));

let root: string;
let fake: FakeEdgar;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "edgar-http-"));
  const put = (relative: string, content: Buffer) => {
    mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    writeFileSync(path.join(root, relative), content);
  };
  put("company_tickers.json", fixture("company_tickers.json"));
  put(`submissions/${TESLA}.json`, fixture(`submissions-${TESLA}.json`));
  put(INDEX, fixture("filing-index-0001213900-24-004875.json"));
  fake = await startFakeEdgar({ root });
});

afterAll(async () => {
  await fake?.close();
  rmSync(root, { recursive: true, force: true });
});

function open(options: Partial<SourceOptions> = {}): EdgarSource {
  return openEdgarSource({ source: fake.url, userAgent: UA, backoffMs: 10, ...options });
}

/** What the fake saw from here on. */
function watch(): () => FakeEdgarRequest[] {
  const from = fake.requests.length;
  return () => fake.requests.slice(from);
}

describe("HTTP source against the fake EDGAR", () => {
  it("sends the User-Agent and asks for gzip on every request, and gets the bodies decoded", async () => {
    const seen = watch();
    const source = open();
    const tickers = await source.get("files/company_tickers.json");
    const submissions = await source.get(`submissions/${TESLA}.json`);
    expect(await source.get("submissions/CIK0000000001.json")).toEqual({ status: "missing" });

    // The fake gzips whenever asked to: equal bytes mean fetch undid the encoding.
    expect(tickers.status === "ok" && tickers.body.equals(fixture("company_tickers.json"))).toBe(true);
    expect(submissions.status === "ok" && submissions.body.equals(fixture(`submissions-${TESLA}.json`))).toBe(true);
    expect(seen().map((request) => [request.path, request.status])).toEqual([
      ["/files/company_tickers.json", 200],
      [`/submissions/${TESLA}.json`, 200],
      ["/submissions/CIK0000000001.json", 404],
    ]);
    for (const request of seen()) {
      expect(request.userAgent).toBe(UA);
      expect(request.acceptEncoding).toMatch(/\bgzip\b/);
    }
    expect(source.requests).toBe(3);
  });

  it("answers not-modified when the validators of the last answer still hold", async () => {
    const source = open();
    const seen = watch();
    const first = await source.get(INDEX);
    if (first.status !== "ok") throw new Error(`expected ok, got ${first.status}`);
    expect(first.validators.etag).toMatch(/^".+"$/);
    expect(first.validators.lastModified).toMatch(/GMT$/);

    expect(await source.get(INDEX, first.validators)).toEqual({ status: "not-modified" });
    expect(await source.get(INDEX, { lastModified: first.validators.lastModified })).toEqual({ status: "not-modified" });
    expect((await source.get(INDEX, { etag: '"something-else"' })).status).toBe("ok");

    const [, byEtag, byDate, stale] = seen();
    expect(byEtag).toMatchObject({ ifNoneMatch: first.validators.etag, ifModifiedSince: first.validators.lastModified, status: 304 });
    expect(byDate).toMatchObject({ ifNoneMatch: null, ifModifiedSince: first.validators.lastModified, status: 304 });
    expect(stale).toMatchObject({ ifNoneMatch: '"something-else"', status: 200 });
    expect(source.requests).toBe(4);
  });

  it("waits out a 429's Retry-After, then succeeds", async () => {
    const source = open();
    const seen = watch();
    fake.failNext(/company_tickers/, 1, 429, 1);
    const answer = await source.get("files/company_tickers.json");
    expect(answer.status).toBe("ok");
    const [refused, retried] = seen();
    expect([refused?.status, retried?.status]).toEqual([429, 200]);
    // backoffMs is 10 ms here: only the Retry-After makes it wait a second.
    expect(retried!.at - refused!.at).toBeGreaterThanOrEqual(995);
    expect(source.requests).toBe(2);
  });

  it("retries 503 twice, then succeeds", async () => {
    const source = open();
    const seen = watch();
    fake.failNext(/submissions/, 2, 503);
    const answer = await source.get(`submissions/${TESLA}.json`);
    expect(answer.status === "ok" && answer.body.equals(fixture(`submissions-${TESLA}.json`))).toBe(true);
    expect(seen().map((request) => request.status)).toEqual([503, 503, 200]);
    expect(source.requests).toBe(3);
  });

  it("gives up after the last retry with the status", async () => {
    const source = open({ retries: 2 });
    const seen = watch();
    fake.failNext(/company_tickers/, 3, 502);
    const failure = await source.get("files/company_tickers.json").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EdgarFetchError);
    expect(failure).toMatchObject({ status: 502, path: "files/company_tickers.json" });
    expect(seen().map((request) => request.status)).toEqual([502, 502, 502]);
  });

  it("does not retry other client errors", async () => {
    const source = open();
    const seen = watch();
    fake.failNext(/company_tickers/, 1, 403);
    await expect(source.get("files/company_tickers.json")).rejects.toMatchObject({ name: "EdgarFetchError", status: 403 });
    expect(seen()).toHaveLength(1);
    // And the fake, like SEC, turns away a User-Agent without a contact email.
    const raw = await fetch(`${fake.url}/files/company_tickers.json`, { headers: { "user-agent": "curl/8" } });
    expect(raw.status).toBe(403);
  });

  it("retries network failures, then reports them without a status", async () => {
    const closed = await startFakeEdgar({ root });
    await closed.close();
    const source = openEdgarSource({ source: closed.url, userAgent: UA, backoffMs: 5, retries: 2 });
    const failure = await source.get("files/company_tickers.json").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EdgarFetchError);
    expect((failure as EdgarFetchError).status).toBeUndefined();
    expect((failure as Error).message).toMatch(/after 3 attempts/);
    expect(source.requests).toBe(3);
  });

  it("starts no more than 10 requests in any second, over 40 concurrent gets", async () => {
    const source = open({ maxPerSecond: 10 });
    const seen = watch();
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => source.get(i % 2 ? INDEX : `submissions/CIK00000000${String(i).padStart(2, "0")}.json`)));
    const took = Date.now() - started;
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 40 }, (_, i) => (i % 2 ? "ok" : "missing")));

    const arrivals = seen()
      .map((request) => request.at)
      .sort((a, b) => a - b);
    expect(arrivals).toHaveLength(40);
    expect(busiestSecond(arrivals)).toBeLessThanOrEqual(10);
    // 40 requests at 10 a second: the last ten cannot start before 3 s have passed.
    expect(arrivals[39]! - arrivals[0]!).toBeGreaterThanOrEqual(2_950);
    expect(took).toBeGreaterThanOrEqual(2_950);
  });
});

/** The most arrivals in any window [t, t + 1000 ms) (sorted input). */
function busiestSecond(sorted: number[]): number {
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (j < sorted.length && sorted[j]! < sorted[i]! + 1_000) j++;
    most = Math.max(most, j - i);
  }
  return most;
}

describe("retry and pacing rules, with a stand-in fetch and clock", () => {
  /** A source on a fake clock: sleeping moves the clock; `answers` are served in order, then 200s. */
  function scripted(answers: (() => Response)[], options: Partial<SourceOptions> = {}) {
    let clock = 1_000_000;
    const sleeps: number[] = [];
    const calls: { url: string; at: number; headers: Headers }[] = [];
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      calls.push({ url: String(input), at: clock, headers: new Headers(init?.headers) });
      return (answers.shift() ?? (() => new Response("{}", { status: 200 })))();
    };
    const source = openEdgarSource({
      source: "http://edgar.test",
      userAgent: UA,
      backoffMs: 100,
      maxWaitMs: 5_000,
      now: () => clock,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
      },
      fetch: fetch as typeof globalThis.fetch,
      ...options,
    });
    return { source, sleeps, calls };
  }
  const status = (code: number, headers?: Record<string, string>) => () => new Response(null, { status: code, headers });

  it("backs off exponentially with some jitter, capped at maxWaitMs", async () => {
    const { source, sleeps } = scripted([500, 502, 503, 504, 429, 503].map((code) => status(code)), { retries: 6 });
    expect((await source.get("files/company_tickers.json")).status).toBe("ok");
    const bases = [100, 200, 400, 800, 1_600, 3_200];
    expect(sleeps).toHaveLength(6);
    sleeps.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(bases[i]!);
      expect(ms).toBeLessThanOrEqual(Math.min(5_000, bases[i]! * 1.25));
    });
  });

  it("waits what Retry-After says, as seconds or as a date, but never longer than maxWaitMs", async () => {
    const { source, sleeps } = scripted([
      status(429, { "retry-after": "2" }),
      status(503, { "retry-after": new Date(1_000_000 + 2_000 + 3_000).toUTCString() }),
      status(429, { "retry-after": "3600" }),
    ]);
    expect((await source.get("files/company_tickers.json")).status).toBe("ok");
    expect(sleeps).toEqual([2_000, 3_000, 5_000]);
    expect(parseRetryAfter("soon", 0)).toBeUndefined();
  });

  it("serves concurrent callers in order, at most maxPerSecond in any window", async () => {
    const { source, calls } = scripted([], { maxPerSecond: 3 });
    await Promise.all(Array.from({ length: 8 }, (_, i) => source.get(`files/f${i}.json`)));
    expect(calls.map((call) => call.url)).toEqual(Array.from({ length: 8 }, (_, i) => `http://edgar.test/files/f${i}.json`));
    const at = calls.map((call) => call.at - calls[0]!.at);
    // Three at once, then three more once the first three are a second old, and so on.
    expect(at.slice(0, 3)).toEqual([0, 0, 0]);
    expect(at[3]).toBeGreaterThanOrEqual(1_000);
    expect(at[6]).toBeGreaterThanOrEqual(2_000);
    expect(busiestSecond(at)).toBeLessThanOrEqual(3);
    for (const call of calls) expect(call.headers.get("user-agent")).toBe(UA);
  });

  it("counts a request until a second after its answer, not only from its start", async () => {
    let clock = 0;
    const sleeps: number[] = [];
    const started: { url: string; at: number; answer: () => void }[] = [];
    const fetch = (input: string | URL | Request) =>
      new Promise<Response>((resolve) => started.push({ url: String(input), at: clock, answer: () => resolve(new Response("{}")) }));
    const source = openEdgarSource({
      source: "http://edgar.test",
      userAgent: UA,
      maxPerSecond: 2,
      now: () => clock,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
      },
      fetch: fetch as typeof globalThis.fetch,
    });
    const gets = ["a", "b", "c"].map((name) => source.get(`files/${name}.json`));
    await until(() => started.length === 2);
    // Two under way for 5 s: the third waits for an answer, however long that takes…
    clock += 5_000;
    await until(() => false, 20);
    expect(started).toHaveLength(2);
    expect(sleeps).toEqual([]);
    // …and then a second more: the first request may have reached the server only just now.
    started[0]!.answer();
    await until(() => started.length === 3);
    expect(sleeps).toEqual([1_000]);
    expect(started[2]).toMatchObject({ url: "http://edgar.test/files/c.json", at: 6_000 });
    for (const request of started) request.answer();
    expect((await Promise.all(gets)).map((answer) => answer.status)).toEqual(["ok", "ok", "ok"]);
  });

  it("holds every caller back after a 429, not only the one refused", async () => {
    let clock = 0;
    const sleeping: { ms: number; wake: () => void }[] = [];
    const urls: string[] = [];
    const answers = [status(429, { "retry-after": "2" })];
    const fetch = async (input: string | URL | Request) => {
      urls.push(String(input));
      return (answers.shift() ?? status(200))();
    };
    const source = openEdgarSource({
      source: "http://edgar.test",
      userAgent: UA,
      now: () => clock,
      sleep: (ms) => new Promise<void>((wake) => sleeping.push({ ms, wake })),
      fetch: fetch as typeof globalThis.fetch,
    });
    const a = source.get("files/a.json");
    await until(() => sleeping.length === 1);
    const b = source.get("files/b.json");
    await until(() => sleeping.length === 2);
    // b, asked while a waits out its Retry-After, waits too instead of going out.
    expect(urls).toEqual(["http://edgar.test/files/a.json"]);
    expect(sleeping.map((sleep) => sleep.ms)).toEqual([2_000, 2_000]);
    clock += 2_000;
    for (const sleep of sleeping.splice(0)) sleep.wake();
    expect((await a).status).toBe("ok");
    expect((await b).status).toBe("ok");
    expect(urls).toHaveLength(3);
  });
});

/** Lets pending work run until `condition` holds (or, for a condition that never does, for `turns` turns of the event loop). */
async function until(condition: () => boolean, turns?: number): Promise<void> {
  for (let turn = 0; turn < (turns ?? 1_000) && !condition(); turn++) await new Promise((resolve) => setImmediate(resolve));
  if (turns === undefined) expect(condition()).toBe(true);
}
