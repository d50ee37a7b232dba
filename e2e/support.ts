import { execFileSync } from "node:child_process";
import { expect, type Browser, type Page } from "@playwright/test";

/** Runs the operator CLI against the server's database (it hands the command to the running server). */
export function cli<T = Record<string, unknown>>(...args: string[]): T {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("playwright.config.ts names the server's data folder in E2E_DATA_DIR");
  const output = execFileSync("npx", ["tsx", "scripts/cli.ts", ...args, "--json"], { env: { ...process.env, PGLITE_DIR: dataDir, DATABASE_URL: "" } });
  return JSON.parse(output.toString()) as T;
}

/** `npm run data:edgar -- …` against the e2e server's database (the sync runs inside the server, which holds it). */
export function edgar<T = { tickers: { ticker: string; status: string }[] }>(...args: string[]): T {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("playwright.config.ts names the server's data folder in E2E_DATA_DIR");
  const output = execFileSync("npx", ["tsx", "scripts/data-edgar.ts", ...args], { env: { ...process.env, PGLITE_DIR: dataDir, DATABASE_URL: "" } });
  return JSON.parse(output.toString()) as T;
}

/** Collects console errors and uncaught exceptions; assert the list is empty at the end. */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.com`;

export async function signUp(page: Page, email: string, password = "a long enough password") {
  await page.goto("/sign-up");
  await page.getByLabel("Work email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/keys/, { timeout: 30_000 });
}

/** A new platform administrator (made with the CLI), signed in in a browser context of their own. */
export async function adminBrowser(browser: Browser, password = "a long enough password"): Promise<Page & { email: string }> {
  const email = unique("operator");
  cli("user:create", "--email", email, "--password", password, "--platform-admin");
  const page = await (await browser.newContext()).newPage();
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard|\/keys|\/organizations\/new/, { timeout: 30_000 });
  return Object.assign(page, { email });
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard|\/keys/, { timeout: 30_000 });
}

/** The current organization's id, read from the usage page's CSV link. */
export async function currentOrgId(page: Page): Promise<string> {
  await page.goto("/usage");
  const href = await page.getByRole("link", { name: "Export CSV" }).getAttribute("href");
  return new URL(href!, "http://x").searchParams.get("org")!;
}

export async function expectNoHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "the page scrolls sideways").toBeLessThanOrEqual(0);
}

/** Full-page screenshots at desktop and phone widths, kept in test-results/screenshots. */
export async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `test-results/screenshots/${name}-desktop.png`, fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoHorizontalOverflow(page);
  await page.screenshot({ path: `test-results/screenshots/${name}-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Creates a key on the keys page (which must be open) and returns the full key, read from its one-time dialog. */
export async function createKey(page: Page, name: string): Promise<string> {
  await page.getByRole("button", { name: "Create key" }).first().click();
  const form = page.getByRole("dialog", { name: "Create an API key" });
  await form.getByLabel("Name").fill(name);
  await form.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-api-key").textContent())!.trim();
  await page.getByLabel("I have copied the key and stored it safely.").check();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("dialog", { name: /Your new key/ })).toBeHidden();
  return key;
}

/** The messages the local mail sink received for `to` (playwright.config.ts starts it and points the app's SMTP_URL at it). */
export async function sentEmails(to: string): Promise<{ subject: string; text: string }[]> {
  const sink = process.env.E2E_MAIL_SINK_URL;
  if (!sink) throw new Error("playwright.config.ts starts the mail sink and names it in E2E_MAIL_SINK_URL");
  const response = await fetch(`${sink}/messages?to=${encodeURIComponent(to)}`);
  return (await response.json()) as { subject: string; text: string }[];
}
