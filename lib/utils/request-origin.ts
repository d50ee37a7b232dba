import { headers } from "next/headers";

/**
 * The origin the visitor reached us on (Host / X-Forwarded-Host and
 * X-Forwarded-Proto), for links and examples that must work as pasted. With
 * `preferConfigured`, NEXTAUTH_URL wins when set: the address the operator
 * publishes, e.g. for a link sent to someone else.
 */
export async function requestOrigin({ preferConfigured = false } = {}): Promise<string> {
  if (preferConfigured && process.env.NEXTAUTH_URL) {
    try {
      return new URL(process.env.NEXTAUTH_URL).origin;
    } catch {
      // not a URL: use the request's
    }
  }
  const h = await headers();
  const first = (value: string | null) => value?.split(",")[0]?.trim();
  const host = first(h.get("x-forwarded-host")) || first(h.get("host"));
  const proto = first(h.get("x-forwarded-proto")) === "https" ? "https" : "http";
  // A Host header is the client's to choose; only a plain host[:port] goes into what we show.
  return host && /^[a-z0-9.-]+(:\d{1,5})?$/i.test(host) ? `${proto}://${host}` : "http://localhost:3000";
}
