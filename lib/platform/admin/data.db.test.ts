import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/lib/auth/accounts";
import { ensureDefaultPlans } from "@/lib/billing/plans";
import { runImport } from "@/lib/cli/import";
import type { Database, PrismaClient } from "@/lib/db";
import { MAX_IMPORT_BYTES, textBytes } from "@/lib/data/import";
import { openTestDatabase } from "@/tests/support/database";
import { sessionCookie } from "@/tests/support/platform";
import { signUp } from "../accounts";
import { dataOverview, uploadDataFile, uploadDataRoute, type UploadAnswer } from "./data";

process.env.NEXTAUTH_SECRET ??= "test-secret-for-session-cookies-0123456789";

let db: Database;
let prisma: PrismaClient;
let adminCookie: string;
let adminId: string;
let ownerCookie: string;
let ownerId: string;

beforeAll(async () => {
  db = await openTestDatabase();
  prisma = db.prisma;
  await ensureDefaultPlans(prisma);
  const owner = await signUp(prisma, { email: "owner@customer.test", password: "a customer password" }, "198.51.100.1");
  ownerId = owner.user.id;
  ownerCookie = (await sessionCookie(prisma, ownerId)).cookie;
  const admin = await createUser(prisma, { email: "ops@platform.test", password: "an operator password" });
  await prisma.user.update({ where: { id: admin.id }, data: { isPlatformAdmin: true } });
  adminId = admin.id;
  adminCookie = (await sessionCookie(prisma, adminId)).cookie;
}, 120_000);
afterAll(() => db?.close());

const database = async () => ({ prisma });

function uploadRequest(body: BodyInit | null, options: { cookie?: string | null; dryRun?: "0" | "1"; fileName?: string; origin?: string; headers?: Record<string, string> } = {}) {
  const headers = new Headers({ host: "app.test", origin: options.origin ?? "http://app.test", "content-type": "application/octet-stream", ...options.headers });
  if (options.cookie) headers.set("cookie", options.cookie);
  if (options.fileName !== undefined) headers.set("x-file-name", encodeURIComponent(options.fileName));
  const init: RequestInit & { duplex?: "half" } = { method: "POST", headers, body, duplex: "half" };
  return new Request(`http://app.test/admin/data/upload?dry_run=${options.dryRun ?? "1"}`, init);
}

async function upload(body: string, options: Parameters<typeof uploadRequest>[1] = {}) {
  const response = await uploadDataRoute(uploadRequest(body, { cookie: adminCookie, ...options }), database);
  return { status: response.status, body: (await response.json()) as UploadAnswer & { error?: string } };
}

/** How much there is: records, loads and audit entries of data loads. */
async function written() {
  const [companies, offerings, loads, audits] = await Promise.all([
    prisma.company.count(),
    prisma.offering.count(),
    prisma.dataLoad.count(),
    prisma.auditLog.count({ where: { action: { in: ["data.imported", "data.import_failed"] } } }),
  ]);
  return { companies, offerings, loads, audits };
}

const NOT_FOUND = { digest: "NEXT_HTTP_ERROR_FALLBACK;404" };

/** A stream that never ends, counting what was pulled from it: only a cut-off stops it. */
function endlessBody() {
  const chunk = new TextEncoder().encode(`${"x".repeat(1023)}\n`.repeat(64)); // 64 KiB
  const pulled = { bytes: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled.bytes += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled };
}

const COMPANIES_BAD = [
  "ticker,name,exchange,sector",
  "ACME,Acme Therapeutics,NASDAQ,Biotech",
  "BOLT,,NASDAQ,Energy", // line 3: no name
  "CRUX,Crux Mining,NYSE American,Materials",
  "",
].join("\n");
const COMPANIES_FIXED = COMPANIES_BAD.replace("BOLT,,NASDAQ", "BOLT,Bolt Energy,NASDAQ");

