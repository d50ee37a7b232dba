/**
 * The client's address, for per-IP limits and the audit log.
 *
 * X-Forwarded-For is a list the client starts and each proxy appends to, so
 * only the entries our own proxies added can be trusted: the one
 * TRUSTED_PROXY_HOPS places from the end (default 1: one load balancer or
 * reverse proxy in front, which is how this app is meant to run). Next.js
 * writes the socket address into the header only when it is missing, so a
 * server exposed with no proxy at all can be told anything; every per-IP
 * limit here therefore has a per-account or per-key twin.
 */
export function clientIp(headers: Pick<Headers, "get">, trustedHops = trustedProxyHops()): string {
  const forwarded = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const ip = forwarded[Math.max(0, forwarded.length - trustedHops)] || headers.get("x-real-ip")?.trim() || "unknown";
  // An IPv4 client on a dual-stack socket arrives as ::ffff:a.b.c.d; one address, one spelling.
  return ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1").slice(0, 64);
}

function trustedProxyHops(): number {
  const hops = Number(process.env.TRUSTED_PROXY_HOPS ?? 1);
  return Number.isInteger(hops) && hops >= 1 ? hops : 1;
}
