import { notFound } from "next/navigation";
import { cache } from "react";
import { getAppDatabase } from "@/lib/runtime/database";
import { runAction, type ActionContext, type AfterSuccess } from "../action";
import { getPrincipal } from "../session";
import { NotPlatformAdmin, requirePlatformAdmin, type AdminProof } from "./access";

/**
 * The console's pages and actions. Every page calls `getAdminPage` itself (a
 * layout's check does not cover a page rendered on its own), and every
 * action runs through `runAdminAction`; a refusal is Next's notFound(), the
 * very answer an unknown path gets.
 */
export const getAdminPage = cache(async () => {
  const [principal, { prisma }] = await Promise.all([getPrincipal(), getAppDatabase()]);
  try {
    const admin = await requirePlatformAdmin(prisma, principal);
    return { db: prisma, admin };
  } catch (error) {
    if (error instanceof NotPlatformAdmin) notFound();
    throw error;
  }
});

export type AdminActionContext = ActionContext & { admin: AdminProof };

export function runAdminAction<T>(fn: (ctx: AdminActionContext) => Promise<T>, after: AfterSuccess<T> = {}) {
  return runAction(async (ctx) => {
    let admin: AdminProof;
    try {
      admin = await requirePlatformAdmin(ctx.db, ctx.principal);
    } catch (error) {
      if (error instanceof NotPlatformAdmin) notFound();
      throw error;
    }
    return fn({ ...ctx, admin });
  }, after);
}
