import { decode } from "next-auth/jwt";
import type { DbClient } from "@/lib/db";
import { isUuid } from "@/lib/utils/uuid";
import { SESSION_COOKIE_NAMES } from "./cookie-names";
import { authSecret } from "@/lib/utils/app-secret";

/**
 * Sessions the server can end. The session cookie is next-auth's signed,
 * encrypted JWT; it holds the user id (`uid`) and the id of a row in
 * `sessions` (`sid`). Every request checks that row: signing out, changing
 * the password, "sign out of all other sessions" and a platform lock revoke
 * it, and a cookie replayed afterwards is worth nothing.
 */

/** The signed-in user as the server knows them: an id from a verified, live session, and where they came from. */
export interface Principal {
  userId: string;
  /** The session row the request came with (absent for principals built by tests and tools). */
  sessionId?: string | null;
  ip?: string | null;
}

export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** What the cookie claims, once next-auth has verified and decrypted it; null for anything else. */
export async function sessionClaims(getCookie: (name: string) => string | undefined): Promise<{ userId: string; sessionId: string } | null> {
  for (const name of SESSION_COOKIE_NAMES) {
    const token = getCookie(name);
    if (!token) continue;
    try {
      const payload = await decode({ token, secret: authSecret() });
      if (isUuid(payload?.uid) && isUuid(payload?.sid)) return { userId: payload.uid, sessionId: payload.sid };
    } catch {
      // tampered, expired or signed with another secret: not a session
    }
  }
  return null;
}

/** The principal of a session cookie whose session is still live and whose user is not locked; null otherwise. */
export async function principalFromCookies(
  db: DbClient,
  getCookie: (name: string) => string | undefined,
  ip: string | null,
  now = new Date(),
): Promise<Principal | null> {
  const claims = await sessionClaims(getCookie);
  if (!claims) return null;
  const live = await db.session.count({
    where: { id: claims.sessionId, userId: claims.userId, revokedAt: null, expiresAt: { gt: now }, user: { lockedAt: null, deletedAt: null } },
  });
  return live === 1 ? { userId: claims.userId, sessionId: claims.sessionId, ip } : null;
}

/** A new session for a user who just proved who they are; its id goes into the cookie. */
export async function startSession(db: DbClient, userId: string, from: { ip?: string | null; userAgent?: string | null }, now = new Date()) {
  const session = await db.session.create({
    data: {
      userId,
      ip: from.ip ?? null,
      userAgent: from.userAgent?.slice(0, 300) ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + SESSION_MAX_AGE_SECONDS * 1000),
    },
    select: { id: true },
  });
  return session.id;
}

/** Sign-out: this session ends. */
export async function endSession(db: DbClient, sessionId: string): Promise<void> {
  if (!isUuid(sessionId)) return;
  await db.session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: new Date() } });
}

/** Every live session of the user but `keep` (none kept when it is null); how many ended. */
export async function endSessionsOf(db: DbClient, userId: string, keep: string | null = null): Promise<number> {
  const ended = await db.session.updateMany({
    where: { userId, revokedAt: null, ...(keep ? { id: { not: keep } } : {}) },
    data: { revokedAt: new Date() },
  });
  return ended.count;
}

/** The user's live sessions, newest first, for the security settings. */
export function liveSessions(db: DbClient, userId: string, now = new Date()) {
  return db.session.findMany({
    where: { userId, revokedAt: null, expiresAt: { gt: now } },
    orderBy: { createdAt: "desc" },
    select: { id: true, ip: true, userAgent: true, createdAt: true },
  });
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

/** The principal of a web Request (route handlers): its live session and client address. */
export async function principalFromRequest(db: DbClient, request: Request, ip: string | null): Promise<Principal | null> {
  const cookies = parseCookieHeader(request.headers.get("cookie"));
  return principalFromCookies(db, (name) => cookies.get(name), ip);
}
