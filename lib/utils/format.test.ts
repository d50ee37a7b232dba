import { describe, expect, it } from "vitest";
import { formatBytes, formatCount, roundSignificant } from "./format";

describe("formatCount", () => {
  it("groups thousands, en-US, whatever the machine's locale", () => {
    expect(formatCount(0)).toBe("0");
    expect(formatCount(999)).toBe("999");
    expect(formatCount(1104)).toBe("1,104");
    expect(formatCount(348_000)).toBe("348,000");
    expect(formatCount(12_345_678_901_234_567_890n)).toBe("12,345,678,901,234,567,890");
  });
});

describe("formatBytes", () => {
  it("prints whole bytes below a kilobyte", () => {
    expect(formatBytes(0)).toBe("0 bytes");
    expect(formatBytes(1)).toBe("1 byte");
    expect(formatBytes(79)).toBe("79 bytes");
    expect(formatBytes(999)).toBe("999 bytes");
  });

  it("uses SI units (1 KB = 1,000 bytes, like the per-GB price) with one decimal", () => {
    expect(formatBytes(1000)).toBe("1 KB");
    expect(formatBytes(1104)).toBe("1.1 KB");
    expect(formatBytes(2900)).toBe("2.9 KB");
    expect(formatBytes(2949)).toBe("2.9 KB");
    expect(formatBytes(12_345)).toBe("12.3 KB");
    expect(formatBytes(123_456)).toBe("123 KB");
    expect(formatBytes(1_500_000)).toBe("1.5 MB");
    expect(formatBytes(1_200_000_000)).toBe("1.2 GB");
    expect(formatBytes(3_000_000_000_000)).toBe("3 TB");
  });

  it("moves to the next unit instead of printing 1,000 of one", () => {
    expect(formatBytes(999_499)).toBe("999 KB");
    expect(formatBytes(999_999)).toBe("1 MB");
    expect(formatBytes(999_960_000)).toBe("1 GB");
  });

  it("refuses what is not a byte count", () => {
    expect(() => formatBytes(-1)).toThrow(RangeError);
    expect(() => formatBytes(Number.NaN)).toThrow(RangeError);
  });
});

describe("roundSignificant", () => {
  it("keeps three significant digits by default", () => {
    expect(roundSignificant(348_068)).toBe(348_000);
    expect(roundSignificant(13_942)).toBe(13_900);
    expect(roundSignificant(999)).toBe(999);
    expect(roundSignificant(42)).toBe(42);
    expect(roundSignificant(0)).toBe(0);
    expect(roundSignificant(1_234_567, 2)).toBe(1_200_000);
  });
});
