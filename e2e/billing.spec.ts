import { expect, test } from "@playwright/test";
import { createKey, screenshots, signUp, unique, watchConsole } from "./support";

function dollarsToNanos(text: string): bigint {
  const negative = text.startsWith("-");
  const [whole, fraction = ""] = text.replace(/[-$,]/g, "").split(".");
  const nanos = BigInt(whole!) * 1_000_000_000n + BigInt(fraction.padEnd(9, "0"));
  return negative ? -nanos : nanos;
}

test("buy $20 on the checkout page, see it credited, spend it on API calls, and the balance drops by exactly what the usage page shows", async ({ page, request }) => {
  const errors = watchConsole(page);
  await signUp(page, unique("buyer"));

  await page.goto("/billing");
  await expect(page.getByTestId("balance")).toHaveText("$0.00");
  await screenshots(page, "billing");
  await page.getByText("$20", { exact: true }).click();
  await page.getByRole("button", { name: "Continue to payment" }).click();

  // Stripe's hosted page (the local mock): pay.
  await expect(page.getByRole("button", { name: "Pay $20.00" })).toBeVisible({ timeout: 20_000 });
  await page.getByRole("button", { name: "Pay $20.00" }).click();

  // Back on the success page: pending until the webhook credits, then the balance, without a reload.
  await expect(page).toHaveURL(/\/billing\/success\?session_id=cs_/);
  await expect(page.getByTestId("new-balance")).toHaveText("$20.00", { timeout: 20_000 });

  // A key, and a few calls with it.
  await page.goto("/keys");
  const key = await createKey(page, "Spender");

  let charged = 0n;
  for (const path of ["/v1/dilution-rating?ticker=ZVTX", "/v1/offerings?ticker=ZOFR&limit=50", "/v1/registrations?ticker=ZREG", "/v1/dilution-rating?ticker=QLMN"]) {
    const response = await request.get(path, { headers: { "API-KEY": key } });
    expect(response.status()).toBe(200);
    charged += dollarsToNanos(response.headers()["x-cost-dollars"]!);
  }
  expect(charged).toBeGreaterThan(0n);

  // The usage page's total cost is the sum of the charges…
  await page.goto("/usage");
  const usageTotal = dollarsToNanos((await page.getByTestId("usage-total-cost").getAttribute("title"))!);
  expect(usageTotal).toBe(charged);

  // …and the balance went down by exactly that, to the nano-dollar.
  await page.goto("/billing");
  const balance = dollarsToNanos((await page.getByTestId("balance").getAttribute("title"))!);
  expect(balance).toBe(20_000_000_000n - usageTotal);
  // At a glance the balance is cut, never rounded up to $20.00.
  const shown = (await page.getByTestId("balance").textContent())!;
  expect(shown).toMatch(/^\$19\.99\d\d$/);
  expect(dollarsToNanos(shown)).toBeLessThanOrEqual(balance);
  await expect(page.getByRole("row", { name: /Dilution rating/ })).toContainText("≈ 2.5 GB");
  const history = page.getByTestId("billing-history");
  await expect(history.getByRole("row", { name: /Stripe payment|Credits bought/ })).toContainText("+$20.00");
  await expect(history.getByRole("link", { name: "Receipt" })).toBeVisible();
  await expect(history.getByRole("row", { name: /API usage on/ })).toContainText("4 charged requests");
  expect(errors).toEqual([]);
});

test("canceling on the checkout page changes nothing", async ({ page }) => {
  await signUp(page, unique("canceler"));
  await page.goto("/billing");
  await page.getByText("Other", { exact: true }).click();
  await page.getByLabel("Custom amount in US dollars").fill("5");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "$10" })).toBeVisible();

  await page.getByLabel("Custom amount in US dollars").fill("15");
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/billing\?canceled=1/);
  await expect(page.getByText("Checkout was canceled. Nothing was charged.")).toBeVisible();
  await expect(page.getByTestId("balance")).toHaveText("$0.00");
});

test("a balance under the owner's threshold shows a banner on every dashboard page", async ({ page }) => {
  await signUp(page, unique("thrifty"));
  await page.goto("/billing");
  await page.getByLabel("Alert me below (USD)").fill("25");
  await page.getByRole("button", { name: "Save threshold" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  for (const path of ["/keys", "/usage", "/billing"]) {
    await page.goto(path);
    await expect(page.getByText("Low balance: $0.00")).toBeVisible();
  }
});
