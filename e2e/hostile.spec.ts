import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ENDPOINT_NAMES } from "../lib/catalog";
import { cli, createKey, currentOrgId, signUp, unique } from "./support";

/**
 * Hostile input to the platform's server actions and dashboard routes, sent
 * to the real server: whatever arrives, the answer is never a 500.
 */

// The action ids of this build (only for the build the suite made itself).
function actionIds(): string[] {
  const manifest = path.join(process.env.NEXT_DIST_DIR || ".next", "server", "server-reference-manifest.json");
  return Object.keys(JSON.parse(readFileSync(manifest, "utf8")).node ?? {});
}

const BODIES: [string, string][] = [
  ["text/plain;charset=UTF-8", "not json"],
  ["text/plain;charset=UTF-8", "["],
  ["text/plain;charset=UTF-8", '"str"'],
  ["text/plain;charset=UTF-8", '{"a":1}'],
  ["text/plain;charset=UTF-8", '["$Q0"]'],
  ["text/plain;charset=UTF-8", '["$@99"]'],
  ["text/plain;charset=UTF-8", '["$Zzz"]'],
  ["text/plain;charset=UTF-8", "[1,2,3]"],
  ["text/plain;charset=UTF-8", '[{"a":1},2,3]'],
  ["text/plain;charset=UTF-8", "x".repeat(1_100_000)],
  ["multipart/form-data; boundary=xx", "garbage"],
  ["application/x-www-form-urlencoded", "a=b"],
  ["application/json", "[]"],
];

if (!process.env.E2E_BASE_URL) {
  test("server-action posts that are malformed, oversized or cross-origin get a 4xx, never a 500", async ({ page, baseURL }) => {
    await signUp(page, unique("hostile"));
    const ids = actionIds();
    expect(ids.length).toBeGreaterThan(10);
    const statuses = new Map<number, number>();
    for (const id of ids) {
      for (const [type, body] of BODIES) {
        for (const origin of [baseURL!, "http://evil.example"]) {
          const sent = page.request.post("/keys", { headers: { "Next-Action": id, "Content-Type": type, Origin: origin }, data: body, maxRedirects: 0 });
          // An oversized body may be refused (413) before it is all sent; the client then sees its write cut off (EPIPE). That is a refusal too.
          const response = await sent.catch((error: Error) => {
            if (body.length > 1_000_000 && /EPIPE|ECONNRESET/.test(error.message)) return null;
            throw error;
          });
          if (response === null) continue;
          expect(response.status(), `${id} ${type} ${body.slice(0, 20)} from ${origin}`).toBeLessThan(500);
          statuses.set(response.status(), (statuses.get(response.status()) ?? 0) + 1);
        }
      }
    }
    // A made-up action id, too.
    const unknown = await page.request.post("/keys", { headers: { "Next-Action": "00".repeat(21), "Content-Type": "text/plain", Origin: baseURL! }, data: "[]" });
    expect(unknown.status()).toBeLessThan(500);
    expect([...statuses.keys()].every((status) => status < 500)).toBe(true);
  });
}

test("dashboard routes answer odd parameters with a 4xx, never a 500", async ({ page }) => {
  await signUp(page, unique("routes"));
  const odd = ["", "x", "'; DROP TABLE users; --", "00000000-0000-0000-0000-000000000000", "%00", "2026-02-30", "9".repeat(400)];
  for (const value of odd) {
    for (const route of ["/billing/export", "/usage/export", "/billing/status"]) {
      for (const name of ["org", "from", "to", "key", "session_id"]) {
        const response = await page.request.get(`${route}?${name}=${encodeURIComponent(value)}`, { maxRedirects: 0 });
        expect(response.status(), `${route}?${name}=${value}`).toBeLessThan(500);
      }
    }
  }
});

test("a parameter named after an object's internals (__proto__, constructor, prototype) is an unknown parameter on every endpoint and /estimate: a free 400, as any other", async ({ page, request }) => {
  await signUp(page, unique("proto"));
  const orgId = await currentOrgId(page);
  cli("credits:add", "--org", orgId, "--dollars", "1", "--reason", "e2e: prototype parameters");
  cli("org:set-plan", "--org", orgId, "--plan", "enterprise"); // every endpoint, so each reaches its parameters
  await page.goto("/keys");
  const key = await createKey(page, "Prototype prober");
  const balance = async () => (await request.get("/v1/dilution-rating?ticker=ZOFR", { headers: { "API-KEY": key } })).headers()["x-balance-dollars"];
  const before = await balance();
  for (const name of ["__proto__", "constructor", "prototype", "%5F%5Fproto%5F%5F"]) {
    for (const endpoint of ENDPOINT_NAMES) {
      const response = await request.get(`/v1/${endpoint}?ticker=ZOFR&${name}=x`, { headers: { "API-KEY": key } });
      expect(response.status(), `${endpoint} ${name}`).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code, `${endpoint} ${name}`).toBe("invalid_parameter");
    }
    const estimate = await request.get(`/estimate?endpoint=offerings&ticker=ZOFR&${name}=x`);
    expect(estimate.status(), `estimate ${name}`).toBe(400);
  }
  // Refused at no charge: the balance after the refusals is the one before, less only the next paid call's own cost.
  const after = await request.get("/v1/dilution-rating?ticker=ZOFR", { headers: { "API-KEY": key } });
  const nanos = (dollars: string | undefined) => {
    const [whole, fraction = ""] = dollars!.replace("$", "").split(".");
    return BigInt(whole!) * 1_000_000_000n + BigInt(fraction.padEnd(9, "0"));
  };
  expect(nanos(after.headers()["x-balance-dollars"])).toBe(nanos(before) - nanos(after.headers()["x-cost-dollars"]));
});
