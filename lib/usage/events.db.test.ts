import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceUnavailable } from "@/lib/errors";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { UsageEventRecorder, type FailedRequest } from "./events";

let t: Testbed;
beforeAll(async () => {
  t = await openApiTestbed({ tickerCount: 2 });
}, 120_000);
afterAll(() => t?.close());

describe("usage events of requests refused during an outage", () => {
  it("are held while the database is down and written once it answers, skipping one that had reached it already", async () => {
    const org = await t.org({ dollars: "0" });
    const event = (requestId: string): FailedRequest => ({
      orgId: org.id,
      keyId: org.keyId,
      endpoint: "dilution-rating",
      tickers: ["ZVTX"],
      statusCode: 503,
      errorCode: "service_unavailable",
      bytes: 200,
      requestId,
      now: new Date(),
    });
    let down = true;
    const flaky = {
      usageEvent: {
        create: (args: Parameters<typeof t.prisma.usageEvent.create>[0]) => (down ? Promise.reject(new ServiceUnavailable("database")) : t.prisma.usageEvent.create(args)),
        createMany: (args: Parameters<typeof t.prisma.usageEvent.createMany>[0]) => (down ? Promise.reject(new ServiceUnavailable("database")) : t.prisma.usageEvent.createMany(args)),
      },
    } as unknown as typeof t.prisma;
    const logs: string[] = [];
    const recorder = new UsageEventRecorder(flaky, (line) => logs.push(line));
    const ids = ["11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222", "33333333-3333-4333-8333-333333333333"];
    for (const id of ids) await recorder.record(event(id));
    expect(recorder.pending).toEqual({ held: 3, lost: 0 });
    expect(await recorder.flush()).toBe(false); // still down: kept
    expect(recorder.pending.held).toBe(3);

    // One of them reached the database just as the connection died.
    await t.prisma.usageEvent.create({ data: { orgId: org.id, apiKeyId: org.keyId, endpoint: "dilution-rating", tickers: [], statusCode: 503, errorCode: "service_unavailable", bytes: 200, costNanos: 0n, requestId: ids[0]! } });
    down = false;
    expect(await recorder.flush()).toBe(true);
    expect(recorder.pending).toEqual({ held: 0, lost: 0 });
    expect(await t.prisma.usageEvent.count({ where: { requestId: { in: ids } } })).toBe(3);
    expect(logs).toContain("[usage] wrote 2 usage event(s) held during an outage");
  });
});
