import { describe, expect, it } from "vitest";
import { historyRangeSchema } from "./billing";

describe("the billing history's date range", () => {
  it("takes real calendar days and refuses one the month does not have", () => {
    expect(historyRangeSchema.parse({ from: "2024-02-29", to: "2024-03-31" })).toEqual({ from: "2024-02-29", to: "2024-03-31" });
    const refused = historyRangeSchema.safeParse({ from: "2025-02-30" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((issue) => issue.message)).toEqual(["Not a calendar date."]);
    expect(historyRangeSchema.safeParse({ to: "2023-02-29" }).success).toBe(false);
    expect(historyRangeSchema.safeParse({ from: "2025-3-01" }).error?.issues.map((issue) => issue.message)).toContain("Dates are YYYY-MM-DD.");
  });
});
