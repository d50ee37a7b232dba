import { describe, expect, it } from "vitest";
import { clientIp } from "./client-ip";

describe("clientIp", () => {
  const HEADER = "x-client-address-0123456789abcdef";

  it("reads only the header our server stamped, under the name it chose", () => {
    const headers = new Headers({ [HEADER]: "203.0.113.7", "x-forwarded-for": "6.6.6.6", "x-real-ip": "6.6.6.7" });
    expect(clientIp(headers, HEADER)).toBe("203.0.113.7");
  });

  it("never believes forwarding headers a client wrote", () => {
    expect(clientIp(new Headers({ "x-forwarded-for": "6.6.6.6", "x-real-ip": "6.6.6.7" }), HEADER)).toBe("unknown");
    expect(clientIp(new Headers({ "x-forwarded-for": "6.6.6.6" }), undefined)).toBe("unknown");
  });
});

describe("addressBucket", () => {
  it("counts an IPv6 client by its /64 and an IPv4 client by its address", async () => {
    const { addressBucket } = await import("./client-ip");
    expect(addressBucket("2001:db8:0:1:aaaa::1")).toBe("2001:db8:0:1::/64");
    expect(addressBucket("2001:db8:0:1:ffff:ffff:ffff:ffff")).toBe("2001:db8:0:1::/64");
    expect(addressBucket("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressBucket("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressBucket("203.0.113.7")).toBe("203.0.113.7");
    expect(addressBucket("unknown")).toBe("unknown");
  });

  it("counts an IPv4 client that arrives IPv4-mapped as that IPv4 address, not as one shared IPv6 network", async () => {
    const { addressBucket } = await import("./client-ip");
    expect(addressBucket("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressBucket("::FFFF:cb00:7107")).toBe("203.0.113.7");
    expect(addressBucket("::ffff:198.51.100.1")).not.toBe(addressBucket("::ffff:198.51.100.2"));
    // Not mapped: the IPv4-compatible and 6to4 forms are IPv6 networks like any other.
    expect(addressBucket("::203.0.113.7")).toBe("0:0:0:0::/64");
    expect(addressBucket("2002:cb00:7107::1")).toBe("2002:cb00:7107:0::/64");
    // What is not an address stays its own bucket rather than joining another's.
    expect(addressBucket("1::2::3")).toBe("1::2::3");
  });
});
