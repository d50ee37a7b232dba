import { describe, expect, it } from "vitest";
import { ipAllowed, parseIp, parseIpRange, type IpRange } from "./ip-ranges";

function ranges(...texts: string[]): IpRange[] {
  return texts.map((text) => {
    const result = parseIpRange(text);
    if (!result.ok) throw new Error(result.reason);
    return result.range;
  });
}

describe("IP ranges", () => {
  it("matches IPv4 addresses and CIDR ranges at their edges", () => {
    const list = ranges("203.0.113.7", "198.51.100.0/24", "10.0.0.0/8");
    expect(ipAllowed(list, "203.0.113.7")).toBe(true);
    expect(ipAllowed(list, "203.0.113.8")).toBe(false);
    expect(ipAllowed(list, "198.51.100.0")).toBe(true);
    expect(ipAllowed(list, "198.51.100.255")).toBe(true);
    expect(ipAllowed(list, "198.51.101.0")).toBe(false);
    expect(ipAllowed(list, "198.51.99.255")).toBe(false);
    expect(ipAllowed(list, "10.255.255.255")).toBe(true);
    expect(ipAllowed(list, "11.0.0.0")).toBe(false);
  });

  it("matches IPv6 addresses and ranges, in any spelling", () => {
    const list = ranges("2001:db8:abcd::/48", "2001:DB8::1");
    expect(ipAllowed(list, "2001:db8:abcd:ffff:ffff:ffff:ffff:ffff")).toBe(true);
    expect(ipAllowed(list, "2001:0db8:abcd:0000:0000:0000:0000:0001")).toBe(true);
    expect(ipAllowed(list, "2001:db8:abce::")).toBe(false);
    expect(ipAllowed(list, "2001:db8:0:0:0:0:0:1")).toBe(true);
    expect(ipAllowed(list, "2001:db8::2")).toBe(false);
    expect(ipAllowed(list, "fe80::1%eth0")).toBe(false);
    expect(ranges("::/0")[0]!.text).toBe("::/0");
    expect(ipAllowed(ranges("::/0"), "2001:db8::9")).toBe(true);
    expect(ipAllowed(ranges("::/0"), "192.0.2.1")).toBe(false);
  });

  it("treats an IPv4-mapped IPv6 address as the IPv4 address", () => {
    expect(ipAllowed(ranges("192.0.2.0/24"), "::ffff:192.0.2.44")).toBe(true);
    expect(ipAllowed(ranges("192.0.2.0/24"), "::ffff:c000:22c")).toBe(true);
    expect(ipAllowed(ranges("::ffff:192.0.2.0/120"), "192.0.2.9")).toBe(true);
    expect(parseIp("::ffff:192.0.2.1")).toEqual({ version: 4, value: 0xc0000201n });
  });

  it("refuses what is not an address or a range, saying why", () => {
    expect(parseIpRange("10.0.0.5/24")).toEqual({ ok: false, reason: "“10.0.0.5/24” has host bits set; the range it is in is 10.0.0.0/24" });
    expect(parseIpRange("2001:db8::1/32")).toMatchObject({ ok: false, reason: expect.stringContaining("2001:db8::/32") });
    expect(parseIpRange("10.0.0.0/33")).toMatchObject({ ok: false, reason: expect.stringContaining("0–32") });
    expect(parseIpRange("2001:db8::/129")).toMatchObject({ ok: false });
    expect(parseIpRange("256.1.1.1")).toMatchObject({ ok: false, reason: expect.stringContaining("not an IPv4 or IPv6 address") });
    expect(parseIpRange("example.com")).toMatchObject({ ok: false });
    expect(parseIpRange("1.2.3.0/24/1")).toMatchObject({ ok: false });
    expect(parseIpRange("1.2.3.0/")).toMatchObject({ ok: false });
  });

  it("writes ranges canonically", () => {
    expect(ranges("2001:0DB8:0000:0000:0000:0000:0000:0000/32", "192.0.2.1/32", "2001:db8:0:1:0:0:0:0/64")!.map((r) => r.text)).toEqual([
      "2001:db8::/32",
      "192.0.2.1",
      "2001:db8:0:1::/64",
    ]);
  });

  it("lets nothing through from an unknown address", () => {
    expect(ipAllowed(ranges("0.0.0.0/0"), null)).toBe(false);
    expect(ipAllowed(ranges("0.0.0.0/0"), "unknown")).toBe(false);
    expect(ipAllowed(ranges("0.0.0.0/0"), "203.0.113.1")).toBe(true);
  });
});
