import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { adminBrowser, cli, createKey, currentOrgId, edgar, screenshots, signUp, unique, watchConsole } from "./support";

const PASSWORD = "a long enough password";

/** What an unknown path answers: the status and the words on the page. */
async function unknownPathAnswer(page: Page) {
  const response = await page.goto("/no-such-page-anywhere");
  return { status: response!.status(), text: await page.locator("body").innerText() };
}

test("the console answers everyone but platform administrators exactly as an unknown path does", async ({ page, browser }) => {
  const unknown = await unknownPathAnswer(page);
  expect(unknown.status).toBe(404);
  for (const path of ["/admin", "/admin/organizations", "/admin/keys", "/admin/users", "/admin/plans", "/admin/payments", "/admin/data", "/admin/audit"]) {
    const response = await page.goto(path);
    expect(response!.status(), `${path} signed out`).toBe(404);
    expect(await page.locator("body").innerText()).toBe(unknown.text);
  }
  const unknownRoute = await page.request.get("/no-such-route-anywhere.csv");
  const exported = await page.request.get("/admin/export");
  expect(exported.status()).toBe(404);
  expect(await exported.text()).toBe(await unknownRoute.text());

  await signUp(page, unique("nosy-owner"), PASSWORD);
  for (const path of ["/admin", "/admin/organizations/00000000-0000-0000-0000-000000000000", "/admin/plans"]) {
    const response = await page.goto(path);
    expect(response!.status(), `${path} as a customer owner`).toBe(404);
    expect(await page.locator("body").innerText()).toBe(unknown.text);
  }
  const asCustomer = await page.request.get("/admin/export");
  expect(asCustomer.status()).toBe(404);
  expect(await asCustomer.text()).toBe(await (await page.request.get("/no-such-route-anywhere.csv")).text());

  // An administrator whose flag is revoked is refused on the very next request, with the same session.
  const admin = await adminBrowser(browser);
  expect((await admin.goto("/admin"))!.status()).toBe(200);
  const second = unique("second-operator");
  cli("user:create", "--email", second, "--password", PASSWORD, "--platform-admin"); // so the first is not the last administrator
  cli("user:set-admin", "--email", admin.email, "--revoke");
  expect((await admin.goto("/admin"))!.status()).toBe(404);
  await admin.context().close();
});

/** The server's build's actions by exported name: the build the suite made, or the one NEXT_DIST_DIR names. */
function actionIds(): Map<string, string> {
  const manifest = path.join(process.env.NEXT_DIST_DIR || ".next", "server", "server-reference-manifest.json");
  const actions = (JSON.parse(readFileSync(manifest, "utf8")).node ?? {}) as Record<string, { exportedName: string }>;
  return new Map(Object.entries(actions).map(([id, action]) => [action.exportedName, id]));
}

/** Console paths (pages, route handlers, the upload, a made-up one), each beside a path that does not exist, of the same length. */
const CONSOLE_PATHS = [
  "/admin",
  "/admin/",
  "/admin/organizations",
  "/admin/organizations/00000000-0000-0000-0000-000000000000",
  "/admin/keys?q=svc-live",
  "/admin/users",
  "/admin/plans",
  "/admin/payments",
  "/admin/data",
  "/admin/data/upload",
  "/admin/data/upload?dry_run=1",
  "/admin/audit",
  "/admin/export",
  "/admin/export?from=2026-01-01&to=2026-01-31",
  "/admin/no-such-console-page",
];
const unknownTwin = (consolePath: string) => consolePath.replace(/^\/admin/, "/nimda");
const METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"];

type Probe = { method: string; headers?: Record<string, string>; data?: string };

/**
 * Everything an answer shows a prober: the status, every header but the date, and the body, with the twin's path
 * spelt as the console's (a page rendered for a request names the path's segments, an unknown path's too).
 */
async function answer(api: APIRequestContext, target: string, probe: Probe, twin = false) {
  const response = await api.fetch(target, { ...probe, maxRedirects: 0 });
  const headers = Object.fromEntries(Object.entries(response.headers()).filter(([name]) => name !== "date" && name !== "keep-alive"));
  const seen = JSON.stringify({ status: response.status(), headers, body: (await response.body()).toString("latin1") });
  return twin ? seen.replaceAll("nimda", "admin") : seen;
}

