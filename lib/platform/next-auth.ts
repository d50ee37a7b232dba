import { AsyncLocalStorage } from "node:async_hooks";
import NextAuth, { type NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import GoogleProvider from "next-auth/providers/google";
import type { NextRequest } from "next/server";
import { authenticateWithPassword } from "@/lib/auth/accounts";
import { authSecret } from "@/lib/utils/app-secret";
import { endSession, SESSION_MAX_AGE_SECONDS, startSession } from "@/lib/auth/session";
import { DomainError, isServiceUnavailable } from "@/lib/errors";
import { getAppDatabase } from "@/lib/runtime/database";
import { getAppRateLimiter } from "@/lib/runtime/rate-limiter";
import { clientIp } from "@/lib/utils/client-ip";
import { findOrCreateOAuthUser } from "./accounts";

/**
 * next-auth: email + password always; GitHub and Google when their
 * credentials are in the environment. Sessions are signed, encrypted JWTs
 * holding the user id (`uid`) and the id of a session row (`sid`) that every
 * request checks (lib/auth/session.ts), so signing out really ends a session;
 * memberships are re-read per request, so a removal takes effect at once.
 */

// Without NEXTAUTH_URL, next-auth assumes http://localhost:3000; in development trust the Host header instead.
if (!process.env.NEXTAUTH_URL && process.env.NODE_ENV !== "production") process.env.AUTH_TRUST_HOST ??= "1";

/**
 * Where the auth request being handled comes from (for the sign-in limits,
 * the audit entries and the session row), and, once authorize() has refused
 * it for its address's limit, how many seconds until it may try again.
 */
type AuthRequestStore = { ip: string; userAgent: string | null; retryAfterSeconds?: number; unavailable?: boolean };
const authRequest = new AsyncLocalStorage<AuthRequestStore>();

type OAuthCredentials = { clientId: string; clientSecret: string };

/** The OAuth providers, each switched on by its pair of environment variables. */
const OAUTH_PROVIDERS = [
  { id: "github", name: "GitHub", env: ["GITHUB_ID", "GITHUB_SECRET"], make: (c: OAuthCredentials) => GitHubProvider(c) },
  { id: "google", name: "Google", env: ["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"], make: (c: OAuthCredentials) => GoogleProvider(c) },
] as const;

function configuredOAuth() {
  return OAUTH_PROVIDERS.flatMap((provider) => {
    const [clientId, clientSecret] = provider.env.map((name) => process.env[name]?.trim());
    return clientId && clientSecret ? [{ ...provider, clientId, clientSecret }] : [];
  });
}

/** The "Continue with …" buttons the sign-in and sign-up pages show. */
export function oauthProviders(): { id: string; name: string }[] {
  return configuredOAuth().map(({ id, name }) => ({ id, name }));
}

/**
 * authorize() refusing for a reason other than a wrong password. next-auth
 * hands the message to the page as ?error=…, so it is a code the page maps to
 * its own words, never free text: "locked", or "rate_limited:<seconds>" (the
 * wait, which the form states).
 */
export class SignInRefused extends Error {}

/** Seconds a sign-in refused during an outage is told to wait (Retry-After). */
const OUTAGE_RETRY_SECONDS = 5;

/**
 * Runs a step of the sign-in; when the database or Redis is down, refuses it as "unavailable" (the page says
 * so, and the answer is a 503) rather than letting next-auth put the internal cause in the address bar.
 */
async function refusedWhileUnavailable<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!isServiceUnavailable(error)) throw error;
    const store = authRequest.getStore();
    if (store) store.retryAfterSeconds = OUTAGE_RETRY_SECONDS;
    if (store) store.unavailable = true;
    throw new SignInRefused("unavailable");
  }
}

function buildProviders(): NextAuthOptions["providers"] {
  const providers: NextAuthOptions["providers"] = [
    CredentialsProvider({
      id: "credentials",
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials) {
        const result = await refusedWhileUnavailable(async () => {
          const [{ prisma }, limiter] = await Promise.all([getAppDatabase(), getAppRateLimiter()]);
          return authenticateWithPassword(prisma, limiter, credentials, authRequest.getStore()?.ip ?? "unknown");
        });
        if (result.ok) return result.user;
        if (result.reason === "locked") throw new SignInRefused(result.reason);
        if (result.reason === "rate_limited") {
          const store = authRequest.getStore();
          if (store) store.retryAfterSeconds = result.retryAfterSeconds;
          throw new SignInRefused(`rate_limited:${result.retryAfterSeconds}`);
        }
        return null;
      },
    }),
  ];
  for (const { make, clientId, clientSecret } of configuredOAuth()) providers.push(make({ clientId, clientSecret }));
  return providers;
}

