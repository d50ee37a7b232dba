import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { clientIp } from "@/lib/utils/client-ip";
import { authOptions } from "./options";
import { authRequestIp } from "./session";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

/** next-auth's route handler, run with the client's address at hand for the sign-in audit and limits. */
export async function handleAuthRequest(request: NextRequest, context: RouteContext): Promise<Response> {
  const handler = NextAuth(authOptions());
  return authRequestIp.run(clientIp(request.headers), () => handler(request, context));
}
