import { topUpStatusRoute } from "@/lib/platform/routes";

export const runtime = "nodejs";

export function GET(request: Request) {
  return topUpStatusRoute(request);
}
