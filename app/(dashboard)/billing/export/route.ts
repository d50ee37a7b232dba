import { exportBillingHistory } from "@/lib/platform/routes";

export const runtime = "nodejs";

export function GET(request: Request) {
  return exportBillingHistory(request);
}
