import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { cli, currentOrgId, expectNoHorizontalOverflow, screenshots, signUp, unique, watchConsole } from "./support";

/** A receiver of our own: what it got, verified here with nothing but node:crypto (as a customer would). */
let server: Server;
let port: number;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];

test.beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function verify(secret: string, delivery: { headers: IncomingHttpHeaders; body: string }): boolean {
  const id = String(delivery.headers["webhook-id"]);
  const timestamp = String(delivery.headers["webhook-timestamp"]);
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${delivery.body}`).digest("base64")}`;
  return Math.abs(Date.now() / 1000 - Number(timestamp)) < 300 && String(delivery.headers["webhook-signature"]).split(" ").includes(expected);
}

test("an owner registers a webhook endpoint, sends a test event, and receives a signed low-balance alert", async ({ page }) => {
  const errors = watchConsole(page);
  await signUp(page, unique("alerts"));
  const orgId = await currentOrgId(page);
  cli("credits:add", "--org", orgId, "--dollars", "3", "--reason", "e2e");

  await page.goto("/alerts");
  await expect(page.getByRole("heading", { level: 1, name: "Alerts" })).toBeVisible();
  await screenshots(page, "alerts-empty");

  // An endpoint that is not https and public is refused with the reason (this server allows local ones for the test, not other schemes).
  await page.getByLabel("Endpoint URL").fill("ftp://example.com/hook");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByText("The URL must start with https://.")).toBeVisible();

  const url = `http://127.0.0.1:${port}/hooks/dilution`;
  await page.getByLabel("Endpoint URL").fill(url);
  await page.getByLabel("Description (optional)").fill("e2e receiver");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const dialog = page.getByRole("dialog", { name: "Your endpoint's signing secret" });
  const secret = (await dialog.getByTestId("webhook-secret").textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  await dialog.getByLabel("I have stored the secret.").check();
  await dialog.getByRole("button", { name: "Done" }).click();
  expect(await page.content()).not.toContain(secret);

  // "Send test event": a signed webhook.test arrives.
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect.poll(() => received.filter((r) => JSON.parse(r.body).type === "webhook.test").length, { timeout: 15_000 }).toBe(1);
  expect(verify(secret, received.find((r) => JSON.parse(r.body).type === "webhook.test")!)).toBe(true);

  // The balance ($3) is below a $5 alert as soon as it is set: one signed event, however long we wait.
  await page.getByLabel("Alert when").selectOption("balance_below");
  await page.getByLabel("Threshold (USD)").fill("5");
  await page.getByRole("button", { name: "Add alert" }).click();
  await expect(page.getByText("Balance below $5.00")).toBeVisible();
  await expect.poll(() => received.filter((r) => JSON.parse(r.body).type === "balance.below_threshold").length, { timeout: 15_000 }).toBe(1);
  const alert = received.find((r) => JSON.parse(r.body).type === "balance.below_threshold")!;
  expect(verify(secret, alert)).toBe(true);
  expect(verify(secret, { ...alert, body: alert.body.replace("$3.00", "$300.00") })).toBe(false);
  expect(JSON.parse(alert.body)).toMatchObject({ data: { organization_id: orgId, threshold_dollars: "$5.00", balance_dollars: "$3.00" } });
  await page.waitForTimeout(1500);
  expect(received.filter((r) => JSON.parse(r.body).type === "balance.below_threshold")).toHaveLength(1);

  // The page lists both deliveries and the crossed alert.
  await page.reload();
  await expect(page.getByTestId("deliveries")).toContainText("balance.below_threshold");
  await expect(page.getByTestId("deliveries")).toContainText("webhook.test");
  await expect(page.getByText("Crossed", { exact: true })).toBeVisible();
  await screenshots(page, "alerts");
  expect(errors).toEqual([]);
});

test("the docs explain alerts and webhooks with verification code, readable on a phone", async ({ page }) => {
  await page.goto("/docs#webhooks");
  const section = page.locator("section#webhooks");
  await expect(section.getByRole("heading", { name: "Alerts and webhooks" })).toBeVisible();
  await expect(section.getByText("balance.below_threshold").first()).toBeVisible();
  for (const tab of ["Python", "JavaScript", "curl / shell"]) await expect(section.getByRole("tab", { name: tab })).toBeVisible();
  for (const [width, height] of [[1280, 900], [375, 800]] as const) {
    await page.setViewportSize({ width, height });
    await expectNoHorizontalOverflow(page);
    await section.screenshot({ path: `test-results/screenshots/docs-webhooks-${width === 1280 ? "desktop" : "375"}.png` });
  }
});
