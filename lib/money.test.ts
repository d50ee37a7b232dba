import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { centsInputValue, chargeForBytes, dollarsInputValue, formatCents, formatDollars, formatExactMoney, formatMoney, parseDollars, centsToNanos, MAX_TYPED_NANOS, readTypedDollars, typedDollarsSchema } from "./money";

describe("chargeForBytes", () => {
  it("charges bytes × price per GB, rounded up to the next nano-dollar", () => {
    // 2,345 bytes at $8/GB = 18,760 nanos exactly
    expect(chargeForBytes(2345, 8_000_000_000n)).toBe(18_760n);
    // 1 byte at $0.50/GB = 0.5 nanos → 1
    expect(chargeForBytes(1, 500_000_000n)).toBe(1n);
    // a whole GB at $25/GB is $25
    expect(chargeForBytes(1_000_000_000, 25_000_000_000n)).toBe(25_000_000_000n);
    expect(chargeForBytes(0, 8_000_000_000n)).toBe(0n);
  });

  it("never loses precision on large values", () => {
    const bytes = 123_456_789_012n;
    expect(chargeForBytes(bytes, 7_000_000_001n)).toBe((bytes * 7_000_000_001n + 999_999_999n) / 1_000_000_000n);
  });

  it("rejects negative inputs", () => {
    expect(() => chargeForBytes(-1, 1n)).toThrow(RangeError);
    expect(() => chargeForBytes(1, -1n)).toThrow(RangeError);
  });
});

describe("dollars", () => {
  it("parses decimal dollar strings exactly", () => {
    expect(parseDollars("25")).toBe(25_000_000_000n);
    expect(parseDollars("$0.000115")).toBe(115_000n);
    expect(parseDollars("12.5")).toBe(12_500_000_000n);
    expect(parseDollars("-3.20")).toBe(-3_200_000_000n);
    expect(parseDollars("0.000000001")).toBe(1n);
  });

  it("rejects what is not an exact amount", () => {
    for (const bad of ["", "abc", "1e3", "1.0000000001", "1,000", "NaN", "--1", "1.", ".5"]) {
      expect(() => parseDollars(bad), bad).toThrow(RangeError);
    }
  });

  it("formats nanos exactly, with at least two decimals", () => {
    expect(formatDollars(115_000n)).toBe("$0.000115");
    expect(formatDollars(12_400_000_000n)).toBe("$12.40");
    expect(formatDollars(0n)).toBe("$0.00");
    expect(formatDollars(1n)).toBe("$0.000000001");
    expect(formatDollars(-3_200_000_000n)).toBe("-$3.20");
    expect(formatDollars(1_234_567_500_000_000n, { grouping: true })).toBe("$1,234,567.50");
  });

  it("rounds only when asked to", () => {
    expect(formatDollars(12_345_678_901n, { maxDecimals: 2 })).toBe("$12.35");
    expect(formatDollars(4_999_999n, { maxDecimals: 2 })).toBe("$0.00");
    expect(formatDollars(5_000_000n, { maxDecimals: 2 })).toBe("$0.01");
  });

  it("round-trips every formatted amount", () => {
    for (const n of [0n, 1n, 999n, 115_000n, 10_000_000_000n, 123_456_789_123n, -42n]) {
      expect(parseDollars(formatDollars(n))).toBe(n);
    }
    expect(centsToNanos(2000)).toBe(20_000_000_000n);
  });
});

