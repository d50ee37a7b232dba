import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { signUp } from "@/lib/platform/accounts";
import { ensureDefaultPlans } from "@/lib/billing/plans";
import type { Database, PrismaClient } from "@/lib/db";
import { addMembership, INVITATION_LIMITS } from "@/lib/platform/members";
import { openTestDatabase } from "@/tests/support/database";
import { CAST_PASSWORD as PASSWORD, seedCast } from "@/tests/support/platform";
import type { Principal } from "@/lib/auth/session";
import { listAuditLog } from "./audit";
import type { InvitationEmail } from "@/lib/email";
import {
  acceptInvitation,
  changeMemberRole,
  createInvitation,
  findInvitation,
  inviteMember,
  isMemberOf,
  leaveOrganization,
  listMembers,
  removeMember,
  revokeInvitation,
} from "./members";

let db: Database;
let prisma: PrismaClient;
let orgA: string;
let orgB: string;
let owner: Principal; // ann, owner of A
let admin: Principal; // adam, admin of A
let member: Principal; // mia, member of A
let outsider: Principal; // bob, owner of B
let memberMembershipId: string; // mia's membership of A
let ownerMembershipId: string; // ann's membership of A
let membershipOfB: string; // bob's membership of B
let invitationOfB: string; // an open invitation of B

let counter = 0;

/** A new user with their own organization (as sign-up makes), and how they act. */
async function newUser(prefix: string, ip = "198.51.100.7") {
  const { user, org } = await signUp(prisma, { email: `${prefix}-${++counter}@example.test`, password: PASSWORD }, ip);
  return { user, org, principal: { userId: user.id, ip } satisfies Principal };
}

beforeAll(async () => {
  db = await openTestDatabase();
  prisma = db.prisma;
  await ensureDefaultPlans(prisma);
  const cast = await seedCast(prisma);
  ({ orgA, orgB, owner, admin, member, outsider } = cast);
  ({ owner: ownerMembershipId, member: memberMembershipId, outsider: membershipOfB } = cast.memberships);
  invitationOfB = (await createInvitation(prisma, outsider, orgB, { email: "someone@b.test", role: "MEMBER" })).invitation.id;
}, 120_000);
afterAll(() => db?.close());

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** Everything a refused call must leave as it was. */
const snapshot = async () => ({
  memberships: await prisma.membership.findMany({ orderBy: { id: "asc" } }),
  invitations: await prisma.invitation.findMany({ orderBy: { id: "asc" } }),
  audit: await prisma.auditLog.count(),
});

async function expectRefused(run: () => Promise<unknown>, code: string) {
  const before = await snapshot();
  await expect(run()).rejects.toMatchObject({ code });
  expect(await snapshot()).toEqual(before);
}

const latestAudit = (orgId: string, action: string) =>
  prisma.auditLog.findFirstOrThrow({ where: { orgId, action }, orderBy: { id: "desc" } });

