import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "@/lib/auth/accounts";
import type { Database } from "@/lib/db";
import { openTestDatabase } from "@/tests/support/database";
import { consoleHint } from "./dev-hint";

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
}, 120_000);
afterAll(() => db?.close());

describe("the development server's note on the console", () => {
  it("tells how to make the first administrator only while there is none", async () => {
    const before = await consoleHint(db.prisma, "3000");
    expect(before).toContain("no platform administrator yet");
    expect(before).toContain("user:set-admin --email <your email> --grant");

    await createUser(db.prisma, { email: "root@dev.test", isPlatformAdmin: true });
    const after = await consoleHint(db.prisma, "3000");
    expect(after).toBe("[dev] platform console: http://localhost:3000/admin (1 platform administrator; add more there, on the Users page)");
    expect(after).not.toContain("user:set-admin");
  });
});
