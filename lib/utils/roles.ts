import type { Role } from "@/lib/generated/prisma/enums";

/** A member's role in words; what each role may do is lib/platform/access.ts's table. */
export const ROLE_LABELS: Record<Role, string> = { OWNER: "Owner", ADMIN: "Admin", MEMBER: "Member" };

/** "an owner", "a member": for sentences such as an invitation email. */
export function roleWithArticle(role: Role): string {
  const word = ROLE_LABELS[role].toLowerCase();
  return `${/^[aeiou]/.test(word) ? "an" : "a"} ${word}`;
}

/** A role name as stored in an audit entry's details, in words; anything else as it is. */
export function roleLabelOf(value: string): string {
  return value in ROLE_LABELS ? ROLE_LABELS[value as Role] : value;
}
