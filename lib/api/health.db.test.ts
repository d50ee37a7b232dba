import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { isPostgres, openTestDatabase } from "@/tests/support/database";
import { canRunServers, ScratchRedis } from "@/tests/support/servers";
import { DatabaseRateLimiter, RedisRateLimiter } from "@/lib/rate-limit";
import { connectRedis } from "@/lib/runtime/rate-limiter";
import { createApiContext } from "./context";
import { handleApiRequest } from "./handler";
import { chicagoDay, chicagoDayEnd } from "./trial";

const get = (path: string, ctx: Parameters<typeof handleApiRequest>[1]) => handleApiRequest(new Request(`http://api.test${path}`), ctx);

/** A TCP proxy to PostgreSQL that a test can cut and restore, to play an outage. */
function outageProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  return {
    port,
    async up() {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("close", () => sockets.delete(s));
          s.on("error", () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
    },
    async down() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    },
  };
}

describe("/health", () => {
  const clients: PrismaClient[] = [];
  afterAll(async () => {
    for (const c of clients) await c.$disconnect().catch(() => {});
  });

  it("answers 503 service_unavailable when the database is unreachable", async () => {
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: "postgresql://postgres@127.0.0.1:1/none", connectionTimeoutMillis: 500 }) });
    clients.push(prisma);
    const response = await get("/health", createApiContext(prisma));
    expect(response.status).toBe(503);
    const body = await response.json();
    expect(body).toMatchObject({ status: "error", error: { code: "service_unavailable", details: {} } });
    expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|at /);
  });

  it("names Redis when the rate limits live there: ok while it answers, degraded (200, naming it, no internal cause) while it is down", async () => {
    const database = await openTestDatabase();
    const prisma = database.prisma;
    const up = await get("/health", createApiContext(prisma, { rateLimiter: new DatabaseRateLimiter(prisma) }));
    expect(await up.json()).not.toHaveProperty("redis");

    // A running Redis too, where this machine has redis-server (CI does: tests/faults.test.ts requires it there).
    if (canRunServers()) {
      const scratch = await ScratchRedis.start();
      const live = connectRedis(scratch.url, () => {});
      await new Promise<void>((resolve) => (live.status === "ready" ? resolve() : live.once("ready", () => resolve())));
      const ok = await (await get("/health", createApiContext(prisma, { rateLimiter: new RedisRateLimiter(live) }))).json();
      expect(ok).toMatchObject({ status: "ok", database: { status: "ok" }, redis: { status: "ok" } });
      live.disconnect();
      await scratch.down();
    }

    const dead = connectRedis("redis://127.0.0.1:1", () => {});
    const response = await get("/health", createApiContext(prisma, { rateLimiter: new RedisRateLimiter(dead) }));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ status: "degraded", database: { status: "ok" }, redis: { status: "unavailable" } });
    expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|writeable/);
    dead.disconnect();
    await database.close();
  });

  it("answers 503 when the application cannot open its database at all", async () => {
    const response = await get("/health", () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })));
    expect(response.status).toBe(503);
  });

  it.runIf(isPostgres())("recovers by itself when the database comes back", async () => {
    const target = new URL(process.env.TEST_DATABASE_URL!);
    const proxy = outageProxy(target);
    await proxy.up();
    const url = new URL(target);
    url.host = `127.0.0.1:${proxy.port}`;
    const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url.toString(), connectionTimeoutMillis: 1000, max: 2 }) });
    clients.push(prisma);
    const ctx = createApiContext(prisma);
    expect((await get("/health", ctx)).status).toBe(200);
    await proxy.down();
    expect((await get("/health", ctx)).status).toBe(503);
    await proxy.up();
    let status = 0;
    for (let attempt = 0; attempt < 10 && status !== 200; attempt++) {
      status = (await get("/health", ctx)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
    await proxy.down();
  });
});

describe("the trial day", () => {
  it("ends at midnight in Chicago, summer and winter", () => {
    // CDT (UTC-5): 2026-07-01 23:30 local is 04:30 UTC on the 2nd.
    expect(chicagoDay(new Date("2026-07-02T04:30:00Z"))).toBe("2026-07-01");
    expect(chicagoDayEnd(new Date("2026-07-02T04:30:00Z")).toISOString()).toBe("2026-07-02T05:00:00.000Z");
    // CST (UTC-6)
    expect(chicagoDay(new Date("2026-12-01T05:59:59Z"))).toBe("2026-11-30");
    expect(chicagoDayEnd(new Date("2026-12-01T05:59:59Z")).toISOString()).toBe("2026-12-01T06:00:00.000Z");
    expect(chicagoDay(new Date("2026-12-01T06:00:00Z"))).toBe("2026-12-01");
    // The day DST ends (2026-11-01) is 25 hours long and still ends at local midnight.
    expect(chicagoDayEnd(new Date("2026-11-01T12:00:00Z")).toISOString()).toBe("2026-11-02T06:00:00.000Z");
    expect(chicagoDayEnd(new Date("2026-03-08T12:00:00Z")).toISOString()).toBe("2026-03-09T05:00:00.000Z");
  });
});
