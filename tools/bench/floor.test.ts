import { getAccessFallbackHTTPStatus, isHTTPAccessFallbackError } from "next/dist/client/components/http-access-fallback/http-access-fallback";
import { afterEach, describe, expect, it } from "vitest";
import { GET } from "@/app/bench/floor/route";

describe("the bench's floor route (app/bench/floor)", () => {
  const saved = process.env.BENCH_FLOOR;
  afterEach(() => {
    if (saved === undefined) delete process.env.BENCH_FLOOR;
    else process.env.BENCH_FLOOR = saved;
  });

  it("is an unknown path (notFound) unless the server was started with BENCH_FLOOR=1", () => {
    for (const value of [undefined, "", "0", "true"]) {
      if (value === undefined) delete process.env.BENCH_FLOOR;
      else process.env.BENCH_FLOOR = value;
      let thrown: unknown;
      try {
        GET();
      } catch (error) {
        thrown = error;
      }
      // What Next turns into the 404 of an unknown path.
      expect(isHTTPAccessFallbackError(thrown) && getAccessFallbackHTTPStatus(thrown), `BENCH_FLOOR=${value}`).toBe(404);
    }
  });

  it("answers a constant JSON with BENCH_FLOOR=1", async () => {
    process.env.BENCH_FLOOR = "1";
    const response = GET();
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"status":"ok"}');
  });
});
