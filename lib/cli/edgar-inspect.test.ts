import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runEval, runInspect } from "./edgar-inspect";
import { runFilingCommand } from "./edgar";

const FIXTURES = [path.resolve(process.cwd(), "../shared/fixtures/edgar"), "/work/shared/fixtures/edgar"].find((dir) => existsSync(dir))!;
const IMUNON = path.join(FIXTURES, "Archives/edgar/data/749647/000149315225029712/0001493152-25-029712.txt");
const ALZAMEND = path.join(FIXTURES, "Archives/edgar/data/1677077/000121465926002941/0001214659-26-002941.txt");

describe("data:edgar inspect", () => {
  it("prints one JSON object per filing per line, with REAL-FILINGS.md's names, numbers as numbers and a quote per value", async () => {
    const result = await runInspect([IMUNON, ALZAMEND], { json: true });
    expect(result.exitCode).toBe(0);
    const [imunon, alzamend] = result.stdout.trim().split("\n").map((line) => JSON.parse(line));
    expect(imunon).toMatchObject({
      accession: "0001493152-25-029712",
      form: "424B5",
      offering_type: "registered_direct",
      common_shares_offered: 330000,
      prefunded_warrants_offered: 1609114,
      common_warrants_offered: 1939114,
      warrant_exercise_price: 3.482,
      gross_proceeds: 7000040.63,
      discount_or_fee_percent: 7,
      agent: "Maxim Group LLC",
    });
    expect(imunon.evidence.gross_proceeds).toBe("Offering price $ 3.6100 $ 3.6099 $ 7,000,040.63");
    expect(alzamend).toMatchObject({ offering_type: "atm", atm_max_amount: 3000000, agent: "Ascendiant Capital Markets, LLC", agent_role: "sales_agent" });
  });

  it("names a bad file in one line, exits non-zero, and still inspects the others", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "inspect-"));
    const notFiling = path.join(dir, "notes.txt");
    writeFileSync(notFiling, "just some notes\n");
    const truncated = path.join(dir, "0001493152-25-029712.txt");
    const whole = readFileSync(IMUNON, "utf8");
    writeFileSync(truncated, whole.slice(0, Math.floor(whole.length / 2)));
    const result = await runInspect([notFiling, IMUNON, truncated, path.join(dir, "missing.txt")], { json: true });
    expect(result.exitCode).toBe(1);
    expect(result.stdout.trim().split("\n")).toHaveLength(1);
    const errors = result.stderr.trim().split("\n");
    expect(errors).toEqual([
      `${notFiling}: not an EDGAR submission (no <SEC-HEADER>)`,
      expect.stringMatching(new RegExp(`^${truncated.replace(/[.]/g, "\\.")}: truncated`)),
      `${path.join(dir, "missing.txt")}: no such file`,
    ]);
  });

  it("prints a readable table without --json", async () => {
    const result = await runInspect([ALZAMEND], { json: false });
    expect(result.stdout).toContain("atm_max_amount              3,000,000");
    expect(result.stdout).toContain("having an aggregate offering price of up to $3,000,000 from time to time through ACM");
  });

  it("says which periodic-report values are the filer's inline-XBRL tags, and which a table's column", async () => {
    const riot = path.resolve("fixtures/edgar/Archives/edgar/data/1167419/000155837024001550/riot-20231231x10k.htm");
    const result = await runInspect([riot], { json: false });
    expect(result.stdout).toMatch(/warrants\[0\]\.exercise_price: “[^”]*\$48\.37[^”]*”  \[tag us-gaap:ClassOfWarrantOrRightExercisePriceOfWarrantsOrRights1\]/);
    expect(result.stdout).not.toContain("sources");
    const plymouth = path.resolve("fixtures/edgar/Archives/edgar/data/1639142/000106299321003193/form20f.htm");
    const table = await runInspect([plymouth], { json: false });
    expect(table.stdout).toMatch(/warrants\[\d\]\.shares_outstanding: “April 24, 2022 \$ 0\.20 2,145,000 0\.48 \$ 0\.07”  \[table; the column “Numbers of warrants outstanding”\]/);
  });

  it("fetches an accession through the folder source and refuses unknown options", async () => {
    const fetched = await runFilingCommand(["inspect", "749647:0001493152-25-029712", "--json", "--source", FIXTURES], {});
    expect(fetched.exitCode).toBe(0);
    expect(JSON.parse(fetched.stdout)).toMatchObject({ cik: 749647, company: "Imunon, Inc." });
    const unknown = await runFilingCommand(["inspect", IMUNON, "--jsno"], {});
    expect(unknown).toMatchObject({ exitCode: 2, stderr: expect.stringContaining("Unknown option --jsno") });
  });
});

describe("data:edgar eval", () => {
  it("prints the per-field table", () => {
    const result = runEval([path.join(FIXTURES, "ground-truth"), FIXTURES], { json: false });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^18 filings; \d+ of \d+ stated facts correct/);
    expect(result.stdout).toContain("| field | stated | correct | wrong | missed | invented | accuracy |");
    expect(result.stdout).toMatch(/\| agent \| 8 \|/);
  });

  it("without folders, prints the development and validation sets side by side, per kind and field", () => {
    const result = runEval([], { json: false });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("## Periodic reports: 10-Q, 10-K, 20-F (PERIODIC-FILINGS.md)");
    expect(result.stdout).toContain("| field | development | validation |");
    expect(result.stdout).toMatch(/^development: \d+ filings: \d+ of \d+ stated facts/m);
    expect(result.stdout).toMatch(/^validation: {2}\d+ filings: \d+ of \d+ stated facts/m);
    // the development set's periodic reports, all read right (the validation set's figures are reported, never asserted)
    const { development } = JSON.parse(runEval([], { json: true }).stdout) as { development: { parts: { periodic: { stated: number; correct: number; invented: number } } } };
    expect(development.parts.periodic.correct).toBe(development.parts.periodic.stated);
    expect(development.parts.periodic.invented).toBe(0);
  });

  it("answers usage for missing folders", () => {
    expect(runEval(["/nonexistent", FIXTURES], { json: false })).toMatchObject({ exitCode: 2, stderr: "/nonexistent: not a folder\n" });
  });
});
