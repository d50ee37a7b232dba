import { signUp } from "@/lib/platform/accounts";
import type { PrismaClient } from "@/lib/db";
import { addMembership } from "@/lib/platform/members";
import { createUser } from "@/lib/auth/accounts";
import { encode } from "next-auth/jwt";
import { startSession, type Principal } from "@/lib/auth/session";

export const CAST_PASSWORD = "correct horse battery";

/**
 * The people the authorization tests act as: Ann owns organization A, where
 * Adam is an admin and Mia a member; Bob owns organization B and is an
 * outsider to A. Each acts from their own address, so audit entries show who.
 */
export async function seedCast(prisma: PrismaClient) {
  const a = await signUp(prisma, { email: "ann@a.test", password: CAST_PASSWORD, name: "Ann" }, "10.0.0.1");
  const b = await signUp(prisma, { email: "bob@b.test", password: CAST_PASSWORD }, "10.0.0.2");
  const adam = await createUser(prisma, { email: "adam@a.test", password: CAST_PASSWORD });
  const mia = await createUser(prisma, { email: "mia@a.test", password: CAST_PASSWORD });
  await addMembership(prisma, { userId: adam.id, orgId: a.org.id, role: "ADMIN" });
  const miaMembership = await addMembership(prisma, { userId: mia.id, orgId: a.org.id, role: "MEMBER" });
  const membershipOf = (userId: string, orgId: string) =>
    prisma.membership.findUniqueOrThrow({ where: { userId_orgId: { userId, orgId } }, select: { id: true } });
  return {
    orgA: a.org.id,
    orgB: b.org.id,
    owner: { userId: a.user.id, ip: "10.0.0.1" } satisfies Principal,
    admin: { userId: adam.id, ip: "10.0.0.3" } satisfies Principal,
    member: { userId: mia.id, ip: "10.0.0.4" } satisfies Principal,
    outsider: { userId: b.user.id, ip: "10.0.0.2" } satisfies Principal,
    memberships: {
      owner: (await membershipOf(a.user.id, a.org.id)).id,
      member: miaMembership.id,
      outsider: (await membershipOf(b.user.id, b.org.id)).id,
    },
  };
}

/** A signed-in browser's cookie for the user: a live session row and the JWT naming it, as sign-in makes them. */
export async function sessionCookie(prisma: PrismaClient, userId: string, secret = process.env.NEXTAUTH_SECRET!) {
  const sessionId = await startSession(prisma, userId, { ip: "10.0.0.9", userAgent: "test" });
  const token = await encode({ token: { uid: userId, sid: sessionId }, secret });
  return { sessionId, cookie: `next-auth.session-token=${token}`, getCookie: (name: string) => (name === "next-auth.session-token" ? token : undefined) };
}
