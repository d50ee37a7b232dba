import { expect, test, type Locator, type Page } from "@playwright/test";
import { cli, currentOrgId, expectNoHorizontalOverflow, screenshots, signUp, unique, watchConsole } from "./support";

/** A newcomer's first visit (issue 24, item 9), at 1280 and 375 px. */

/** One line of text: its box is no taller than its line height. */
async function expectOneLine(locator: Locator, label: string) {
  const { height, lineHeight } = await locator.evaluate((element) => ({
    height: element.getBoundingClientRect().height,
    lineHeight: parseFloat(getComputedStyle(element).lineHeight) || parseFloat(getComputedStyle(element).fontSize) * 1.5,
  }));
  expect(height, `${label} fits on one line`).toBeLessThanOrEqual(lineHeight * 1.2);
}

const phone = (page: Page) => page.setViewportSize({ width: 375, height: 800 });
const desktop = (page: Page) => page.setViewportSize({ width: 1280, height: 900 });

test("the public pages: plans with prices, what Trial leaves out, the endpoint list in the docs, a readable status page and the tickers covered", async ({ page }) => {
  const errors = watchConsole(page);
  await page.goto("/");
  const dilutionData = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Dilution data" }) }).first();
  await expect(dilutionData).toContainText("Not on the Trial plan");
  const plans = page.getByRole("list", { name: "Plans" });
  await expect(plans).toContainText("Trial");
  // (the console's spec edits a price before this one runs, so the range is read as a shape, not as the seeded $8.00)
  await expect(plans).toContainText(/No monthly fee; \$\d+\.\d{2} to \$\d+\.\d{2} per GB returned/);
  await expect(plans).toContainText("Includes every endpoint except Dilution data");
  await expect(page.getByRole("link", { name: "Browse the endpoints" })).toHaveAttribute("href", "/docs#endpoints");
  await screenshots(page, "newcomer-home");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Status" }).click();
  await expect(page).toHaveURL(/\/status$/);
  await expect(page.getByRole("heading", { name: "Status" })).toBeVisible();
  await expect(page.getByTestId("status")).toHaveText("Operational");
  // (earlier specs load real companies: an EDGAR sync, an import)
  await expect(page.getByTestId("coverage")).toContainText(/The data covers (?:[\d,]+ real and [\d,]+ sample tickers \(the sample ones are fictional companies\)|[\d,]+ sample tickers \(fictional companies\))/);
  await screenshots(page, "newcomer-status");

  await page.getByRole("link", { name: "See every ticker" }).click();
  await expect(page.getByRole("heading", { name: "Tickers covered" })).toBeVisible();
  await expect(page.getByRole("row", { name: /ZVTX/ })).toContainText("Sample");
  await screenshots(page, "newcomer-tickers");

  // The docs at 375 px: the base URL stays whole, on one line.
  await phone(page);
  await page.goto("/docs");
  await expectOneLine(page.getByTestId("base-url"), "the base URL");
  // …and is not cut: it took the width left beside "Base URL" and the copy button, and scrolled inside it.
  expect(await page.getByTestId("base-url").evaluate((code) => code.scrollWidth <= code.clientWidth), "the base URL is shown whole").toBe(true);
  await expect(page.getByTestId("coverage")).toContainText("sample tickers");
  await expect(page.locator("#quick-start")).toContainText("Create an account");
  await desktop(page);
  expect(errors).toEqual([]);
});

