import { copyFileSync, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import yauzl from "yauzl";
import yazl from "yazl";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { EdgarConfigError, EdgarFetchError, openEdgarSource, type EdgarSource, type Fetched } from "./index";

/** The folder source over a temp copy of the real EDGAR recordings, loose and in bulk archives; and openEdgarSource's settings. */
const FIXTURES = "/work/shared/fixtures/edgar";
const TESLA = "CIK0001318605";
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));
const UA = "Dilution Tests tests@example.com";

const temps: string[] = [];
function tempRoot(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "edgar-source-"));
  temps.push(root);
  return root;
}
afterAll(() => temps.forEach((root) => rmSync(root, { recursive: true, force: true })));

function put(root: string, relative: string, content: Buffer | string): string {
  const file = path.join(root, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

/** A zip of `entries` at `file`; `stored` entries are not compressed (zips hold both kinds). */
async function writeZip(file: string, entries: Record<string, Buffer>, stored: string[] = []): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) zip.addBuffer(content, name, { compress: !stored.includes(name) });
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(file));
}

function okBody(answer: Fetched): Buffer {
  if (answer.status !== "ok") throw new Error(`expected ok, got ${answer.status}`);
  return answer.body;
}

describe("folder source, loose files", () => {
  let root: string;
  let source: EdgarSource;

  beforeAll(() => {
    root = tempRoot();
    copyFileSync(path.join(FIXTURES, "company_tickers.json"), path.join(root, "company_tickers.json"));
    put(root, `submissions/${TESLA}.json`, fixture(`submissions-${TESLA}.json`));
    put(root, `companyfacts/${TESLA}.json`, fixture(`companyfacts-${TESLA}.json`));
    put(root, "Archives/edgar/data/1648960/000121390024004875/index.json", fixture("filing-index-0001213900-24-004875.json"));
    put(root, "files/company_tickers_exchange.json", '{"fields":[],"data":[]}');
    source = openEdgarSource({ source: root });
  });
  afterAll(() => source.close());

  it("describes itself as the folder", () => {
    expect(source.kind).toBe("folder");
    expect(source.description).toBe(`folder ${root}`);
  });

  it("reads each kind of resource from EDGAR's layout, byte for byte", async () => {
    const before = source.requests;
    expect(okBody(await source.get("files/company_tickers.json")).equals(fixture("company_tickers.json"))).toBe(true);
    expect(okBody(await source.get(`submissions/${TESLA}.json`)).equals(fixture(`submissions-${TESLA}.json`))).toBe(true);
    expect(okBody(await source.get(`api/xbrl/companyfacts/${TESLA}.json`)).equals(fixture(`companyfacts-${TESLA}.json`))).toBe(true);
    const index = okBody(await source.get("Archives/edgar/data/1648960/000121390024004875/index.json"));
    expect(index.equals(fixture("filing-index-0001213900-24-004875.json"))).toBe(true);
    // The ticker files may also sit under files/, as on www.sec.gov.
    expect(okBody(await source.get("files/company_tickers_exchange.json")).toString()).toBe('{"fields":[],"data":[]}');
    expect(source.requests - before).toBe(5);
  });

  it("answers missing for what is not there", async () => {
    expect(await source.get("submissions/CIK0000000001.json")).toEqual({ status: "missing" });
    expect(await source.get("api/xbrl/companyfacts/CIK0000000001.json")).toEqual({ status: "missing" });
    expect(await source.get("Archives/edgar/data/1/000000000000000001/index.json")).toEqual({ status: "missing" });
    // A folder where a file is expected is not the file.
    expect(await source.get("Archives/edgar/data/1648960")).toEqual({ status: "missing" });
  });

  it("answers not-modified to the validators it gave, and reads again once the file changes", async () => {
    const edgarPath = `submissions/${TESLA}.json`;
    const first = await source.get(edgarPath);
    if (first.status !== "ok") throw new Error("expected ok");
    expect(first.validators.etag).toMatch(/^"\d+-[\d.]+"$/);
    const before = source.requests;
    expect(await source.get(edgarPath, first.validators)).toEqual({ status: "not-modified" });
    expect(source.requests).toBe(before);
    // Another file's validators do not count.
    expect((await source.get(edgarPath, { etag: '"1-1"' })).status).toBe("ok");

    const file = path.join(root, "submissions", `${TESLA}.json`);
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    const after = await source.get(edgarPath, first.validators);
    expect(after.status).toBe("ok");
    if (after.status === "ok") expect(after.validators.etag).not.toBe(first.validators.etag);
  });

  it("refuses paths that could leave the folder, and reads nothing outside it", async () => {
    const outside = path.join(path.dirname(root), `${path.basename(root)}-secret.json`);
    writeFileSync(outside, "{}");
    temps.push(outside);
    for (const bad of [
      `submissions/../../${path.basename(outside)}`,
      `Archives/edgar/../../../${path.basename(outside)}`,
      "../company_tickers.json",
      outside,
      "/etc/passwd",
      "files/./company_tickers.json",
      "files//company_tickers.json",
      "files\\..\\company_tickers.json",
      "",
    ]) {
      await expect(source.get(bad), bad).rejects.toBeInstanceOf(EdgarFetchError);
    }
  });
});

