import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { z } from "zod";
import { startStripeMock } from "@/tools/stripe-mock/server";

/**
 * `npm run stripe:mock -- [--port 12111] [--webhook-url URL] [--webhook-secret whsec_…] [--public-url URL]`
 * runs the local Stripe mock on its own (`npm run dev` starts one by itself).
 * Environment fallbacks: STRIPE_MOCK_PORT, STRIPE_MOCK_WEBHOOK_URL,
 * STRIPE_WEBHOOK_SECRET, STRIPE_MOCK_PUBLIC_URL.
 */
const USAGE = `usage: npm run stripe:mock -- [--port N] [--host H] [--webhook-url URL] [--webhook-secret whsec_…] [--public-url URL]`;

const optionsSchema = z.object({
  port: z.coerce.number().int().min(0).max(65_535),
  host: z.string().min(1),
  webhookUrl: z.url({ protocol: /^https?$/ }),
  webhookSecret: z.string().regex(/^whsec_\S{16,}$/, "must be whsec_ followed by at least 16 characters").optional(),
  publicUrl: z.url({ protocol: /^https?$/ }).optional(),
});

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "webhook-url": { type: "string" },
      "webhook-secret": { type: "string" },
      "public-url": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const env = process.env;
  const parsed = optionsSchema.safeParse({
    port: values.port ?? env.STRIPE_MOCK_PORT ?? 12111,
    host: values.host ?? "127.0.0.1",
    webhookUrl: values["webhook-url"] ?? env.STRIPE_MOCK_WEBHOOK_URL ?? `http://127.0.0.1:${env.PORT || 3000}/api/stripe/webhook`,
    webhookSecret: values["webhook-secret"] ?? (env.STRIPE_WEBHOOK_SECRET || undefined),
    publicUrl: values["public-url"] ?? (env.STRIPE_MOCK_PUBLIC_URL || undefined),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    console.error(`${issue.path.join(".")}: ${issue.message}\n${USAGE}`);
    process.exit(2);
  }
  const options = parsed.data;
  const generated = !options.webhookSecret;
  const webhookSecret = options.webhookSecret ?? `whsec_${randomBytes(32).toString("hex")}`;
  const mock = await startStripeMock({ ...options, webhookSecret, log: (line) => console.log(line) });

  console.log(`Stripe mock listening at ${mock.url}; events go to ${options.webhookUrl}`);
  // A fresh local secret is printed so the app can be started with it; a given one is never echoed.
  if (generated) console.log(`Start the app with:\n  STRIPE_MOCK_URL=${mock.url} STRIPE_WEBHOOK_SECRET=${webhookSecret} npx next dev`);
  else console.log(`Start the app with STRIPE_MOCK_URL=${mock.url} and the same STRIPE_WEBHOOK_SECRET.`);

  const stop = () => void mock.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
