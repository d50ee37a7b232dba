import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { Role } from "@/lib/generated/prisma/enums";

const TONES: Record<Role, BadgeTone> = { OWNER: "accent", ADMIN: "success", MEMBER: "neutral" };

export function RoleBadge({ role, label }: { role: Role; label: string }) {
  return <Badge tone={TONES[role]}>{label}</Badge>;
}
