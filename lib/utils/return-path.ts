/**
 * A place to return to after sign-in: a path on this site only. The value is
 * resolved the way a browser would (which drops tabs and newlines, so
 * "/\t/evil.example" means "//evil.example") and refused unless it stays on
 * our origin.
 */
export function safeReturnPath(value: unknown, fallback = "/dashboard"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.length > 500) return fallback;
  const base = "http://return.invalid";
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base) return fallback;
  const path = url.pathname + url.search + url.hash;
  if (path.startsWith("/api/") || path.startsWith("/sign-")) return fallback;
  return path;
}
