import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ESLint, type Linter } from "eslint";
import { afterAll, describe, expect, it } from "vitest";

/**
 * local/no-cycle (eslint-rules/no-cycle.mjs) run through ESLint's Node API on
 * small projects written to a temporary folder: a cycle of folders with no
 * cycle of files, a cycle held together by a type-only import, and the same
 * shapes without the closing import, which must pass.
 */
const root = path.resolve(import.meta.dirname, "..");
const configFile: string = "../eslint.config.mjs";
const projectConfig = (await import(configFile)).default as Linter.Config[];
const pluginFile: string = "../eslint-rules/no-cycle.mjs";
const local = (await import(pluginFile)).default;
/** The TypeScript parser the project's lint uses (eslint-config-next brings it). */
const parser = projectConfig
  .map((entry) => entry.languageOptions?.parser as (Linter.Parser & { meta?: { name?: string } }) | undefined)
  .find((p) => p?.meta?.name === "typescript-eslint/parser");

const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** Writes the files into a fresh folder and lints them all with local/no-cycle alone; the messages by file. */
async function lint(files: Record<string, string>, allow: string[][] = []) {
  const dir = mkdtempSync(path.join(tmpdir(), "lint-cycles-"));
  folders.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ["**/*.ts"],
        languageOptions: { parser },
        plugins: { local },
        rules: { "local/no-cycle": ["error", { root: dir, folders: ["lib"], allow }] },
      },
    ],
  });
  const results = await eslint.lintFiles(Object.keys(files));
  return Object.fromEntries(
    results.filter((r) => r.messages.length).map((r) => [path.relative(dir, r.filePath), r.messages.map((m) => `${m.line}: ${m.message}`)]),
  );
}

const BILLING_NOTIFY = {
  "lib/billing/ledger.ts": 'import { emit } from "@/lib/notify/events";\nexport const charge = () => emit();\n',
  "lib/billing/spend.ts": "export const dayStart = (d: Date) => d;\n",
  "lib/notify/events.ts": "export const emit = () => 1;\n",
  "lib/notify/alerts.ts": 'import { dayStart } from "@/lib/billing/spend";\nexport const check = () => dayStart(new Date());\n',
};

describe("local/no-cycle", () => {
  it("reports folders of lib/ that import each other though no file imports itself", async () => {
    expect(await lint(BILLING_NOTIFY)).toEqual({
      "lib/billing/ledger.ts": [expect.stringMatching(/^1: Import closes a cycle of folders: lib\/billing → lib\/notify → lib\/billing \(lib\/billing\/ledger.ts imports lib\/notify\/events.ts; lib\/notify\/alerts.ts imports lib\/billing\/spend.ts\)/)],
      "lib/notify/alerts.ts": [expect.stringMatching(/^1: Import closes a cycle of folders: lib\/notify → lib\/billing → lib\/notify/)],
    });
  });

  it("passes the folders when one direction is left, or the edge is allowed", async () => {
    expect(await lint({ ...BILLING_NOTIFY, "lib/notify/alerts.ts": "export const check = () => 1;\n" })).toEqual({});
    expect(await lint(BILLING_NOTIFY, [["lib/notify", "lib/billing"]])).toEqual({});
  });

  it("reports a cycle of files held together by a type-only import", async () => {
    const files = {
      "lib/data/edgar/http.ts": 'import type { Source } from "./source";\nexport const open = (): Source => ({ get: () => 1 });\n',
      "lib/data/edgar/source.ts": 'import { open } from "./http";\nexport interface Source { get(): number }\nexport const source = open;\n',
    };
    expect(await lint(files)).toEqual({
      "lib/data/edgar/http.ts": ["1: Import closes a cycle of files: lib/data/edgar/http.ts → lib/data/edgar/source.ts → lib/data/edgar/http.ts. Move what both need into a module both import (types included); see ARCHITECTURE.md."],
      "lib/data/edgar/source.ts": [expect.stringMatching(/^1: Import closes a cycle of files: lib\/data\/edgar\/source.ts → lib\/data\/edgar\/http.ts → lib\/data\/edgar\/source.ts/)],
    });
    // The types in a module of their own, as lib/data/edgar/source/types.ts does it: no cycle.
    expect(
      await lint({
        "lib/data/edgar/source-types.ts": "export interface Source { get(): number }\n",
        "lib/data/edgar/http.ts": 'import type { Source } from "./source-types";\nexport const open = (): Source => ({ get: () => 1 });\n',
        "lib/data/edgar/source.ts": 'import { open } from "./http";\nexport type { Source } from "./source-types";\nexport const source = open;\n',
      }),
    ).toEqual({});
  });

  it("follows re-exports and import() through a longer chain of files, outside lib/ too", async () => {
    const found = await lint({
      "components/a.ts": 'export * from "./b";\n',
      "components/b.ts": 'export { c } from "./c";\n',
      "components/c.ts": 'export const c = () => import("./a");\n',
    });
    expect(found["components/a.ts"]).toEqual([expect.stringContaining("components/a.ts → components/b.ts → components/c.ts → components/a.ts")]);
    expect(Object.keys(found).sort()).toEqual(["components/a.ts", "components/b.ts", "components/c.ts"]);
  });

  it("is on in the project's lint, for lib/ and every other source file", async () => {
    const eslint = new ESLint({ cwd: root });
    for (const file of ["lib/billing/ledger.ts", "lib/data/edgar/http.ts", "app/layout.tsx", "scripts/server.mjs"]) {
      const config = await eslint.calculateConfigForFile(path.join(root, file));
      expect(config.rules["local/no-cycle"]?.[0], file).toBe(2);
    }
  });
});
