import { Button } from "@/components/ui/button";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { RoleBadge } from "./role-badge";
import type { InvitationRow } from "./types";

export function InvitationsTable({
  invitations,
  canManage,
  onRevoke,
}: {
  invitations: InvitationRow[];
  canManage: boolean;
  onRevoke: (invitation: InvitationRow) => void;
}) {
  return (
    <Table caption="Pending invitations" stacked>
      <THead>
        <TR>
          <TH>For</TH>
          <TH>Role</TH>
          <TH>Expires</TH>
          <TH>Invited by</TH>
          {canManage ? (
            <TH>
              <span className="sr-only">Actions</span>
            </TH>
          ) : null}
        </TR>
      </THead>
      <TBody>
        {invitations.map((invitation) => (
          <TR key={invitation.id}>
            <TD data-label="For" className="min-w-44 break-all">{invitation.email ?? <span className="text-zinc-600 italic">Anyone with the link</span>}</TD>
            <TD data-label="Role">
              <RoleBadge role={invitation.role} label={invitation.roleLabel} />
            </TD>
            <TD data-label="Expires" className="whitespace-nowrap text-zinc-600">{invitation.expires}</TD>
            <TD data-label="Invited by" className="break-all text-zinc-600">{invitation.invitedBy}</TD>
            {canManage ? (
              <TD data-label="">
                <div className="flex justify-end">
                  <Button
                    size="sm"
                    variant="danger-ghost"
                    onClick={() => onRevoke(invitation)}
                    aria-label={`Revoke the invitation ${invitation.email ? `of ${invitation.email}` : "link for anyone"}`}
                  >
                    Revoke
                  </Button>
                </div>
              </TD>
            ) : null}
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
