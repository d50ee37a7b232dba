import { expect, test, type APIRequestContext } from "@playwright/test";
import { cli, createKey, currentOrgId, screenshots, signIn, signUp, unique, watchConsole } from "./support";

const RATING = "/v1/dilution-rating?ticker=ZVTX";

const costs: string[] = [];

/** "$0.000017664" → nanos, and back; exact, as the ledger holds it. */
function dollarsToNanos(text: string): bigint {
  const [whole, fraction = ""] = text.replace("$", "").split(".");
  return BigInt(whole!) * 1_000_000_000n + BigInt(fraction.padEnd(9, "0"));
}

function nanosText(nanos: bigint): string {
  const fraction = (nanos % 1_000_000_000n).toString().padStart(9, "0").replace(/0+$/, "").padEnd(2, "0");
  return `$${nanos / 1_000_000_000n}.${fraction}`;
}

async function call(request: APIRequestContext, key: string, path = RATING) {
  const response = await request.get(path, { headers: { "API-KEY": key } });
  const body = await response.json();
  if (response.status() === 200) costs.push(response.headers()["x-cost-dollars"]!);
  return { status: response.status(), code: body.error?.code as string | undefined, cost: response.headers()["x-cost-dollars"] };
}

test("a new customer signs up, creates a key, uses it through every state, and sees the calls on the usage page", async ({ page, request }) => {
  const errors = watchConsole(page);
  await signUp(page, unique("owner"));
  await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();
  await expect(page.getByText("No API keys yet")).toBeVisible();
  await screenshots(page, "keys-empty");

  // Create a key: the dialog shows it once, with a copy button and a warning.
  await page.getByRole("button", { name: "Create key" }).first().click();
  const createDialog = page.getByRole("dialog", { name: "Create an API key" });
  await createDialog.getByLabel("Name").fill("Trading bot");
  await createDialog.getByRole("button", { name: "Create key" }).click();
  const keyDialog = page.getByRole("dialog", { name: /Your new key/ });
  await expect(keyDialog.getByText("This key will not be shown again.")).toBeVisible();
  await expect(keyDialog.getByRole("button", { name: "Copy key" })).toBeVisible();
  const key = (await keyDialog.getByTestId("new-api-key").textContent())!.trim();
  expect(key).toMatch(/^svc-live-[0-9a-f]{64}$/);
  await screenshots(page, "key-dialog");
  await keyDialog.getByLabel("I have copied the key and stored it safely.").check();
  await keyDialog.getByRole("button", { name: "Done" }).click();
  await expect(keyDialog).toBeHidden();

  // The page never shows the key again; the row shows its hint.
  const row = page.getByRole("row", { name: /Trading bot/ });
  await expect(row).toContainText(key.slice(0, 12));
  expect(await page.content()).not.toContain(key);
  await page.reload();
  expect(await page.content()).not.toContain(key);
  await screenshots(page, "keys");

  // On a phone the key is a card whose actions are on screen, not scrolled away.
  await page.setViewportSize({ width: 375, height: 800 });
  const card = page.getByRole("listitem", { name: "Trading bot" });
  await expect(card).toContainText(key.slice(0, 12));
  for (const action of ["Settings of Trading bot", "Roll Trading bot", "Disable Trading bot", "Delete Trading bot"]) {
    await expect(card.getByRole("button", { name: action })).toBeInViewport();
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const action of ["Settings of Trading bot", "Roll Trading bot", "Disable Trading bot", "Delete Trading bot"]) {
    await expect(row.getByRole("button", { name: action })).toBeInViewport();
  }

  // No credits yet: 402. Credits added by the operator CLI: 200.
  expect((await call(request, key)).status).toBe(402);
  const orgId = await currentOrgId(page);
  cli("credits:add", "--org", orgId, "--dollars", "5", "--reason", "e2e");
  const first = await call(request, key);
  expect(first.status).toBe(200);
  expect(first.cost).toMatch(/^\$0\.0+\d+$/);

  await page.goto("/keys");
  await row.getByRole("button", { name: "Disable Trading bot" }).click();
  await page.getByRole("dialog", { name: /Disable/ }).getByRole("button", { name: "Disable key" }).click();
  await expect(row.getByText("Disabled")).toBeVisible();
  expect(await call(request, key)).toMatchObject({ status: 401, code: "api_key_disabled" });

  await row.getByRole("button", { name: "Enable Trading bot" }).click();
  await expect(row.getByText("Active")).toBeVisible();
  expect((await call(request, key)).status).toBe(200);

  // Restrict it to another endpoint: the rating endpoint is now refused, offerings allowed.
  await row.getByRole("button", { name: "Settings of Trading bot" }).click();
  const restrict = page.getByRole("dialog", { name: /Settings of/ });
  await restrict.getByLabel("Offerings").check();
  await restrict.getByRole("button", { name: "Save settings" }).click();
  await expect(row.getByText("offerings")).toBeVisible();
  expect(await call(request, key)).toMatchObject({ status: 403, code: "endpoint_not_allowed" });
  expect((await call(request, key, "/v1/offerings?ticker=ZOFR")).status).toBe(200);

  await row.getByRole("button", { name: "Delete Trading bot" }).click();
  const confirm = page.getByRole("dialog", { name: /Delete/ });
  await expect(confirm.getByText("This cannot be undone")).toBeVisible();
  await confirm.getByRole("button", { name: "Delete key" }).click();
  await expect(row).toBeHidden();
  expect(await call(request, key)).toMatchObject({ status: 401, code: "invalid_api_key" });

  // The usage page shows those calls: 3 charged (2 ratings, 1 offerings) and the refusals, not charged.
  await page.goto("/usage");
  const perEndpoint = page.getByRole("region", { name: "Endpoint", exact: true });
  // dilution-rating: 5 requests (402, 200, 401, 200, 403), 3 of them refused; offerings: 1, charged.
  await expect(perEndpoint.getByRole("row", { name: /^dilution-rating 5 3 / })).toBeVisible();
  await expect(perEndpoint.getByRole("row", { name: /^offerings 1 0 / })).toBeVisible();
  const charged = costs.reduce((sum, cost) => sum + dollarsToNanos(cost), 0n);
  // Shown by the one money rule, the exact figure one hover away.
  await expect(perEndpoint.getByRole("row", { name: /^Total 6 3 / }).getByTitle(nanosText(charged), { exact: true })).toBeVisible();
  await screenshots(page, "usage");
  expect(errors).toEqual([]);
});

