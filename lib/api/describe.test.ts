import { describe, expect, it } from "vitest";
import { ENDPOINT_LIST, ENDPOINTS } from "@/lib/catalog";
import { describeParameters } from "./describe";

describe("an endpoint's date range, as the docs, /endpoints and OpenAPI describe it", () => {
  it("names the date that date_from and date_to compare on every endpoint that has one", () => {
    const ranged = ENDPOINT_LIST.filter((endpoint) => endpoint.supportsDateRange);
    expect(ranged.length).toBeGreaterThan(0);
    for (const endpoint of ranged) {
      const from = describeParameters(endpoint).find((p) => p.name === "date_from");
      expect(from?.description, endpoint.name).toMatch(/^Earliest \w+ date \(YYYY-MM-DD, inclusive\)\.$/);
    }
    expect(describeParameters(ENDPOINTS["reverse-splits"]).find((p) => p.name === "date_to")?.description).toBe("Latest effective date (YYYY-MM-DD, inclusive).");
  });
});
