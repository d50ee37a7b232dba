import { describe, expect, it } from "vitest";
import { splitShares } from "./splits";

describe("a split's ratio as whole shares", () => {
  it("keeps a ratio that is not a whole number exact: 1-for-7.5 is 15 old shares to 2 new", () => {
    expect(splitShares("1-for-10")).toEqual({ oldShares: "10", newShares: "1" });
    expect(splitShares("1-for-7.5")).toEqual({ oldShares: "15", newShares: "2" });
    expect(splitShares("2-for-5")).toEqual({ oldShares: "5", newShares: "2" });
    expect(splitShares("1-for-1")).toBeNull();
    expect(splitShares("3-for-1")).toBeNull();
    expect(splitShares("one-for-ten")).toBeNull();
  });
});
