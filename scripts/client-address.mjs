// @ts-check
/**
 * Which address a request comes from, decided once, by our own HTTP server
 * (scripts/server.mjs), from what it can trust:
 *
 * - by default the socket's peer: what the server itself saw. Forwarding
 *   headers the client sent are removed, so they cannot forge an address, a
 *   host or a protocol;
 * - TRUSTED_PROXY_HOPS=N: N proxies of ours stand in front, each appending
 *   the address it saw to X-Forwarded-For; the client is the entry N places
 *   from the end of [X-Forwarded-For…, socket peer];
 * - TRUSTED_PROXIES=10.0.0.0/8,fd00::/8,…: walk that list from the end past
 *   every address that is one of our proxies; the first that is not is the
 *   client.
 *
 * The answer travels to the app in a header whose name is chosen at random
 * when the server starts (CLIENT_ADDRESS_HEADER in the process environment),
 * so no client can send it, and lib/utils/client-ip.ts reads only that.
 */
import { randomBytes } from "node:crypto";
import { BlockList, isIP } from "node:net";

const FORWARDING_HEADERS = ["x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "forwarded", "x-real-ip"];

/**
 * @typedef {{ hops: number, proxies: BlockList | null, description: string }} Trust
 */

/** One address, one spelling: an IPv4 client on a dual-stack socket arrives as ::ffff:a.b.c.d. */
export function normalizeAddress(address) {
  const text = String(address ?? "").trim().replace(/^\[(.*)\]$/, "$1");
  return text.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1");
}

/**
 * The trust configuration from the environment; throws with a message a
 * person can act on when it is malformed (the server refuses to start).
 * @param {Record<string, string | undefined>} env
 * @returns {Trust}
 */
export function trustFromEnv(env = process.env) {
  const hopsText = env.TRUSTED_PROXY_HOPS?.trim();
  const proxiesText = env.TRUSTED_PROXIES?.trim();
  if (hopsText && proxiesText) throw new Error("Set TRUSTED_PROXY_HOPS or TRUSTED_PROXIES, not both.");
  if (proxiesText) {
    const proxies = new BlockList();
    for (const entry of proxiesText.split(",").map((e) => e.trim()).filter(Boolean)) {
      const [address, bits, extra] = entry.split("/");
      const family = isIP(address ?? "");
      const prefix = bits === undefined ? (family === 6 ? 128 : 32) : Number(bits);
      if (!family || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32)) {
        throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range.`);
      }
      proxies.addSubnet(/** @type {string} */ (address), prefix, family === 6 ? "ipv6" : "ipv4");
    }
    return { hops: 0, proxies, description: `proxies ${proxiesText}` };
  }
  const hops = hopsText ? Number(hopsText) : 0;
  if (!Number.isInteger(hops) || hops < 0 || hops > 10) throw new Error(`TRUSTED_PROXY_HOPS must be a whole number from 0 to 10, not "${hopsText}".`);
  return { hops, proxies: null, description: hops === 0 ? "none (the socket's peer is the client)" : `${hops} proxy hop${hops === 1 ? "" : "s"}` };
}

/** @param {BlockList} list @param {string} address */
function isProxy(list, address) {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? "ipv6" : "ipv4");
}

/**
 * The client's address, and whether the request came through a proxy we
 * trust (then its X-Forwarded-Host/-Proto are kept).
 * @param {string | undefined} socketAddress
 * @param {string | string[] | undefined} forwardedFor
 * @param {Trust} trust
 */
export function resolveClientAddress(socketAddress, forwardedFor, trust) {
  const peer = normalizeAddress(socketAddress) || "unknown";
  if (!trust.proxies && trust.hops === 0) return { address: peer, viaTrustedProxy: false };
  const listed = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : (forwardedFor ?? ""))
    .split(",")
    .map(normalizeAddress)
    .filter(Boolean);
  const chain = [...listed, peer];
  if (trust.proxies) {
    let i = chain.length - 1;
    while (i > 0 && isProxy(trust.proxies, /** @type {string} */ (chain[i]))) i--;
    return { address: /** @type {string} */ (chain[i]), viaTrustedProxy: i < chain.length - 1 };
  }
  return { address: /** @type {string} */ (chain[Math.max(0, chain.length - 1 - trust.hops)]), viaTrustedProxy: true };
}

/** A header name no client can guess, chosen once per server process. */
export function clientAddressHeaderName() {
  process.env.CLIENT_ADDRESS_HEADER ??= `x-client-address-${randomBytes(12).toString("hex")}`;
  return process.env.CLIENT_ADDRESS_HEADER;
}

/**
 * Rewrites an incoming Node request before Next sees it: forwarding headers
 * are dropped unless a trusted proxy sent them, and the resolved address is
 * put in the secret header (any client-sent copy of which is dropped too).
 * @param {import("node:http").IncomingMessage} request
 * @param {Trust} trust
 * @param {string} headerName
 */
export function stampClientAddress(request, trust, headerName) {
  const { address, viaTrustedProxy } = resolveClientAddress(request.socket.remoteAddress, request.headers["x-forwarded-for"], trust);
  for (const name of FORWARDING_HEADERS) if (!viaTrustedProxy || name === "x-forwarded-for" || name === "x-real-ip" || name === "forwarded") delete request.headers[name];
  request.headers["x-forwarded-for"] = address;
  request.headers[headerName] = address;
  return address;
}