describe("folder source, bulk archives", () => {
  const page = Buffer.from(JSON.stringify({ accessionNumber: ["0001193125-13-000001"], form: ["10-K"] }));
  let root: string;
  let source: EdgarSource;

  beforeAll(async () => {
    root = tempRoot();
    await writeZip(
      path.join(root, "submissions.zip"),
      { [`${TESLA}.json`]: fixture(`submissions-${TESLA}.json`), [`${TESLA}-submissions-001.json`]: page },
      [`${TESLA}-submissions-001.json`],
    );
    await writeZip(path.join(root, "companyfacts.zip"), {
      [`${TESLA}.json`]: fixture(`companyfacts-${TESLA}.json`),
      "CIK0001997711.json": fixture("companyfacts-CIK0001997711.json"),
    });
    source = openEdgarSource({ source: root });
  });
  afterAll(() => source.close());
  afterEach(() => vi.restoreAllMocks());

  it("reads companies from the archives when there is no loose file, byte for byte", async () => {
    expect(okBody(await source.get(`submissions/${TESLA}.json`)).equals(fixture(`submissions-${TESLA}.json`))).toBe(true);
    expect(okBody(await source.get(`submissions/${TESLA}-submissions-001.json`)).equals(page)).toBe(true);
    expect(okBody(await source.get(`api/xbrl/companyfacts/${TESLA}.json`)).equals(fixture(`companyfacts-${TESLA}.json`))).toBe(true);
    expect(okBody(await source.get("api/xbrl/companyfacts/CIK0001997711.json")).equals(fixture("companyfacts-CIK0001997711.json"))).toBe(true);
    expect(await source.get("submissions/CIK0000000001.json")).toEqual({ status: "missing" });
    expect(await source.get("api/xbrl/companyfacts/CIK0000000001.json")).toEqual({ status: "missing" });
  });

  it("reads each archive's directory once, however many entries are read", async () => {
    const fresh = openEdgarSource({ source: root });
    const opened = vi.spyOn(yauzl, "openPromise");
    await Promise.all([fresh.get(`submissions/${TESLA}.json`), fresh.get(`submissions/${TESLA}-submissions-001.json`)]);
    await fresh.get("submissions/CIK0000000001.json");
    await fresh.get(`api/xbrl/companyfacts/${TESLA}.json`);
    await fresh.get("api/xbrl/companyfacts/CIK0001997711.json");
    expect(opened.mock.calls.map(([file]) => path.basename(file))).toEqual(["submissions.zip", "companyfacts.zip"]);
    expect(fresh.requests).toBe(4);
    await fresh.close();
  });

  it("gives an entry's CRC and size as its etag, and answers not-modified to it", async () => {
    const first = await source.get(`api/xbrl/companyfacts/${TESLA}.json`);
    if (first.status !== "ok") throw new Error("expected ok");
    expect(first.validators.etag).toMatch(/^"\d+-\d+"$/);
    expect(await source.get(`api/xbrl/companyfacts/${TESLA}.json`, first.validators)).toEqual({ status: "not-modified" });
    const other = await source.get("api/xbrl/companyfacts/CIK0001997711.json", first.validators);
    expect(other.status).toBe("ok");
  });

  it("prefers a loose file to the archive's entry", async () => {
    put(root, `submissions/${TESLA}.json`, '{"loose":true}');
    try {
      expect(okBody(await source.get(`submissions/${TESLA}.json`)).toString()).toBe('{"loose":true}');
    } finally {
      rmSync(path.join(root, "submissions"), { recursive: true });
    }
    expect(okBody(await source.get(`submissions/${TESLA}.json`)).equals(fixture(`submissions-${TESLA}.json`))).toBe(true);
  });

  it("reports a damaged archive as a fetch error", async () => {
    const damagedRoot = tempRoot();
    put(damagedRoot, "submissions.zip", "this is not a zip");
    const damaged = openEdgarSource({ source: damagedRoot });
    await expect(damaged.get(`submissions/${TESLA}.json`)).rejects.toBeInstanceOf(EdgarFetchError);
    await damaged.close();
  });
});

