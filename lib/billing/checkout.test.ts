import { describe, expect, it } from "vitest";
import { formatCents } from "@/lib/money";
import { parseTopUpAmount, TOPUP_LIMITS, TOPUP_PRESETS_CENTS } from "./checkout";

describe("top-up amounts typed by a user", () => {
  it.each([
    ["20", 2_000],
    ["20.5", 2_050],
    ["20.50", 2_050],
    ["$20", 2_000],
    ["  $ 75.05 ", 7_505],
    ["$1,000", 100_000],
    ["1,000.99", 100_099],
    ["10", 1_000],
    ["10000", 1_000_000],
    ["$10,000.00", 1_000_000],
    ["0010", 1_000],
  ])("reads %j as %i cents", (input, cents) => {
    expect(parseTopUpAmount(input)).toEqual({ ok: true, cents });
  });

  it.each([
    ["9.99", "The smallest top-up is $10.00."],
    ["0", "The smallest top-up is $10.00."],
    ["10000.01", "The largest top-up is $10,000.00."],
    ["$1,000,000", "The largest top-up is $10,000.00."],
    ["99999999999999999999", "The largest top-up is $10,000.00."],
    ["20.505", "Amounts are in dollars and cents: at most two decimals."],
    ["", "Enter an amount from $10.00 to $10,000.00."],
    ["   ", "Enter an amount from $10.00 to $10,000.00."],
  ])("refuses %j: %s", (input, error) => {
    expect(parseTopUpAmount(input)).toEqual({ ok: false, error });
  });

  it.each(["-20", "20 dollars", "1e3", "12,34", "1,0000", "20.", ".5", "$$20", "0x20", "２０", "20,5"])("refuses %j with the expected format and the limits", (input) => {
    const result = parseTopUpAmount(input);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toBe("Enter an amount in dollars, like 20 or 20.50, from $10.00 to $10,000.00.");
  });

  it("refuses what is not text", () => {
    expect(parseTopUpAmount(20)).toEqual({ ok: false, error: "Enter an amount from $10.00 to $10,000.00." });
    expect(parseTopUpAmount(undefined).ok).toBe(false);
  });

  it("offers presets inside the limits, and formats cents exactly", () => {
    expect(TOPUP_PRESETS_CENTS.map((cents) => formatCents(cents))).toEqual(["$20.00", "$50.00", "$100.00", "$500.00"]);
    for (const preset of TOPUP_PRESETS_CENTS) {
      expect(preset).toBeGreaterThanOrEqual(TOPUP_LIMITS.minCents);
      expect(preset).toBeLessThanOrEqual(TOPUP_LIMITS.maxCents);
      expect(parseTopUpAmount(String(preset / 100))).toEqual({ ok: true, cents: preset });
    }
  });
});
