import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { classifyError, DomainError, ServiceUnavailable } from "./errors";

const words = { invalid: "Check it.", unavailable: "Down, try again.", internal: "Our fault.", log: "[test] failed:" };

describe("classifyError, what a person is told about a thrown error", () => {
  afterEach(() => vi.restoreAllMocks());

  it("quotes a zod refusal's first issue, and the first message of each field", () => {
    const parsed = z.object({ name: z.string().min(1, "Name it."), age: z.number({ error: "A number." }) }).safeParse({ name: "", age: "x" });
    expect(classifyError(parsed.error, words)).toEqual({ status: 400, code: "invalid_input", message: "Name it.", fieldErrors: { name: "Name it.", age: "A number." } });
  });

  it("passes a DomainError's code and message on", () => {
    expect(classifyError(new DomainError("unknown_key", "No such key."), words)).toEqual({ status: 400, code: "unknown_key", message: "No such key." });
  });

  it("answers an outage with the caller's words and 503, whether thrown as such or by a driver", () => {
    expect(classifyError(new ServiceUnavailable("redis"), words)).toEqual({ status: 503, code: "service_unavailable", message: "Down, try again." });
    expect(classifyError(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }), words).status).toBe(503);
  });

  it("recognises an outage thrown by another copy of this module (a bundle's), and ioredis's refusal while Redis is away", () => {
    const foreign = Object.assign(new Error("redis unavailable", { cause: new Error("Stream isn't writeable and enableOfflineQueue options is false") }), { name: "ServiceUnavailable" });
    expect(classifyError(foreign, words)).toMatchObject({ status: 503, code: "service_unavailable", message: "Down, try again." });
    expect(classifyError(new Error("Stream isn't writeable and enableOfflineQueue options is false"), words)).toMatchObject({ status: 503 });
  });

  it("logs anything else under the caller's prefix and never shows it", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(classifyError(new Error("secret stack detail"), words)).toEqual({ status: 500, code: "internal_error", message: "Our fault." });
    expect(log).toHaveBeenCalledWith("[test] failed:", "secret stack detail");
  });
});
