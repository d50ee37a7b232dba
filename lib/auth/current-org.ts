import { cookies } from "next/headers";
import { CURRENT_ORG_COOKIE } from "./server";

/**
 * The organization the dashboard shows, remembered in a cookie. It is only a
 * preference: every page checks the membership again (getDashboard).
 */
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
