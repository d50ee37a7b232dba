import { handleStripeWebhook } from "@/lib/billing/webhook";

// The signature is checked on the raw body, with node:crypto.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const POST = (request: Request) => handleStripeWebhook(request);