describe("openEdgarSource settings", () => {
  it("refuses a folder that does not exist, or is a file, naming it", () => {
    const missing = path.join(tempRoot(), "nope");
    expect(() => openEdgarSource({ source: missing })).toThrow(EdgarConfigError);
    expect(() => openEdgarSource({ source: missing })).toThrow(missing);
    const file = put(tempRoot(), "file.json", "{}");
    expect(() => openEdgarSource({ source: file })).toThrow(EdgarConfigError);
    expect(() => openEdgarSource({ source: file })).toThrow(file);
    expect(() => openEdgarSource({ source: "ftp://example.com/edgar" })).toThrow(EdgarConfigError);
  });

  it("requires a User-Agent with a contact email for SEC and for a URL", () => {
    for (const source of [undefined, "http://127.0.0.1:4321"]) {
      for (const userAgent of [undefined, "", "   ", "Jane Doe", "Jane Doe jane@localhost", "Jane jane@example.com\r\nX-Evil: 1"]) {
        let thrown: unknown;
        try {
          openEdgarSource({ source, userAgent });
        } catch (error) {
          thrown = error;
        }
        expect(thrown, `${source} / ${userAgent}`).toBeInstanceOf(EdgarConfigError);
        const message = (thrown as Error).message;
        expect(message).toContain("EDGAR_USER_AGENT");
        expect(message).toContain("User-Agent");
        expect(message).toMatch(/email/);
      }
      expect(() => openEdgarSource({ source, userAgent: UA })).not.toThrow();
    }
  });

  it("refuses bad base URLs", () => {
    expect(() => openEdgarSource({ userAgent: UA, dataBaseUrl: "data.sec.gov" })).toThrow(/EDGAR_DATA_URL/);
    expect(() => openEdgarSource({ userAgent: UA, wwwBaseUrl: "ftp://www.sec.gov" })).toThrow(/EDGAR_WWW_URL/);
    expect(() => openEdgarSource({ source: "http://x/?a=1", userAgent: UA })).toThrow(EdgarConfigError);
  });

  /** Which URL each path is asked at, with a stand-in fetch. */
  async function urlsAsked(options: Parameters<typeof openEdgarSource>[0], paths: string[]) {
    const asked: string[] = [];
    const fetch = async (input: string | URL | Request) => {
      asked.push(String(input));
      return new Response("{}", { status: 200 });
    };
    const source = openEdgarSource({ ...options, userAgent: UA, fetch: fetch as typeof globalThis.fetch });
    for (const edgarPath of paths) await source.get(edgarPath);
    await source.close();
    return { asked, source };
  }

  const PATHS = [
    `submissions/${TESLA}.json`,
    `api/xbrl/companyfacts/${TESLA}.json`,
    "files/company_tickers.json",
    "Archives/edgar/data/1318605/000119312519133592/index.json",
  ];

  it("asks SEC's data host for the APIs and its www host for the rest", async () => {
    const { asked, source } = await urlsAsked({}, PATHS);
    expect(source.kind).toBe("sec");
    expect(source.description).toBe("SEC EDGAR");
    expect(asked).toEqual([
      `https://data.sec.gov/submissions/${TESLA}.json`,
      `https://data.sec.gov/api/xbrl/companyfacts/${TESLA}.json`,
      "https://www.sec.gov/files/company_tickers.json",
      "https://www.sec.gov/Archives/edgar/data/1318605/000119312519133592/index.json",
    ]);
    const overridden = await urlsAsked({ dataBaseUrl: "http://127.0.0.1:1/data/", wwwBaseUrl: "http://127.0.0.1:2" }, PATHS.slice(1, 3));
    expect(overridden.asked).toEqual([`http://127.0.0.1:1/data/api/xbrl/companyfacts/${TESLA}.json`, "http://127.0.0.1:2/files/company_tickers.json"]);
  });

  it("asks one base URL for every path", async () => {
    const { asked, source } = await urlsAsked({ source: "http://127.0.0.1:4321/" }, PATHS);
    expect(source.kind).toBe("url");
    expect(source.description).toBe("http://127.0.0.1:4321");
    expect(asked).toEqual(PATHS.map((edgarPath) => `http://127.0.0.1:4321/${edgarPath}`));
    const odd = await urlsAsked({ source: "http://127.0.0.1:4321" }, ["Archives/edgar/data/1/2/a b?.htm"]);
    expect(odd.asked).toEqual(["http://127.0.0.1:4321/Archives/edgar/data/1/2/a%20b%3F.htm"]);
  });

  it("refuses escaping paths before asking anything", async () => {
    const fetch = () => Promise.reject(new Error("should not be asked"));
    const source = openEdgarSource({ source: "http://127.0.0.1:4321", userAgent: UA, fetch, retries: 0 });
    await expect(source.get("submissions/../../etc/passwd")).rejects.toThrow(/Refused EDGAR path/);
    expect(source.requests).toBe(0);
  });
});
