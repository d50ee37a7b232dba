import { describe, expect, it } from "vitest";
import { clientIp } from "./client-ip";

describe("clientIp", () => {
  const ip = (headers: Record<string, string>, hops?: number) => clientIp(new Headers(headers), hops);

  it("takes the address our proxy appended, not the ones the client wrote before it", () => {
    expect(ip({ "x-forwarded-for": "6.6.6.6, 203.0.113.7" })).toBe("203.0.113.7");
    expect(ip({ "x-forwarded-for": "6.6.6.6, 203.0.113.7, 10.0.0.2" }, 2)).toBe("203.0.113.7");
    expect(ip({ "x-forwarded-for": "203.0.113.7" }, 3)).toBe("203.0.113.7");
  });

  it("falls back to X-Real-IP, then to unknown", () => {
    expect(ip({ "x-real-ip": "198.51.100.2" })).toBe("198.51.100.2");
    expect(ip({ "x-forwarded-for": " , " })).toBe("unknown");
    expect(ip({})).toBe("unknown");
  });

  it("writes an IPv4 client on a dual-stack socket as plain IPv4", () => {
    expect(ip({ "x-forwarded-for": "::ffff:127.0.0.1" })).toBe("127.0.0.1");
    expect(ip({ "x-forwarded-for": "2001:db8::1" })).toBe("2001:db8::1");
  });
});
