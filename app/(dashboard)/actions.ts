"use server";

import { cookies } from "next/headers";
import { revalidatePath } from "next/cache";
import { runAction } from "@/lib/auth/action";
import { CURRENT_ORG_COOKIE } from "@/lib/auth/server";
import { requireAccess } from "@/lib/platform/access";

/** Makes `orgId` the organization the dashboard shows, if the user belongs to it. */
export async function switchOrganization(orgId: string) {
  return runAction(async ({ db, principal }) => {
    const { org } = await requireAccess(db, principal, String(orgId), "org:view");
    (await cookies()).set(CURRENT_ORG_COOKIE, org.id, { httpOnly: true, sameSite: "lax", path: "/", secure: process.env.NEXTAUTH_URL?.startsWith("https://") ?? false, maxAge: 365 * 24 * 3600 });
    revalidatePath("/", "layout");
    return { name: org.name };
  });
}