describe("invite → accept", () => {
  it("joins the organization with the invited role; the token is stored only as its SHA-256", async () => {
    const cara = await newUser("cara", "203.0.113.9");
    const { token, invitation, orgName } = await createInvitation(prisma, owner, orgA, { email: `  ${cara.user.email.toUpperCase()} `, role: "ADMIN" });
    expect(orgName).toBe("Ann's organization");
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(invitation).toMatchObject({ email: cara.user.email, role: "ADMIN", acceptedAt: null, revokedAt: null, createdById: owner.userId });
    expect(invitation.expiresAt.getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);

    const row = await prisma.invitation.findUniqueOrThrow({ where: { id: invitation.id } });
    expect(row.tokenHash).toBe(sha256(token));
    const stored = JSON.stringify({ invitations: await prisma.invitation.findMany(), audit: await prisma.auditLog.findMany() }, (_, v) => (typeof v === "bigint" ? v.toString() : v));
    expect(stored).not.toContain(token);

    const found = await findInvitation(prisma, token);
    expect(found).toMatchObject({ state: "open", role: "ADMIN", organization: { id: orgA, name: "Ann's organization" }, createdBy: { email: "ann@a.test", name: "Ann" } });

    const accepted = await acceptInvitation(prisma, cara.principal, token);
    expect(accepted).toEqual({ orgId: orgA, orgName: "Ann's organization", role: "ADMIN" });
    const membership = await prisma.membership.findUniqueOrThrow({ where: { userId_orgId: { userId: cara.user.id, orgId: orgA } } });
    expect(membership.role).toBe("ADMIN");
    expect((await prisma.invitation.findUniqueOrThrow({ where: { id: invitation.id } })).acceptedAt).toBeInstanceOf(Date);
    // Cara keeps her own organization: she now belongs to two.
    expect(await prisma.membership.count({ where: { userId: cara.user.id } })).toBe(2);

    const joined = await latestAudit(orgA, "member.joined");
    expect(joined).toMatchObject({ actorUserId: cara.user.id, ip: "203.0.113.9", targetId: membership.id });
    expect(joined.details).toMatchObject({ email: cara.user.email, role: "ADMIN", invitationId: invitation.id });
  });

  it("a link without an email can be accepted by anyone signed in, once", async () => {
    const dan = await newUser("dan");
    const eve = await newUser("eve");
    const { token } = await createInvitation(prisma, admin, orgA, { email: "", role: "MEMBER" });
    expect((await findInvitation(prisma, token))?.email).toBeNull();
    await acceptInvitation(prisma, dan.principal, token);
    expect(await prisma.membership.findUnique({ where: { userId_orgId: { userId: dan.user.id, orgId: orgA } } })).toMatchObject({ role: "MEMBER" });
    expect((await findInvitation(prisma, token))?.state).toBe("accepted");
    await expectRefused(() => acceptInvitation(prisma, eve.principal, token), "invalid_invitation");
  });

  it("two people racing for one link: exactly one joins", async () => {
    const [fay, gus] = [await newUser("fay"), await newUser("gus")];
    const { token } = await createInvitation(prisma, owner, orgA, { role: "MEMBER" });
    const results = await Promise.allSettled([acceptInvitation(prisma, fay.principal, token), acceptInvitation(prisma, gus.principal, token)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await prisma.membership.count({ where: { orgId: orgA, userId: { in: [fay.user.id, gus.user.id] } } })).toBe(1);
  });
});

describe("signing up through an invitation's link", () => {
  it("joins the inviting organization with the invited role and the invited address, and makes no organization of its own", async () => {
    const { token } = await createInvitation(prisma, owner, orgA, { email: "newcomer@invited.test", role: "ADMIN" });
    const { user, org, joined } = await signUp(prisma, { email: "Newcomer@Invited.test", password: PASSWORD, invite: token }, "198.51.100.9");
    expect(joined).toBe(true);
    expect(org.id).toBe(orgA);
    // Before, the invitee also got "newcomer's organization" on the Trial plan, and the invitation stayed open.
    expect(await prisma.membership.findMany({ where: { userId: user.id }, select: { orgId: true, role: true } })).toEqual([{ orgId: orgA, role: "ADMIN" }]);
    expect((await findInvitation(prisma, token))?.state).toBe("accepted");
  });

  it("refuses another address than the invited one, and a link no longer open, creating nothing", async () => {
    const { token } = await createInvitation(prisma, owner, orgA, { email: "meant@invited.test", role: "MEMBER" });
    const before = await prisma.user.count();
    await expect(signUp(prisma, { email: "other@invited.test", password: PASSWORD, invite: token })).rejects.toMatchObject({ code: "wrong_account" });
    const revoked = await createInvitation(prisma, owner, orgA, { email: "", role: "MEMBER" });
    await revokeInvitation(prisma, owner, orgA, revoked.invitation.id);
    await expect(signUp(prisma, { email: "late@invited.test", password: PASSWORD, invite: revoked.token })).rejects.toMatchObject({ code: "invalid_invitation" });
    await expect(signUp(prisma, { email: "late@invited.test", password: PASSWORD, invite: "not-a-token" })).rejects.toMatchObject({ code: "invalid_invitation" });
    expect(await prisma.user.count()).toBe(before);
    expect((await findInvitation(prisma, token))?.state).toBe("open");
  });
});

describe("invitations that cannot be accepted", () => {
  let hal: Awaited<ReturnType<typeof newUser>>;
  beforeEach(async () => {
    hal = await newUser("hal");
  });

  const notJoined = async () => expect(await prisma.membership.findUnique({ where: { userId_orgId: { userId: hal.user.id, orgId: orgA } } })).toBeNull();

  it("expired", async () => {
    const { token, invitation } = await createInvitation(prisma, owner, orgA, { email: hal.user.email, role: "MEMBER" });
    await prisma.invitation.update({ where: { id: invitation.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await findInvitation(prisma, token))?.state).toBe("expired");
    await expectRefused(() => acceptInvitation(prisma, hal.principal, token), "invalid_invitation");
    await notJoined();
    // Expired invitations are not listed as pending.
    expect((await listMembers(prisma, owner, orgA)).invitations.map((i) => i.id)).not.toContain(invitation.id);
  });

  it("revoked", async () => {
    const { token, invitation } = await createInvitation(prisma, owner, orgA, { email: hal.user.email, role: "ADMIN" });
    expect((await listMembers(prisma, owner, orgA)).invitations.map((i) => i.id)).toContain(invitation.id);
    await revokeInvitation(prisma, admin, orgA, invitation.id);
    expect((await findInvitation(prisma, token))?.state).toBe("revoked");
    await expectRefused(() => acceptInvitation(prisma, hal.principal, token), "invalid_invitation");
    await notJoined();
    expect((await listMembers(prisma, owner, orgA)).invitations.map((i) => i.id)).not.toContain(invitation.id);
    // A revoked invitation cannot be revoked again.
    await expectRefused(() => revokeInvitation(prisma, owner, orgA, invitation.id), "unknown_invitation");
  });

  it("used", async () => {
    const { token, invitation } = await createInvitation(prisma, owner, orgA, { email: hal.user.email, role: "MEMBER" });
    await acceptInvitation(prisma, hal.principal, token);
    await expectRefused(() => acceptInvitation(prisma, hal.principal, token), "invalid_invitation");
    await expectRefused(() => revokeInvitation(prisma, owner, orgA, invitation.id), "unknown_invitation");
  });

  it("for another email address: refused, and still open for its owner", async () => {
    const { token } = await createInvitation(prisma, owner, orgA, { email: "somebody-else@example.test", role: "OWNER" });
    await expectRefused(() => acceptInvitation(prisma, hal.principal, token), "wrong_account");
    await notJoined();
    expect((await findInvitation(prisma, token))?.state).toBe("open");
  });

  it("by someone already in the organization: refused, and the invitation stays open", async () => {
    const { token } = await createInvitation(prisma, owner, orgA, { role: "ADMIN" });
    await expectRefused(() => acceptInvitation(prisma, member, token), "already_member");
    expect((await findInvitation(prisma, token))?.state).toBe("open");
    expect((await prisma.membership.findUniqueOrThrow({ where: { id: memberMembershipId } })).role).toBe("MEMBER");
  });

  it("unknown, malformed, or signed out", async () => {
    expect(await findInvitation(prisma, "A".repeat(43))).toBeNull();
    expect(await findInvitation(prisma, "../../etc/passwd")).toBeNull();
    expect(await findInvitation(prisma, "")).toBeNull();
    await expectRefused(() => acceptInvitation(prisma, hal.principal, "A".repeat(43)), "invalid_invitation");
    const { token } = await createInvitation(prisma, owner, orgA, { role: "MEMBER" });
    await expectRefused(() => acceptInvitation(prisma, null, token), "signed_out");
  });

  it("inviting someone who is already a member, or with a bad email or role, creates nothing", async () => {
    await expectRefused(() => createInvitation(prisma, owner, orgA, { email: "MIA@a.test", role: "ADMIN" }), "already_member");
    const before = await snapshot();
    await expect(createInvitation(prisma, owner, orgA, { email: "not an email", role: "MEMBER" })).rejects.toThrow(/does not look right/);
    await expect(createInvitation(prisma, owner, orgA, { email: "", role: "KING" })).rejects.toThrow(/Choose a role/);
    expect(await snapshot()).toEqual(before);
  });
});

describe("what admins may not do", () => {
  it("invite an owner", async () => {
    await expectRefused(() => createInvitation(prisma, admin, orgA, { email: "new-owner@example.test", role: "OWNER" }), "owner_only");
  });

  it("make anyone an owner", async () => {
    await expectRefused(() => changeMemberRole(prisma, admin, orgA, memberMembershipId, "OWNER"), "owner_only");
  });

  it("demote or remove an owner", async () => {
    await expectRefused(() => changeMemberRole(prisma, admin, orgA, ownerMembershipId, "ADMIN"), "owner_only");
    await expectRefused(() => changeMemberRole(prisma, admin, orgA, ownerMembershipId, "MEMBER"), "owner_only");
    await expectRefused(() => removeMember(prisma, admin, orgA, ownerMembershipId), "owner_only");
  });

  it("but they may invite admins and members and change members' roles", async () => {
    await createInvitation(prisma, admin, orgA, { email: "helper@example.test", role: "ADMIN" });
    await changeMemberRole(prisma, admin, orgA, memberMembershipId, "ADMIN");
    await changeMemberRole(prisma, admin, orgA, memberMembershipId, "MEMBER");
    expect((await prisma.membership.findUniqueOrThrow({ where: { id: memberMembershipId } })).role).toBe("MEMBER");
  });
});

describe("inviting by email", () => {
  const SMTP = { SMTP_URL: "smtp://mail.example.test:587", EMAIL_FROM: "Dilution Data <no-reply@example.test>" };
  const origin = "https://app.example.test";

  it("emails the link, naming the inviter, the organization, the role and how long it works", async () => {
    vi.stubEnv("SMTP_URL", SMTP.SMTP_URL);
    vi.stubEnv("EMAIL_FROM", SMTP.EMAIL_FROM);
    try {
      const sent: InvitationEmail[] = [];
      const created = await inviteMember(prisma, owner, orgA, { email: "dora@example.test", role: "MEMBER" }, origin, async (email) => sent.push(email));
      expect(created).toMatchObject({ email: "dora@example.test", delivery: "sent" });
      expect(created.link).toMatch(/^https:\/\/app\.example\.test\/invite\/[A-Za-z0-9_-]{20,}$/);
      expect(sent).toEqual([{ to: "dora@example.test", orgName: expect.any(String), inviterEmail: "ann@a.test", link: created.link, role: "MEMBER", validForDays: 7 }]);
      expect((await findInvitation(prisma, created.link.split("/").at(-1)!))?.state).toBe("open");
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("keeps the invitation and hands back the link when the email cannot be sent, or SMTP is not set up, or no email was given", async () => {
    vi.stubEnv("SMTP_URL", SMTP.SMTP_URL);
    vi.stubEnv("EMAIL_FROM", SMTP.EMAIL_FROM);
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const failing = async () => {
        throw new Error("connection refused");
      };
      const failed = await inviteMember(prisma, owner, orgA, { email: "eli@example.test", role: "MEMBER" }, origin, failing);
      expect(failed).toMatchObject({ email: "eli@example.test", delivery: "failed" });
      expect((await findInvitation(prisma, failed.link.split("/").at(-1)!))?.state).toBe("open");
      expect(await inviteMember(prisma, owner, orgA, { email: "", role: "MEMBER" }, origin, failing)).toMatchObject({ email: null, delivery: "no_email" });
      vi.unstubAllEnvs();
      const notConfigured = await inviteMember(prisma, owner, orgA, { email: "fay@example.test", role: "MEMBER" }, origin, failing);
      expect(notConfigured).toMatchObject({ email: "fay@example.test", delivery: "not_configured" });
    } finally {
      vi.unstubAllEnvs();
      error.mockRestore();
    }
  });

  it("sends nothing when the invitation is refused", async () => {
    const send = vi.fn(async () => {});
    await expectRefused(() => inviteMember(prisma, member, orgA, { email: "gus@example.test", role: "MEMBER" }, origin, send), "forbidden");
    expect(send).not.toHaveBeenCalled();
  });
});

describe("leaving", () => {
  it("a member leaves on their own, and is a member no more", async () => {
    const host = await newUser("host");
    const guest = await newUser("guest");
    const { token } = await createInvitation(prisma, host.principal, host.org.id, { role: "MEMBER" });
    await acceptInvitation(prisma, guest.principal, token);
    expect(await isMemberOf(prisma, guest.user.id, host.org.id)).toBe(true);
    expect(await leaveOrganization(prisma, guest.principal, host.org.id)).toEqual({ left: true });
    expect(await isMemberOf(prisma, guest.user.id, host.org.id)).toBe(false);
    expect(await latestAudit(host.org.id, "member.left")).toMatchObject({ actorUserId: guest.user.id });
  });

  it("is refused to the last owner, to a stranger, and signed out", async () => {
    const solo = await newUser("alone");
    await expectRefused(() => leaveOrganization(prisma, solo.principal, solo.org.id), "last_owner");
    await expectRefused(() => leaveOrganization(prisma, outsider, orgA), "not_member");
    await expectRefused(() => leaveOrganization(prisma, null, orgA), "signed_out");
    expect(await isMemberOf(prisma, solo.user.id, solo.org.id)).toBe(true);
  });
});

describe("the last owner", () => {
  it("cannot be demoted, and cannot leave", async () => {
    const solo = await newUser("solo");
    const own = await prisma.membership.findFirstOrThrow({ where: { userId: solo.user.id, orgId: solo.org.id } });
    await expectRefused(() => changeMemberRole(prisma, solo.principal, solo.org.id, own.id, "ADMIN"), "last_owner");
    await expectRefused(() => changeMemberRole(prisma, solo.principal, solo.org.id, own.id, "MEMBER"), "last_owner");
    await expectRefused(() => removeMember(prisma, solo.principal, solo.org.id, own.id), "last_owner");
  });

  it("can step down once there is another owner, and leave", async () => {
    const first = await newUser("first");
    const second = await newUser("second");
    const { token } = await createInvitation(prisma, first.principal, first.org.id, { email: second.user.email, role: "OWNER" });
    await acceptInvitation(prisma, second.principal, token);
    const own = await prisma.membership.findFirstOrThrow({ where: { userId: first.user.id, orgId: first.org.id } });
    await changeMemberRole(prisma, first.principal, first.org.id, own.id, "ADMIN");
    expect(await removeMember(prisma, first.principal, first.org.id, own.id)).toEqual({ left: true });
    expect(await prisma.membership.findMany({ where: { orgId: first.org.id }, select: { userId: true, role: true } })).toEqual([
      { userId: second.user.id, role: "OWNER" },
    ]);
    const left = await latestAudit(first.org.id, "member.left");
    expect(left).toMatchObject({ actorUserId: first.user.id, targetId: own.id });
  });

  it("two owners demoting each other at once: one of them stays owner", async () => {
    const one = await newUser("one");
    const two = await newUser("two");
    const { token } = await createInvitation(prisma, one.principal, one.org.id, { role: "OWNER" });
    await acceptInvitation(prisma, two.principal, token);
    const [m1, m2] = await Promise.all(
      [one, two].map((u) => prisma.membership.findFirstOrThrow({ where: { userId: u.user.id, orgId: one.org.id } })),
    );
    const results = await Promise.allSettled([
      changeMemberRole(prisma, one.principal, one.org.id, m2!.id, "MEMBER"),
      changeMemberRole(prisma, two.principal, one.org.id, m1!.id, "MEMBER"),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await prisma.membership.count({ where: { orgId: one.org.id, role: "OWNER" } })).toBe(1);
  });
});

describe("every mutation is refused to a member, to another organization and to a signed-out visitor", () => {
  let openInvitation: string;
  beforeAll(async () => {
    openInvitation = (await createInvitation(prisma, owner, orgA, { email: "pending@example.test", role: "MEMBER" })).invitation.id;
  });

  const mutations: [string, (p: Principal | null, org: string, ids: { invitation: string; membership: string }) => Promise<unknown>][] = [
    ["invite", (p, org) => createInvitation(prisma, p, org, { email: "intruder@example.test", role: "ADMIN" })],
    ["revoke", (p, org, ids) => revokeInvitation(prisma, p, org, ids.invitation)],
    ["change role", (p, org, ids) => changeMemberRole(prisma, p, org, ids.membership, "ADMIN")],
    ["remove", (p, org, ids) => removeMember(prisma, p, org, ids.membership)],
  ];
  const ofA = () => ({ invitation: openInvitation, membership: memberMembershipId });
  const ofB = () => ({ invitation: invitationOfB, membership: membershipOfB });

  for (const [name, mutate] of mutations) {
    it(`${name}: a member of the organization is forbidden`, async () => {
      // The member acts on someone else's membership (their own would be "leave").
      await expectRefused(() => mutate(member, orgA, { invitation: openInvitation, membership: ownerMembershipId }), "forbidden");
    });
    it(`${name}: the owner of another organization, in ours, with our real ids, is not a member`, async () => {
      await expectRefused(() => mutate(outsider, orgA, ofA()), "not_member");
    });
    it(`${name}: signed out`, async () => {
      await expectRefused(() => mutate(null, orgA, ofA()), "signed_out");
    });
    if (name !== "invite") {
      const unknown = name === "revoke" ? "unknown_invitation" : "unknown_member";
      it(`${name}: the other organization's owner, in their own organization, with our real ids, finds nothing`, async () => {
        await expectRefused(() => mutate(outsider, orgB, ofA()), unknown);
      });
      it(`${name}: our owner, in our organization, with the other organization's real ids, finds nothing`, async () => {
        await expectRefused(() => mutate(owner, orgA, ofB()), unknown);
      });
      it(`${name}: ids that are not ids`, async () => {
        await expectRefused(() => mutate(owner, orgA, { invitation: "'; DROP TABLE invitations; --", membership: "nope" }), unknown);
      });
    }
  }

  it("a made-up organization id is refused like a foreign one", async () => {
    await expectRefused(() => createInvitation(prisma, owner, "00000000-0000-4000-8000-000000000000", { role: "MEMBER" }), "not_member");
    await expectRefused(() => createInvitation(prisma, owner, "not-a-uuid", { role: "MEMBER" }), "not_member");
  });

  it("listing: members may look, others may not", async () => {
    const seen = await listMembers(prisma, member, orgA);
    expect(seen.members.map((m) => m.user.email)).toEqual(expect.arrayContaining(["ann@a.test", "adam@a.test", "mia@a.test"]));
    expect(seen.invitations.map((i) => i.id)).toContain(openInvitation);
    await expect(listMembers(prisma, outsider, orgA)).rejects.toMatchObject({ code: "not_member" });
    await expect(listMembers(prisma, null, orgA)).rejects.toMatchObject({ code: "signed_out" });
  });
});

describe("the audit log records each change with its actor and IP", () => {
  it("invite, revoke, change role, remove", async () => {
    const ivy = await newUser("ivy");
    const { token, invitation } = await createInvitation(prisma, owner, orgA, { email: ivy.user.email, role: "MEMBER" });
    const invited = await latestAudit(orgA, "member.invited");
    expect(invited).toMatchObject({ actorUserId: owner.userId, ip: "10.0.0.1", targetType: "invitation", targetId: invitation.id });
    expect(invited.details).toEqual({ email: ivy.user.email, role: "MEMBER" });

    const spare = await createInvitation(prisma, owner, orgA, { role: "ADMIN" });
    await revokeInvitation(prisma, admin, orgA, spare.invitation.id);
    expect(await latestAudit(orgA, "member.invitation_revoked")).toMatchObject({
      actorUserId: admin.userId,
      ip: "10.0.0.3",
      targetId: spare.invitation.id,
      details: { email: null, role: "ADMIN" },
    });

    await acceptInvitation(prisma, ivy.principal, token);
    const ivyMembership = await prisma.membership.findUniqueOrThrow({ where: { userId_orgId: { userId: ivy.user.id, orgId: orgA } } });
    await changeMemberRole(prisma, admin, orgA, ivyMembership.id, "ADMIN");
    expect(await latestAudit(orgA, "member.role_changed")).toMatchObject({
      actorUserId: admin.userId,
      ip: "10.0.0.3",
      targetId: ivyMembership.id,
      details: { email: ivy.user.email, from: "MEMBER", to: "ADMIN" },
    });

    expect(await removeMember(prisma, owner, orgA, ivyMembership.id)).toEqual({ left: false });
    expect(await latestAudit(orgA, "member.removed")).toMatchObject({
      actorUserId: owner.userId,
      ip: "10.0.0.1",
      targetId: ivyMembership.id,
      details: { email: ivy.user.email, role: "ADMIN" },
    });

    // And the owners see all of it in the organization's log, newest first.
    const log = await listAuditLog(prisma, owner, orgA);
    const mine = log.entries.filter((e) => [invitation.id, spare.invitation.id, ivyMembership.id].includes(e.targetId ?? ""));
    expect(mine.map((e) => e.action)).toEqual(["member.removed", "member.role_changed", "member.joined", "member.invitation_revoked", "member.invited", "member.invited"]);
  });

  it("changing a role to the role it has is no change and is not logged", async () => {
    const before = await snapshot();
    await changeMemberRole(prisma, owner, orgA, memberMembershipId, "MEMBER");
    expect(await snapshot()).toEqual(before);
  });
});

describe("links outlive nobody's role", () => {
  it("an admin's open invitations end when they are removed or made a member", async () => {
    const { org, principal: boss } = await newUser("boss");
    const sam = await newUser("sam");
    const lea = await newUser("lea");
    const samMembership = await addMembership(prisma, { userId: sam.user.id, orgId: org.id, role: "ADMIN" });
    const leaMembership = await addMembership(prisma, { userId: lea.user.id, orgId: org.id, role: "ADMIN" });
    const samLink = await createInvitation(prisma, sam.principal, org.id, { role: "ADMIN" });
    const leaLink = await createInvitation(prisma, lea.principal, org.id, { role: "ADMIN" });
    const bossLink = await createInvitation(prisma, boss, org.id, { role: "MEMBER" });

    await removeMember(prisma, boss, org.id, samMembership.id);
    await changeMemberRole(prisma, boss, org.id, leaMembership.id, "MEMBER");

    // Neither can come back as admin, nor let anyone else in, through links they made before.
    await expect(acceptInvitation(prisma, sam.principal, samLink.token)).rejects.toMatchObject({ code: "invalid_invitation" });
    await expect(acceptInvitation(prisma, (await newUser("friend")).principal, leaLink.token)).rejects.toMatchObject({ code: "invalid_invitation" });
    expect((await findInvitation(prisma, bossLink.token))?.state).toBe("open");
    expect((await latestAudit(org.id, "member.removed")).details).toMatchObject({ invitationsRevoked: 1 });
    expect((await latestAudit(org.id, "member.role_changed")).details).toMatchObject({ invitationsRevoked: 1 });
  });
});

describe("how many invitations can be made", () => {
  it("one person makes at most 20 an hour (across their organizations), an organization at most 50 a day; refused ones create nothing and say when to try again", async () => {
    const { org, principal } = await newUser("bulk-inviter");
    for (let i = 0; i < INVITATION_LIMITS.perInviterPerHour; i++) await createInvitation(prisma, principal, org.id, { email: `stranger-${i}@example.test`, role: "MEMBER" });
    await expectRefused(() => createInvitation(prisma, principal, org.id, { email: "one-more@example.test", role: "MEMBER" }), "rate_limited");
    await expect(createInvitation(prisma, principal, org.id, { email: "", role: "MEMBER" })).rejects.toThrow(/20 invitations in the last hour.*again in (59|60) minutes/);
    // In another organization of theirs too.
    const second = await prisma.organization.create({ data: { name: "Second", plan: { connect: { slug: "trial" } } } });
    await addMembership(prisma, { userId: principal.userId, orgId: second.id, role: "OWNER" });
    await expectRefused(() => createInvitation(prisma, principal, second.id, { email: "elsewhere@example.test", role: "MEMBER" }), "rate_limited");

    // An hour later the person may go on, until the organization has made 50 in a day.
    await prisma.invitation.updateMany({ where: { orgId: org.id }, data: { createdAt: new Date(Date.now() - 2 * 3_600_000) } });
    const colleagues = await Promise.all([1, 2].map(async (n) => {
      const { user } = await newUser(`colleague-${n}`);
      await addMembership(prisma, { userId: user.id, orgId: org.id, role: "ADMIN" });
      return { userId: user.id, ip: "198.51.100.8" } satisfies Principal;
    }));
    for (let i = INVITATION_LIMITS.perInviterPerHour; i < INVITATION_LIMITS.perOrganizationPerDay; i++) {
      const by = [principal, ...colleagues][i % 3]!;
      await createInvitation(prisma, by, org.id, { email: `stranger-${i}@example.test`, role: "MEMBER" });
    }
    await expectRefused(() => createInvitation(prisma, colleagues[0]!, org.id, { email: "fifty-first@example.test", role: "MEMBER" }), "rate_limited");
    await expect(createInvitation(prisma, colleagues[1]!, org.id, { email: "", role: "MEMBER" })).rejects.toThrow(/This organization has made 50 invitations in the last 24 hours/);
  }, 60_000);

  it("concurrent invitations cannot pass the limit together", async () => {
    const { org, principal } = await newUser("racing-inviter");
    const results = await Promise.allSettled(Array.from({ length: INVITATION_LIMITS.perInviterPerHour + 5 }, (_, i) => createInvitation(prisma, principal, org.id, { email: `race-${i}@example.test`, role: "MEMBER" })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(INVITATION_LIMITS.perInviterPerHour);
    expect(await prisma.invitation.count({ where: { orgId: org.id } })).toBe(INVITATION_LIMITS.perInviterPerHour);
  }, 60_000);
});
