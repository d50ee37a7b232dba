import { defineConfig, globalIgnores } from "eslint/config";
import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypeScript from "eslint-config-next/typescript";

// eslint-config-next 16 ships native flat configs (arrays), so no FlatCompat.
export default defineConfig([
  ...nextCoreWebVitals,
  ...nextTypeScript,
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