/** Every console path, by every method and as server-action posts, answers exactly as its non-existent twin does. */
async function expectConsoleUnknown(api: APIRequestContext, who: string, baseURL: string) {
  const ids = actionIds();
  const probes: Probe[] = [
    ...METHODS.map((method) => ({ method, ...(["POST", "PUT", "PATCH", "DELETE"].includes(method) ? { data: "a=1", headers: { "Content-Type": "application/x-www-form-urlencoded" } } : {}) })),
    { method: "GET", headers: { RSC: "1" } },
    { method: "GET", headers: { RSC: "1", "Next-Router-Prefetch": "1" } },
    // The upload's own request, with a ticket that was never issued.
    { method: "POST", headers: { "X-File-Name": "companies.csv", "Content-Type": "application/octet-stream", "X-Upload-Ticket": `${Date.now() + 60_000}.${"ab".repeat(32)}` }, data: "ticker,name,exchange\nNEWCO,New Co,NASDAQ\n" },
    // Server actions: an administrator's, a customer's and a made-up one.
    ...[ids.get("restrictKeyAsAdminAction")!, ids.get("configureKeyAction")!, "00".repeat(21)].map((id) => ({
      method: "POST",
      headers: { "Next-Action": id, Origin: baseURL, "Content-Type": "text/plain;charset=UTF-8" },
      data: JSON.stringify(["00000000-0000-0000-0000-000000000000", { endpoints: [], reason: "x" }, "/admin"]),
    })),
  ];
  let compared = 0;
  for (const consolePath of CONSOLE_PATHS) {
    for (const probe of probes) {
      const [seen, unknown] = [await answer(api, consolePath, probe), await answer(api, unknownTwin(consolePath), probe, true)];
      expect(seen, `${who}: ${probe.method} ${consolePath} ${JSON.stringify(probe.headers ?? {})}`).toBe(unknown);
      expect(seen).not.toContain("_console-not-found");
      compared++;
    }
  }
  return compared;
}

/** These walks read the server build's action ids: against an external server its folder must be named, or the walk fails saying so (never passes unseen). */
function expectActionIdsReadable(): void {
  expect(!process.env.E2E_BASE_URL || !!process.env.NEXT_DIST_DIR, "reads the action ids of the server's build: name its folder in NEXT_DIST_DIR").toBe(true);
}

test("every console path, by every method and as a server action, answers a stranger and a customer byte for byte as a path that does not exist", async ({ page, browser, request, baseURL }) => {
  expectActionIdsReadable();
  test.setTimeout(240_000);
  expect(await expectConsoleUnknown(request, "signed out", baseURL!)).toBe(CONSOLE_PATHS.length * 13);
  await signUp(page, unique("prober"));
  await expectConsoleUnknown(page.request, "signed-in customer", baseURL!);

  // Not a comparison that cannot fail: an administrator gets the console.
  const admin = await adminBrowser(browser);
  expect((await admin.request.get("/admin")).status()).toBe(200);
  expect((await admin.request.get("/admin/data/upload")).status()).toBe(405);
  expect(await answer(admin.request, "/admin/plans", { method: "GET" })).not.toBe(await answer(admin.request, "/nimda/plans", { method: "GET" }, true));
  await admin.context().close();
});

