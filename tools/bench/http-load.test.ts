import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseDollars } from "@/lib/money";
import { responseHeader, runHttpLoad } from "./http-load";

/**
 * The HTTP bench's money checks need every request it sends answered, the
 * last ones included: a slow server shows whether the end of a run cuts
 * requests off (the server would have done work the bench never saw).
 */
describe("the HTTP load of npm run bench -- --http", () => {
  let server: Server;
  let url: string;
  const received = new Map<string, number>();
  let chargedNanos = 0n;

  beforeAll(async () => {
    server = createServer((request, response) => {
      const key = String(request.headers["api-key"]);
      received.set(key, (received.get(key) ?? 0) + 1);
      chargedNanos += 17_664n;
      setTimeout(() => response.writeHead(200, { "X-Cost-Dollars": "$0.000017664", "Content-Type": "application/json" }).end("{}"), 5 + Math.random() * 40);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("answers every request it sent, rotates the keys per connection and hands each answer's headers to its request", async () => {
    const keys = ["a", "b", "c", "d"];
    const seen = new Map<string, { answers: number; nanos: bigint }>();
    const run = await runHttpLoad({
      urls: [url],
      connections: 8,
      seconds: 0.5,
      requestsFor: (connection) =>
        keys.map((_, i) => {
          const key = keys[(connection + i) % keys.length]!;
          return {
            path: `/v1/thing?n=${i}`,
            headers: { "API-KEY": key },
            onAnswer: (status, headers) => {
              const tally = seen.get(key) ?? { answers: 0, nanos: 0n };
              tally.answers += status === 200 ? 1 : 0;
              tally.nanos += parseDollars(String(responseHeader(headers, "x-cost-dollars")));
              seen.set(key, tally);
            },
          };
        }),
    });
    expect(run.errors).toBe(0);
    expect(run.answered).toBe(run.sent);
    expect(run.answered).toBeGreaterThan(40);
    expect([...run.statuses]).toEqual([[200, run.answered]]);
    expect(run.latencies).toHaveLength(run.answered);
    // Nothing in flight was cut off: the server saw exactly what was answered, key by key.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(new Map([...seen].map(([key, tally]) => [key, tally.answers]))).toEqual(received);
    expect([...seen.values()].reduce((sum, tally) => sum + tally.nanos, 0n)).toBe(chargedNanos);
    expect(received.size).toBe(keys.length);
  });
});
