import { decode } from "next-auth/jwt";
import { isUuid } from "@/lib/utils/uuid";
import { SESSION_COOKIE_NAMES } from "./cookie-names";
import { authSecret } from "./secret";

/** The signed-in user as the server knows them: an id from a verified session, and where they came from. */
export interface Principal {
  userId: string;
  ip?: string | null;
}

/** The user id in a session cookie, after next-auth has verified and decrypted it; null for anything else. */
export async function userIdFromSessionCookie(getCookie: (name: string) => string | undefined): Promise<string | null> {
  for (const name of SESSION_COOKIE_NAMES) {
    const token = getCookie(name);
    if (!token) continue;
    try {
      const payload = await decode({ token, secret: authSecret() });
      const uid = payload?.uid;
      if (isUuid(uid)) return uid;
    } catch {
      // tampered, expired or signed with another secret: not a session
    }
  }
  return null;
}

export function parseCookieHeader(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const index = part.indexOf("=");
    if (index < 1) continue;
    const name = part.slice(0, index).trim();
    const raw = part.slice(index + 1).trim();
    try {
      cookies.set(name, decodeURIComponent(raw));
    } catch {
      cookies.set(name, raw);
    }
  }
  return cookies;
}

/** The principal of a web Request (route handlers): its verified session and client address. */
export async function principalFromRequest(request: Request, ip: string | null): Promise<Principal | null> {
  const cookies = parseCookieHeader(request.headers.get("cookie"));
  const userId = await userIdFromSessionCookie((name) => cookies.get(name));
  return userId ? { userId, ip } : null;
}
