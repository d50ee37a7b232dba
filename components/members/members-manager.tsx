"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import {
  changeRoleAction,
  leaveOrganizationAction,
  removeMemberAction,
  revokeInvitationAction,
} from "@/lib/platform/actions/members";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import type { ActionResult } from "@/lib/platform/action";
import type { Role } from "@/lib/generated/prisma/enums";
import { InvitationsTable } from "./invitations-table";
import { InviteDialog } from "./invite-dialog";
import { MembersTable } from "./members-table";
import type { InvitationLimits, InvitationRow, MemberRow, RoleOption } from "./types";

const RANK: Record<Role, number> = { OWNER: 0, ADMIN: 1, MEMBER: 2 };

type Confirming =
  | { kind: "remove"; member: MemberRow }
  | { kind: "demote-self"; member: MemberRow; role: Role }
  | { kind: "revoke"; invitation: InvitationRow }
  | { kind: "leave" }
  | null;

export interface MembersManagerProps {
  orgId: string;
  orgName: string;
  canManage: boolean;
  members: MemberRow[];
  invitations: InvitationRow[];
  roles: RoleOption[];
  emailEnabled: boolean;
  invitationLimits: InvitationLimits;
  invitationValidDays: number;
  /** Why the viewer cannot leave (the last owner), shown instead of letting them try. */
  leaveBlockedReason: string | null;
}

