import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * local/no-cycle: an import that closes a circle is an error, at two scales.
 *
 * - Files: a file that reaches itself through its imports, type-only imports
 *   included (`import type` has no effect at run time, but a circle of types
 *   is still two modules that cannot be understood, moved or split apart).
 * - Folders: the folders of lib/ (each `lib/<name>` folder, with its
 *   sub-folders, is one node; so is each top-level file `lib/<name>.ts`) must
 *   import each other in one direction. lib/billing → lib/notify →
 *   lib/billing is refused even when no single file is in a circle.
 *   Sub-folders such as lib/data/edgar are part of their folder: a circle
 *   inside one folder is a circle of files, which the first check sees.
 *   `allow` names folder edges [from, to] left out of the folder graph, for
 *   a known cycle while it is being broken (eslint.config.mjs allows none).
 *
 * Every import counts: static, type-only, re-exports (`export … from`) and
 * `import()` with a literal path. Paths are project files reached by a
 * relative path or an alias (`@/` → the project's root); packages are not
 * followed. The files other than the one being linted are read from disk
 * once and read again when they change (checked at most every few seconds),
 * so a whole `eslint .` parses each file once more, without types.
 *
 * It takes the place of import/no-cycle, which skips type-only imports and
 * sees files only (lib/billing ↔ lib/notify was invisible to it), and which
 * took most of `npm run lint`'s time.
 */

const EXTENSIONS = [".ts", ".tsx", ".mts", ".mjs", ".js", ".jsx"];
const RECHECK_MS = 5_000;

/** One graph per root and options, shared by every file ESLint lints in this process. */
const graphs = new Map();

class ImportGraph {
  constructor({ root, aliases, folders, ignore, allow }) {
    this.root = root;
    this.allowed = new Set(allow.map(([from, to]) => `${path.resolve(root, from)}\n${path.resolve(root, to)}`));
    this.aliases = Object.entries(aliases).map(([prefix, target]) => [prefix, path.resolve(root, target)]);
    this.folders = folders.map((folder) => path.resolve(root, folder));
    this.ignore = ignore.map((folder) => path.resolve(root, folder));
    /** file → { imports, mtimeMs, checkedAt } */
    this.files = new Map();
    /** path → whether it is a file, forgotten every few seconds (files come and go) */
    this.exists = new Map();
    this.existsAt = Date.now();
    /** { builtAt, edges: unit → Map(unit → [from file, to file]) } */
    this.units = null;
  }

  inside(file, folder) {
    return file === folder || file.startsWith(folder + path.sep);
  }

  followed(file) {
    return this.inside(file, this.root) && !file.split(path.sep).includes("node_modules") && !this.ignore.some((folder) => this.inside(file, folder));
  }

  isFile(candidate) {
    if (Date.now() - this.existsAt > RECHECK_MS) {
      this.exists.clear();
      this.existsAt = Date.now();
    }
    let known = this.exists.get(candidate);
    if (known === undefined) {
      try {
        known = statSync(candidate).isFile();
      } catch {
        known = false;
      }
      this.exists.set(candidate, known);
    }
    return known;
  }

  /** The project file an import names, or null for a package or anything not a source file. */
  resolve(from, specifier) {
    let base = null;
    if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
    else {
      const alias = this.aliases.find(([prefix]) => specifier.startsWith(prefix));
      if (alias) base = path.join(alias[1], specifier.slice(alias[0].length));
    }
    if (base === null) return null;
    const stem = base.replace(/\.(m?js|jsx)$/, "");
    const candidates = [
      ...(EXTENSIONS.includes(path.extname(base)) ? [base] : []),
      ...EXTENSIONS.map((extension) => stem + extension),
      ...EXTENSIONS.map((extension) => path.join(base, `index${extension}`)),
    ];
    const found = candidates.find((candidate) => this.isFile(candidate));
    return found && this.followed(found) ? found : null;
  }

  /** The project files a file imports, as it is on disk. */
  importsOf(file) {
    const now = Date.now();
    const known = this.files.get(file);
    if (known && now - known.checkedAt < RECHECK_MS) return known.imports;
    let mtimeMs;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      return [];
    }
    if (known && known.mtimeMs === mtimeMs) {
      known.checkedAt = now;
      return known.imports;
    }
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, false);
    const imports = [...new Set(importedFiles.map((entry) => this.resolve(file, entry.fileName)).filter((target) => target !== null))];
    this.files.set(file, { imports, mtimeMs, checkedAt: now });
    return imports;
  }

  /** The shortest chain of imports from `start` to `goal` (both included), or null. */
  chain(start, goal) {
    return shortestPath(start, goal, (file) => this.importsOf(file));
  }

  /** The folder node of a file: lib/<name> or lib/<name>.ts; null outside the folders. */
  unitOf(file) {
    for (const folder of this.folders) {
      if (!this.inside(file, folder) || file === folder) continue;
      const [first] = path.relative(folder, file).split(path.sep);
      return path.join(folder, first);
    }
    return null;
  }

  sources(dir) {
    if (!this.followed(dir)) return [];
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return [];
    }
    return entries.flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return this.sources(full);
      return EXTENSIONS.includes(path.extname(entry.name)) && !/\.test\.[mc]?[jt]sx?$/.test(entry.name) ? [full] : [];
    });
  }

  /** unit → Map(unit → one import that makes the edge), over every source file of the folders; rebuilt every few seconds. */
  unitEdges() {
    if (this.units && Date.now() - this.units.builtAt < RECHECK_MS) return this.units.edges;
    const edges = new Map();
    for (const file of this.folders.flatMap((folder) => this.sources(folder))) {
      const from = this.unitOf(file);
      for (const target of this.importsOf(file)) {
        const to = this.unitOf(target);
        if (from === null || to === null || to === from || this.allowed.has(`${from}\n${to}`)) continue;
        if (!edges.has(from)) edges.set(from, new Map());
        if (!edges.get(from).has(to)) edges.get(from).set(to, [file, target]);
      }
    }
    this.units = { builtAt: Date.now(), edges };
    return edges;
  }

  /** The shortest chain of folder edges from `start` to `goal`, each with the import that makes it, or null. */
  unitChain(start, goal) {
    const edges = this.unitEdges();
    const units = shortestPath(start, goal, (unit) => edges.get(unit)?.keys() ?? []);
    return units && units.slice(1).map((unit, i) => edges.get(units[i]).get(unit));
  }
}

