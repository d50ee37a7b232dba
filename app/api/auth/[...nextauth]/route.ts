import { handleAuthRequest } from "@/lib/auth/route";

export const runtime = "nodejs";
export const GET = handleAuthRequest;
export const POST = handleAuthRequest;
