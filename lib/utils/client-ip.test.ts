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
