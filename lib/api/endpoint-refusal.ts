import type { EndpointDefinition } from "@/lib/catalog";
import type { DbClient } from "@/lib/db";
import { ApiError } from "./errors";
import type { KeyAccess } from "./key-cache";

/** "A", "A and B", "A, B and C". */
function listWords(words: string[]): string {
  return words.length < 2 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/**
 * The 403 endpoint_not_allowed for a key that may not call `endpoint`, saying
 * which of the three limits refused it: the organization's plan (and which
 * plans include the endpoint), the platform's restriction of the key, or the
 * customer's own choice of endpoints for the key. Read only when a request is
 * refused, so the plan names cost nothing on the paid path.
 */
export async function endpointNotAllowed(db: DbClient, access: KeyAccess, endpoint: EndpointDefinition, allowed: string[]): Promise<ApiError> {
  const details = { endpoint: endpoint.name, allowed_endpoints: allowed };
  if (!access.plan.allowedEndpoints.includes(endpoint.name)) {
    const plans = await db.plan.findMany({ select: { slug: true, name: true, allowedEndpoints: true }, orderBy: [{ isTrial: "desc" }, { requestsPerMinute: "asc" }] });
    const own = plans.find((plan) => plan.slug === access.plan.slug)?.name ?? access.plan.slug;
    const including = plans.filter((plan) => plan.allowedEndpoints.includes(endpoint.name)).map((plan) => plan.name);
    const others =
      including.length === 0
        ? "No plan includes it at the moment."
        : `The ${listWords(including)} plan${including.length === 1 ? " includes" : "s include"} it: an owner or admin can ask for another plan on the Settings page of the dashboard.`;
    return new ApiError("endpoint_not_allowed", `Your organization's ${own} plan does not include ${endpoint.path}. ${others}`, details);
  }
  if (access.platformEndpoints.length > 0 && !access.platformEndpoints.includes(endpoint.name)) {
    return new ApiError(
      "endpoint_not_allowed",
      `The platform has restricted this key, and ${endpoint.path} is not among its endpoints; the API keys page of the dashboard shows why. Contact support to change it.`,
      details,
    );
  }
  return new ApiError("endpoint_not_allowed", `This key is set not to use ${endpoint.path}. Change the key's endpoints on the API keys page of the dashboard.`, details);
}