describe("who may upload", () => {
  it("answers a signed-out caller and a customer's owner as an unknown path does, before reading the body, and writes nothing", async () => {
    const before = await written();
    for (const cookie of [null, ownerCookie, "next-auth.session-token=forged"]) {
      const { stream, pulled } = endlessBody();
      await expect(uploadDataRoute(uploadRequest(stream, { cookie, fileName: "companies.csv", dryRun: "0" }), database)).rejects.toMatchObject(NOT_FOUND);
      expect(pulled.bytes).toBeLessThan(1_000_000); // at most what the stream buffered ahead
    }
    await expect(uploadDataRoute(uploadRequest(COMPANIES_FIXED, { cookie: ownerCookie, fileName: "companies.csv", dryRun: "0" }), database)).rejects.toMatchObject(NOT_FOUND);
    await expect(uploadDataFile(prisma, { userId: ownerId }, { fileName: "companies.csv", bytes: textBytes(COMPANIES_FIXED), dryRun: false })).rejects.toMatchObject({ code: "not_found" });
    await expect(dataOverview(prisma, { userId: ownerId })).rejects.toMatchObject({ code: "not_found" });
    await expect(dataOverview(prisma, null)).rejects.toMatchObject({ code: "not_found" });
    expect(await written()).toEqual(before);
  });

  it("refuses a post from another site (the browser sends the admin's cookie along) with 403", async () => {
    const before = await written();
    const result = await upload(COMPANIES_FIXED, { fileName: "companies.csv", dryRun: "0", origin: "https://evil.example" });
    expect(result.status).toBe(403);
    expect((await upload(COMPANIES_FIXED, { fileName: "companies.csv", dryRun: "0", origin: "" })).status).toBe(403);
    expect(await written()).toEqual(before);
  });

  it("refuses a missing or unsafe file name and an unknown dry_run", async () => {
    expect((await upload(COMPANIES_FIXED)).status).toBe(400);
    expect((await upload(COMPANIES_FIXED, { fileName: "../companies.csv" })).body.error).toMatch(/slashes/);
    expect((await upload(COMPANIES_FIXED, { fileName: "companies.txt" })).body.error).toMatch(/\.json or \.csv/);
    const utf16 = await uploadDataRoute(uploadRequest(new Uint8Array([0xff, 0xfe, 0x74, 0x00, 0x69, 0x00]), { cookie: adminCookie, fileName: "companies.csv" }), database);
    expect(utf16.status).toBe(400);
    expect(((await utf16.json()) as { error: string }).error).toMatch(/not UTF-8/);
    expect((await upload("  \n", { fileName: "companies.csv" })).body.error).toMatch(/empty/);
    const response = await uploadDataRoute(
      new Request("http://app.test/admin/data/upload?dry_run=yes", { method: "POST", headers: { host: "app.test", origin: "http://app.test", cookie: adminCookie, "x-file-name": "companies.csv" }, body: COMPANIES_FIXED }),
      database,
    );
    expect(response.status).toBe(400);
  });
});