test("a Trial organization at both widths: money by one rule, plans priced, the menu, and pages that fit a phone", async ({ page, request }) => {
  const errors = watchConsole(page);
  await signUp(page, unique("newcomer"));
  const orgId = await currentOrgId(page);
  cli("credits:add", "--org", orgId, "--dollars", "20", "--reason", "newcomer test");
  const { key } = cli<{ key: string }>("key:create", "--org", orgId, "--name", "Laptop");
  for (const path of ["/v1/dilution-rating?ticker=ZVTX", "/v1/offerings?ticker=ZOFR&limit=50", "/v1/registrations?ticker=ZREG"]) {
    expect((await request.get(path, { headers: { "API-KEY": key } })).status()).toBe(200);
  }
  // The Trial plan leaves out dilution-data: the refusal says so, and which plans include it.
  const refused = await request.get("/v1/dilution-data?ticker=ZVTX", { headers: { "API-KEY": key } });
  expect(refused.status()).toBe(403);
  const error = (await refused.json()).error;
  expect(error.code).toBe("endpoint_not_allowed");
  expect(error.message).toContain("Trial plan does not include /v1/dilution-data. The Retail and Enterprise plans include it");

  // One balance, shown the same on every page: cut below $20.00, the exact figure as its title.
  const shown: string[] = [];
  for (const path of ["/dashboard", "/billing", "/usage"]) {
    await page.goto(path);
    const balance = page.getByTitle(/^\$19\.99\d+$/).first();
    await expect(balance).toHaveText(/^\$19\.99\d\d$/);
    shown.push((await balance.textContent())!);
  }
  expect(new Set(shown).size).toBe(1);

  await page.goto("/dashboard");
  await expect(page.getByTestId("coverage")).toContainText("sample tickers");
  await phone(page);
  // The code sample wraps instead of running off the right edge.
  const code = page.locator("pre").first();
  expect(await code.evaluate((pre) => pre.scrollWidth - pre.clientWidth)).toBeLessThanOrEqual(0);
  // …between words ("# you|r full key" broke inside one): a word is split only when it cannot fit a line.
  expect(await code.evaluate((pre) => [getComputedStyle(pre).wordBreak, getComputedStyle(pre).overflowWrap])).toEqual(["normal", "anywhere"]);
  // The plan names the endpoint it leaves out ("6 of 7" did not say which).
  await expect(page.getByText("6 of 7: not Dilution data")).toBeVisible();
  // Every section is one tap away: a menu, not a sideways-scrolling row.
  await page.getByTestId("nav-menu-button").click();
  const menu = page.getByRole("navigation", { name: "Dashboard" });
  for (const name of ["Alerts", "Members", "Audit log", "Settings", "Docs"]) await expect(menu.getByRole("link", { name })).toBeInViewport();
  await menu.getByRole("link", { name: "Billing" }).click();
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByRole("navigation", { name: "Dashboard" })).toBeHidden();
  // The organization switcher keeps to the header.
  const switcher = page.getByLabel("Organization");
  const box = (await switcher.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  // What credits buy: paths never break; the endpoint the plan cannot call is marked, not priced in GB.
  for (const path of await page.getByText(/^\/v1\/[a-z-]+$/).all()) await expectOneLine(path, (await path.textContent())!);
  await expect(page.getByRole("row", { name: /Dilution data/ })).toContainText("Not included in your Trial plan");
  await expect(page.getByRole("row", { name: /Dilution rating/ })).toContainText("≈ 2.5 GB");
  await expectNoHorizontalOverflow(page);
  await page.goto("/usage");
  await expectOneLine(page.getByTestId("chart-first-day"), "the chart's first day");
  await expectOneLine(page.getByTestId("chart-last-day"), "the chart's last day");
  await desktop(page);
  // At 1280 the switcher shows the whole name: nothing is cut where there is room.
  const fits = await page.getByLabel("Organization").evaluate((select) => select.scrollWidth <= select.clientWidth);
  expect(fits).toBe(true);

  // A key's buttons stay on one line in the table ("Delete" wrapped under the others).
  await page.goto("/keys");
  const settingsTop = (await page.getByRole("button", { name: "Settings of Laptop" }).boundingBox())!.y;
  expect((await page.getByRole("button", { name: "Delete Laptop" }).boundingBox())!.y).toBe(settingsTop);

  await page.goto("/settings");
  await expect(page.getByTestId("plan-price-trial")).toHaveText(/^No monthly fee; \$\d+\.\d{2} to \$\d+\.\d{2} per GB returned, by endpoint$/);
  for (const name of ["dashboard", "billing", "usage", "settings"]) {
    await page.goto(`/${name}`);
    await screenshots(page, `newcomer-${name}`);
  }
  expect(errors).toEqual([]);
});

test("signed in, the docs' quick start points to keys and billing; after signing out, Back and signing in return to the page the person was on", async ({ page }) => {
  const email = unique("leaver");
  await signUp(page, email);
  await page.goto("/docs");
  const quickStart = page.locator("#quick-start");
  await expect(quickStart).not.toContainText("Create an account");
  await expect(quickStart.getByRole("link", { name: "API keys page" })).toHaveAttribute("href", "/keys");

  await page.goto("/usage");
  await page.goto("/billing");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fbilling$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fbilling$/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/billing$/);
});
