import { describe, expect, it } from "vitest";
import { IMPORT_KINDS } from "@/lib/data/import/schema";
import { DATA_KINDS, kindLabel } from "./data-format";

describe("the console's Data page", () => {
  it("counts every kind of record the import takes, in the import format's order, each under its own name", () => {
    // A kind left out here has no count on the page and no line in a load's or an upload's counts.
    expect(DATA_KINDS.map(([kind]) => kind)).toEqual([...IMPORT_KINDS]);
    expect(kindLabel("reverse_splits")).toBe("Reverse splits");
    expect(new Set(DATA_KINDS.map(([, label]) => label)).size).toBe(IMPORT_KINDS.length);
  });
});