describe("formatMoney, the one way money is shown", () => {
  it("is never more than the true amount: cut, not rounded up", () => {
    expect(formatMoney(19_999_954_049n)).toBe("$19.9999"); // not $20.00
    expect(formatMoney(69_999_941_233n)).toBe("$69.9999");
    expect(formatMoney(parseDollars("20"))).toBe("$20.00");
    expect(formatMoney(parseDollars("1.5000001"))).toBe("$1.5000");
    expect(formatMoney(parseDollars("1234.56"))).toBe("$1,234.56");
    expect(formatMoney(parseDollars("1234567.123456789"))).toBe("$1,234,567.1234");
  });

  it("shows a small amount with three significant digits, never as $0.00", () => {
    expect(formatMoney(45_951n)).toBe("$0.0000459");
    expect(formatMoney(100_459n)).toBe("$0.0001");
    expect(formatMoney(8_832n)).toBe("$0.00000883");
    expect(formatMoney(640n)).toBe("$0.00000064");
    expect(formatMoney(5n)).toBe("$0.000000005");
    expect(formatMoney(9_999_999n)).toBe("$0.00999");
    expect(formatMoney(0n)).toBe("$0.00");
  });

  it("is symmetric in sign: a debit reads as the same digits as the spend it is (it read one unit larger)", () => {
    expect(formatMoney(-90_160n)).toBe("-$0.0000901");
    expect(formatMoney(90_160n)).toBe("$0.0000901");
    expect(formatMoney(-8_832n)).toBe("-$0.00000883");
    expect(formatMoney(-19_999_253_008n)).toBe("-$19.9992");
    expect(formatMoney(parseDollars("-20.5"))).toBe("-$20.50");
  });

  it("shows prices and typed amounts exactly, as they were set", () => {
    expect(formatMoney(8_000_000_000n, "price")).toBe("$8.00");
    expect(formatMoney(12_345_678_901n, "price")).toBe("$12.345678901");
    expect(formatMoney(10_000n, "typed")).toBe("$0.00001");
    expect(formatMoney(5_000_000_000n, "typed")).toBe("$5.00");
    expect(formatMoney(19_999_954_049n, "balance")).toBe("$19.9999");
  });

  it("never shows a magnitude larger than the exact figure's, and the exact figure reads back to the same nanos", () => {
    const magnitude = (nanos: bigint) => (nanos < 0n ? -nanos : nanos);
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), (nanos) => {
        const shown = parseDollars(formatMoney(nanos).replaceAll(",", ""));
        expect(magnitude(shown)).toBeLessThanOrEqual(magnitude(nanos));
        expect(formatMoney(-nanos)).toBe(nanos === 0n ? "$0.00" : formatMoney(nanos).startsWith("-") ? formatMoney(nanos).slice(1) : `-${formatMoney(nanos)}`);
        expect(parseDollars(formatExactMoney(nanos).replaceAll(",", ""))).toBe(nanos);
        expect(parseDollars(dollarsInputValue(nanos))).toBe(nanos);
      }),
    );
  });
});

describe("amounts a person types", () => {
  it("are read exactly, with $, thousands commas and a sign where the rule allows one", () => {
    expect(readTypedDollars("25")).toEqual({ ok: true, nanos: 25_000_000_000n });
    expect(readTypedDollars(" $1,000.50 ")).toEqual({ ok: true, nanos: 1_000_500_000_000n });
    expect(readTypedDollars("0.000000001")).toEqual({ ok: true, nanos: 1n });
    expect(readTypedDollars("-3", { min: -MAX_TYPED_NANOS })).toEqual({ ok: true, nanos: -3_000_000_000n });
    expect(readTypedDollars("1000000000")).toEqual({ ok: true, nanos: MAX_TYPED_NANOS });
  });

  it("are bounded, with a message that says the bound, far below what 64-bit nano-dollars hold", () => {
    expect(MAX_TYPED_NANOS * 9n).toBeLessThan(2n ** 63n - 1n);
    for (const [input, message] of [
      ["9223372036", "Amount: at most $1,000,000,000.00."],
      ["9,223,372,036.86", "Amount: at most $1,000,000,000.00."],
      ["1000000000.000000001", "Amount: at most $1,000,000,000.00."],
      ["99999999999999999999999999999", "Amount: at most $1,000,000,000.00."],
      ["0", "Amount: enter an amount above zero."],
      ["-5", "Amount: enter an amount above zero."],
      ["1.0000000001", "Amount: at most 9 decimals."],
      ["five", "Amount: enter an amount in dollars, like 25 or 0.50."],
      ["1e9", "Amount: enter an amount in dollars, like 25 or 0.50."],
      ["1,00", "Amount: enter an amount in dollars, like 25 or 0.50."],
      ["", "Amount: enter an amount in dollars, like 25 or 0.50."],
    ] as const) {
      expect(readTypedDollars(input, { label: "Amount" }), input).toEqual({ ok: false, message });
    }
    // A rule's own bound is lower; none is higher than MAX_TYPED_NANOS.
    expect(readTypedDollars("100000.01", { label: "Threshold", max: parseDollars("100000") })).toEqual({ ok: false, message: "Threshold: at most $100,000.00." });
    expect(readTypedDollars("2000000000", { max: 10n * MAX_TYPED_NANOS })).toEqual({ ok: false, message: "At most $1,000,000,000.00." });
    expect(readTypedDollars("-2000000000", { min: -MAX_TYPED_NANOS })).toEqual({ ok: false, message: "At least -$1,000,000,000.00." });
    expect(readTypedDollars("12.345", { decimals: 2 })).toEqual({ ok: false, message: "Amounts are in dollars and cents: at most two decimals." });
  });

  it("as a zod schema: nanos out, the message as the issue", () => {
    const schema = typedDollarsSchema({ label: "Daily cap", max: parseDollars("1000000") });
    expect(schema.parse("25")).toBe(25_000_000_000n);
    expect(schema.safeParse("1000001").error?.issues[0]?.message).toBe("Daily cap: at most $1,000,000.00.");
    expect(schema.safeParse(7).error?.issues[0]?.message).toBe("Daily cap: enter an amount in dollars.");
  });
});

