#!/usr/bin/env node
// Runs the Playwright suite in Debian's Chromium. Without a Chromium on this
// machine the browser tests cannot run: CI fails, a developer is told how to
// install it.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromium)) {
  const message = `Browser tests need Chromium at ${chromium}: install it with "apt-get install -y chromium" (or set CHROMIUM_PATH).`;
  if (process.env.CI) {
    console.error(message);
    process.exit(1);
  }
  console.warn(`\n[e2e] SKIPPED. ${message}\n`);
  process.exit(0);
}
const result = spawnSync("npx", ["playwright", "test", ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(result.status ?? 1);
