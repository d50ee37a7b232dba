import { expect, test, type Page } from "@playwright/test";

interface CatalogEntry {
  name: string;
  title: string;
  path: string;
  requires_api_key: boolean;
  price_per_gb_dollars: number;
  supports_date_range: boolean;
}

function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

async function dataEndpoints(request: import("@playwright/test").APIRequestContext): Promise<CatalogEntry[]> {
  const response = await request.get("/endpoints");
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { endpoints: CatalogEntry[] };
  return body.endpoints.filter((e) => e.requires_api_key);
}

test("lists every catalog endpoint with its price and a real sample response", async ({ page, request }) => {
  const errors = consoleErrors(page);
  const catalog = await dataEndpoints(request);
  expect(catalog.length).toBeGreaterThanOrEqual(6);

  await page.goto("/docs");
  await expect(page).toHaveTitle("Docs · Dilution Data API");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  for (const endpoint of catalog) {
    const section = page.locator(`section#${endpoint.name}`);
    await expect(section.getByRole("heading", { level: 3, name: endpoint.title })).toBeVisible();
    await expect(section.getByText(endpoint.path, { exact: true })).toBeVisible();
    await expect(section.getByTestId("price-per-gb")).toHaveText(`$${endpoint.price_per_gb_dollars.toFixed(2)} / GB of JSON returned`);
    await expect(page.getByRole("navigation", { name: "On this page" }).getByRole("link", { name: endpoint.title })).toBeVisible();

    const sample = await section.getByTestId("sample-response").locator("pre").textContent();
    const body = JSON.parse(sample ?? "") as { status: string; count: number; results: unknown[] };
    expect(body.status).toBe("success");
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.count).toBe(body.results.length);
  }

  // Headings go down one level at a time.
  const levels = await page.evaluate(() => [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].map((h) => Number(h.tagName[1])));
  expect(levels[0]).toBe(1);
  levels.forEach((level, i) => i > 0 && expect(level, `heading ${i}`).toBeLessThanOrEqual(levels[i - 1]! + 1));

  expect(errors).toEqual([]);
});

test("the examples' tabs work with the keyboard, and the copy button copies", async ({ page, context }) => {
  const errors = consoleErrors(page);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/docs");
  const offerings = page.locator("section#offerings");

  const python = offerings.getByRole("tab", { name: "Python" });
  await python.click();
  await expect(python).toHaveAttribute("aria-selected", "true");
  // The language picked is the page's: every endpoint now shows Python.
  await expect(page.locator("section#dilution-rating").getByRole("tab", { name: "Python" })).toHaveAttribute("aria-selected", "true");

  await offerings.getByRole("button", { name: "Copy Python example" }).click();
  await expect(offerings.getByRole("button", { name: "Copied" })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain("requests.get(");
  expect(copied).toContain("/v1/offerings");
  expect(copied).toContain('"API-KEY"');

  await python.focus();
  await page.keyboard.press("ArrowRight");
  const javascript = offerings.getByRole("tab", { name: "JavaScript" });
  await expect(javascript).toBeFocused();
  await expect(javascript).toHaveAttribute("aria-selected", "true");
  await expect(offerings.getByRole("tabpanel")).toContainText("await fetch(url");
  const outline = await javascript.evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).not.toBe("none");
  await page.keyboard.press("Home");
  await expect(offerings.getByRole("tab", { name: "curl" })).toBeFocused();
  await expect(offerings.getByRole("tabpanel")).toContainText("curl -sS '");

  expect(errors).toEqual([]);
});

test("the estimator answers what /estimate answers for dilution-rating and ZVTX", async ({ page, request }) => {
  const errors = consoleErrors(page);
  await page.goto("/docs#estimator");
  const estimator = page.locator("section#estimator");

  await estimator.getByLabel("Endpoint").selectOption("offerings");
  await expect(estimator.getByLabel("From (optional)")).toBeVisible();
  await estimator.getByLabel("Endpoint").selectOption("dilution-rating");
  await expect(estimator.getByLabel("From (optional)")).toHaveCount(0);

  await estimator.getByLabel("Tickers").fill("ZVTX");
  await estimator.getByRole("button", { name: "Estimate cost" }).click();

  const own = await (await request.get("/estimate?endpoint=dilution-rating&ticker=ZVTX")).json();
  expect(own.estimated_cost_dollars).toMatch(/^\$0\.0+\d+$/);
  // Shown by the one money rule; the exact figure /estimate answered is its title.
  await expect(estimator.getByTestId("estimate-cost").getByTitle(own.estimated_cost_dollars, { exact: true })).toBeVisible();
  const result = estimator.getByTestId("estimate-result");
  await expect(result).toContainText(/≈ [\d,]+ such requests per \$1/);
  await expect(result).toContainText(String(own.records_returned));
  await expect(result).toContainText(/\d+(\.\d)? (KB|bytes)/);
  await expect(result).toContainText(`$${own.price_per_gb_dollars.toFixed(2)} / GB`);

  expect(errors).toEqual([]);
});

test("an invalid ticker shows the API's own error message", async ({ page, request }) => {
  await page.goto("/docs#estimator");
  const estimator = page.locator("section#estimator");
  await estimator.getByLabel("Endpoint").selectOption("dilution-rating");
  await estimator.getByLabel("Tickers").fill("ZV$X");
  await estimator.getByRole("button", { name: "Estimate cost" }).click();

  const api = await request.get(`/estimate?${new URLSearchParams({ endpoint: "dilution-rating", ticker: "ZV$X", page: "1", limit: "10" })}`);
  expect(api.status()).toBe(400);
  const { error } = await api.json();
  const shown = estimator.getByTestId("estimate-error");
  await expect(shown).toContainText(error.message);
  await expect(shown).toContainText(error.code);
  await expect(shown).toContainText(error.details.reason);
});

test("fits a 375 px screen without sideways scrolling; screenshots", async ({ page }) => {
  const errors = consoleErrors(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/docs");
  await page.screenshot({ path: "test-results/screenshots/docs-desktop.png", fullPage: true });

  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto("/docs");
  await expect(page.getByRole("navigation", { name: "On this page" })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBe(0);
  // Long code lines scroll inside their block instead.
  const scrollingBlocks = await page.evaluate(
    () => [...document.querySelectorAll("pre")].filter((pre) => pre.offsetParent !== null && pre.scrollWidth > pre.clientWidth).length,
  );
  expect(scrollingBlocks).toBeGreaterThan(0);
  await page.screenshot({ path: "test-results/screenshots/docs-375.png", fullPage: true });

  expect(errors).toEqual([]);
});
