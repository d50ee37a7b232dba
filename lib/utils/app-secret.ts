import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The application's secret: it signs and encrypts session tokens (next-auth)
 * and is the key behind sealed secrets (lib/notify/secret-box.ts). NEXTAUTH_SECRET (or
 * AUTH_SECRET) when set, as it must be wherever more than one instance runs.
 * Otherwise a random secret kept in the data folder, so a bare `npm run dev`
 * works and sessions survive restarts.
 */
let cached: string | undefined;

export function authSecret(): string {
  const fromEnv = process.env.NEXTAUTH_SECRET?.trim() || process.env.AUTH_SECRET?.trim();
  if (fromEnv) return fromEnv;
  if (cached) return cached;
  const dir = path.resolve(process.env.PGLITE_DIR?.trim() ? path.dirname(process.env.PGLITE_DIR) : ".data");
  const file = path.join(dir, "auth-secret");
  try {
    cached = readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(dir, { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    try {
      writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
      cached = secret;
    } catch {
      cached = readFileSync(file, "utf8").trim(); // another process wrote it first
    }
    if (process.env.NODE_ENV === "production") {
      console.warn(`[auth] NEXTAUTH_SECRET is not set; using a generated secret in ${file}. Set NEXTAUTH_SECRET when running more than one instance.`);
    }
  }
  return cached!;
}
