import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { checkWebhookUrl, isForbiddenAddress, postToTarget, type Resolver } from "./targets";

const PRODUCTION = {};
const TESTING = { WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" };
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

/** A local receiver that counts its requests and answers with `respond`. */
async function receiver(respond: (res: ServerResponse) => void = (res) => res.end("ok")) {
  const state = { hits: 0, port: 0 };
  const server = createServer((_req, res) => {
    state.hits++;
    respond(res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.port = (server.address() as AddressInfo).port;
  return state;
}

/**
 * Destinations a hostile customer could register to make our servers call
 * the inside: each is refused with the test-only setting unset.
 */
const HOSTILE: [url: string, what: string][] = [
  ["https://[::127.0.0.1]/", "IPv4-compatible loopback"],
  ["https://[::ffff:0:7f00:1]/", "IPv4-translated loopback"],
  ["https://[2002:7f00:1::]/", "6to4 of 127.0.0.1"],
  ["https://localhost./", "localhost with a trailing dot"],
  ["https://LOCALHOST../", "localhost with two trailing dots"],
  ["https://[::ffff:127.0.0.1]/", "IPv4-mapped loopback"],
  ["https://[::ffff:a9fe:a9fe]/", "IPv4-mapped metadata service"],
  ["https://[::ffff:10.0.0.1]/", "IPv4-mapped private"],
  ["https://[64:ff9b::7f00:1]/", "NAT64 of loopback"],
  ["https://[64:ff9b::a9fe:a9fe]/", "NAT64 of the metadata service"],
  ["https://[64:ff9b:1::a00:1]/", "local-use NAT64"],
  ["https://[2002:a9fe:a9fe::1]/", "6to4 of the metadata service"],
  ["https://[2002:c0a8:101::]/", "6to4 of 192.168.1.1"],
  ["https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "Teredo"],
  ["https://[fe80::1]/", "IPv6 link-local"],
  ["https://[fd00:ec2::254]/", "AWS metadata over IPv6 (unique-local)"],
  ["https://[fc00::1]/", "unique-local"],
  ["https://[ff02::1]/", "IPv6 multicast"],
  ["https://[::1]/", "IPv6 loopback"],
  ["https://[::]/", "IPv6 unspecified"],
  ["https://[2001:db8::1]/", "IPv6 documentation range"],
  ["https://2130706433/", "decimal IPv4 of 127.0.0.1"],
  ["https://0177.0.0.1/", "octal IPv4 of 127.0.0.1"],
  ["https://0x7f.0.0.1/", "hex IPv4 of 127.0.0.1"],
  ["https://0x7f000001/", "one hex number for 127.0.0.1"],
  ["https://127.1/", "shortened loopback"],
  ["https://0/", "0.0.0.0"],
  ["https://169.254.169.254/latest/meta-data", "AWS/GCP/Azure metadata service"],
  ["https://100.100.100.200/", "Alibaba metadata (carrier-grade NAT)"],
  ["https://100.64.0.1/", "carrier-grade NAT"],
  ["https://192.0.0.192/", "Oracle Cloud metadata (reserved)"],
  ["https://168.63.129.16/", "Azure WireServer"],
  ["https://10.0.0.1/", "private 10/8"],
  ["https://172.16.0.1/", "private 172.16/12"],
  ["https://192.168.0.1/", "private 192.168/16"],
  ["https://224.0.0.1/", "IPv4 multicast"],
  ["https://255.255.255.255/", "broadcast"],
  ["https://240.0.0.1/", "reserved 240/4"],
  ["https://198.18.0.1/", "benchmarking"],
  ["https://api.localhost/", "a .localhost name"],
  ["https://metadata.google.internal./", "GCP metadata name with a trailing dot"],
  ["https://printer.local/", "an mDNS name"],
  ["https://intranet/", "a name without a domain"],
  ["https://1.1.1.1.in-addr.arpa/", "an .arpa name"],
  ["https://%6c%6fcalhost/", "percent-encoded localhost"],
  ["https://ｌｏｃａｌｈｏｓｔ/", "full-width localhost"],
  ["https://user:pass@hooks.example.com/", "credentials in the URL"],
  ["https://hooks.example.com@127.0.0.1/", "a public name as the user name of a loopback URL"],
  ["http://hooks.example.com/", "plain http"],
];

describe("webhook targets", () => {
  it(`refuse ${HOSTILE.length} hostile destinations at registration`, () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(30);
    const accepted = HOSTILE.filter(([url]) => checkWebhookUrl(url, PRODUCTION).ok).map(([url, what]) => `${url} (${what})`);
    expect(accepted).toEqual([]);
  });

  it("say why a URL is refused", () => {
    for (const [url, reason] of [
      ["http://hooks.example.com/", "https://"],
      ["https://user:pass@hooks.example.com/", "user name or password"],
      ["https://localhost./hook", "localhost is a local name"],
      ["https://metadata.google.internal/computeMetadata", "local name"],
      ["https://intranet/", "name without a domain"],
      ["https://127.0.0.1/hook", "127.0.0.1 is not a public address (loopback)"],
      ["https://2130706433/", "127.0.0.1 is not a public address (loopback)"],
      ["https://169.254.169.254/latest/meta-data", "link-local, where the cloud metadata service lives"],
      ["https://[2002:7f00:1::]/", "2002:7f00:1:: is not a public address (loopback: it carries 127.0.0.1)"],
      ["https://[::ffff:0:7f00:1]/", "IPv4-translated"],
      ["https://[::127.0.0.1]/", "not global unicast"],
      ["https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "Teredo"],
      ["not a url", "full URL"],
    ] as const) {
      const result = checkWebhookUrl(url, PRODUCTION);
      expect(result.ok, url).toBe(false);
      expect(!result.ok && result.reason, url).toContain(reason);
    }
  });

  it("accept public names and addresses, also a public IPv4 address carried in NAT64 or 6to4", () => {
    for (const url of [
      "https://hooks.example.com/dilution?token=x",
      "https://hooks.example.com./dilution",
      "https://93.184.215.14/",
      "https://[2606:4700::6810:84e5]/",
      "https://[::ffff:93.184.215.14]/",
      "https://[64:ff9b::5db8:d70e]/",
      "https://[2002:5db8:d70e::1]/",
      "https://172.32.0.1/",
      "https://100.128.0.1/",
    ]) {
      expect(checkWebhookUrl(url, PRODUCTION), url).toMatchObject({ ok: true });
    }
    expect(checkWebhookUrl("http://127.0.0.1:9999/hook", TESTING)).toMatchObject({ ok: true });
  });

  it("classify resolved addresses the same way", () => {
    for (const address of ["127.0.0.1", "10.0.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.100.100.200", "0.0.0.0", "224.0.0.1", "::1", "fe80::1", "fe80::1%eth0", "fd00:ec2::254", "::ffff:10.0.0.1", "64:ff9b::a00:1", "::7f00:1", "2002:a00:1::", "not-an-address"]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
    for (const address of ["93.184.215.14", "172.32.0.1", "2606:4700::6810:84e5", "100.128.0.1", "64:ff9b::5db8:d70e"]) expect(isForbiddenAddress(address), address).toBe(false);
  });

  it("check every resolved address at delivery: a public name with one private address among public ones is not sent", async () => {
    const target = await receiver();
    const hostile = ["127.0.0.1", "::ffff:127.0.0.1", "2002:7f00:1::", "64:ff9b::7f00:1", "169.254.169.254", "fd00:ec2::254"];
    for (const address of hostile) {
      const resolver: Resolver = async () => [
        { address: "93.184.215.14", family: 4 },
        { address, family: address.includes(":") ? 6 : 4 },
      ];
      const refused = await postToTarget(`https://hooks.example.com:${target.port}/`, {}, "{}", { resolver, env: PRODUCTION });
      expect(refused.status, address).toBeNull();
      expect(refused.error, address).toMatch(new RegExp(`^hooks\\.example\\.com resolves to ${address.replaceAll(".", "\\.")}, not a public address \\(.+\\): not sent$`));
    }
    // A URL stored before these rules (or written to the table by hand) is checked again when it is sent.
    expect(await postToTarget(`https://[::ffff:0:7f00:1]:${target.port}/`, {}, "{}", { env: PRODUCTION })).toMatchObject({ status: null, error: expect.stringContaining("IPv4-translated") });
    expect(target.hits).toBe(0);
  });

  it("connect to the address that was checked, resolving the name once", async () => {
    const target = await receiver();
    let lookups = 0;
    // A rebinding name: the first answer is the receiver, any later one an address nothing listens on.
    const rebinding: Resolver = async () => (lookups++ === 0 ? [{ address: "127.0.0.1", family: 4 }] : [{ address: "10.255.255.1", family: 4 }]);
    const sent = await postToTarget(`http://receiver.test:${target.port}/`, {}, "{}", { resolver: rebinding, env: TESTING, timeoutMs: 2000 });
    expect(sent).toEqual({ status: 200, error: null });
    expect(lookups).toBe(1);
    expect(target.hits).toBe(1);
  });

  it("do not follow redirects: a 3xx is the answer, and where it points is never asked", async () => {
    const inside = await receiver();
    const outside = await receiver((res) => {
      res.statusCode = 302;
      res.setHeader("location", `http://127.0.0.1:${inside.port}/latest/meta-data`);
      res.end();
    });
    const result = await postToTarget(`http://127.0.0.1:${outside.port}/hook`, {}, "{}", { env: TESTING });
    expect(result).toEqual({ status: 302, error: null });
    expect(outside.hits).toBe(1);
    expect(inside.hits).toBe(0);
  });
});
