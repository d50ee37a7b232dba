import { expect, test } from "@playwright/test";
import { parseCsv } from "../lib/data/import/csv";
import { formatDollars, formatMoney, parseDollars } from "../lib/money";
import { adminBrowser, cli, createKey, currentOrgId, signUp, unique, watchConsole } from "./support";

/** The column `name` of the CSV's rows where `where` holds. */
function csvColumn(csv: string, name: string, where: (row: Record<string, string>) => boolean): string[] {
  const [header, ...rows] = parseCsv(csv).map((record) => record.fields);
  return rows
    .map((fields) => Object.fromEntries(fields.map((value, i) => [header![i], value])))
    .filter(where)
    .map((row) => row[name]!);
}

// Issue #32: the same charge read "-$0.0000902" in Billing's history and "$0.0000901" as "Spent today" (a debit was cut
// towards minus infinity), and the console showed "19,999,955,576 n$" beside its own form.
test("one charge reads the same on Usage, Billing and the console, and the CSVs' exact figure is what it rounds from", async ({ page, browser, request }) => {
  const errors = watchConsole(page);
  await signUp(page, unique("money"));
  const orgId = await currentOrgId(page);
  await page.goto("/keys");
  const key = await createKey(page, "One charge");
  cli("credits:add", "--org", orgId, "--dollars", "1", "--reason", "money e2e");

  // One request per endpoint until a charge has more than three significant figures (the rule then cuts it).
  let charge: { endpoint: string; cost: bigint } | null = null;
  let spent = 0n;
  for (const endpoint of ["dilution-rating", "offerings", "registrations", "dilution-data", "float-outstanding", "nasdaq-compliance", "reverse-splits"]) {
    const answer = await request.get(`/v1/${endpoint}?ticker=ZVTX`, { headers: { "API-KEY": key } });
    expect(answer.status()).toBe(200);
    const exact = answer.headers()["x-cost-dollars"]!;
    spent += parseDollars(exact);
    if (formatMoney(parseDollars(exact)) !== exact && formatMoney(spent) !== formatDollars(spent)) {
      charge = { endpoint, cost: parseDollars(exact) };
      break;
    }
  }
  expect(charge, "a charge the rule cuts").not.toBeNull();
  const { endpoint, cost } = charge!;
  const shown = formatMoney(cost);

  await page.goto("/usage");
  const usageCells = page.locator(`[data-nanos="${cost}"]`);
  await expect(usageCells.first()).toHaveText(shown);
  for (const text of await usageCells.allInnerTexts()) expect(text).toBe(shown);

  // Billing's history has one line for the day's usage: the same digits as "Spent today" (it read one unit larger).
  await page.goto("/billing");
  const spentShown = formatMoney(spent);
  await expect(page.locator(`[data-nanos="${-spent}"]`)).toHaveText(`-${spentShown}`);
  await expect(page.getByText(`Spent today (UTC): ${spentShown}`)).toBeVisible();
  await expect(page.locator(`[data-nanos="${-spent}"]`)).toHaveAttribute("title", `-${formatDollars(spent)}`);

  // The exports keep the exact figure, which the pages' text is cut from.
  const usageCsv = await (await page.request.get(`/usage/export?org=${orgId}`)).text();
  const [csvCost] = csvColumn(usageCsv, "cost_dollars", (row) => row.endpoint === endpoint);
  expect(parseDollars(csvCost!)).toBe(cost);
  const billingCsv = await (await page.request.get(`/billing/export?org=${orgId}`)).text();
  const debits = csvColumn(billingCsv, "amount_dollars", (row) => row.type === "usage").map(parseDollars);
  expect(debits).toEqual([-spent]);

  const admin = await adminBrowser(browser);
  await admin.goto(`/admin/organizations/${orgId}`);
  await expect(admin.locator(`[data-nanos="${-cost}"]`).first()).toHaveText(`-${shown}`);
  await expect(admin.locator(`[data-nanos="${cost}"]`).first()).toHaveText(shown);
  await expect(admin.getByText(/n\$/)).toHaveCount(0);
  await admin.context().close();
  expect(errors).toEqual([]);
});