test("a platform administrator's restriction binds the customer: shown with its reason, blocked in the settings, refused when replayed; lifted, the customer's choice applies", async ({ page, browser, request, baseURL }) => {
  expectActionIdsReadable();
  const errors = watchConsole(page);
  await signUp(page, unique("restricted"));
  const orgId = await currentOrgId(page);
  await page.goto("/keys");
  const key = await createKey(page, "Scraper");
  const keyId = cli<{ keys: { id: string; name: string }[] }>("org:show", "--org", orgId).keys.find((k) => k.name === "Scraper")!.id;
  // Without credit an allowed endpoint answers 402 insufficient_credits; permission is checked first (403).
  const code = async (endpoint: string) => ((await (await request.get(`/v1/${endpoint}?ticker=ZVTX`, { headers: { "API-KEY": key } })).json()) as { error: { code: string } }).error.code;
  expect(await code("registrations")).toBe("insufficient_credits");

  const admin = await adminBrowser(browser);
  await admin.goto(`/admin/organizations/${orgId}`);
  await admin.locator("tr", { hasText: "Scraper" }).getByRole("button", { name: "Endpoints of Scraper" }).click();
  const restrict = admin.getByRole("dialog", { name: /endpoints of/i });
  await restrict.getByLabel("offerings").check();
  await restrict.getByLabel("dilution-rating").check();
  await restrict.getByLabel("Reason the customer sees").fill("Scraping registrations beyond the terms");
  await restrict.getByRole("button", { name: "Restrict key" }).click();
  await expect(restrict).toBeHidden();
  await expect.poll(() => code("registrations")).toBe("endpoint_not_allowed");
  expect(await code("offerings")).toBe("insufficient_credits");

  // The customer sees it as the platform's, with the reason, and cannot tick what it blocks.
  await page.goto("/keys");
  await page.setViewportSize({ width: 1280, height: 900 });
  const row = page.getByRole("row", { name: /Scraper/ });
  await expect(row).toContainText("Restricted by the platform");
  await expect(row).toContainText("Scraping registrations beyond the terms");
  await screenshots(page, "keys-platform-restricted");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole("button", { name: "Settings of Scraper" }).click();
  const settings = page.getByRole("dialog", { name: /Settings of/ });
  await expect(settings).toContainText("A platform administrator limited this key to offerings, dilution-rating: Scraping registrations beyond the terms");
  await expect(settings.getByRole("checkbox", { name: /Registrations/ })).toBeDisabled();
  await expect(settings.getByRole("checkbox", { name: /Offerings/ })).toBeEnabled();
  await screenshots(page, "keys-platform-restricted-settings");
  // Saved through the real action with nothing ticked ("every endpoint allowed"): still refused.
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(settings).toBeHidden();
  await expect(page.getByText("Settings of “Scraper” saved.")).toBeVisible();
  expect(await code("registrations")).toBe("endpoint_not_allowed");

  // A replayed settings post naming the blocked endpoint is refused with the reason, and changes nothing.
  const replay = await page.request.post("/keys", {
    headers: { "Next-Action": actionIds().get("configureKeyAction")!, Origin: baseURL!, "Content-Type": "text/plain;charset=UTF-8" },
    data: JSON.stringify([orgId, keyId, { endpoints: ["registrations", "offerings"], allowedIps: "", dailyCap: "", monthlyCap: "" }]),
  });
  expect(replay.status()).toBe(200);
  expect(await replay.text()).toContain("restricted_by_platform");
  expect(await code("registrations")).toBe("endpoint_not_allowed");

  // The customer's audit log shows the platform's restriction.
  await page.goto("/audit");
  await expect(page.getByRole("row", { name: /Restricted key “Scraper”.* to offerings, dilution-rating for the platform: Scraping registrations beyond the terms/ })).toContainText("Platform administrator");

  // Lifted: the customer's own choice (every endpoint of the plan) applies again.
  await admin.reload();
  await admin.locator("tr", { hasText: "Scraper" }).getByRole("button", { name: "Endpoints of Scraper" }).click();
  const lift = admin.getByRole("dialog", { name: /endpoints of/i });
  await lift.getByLabel("offerings").uncheck();
  await lift.getByLabel("dilution-rating").uncheck();
  await lift.getByRole("button", { name: "Lift restriction" }).click();
  await expect(lift).toBeHidden();
  await expect.poll(() => code("registrations")).toBe("insufficient_credits");
  await page.goto("/keys");
  await expect(page.getByRole("row", { name: /Scraper/ })).not.toContainText("Restricted by the platform");
  expect(errors).toEqual([]);
  await admin.context().close();
});

