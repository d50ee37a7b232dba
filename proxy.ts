import { NextResponse, type NextRequest } from "next/server";
import { SESSION_COOKIE_NAMES } from "@/lib/auth/cookie-names";
import { checkServerActionPost } from "@/lib/platform/server-action-guard";

/** Dashboard pages: a signed-out visitor is sent to sign in and brought back afterwards. */
const DASHBOARD = /^\/(?:dashboard|keys|usage(?:\/.*)?|billing(?:\/.*)?|members|audit|settings|organizations(?:\/.*)?)$/;

/**
 * Two jobs, each for its own requests only (see `config.matcher`):
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
    { source: "/:path*", has: [{ type: "header", key: "next-action" }] },
  ],
};
