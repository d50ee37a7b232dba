import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { ipAllowed, parseIpRange, type IpRange } from "@/lib/utils/ip-ranges";

/**
 * Where a webhook may be sent: an https URL whose host is not, and does not
 * resolve to, a loopback, private, link-local, shared, multicast or cloud
 * metadata address. The URL is checked when it is registered and the
 * addresses again at every delivery, after DNS, and the connection goes to
 * the address that was checked (so a name cannot resolve to a public address
 * for the check and a private one for the request).
 *
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=1 lifts both rules (http and local
 * addresses): for tests and local development only, never in production.
 */
const FORBIDDEN: IpRange[] = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10", // shared address space (carrier NAT; Alibaba's metadata service)
  "127.0.0.0/8",
  "169.254.0.0/16", // link-local, with the AWS/GCP/Azure metadata service at 169.254.169.254
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.168.0.0/16",
  "198.18.0.0/15",
  "224.0.0.0/4",
  "240.0.0.0/4",
  "::/128",
  "::1/128",
  "64:ff9b::/96", // NAT64: an IPv4 address in disguise
  "fc00::/7", // unique local, with AWS's IPv6 metadata service at fd00:ec2::254
  "fe80::/10",
  "ff00::/8",
].map((text) => {
  const parsed = parseIpRange(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.range;
});

type Env = Record<string, string | undefined>;

export function privateTargetsAllowed(env: Env = process.env): boolean {
  return env.WEBHOOK_ALLOW_PRIVATE_TARGETS === "1";
}

export function isForbiddenAddress(address: string): boolean {
  return ipAllowed(FORBIDDEN, address) || isIP(address.split("%")[0]!) === 0;
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** The rules a URL must meet to be registered (the address is checked again at delivery). */
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
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (!allowPrivate) {
    if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal") || host.endsWith(".local")) {
      return { ok: false, reason: `${host} is a local name; use a public address.` };
    }
    if (isIP(host) && isForbiddenAddress(host)) return { ok: false, reason: `${host} is a private, local or metadata address; use a public one.` };
  }
  return { ok: true, url };
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
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await (options.resolver ?? systemResolver)(host);
  } catch (error) {
    return { status: null, error: `could not resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
  if (addresses.length === 0) return { status: null, error: `${host} has no address` };
  if (!privateTargetsAllowed(options.env)) {
    const forbidden = addresses.find((a) => isForbiddenAddress(a.address));
    if (forbidden) return { status: null, error: `${host} resolves to ${forbidden.address}, a private, local or metadata address: not sent` };
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