test("an administrator finds a customer by email, adds credit, restricts, disables and suspends; the customer and the API see each step", async ({ page, browser, request }) => {
  // the longest walk of the suite (two browsers, a CSV load and an EDGAR sync): 1.6 min on a loaded 2-core machine
  test.setTimeout(240_000);
  const errors = watchConsole(page);
  const customer = unique("customer");
  await signUp(page, customer, PASSWORD);
  const orgId = await currentOrgId(page);
  await page.goto("/keys");
  const key = await createKey(page, "Trading bot");
  const ticker = "ZVTX";
  const call = (path = `/v1/dilution-rating?ticker=${ticker}`) => request.get(path, { headers: { "API-KEY": key } });
  expect((await call()).status()).toBe(402);

  const admin = await adminBrowser(browser);
  const adminErrors = watchConsole(admin);
  await admin.goto("/admin");
  await expect(admin.getByRole("heading", { name: "Overview" })).toBeVisible();
  await screenshots(admin, "admin-overview");

  // Find the organization by the member's email.
  await admin.goto("/admin/organizations");
  await admin.getByRole("searchbox").fill(customer);
  await admin.getByRole("button", { name: "Search" }).click();
  await screenshots(admin, "admin-organizations");
  await admin.getByRole("table", { name: /Organizations matching/ }).getByRole("link").first().click();
  await expect(admin).toHaveURL(new RegExp(`/admin/organizations/${orgId}`));

  // +$5 with a reason.
  const adjust = admin.getByRole("form", { name: "Credit adjustment" });
  await adjust.getByLabel("Amount (USD)").fill("5");
  await adjust.getByLabel("Reason").fill("Welcome credit for the pilot");
  await adjust.getByRole("button", { name: "Add credit" }).click();
  await expect(adjust.getByText("Done. The balance is now $5.00.")).toBeVisible();
  await expect(admin.getByTestId("admin-balance")).toHaveAttribute("data-nanos", "5000000000");
  await screenshots(admin, "admin-organization");

  // The customer sees the new balance and the adjustment in their billing history.
  await page.goto("/billing");
  await expect(page.getByTestId("balance")).toHaveText("$5.00");
  await expect(page.getByTestId("billing-history").getByRole("row", { name: /Welcome credit for the pilot/ })).toContainText("+$5.00");
  const paid = await call();
  expect(paid.status()).toBe(200);

  // A new price reaches /estimate and /endpoints within 2 s.
  await admin.goto("/admin/plans");
  await admin.getByRole("button", { name: "Change the price of Float and outstanding" }).click();
  const priceDialog = admin.getByRole("dialog", { name: /Change the price of/ });
  await priceDialog.getByLabel("Price per GB (US dollars)").fill("7.25");
  await priceDialog.getByRole("button", { name: "Review" }).click();
  await priceDialog.getByRole("button", { name: "Schedule price" }).click();
  await expect(priceDialog).toBeHidden();
  const changedAt = Date.now();
  await expect
    .poll(async () => ((await (await request.get("/endpoints")).json()) as { endpoints: { name: string; price_per_gb_dollars: number }[] }).endpoints.find((e) => e.name === "float-outstanding")?.price_per_gb_dollars, { timeout: 2_000, intervals: [100] })
    .toBe(7.25);
  await expect
    .poll(async () => ((await (await request.get(`/estimate?endpoint=float-outstanding&ticker=${ticker}`)).json()) as { price_per_gb_dollars?: number }).price_per_gb_dollars, { timeout: Math.max(100, 2_000 - (Date.now() - changedAt)), intervals: [100] })
    .toBe(7.25);
  await screenshots(admin, "admin-plans");

  // Restrict the key to another endpoint → 403; disable it → 401 with the platform's reason.
  await admin.goto(`/admin/organizations/${orgId}`);
  const keyRow = admin.locator("tr", { hasText: "Trading bot" });
  await keyRow.getByRole("button", { name: "Endpoints of Trading bot" }).click();
  const endpointsDialog = admin.getByRole("dialog", { name: /endpoints of/i });
  await endpointsDialog.getByLabel("offerings").check();
  await endpointsDialog.getByLabel("Reason the customer sees").fill("Offerings only during the review");
  await endpointsDialog.getByRole("button", { name: "Restrict key" }).click();
  await expect(endpointsDialog).toBeHidden();
  const restricted = await call();
  expect(restricted.status()).toBe(403);
  expect((await restricted.json()).error.code).toBe("endpoint_not_allowed");

  await keyRow.getByRole("button", { name: "Disable Trading bot" }).click();
  const disableDialog = admin.getByRole("dialog", { name: /Disable/ });
  await disableDialog.getByLabel("Reason the customer sees").fill("Unusual traffic from many addresses");
  await disableDialog.getByRole("button", { name: "Disable key" }).click();
  await expect(disableDialog).toBeHidden();
  const disabled = await call(`/v1/offerings?ticker=${ticker}`);
  expect(disabled.status()).toBe(401);
  expect((await disabled.json()).error.code).toBe("api_key_disabled");
  await page.goto("/keys");
  const customerRow = page.getByRole("row", { name: /Trading bot/ });
  await expect(customerRow).toContainText("Disabled by the platform");
  await expect(customerRow).toContainText("Unusual traffic from many addresses");
  await expect(page.getByRole("button", { name: "Enable Trading bot" })).toHaveCount(0);

  // Re-enable and open the key again, then suspend the organization: refused at no charge; the customer sees why.
  await admin.reload();
  await admin.locator("tr", { hasText: "Trading bot" }).getByRole("button", { name: "Re-enable Trading bot" }).click();
  await expect(admin.locator("tr", { hasText: "Trading bot" }).getByRole("button", { name: "Disable Trading bot" })).toBeVisible();
  await admin.locator("tr", { hasText: "Trading bot" }).getByRole("button", { name: "Endpoints of Trading bot" }).click();
  await admin.getByRole("dialog", { name: /endpoints of/i }).getByLabel("offerings").uncheck();
  await admin.getByRole("dialog", { name: /endpoints of/i }).getByRole("button", { name: "Lift restriction" }).click();
  await expect.poll(async () => (await call()).status()).toBe(200);

  await admin.getByRole("button", { name: "Suspend organization" }).click();
  const suspend = admin.getByRole("dialog", { name: /Suspend/ });
  await suspend.getByLabel("Reason the customer sees").fill("Payment dispute under review");
  await suspend.getByRole("button", { name: "Suspend" }).click();
  await expect(admin.getByText("Suspended since")).toBeVisible();
  const before = cli<{ balance_nanos: string }>("org:show", "--org", orgId).balance_nanos;
  const suspended = await call();
  expect(suspended.status()).toBe(403);
  expect((await suspended.json()).error.code).toBe("organization_suspended");
  expect(cli<{ balance_nanos: string }>("org:show", "--org", orgId).balance_nanos).toBe(before);
  await page.goto("/billing");
  await expect(page.getByTestId("suspended-banner")).toContainText("Payment dispute under review");
  await expect(page.getByText("$20", { exact: true })).toBeVisible(); // buying credits stays open
  await screenshots(page, "customer-suspended");

  // Lift it; then load data: a CSV with one bad row is refused by line, the fixed one is applied and served.
  await admin.goto(`/admin/organizations/${orgId}`);
  await admin.getByRole("button", { name: "Lift the suspension" }).click();
  await expect(admin.getByText("Suspended since")).toBeHidden();
  await expect.poll(async () => (await call()).status()).toBe(200);

  await admin.goto("/admin/data");
  const header = "ticker,as_of,float_shares,outstanding_shares\n";
  const bad = `${header}ZVTX,2026-11-20,9000000,12345678\nZVTX,2026-11-21,99000000,12345678\n`;
  const fixed = `${header}ZVTX,2026-11-20,9000000,12345678\nZVTX,2026-11-21,11000000,12345678\n`;
  const fileInput = admin.getByLabel("Data file (JSON or CSV)");
  await fileInput.setInputFiles({ name: "float_snapshots.csv", mimeType: "text/csv", buffer: Buffer.from(bad) });
  await admin.getByTestId("data-check").click();
  await expect(admin.getByRole("row", { name: /must not exceed outstanding_shares/ })).toContainText("3");
  await expect(admin.getByTestId("data-apply")).toHaveCount(0);
  await screenshots(admin, "admin-data");
  await admin.getByRole("button", { name: "Choose another file" }).click();
  await admin.getByLabel("Data file (JSON or CSV)").setInputFiles({ name: "float_snapshots.csv", mimeType: "text/csv", buffer: Buffer.from(fixed) });
  await admin.getByTestId("data-check").click();
  await admin.getByTestId("data-apply").click();
  await admin.getByRole("dialog", { name: /Load float_snapshots.csv/ }).getByRole("button", { name: "Apply" }).click();
  await expect(admin.getByRole("cell", { name: "float_snapshots.csv" }).first()).toBeVisible({ timeout: 30_000 });
  const floats = await call(`/v1/float-outstanding?ticker=${ticker}&limit=100`);
  expect(floats.status()).toBe(200);
  expect((await floats.json()).results).toContainEqual(expect.objectContaining({ as_of: "2026-11-21", float: 11_000_000, outstanding: 12_345_678 }));

  // Real data: the EDGAR sync (run by the operator's CLI, inside the server that holds the embedded database)
  // loads the constructed small cap from a folder in EDGAR's layout; the API serves it with its filing, and the
  // console's Data page shows the run and what EDGAR has loaded.
  const sync = edgar("sync", "--tickers", "ZZBX", "--source", "tests/fixtures/edgar-constructed", "--since", "2024-01-01", "--json");
  expect(sync.tickers).toEqual([expect.objectContaining({ ticker: "ZZBX", status: "changed" })]);
  const shelf = await call("/v1/registrations?ticker=ZZBX&include=source");
  expect(shelf.status()).toBe(200);
  expect((await shelf.json()).results).toContainEqual(
    expect.objectContaining({
      file_number: "333-280001",
      offering_amount: 100_000_000,
      source: expect.objectContaining({ type: "sec_filing", accession_number: "0001493152-24-024718", form: "S-3" }),
    }),
  );
  await admin.goto("/admin/data");
  const edgarCard = admin.getByTestId("edgar-status");
  await expect(edgarCard.getByText("Companies from EDGAR")).toBeVisible();
  await expect(edgarCard.locator("dd").first()).toHaveText("1");
  await expect(admin.getByTestId("data-loads").getByText("EDGAR sync").first()).toBeVisible();
  await screenshots(admin, "admin-data-edgar");

  // The key page of the console shows the key's last requests with their client address.
  await admin.goto(`/admin/keys?q=${encodeURIComponent(key.slice(0, 12))}`);
  await expect(admin.getByRole("cell", { name: "organization_suspended" }).first()).toBeVisible();
  await expect(admin.getByRole("cell", { name: "127.0.0.1" }).first()).toBeVisible();
  await screenshots(admin, "admin-keys");

  // The other console pages, for the record.
  for (const [path, name] of [["/admin/users", "admin-users"], ["/admin/payments", "admin-payments"], ["/admin/audit", "admin-audit"]] as const) {
    await admin.goto(path);
    await screenshots(admin, name);
  }

  // The customer's audit log names the platform, not the administrator.
  await page.goto("/audit");
  await expect(page.getByRole("row", { name: /Suspended the organization: Payment dispute under review/ })).toContainText("Platform administrator");
  expect(errors).toEqual([]);
  expect(adminErrors).toEqual([]);
  await admin.context().close();
});

