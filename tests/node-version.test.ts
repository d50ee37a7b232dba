import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The Node.js versions the project runs on are Prisma's (its client and CLI
 * are the strictest of the runtime dependencies): package.json's engines says
 * exactly that, README says it in words, and the Node running the tests is
 * one of them. `npm install` still warns that @prisma/streams-local wants
 * Node ≥ 22: it comes only with @prisma/dev, the CLI's `prisma dev` local
 * server, which this project never runs (README, "Node.js").
 */
const root = path.resolve(import.meta.dirname, "..");
const json = (file: string) => JSON.parse(readFileSync(path.join(root, file), "utf8")) as { engines?: { node?: string }; scripts?: Record<string, string> };

/** Whether "major.minor.patch" satisfies a range of "^a.b" / ">=a.b" alternatives joined by "||" (the forms used here). */
function satisfies(version: string, range: string): boolean {
  const [major, minor] = version.replace(/^v/, "").split(".").map(Number) as [number, number];
  return range.split("||").some((part) => {
    const match = /^\s*(\^|>=)(\d+)\.(\d+)\s*$/.exec(part);
    if (!match) throw new Error(`range form not understood: ${part}`);
    const [, op, a, b] = match;
    const atLeast = major > Number(a) || (major === Number(a) && minor >= Number(b));
    return op === ">=" ? atLeast : atLeast && major === Number(a);
  });
}

describe("the Node.js versions", () => {
  const engines = json("package.json").engines?.node;

  it("are Prisma's, stated in package.json's engines", () => {
    expect(engines).toBe(json("node_modules/@prisma/client/package.json").engines?.node);
    expect(engines).toBe(json("node_modules/prisma/package.json").engines?.node);
    expect(engines).toBe("^20.19 || ^22.12 || >=24.0");
  });

  it("include the Node running this test, and the range check means what it says", () => {
    expect(satisfies(process.version, engines!)).toBe(true);
    expect(["20.19.0", "22.12.0", "24.0.0", "25.1.0"].every((v) => satisfies(v, engines!))).toBe(true);
    expect(["20.18.1", "21.7.0", "22.11.0", "18.20.0"].some((v) => satisfies(v, engines!))).toBe(false);
  });

  it("are the ones README states, with why npm's Node 22 warning does not apply", () => {
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    expect(readme).toContain("Node.js 20.19 or later in 20.x, 22.12 or later in 22.x, or 24 and later");
    expect(readme).toContain("@prisma/streams-local");
  });

  it("do not depend on `prisma dev`, the one command that needs Node 22", () => {
    expect(Object.values(json("package.json").scripts ?? {}).filter((script) => /\bprisma dev\b/.test(script))).toEqual([]);
  });
});
