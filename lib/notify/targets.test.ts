import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { checkWebhookUrl, isForbiddenAddress, postToTarget } from "./targets";

const PRODUCTION = {};
const TESTING = { WEBHOOK_ALLOW_PRIVATE_TARGETS: "1" };
let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe("webhook targets", () => {
  it("accepts public https URLs only", () => {
    expect(checkWebhookUrl("https://hooks.example.com/dilution?token=x", PRODUCTION)).toMatchObject({ ok: true });
    for (const [url, reason] of [
      ["http://hooks.example.com/", "https://"],
      ["https://user:pass@hooks.example.com/", "user name or password"],
      ["https://localhost/hook", "local name"],
      ["https://metadata.google.internal/computeMetadata", "local name"],
      ["https://127.0.0.1/hook", "private, local or metadata"],
      ["https://169.254.169.254/latest/meta-data", "private, local or metadata"],
      ["https://10.1.2.3/", "private"],
      ["https://[::1]/", "private"],
      ["https://[fd00:ec2::254]/", "private"],
      ["https://[::ffff:192.168.0.1]/", "private"],
      ["not a url", "full URL"],
    ] as const) {
      const result = checkWebhookUrl(url, PRODUCTION);
      expect(result.ok, url).toBe(false);
      expect(!result.ok && result.reason, url).toContain(reason);
    }
    expect(checkWebhookUrl("http://127.0.0.1:9999/hook", TESTING)).toMatchObject({ ok: true });
  });

  it("knows the loopback, private, link-local, shared, multicast and metadata ranges", () => {
    for (const address of ["127.0.0.1", "10.0.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.100.100.200", "0.0.0.0", "224.0.0.1", "::1", "fe80::1", "fd00:ec2::254", "::ffff:10.0.0.1", "64:ff9b::a00:1"]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
    for (const address of ["93.184.215.14", "172.32.0.1", "2606:4700::6810:84e5", "100.128.0.1"]) expect(isForbiddenAddress(address), address).toBe(false);
  });

  it("checks the resolved addresses at delivery: a public name that resolves to a private address is not sent", async () => {
    let hits = 0;
    server = createServer((_req, res) => {
      hits++;
      res.end("ok");
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const rebinding = async () => [{ address: "127.0.0.1", family: 4 }];
    // The https URL passes the registration rules; its name resolves to loopback at delivery.
    const refused = await postToTarget(`https://hooks.example.com:${port}/`, {}, "{}", { resolver: rebinding, env: PRODUCTION });
    expect(refused).toEqual({ status: null, error: "hooks.example.com resolves to 127.0.0.1, a private, local or metadata address: not sent" });
    expect(hits).toBe(0);
    // With the test-only setting the same local receiver is reached, at the address that was checked.
    const sent = await postToTarget(`http://receiver.test:${port}/`, {}, "{}", { resolver: rebinding, env: TESTING });
    expect(sent).toEqual({ status: 200, error: null });
    expect(hits).toBe(1);
  });
});
