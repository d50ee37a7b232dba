import { exportBillingHistory } from "@/lib/billing/routes";

export const runtime = "nodejs";

export function GET(request: Request) {
  return exportBillingHistory(request);
}
