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
 * The unit per-address limits count in: an IPv4 address as it is (also when
 * it arrives IPv4-mapped, ::ffff:a.b.c.d), an IPv6 address by its /64 (one
 * subscriber's whole network, which it can rotate through freely), e.g.
 * "2001:db8:0:1::/64". Anything else (no address known) is one bucket as
 * written.
 */
export function addressBucket(ip: string): string {
  const address = ip.split("%")[0]!;
  if (!address.includes(":")) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  }
  return `${groups.slice(0, 4).map((group) => group.toString(16)).join(":")}::/64`;
}

/** An IPv6 address's eight 16-bit groups (a dotted IPv4 tail is two of them); null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  const halves = address.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) => {
    const out: number[] = [];
    for (const piece of part ? part.split(":") : []) {
      if (/^\d+\.\d+\.\d+\.\d+$/.test(piece)) {
        const bytes = piece.split(".").map(Number);
        if (bytes.some((b) => b > 255)) return null;
        out.push((bytes[0]! << 8) | bytes[1]!, (bytes[2]! << 8) | bytes[3]!);
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) out.push(Number.parseInt(piece, 16));
      else return null;
    }
    return out;
  };
  const front = parse(halves[0]!);
  const back = halves.length === 2 ? parse(halves[1]!) : [];
  if (!front || !back) return null;
  const missing = 8 - front.length - back.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  return [...front, ...Array<number>(missing).fill(0), ...back];
}
