#!/usr/bin/env node
// `npm run dev`: `next dev` on PORT (default 3000). Without STRIPE_SECRET_KEY
// (and without a STRIPE_MOCK_URL of your own) it first starts the local Stripe
// mock with a fresh webhook secret and points the app at it, so buying credits
// works on a fresh clone. Signals go to `next dev`; its exit code is ours.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { constants } from "node:os";

const args = process.argv.slice(2);

/** `-p 4000`, `--port 4000` or `--port=4000` given to `npm run dev --`, which next dev prefers to PORT. */
function portArgument() {
  for (const [i, arg] of args.entries()) {
    if (arg === "-p" || arg === "--port") return args[i + 1];
    if (arg.startsWith("--port=")) return arg.slice("--port=".length);
  }
  return undefined;
}

// The mock must deliver its webhooks to the port next dev really listens on.
const env = { ...process.env, PORT: portArgument() || process.env.PORT || "3000" };
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

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

const child = spawn(process.execPath, [nextBin, "dev", ...args], { stdio: "inherit", env });
child.on("error", async (error) => {
  console.error(`[dev] could not start next dev: ${error.message}`);
  await mock?.close();
  process.exit(1);
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("exit", async (code, signal) => {
  await mock?.close();
  process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
});
