import { expect, test } from "@playwright/test";
import { screenshots, signIn, signUp, unique, watchConsole } from "./support";

const PASSWORD = "a long enough password";

test("signing out ends the session on the server: the old cookie, replayed, reaches nothing", async ({ page, browser }) => {
  await signUp(page, unique("replay"), PASSWORD);
  const cookies = await page.context().cookies();
  expect(cookies.some((c) => c.name.endsWith("next-auth.session-token"))).toBe(true);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in/);

  const replay = await browser.newContext();
  await replay.addCookies(cookies);
  const stolen = await replay.newPage();
  await stolen.goto("/settings");
  await expect(stolen).toHaveURL(/\/sign-in/);
  const exported = await stolen.request.get("/usage/export?org=00000000-0000-0000-0000-000000000000", { maxRedirects: 0 });
  expect(exported.status()).toBe(401);
  await replay.close();
});

test("changing the password keeps this browser signed in and signs every other one out", async ({ page, browser }) => {
  const email = unique("password");
  await signUp(page, email, PASSWORD);
  const errors = watchConsole(page);

  const laptop = await browser.newContext();
  const other = await laptop.newPage();
  await signIn(other, email, PASSWORD);

  await page.goto("/settings");
  const security = page.locator("section", { has: page.getByRole("heading", { name: "Where you are signed in" }) });
  await expect(security.getByRole("listitem")).toHaveCount(2);
  await expect(security.getByText("This browser")).toHaveCount(1);
  await screenshots(page, "settings-security");

  await page.getByLabel("Current password").fill("not my password");
  await page.getByLabel("New password").fill("a brand new password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("That is not your current password.")).toBeVisible();

  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByLabel("New password").fill("a brand new password");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Password changed. 1 other session was signed out.")).toBeVisible();

  await other.goto("/keys");
  await expect(other).toHaveURL(/\/sign-in/);
  await page.goto("/keys");
  await expect(page).toHaveURL(/\/keys/);
  await laptop.close();
  expect(errors).toEqual([]);
});

test("'Sign out of all other sessions' signs the other browser out", async ({ page, browser }) => {
  const email = unique("others");
  await signUp(page, email, PASSWORD);
  const second = await browser.newContext();
  const other = await second.newPage();
  await signIn(other, email, PASSWORD);

  await page.goto("/settings");
  await page.getByRole("button", { name: "Sign out of all other sessions" }).click();
  await expect(page.getByText("Done: 1 other session was signed out.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign out of all other sessions" })).toBeDisabled();
  await other.goto("/dashboard");
  await expect(other).toHaveURL(/\/sign-in/);
  await second.close();
});
