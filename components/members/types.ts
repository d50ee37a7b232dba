import type { Role } from "@/lib/generated/prisma/enums";

/** What the members page hands its client components: plain, formatted, no more than they show. */

export interface RoleOption {
  value: Role;
  label: string;
}

export interface MemberRow {
  id: string;
  name: string | null;
  email: string;
  role: Role;
  roleLabel: string;
  joined: string;
  lastSignIn: string | null;
  isYou: boolean;
  /** The viewer may change this member's role (owners' roles only owners change). */
  editable: boolean;
  /** The viewer may remove this member (never themselves: that is "Leave"). */
  removable: boolean;
}

export interface InvitationRow {
  id: string;
  /** null: anyone holding the link may accept it. */
  email: string | null;
  role: Role;
  roleLabel: string;
  expires: string;
  invitedBy: string;
}

/** How many invitations may be made (lib/platform/members.ts), as the invite dialog states it. */
export interface InvitationLimits {
  perInviterPerHour: number;
  perOrganizationPerDay: number;
}
