import { expect, test } from "@playwright/test";
import { createKey, screenshots, signUp, unique, watchConsole } from "./support";

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

/** Every cell of every table on the page lies inside the viewport's width: nothing hides off to the side. */
async function expectTablesInView(page: import("@playwright/test").Page, pagePath: string) {
  const width = page.viewportSize()!.width;
  const cells = page.locator("table td");
  const count = await cells.count();
  expect(count, `${pagePath} has table cells`).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    const box = await cells.nth(i).boundingBox();
    if (!box || box.width === 0) continue; // an empty cell, hidden on phones
    expect(box.x, `${pagePath}: cell ${i} starts in view`).toBeGreaterThanOrEqual(-1);
    expect(box.x + box.width, `${pagePath}: cell ${i} ends in view`).toBeLessThanOrEqual(width + 1);
  }
}

test("at 375 px every table's information and actions are in view, and the navigation is a menu", async ({ page }) => {
  const { cli, currentOrgId, expectNoHorizontalOverflow, screenshots } = await import("./support");
  await signUp(page, unique("phone"));
  const orgId = await currentOrgId(page);
  cli("credits:add", "--org", orgId, "--dollars", "5", "--reason", "phone layout test");
  const { key } = cli<{ key: string }>("key:create", "--org", orgId, "--name", "phone");
  expect((await page.request.get("/v1/dilution-rating?ticker=ZVTX", { headers: { "API-KEY": key } })).status()).toBe(200);
  await page.goto("/members");
  await page.getByRole("button", { name: "Invite someone" }).first().click();
  await page.getByRole("dialog").getByLabel(/Email/).fill("pending@example.com");
  await page.getByRole("dialog").getByRole("button", { name: /Create invitation|Invite/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: /Done|Close/ }).first().click();

  await page.setViewportSize({ width: 375, height: 800 });
  for (const pagePath of ["/members", "/billing", "/usage", "/audit"]) {
    await page.goto(pagePath);
    await expectNoHorizontalOverflow(page);
    await expectTablesInView(page, pagePath);
  }
  await page.goto("/members");
  await expect(page.getByRole("button", { name: /Revoke the invitation of pending@example.com/ })).toBeInViewport();
  // Below 1024 px the sections are a menu that names the current one, not a sideways-scrolling row.
  await expect(page.getByTestId("nav-menu-button")).toContainText("Members");
  for (const name of ["members", "billing", "usage", "audit"]) {
    await page.goto(`/${name}`);
    await screenshots(page, `phone-${name}`);
  }
});

test("a trial organization compares the plans and asks for another one; the request can be withdrawn", async ({ page }) => {
  await signUp(page, unique("plans"));
  await page.goto("/settings");
  const plans = page.getByRole("list", { name: "Plans" });
  await expect(plans.locator(":scope > li")).toHaveCount(3);
  await expect(plans.locator('[aria-current="true"]')).toContainText("Trial");
  await expect(plans).toContainText("1,000 requests per minute");
  await page.getByLabel("Plan you need").selectOption({ label: "Retail" });
  await page.getByLabel("Message (optional)").fill("We trade small caps daily");
  await page.getByRole("button", { name: "Ask for this plan" }).click();
  await expect(page.getByText(/You asked for the Retail plan on .* it is waiting for an answer/)).toBeVisible();
  await page.getByRole("button", { name: "Withdraw request" }).click();
  await expect(page.getByRole("button", { name: "Ask for this plan" })).toBeVisible();
});

test("closing the organization stops its key and forfeits its credit only once ticked; then the account can be deleted", async ({ page, request }) => {
  const { cli, currentOrgId } = await import("./support");
  const email = unique("closer");
  await signUp(page, email);
  const key = await createKey(page, "Soon gone");
  const orgId = await currentOrgId(page);
  cli("credits:add", "--org", orgId, "--dollars", "3", "--reason", "closing test");
  expect((await request.get("/v1/dilution-rating?ticker=ZVTX", { headers: { "API-KEY": key } })).status()).toBe(200);

  await page.goto("/settings");
  await expect(page.getByRole("button", { name: "Delete my account" })).toBeDisabled();
  await expect(page.getByText(/You are the only owner of .* before you delete your account/)).toBeVisible();

  await page.getByRole("button", { name: "Close organization" }).click();
  const dialog = page.getByRole("dialog", { name: /Close .*\?/ });
  const confirm = dialog.getByRole("button", { name: "Close organization" });
  const orgName = (await dialog.getByRole("heading").textContent())!.replace(/^Close /, "").replace(/\?$/, "");
  await dialog.getByLabel(/Type “.*” to confirm/).fill(orgName);
  await expect(confirm).toBeDisabled(); // the credit is not forfeited yet
  await dialog.getByLabel(/Forfeit the remaining \$2\.99/).check();
  await confirm.click();
  await expect(page).toHaveURL(/\/organizations\/new/);
  const refused = await request.get("/v1/dilution-rating?ticker=ZVTX", { headers: { "API-KEY": key } });
  expect(refused.status()).toBe(401);

  // With no organization left, the account can go: erased, signed out, and its password no longer works.
  await page.getByRole("button", { name: "Delete my account" }).click();
  const erase = page.getByRole("dialog", { name: "Delete your account?" });
  await erase.getByLabel(/Type your email/).fill(email);
  await erase.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("a long enough password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "do not match an account" })).toBeVisible();
});

test("an invitation's link leads to a sign-up with the invited address filled in and locked, and joins without a Trial organization of one's own", async ({ page, browser }) => {
  const errors = watchConsole(page);
  await signUp(page, unique("inviter"));
  await page.goto("/members");
  const invitee = unique("invitee");
  await page.getByRole("button", { name: "Invite someone" }).first().click();
  await page.getByRole("dialog").getByLabel(/Email/).fill(invitee);
  await page.getByRole("dialog").getByRole("button", { name: /Create invitation|Invite/ }).click();
  const link = (await page.getByTestId("invitation-link").textContent())!.trim();

  const guest = await (await browser.newContext()).newPage();
  await guest.goto(link);
  await guest.getByRole("link", { name: "Create an account" }).click();
  await expect(guest.getByRole("heading", { name: /^Join / })).toBeVisible();
  const email = guest.getByLabel("Work email");
  await expect(email).toHaveValue(invitee);
  await expect(email).toHaveAttribute("readonly", "");
  await screenshots(guest, "sign-up-invited");
  await guest.getByLabel("Password").fill("a long enough password");
  await guest.getByRole("button", { name: "Create account" }).click();
  await expect(guest.getByRole("heading", { name: /You are a member of / })).toBeVisible({ timeout: 30_000 });
  // One organization, the inviter's: no "invitee's organization" on the Trial plan beside it.
  await guest.goto("/dashboard");
  const options = await guest.getByLabel("Organization").locator("option").allTextContents();
  expect(options.filter((option) => !option.startsWith("New organization"))).toHaveLength(1);
  expect(options[0]).not.toContain("invitee");
  await guest.context().close();
  expect(errors).toEqual([]);
});
