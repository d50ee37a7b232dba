import { defineConfig, globalIgnores } from "eslint/config";
import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypeScript from "eslint-config-next/typescript";
import local from "./eslint-rules/no-cycle.mjs";

/**
 * The layers of ARCHITECTURE.md, top first. A module may import from its own
 * layer and the layers below it, never from one above; within a layer,
 * folders may import each other as long as no cycle forms. Every source file
 * belongs to exactly one layer (tests/architecture.test.ts checks that, so a
 * new folder cannot slip past the rule).
 */
export const LAYERS = [
  { name: "entry points", paths: ["app", "scripts", "tools", "instrumentation.ts", "proxy.ts"] },
  { name: "components", paths: ["components"] },
  { name: "features", paths: ["lib/platform", "lib/api", "lib/cli"] },
  { name: "runtime", paths: ["lib/runtime"] },
  {
    name: "domain",
    paths: ["lib/billing", "lib/keys", "lib/data", "lib/ratings", "lib/auth", "lib/audit", "lib/usage", "lib/notify", "lib/email.ts"],
  },
  {
    name: "foundation",
    paths: ["lib/db", "lib/generated", "lib/utils", "lib/catalog.ts", "lib/money.ts", "lib/errors.ts", "lib/rate-limit.ts"],
  },
];

/** Tests may reach across layers to set up what they check. */
const TESTS = ["**/*.test.ts", "**/*.test.tsx", "tests/**", "e2e/**"];

const layerZones = LAYERS.flatMap((layer, index) =>
  index === 0
    ? []
    : [
        {
          target: layer.paths,
          from: LAYERS.slice(0, index).flatMap((above) => above.paths),
          message: `${layer.name} may not import from a higher layer (${LAYERS.slice(0, index)
            .map((above) => above.name)
            .join(", ")}); see ARCHITECTURE.md.`,
        },
      ],
);

// eslint-config-next 16 ships native flat configs (arrays), so no FlatCompat.
export default defineConfig([
  ...nextCoreWebVitals,
  ...nextTypeScript,
  {
    files: ["**/*.ts", "**/*.tsx", "**/*.mjs"],
    ignores: TESTS,
    settings: { "import/ignore": ["node_modules"] },
    plugins: { local },
    rules: {
      "import/no-restricted-paths": ["error", { zones: layerZones }],
      "local/no-cycle": ["error", { root: import.meta.dirname, aliases: { "@/": "." }, folders: ["lib"], ignore: ["lib/generated"] }],
    },
  },
  globalIgnores([
    ".next*/**",
    "out/**",
    "build/**",
    "next-env.d.ts",
    "node_modules/**",
    "lib/generated/**",
    ".data/**",
    "coverage/**",
    "test-results/**",
    "playwright-report/**",
    "e2e/artifacts/**",
  ]),
]);
