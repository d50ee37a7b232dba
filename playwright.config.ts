import path from "node:path";
import { defineConfig } from "@playwright/test";

/**
 * Browser tests run against a production build (`next build` + `next start`)
 * on a fresh embedded database, in Debian's Chromium: never a downloaded one.
 */
const port = Number(process.env.E2E_PORT ?? 3100);
const dataDir = path.resolve(port === 3100 ? ".data/e2e" : `.data/e2e-${port}`);
// The tests run the operator CLI against the server's database.
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"],
    },
  },
  webServer: {
    command: `rm -rf ${dataDir} && npm run build && PGLITE_DIR=${dataDir} PORT=${port} npx next start -p ${port}`,
    url: `http://127.0.0.1:${port}/health`,
    timeout: 300_000,
    reuseExistingServer: false,
    env: { DATABASE_URL: "" },
    stdout: "pipe",
    stderr: "pipe",
  },
});
