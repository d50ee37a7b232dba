import { expect, test, type Page } from "@playwright/test";
import { cli, createKey, currentOrgId, screenshots, signUp, unique, watchConsole } from "./support";

/** "$14.989886" (a balance's exact title) → nanos. */
function dollarsToNanos(text: string): bigint {
  const negative = text.startsWith("-");
  const [whole, fraction = ""] = text.replace(/[-$,]/g, "").split(".");
  const nanos = BigInt(whole!) * 1_000_000_000n + BigInt(fraction.padEnd(9, "0"));
  return negative ? -nanos : nanos;
}

const exactBalance = async (page: Page) => dollarsToNanos((await page.getByTestId("balance").getAttribute("title"))!);
const autoRecharge = (page: Page) => page.locator("#auto-recharge");

/** Saves one of the mock's test cards through Stripe Checkout in setup mode, from the billing page. */
async function saveCard(page: Page, card: "4242 4242 4242 4242" | "4000 0000 0000 0341") {
  await autoRecharge(page).getByRole("button", { name: /Save a card|Replace card/ }).click();
  await expect(page.getByRole("heading", { name: "Save a card" })).toBeVisible({ timeout: 20_000 });
  await page.getByRole("button", { name: `Save card ${card}` }).click();
  await expect(page).toHaveURL(/\/billing\?card=saved/);
  await expect(page.getByTestId("saved-card")).toHaveText(`Visa •••• ${card.slice(-4)}`, { timeout: 20_000 });
}

async function turnOn(page: Page, settings: { below: string; add: string; perDay: string }) {
  const card = autoRecharge(page);
  await card.getByLabel("When the balance falls below (USD)").fill(settings.below);
  await card.getByLabel("Add this amount (USD)").fill(settings.add);
  await card.getByLabel("At most, per UTC day").selectOption(settings.perDay);
  await card.getByRole("button", { name: "Turn on auto-recharge" }).click();
}

