import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { cli, createKey, currentOrgId, screenshots, signUp, unique, watchConsole } from "./support";

const RATING = "/v1/dilution-rating?ticker=ZVTX";

async function call(request: APIRequestContext, key: string) {
  const response = await request.get(RATING, { headers: { "API-KEY": key } });
  const body = await response.json();
  return { status: response.status(), code: body.error?.code as string | undefined, details: body.error?.details as Record<string, unknown> | undefined };
}

function rowOf(page: Page, key: string) {
  return page.locator(`tr[data-key-hint="${key.slice(0, 12)}"]`);
}

async function saveSettings(page: Page, key: string, fields: { dailyCap?: string; allowedIps?: string }, shows?: { dailyCap: string }) {
  await rowOf(page, key).getByRole("button", { name: /^Settings of/ }).click();
  const dialog = page.getByRole("dialog", { name: /Settings of/ });
  // Reopened at once after a save, the dialog shows what was saved, so saving again cannot put an old cap back.
  if (shows) await expect(dialog.getByLabel("Daily cap")).toHaveValue(shows.dailyCap);
  if (fields.dailyCap !== undefined) await dialog.getByLabel("Daily cap").fill(fields.dailyCap);
  if (fields.allowedIps !== undefined) await dialog.getByLabel("Allowed IP addresses").fill(fields.allowedIps);
  await dialog.getByRole("button", { name: "Save settings" }).click();
  await expect(dialog).toBeHidden();
}

test("a customer caps a key's daily spend, raises the cap, restricts its addresses, and rolls it with a grace period", async ({ page, request }) => {
  const errors = watchConsole(page);
  await signUp(page, unique("controls"));
  const key = await createKey(page, "Capped bot");
  cli("credits:add", "--org", await currentOrgId(page), "--dollars", "5", "--reason", "e2e");
  await page.goto("/keys");

  // A $0.0001 daily cap: one call fits, then the cap refuses with its details, at no charge.
  await saveSettings(page, key, { dailyCap: "0.0001" });
  await expect(rowOf(page, key)).toContainText("today of $0.0001");
  const calls = [];
  for (let i = 0; i < 20; i++) {
    const result = await call(request, key);
    calls.push(result);
    if (result.status !== 200) break;
  }
  const refused = calls.at(-1)!;
  expect(refused).toMatchObject({ status: 402, code: "spend_limit_reached" });
  expect(refused.details).toMatchObject({ scope: "key", period: "day", limit_dollars: "$0.0001" });
  expect(refused.details!.resets_at).toMatch(/T00:00:00\.000Z$/);
  await page.reload();
  await screenshots(page, "keys-capped");

  // Raising the cap lets the next request through at once.
  await saveSettings(page, key, { dailyCap: "1" });
  expect((await call(request, key)).status).toBe(200);

  // An allow-list that does not hold this machine's address refuses it; clearing it lets it in again.
  await saveSettings(page, key, { allowedIps: "203.0.113.0/24" }, { dailyCap: "1" });
  expect(await call(request, key)).toMatchObject({ status: 403, code: "ip_not_allowed" });
  await saveSettings(page, key, { allowedIps: "" }, { dailyCap: "1" });
  expect((await call(request, key)).status).toBe(200);

  // Roll with a 1 h grace period: the new key is shown once and both work.
  await rowOf(page, key).getByRole("button", { name: "Roll Capped bot" }).click();
  const roll = page.getByRole("dialog", { name: /Roll/ });
  await roll.getByLabel(/1 hour/).check();
  await roll.getByRole("button", { name: "Roll key" }).click();
  const shown = page.getByRole("dialog", { name: /Your new key/ });
  await expect(shown).toContainText("keeps working until");
  const rolled = (await shown.getByTestId("new-api-key").textContent())!.trim();
  await shown.getByLabel("I have copied the key and stored it safely.").check();
  await shown.getByRole("button", { name: "Done" }).click();
  expect(rolled).not.toBe(key);
  expect((await call(request, key)).status).toBe(200);
  expect((await call(request, rolled)).status).toBe(200);
  await expect(rowOf(page, key)).toContainText("Rolled: grace period");
  await expect(rowOf(page, rolled)).toContainText(`Replaces ${key.slice(0, 12)}`);
  await expect(rowOf(page, rolled)).toContainText("today of $1");
  await screenshots(page, "keys-rolled");

  // Ending the grace period (as after every client has the new key): the old key is refused, the new one serves.
  await rowOf(page, key).getByRole("button", { name: /End the grace period/ }).click();
  await page.getByRole("dialog", { name: /End the grace period/ }).getByRole("button", { name: "End grace period" }).click();
  await expect(rowOf(page, key)).toContainText("Replaced");
  expect(await call(request, key)).toMatchObject({ status: 401, code: "api_key_expired" });
  expect((await call(request, rolled)).status).toBe(200);

  // The audit log tells the story.
  await page.goto("/audit");
  await expect(page.getByText(/Rolled key “Capped bot”/)).toBeVisible();
  await expect(page.getByText(/Ended the grace period/)).toBeVisible();
  await expect(page.getByText(/Changed the limits of key “Capped bot”/).first()).toBeVisible();
  expect(errors).toEqual([]);
});

test("an owner sets the organization's spend caps on the billing page", async ({ page, request }) => {
  await signUp(page, unique("orgcap"));
  const key = await createKey(page, "Bot");
  cli("credits:add", "--org", await currentOrgId(page), "--dollars", "5", "--reason", "e2e");
  expect((await call(request, key)).status).toBe(200);
  await page.goto("/billing");
  await page.getByLabel("Daily cap (USD)").fill("0.00001");
  await page.getByRole("button", { name: "Save caps" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  expect(await call(request, key)).toMatchObject({ status: 402, code: "spend_limit_reached", details: { scope: "organization" } });
  await page.getByLabel("Daily cap (USD)").fill("ten dollars");
  await page.getByRole("button", { name: "Save caps" }).click();
  await expect(page.getByText(/Daily cap: enter an amount in dollars/)).toBeVisible();
  await page.getByLabel("Daily cap (USD)").fill("");
  await page.getByRole("button", { name: "Save caps" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  expect((await call(request, key)).status).toBe(200);
  await screenshots(page, "billing-caps");
});

test("a key's expiry is changed in its settings: set, shown on the row, refused once past, and taken away", async ({ page, request }) => {
  const errors = watchConsole(page);
  await signUp(page, unique("expiry"));
  const key = await createKey(page, "Expiring bot");
  cli("credits:add", "--org", await currentOrgId(page), "--dollars", "1", "--reason", "e2e");
  await page.goto("/keys");
  const open = async () => {
    await rowOf(page, key).getByRole("button", { name: /^Settings of/ }).click();
    return page.getByRole("dialog", { name: /Settings of/ });
  };

  let dialog = await open();
  await expect(dialog.getByLabel("Expires (optional)")).toHaveValue("");
  await dialog.getByLabel("Expires (optional)").fill("2099-06-30");
  await dialog.getByRole("button", { name: "Save settings" }).click();
  await expect(dialog).toBeHidden();
  await expect(rowOf(page, key)).toContainText("Expires in");
  dialog = await open();
  await expect(dialog.getByLabel("Expires (optional)")).toHaveValue("2099-06-30");
  await dialog.getByLabel("Expires (optional)").fill("");
  await dialog.getByRole("button", { name: "Save settings" }).click();
  await expect(dialog).toBeHidden();
  await expect(rowOf(page, key)).not.toContainText("Expires in");
  expect((await call(request, key)).status).toBe(200);
  expect(errors).toEqual([]);
});
