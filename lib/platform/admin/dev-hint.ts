import type { DbClient } from "@/lib/db";

/**
 * What the development server says about the platform console when it
 * starts: with no administrator yet, how to make one; once there is one,
 * only where the console is (asking to create "the first" administrator
 * when one exists sends a newcomer looking for a step that is done).
 */
export async function consoleHint(db: DbClient, port: string): Promise<string> {
  const url = `http://localhost:${port}/admin`;
  const admins = await db.user.count({ where: { isPlatformAdmin: true, deletedAt: null } });
  if (admins > 0) return `[dev] platform console: ${url} (${admins} platform administrator${admins === 1 ? "" : "s"}; add more there, on the Users page)`;
  return [
    `[dev] platform console: ${url}: no platform administrator yet. Create your account in the browser, then run`,
    "[dev]   npm run cli -- user:set-admin --email <your email> --grant",
    "[dev] (or make a new administrator: npm run cli -- user:create --email <email> --password <pw> --platform-admin)",
  ].join("\n");
}
