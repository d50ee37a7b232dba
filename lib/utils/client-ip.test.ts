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
});
