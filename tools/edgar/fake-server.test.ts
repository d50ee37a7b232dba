import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { gunzipSync } from "node:zlib";
import yazl from "yazl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeEdgar, type FakeEdgar } from "./fake-server";

/** The fake EDGAR over raw HTTP (node:http, so encodings and 304s are seen as sent). */
const FIXTURES = "/work/shared/fixtures/edgar";
const TESLA = "CIK0001318605";
const UA = "Dilution Tests tests@example.com";
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));

let root: string;
let fake: FakeEdgar;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), "edgar-fake-"));
  writeFileSync(path.join(root, "company_tickers.json"), fixture("company_tickers.json"));
  mkdirSync(path.join(root, "companyfacts"));
  writeFileSync(path.join(root, "companyfacts", `${TESLA}.json`), fixture(`companyfacts-${TESLA}.json`));
  const zip = new yazl.ZipFile();
  zip.addBuffer(fixture(`submissions-${TESLA}.json`), `${TESLA}.json`);
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(path.join(root, "submissions.zip")));
  fake = await startFakeEdgar({ root });
});

afterAll(async () => {
  await fake?.close();
  rmSync(root, { recursive: true, force: true });
});

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function get(urlPath: string, headers: Record<string, string> = {}, method = "GET"): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${fake.url}${urlPath}`, { method, headers: { "user-agent": UA, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const last = () => fake.requests[fake.requests.length - 1]!;

describe("fake EDGAR", () => {
  it("serves files at SEC's paths, with a content-hash ETag and the file's Last-Modified", async () => {
    const tickers = await get("/files/company_tickers.json");
    expect(tickers.status).toBe(200);
    expect(tickers.body.equals(fixture("company_tickers.json"))).toBe(true);
    expect(tickers.headers["content-encoding"]).toBeUndefined();
    expect(tickers.headers["content-type"]).toBe("application/json");
    expect(tickers.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(tickers.headers["last-modified"]).toBe(statSync(path.join(root, "company_tickers.json")).mtime.toUTCString());

    const facts = await get(`/api/xbrl/companyfacts/${TESLA}.json`);
    expect(facts.body.equals(fixture(`companyfacts-${TESLA}.json`))).toBe(true);
    expect(facts.headers.etag).not.toBe(tickers.headers.etag);
  });

  it("serves companies out of the bulk archive, and the archive itself", async () => {
    const submissions = await get(`/submissions/${TESLA}.json`);
    expect(submissions.status).toBe(200);
    expect(submissions.body.equals(fixture(`submissions-${TESLA}.json`))).toBe(true);

    const archive = await get("/Archives/edgar/daily-index/bulkdata/submissions.zip");
    expect(archive.status).toBe(200);
    expect(archive.headers["content-type"]).toBe("application/zip");
    expect(archive.body.equals(readFileSync(path.join(root, "submissions.zip")))).toBe(true);
    const again = await get("/Archives/edgar/daily-index/bulkdata/submissions.zip", { "if-none-match": archive.headers.etag! });
    expect(again.status).toBe(304);
    expect((await get("/Archives/edgar/daily-index/bulkdata/companyfacts.zip")).status).toBe(404);
  });

  it("gzips when the client accepts it, and only then", async () => {
    const gzipped = await get("/files/company_tickers.json", { "accept-encoding": "gzip, deflate" });
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.headers.vary).toBe("Accept-Encoding");
    expect(gzipped.body.length).toBeLessThan(fixture("company_tickers.json").length / 3);
    expect(gunzipSync(gzipped.body).equals(fixture("company_tickers.json"))).toBe(true);

    const refused = await get("/files/company_tickers.json", { "accept-encoding": "gzip;q=0, identity" });
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(refused.body.equals(fixture("company_tickers.json"))).toBe(true);

    const archive = await get("/Archives/edgar/daily-index/bulkdata/submissions.zip", { "accept-encoding": "gzip" });
    expect(gunzipSync(archive.body).equals(readFileSync(path.join(root, "submissions.zip")))).toBe(true);
  });

  it("answers 304 to a matching If-None-Match or a not-older If-Modified-Since", async () => {
    const first = await get("/files/company_tickers.json");
    const etag = first.headers.etag!;
    const lastModified = first.headers["last-modified"]!;
    const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    const later = new Date(Date.parse(lastModified) + 60_000).toUTCString();

    const cases: [Record<string, string>, number][] = [
      [{ "if-none-match": etag }, 304],
      [{ "if-none-match": `"other", W/${etag}` }, 304],
      [{ "if-none-match": "*" }, 304],
      [{ "if-none-match": '"other"' }, 200],
      [{ "if-modified-since": lastModified }, 304],
      [{ "if-modified-since": later }, 304],
      [{ "if-modified-since": earlier }, 200],
      [{ "if-modified-since": "yesterday" }, 200],
      // If-None-Match decides when both are sent.
      [{ "if-none-match": '"other"', "if-modified-since": later }, 200],
    ];
    for (const [headers, status] of cases) {
      const answer = await get("/files/company_tickers.json", headers);
      expect(answer.status, JSON.stringify(headers)).toBe(status);
      if (status === 304) {
        expect(answer.body.length).toBe(0);
        expect(answer.headers.etag).toBe(etag);
      }
      expect(last()).toMatchObject({
        path: "/files/company_tickers.json",
        ifNoneMatch: headers["if-none-match"] ?? null,
        ifModifiedSince: headers["if-modified-since"] ?? null,
        status,
      });
    }
  });

  it("answers 404 for anything absent, 400 for paths leaving the tree, 403 without a contact User-Agent", async () => {
    for (const urlPath of ["/submissions/CIK0000000001.json", "/api/xbrl/companyfacts/CIK0000000001.json", "/Archives/edgar/data/1/2/index.json", "/nothing"]) {
      expect((await get(urlPath)).status, urlPath).toBe(404);
      expect(last()).toMatchObject({ path: urlPath, status: 404 });
    }
    expect((await get("/files/..%2F..%2Fetc%2Fpasswd")).status).toBe(400);
    expect((await get("/files/company_tickers.json", { "user-agent": "curl/8.0" })).status).toBe(403);
    expect(last()).toMatchObject({ userAgent: "curl/8.0", status: 403 });
  });

  it("fails the next n matching requests on demand, with Retry-After, leaving others alone", async () => {
    fake.failNext(/^\/submissions\//, 2, 429, 3);
    const from = fake.requests.length;
    const first = await get(`/submissions/${TESLA}.json`);
    expect(first.status).toBe(429);
    expect(first.headers["retry-after"]).toBe("3");
    expect((await get("/files/company_tickers.json")).status).toBe(200);
    expect((await get(`/submissions/${TESLA}.json`)).status).toBe(429);
    expect((await get(`/submissions/${TESLA}.json`)).status).toBe(200);

    fake.failNext(/company_tickers/, 1, 503);
    const unavailable = await get("/files/company_tickers.json");
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers["retry-after"]).toBeUndefined();
    expect((await get("/files/company_tickers.json")).status).toBe(200);

    const log = fake.requests.slice(from);
    expect(log.map((request) => request.status)).toEqual([429, 200, 429, 200, 503, 200]);
    for (const request of log) {
      expect(request.userAgent).toBe(UA);
      expect(request.at).toBeGreaterThan(Date.now() - 10_000);
    }
  });
});
