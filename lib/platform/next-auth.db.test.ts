import { createRequire } from "node:module";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { authErrorMessage } from "@/components/auth/auth-errors";
import { SIGN_IN_LIMITS } from "@/lib/auth/accounts";
import { ensureDefaultPlans } from "@/lib/billing/plans";
import type { Database } from "@/lib/db";
import { DatabaseRateLimiter, RedisRateLimiter } from "@/lib/rate-limit";
import { connectRedis } from "@/lib/runtime/rate-limiter";
import { openTestDatabase } from "@/tests/support/database";
import { signUp } from "./accounts";
import { handleAuthRequest } from "./next-auth";

/**
 * Password sign-in through next-auth's own route, as the sign-in form calls
 * it (csrf token, then a POST to the credentials callback with json=true),
 * on a test database installed as the application's. Outside a Next server
 * there is no request scope, so next/headers answers with the headers and
 * cookies of the request being handled, as Next itself would.
 */
const ADDRESS_HEADER = "x-test-client-address";
const ORIGIN = "http://localhost:3000";
let db: Database;
const appState = (name: "__appDatabase" | "__appRateLimiter") => ((globalThis as unknown as Record<string, { promise?: Promise<unknown> }>)[name] ??= {});

let current: Request | null = null;
const requireHere = createRequire(import.meta.url);
const nextHeaders = requireHere.resolve("next/headers");
const realNextHeaders = requireHere.cache[nextHeaders];
beforeAll(() => {
  // next-auth require()s next/headers when it handles a request: it gets these instead.
  const exports = {
    headers: async () => new Headers(current!.headers),
    cookies: async () => {
      const pairs = (current!.headers.get("cookie") ?? "").split(";").map((part) => part.trim().split("=")).filter(([name]) => name);
      return { getAll: () => pairs.map(([name, ...value]) => ({ name: name!, value: decodeURIComponent(value.join("=")) })) };
    },
  };
  requireHere.cache[nextHeaders] = { id: nextHeaders, filename: nextHeaders, loaded: true, exports } as unknown as NodeJS.Module;
});
afterAll(() => {
  if (realNextHeaders) requireHere.cache[nextHeaders] = realNextHeaders;
  else delete requireHere.cache[nextHeaders];
});

async function handle(request: NextRequest, path: string[]) {
  current = request;
  try {
    return await handleAuthRequest(request, { params: Promise.resolve({ nextauth: path }) });
  } finally {
    current = null;
  }
}

beforeAll(async () => {
  db = await openTestDatabase();
  await ensureDefaultPlans(db.prisma);
  // The process's database and rate limiter (lib/runtime) are this test's, never the embedded one on disk.
  appState("__appDatabase").promise = Promise.resolve(db);
  appState("__appRateLimiter").promise = Promise.resolve(new DatabaseRateLimiter(db.prisma));
  vi.stubEnv("CLIENT_ADDRESS_HEADER", ADDRESS_HEADER);
  vi.stubEnv("NEXTAUTH_URL", ORIGIN);
  vi.stubEnv("NEXTAUTH_SECRET", "test-secret-for-session-cookies-0123456789");
}, 120_000);
afterAll(async () => {
  vi.unstubAllEnvs();
  delete appState("__appDatabase").promise;
  delete appState("__appRateLimiter").promise;
  await db?.close();
});

/** What the browser's signIn("credentials", { redirect: false }) sends, from `address`. */
async function signInFrom(address: string, email: string, password: string) {
  const csrf = await handle(new NextRequest(`${ORIGIN}/api/auth/csrf`, { headers: { [ADDRESS_HEADER]: address } }), ["csrf"]);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const response = await handle(
    new NextRequest(`${ORIGIN}/api/auth/callback/credentials`, {
      method: "POST",
      headers: { [ADDRESS_HEADER]: address, cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password, csrfToken, callbackUrl: `${ORIGIN}/dashboard`, json: "true" }),
    }),
    ["callback", "credentials"],
  );
  const { url } = (await response.json()) as { url: string };
  return { response, error: new URL(url).searchParams.get("error"), signedIn: response.headers.getSetCookie().some((c) => c.startsWith("next-auth.session-token=")) };
}

describe("password sign-in through next-auth", () => {
  it("an address past its limit is refused at once with 429 and Retry-After, and the form says when to try again; the owner from elsewhere signs in", async () => {
    await signUp(db.prisma, { email: "hana@example.com", password: "hana's password" });
    for (let i = 0; i < SIGN_IN_LIMITS.perAccountAndIp; i++) {
      const wrong = await signInFrom("192.0.2.60", "hana@example.com", `guess ${i}`);
      expect(wrong.response.status).toBe(401);
      expect(wrong.error).toBe("CredentialsSignin");
    }
    const refused = await signInFrom("192.0.2.60", "hana@example.com", "hana's password");
    expect(refused.response.status).toBe(429);
    const retryAfter = Number(refused.response.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_LIMITS.windowMs / 1000);
    expect(refused.error).toBe(`rate_limited:${retryAfter}`);
    expect(refused.signedIn).toBe(false);
    expect(authErrorMessage(refused.error)).toMatch(/^Too many sign-in attempts from your network\. Try again in \d+ (minute|second)s?\.$/);

    const owner = await signInFrom("198.51.100.60", "hana@example.com", "hana's password");
    expect(owner.response.status).toBe(200);
    expect(owner.error).toBeNull();
    expect(owner.signedIn).toBe(true);
  }, 60_000);

  it("with Redis down, sign-in answers 503 with Retry-After and the form says it is briefly unavailable, never the internal cause", async () => {
    await signUp(db.prisma, { email: "ines@example.com", password: "ines's password" });
    const working = appState("__appRateLimiter").promise;
    const redis = connectRedis("redis://127.0.0.1:1", () => {});
    appState("__appRateLimiter").promise = Promise.resolve(new RedisRateLimiter(redis));
    try {
      const refused = await signInFrom("192.0.2.61", "ines@example.com", "ines's password");
      expect(refused.response.status).toBe(503);
      expect(refused.response.headers.get("retry-after")).toBe("5");
      expect(refused.error).toBe("unavailable");
      expect(refused.signedIn).toBe(false);
      expect(authErrorMessage(refused.error)).toBe("Sign-in is briefly unavailable. Try again in a few seconds.");
    } finally {
      appState("__appRateLimiter").promise = working;
      redis.disconnect();
    }
    expect((await signInFrom("192.0.2.61", "ines@example.com", "ines's password")).signedIn).toBe(true);
  });

  it("the password callback takes only the form's POST: any other method is a 405, not next-auth's 500", async () => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const response = await handle(new NextRequest(`${ORIGIN}/api/auth/callback/credentials`, { method }), ["callback", "credentials"]);
      expect(response.status, method).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
    }
  });
});
