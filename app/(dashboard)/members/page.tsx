import type { Metadata } from "next";
import { MembersManager } from "@/components/members/members-manager";
import type { RoleOption } from "@/components/members/types";
import { PageHeader } from "@/components/ui/page-header";
import { getOrgPage } from "@/lib/platform/session";
import { emailConfigured } from "@/lib/email";
import { ROLE_LABELS } from "@/lib/utils/roles";
import { can } from "@/lib/platform/access";
import { INVITATION_LIMITS, INVITATION_TTL_MS, listMembers } from "@/lib/platform/members";
import { formatDateTime } from "@/lib/utils/dates";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage() {
  const { db, principal, org, role, user } = await getOrgPage();
  const { members, invitations } = await listMembers(db, principal, org.id);
  const canManage = can(role, "members:manage");
  // The last owner cannot leave (the domain refuses it too): say so before they try.
  const owners = members.filter((member) => member.role === "OWNER").length;
  const leaveBlockedReason =
    role === "OWNER" && owners === 1
      ? `You are the only owner of ${org.name}. Make another member an owner first, then you can leave.`
      : null;
  // What the viewer may hand out; the domain enforces the same rule.
  const roles: RoleOption[] = (role === "OWNER" ? (["OWNER", "ADMIN", "MEMBER"] as const) : (["ADMIN", "MEMBER"] as const)).map((value) => ({
    value,
    label: ROLE_LABELS[value],
  }));

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Members" description={`The people of ${org.name} and their roles. Owners and admins manage keys, people and billing; members look.`} />
      <MembersManager
        orgId={org.id}
        orgName={org.name}
        canManage={canManage}
        roles={roles}
        emailEnabled={emailConfigured()}
        invitationValidDays={Math.round(INVITATION_TTL_MS / 86_400_000)}
        invitationLimits={INVITATION_LIMITS}
        leaveBlockedReason={leaveBlockedReason}
        members={members.map((member) => {
          const editable = canManage && (member.role !== "OWNER" || role === "OWNER");
          const isYou = member.user.id === user.id;
          return {
            id: member.id,
            name: member.user.name,
            email: member.user.email,
            role: member.role,
            roleLabel: ROLE_LABELS[member.role],
            joined: formatDateTime(member.createdAt),
            lastSignIn: member.user.lastSignInAt ? formatDateTime(member.user.lastSignInAt) : null,
            isYou,
            editable,
            removable: editable && !isYou,
          };
        })}
        invitations={invitations.map((invitation) => ({
          id: invitation.id,
          email: invitation.email,
          role: invitation.role,
          roleLabel: ROLE_LABELS[invitation.role],
          expires: formatDateTime(invitation.expiresAt),
          invitedBy: invitation.createdBy?.email ?? "A former member",
        }))}
      />
    </div>
  );
}
