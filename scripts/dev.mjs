#!/usr/bin/env node
// `npm run dev`: the app's server (scripts/server.mjs) in development mode on
// PORT (default 3000). Without STRIPE_SECRET_KEY
// (and without a STRIPE_MOCK_URL of your own) it first starts the local Stripe
// mock with a fresh webhook secret and points the app at it, so buying credits
// works on a fresh clone. Without SMTP_URL it starts the local mail sink
// (SMTP on MAIL_SINK_SMTP_PORT, default 2525; a development inbox on
// MAIL_SINK_HTTP_PORT, default 2526, or free ports when those are taken) and
// points the app at it, so invitations and password reset links arrive
// somewhere a developer can read, and their links are printed in the log.
// Signals go to the server; its exit code is ours.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { constants } from "node:os";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);

/** `-p 4000`, `--port 4000` or `--port=4000` given to `npm run dev --`, which the server prefers to PORT. */
function portArgument() {
  for (const [i, arg] of args.entries()) {
    if (arg === "-p" || arg === "--port") return args[i + 1];
    if (arg.startsWith("--port=")) return arg.slice("--port=".length);
  }
  return undefined;
}

// The mock must deliver its webhooks to the port the server really listens on.
const env = { ...process.env, PORT: portArgument() || process.env.PORT || "3000" };
const serverScript = fileURLToPath(new URL("./server.mjs", import.meta.url));

async function startMock() {
  const { tsImport } = await import("tsx/esm/api");
  const { startStripeMock } = await tsImport("../tools/stripe-mock/server.ts", import.meta.url);
  const webhookSecret = `whsec_${randomBytes(32).toString("hex")}`;
  const webhookUrl = `http://127.0.0.1:${env.PORT}/api/stripe/webhook`;
  const mock = await startStripeMock({
    port: Number(env.STRIPE_MOCK_PORT || 12111),
    fallbackToFreePort: true,
    webhookSecret,
    webhookUrl,
    publicUrl: env.STRIPE_MOCK_PUBLIC_URL || undefined,
    // Receipt and checkout links in the app's database outlive a restart.
    stateFile: fileURLToPath(new URL("../.data/stripe-mock.json", import.meta.url)),
    log: (line) => console.log(line),
  });
  env.STRIPE_MOCK_URL = mock.url;
  env.STRIPE_WEBHOOK_SECRET = webhookSecret;
  console.log(`[dev] no STRIPE_SECRET_KEY: payments go to the Stripe mock at ${mock.url} (events → ${webhookUrl})`);
  return mock;
}

const useMock = !env.STRIPE_SECRET_KEY?.trim() && !env.STRIPE_MOCK_URL?.trim();
let mock;
try {
  mock = useMock ? await startMock() : undefined;
} catch (error) {
  console.error(`[dev] could not start the Stripe mock: ${error.message}`);
  process.exit(1);
}

async function startMailSinkForDev() {
  const { tsImport } = await import("tsx/esm/api");
  const { startMailSink } = await tsImport("../tools/mail-sink/server.ts", import.meta.url);
  const log = (line) => console.log(line);
  const smtpPort = Number(env.MAIL_SINK_SMTP_PORT || 2525);
  const httpPort = Number(env.MAIL_SINK_HTTP_PORT || 2526);
  const sink = await startMailSink({ smtpPort, httpPort, log }).catch((error) => {
    if (error.code !== "EADDRINUSE") throw error;
    return startMailSink({ smtpPort: 0, httpPort: 0, log });
  });
  env.SMTP_URL = `smtp://127.0.0.1:${sink.smtpPort}`;
  env.EMAIL_FROM ||= "dev@localhost";
  console.log(`[dev] no SMTP_URL: email goes to the local mail sink; read it at ${sink.httpUrl}/ (links are printed here too)`);
  return sink;
}

let mailSink;
try {
  mailSink = env.SMTP_URL?.trim() ? undefined : await startMailSinkForDev();
} catch (error) {
  console.error(`[dev] could not start the mail sink: ${error.message}`);
  await mock?.close();
  process.exit(1);
}

// Once the database is open, the server says how to reach the platform console: how to make the
// first administrator only while there is none (instrumentation.ts, lib/platform/admin/dev-hint.ts).
env.DEV_CONSOLE_HINT = "1";
const child = spawn(process.execPath, [serverScript, "--dev", ...args], { stdio: "inherit", env });
child.on("error", async (error) => {
  console.error(`[dev] could not start the server: ${error.message}`);
  await mock?.close();
  await mailSink?.close();
  process.exit(1);
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("exit", async (code, signal) => {
  await mock?.close();
  await mailSink?.close();
  process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
});