describe("checking and applying a file", () => {
  it("a dry run names the bad row's line and writes nothing; the fixed file applies, records a data load and its audit entry", async () => {
    const before = await written();
    const checked = await upload(COMPANIES_BAD, { fileName: "companies.csv", dryRun: "1" });
    expect(checked.status).toBe(200);
    expect(checked.body).toMatchObject({ ok: false, dry_run: true, error_count: 1 });
    expect(checked.body.errors).toEqual([expect.objectContaining({ line: 3, field: "name", text: expect.stringMatching(/^line 3: name: /) })]);
    expect(await written()).toEqual(before);

    const valid = await upload(COMPANIES_FIXED, { fileName: "companies.csv", dryRun: "1" });
    expect(valid.body).toMatchObject({ ok: true, dry_run: true, errors: [], error_count: 0, counts: { companies: { received: 3, created: 3, updated: 0, unchanged: 0 } } });
    expect(await written()).toEqual(before); // a check writes nothing, not even a data load

    const applied = await upload(COMPANIES_FIXED, { fileName: "companies.csv", dryRun: "0" });
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ ok: true, dry_run: false, counts: { companies: { received: 3, created: 3 } } });
    expect(await prisma.company.findMany({ where: { ticker: { in: ["ACME", "BOLT", "CRUX"] } }, select: { ticker: true, name: true, isSample: true }, orderBy: { ticker: "asc" } })).toEqual([
      { ticker: "ACME", name: "Acme Therapeutics", isSample: false },
      { ticker: "BOLT", name: "Bolt Energy", isSample: false },
      { ticker: "CRUX", name: "Crux Mining", isSample: false },
    ]);
    const load = await prisma.dataLoad.findFirstOrThrow({ orderBy: { id: "desc" } });
    expect(load).toMatchObject({ kind: "import", source: "companies.csv", status: "applied", errorCount: 0, actorUserId: adminId, errors: [] });
    expect(load.counts).toEqual({ companies: { received: 3, created: 3, updated: 0, unchanged: 0 } });
    const audit = await prisma.auditLog.findFirstOrThrow({ where: { action: "data.imported" }, orderBy: { id: "desc" } });
    expect(audit).toMatchObject({ orgId: null, actorUserId: adminId, actorLabel: "platform administrator", targetType: "data_load", targetId: load.id.toString() });
    expect(audit.details).toMatchObject({ source: "companies.csv", error_count: 0, summary: expect.stringContaining("3 companies") });

    const overview = await dataOverview(prisma, { userId: adminId });
    expect(overview.records.companies).toBe(3);
    expect(overview.companies).toEqual({ total: 3, sample: 0, real: 3 });
    expect(overview.loads[0]).toMatchObject({ source: "companies.csv", status: "applied", actor: "ops@platform.test", kindLabel: "File import" });
  });

  it("an apply with bad records writes no data, but records the failed load and its audit entry", async () => {
    const before = await written();
    const offerings = [
      "ticker,accession_number,offering_date,offering_type,amount_cents",
      "ACME,0000000001-26-000001,2026-02-30,public_offering,250000000", // no such date
      "ZZZZ,0000000001-26-000002,2026-03-02,public_offering,100", // unknown ticker
    ].join("\n");
    const result = await upload(offerings, { fileName: "offerings.csv", dryRun: "0" });
    expect(result.body).toMatchObject({ ok: false, dry_run: false, error_count: 2 });
    expect(result.body.errors.map((e) => e.line)).toEqual([2, 3]);
    expect(await written()).toEqual({ ...before, loads: before.loads + 1, audits: before.audits + 1 });
    const load = await prisma.dataLoad.findFirstOrThrow({ orderBy: { id: "desc" } });
    expect(load).toMatchObject({ source: "offerings.csv", status: "failed", errorCount: 2 });
    expect(load.errors).toEqual([expect.stringMatching(/^line 2: offering_date: /), expect.stringMatching(/^line 3: ticker: unknown ticker ZZZZ/)]);
    expect(await prisma.auditLog.findFirstOrThrow({ where: { action: "data.import_failed" }, orderBy: { id: "desc" } })).toMatchObject({ targetId: load.id.toString(), details: expect.objectContaining({ error_count: 2 }) });
  });

  it("reads a JSON file with a name in any script, and lists at most 1,000 problems with their total", async () => {
    const records = Array.from({ length: 1_200 }, (_, i) => ({ ticker: `T${i}`, name: "", exchange: "NASDAQ" }));
    const result = await upload(JSON.stringify({ companies: records }, null, 1), { fileName: "données ÿ.json", dryRun: "1" });
    expect(result.body).toMatchObject({ ok: false, error_count: 1_200 });
    expect(result.body.errors).toHaveLength(1_000);
  });

  it("the CLI's import (npm run data:import) records its applied and failed loads too, and its dry run nothing", async () => {
    const before = await prisma.dataLoad.count();
    const dir = await mkdtemp(join(tmpdir(), "cli-import-"));
    const good = join(dir, "companies.csv");
    const bad = join(dir, "bad.companies.csv");
    await writeFile(good, "ticker,name,exchange\nDUNE,Dune Labs,NYSE\n");
    await writeFile(bad, "ticker,name,exchange\nDUNE,,NYSE\n");
    expect((await runImport(prisma, { fileName: "companies.csv", path: good, dryRun: true, database: "test" })).exitCode).toBe(0);
    expect(await prisma.dataLoad.count()).toBe(before);
    expect((await runImport(prisma, { fileName: "companies.csv", path: good, dryRun: false, database: "test" })).exitCode).toBe(0);
    expect((await runImport(prisma, { fileName: "companies.csv", path: bad, dryRun: false, database: "test" })).exitCode).toBe(1);
    await rm(dir, { recursive: true });
    const loads = await prisma.dataLoad.findMany({ where: { id: { gt: 0n } }, orderBy: { id: "desc" }, take: 2 });
    expect(loads.map((l) => [l.status, l.actorLabel, l.actorUserId])).toEqual([
      ["failed", "cli", null],
      ["applied", "cli", null],
    ]);
    expect(await prisma.dataLoad.count()).toBe(before + 2);
  });
});

describe("the size limit", () => {
  it("refuses a declared Content-Length over the limit before reading anything", async () => {
    const { stream, pulled } = endlessBody();
    const response = await uploadDataRoute(
      uploadRequest(stream, { cookie: adminCookie, fileName: "companies.csv", headers: { "content-length": String(MAX_IMPORT_BYTES + 1) } }),
      database,
    );
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: string }).error).toMatch(/larger than 100 MB/);
    expect(pulled.bytes).toBeLessThan(1_000_000);
  });

  it("cuts off a body streamed without a length as soon as it passes the limit, and writes nothing", async () => {
    const before = await written();
    const { stream, pulled } = endlessBody();
    const response = await uploadDataRoute(uploadRequest(stream, { cookie: adminCookie, fileName: "companies.csv", dryRun: "0" }), database);
    expect(response.status).toBe(413);
    expect(pulled.bytes).toBeGreaterThan(MAX_IMPORT_BYTES);
    expect(pulled.bytes).toBeLessThan(MAX_IMPORT_BYTES + 1_000_000);
    expect(await written()).toEqual(before);
  }, 60_000);
});
