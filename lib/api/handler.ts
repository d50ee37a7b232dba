import { ENDPOINTS, isEndpointName } from "@/lib/catalog";
import { getApiContext, type ApiContext } from "./context";
import { handleDataRequest } from "./data";
import { ApiError, logFailure, toApiError } from "./errors";
import { buildOpenApiDocument } from "./openapi";
import { estimate, estimateRateLimitError, health, listEndpoints } from "./public";
import { errorResponse, jsonResponse, newRequestId } from "./response";
import { addressBucket, clientIp } from "@/lib/utils/client-ip";

/**
 * The API as a function of a web Request: route handlers, tests and any other
 * HTTP mount call this. It never throws and never leaks a stack trace.
 */
type ContextSource = ApiContext | (() => Promise<ApiContext>);

type Route =
  | { kind: "public"; name: "health" | "endpoints" | "estimate" | "openapi" }
  | { kind: "data"; name: keyof typeof ENDPOINTS };

const PUBLIC_ROUTES: Record<string, Route> = {
  "/health": { kind: "public", name: "health" },
  "/endpoints": { kind: "public", name: "endpoints" },
  "/estimate": { kind: "public", name: "estimate" },
  "/openapi.json": { kind: "public", name: "openapi" },
};

function route(pathname: string): Route | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  if (PUBLIC_ROUTES[path]) return PUBLIC_ROUTES[path];
  const match = /^\/v1\/([^/]+)$/.exec(path);
  return match && isEndpointName(match[1]!) ? { kind: "data", name: match[1] } : undefined;
}

export async function handleApiRequest(request: Request, source: ContextSource = getApiContext): Promise<Response> {
  const requestId = newRequestId();
  try {
    const url = new URL(request.url);
    const target = route(url.pathname);
    if (!target) {
      throw new ApiError("not_found", `No endpoint at ${url.pathname.slice(0, 200)}. GET /endpoints lists them.`, {
        path: url.pathname.slice(0, 200),
      });
    }
    // HEAD is GET without a body, except on metered endpoints, where it would
    // either charge for data not sent or hand out free metadata.
    const allow = target.kind === "data" ? "GET, OPTIONS" : "GET, HEAD, OPTIONS";
    if (request.method === "OPTIONS") {
      return new Response(null, { status: 204, headers: { Allow: allow, "X-Request-ID": requestId, "X-API-Version": "v1" } });
    }
    const isHead = request.method === "HEAD" && target.kind === "public";
    if (request.method !== "GET" && !isHead) {
      throw new ApiError("method_not_allowed", `${request.method.slice(0, 20)} is not allowed here; use GET.`, { allowed: ["GET"] }, { Allow: allow });
    }
    if (target.kind === "public" && target.name === "openapi") {
      return jsonResponse(buildOpenApiDocument(url.origin), { requestId, cache: "public, max-age=300", omitBody: isHead });
    }
    const ctx = typeof source === "function" ? await source() : source;
    if (target.kind === "data") return await handleDataRequest(request, ENDPOINTS[target.name], ctx, requestId);
    switch (target.name) {
      case "health":
        return jsonResponse(await health(ctx), { requestId, omitBody: isHead });
      case "endpoints":
        return jsonResponse(await listEndpoints(ctx), { requestId, cache: "public, max-age=60", omitBody: isHead });
    }
    const decision = await ctx.rateLimiter.hit(`estimate:${addressBucket(clientIp(request.headers))}`, ctx.estimateLimitPerMinute, ctx.now());
    if (!decision.allowed) throw estimateRateLimitError(decision.limit, decision.retryAfterSeconds);
    return jsonResponse(await estimate(request, ctx), { requestId, omitBody: isHead });
  } catch (thrown) {
    const error = toApiError(thrown);
    logFailure(error, thrown, `[api] ${requestId} ${request.method} ${request.url}:`);
    return errorResponse(error, requestId);
  }
}
