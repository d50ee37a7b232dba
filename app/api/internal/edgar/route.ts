import { handleInternalEdgar } from "@/lib/cli/internal";

export const dynamic = "force-dynamic";
export const POST = handleInternalEdgar;
