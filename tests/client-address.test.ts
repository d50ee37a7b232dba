import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { resolveClientAddress, stampClientAddress, trustFromEnv, type Trust } from "../scripts/client-address.mjs";
import { clientIp } from "@/lib/utils/client-ip";

/**
 * The server's address rule with real sockets: connections come from
 * different loopback addresses (127.0.0.2, 127.0.0.3), and each request
 * carries the forwarding headers a client might forge.
 */
const HEADER = "x-client-address-test";
let server: Server | undefined;

afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server that stamps like scripts/server.mjs and answers what the app would read. */
async function start(trust: Trust): Promise<number> {
  server = createServer((req, res) => {
    stampClientAddress(req, trust, HEADER);
    const headers = new Headers(Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v] as [string, string]] : [])));
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ ip: clientIp(headers, HEADER), host: req.headers["x-forwarded-host"] ?? null, proto: req.headers["x-forwarded-proto"] ?? null }));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

function get(port: number, from: string, headers: Record<string, string> = {}): Promise<{ ip: string; host: string | null; proto: string | null }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/", localAddress: from, headers }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve(JSON.parse(body)));
    });
    req.on("error", reject);
    req.end();
  });
}

const FORGED = { "x-forwarded-for": "6.6.6.6", "x-real-ip": "6.6.6.7", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https", [HEADER]: "6.6.6.8" };

describe("the client address, by default", () => {
  it("is the socket's peer, whatever the client claims, and forged forwarding headers are dropped", async () => {
    const port = await start(trustFromEnv({}));
    expect(await get(port, "127.0.0.2", FORGED)).toEqual({ ip: "127.0.0.2", host: null, proto: null });
    expect(await get(port, "127.0.0.3", FORGED)).toEqual({ ip: "127.0.0.3", host: null, proto: null });
    expect(await get(port, "127.0.0.3")).toEqual({ ip: "127.0.0.3", host: null, proto: null });
  });
});

describe("behind one reverse proxy (TRUSTED_PROXY_HOPS=1)", () => {
  it("is the address the proxy appended, not what the client wrote before it", async () => {
    const port = await start(trustFromEnv({ TRUSTED_PROXY_HOPS: "1" }));
    const viaProxy = await get(port, "127.0.0.2", { "x-forwarded-for": "6.6.6.6, 203.0.113.7", "x-forwarded-host": "api.example.com", "x-forwarded-proto": "https" });
    expect(viaProxy).toEqual({ ip: "203.0.113.7", host: "api.example.com", proto: "https" });
    // Without the header (a request that skipped the proxy) the peer is all there is.
    expect((await get(port, "127.0.0.3")).ip).toBe("127.0.0.3");
  });
});

describe("behind named proxies (TRUSTED_PROXIES)", () => {
  it("walks back past our proxies only; a client connecting directly cannot claim an address", async () => {
    const port = await start(trustFromEnv({ TRUSTED_PROXIES: "127.0.0.2, 10.0.0.0/8" }));
    expect(await get(port, "127.0.0.2", { "x-forwarded-for": "6.6.6.6, 198.51.100.9, 10.1.2.3", "x-forwarded-host": "api.example.com" })).toEqual({
      ip: "198.51.100.9",
      host: "api.example.com",
      proto: null,
    });
    expect(await get(port, "127.0.0.3", FORGED)).toEqual({ ip: "127.0.0.3", host: null, proto: null });
  });
});

describe("the trust settings", () => {
  it("are refused when malformed, with the reason", () => {
    expect(() => trustFromEnv({ TRUSTED_PROXY_HOPS: "two" })).toThrow(/TRUSTED_PROXY_HOPS/);
    expect(() => trustFromEnv({ TRUSTED_PROXIES: "10.0.0.0/33" })).toThrow(/not an IP address or CIDR/);
    expect(() => trustFromEnv({ TRUSTED_PROXIES: "proxy.internal" })).toThrow(/not an IP address or CIDR/);
    expect(() => trustFromEnv({ TRUSTED_PROXY_HOPS: "1", TRUSTED_PROXIES: "10.0.0.1" })).toThrow(/not both/);
  });

  it("match IPv6 ranges and write IPv4-mapped peers as IPv4", () => {
    const trust = trustFromEnv({ TRUSTED_PROXIES: "fd00::/8" });
    expect(resolveClientAddress("fd00::1", "2001:db8::5", trust).address).toBe("2001:db8::5");
    expect(resolveClientAddress("::ffff:127.0.0.4", "6.6.6.6", trustFromEnv({})).address).toBe("127.0.0.4");
  });
});
