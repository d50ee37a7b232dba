import { exportUsage } from "@/lib/usage/export";

export const runtime = "nodejs";

export function GET(request: Request) {
  return exportUsage(request);
}
