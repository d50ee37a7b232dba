import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import ipaddr from "ipaddr.js";

/**
 * Where a webhook may be sent: an https URL, without credentials, whose host
 * is a public name or a public unicast address, and which resolves only to
 * public unicast addresses. The URL is checked when it is registered and the
 * addresses again at every delivery, after DNS, and the connection goes to
 * the address that was checked (so a name cannot resolve to a public address
 * for the check and a private one for the request). Redirects are not
 * followed: a 3xx is a failed delivery.
 *
 * Addresses are parsed and classified by ipaddr.js, and admitted from an
 * allow-list: IPv4 only outside every special range (loopback, private,
 * link-local, carrier-grade NAT, multicast, broadcast, reserved,
 * unspecified); IPv6 only in global unicast (2000::/3) and outside its
 * special ranges. An IPv6 address that carries an IPv4 one (IPv4-mapped
 * ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16) is judged by the IPv4
 * address it carries; Teredo and local-use NAT64 (64:ff9b:1::/48) are
 * refused outright.
 *
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=1 lifts both rules (http and local
 * addresses): for tests and local development only, never in production.
 */

/** Cloud metadata and host services that sit at public-looking addresses. */
const METADATA = new Set(["168.63.129.16" /* Azure's WireServer */, "fd00:ec2::254" /* AWS over IPv6 (unique-local anyway) */]);
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR("2000::/3");
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR("64:ff9b::/96");

/** What a range is called in a refusal. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: "unspecified",
  broadcast: "broadcast",
  multicast: "multicast",
  linkLocal: "link-local, where the cloud metadata service lives",
  loopback: "loopback",
  carrierGradeNat: "carrier-grade NAT",
  private: "private",
  reserved: "reserved",
  uniqueLocal: "unique-local",
  teredo: "Teredo",
  rfc6145: "IPv4-translated",
};

type Env = Record<string, string | undefined>;

export function privateTargetsAllowed(env: Env = process.env): boolean {
  return env.WEBHOOK_ALLOW_PRIVATE_TARGETS === "1";
}

function refusalOf(ip: ipaddr.IPv4 | ipaddr.IPv6): string | null {
  if (METADATA.has(ip.toString())) return "cloud metadata";
  if (ip instanceof ipaddr.IPv4) {
    const range = ip.range();
    return range === "unicast" ? null : (RANGE_WORDS[range] ?? range);
  }
  const range = ip.range();
  const carried = carriedIPv4(ip, range);
  if (carried) {
    const inner = refusalOf(carried);
    return inner && `${inner}: it carries ${carried.toString()}`;
  }
  if (range === "rfc6052") return "local-use NAT64";
  if (range !== "unicast") return RANGE_WORDS[range] ?? range;
  return ip.match(GLOBAL_UNICAST) ? null : "not global unicast";
}

/** The IPv4 address inside an IPv4-mapped, well-known NAT64 or 6to4 address. */
function carriedIPv4(ip: ipaddr.IPv6, range: string): ipaddr.IPv4 | null {
  const groups = ip.parts;
  const fromGroups = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  if (range === "ipv4Mapped") return ip.toIPv4Address();
  if (range === "rfc6052" && ip.match(NAT64_WELL_KNOWN)) return fromGroups(groups[6]!, groups[7]!);
  if (range === "6to4") return fromGroups(groups[1]!, groups[2]!);
  return null;
}

/**
 * Why an address may not receive webhooks ("loopback", "private", …), or
 * null for a public unicast one. Text that is not an address is refused.
 */
export function addressRefusal(address: string): string | null {
  const text = address.replace(/^\[(.*)\]$/, "$1");
  if (text.includes("%")) return "scoped to an interface";
  if (!ipaddr.isValid(text)) return "not an IP address";
  return refusalOf(ipaddr.parse(text));
}

export function isForbiddenAddress(address: string): boolean {
  return addressRefusal(address) !== null;
}

