/**
 * The client's address as the nearest proxy reports it. Next.js fills
 * X-Forwarded-For with the socket address when no proxy did, so behind a
 * proxy that sets the header (as every load balancer does) this is the real
 * client; a server exposed directly can be told anything, which is why every
 * per-IP limit here also has a per-account or per-key twin.
 */
export function clientIp(headers: Pick<Headers, "get">): string {
  const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  const ip = forwarded || headers.get("x-real-ip")?.trim() || "unknown";
  // An IPv4 client on a dual-stack socket arrives as ::ffff:a.b.c.d; one address, one spelling.
  return ip.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1").slice(0, 64);
}
