/**
 * The client's address, for per-address limits and the audit log, as our own
 * HTTP server (scripts/server.mjs) decided it: from the socket, or from the
 * proxies it is told to trust (TRUSTED_PROXY_HOPS / TRUSTED_PROXIES). It hands
 * the answer over in a header whose name it picks at random on start
 * (CLIENT_ADDRESS_HEADER), so nothing a client sends is ever read as an
 * address. Without that server (a handler called in a test) it is "unknown".
 */
export function clientIp(headers: Pick<Headers, "get">, headerName = process.env.CLIENT_ADDRESS_HEADER): string {
  const value = headerName ? headers.get(headerName)?.trim() : undefined;
  return value ? value.slice(0, 64) : "unknown";
}

/**
 * The unit per-address limits count in: an IPv4 address as it is, an IPv6
 * address by its /64 (one subscriber's whole network, which it can rotate
 * through freely), e.g. "2001:db8:0:1::/64".
 */
export function addressBucket(ip: string): string {
  const address = ip.split("%")[0]!;
  if (!address.includes(":")) return address;
  const [head = "", tail] = address.split("::");
  const front = head ? head.split(":") : [];
  const back = tail ? tail.split(":") : [];
  const groups = tail === undefined ? front : [...front, ...Array(Math.max(0, 8 - front.length - back.length)).fill("0"), ...back];
  return `${groups
    .slice(0, 4)
    .map((group) => (Number.parseInt(group || "0", 16) || 0).toString(16))
    .join(":")}::/64`;
}
