import { handleAuthRequest } from "@/lib/platform/next-auth";

export const runtime = "nodejs";
export const GET = handleAuthRequest;
export const POST = handleAuthRequest;
