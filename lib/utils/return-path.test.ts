import { describe, expect, it } from "vitest";
import { safeReturnPath } from "./return-path";

describe("safeReturnPath", () => {
  it("keeps paths on this site, with their query", () => {
    expect(safeReturnPath("/keys")).toBe("/keys");
    expect(safeReturnPath("/usage?from=2026-11-01&key=x")).toBe("/usage?from=2026-11-01&key=x");
    expect(safeReturnPath("/invite/abc_DEF-123")).toBe("/invite/abc_DEF-123");
  });

  it("refuses anything that a browser would take to another origin", () => {
    for (const attempt of ["//evil.example", "/\\evil.example", "/\t/evil.example", "/\n/evil.example", "/\\\\evil.example", "https://evil.example", "javascript:alert(1)", " /keys"]) {
      expect(safeReturnPath(attempt), attempt).toBe("/dashboard");
    }
  });

  it("refuses non-strings, the auth API and the sign-in pages themselves", () => {
    expect(safeReturnPath(undefined)).toBe("/dashboard");
    expect(safeReturnPath(["/keys"])).toBe("/dashboard");
    expect(safeReturnPath("/api/auth/signout")).toBe("/dashboard");
    expect(safeReturnPath("/sign-in?callbackUrl=/keys")).toBe("/dashboard");
  });
});