/** The shortest path from `start` to `goal` (both included) along `next`, breadth first; null when there is none. */
function shortestPath(start, goal, next) {
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i];
    if (node === goal) {
      const found = [];
      for (let at = goal; at !== null; at = cameFrom.get(at)) found.unshift(at);
      return found;
    }
    for (const following of next(node)) {
      if (!cameFrom.has(following)) {
        cameFrom.set(following, node);
        queue.push(following);
      }
    }
  }
  return null;
}

function graphFor(options) {
  const key = JSON.stringify(options);
  if (!graphs.has(key)) graphs.set(key, new ImportGraph(options));
  return graphs.get(key);
}

/** @type {import("eslint").Rule.RuleModule} */
const noCycle = {
  meta: {
    type: "problem",
    docs: { description: "Forbid imports, type-only ones included, that close a cycle of files or of the folders of lib/" },
    schema: [
      {
        type: "object",
        properties: {
          root: { type: "string" },
          aliases: { type: "object", additionalProperties: { type: "string" } },
          folders: { type: "array", items: { type: "string" } },
          ignore: { type: "array", items: { type: "string" } },
          allow: { type: "array", items: { type: "array", items: { type: "string" }, minItems: 2, maxItems: 2 } },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      files: "Import closes a cycle of files: {{chain}}. Move what both need into a module both import (types included); see ARCHITECTURE.md.",
      folders: "Import closes a cycle of folders: {{chain}} ({{evidence}}). Folders of one layer import each other in one direction; see ARCHITECTURE.md.",
    },
  },
  create(context) {
    const { root = context.cwd, aliases = { "@/": "." }, folders = ["lib"], ignore = [], allow = [] } = context.options[0] ?? {};
    const graph = graphFor({ root: path.resolve(root), aliases, folders, ignore, allow });
    const file = path.resolve(context.filename);
    if (!graph.followed(file)) return {};
    const name = (target) => path.relative(graph.root, target).split(path.sep).join("/");

    function check(node, specifier) {
      if (typeof specifier !== "string") return;
      const target = graph.resolve(file, specifier);
      if (target === null || target === file) return;
      const back = graph.chain(target, file);
      if (back) {
        context.report({ node, messageId: "files", data: { chain: [file, ...back].map(name).join(" → ") } });
        return;
      }
      const [from, to] = [graph.unitOf(file), graph.unitOf(target)];
      if (from === null || to === null || from === to || graph.allowed.has(`${from}\n${to}`)) return;
      const hops = graph.unitChain(to, from);
      if (!hops) return;
      context.report({
        node,
        messageId: "folders",
        data: {
          chain: [from, to, ...hops.map(([, into]) => graph.unitOf(into))].map(name).join(" → "),
          evidence: [[file, target], ...hops].map(([a, b]) => `${name(a)} imports ${name(b)}`).join("; "),
        },
      });
    }

    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
      TSImportEqualsDeclaration: (node) =>
        node.moduleReference.type === "TSExternalModuleReference" && check(node, node.moduleReference.expression.value),
    };
  },
};

const plugin = { meta: { name: "local" }, rules: { "no-cycle": noCycle } };
export default plugin;
