import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

test("the home page introduces the API and lists its endpoints", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  await page.goto("/");
  await expect(page).toHaveTitle(/Dilution Data API/);
  for (const path of ["/v1/dilution-rating", "/v1/offerings", "/v1/registrations"]) {
    await expect(page.getByText(path).first()).toBeVisible();
  }
  await page.setViewportSize({ width: 375, height: 800 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  expect(overflow).toBe(false);
  await page.screenshot({ path: "test-results/screenshots/home-375.png", fullPage: true });
  expect(errors).toEqual([]);
});

test("the server came up on a fresh embedded database, migrated and filled with sample data", async ({ request }) => {
  const health = await request.get("/health");
  expect(health.status()).toBe(200);
  expect(health.headers()["x-api-version"]).toBe("v1");
  const estimate = await request.get("/estimate?endpoint=dilution-rating&ticker=ZVTX");
  expect(estimate.status()).toBe(200);
  expect(await estimate.json()).toMatchObject({ endpoint: "dilution-rating", records_returned: 1 });
  const unauthenticated = await request.get("/v1/dilution-rating?ticker=ZVTX");
  expect(unauthenticated.status()).toBe(401);
  expect((await unauthenticated.json()).error.code).toBe("missing_api_key");
});

// Only for the build this suite made itself (not a server given by E2E_BASE_URL).
if (!process.env.E2E_BASE_URL) {
  test("the production build ships the migrations the server runs on start, and none of the project's tests or docs", async () => {
    const trace = path.join(process.env.NEXT_DIST_DIR || ".next", "server", "instrumentation.js.nft.json");
    const files: string[] = JSON.parse(readFileSync(trace, "utf8")).files;
    expect(files.some((file) => file.endsWith("prisma/migrations/20261122000000_init/migration.sql"))).toBe(true);
    expect(files.filter((file) => /(^|\/)(e2e|tests)\/|README\.md$|\.test\.ts$/.test(file))).toEqual([]);
  });
}

test("the operator CLI, run while the server holds the database, creates a key the API accepts", async ({ request }) => {
  const { execFileSync } = await import("node:child_process");
  const dataDir = process.env.E2E_DATA_DIR;
  expect(dataDir, "playwright.config.ts names the server's data folder").toBeTruthy();
  const run = (...args: string[]) =>
    JSON.parse(execFileSync("npx", ["tsx", "scripts/cli.ts", ...args, "--json"], { env: { ...process.env, PGLITE_DIR: dataDir, DATABASE_URL: "" } }).toString());
  const org = run("org:create", "--name", "E2E", "--plan", "retail");
  run("credits:add", "--org", org.id, "--dollars", "1", "--reason", "e2e");
  const key = run("key:create", "--org", org.id);
  const response = await request.get("/v1/dilution-rating?ticker=ZVTX", { headers: { "API-KEY": key.key } });
  expect(response.status()).toBe(200);
  expect(response.headers()["x-cost-dollars"]).toMatch(/^\$0\.0+\d+$/);
  expect((await response.json()).results[0].ticker).toBe("ZVTX");
});

test("the API owns every path under /v1, with or without a trailing slash; pages still drop the slash", async ({ request }) => {
  for (const path of ["/v1", "/v1/", "/v1/nothing-here", "/v1/nothing-here/"]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(404);
    expect(response.headers()["content-type"], path).toMatch(/^application\/json/);
    expect(response.headers()["x-api-version"], path).toBe("v1");
    expect(response.headers()["x-request-id"], path).toBeTruthy();
    const body = await response.json();
    expect(body, path).toMatchObject({ status: "error", error: { code: "not_found" }, request_id: response.headers()["x-request-id"] });
  }
  const keyless = await request.get("/v1/dilution-rating/?ticker=ZVTX", { maxRedirects: 0 });
  expect(keyless.status()).toBe(401);
  expect((await keyless.json()).error.code).toBe("missing_api_key");
  expect((await request.get("/health/", { maxRedirects: 0 })).status()).toBe(200);
  const page = await request.get("/docs/", { maxRedirects: 0 });
  expect(page.status()).toBe(308);
  expect(page.headers()["location"]).toMatch(/\/docs$/);
});

test("next-auth's own pages carry the dashboard's frame and content-security headers", async ({ request }) => {
  for (const path of ["/api/auth/signout", "/api/auth/error"]) {
    const headers = (await request.get(path)).headers();
    expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
    expect(headers["x-frame-options"], path).toBe("DENY");
    expect(headers["x-content-type-options"], path).toBe("nosniff");
  }
});

test("npm run data:import, run while the server holds the database, hands the file to it: a dry run writes nothing, the import serves", async ({ request }) => {
  const { spawnSync } = await import("node:child_process");
  const env = { ...process.env, PGLITE_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: "" };
  const run = (...args: string[]) => spawnSync("npx", ["tsx", "scripts/data-import.ts", ...args], { env, encoding: "utf8" });
  // A fresh connection each time: the CLI runs for seconds between these, long enough for the server to close an idle
  // kept-alive socket just as the client reuses it (seen once as ECONNRESET).
  const estimate = () => request.get("/estimate?endpoint=offerings&ticker=FIXA", { headers: { connection: "close" } }).then((r) => r.json());

  const dry = run("tests/fixtures/import/small.json", "--dry-run");
  expect(dry.status, dry.stderr).toBe(0);
  expect(dry.stdout).toContain("(dry run)");
  expect(dry.stdout).toContain("through the running app server");
  expect((await estimate()).records_returned).toBe(0);

  const bad = run("tests/fixtures/import/bad.offerings.csv");
  expect(bad.status).toBe(1);
  expect(bad.stdout).toMatch(/line \d+: /);

  const applied = run("tests/fixtures/import/small.json");
  expect(applied.status, applied.stderr).toBe(0);
  expect((await estimate()).records_returned).toBeGreaterThan(0);
});
