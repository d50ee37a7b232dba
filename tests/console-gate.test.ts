import { createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  CONSOLE_NOT_FOUND_PATH,
  dropInvalidUploadTicket,
  ensureUploadKey,
  hideConsoleRewrite,
  mintUploadTicket,
  UPLOAD_TICKET_TTL_MS,
  uploadTicketValid,
} from "../scripts/console-gate.mjs";
import { config } from "../proxy";

/**
 * The console gate's part in our HTTP server (scripts/console-gate.mjs), with
 * a real socket: the note of the rewrite to the unknown path never reaches a
 * client, and only a ticket this server issued lets the upload skip the proxy.
 */
let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server that does what scripts/server.mjs does before Next, then answers as Next would for a rewrite, echoing the request's headers. */
async function start(answer: (res: import("node:http").ServerResponse) => void) {
  let seen: IncomingHttpHeaders = {};
  server = createServer((req, res) => {
    dropInvalidUploadTicket(req);
    hideConsoleRewrite(res);
    seen = { ...req.headers };
    answer(res);
    res.end("not found");
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const send = (headers: Record<string, string> = {}) =>
    new Promise<{ headers: IncomingHttpHeaders; seen: IncomingHttpHeaders }>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: "/admin/data/upload", method: "POST", headers }, (res) => {
        res.resume();
        res.on("end", () => resolve({ headers: res.headers, seen }));
      });
      req.on("error", reject);
      req.end("ticker\n");
    });
  return send;
}

describe("the note of a rewrite to the unknown path", () => {
  it("is left out, with or without the request's query; other headers and other rewrites pass", async () => {
    const send = await start((res) => {
      res.setHeader("x-middleware-rewrite", `${CONSOLE_NOT_FOUND_PATH}?dry_run=1`);
      res.setHeader("x-nextjs-rewritten-path", CONSOLE_NOT_FOUND_PATH);
      res.setHeader("content-type", "text/html; charset=utf-8");
      res.setHeader("x-other", CONSOLE_NOT_FOUND_PATH);
    });
    const { headers } = await send();
    expect(headers["x-middleware-rewrite"]).toBeUndefined();
    expect(headers["x-nextjs-rewritten-path"]).toBeUndefined();
    expect(headers).toMatchObject({ "content-type": "text/html; charset=utf-8", "x-other": CONSOLE_NOT_FOUND_PATH });

    const other = await start((res) => res.setHeader("x-middleware-rewrite", "/somewhere-else"));
    expect((await other()).headers["x-middleware-rewrite"]).toBe("/somewhere-else");
  });

  it("is left out when Next writes it absolute (a request whose origin is not the one it listens on), or through appendHeader or writeHead", async () => {
    const absolute = await start((res) => {
      res.setHeader("X-Middleware-Rewrite", `http://localhost:3000${CONSOLE_NOT_FOUND_PATH}?_rsc=abc`);
      res.appendHeader("x-nextjs-rewritten-path", CONSOLE_NOT_FOUND_PATH);
    });
    const seen = (await absolute()).headers;
    expect(seen["x-middleware-rewrite"]).toBeUndefined();
    expect(seen["x-nextjs-rewritten-path"]).toBeUndefined();

    const written = await start((res) => {
      res.writeHead(404, { "x-middleware-rewrite": `https://example.com:8443${CONSOLE_NOT_FOUND_PATH}`, "x-kept": "1" });
    });
    const headers = (await written()).headers;
    expect(headers["x-middleware-rewrite"]).toBeUndefined();
    expect(headers["x-kept"]).toBe("1");

    const flat = await start((res) => {
      res.writeHead(404, "Not Found", ["x-middleware-rewrite", `http://localhost:1${CONSOLE_NOT_FOUND_PATH}`, "x-kept", "2"]);
    });
    const flatHeaders = (await flat()).headers;
    expect(flatHeaders["x-middleware-rewrite"]).toBeUndefined();
    expect(flatHeaders["x-kept"]).toBe("2");

    const other = await start((res) => res.setHeader("x-middleware-rewrite", "http://localhost:3000/somewhere-else"));
    expect((await other()).headers["x-middleware-rewrite"]).toBe("http://localhost:3000/somewhere-else");
  });
});

describe("the upload ticket", () => {
  const env = { NEXTAUTH_SECRET: "a-secret-shared-by-every-instance-0123456789" };

  it("is valid where it was issued and on every instance sharing the secret, until it expires", () => {
    const here = { ...env } as Record<string, string | undefined>;
    const there = { ...env } as Record<string, string | undefined>;
    ensureUploadKey(here);
    ensureUploadKey(there);
    const now = Date.now();
    const ticket = mintUploadTicket(now, here)!;
    expect(uploadTicketValid(ticket, now, here)).toBe(true);
    expect(uploadTicketValid(ticket, now + 60_000, there)).toBe(true);
    expect(uploadTicketValid(ticket, now + UPLOAD_TICKET_TTL_MS, here)).toBe(false);
    const elsewhere = { NEXTAUTH_SECRET: "another-deployment-entirely-0123456789" } as Record<string, string | undefined>;
    ensureUploadKey(elsewhere);
    expect(uploadTicketValid(ticket, now, elsewhere)).toBe(false);
  });

  it("is refused altered, made up, stretched past its lifetime, or where no key was made", () => {
    const here = { ...env } as Record<string, string | undefined>;
    ensureUploadKey(here);
    const now = Date.now();
    const ticket = mintUploadTicket(now, here)!;
    const [expiry, mac] = ticket.split(".") as [string, string];
    const flipped = mac.slice(0, -1) + (mac.endsWith("0") ? "1" : "0");
    for (const forged of [`${expiry}.${flipped}`, `${Number(expiry) + 1}.${mac}`, `${now + 10 * UPLOAD_TICKET_TTL_MS}.${mac}`, "", "x", `${expiry}.${mac}.x`, `${expiry}.${mac.toUpperCase()}`]) {
      expect(uploadTicketValid(forged, now, here), forged).toBe(false);
    }
    expect(uploadTicketValid(ticket, now, {})).toBe(false);
    expect(mintUploadTicket(now, {})).toBeNull();
  });

  it("is kept on a request when valid and removed when not, so the request meets the proxy", async () => {
    ensureUploadKey();
    const send = await start(() => {});
    const valid = mintUploadTicket()!;
    expect((await send({ "x-upload-ticket": valid })).seen["x-upload-ticket"]).toBe(valid);
    expect((await send({ "x-upload-ticket": `${Date.now() + 60_000}.${"ab".repeat(32)}` })).seen["x-upload-ticket"]).toBeUndefined();
    expect((await send({})).seen["x-upload-ticket"]).toBeUndefined();
  });

  it("is what lets the upload skip the proxy: every other request to it meets the gate", () => {
    expect(config.matcher).toContainEqual({ source: "/admin/data/upload", missing: [{ type: "header", key: "x-upload-ticket" }] });
    expect(config.matcher).toEqual(expect.arrayContaining(["/admin", "/admin/((?!data/upload$).*)"]));
  });
});
