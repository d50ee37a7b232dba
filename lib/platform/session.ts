import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { principalFromCookies, type Principal } from "@/lib/auth/session";
import type { DbClient } from "@/lib/db";
import { getAppDatabase } from "@/lib/runtime/database";
import { clientIp } from "@/lib/utils/client-ip";
import { can, type Permission } from "./access";
import { listMemberships } from "./organizations";

/**
 * Session helpers for server components and server actions (they read Next's
 * request cookies), and the current organization: which one the dashboard
 * shows, remembered in a cookie. The cookie is only a preference; every page
 * checks the membership again.
 */

const CURRENT_ORG_COOKIE = "dd_org";

/** The signed-in user of this request: a verified cookie whose session is live (checked once per request). */
export const getPrincipal = cache(async (): Promise<Principal | null> => {
  const [cookieStore, headerStore, { prisma }] = await Promise.all([cookies(), headers(), getAppDatabase()]);
  return principalFromCookies(prisma, (name) => cookieStore.get(name)?.value, clientIp(headerStore));
});

/** The client address of the request a server action is answering. */
export async function requestIp(): Promise<string> {
  return clientIp(await headers());
}

/** The signed-in user, or null (e.g. for the public pages' header). */
export const getSignedInUser = cache(async () => {
  const principal = await getPrincipal();
  if (!principal) return null;
  const { prisma } = await getAppDatabase();
  return prisma.user.findUnique({ where: { id: principal.userId }, select: { id: true, email: true, name: true, isPlatformAdmin: true } });
});

/**
 * What every dashboard page starts from: the verified user, their
 * organizations, and the current one (chosen with the switcher, else the
 * first). Signed-out visitors go to sign-in (proxy.ts adds the way back).
 */
export const getDashboard = cache(async () => {
  const principal = await getPrincipal();
  const user = await getSignedInUser();
  if (!principal || !user) redirect("/sign-in");
  const { prisma } = await getAppDatabase();
  const memberships = await listMemberships(prisma, user.id);
  const wanted = (await cookies()).get(CURRENT_ORG_COOKIE)?.value;
  const current = memberships.find((m) => m.organization.id === wanted) ?? memberships[0] ?? null;
  return { db: prisma, principal, user, memberships, current };
});

/**
 * A page of the current organization. Without an organization the user is
 * sent to create one; a page their role may not see says so (`allowed`).
 */
export async function getOrgPage(permission: Permission = "org:view") {
  const dashboard = await getDashboard();
  if (!dashboard.current) redirect("/organizations/new");
  const { organization, role } = dashboard.current;
  const org = await dashboard.db.organization.findUniqueOrThrow({ where: { id: organization.id }, include: { plan: true } });
  return { ...dashboard, org, role, allowed: can(role, permission) };
}

export async function setCurrentOrganization(orgId: string): Promise<void> {
  (await cookies()).set(CURRENT_ORG_COOKIE, orgId, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: process.env.NEXTAUTH_URL?.startsWith("https://") ?? false,
    maxAge: 365 * 24 * 3600,
  });
}

/** After leaving an organization: the dashboard falls back to the user's first one. */
export async function forgetCurrentOrganization(): Promise<void> {
  (await cookies()).delete(CURRENT_ORG_COOKIE);
}

/** Where a user goes after leaving or closing an organization: their next one, or the page to create one. */
export async function landingAfterLeaving(db: DbClient, principal: Principal | null): Promise<string> {
  const remaining = principal ? await db.membership.count({ where: { userId: principal.userId } }) : 0;
  return remaining > 0 ? "/dashboard" : "/organizations/new";
}
