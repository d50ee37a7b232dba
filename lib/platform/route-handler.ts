import { unstable_rethrow } from "next/navigation";
import type { PrismaClient } from "@/lib/db";
import { principalFromRequest, type Principal } from "@/lib/auth/session";
import { classifyError } from "@/lib/errors";
import { getAppDatabase } from "@/lib/runtime/database";
import { clientIp } from "@/lib/utils/client-ip";
import { AccessDenied } from "./access";
import { requestUrl } from "@/lib/utils/request-url";

/**
 * A dashboard route handler (CSV exports, polling): the session from the
 * request's cookie, the domain call, and refusals as plain-text answers with
 * the right status. Nothing unexpected leaks beyond "internal error".
 */
export type DatabaseSource = () => Promise<{ prisma: PrismaClient }>;

const ROUTE_WORDS = {
  invalid: "Invalid request.",
  unavailable: "The service is briefly unavailable. Try again in a few seconds.",
  internal: "Something went wrong on our side. Try again.",
  log: "[route] failed:",
};

export async function handleDashboardRoute(
  request: Request,
  fn: (ctx: { db: PrismaClient; principal: Principal | null; url: URL }) => Promise<Response>,
  database: DatabaseSource = getAppDatabase,
): Promise<Response> {
  const text = (status: number, message: string) =>
    new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  try {
    const { prisma } = await database();
    const principal = await principalFromRequest(prisma, request, clientIp(request.headers));
    return await fn({ db: prisma, principal, url: requestUrl(request) });
  } catch (error) {
    unstable_rethrow(error); // notFound(): the console's routes answer a non-admin as an unknown path
    if (error instanceof AccessDenied) return text(error.code === "signed_out" ? 401 : error.code === "forbidden" ? 403 : 404, error.message);
    const shown = classifyError(error, ROUTE_WORDS);
    return shown.status === 503
      ? new Response(shown.message, { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "5" } })
      : text(shown.status, shown.message);
  }
}
