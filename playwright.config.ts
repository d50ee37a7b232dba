import path from "node:path";
import { defineConfig } from "@playwright/test";

/**
 * Browser tests run against a production build (`next build` + `next start`)
 * on a fresh embedded database, in Debian's Chromium: never a downloaded one.
 *
 * E2E_BASE_URL (with E2E_DATA_DIR, the server's PGLITE_DIR) runs the specs
 * against a server you started yourself, e.g. `npm run dev`.
 */
const port = Number(process.env.E2E_PORT ?? 3100);
const externalServer = process.env.E2E_BASE_URL;
const baseURL = externalServer ?? `http://127.0.0.1:${port}`;
const stripeMockPort = port + 99;
// The local mail sink: the app sends to its SMTP port, the specs read what arrived from its HTTP port.
const mailSinkSmtpPort = port + 98;
const mailSinkHttpPort = port + 97;
if (!externalServer) process.env.E2E_MAIL_SINK_URL = `http://127.0.0.1:${mailSinkHttpPort}`;
// A fixed secret shared by the mock (which signs) and the app (which verifies), for these tests only.
const webhookSecret = "whsec_e2e_only_0123456789abcdef0123456789abcdef";
const dataDir = path.resolve(process.env.E2E_DATA_DIR ?? (port === 3100 ? ".data/e2e" : `.data/e2e-${port}`));
// The tests run the operator CLI against the server's database.
process.env.E2E_DATA_DIR = dataDir;
// The server's output, also written here, so a spec can check what a walk of the app logged (e2e/routes.spec.ts).
const serverLog = `${dataDir}-server.log`;
if (!externalServer) process.env.E2E_SERVER_LOG = serverLog;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/artifacts",
  timeout: 90_000,
  expect: { timeout: 10_000 },
  // Spec files run two at a time (each file's tests in order) against the one server: every spec signs up its own
  // users and organizations. CI retries a failed test once, and the report names it flaky.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"],
    },
  },
  webServer: externalServer
    ? undefined
    : [
        {
          command: `npx tsx scripts/stripe-mock.ts --port ${stripeMockPort} --webhook-url ${baseURL}/api/stripe/webhook --webhook-secret ${webhookSecret}`,
          port: stripeMockPort,
          timeout: 60_000,
          reuseExistingServer: false,
          stdout: "pipe",
          stderr: "pipe",
        },
        {
          command: `npx tsx scripts/mail-sink.ts --smtp-port ${mailSinkSmtpPort} --http-port ${mailSinkHttpPort}`,
          url: `http://127.0.0.1:${mailSinkHttpPort}/health`,
          timeout: 60_000,
          reuseExistingServer: false,
          stdout: "pipe",
          stderr: "pipe",
        },
        {
          command: `rm -rf ${dataDir} ${serverLog} && mkdir -p ${path.dirname(dataDir)} && npm run build && node scripts/server.mjs -p ${port} 2>&1 | tee ${serverLog}`,
          url: `${baseURL}/health`,
          timeout: 300_000,
          reuseExistingServer: false,
          env: {
            DATABASE_URL: "",
            PGLITE_DIR: dataDir,
            PORT: String(port),
            NEXTAUTH_URL: baseURL,
            NEXTAUTH_SECRET: "e2e-only-secret-not-for-production-0123456789",
            // Every test signs up and signs in from 127.0.0.1 (the suite passed the 50 sign-ins a window one address may make).
            SIGN_UPS_PER_IP_PER_HOUR: "1000",
            SIGN_INS_PER_IP_PER_WINDOW: "1000",
            STRIPE_SECRET_KEY: "",
            STRIPE_MOCK_URL: `http://127.0.0.1:${stripeMockPort}`,
            STRIPE_WEBHOOK_SECRET: webhookSecret,
            // Invitations, alerts and password reset links go to the mail sink.
            SMTP_URL: `smtp://127.0.0.1:${mailSinkSmtpPort}`,
            EMAIL_FROM: "e2e@dilution.test",
            // The alerts spec's receiver listens on 127.0.0.1 over http: a test-only allowance.
            WEBHOOK_ALLOW_PRIVATE_TARGETS: "1",
            NOTIFY_INTERVAL_MS: "500",
            AUTO_RECHARGE_INTERVAL_MS: "1000",
          },
          stdout: "pipe",
          stderr: "pipe",
        },
      ],
});
