/** A place to return to after sign-in: a path on this site only, never another origin. */
export function safeReturnPath(value: unknown, fallback = "/dashboard"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  if (value.startsWith("/api/") || value.startsWith("/sign-")) return fallback;
  return value.slice(0, 500);
}
