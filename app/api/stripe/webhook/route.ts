import { stripeWebhookRoute } from "@/lib/platform/routes";

// The signature is checked on the raw body, with node:crypto.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";
export const POST = stripeWebhookRoute;