export function authOptions(): NextAuthOptions {
  return {
    secret: authSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers: buildProviders(),
    callbacks: {
      async signIn({ account, profile, user }) {
        if (account?.type !== "oauth") return true;
        try {
          const { prisma } = await refusedWhileUnavailable(getAppDatabase);
          const dbUser = await findOrCreateOAuthUser(
            prisma,
            { provider: account.provider, providerAccountId: account.providerAccountId, email: user.email ?? profile?.email, name: user.name },
            authRequest.getStore()?.ip ?? null,
          );
          user.id = dbUser.id; // read by the jwt callback below
          return true;
        } catch (error) {
          if (error instanceof DomainError) return `/sign-in?error=${encodeURIComponent(error.code)}`;
          if (isServiceUnavailable(error) || error instanceof SignInRefused) return "/sign-in?error=unavailable";
          throw error;
        }
      },
      async jwt({ token, user }) {
        // On sign-in `user` is the database user (credentials) or carries its id (OAuth, set above).
        if (!user) return token;
        const sid = await refusedWhileUnavailable(async () => startSession((await getAppDatabase()).prisma, user.id, authRequest.getStore() ?? {}));
        return { uid: user.id, sid, email: user.email, name: user.name };
      },
      async session({ session, token }) {
        return { ...session, user: { ...session.user, id: token.uid as string } };
      },
    },
    events: {
      async signOut({ token }) {
        if (typeof token?.sid === "string") await endSession((await getAppDatabase()).prisma, token.sid);
      },
    },
    logger: {
      error(code, metadata) {
        // Wrong passwords and refusals are not server errors; anything else is logged without the request.
        if (code === "CREDENTIALS_SIGNIN_ERROR" || (metadata as { error?: unknown })?.error instanceof SignInRefused) return;
        console.error(`[auth] ${code}`, metadata instanceof Error ? metadata.message : "");
      },
      warn(code) {
        if (code !== "NEXTAUTH_URL" && code !== "DEBUG_ENABLED") console.warn(`[auth] ${code}`);
      },
      debug() {},
    },
  };
}

type RouteContext = { params: Promise<{ nextauth: string[] }> };

/**
 * next-auth's route handler, run with the client's address at hand for the
 * sign-in audit and limits. A sign-in refused for its address's limit answers
 * 429 with Retry-After (the body, which the form reads, is next-auth's own);
 * a redirect (a form posted without JavaScript) stays one, to the sign-in
 * page with the wait in its ?error=.
 */
export async function handleAuthRequest(request: NextRequest, context: RouteContext): Promise<Response> {
  // next-auth answers any other method on the password sign-in's callback with a 500 ("not supported").
  const [action, provider] = (await context.params).nextauth ?? [];
  if (action === "callback" && provider === "credentials" && request.method !== "POST") {
    return new Response("Sign in with the form on /sign-in.", { status: 405, headers: { Allow: "POST", "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }
  const handler = NextAuth(authOptions());
  const store: AuthRequestStore = { ip: clientIp(request.headers), userAgent: request.headers.get("user-agent") };
  let response: Response;
  try {
    response = await authRequest.run(store, () => handler(request, context));
  } catch (error) {
    // A step after authorize() (the session row) found the database down: next-auth lets that through.
    if (!store.unavailable && !isServiceUnavailable(error)) throw error;
    const url = new URL("/sign-in?error=unavailable", request.nextUrl.origin).toString();
    return Response.json({ url }, { status: 503, headers: { "Retry-After": String(OUTAGE_RETRY_SECONDS), "Cache-Control": "no-store" } });
  }
  if (store.retryAfterSeconds === undefined || response.headers.has("location")) return response;
  const headers = new Headers(response.headers);
  headers.set("Retry-After", String(store.retryAfterSeconds));
  return new Response(await response.text(), { status: store.unavailable ? 503 : 429, headers });
}