test("a customer's choice outside the platform's restriction is shown as what it is: the key calls nothing, and the settings say why", async ({ page, browser }) => {
  const errors = watchConsole(page);
  await signUp(page, unique("narrowed"));
  const orgId = await currentOrgId(page);
  await page.goto("/keys");
  await createKey(page, "Chooser");
  // The customer's own choice: registrations only.
  await page.getByRole("button", { name: "Settings of Chooser" }).click();
  let settings = page.getByRole("dialog", { name: /Settings of/ });
  await settings.getByRole("checkbox", { name: /Registrations/ }).check();
  await settings.getByRole("button", { name: "Save settings" }).click();
  await expect(settings).toBeHidden();

  // The platform limits the key to offerings: the two do not meet.
  const admin = await adminBrowser(browser);
  await admin.goto(`/admin/organizations/${orgId}`);
  await admin.locator("tr", { hasText: "Chooser" }).getByRole("button", { name: "Endpoints of Chooser" }).click();
  const restrict = admin.getByRole("dialog", { name: /endpoints of/i });
  await restrict.getByLabel("offerings").check();
  await restrict.getByLabel("Reason the customer sees").fill("Offerings only for this account");
  await restrict.getByRole("button", { name: "Restrict key" }).click();
  await expect(restrict).toBeHidden();
  await admin.context().close();

  // Before, the list said "No endpoint" and the dialog showed every box unticked, the choice hidden.
  await page.goto("/keys");
  const row = page.getByRole("row", { name: /Chooser/ });
  await expect(row).toContainText("No endpoint: your choice (registrations) is outside what the platform allows (offerings)");
  await page.getByRole("button", { name: "Settings of Chooser" }).click();
  settings = page.getByRole("dialog", { name: /Settings of/ });
  await expect(settings).toContainText("You had chosen registrations for this key, which the platform’s restriction blocks, so the key calls nothing now.");
  await screenshots(page, "keys-choice-blocked-settings");
  expect(errors).toEqual([]);
});
