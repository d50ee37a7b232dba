import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Money is shown to a person by one rule (formatMoney in lib/money.ts, or
 * the Money component around it, with the exact figure as its title). A page
 * or component that formats dollars its own way would bring back "$19.9999"
 * on one page and "$19.999954049" on the next, so none may call the raw
 * formatter.
 */
const root = path.resolve(import.meta.dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sources(relative);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

describe("money on pages", () => {
  it("is formatted by the one rule: no page or component calls formatDollars itself", () => {
    const offenders = ["app", "components"]
      .flatMap(sources)
      .filter((file) => /\bformatDollars(Short)?\s*\(/.test(readFileSync(path.join(root, file), "utf8")));
    expect(offenders).toEqual([]);
  });
});
