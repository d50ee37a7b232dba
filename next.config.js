// @ts-check
import path from "node:path";
import { fileURLToPath } from "node:url";

const isDev = process.env.NODE_ENV === "development";

/**
 * Security headers for the web pages. The data API (/v1/*, /health,
 * /endpoints, /estimate) sets its own headers in lib/api, so that they are the
 * same under any HTTP mount; the values below match the spec's.
 *
 * No `form-action` directive: sign-in with OAuth providers and Stripe Checkout
 * continue with redirects to other origins, which `form-action` would block.
 */
const contentSecurityPolicy = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${isDev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join("; ");

const pageHeaders = [
  { key: "Content-Security-Policy", value: contentSecurityPolicy },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" },
  { key: "Permissions-Policy", value: "geolocation=(), microphone=(), camera=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

/** First path segments that belong to the data API or to route handlers. */
const API_SEGMENTS = ["api", "v1", "health", "endpoints", "estimate"];
/** The data API: it answers every path under it itself, with a trailing slash too (lib/api/handler.ts). */
const DATA_API_SEGMENTS = ["v1", "health", "endpoints", "estimate", "openapi.json"];

/** @type {import("next").NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  // The dev-only Next.js badge sat over a key card's Settings button at 375 px; build errors still show in the overlay.
  devIndicators: false,
  // The browser tests reach the dev server as 127.0.0.1.
  allowedDevOrigins: ["127.0.0.1"],
  // Parallel builds (e.g. two Playwright runs) each need their own output folder.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  typedRoutes: false,
  // Loaded from node_modules at run time, not bundled: PGlite reads its wasm
  // and data files next to its own module; pg has optional native parts.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg"],
  turbopack: { root: path.dirname(fileURLToPath(import.meta.url)) },
  experimental: {
    // A dev server started over the persisted Turbopack cache of an earlier
    // one could serve chunks its HMR state disagreed with: every browser
    // connection ended in "HMR hash mismatch" and a full reload, in a loop
    // (73–78 reloads in 8 s on /sign-in; deleting .next/dev cured it). Each
    // start compiles afresh instead: about 2 s more to the first page after a restart.
    turbopackFileSystemCacheForDev: false,
  },
  // The app migrates itself on start (instrumentation.ts); lib/db/migrate.ts reads these at run time.
  outputFileTracingIncludes: { "/**": ["./prisma/migrations/**/*"] },
  // Next would redirect /v1/ to /v1 with an empty 308; the data API answers
  // such paths itself, in JSON. Pages keep the redirect (below).
  skipTrailingSlashRedirect: true,
  async redirects() {
    return [
      {
        source: `/:path((?!(?:${DATA_API_SEGMENTS.join("|").replaceAll(".", "\\.")})(?:/|$)).+)/`,
        destination: "/:path",
        permanent: true,
      },
    ];
  },
  async headers() {
    return [
      {
        source: `/((?!(?:${API_SEGMENTS.join("|")})(?:/|$)).*)`,
        headers: pageHeaders,
      },
      // next-auth's own pages (sign-out confirmation, errors) are pages too.
      { source: "/api/auth/:path*", headers: pageHeaders },
    ];
  },
};

export default nextConfig;
