import { unstable_rethrow } from "next/navigation";
import { ZodError } from "zod";
import type { PrismaClient } from "@/lib/db";
import { principalFromRequest, type Principal } from "@/lib/auth/session";
import { DomainError, isServiceUnavailable } from "@/lib/errors";
import { getAppDatabase } from "@/lib/runtime/database";
import { clientIp } from "@/lib/utils/client-ip";
import { AccessDenied } from "./access";

/**
 * A dashboard route handler (CSV exports, polling): the session from the
 * request's cookie, the domain call, and refusals as plain-text answers with
 * the right status. Nothing unexpected leaks beyond "internal error".
 */
export type DatabaseSource = () => Promise<{ prisma: PrismaClient }>;

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
    return await fn({ db: prisma, principal, url: new URL(request.url) });
  } catch (error) {
    unstable_rethrow(error); // notFound(): the console's routes answer a non-admin as an unknown path
    if (error instanceof AccessDenied) return text(error.code === "signed_out" ? 401 : error.code === "forbidden" ? 403 : 404, error.message);
    if (error instanceof ZodError) return text(400, error.issues[0]?.message ?? "Invalid request.");
    if (error instanceof DomainError) return text(400, error.message);
    if (isServiceUnavailable(error)) return new Response("The service is briefly unavailable. Try again in a few seconds.", { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Retry-After": "5" } });
    console.error("[route] failed:", error instanceof Error ? error.message : error);
    return text(500, "Something went wrong on our side. Try again.");
  }
}
