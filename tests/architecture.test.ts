import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The lint rule (eslint.config.mjs) keeps imports pointing down the layers of
 * ARCHITECTURE.md, but only for files that sit in a layer: these checks make
 * sure every source file does, and in exactly one.
 */
const root = path.resolve(import.meta.dirname, "..");
const configFile: string = "../eslint.config.mjs";
const { LAYERS } = (await import(configFile)) as { LAYERS: { name: string; paths: string[] }[] };
const SOURCE = /\.(ts|tsx|mjs)$/;
const SKIP = new Set(["node_modules", "generated", ".git", ".data", "test-results", "playwright-report"]);

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return SKIP.has(entry.name) || entry.name.startsWith(".next") ? [] : sources(relative);
    return SOURCE.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

const layersOf = (file: string) =>
  LAYERS.filter((layer) => layer.paths.some((p) => file === p || file.startsWith(`${p}/`))).map((layer) => layer.name);

describe("the layers", () => {
  it("hold every source file of app/, components/, lib/, scripts/ and tools/, each in one layer", () => {
    const files = ["app", "components", "lib", "scripts", "tools"].flatMap(sources);
    expect(files.length).toBeGreaterThan(150);
    const misplaced = files.map((file) => ({ file, layers: layersOf(file) })).filter(({ layers }) => layers.length !== 1);
    expect(misplaced).toEqual([]);
  });

  it("name each folder or file once", () => {
    const paths = LAYERS.flatMap((layer) => layer.paths);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
