import { BRAND_ICON_SVG } from "@/lib/utils/brand-icon";

// A browser may ask for /favicon.ico before it reads the page's icon link; answer with the same icon, not a 404.
export const dynamic = "force-static";

export function GET(): Response {
  return new Response(BRAND_ICON_SVG, { headers: { "Content-Type": "image/svg+xml", "Cache-Control": "public, max-age=86400" } });
}