describe("the parser every typed amount goes through (forms, the console, the CLI)", () => {
  // The rule its callers enforce: an amount is read exactly or refused with a
  // message, never rounded. Cents amounts (top-ups, auto-recharges) allow two
  // decimals; the rest (caps, thresholds, prices, adjustments) nine.
  it("reads plain, decimal, grouped, $-prefixed and padded amounts exactly", () => {
    for (const [input, nanos] of [
      ["12", 12_000_000_000n],
      ["12.5", 12_500_000_000n],
      ["$1,234.56", 1_234_560_000_000n],
      [" 3 ", 3_000_000_000n],
      ["0.001", 1_000_000n],
    ] as const) {
      expect(readTypedDollars(input), input).toEqual({ ok: true, nanos });
    }
  });

  it("refuses a fraction of a cent where amounts are cents, rather than rounding it", () => {
    expect(readTypedDollars("0.001", { decimals: 2 })).toEqual({ ok: false, message: "Amounts are in dollars and cents: at most two decimals." });
    expect(readTypedDollars("12.50", { decimals: 2 })).toEqual({ ok: true, nanos: 12_500_000_000n });
  });

  it("refuses a negative amount, words and nothing, each with a message", () => {
    for (const [input, message] of [
      ["-5", "Enter an amount above zero."],
      ["abc", "Enter an amount in dollars, like 25 or 0.50."],
      ["", "Enter an amount in dollars, like 25 or 0.50."],
      ["   ", "Enter an amount in dollars, like 25 or 0.50."],
      ["12,34", "Enter an amount in dollars, like 25 or 0.50."],
    ] as const) {
      expect(readTypedDollars(input), input).toEqual({ ok: false, message });
    }
    expect(readTypedDollars("-5", { min: 0n })).toEqual({ ok: false, message: "The amount cannot be negative." });
  });
});

describe("cents", () => {
  it("are shown by the one money rule, whole dollars trimmed only when asked", () => {
    expect(formatCents(125_000)).toBe("$1,250.00");
    expect(formatCents(5)).toBe("$0.05");
    expect(formatCents(2_000, { trimZeroCents: true })).toBe("$20");
    expect(formatCents(2_050, { trimZeroCents: true })).toBe("$20.50");
  });

  it("fill a form field as dollars with two decimals, no $ and no grouping, which the parser reads back", () => {
    expect(centsInputValue(2_500)).toBe("25.00");
    expect(centsInputValue(123_450)).toBe("1234.50");
    expect(readTypedDollars(centsInputValue(123_450), { decimals: 2 })).toEqual({ ok: true, nanos: centsToNanos(123_450) });
  });
});
