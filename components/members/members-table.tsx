"use client";

import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/field";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import type { Role } from "@/lib/generated/prisma/enums";
import { RoleBadge } from "./role-badge";
import type { MemberRow, RoleOption } from "./types";

export function MembersTable({
  members,
  roles,
  canManage,
  busy,
  onChangeRole,
  onRemove,
}: {
  members: MemberRow[];
  roles: RoleOption[];
  canManage: boolean;
  busy: boolean;
  onChangeRole: (member: MemberRow, role: Role) => void;
  onRemove: (member: MemberRow) => void;
}) {
  return (
    <Table caption="Members" stacked>
      <THead>
        <TR>
          <TH>Member</TH>
          <TH>Role</TH>
          <TH>Joined</TH>
          <TH>Last sign-in</TH>
          {canManage ? (
            <TH>
              <span className="sr-only">Actions</span>
            </TH>
          ) : null}
        </TR>
      </THead>
      <TBody>
        {members.map((member) => (
          <TR key={member.id} data-member-email={member.email}>
            <TD data-label="Member" className="min-w-48">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium text-zinc-900">{member.name || member.email}</span>
                {member.isYou ? <Badge>You</Badge> : null}
              </div>
              {member.name ? <div className="text-xs break-all text-zinc-600">{member.email}</div> : null}
            </TD>
            <TD data-label="Role">
              {member.editable ? (
                <RoleControl key={member.role} member={member} roles={roles} busy={busy} onSave={(role) => onChangeRole(member, role)} />
              ) : (
                <RoleBadge role={member.role} label={member.roleLabel} />
              )}
            </TD>
            <TD data-label="Joined" className="whitespace-nowrap text-zinc-600">{member.joined}</TD>
            <TD data-label="Last sign-in" className="whitespace-nowrap text-zinc-600">{member.lastSignIn ?? "Never"}</TD>
            {canManage ? (
              <TD data-label="">
                {member.removable ? (
                  <div className="flex justify-end">
                    <Button size="sm" variant="danger-ghost" onClick={() => onRemove(member)} aria-label={`Remove ${member.email}`}>
                      Remove
                    </Button>
                  </div>
                ) : null}
              </TD>
            ) : null}
          </TR>
        ))}
      </TBody>
    </Table>
  );
}

/** A role select with its own Save button: nothing changes until it is pressed. */
function RoleControl({ member, roles, busy, onSave }: { member: MemberRow; roles: RoleOption[]; busy: boolean; onSave: (role: Role) => void }) {
  const [role, setRole] = useState<Role>(member.role);
  return (
    <div className="flex items-center gap-2">
      <Select
        value={role}
        onChange={(event) => setRole(event.target.value as Role)}
        aria-label={`Role of ${member.email}`}
        className="h-8 w-auto min-w-32"
        disabled={busy}
      >
        {roles.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
      <Button size="sm" variant="secondary" disabled={busy || role === member.role} onClick={() => onSave(role)} aria-label={`Save the role of ${member.email}`}>
        Save
      </Button>
    </div>
  );
}