export function MembersManager({ orgId, orgName, canManage, members, invitations, roles, emailEnabled, invitationValidDays, invitationLimits, leaveBlockedReason }: MembersManagerProps) {
  const router = useRouter();
  const [inviting, setInviting] = useState<number | null>(null); // the dialog's key while open
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  const [message, setMessage] = useState<{ tone: "success" | "danger"; text: string } | null>(null);
  const [busy, startTransition] = useTransition();

  const labelOf = (role: Role) => roles.find((r) => r.value === role)?.label ?? role;

  /** Runs an action; success closes the confirmation and says what happened, a refusal is shown where the user is. */
  function act(run: () => Promise<ActionResult<unknown> | undefined>, done: string) {
    startTransition(async () => {
      const result = await run();
      // One transition for the message and the refreshed table, so they change together.
      startTransition(() => {
        if (!result || result.ok) {
          setConfirming(null);
          setConfirmError(null);
          setMessage({ tone: "success", text: done });
          router.refresh();
        } else if (confirming) {
          setConfirmError(result.error);
        } else {
          setMessage({ tone: "danger", text: result.error });
        }
      });
    });
  }

  function changeRole(member: MemberRow, role: Role) {
    if (member.isYou && RANK[role] > RANK[member.role]) {
      setConfirmError(null);
      setConfirming({ kind: "demote-self", member, role });
      return;
    }
    act(() => changeRoleAction(orgId, member.id, role), `The role of ${member.email} is now ${labelOf(role)}.`);
  }

  function ask(next: Confirming) {
    setConfirmError(null);
    setConfirming(next);
  }

  return (
    <div className="flex flex-col gap-6">
      {canManage ? (
        <div className="flex justify-end">
          <Button onClick={() => setInviting(Date.now())}>Invite someone</Button>
        </div>
      ) : (
        <Alert tone="info">You can see who belongs to {orgName}. Only owners and admins can invite people or change roles.</Alert>
      )}
      <div aria-live="polite">{message ? <Alert tone={message.tone}>{message.text}</Alert> : null}</div>

      <section aria-labelledby="members-heading" className="flex flex-col gap-3">
        <h2 id="members-heading" className="text-lg font-semibold text-zinc-900">
          Members <span className="font-normal text-zinc-500">({members.length})</span>
        </h2>
        <Card>
          <MembersTable
            members={members}
            roles={roles}
            canManage={canManage}
            busy={busy}
            onChangeRole={changeRole}
            onRemove={(member) => ask({ kind: "remove", member })}
          />
        </Card>
      </section>

      <section aria-labelledby="invitations-heading" className="flex flex-col gap-3">
        <h2 id="invitations-heading" className="text-lg font-semibold text-zinc-900">
          Pending invitations <span className="font-normal text-zinc-500">({invitations.length})</span>
        </h2>
        <Card>
          {invitations.length === 0 ? (
            <EmptyState
              title="No pending invitations"
              action={canManage ? <Button variant="secondary" onClick={() => setInviting(Date.now())}>Invite someone</Button> : undefined}
            >
              {canManage
                ? "Invite people with a link: they join with the role you choose when they open it."
                : "Invitations that owners and admins send appear here until they are accepted."}
            </EmptyState>
          ) : (
            <InvitationsTable invitations={invitations} canManage={canManage} onRevoke={(invitation) => ask({ kind: "revoke", invitation })} />
          )}
        </Card>
      </section>

      <Card className="border-red-200">
        <CardHeader>
          <CardTitle as="h2">Leave {orgName}</CardTitle>
          <CardDescription>You lose access to its keys, usage and billing. To come back you need a new invitation.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          {leaveBlockedReason ? (
            <p id="leave-blocked" className="text-sm text-zinc-700">
              {leaveBlockedReason}
            </p>
          ) : null}
          <div>
            <Button variant="danger" onClick={() => ask({ kind: "leave" })} disabled={leaveBlockedReason !== null} aria-describedby={leaveBlockedReason ? "leave-blocked" : undefined}>
              Leave organization
            </Button>
          </div>
        </CardContent>
      </Card>

      {canManage && inviting !== null ? (
        <InviteDialog
          key={inviting}
          open
          orgId={orgId}
          roles={roles}
          emailEnabled={emailEnabled}
          validDays={invitationValidDays}
          limits={invitationLimits}
          onClose={() => setInviting(null)}
          onInvited={() => router.refresh()}
        />
      ) : null}

      <ConfirmDialog
        open={confirming !== null}
        busy={busy}
        error={confirmError}
        onCancel={() => setConfirming(null)}
        {...confirmation(confirming, orgName, labelOf)}
        onConfirm={() => {
          const target = confirming;
          if (!target) return;
          if (target.kind === "remove") act(() => removeMemberAction(orgId, target.member.id), `${target.member.email} was removed.`);
          if (target.kind === "revoke") {
            act(() => revokeInvitationAction(orgId, target.invitation.id), `The invitation ${target.invitation.email ? `of ${target.invitation.email}` : "link"} was revoked.`);
          }
          if (target.kind === "demote-self") act(() => changeRoleAction(orgId, target.member.id, target.role), `Your role is now ${labelOf(target.role)}.`);
          if (target.kind === "leave") act(() => leaveOrganizationAction(orgId), `You left ${orgName}.`);
        }}
      />
    </div>
  );
}

function confirmation(confirming: Confirming, orgName: string, labelOf: (role: Role) => string) {
  switch (confirming?.kind) {
    case "remove":
      return {
        title: `Remove ${confirming.member.email}?`,
        description: `They lose access to ${orgName} at once. The keys they created keep working until you disable them.`,
        confirmLabel: "Remove member",
      };
    case "demote-self":
      return {
        title: `Make yourself ${labelOf(confirming.role)}?`,
        description:
          confirming.role === "MEMBER"
            ? "You will no longer be able to manage keys, people or billing here. Only an owner or admin can give the role back."
            : "You will no longer be an owner. Only an owner can make you one again.",
        confirmLabel: `Become ${labelOf(confirming.role)}`,
      };
    case "revoke":
      return {
        title: "Revoke this invitation?",
        description: `The link ${confirming.invitation.email ? `sent to ${confirming.invitation.email} ` : ""}stops working at once. You can invite again later.`,
        confirmLabel: "Revoke invitation",
      };
    case "leave":
      return {
        title: `Leave ${orgName}?`,
        description: "You lose access at once. To come back you need a new invitation from an owner or admin.",
        confirmLabel: "Leave organization",
      };
    default:
      return { title: "", description: "", confirmLabel: "" };
  }
}
