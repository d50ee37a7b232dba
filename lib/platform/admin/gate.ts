import { principalFromRequest } from "@/lib/auth/session";
import { getAppDatabase } from "@/lib/runtime/database";
import { NotPlatformAdmin, requirePlatformAdmin } from "./access";

/**
 * The console's gate in front of Next (proxy.ts): anyone but a platform
 * administrator is answered as an unknown path is — the same page, the same
 * status — for pages, route handlers and server-action posts alike. Every
 * page, action and route still checks again itself.
 */
export async function mayEnterConsole(request: Request): Promise<boolean> {
  try {
    const { prisma } = await getAppDatabase();
    await requirePlatformAdmin(prisma, await principalFromRequest(prisma, request, null));
    return true;
  } catch (error) {
    if (error instanceof NotPlatformAdmin) return false;
    // The database is away: let the console's own checks answer (a 503 page), not a 404 that would be a lie.
    return true;
  }
}
