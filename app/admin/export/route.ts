import { exportOverview } from "@/lib/platform/admin/routes";

export const runtime = "nodejs";

export function GET(request: Request) {
  return exportOverview(request);
}
