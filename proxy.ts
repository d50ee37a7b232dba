import { NextResponse, type NextRequest } from "next/server";
import { SESSION_COOKIE_NAMES } from "@/lib/auth/cookie-names";

/**
 * Signed-out visitors of a dashboard page go to sign-in and come back to it
 * afterwards. This only looks for the cookie; every page still verifies the
 * session and the membership itself.
 */
export function proxy(request: NextRequest) {
  if (SESSION_COOKIE_NAMES.some((name) => request.cookies.has(name))) return NextResponse.next();
  const signIn = new URL("/sign-in", request.url);
  signIn.searchParams.set("callbackUrl", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(signIn);
}

export const config = {
  matcher: ["/dashboard", "/keys", "/usage/:path*", "/billing/:path*", "/members", "/audit", "/settings", "/organizations/:path*"],
};
