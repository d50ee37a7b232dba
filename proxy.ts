import { NextResponse, type NextRequest } from "next/server";
import { SESSION_COOKIE_NAMES } from "@/lib/auth/cookie-names";
import { mayEnterConsole } from "@/lib/platform/admin/gate";
import { checkServerActionPost } from "@/lib/platform/server-action-guard";
import { CONSOLE_NOT_FOUND_PATH } from "./scripts/console-gate.mjs";

/** The platform console: for anyone but a platform administrator, an unknown path (lib/platform/admin/gate.ts). */
const CONSOLE = /^\/admin(?:\/|$)/;

/** Dashboard pages: a signed-out visitor is sent to sign in and brought back afterwards. */
const DASHBOARD = /^\/(?:dashboard|keys|usage(?:\/.*)?|billing(?:\/.*)?|members|audit|settings|organizations(?:\/.*)?)$/;

/**
 * Three jobs, each for its own requests only (see `config.matcher`):
 * - the console (`/admin…`) answers anyone but a platform administrator as an
 *   unknown path, so its existence does not leak;
 * - a server-action post (Next-Action header) is checked before Next parses
 *   it, so a malformed or cross-origin one gets a 4xx rather than a 500;
 * - a signed-out visitor of a dashboard page goes to sign-in and comes back
 *   to it afterwards. This only looks for the cookie; every page still
 *   verifies the session and the membership itself.
 */
export async function proxy(request: NextRequest) {
  if (request.headers.has("next-action")) {
    const refused = await checkServerActionPost(request);
    if (refused) return refused;
  }
  if (CONSOLE.test(request.nextUrl.pathname) && !(await mayEnterConsole(request))) {
    // A path no route answers, with the request's query (so Next notes no change of query): exactly what an
    // unknown path gets. Our server leaves Next's note of the rewrite out of the answer (scripts/console-gate.mjs).
    const unknown = new URL(CONSOLE_NOT_FOUND_PATH, request.url);
    unknown.search = request.nextUrl.search;
    return NextResponse.rewrite(unknown);
  }
  if (!DASHBOARD.test(request.nextUrl.pathname) || SESSION_COOKIE_NAMES.some((name) => request.cookies.has(name))) return NextResponse.next();
  const signIn = new URL("/sign-in", request.url);
  signIn.searchParams.set("callbackUrl", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(signIn);
}

export const config = {
  matcher: [
    "/dashboard",
    "/keys",
    "/usage/:path*",
    "/billing/:path*",
    "/members",
    "/audit",
    "/settings",
    "/organizations/:path*",
    "/admin",
    "/admin/((?!data/upload$).*)",
    // The upload too, unless it carries the Data page's ticket (checked by our server, scripts/console-gate.mjs): a proxy
    // would copy its body (up to 100 MB) into memory and cut it at 10 MB. The route checks the administrator itself.
    { source: "/admin/data/upload", missing: [{ type: "header", key: "x-upload-ticket" }] },
    { source: "/:path*", has: [{ type: "header", key: "next-action" }] },
  ],
};
