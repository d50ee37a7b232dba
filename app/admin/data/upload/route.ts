import { uploadDataRoute } from "@/lib/platform/admin/data";

// The file streams in (up to 100 MB) and is imported in this process, with node's TextDecoder and the database.
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function POST(request: Request) {
  return uploadDataRoute(request);
}
