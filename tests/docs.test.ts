import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The README is the front door and docs/ the reference behind it. What a
 * reader copies from them must work: every `npm run <script>` (and `npm test`,
 * `npm start`) names a script of package.json, every relative link leads to a
 * file and, with `#anchor`, to a heading there, and every document in docs/
 * can be reached from the README by following links.
 */
const root = path.resolve(import.meta.dirname, "..");
const scripts = Object.keys((JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts);

const docsDir = path.join(root, "docs");
const DOCUMENTS = [
  "README.md",
  "ARCHITECTURE.md",
  ...readdirSync(docsDir)
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

/** The scripts a text tells the reader to run: `npm run [-s] X` (with or without `-- …` after it), `npm test`, `npm start`. */
function npmScriptsNamed(text: string): string[] {
  const named = new Set<string>();
  for (const match of text.matchAll(/\bnpm run((?:\s+--?[a-z][a-z-]*)*)\s+([A-Za-z0-9:_.-]+)/g)) named.add(match[2]!);
  for (const match of text.matchAll(/\bnpm (test|start)\b/g)) named.add(match[1]!);
  return [...named];
}

/** The text outside fenced code blocks (headings and links inside them are code, not markdown). */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, "");
}

/** GitHub's anchors for a document's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of prose(text).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const words = match[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
    const slug = words
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The relative links of a document: `[text](target)` outside code, web and mail addresses left out. */
function relativeLinks(text: string): string[] {
  const links: string[] = [];
  for (const match of prose(text).replace(/`[^`\n]*`/g, "").matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = match[1]!;
    if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push(target);
  }
  return links;
}

/** Where a link in `from` leads: the file (relative to the root) and the anchor, if any. */
function resolveLink(from: string, link: string): { file: string; anchor: string | null } {
  const [target, anchor] = link.split("#", 2) as [string, string | undefined];
  const file = target === "" ? from : path.posix.normalize(path.posix.join(path.posix.dirname(from), decodeURIComponent(target)));
  return { file, anchor: anchor === undefined ? null : decodeURIComponent(anchor) };
}

describe("the checks themselves", () => {
  it("find the scripts a text names, in every form the documents use", () => {
    const text = "Run `npm run dev`, then `npm run -s cli -- org:create`, `npm run data:edgar -- sync --all`, `npm test` and `npm start`; `npm install` is no script.";
    expect(npmScriptsNamed(text).sort()).toEqual(["cli", "data:edgar", "dev", "start", "test"]);
    expect(npmScriptsNamed("npm run nope -- --x").filter((name) => !scripts.includes(name))).toEqual(["nope"]);
  });

  it("make GitHub's anchors, and skip headings and links inside code", () => {
    const text = "# The platform console (`/admin`)\n## Uploading data files (**Data**)\n## Through HTTP: `npm run bench -- --http`\n## Notes\n## Notes\n```sh\n# not a heading\n[not](a-link.md)\n```\nSee [x](other.md#notes-1), [web](https://example.com) and `[code](no.md)`.";
    expect([...headingAnchors(text)]).toEqual([
      "the-platform-console-admin",
      "uploading-data-files-data",
      "through-http-npm-run-bench------http",
      "notes",
      "notes-1",
    ]);
    expect(relativeLinks(text)).toEqual(["other.md#notes-1"]);
  });
});

describe("README, ARCHITECTURE.md and docs/", () => {
  it.each(DOCUMENTS)("%s names only npm scripts package.json has", (file) => {
    expect(npmScriptsNamed(read(file)).filter((name) => !scripts.includes(name))).toEqual([]);
  });

  it.each(DOCUMENTS)("%s links only to files and headings that exist", (file) => {
    const broken = relativeLinks(read(file)).filter((link) => {
      const { file: target, anchor } = resolveLink(file, link);
      const full = path.join(root, target);
      if (!existsSync(full)) return true;
      if (anchor === null) return false;
      return !(statSync(full).isFile() && target.endsWith(".md") && headingAnchors(read(target)).has(anchor));
    });
    expect(broken).toEqual([]);
  });

  it("reach every document in docs/ from the README by links", () => {
    const reached = new Set<string>(["README.md"]);
    const queue = ["README.md"];
    while (queue.length) {
      const from = queue.shift()!;
      for (const link of relativeLinks(read(from))) {
        const { file } = resolveLink(from, link);
        if (file.endsWith(".md") && existsSync(path.join(root, file)) && !reached.has(file)) {
          reached.add(file);
          queue.push(file);
        }
      }
    }
    expect(DOCUMENTS.filter((file) => !reached.has(file))).toEqual([]);
  });

  it("ARCHITECTURE.md's folder list names everything at the top of lib/", () => {
    const folders = /^## Folders\n+```\n([\s\S]*?)^```/m.exec(read("ARCHITECTURE.md"))?.[1] ?? "";
    const named = new Set(folders.split(/\s+/).filter((word) => word.startsWith("lib/")));
    const entries = readdirSync(path.join(root, "lib"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)))
      .map((entry) => `lib/${entry.name}${entry.isDirectory() ? "/" : ""}`);
    expect(entries.length).toBeGreaterThan(10);
    expect(entries.filter((entry) => !named.has(entry))).toEqual([]);
  });

  it("keep the README a front door that states the test command CI runs", () => {
    const readme = read("README.md");
    expect(readme.split("\n").length).toBeLessThan(150);
    expect(readme).toMatch(/```sh\nnpm install && npm run dev\nnpm test\n```/);
  });
});