test("an owner saves the test card, turns auto-recharge on, and spending below the threshold tops the balance up once", async ({ page, request }) => {
  const errors = watchConsole(page);
  await signUp(page, unique("recharger"));
  const orgId = await currentOrgId(page);
  // Just above the threshold the test sets: nothing is due until the API is used.
  cli("credits:add", "--org", orgId, "--dollars", "4.990001", "--reason", "e2e: just above the auto-recharge threshold");

  await page.goto("/billing");
  const card = autoRecharge(page);
  await expect(card.getByRole("heading", { name: "Auto-recharge" })).toBeVisible();
  await expect(page.getByTestId("auto-recharge-state")).toHaveText("Off");
  await expect(page.getByTestId("saved-card")).toHaveText("No card saved");

  // Without a card it cannot be turned on, and says why.
  await turnOn(page, { below: "4.99", add: "10", perDay: "2" });
  await expect(card.getByRole("alert")).toHaveText("Save a card first: auto-recharge charges the saved card, and none is saved yet.");

  // A bad amount is explained at its field.
  await saveCard(page, "4242 4242 4242 4242");
  await turnOn(page, { below: "4.99", add: "5", perDay: "2" });
  await expect(card.getByText("The smallest top-up is $10.00.")).toBeVisible();

  await turnOn(page, { below: "4.99", add: "10", perDay: "2" });
  await expect(card.getByText("Auto-recharge is on.")).toBeVisible();
  await expect(page.getByTestId("auto-recharge-state")).toHaveText("On");
  await expect(card.getByRole("button", { name: "Save changes" })).toBeVisible();

  // Just above the threshold: nothing happens.
  await page.goto("/keys");
  const key = await createKey(page, "Spender");
  await page.waitForTimeout(2_500); // the sweep runs every second here
  await page.goto("/billing");
  expect(await exactBalance(page)).toBe(4_990_001_000n);
  await expect(page.getByTestId("auto-recharge-today")).toHaveText("Today (UTC): 0 recharges of at most 2.");

  // One paid request takes it below $4.99.
  const response = await request.get("/v1/dilution-rating?ticker=ZVTX", { headers: { "API-KEY": key } });
  expect(response.status()).toBe(200);
  const spent = dollarsToNanos(response.headers()["x-cost-dollars"]!);
  const afterSpend = 4_990_001_000n - spent;
  expect(afterSpend).toBeLessThan(4_990_000_000n);

  // The sweep charges the card; the webhook credits $10, once.
  const expected = afterSpend + 10_000_000_000n;
  await expect
    .poll(
      async () => {
        await page.reload();
        return exactBalance(page);
      },
      { timeout: 30_000, intervals: [1_000] },
    )
    .toBe(expected);
  await page.waitForTimeout(3_000); // a few more sweeps: the balance is above the threshold, nothing more is charged
  await page.reload();
  expect(await exactBalance(page)).toBe(expected);
  await expect(page.getByTestId("auto-recharge-today")).toHaveText("Today (UTC): 1 recharge of at most 2.");
  const attempts = page.getByTestId("auto-recharge-attempts");
  await expect(attempts.getByRole("row")).toHaveCount(2); // the header and one recharge
  await expect(attempts.getByRole("row").nth(1)).toContainText("$10.00");
  await expect(attempts.getByRole("row").nth(1)).toContainText("Credited");
  await expect(attempts.getByRole("link", { name: "Receipt" })).toBeVisible();
  const history = page.getByTestId("billing-history");
  await expect(history.getByRole("row", { name: /Auto-recharge \$10\.00/ })).toContainText("+$10.00");
  await expect(history.getByRole("row", { name: /Auto-recharge \$10\.00/ }).getByRole("link", { name: "Receipt" })).toBeVisible();

  await page.locator("#auto-recharge").scrollIntoViewIfNeeded();
  await screenshots(page, "auto-recharge");

  // Removing the card asks first; cancelling keeps it.
  await card.getByRole("button", { name: "Remove card" }).click();
  const dialog = page.getByRole("dialog", { name: "Remove the saved card?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("saved-card")).toHaveText("Visa •••• 4242");
  await card.getByRole("button", { name: "Remove card" }).click();
  await dialog.getByRole("button", { name: "Remove card" }).click();
  await expect(page.getByTestId("saved-card")).toHaveText("No card saved");
  await expect(page.getByTestId("auto-recharge-state")).toHaveText("Off");
  expect(errors).toEqual([]);
});

test("a declined card turns auto-recharge off, and the billing page says so", async ({ page }) => {
  const errors = watchConsole(page);
  await signUp(page, unique("declined"));
  const orgId = await currentOrgId(page);
  await page.goto("/billing");
  await saveCard(page, "4000 0000 0000 0341");
  cli("credits:add", "--org", orgId, "--dollars", "1", "--reason", "e2e: below the auto-recharge threshold");
  await turnOn(page, { below: "5", add: "20", perDay: "1" });
  // Already below: the next sweep (within a second) charges the card, and it is declined.
  await expect(autoRecharge(page).getByText("Auto-recharge is on.")).toBeVisible();

  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByTestId("auto-recharge-state").textContent();
      },
      { timeout: 30_000, intervals: [1_000] },
    )
    .toBe("Off");
  const card = autoRecharge(page);
  await expect(card.getByText(/^Auto-recharge was turned off: your card was declined on .+ UTC\.$/)).toBeVisible();
  await expect(card.getByText("Stripe said: “Your card was declined.”", { exact: false })).toBeVisible();
  await expect(page.getByTestId("auto-recharge-attempts").getByRole("row").nth(1)).toContainText("Failed");
  expect(await exactBalance(page)).toBe(1_000_000_000n);

  await page.locator("#auto-recharge").scrollIntoViewIfNeeded();
  await screenshots(page, "auto-recharge-declined");
  expect(errors).toEqual([]);
});