/** Names that are answered inside a network, never on the internet. */
const LOCAL_SUFFIXES = [".localhost", ".local", ".localdomain", ".internal", ".intranet", ".lan", ".home", ".corp", ".arpa"];

/** Why a host name (not an address) may not receive webhooks, or null. */
function nameRefusal(name: string): string | null {
  if (name === "localhost" || LOCAL_SUFFIXES.some((suffix) => name.endsWith(suffix))) return `${name} is a local name; use a public address.`;
  if (!name.includes(".")) return `${name} is a name without a domain, which is looked up inside the network; use a public address.`;
  return null;
}

/** The URL's host without brackets or a trailing dot, lower case ("localhost." is localhost). */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase().replace(/\.+$/, "");
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * The rules a URL must meet to be registered (the address is checked again
 * at delivery). The URL parser has already turned decimal, octal and hex
 * IPv4 hosts (http://2130706433/, 0177.0.0.1) into dotted quads.
 */
export function checkWebhookUrl(raw: string, env: Env = process.env): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: "Enter a full URL, e.g. https://example.com/webhooks/dilution." };
  }
  const allowPrivate = privateTargetsAllowed(env);
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) return { ok: false, reason: "The URL must start with https://." };
  if (url.username || url.password) return { ok: false, reason: "The URL must not contain a user name or password; put a token in its path or query instead." };
  if (url.hash) return { ok: false, reason: "The URL must not contain a #fragment." };
  if (raw.length > 2000) return { ok: false, reason: "The URL is too long (at most 2,000 characters)." };
  if (allowPrivate) return { ok: true, url };
  const host = hostOf(url);
  if (ipaddr.isValid(host)) {
    const refusal = addressRefusal(host);
    return refusal ? { ok: false, reason: `${host} is not a public address (${refusal}); use a public one.` } : { ok: true, url };
  }
  const refusal = nameRefusal(host);
  return refusal ? { ok: false, reason: refusal } : { ok: true, url };
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

export interface PostResult {
  status: number | null;
  error: string | null;
}

/**
 * POSTs the body to the URL, to an address checked after resolving it; any
 * 2xx is success. Nothing of the answer but its status is kept.
 */
export async function postToTarget(
  raw: string,
  headers: Record<string, string>,
  body: string,
  options: { resolver?: Resolver; timeoutMs?: number; env?: Env } = {},
): Promise<PostResult> {
  const check = checkWebhookUrl(raw, options.env);
  if (!check.ok) return { status: null, error: check.reason };
  const { url } = check;
  const host = hostOf(url);
  let addresses: { address: string; family: number }[];
  try {
    addresses = ipaddr.isValid(host) ? [{ address: host, family: ipaddr.parse(host).kind() === "ipv4" ? 4 : 6 }] : await (options.resolver ?? systemResolver)(host);
  } catch (error) {
    return { status: null, error: `could not resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
  if (addresses.length === 0) return { status: null, error: `${host} has no address` };
  if (!privateTargetsAllowed(options.env)) {
    // Every address is checked, not only the one connected to.
    for (const { address } of addresses) {
      const refusal = addressRefusal(address);
      if (refusal) return { status: null, error: `${host} resolves to ${address}, not a public address (${refusal}): not sent` };
    }
  }
  const target = addresses[0]!;
  const client = url.protocol === "https:" ? https : http;
  return new Promise<PostResult>((resolve) => {
    const request = client.request(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
        timeout: options.timeoutMs ?? 10_000,
        // The connection goes to the address checked above, whatever DNS would say now.
        lookup: (_hostname, lookupOptions, callback) => {
          if ((lookupOptions as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
          else callback(null, target.address, target.family);
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? null, error: null }));
        response.on("error", (error) => resolve({ status: response.statusCode ?? null, error: error.message }));
      },
    );
    request.on("timeout", () => request.destroy(new Error(`no answer within ${(options.timeoutMs ?? 10_000) / 1000} s`)));
    request.on("error", (error) => resolve({ status: null, error: error.message }));
    request.end(body);
  });
}