test("another customer sees none of the first customer's keys and cannot export their usage", async ({ page, browser }) => {
  await signUp(page, unique("first"));
  await createKey(page, "First's secret key");
  const firstOrg = await currentOrgId(page);

  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signUp(otherPage, unique("second"));
  await expect(otherPage.getByText("No API keys yet")).toBeVisible();
  await expect(otherPage.getByText("First's secret key")).toHaveCount(0);
  const response = await otherPage.request.get(`/usage/export?org=${firstOrg}`);
  expect(response.status()).toBe(404);
  await other.close();
});

test("a member sees the keys but cannot create or change them", async ({ page }) => {
  const errors = watchConsole(page);
  await signUp(page, unique("boss"));
  await createKey(page, "Team key");
  const orgId = await currentOrgId(page);

  const memberEmail = unique("member");
  cli("user:create", "--email", memberEmail, "--password", "member password 1", "--org", orgId, "--role", "member");
  await page.context().clearCookies();
  await signIn(page, memberEmail, "member password 1");
  await page.goto("/keys");
  await expect(page.getByRole("row", { name: /Team key/ })).toBeVisible();
  await expect(page.getByText("Only owners and admins can create or change them.")).toBeVisible();
  await expect(page.getByRole("button", { name: /Create/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /Disable|Delete|Endpoints/ })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("sign-in explains a wrong password and keeps the visitor on the page", async ({ page }) => {
  await page.goto("/keys");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fkeys/);
  await page.getByLabel("Email").fill("nobody@example.com");
  await page.getByLabel("Password").fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "That email and password do not match an account." })).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in/);
});

test("every dashboard page works at 375 px and desktop width, with keyboard focus visible and no console errors", async ({ page }) => {
  const errors = watchConsole(page);
  await signUp(page, unique("tour"));
  for (const [path, heading] of [
    ["/dashboard", /Overview|Welcome/],
    ["/members", "Members"],
    ["/audit", "Audit log"],
    ["/settings", "Settings"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await screenshots(page, path.slice(1));
  }
  // Keyboard: the skip link comes first and shows an outline when focused.
  await page.goto("/keys");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  expect(await skip.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe("none");
  expect(errors).toEqual([]);
});

test("the audit log records the address the server saw, not one the browser claims in forwarding headers", async ({ page }) => {
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": "6.6.6.6", "X-Real-IP": "6.6.6.7" });
  await signUp(page, unique("forged"));
  await page.goto("/audit");
  const signUpRow = page.getByRole("row").filter({ hasText: "Created their account" });
  await expect(signUpRow).toContainText("127.0.0.1");
  await expect(page.getByRole("table")).not.toContainText("6.6.6.");
});

test("sign-in shows each refusal next-auth reports in our words, never a server error", async ({ page }) => {
  for (const [code, words] of [
    ["locked", "This account is locked."],
    ["rate_limited", "Too many sign-in attempts"],
    ["<script>alert(1)</script>", "Sign-in failed. Try again."],
  ] as const) {
    const response = await page.goto(`/sign-in?error=${encodeURIComponent(code)}`);
    expect(response?.status(), code).toBe(200);
    await expect(page.getByRole("alert").filter({ hasText: words }), code).toBeVisible();
  }
});
