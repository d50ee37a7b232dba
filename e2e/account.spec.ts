import { expect, test } from "@playwright/test";
import { createKey, signUp, unique } from "./support";

test("the only owner sees why they cannot leave, before trying", async ({ page }) => {
  await signUp(page, unique("sole"));
  await page.goto("/members");
  await expect(page.getByRole("button", { name: "Leave organization" })).toBeDisabled();
  await expect(page.getByText(/You are the only owner of .*Make another member an owner first/)).toBeVisible();
});

test("the success banner and the key's row change together", async ({ page }) => {
  await signUp(page, unique("banner"));
  await page.goto("/keys");
  await createKey(page, "Together");
  await page.setViewportSize({ width: 1280, height: 900 });
  const row = page.getByRole("row", { name: /Together/ });
  await row.getByRole("button", { name: "Disable Together" }).click();
  await page.getByRole("dialog", { name: /Disable/ }).getByRole("button", { name: "Disable key" }).click();
  await page.getByText("“Together” is disabled.").waitFor();
  // At the moment the banner shows, the row already says so: no waiting allowed here.
  expect(await row.textContent()).toContain("Disabled");
  await row.getByRole("button", { name: "Enable Together" }).click();
  await page.getByText("“Together” is active again.").waitFor();
  expect(await row.textContent()).toContain("Active");
});
