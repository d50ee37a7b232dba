import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { ensureDefaultPlans } from "@/lib/billing/plans";
import { hashApiKey } from "@/lib/keys";
import { verifyPassword } from "@/lib/auth/accounts";
import { openTestDatabase } from "@/tests/support/database";
import { runCli } from "./index";

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase();
  await ensureDefaultPlans(db.prisma);
});
afterAll(() => db?.close());

const cli = (...args: string[]) => runCli(args, db.prisma);
const json = async (...args: string[]) => {
  const result = await cli(...args, "--json");
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
};

async function tableCounts() {
  const p = db.prisma;
  return {
    orgs: await p.organization.count(),
    users: await p.user.count(),
    memberships: await p.membership.count(),
    keys: await p.apiKey.count(),
    ledger: await p.creditLedgerEntry.count(),
  };
}

describe("operator CLI", () => {
  it("creates an organization and prints its id", async () => {
    const result = await cli("org:create", "--name", "Acme Capital", "--plan", "retail");
    expect(result.exitCode).toBe(0);
    const id = result.stdout.trim();
    const org = await db.prisma.organization.findUniqueOrThrow({ where: { id }, include: { plan: true } });
    expect(org).toMatchObject({ name: "Acme Capital", balanceNanos: 0n });
    expect(org.plan.slug).toBe("retail");
  });

  it("moves an organization between plans", async () => {
    const { id } = await json("org:create", "--name", "Mover", "--plan", "trial");
    expect(await json("org:set-plan", "--org", id, "--plan", "enterprise")).toEqual({ id, plan: "enterprise" });
  });

  it("creates a key, printing the full key once and storing only its hash and hint", async () => {
    const { id: orgId } = await json("org:create", "--name", "Keys", "--plan", "retail");
    const result = await cli("key:create", "--org", orgId, "--name", "trading bot", "--endpoints", "dilution-rating,offerings");
    expect(result.exitCode).toBe(0);
    const key = result.stdout.trim();
    expect(key).toMatch(/^svc-live-[0-9a-f]{64}$/);
    const stored = await db.prisma.apiKey.findUniqueOrThrow({ where: { keyHash: hashApiKey(key) } });
    expect(stored).toMatchObject({ orgId, name: "trading bot", hint: key.slice(0, 12), allowedEndpoints: ["dilution-rating", "offerings"] });
    const shown = await cli("org:show", "--org", orgId);
    expect(shown.stdout).toContain(key.slice(0, 12));
    expect(shown.stdout).not.toContain(key);
    const audit = await db.prisma.auditLog.findMany({ where: { orgId, action: "key.created" } });
    expect(JSON.stringify(audit, (_, v) => (typeof v === "bigint" ? v.toString() : v))).not.toContain(key);
  });

  it("disables, re-enables and deletes a key by hint or id", async () => {
    const { id: orgId } = await json("org:create", "--name", "Lifecycle", "--plan", "retail");
    const { id, hint } = await json("key:create", "--org", orgId);
    expect((await json("key:disable", "--key", hint)).status).toBe("disabled");
    expect((await db.prisma.apiKey.findUniqueOrThrow({ where: { id } })).disabledAt).not.toBeNull();
    expect((await json("key:enable", "--key", id)).status).toBe("active");
    expect((await json("key:delete", "--key", id)).deleted).toBe(true);
    expect((await db.prisma.apiKey.findUniqueOrThrow({ where: { id } })).deletedAt).not.toBeNull();
    const again = await cli("key:enable", "--key", id);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toMatch(/No key matches/);
  });

  it("adds credits through the ledger", async () => {
    const { id: orgId } = await json("org:create", "--name", "Credits", "--plan", "retail");
    expect(await json("credits:add", "--org", orgId, "--dollars", "25.50", "--reason", "welcome credit")).toMatchObject({
      balance_dollars: "$25.50",
    });
    const refused = await cli("credits:add", "--org", orgId, "--dollars", "-30", "--reason", "too much");
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/would take it below zero/);
    const entries = await db.prisma.creditLedgerEntry.findMany({ where: { orgId } });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: "ADJUSTMENT", amountNanos: 25_500_000_000n, description: "welcome credit" });
    const show = await json("org:show", "--org", orgId);
    expect(show.balance_dollars).toBe("$25.50");
  });

  it("creates users with argon2id passwords and memberships", async () => {
    const { id: orgId } = await json("org:create", "--name", "People", "--plan", "trial");
    const out = await json("user:create", "--email", "Ana@Example.com", "--password", "correct horse", "--org", orgId, "--role", "admin");
    const user = await db.prisma.user.findUniqueOrThrow({ where: { id: out.id }, include: { memberships: true } });
    expect(user.email).toBe("ana@example.com");
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(user.passwordHash!, "correct horse")).toBe(true);
    expect(user.memberships).toMatchObject([{ orgId, role: "ADMIN" }]);
    const admin = await json("user:create", "--email", "ops@example.com", "--password", "12345678", "--platform-admin");
    expect(admin.platform_admin).toBe(true);
  });

  it("sets a user's password for a machine without email: the old one stops working, the sessions end, a short one is refused", async () => {
    const { signUp } = await import("@/lib/platform/accounts");
    const { startSession } = await import("@/lib/auth/session");
    const { user } = await signUp(db.prisma, { email: "forgot@cli.test", password: "the first password" });
    await startSession(db.prisma, user.id, { ip: "198.51.100.4" });
    const out = await json("user:set-password", "--email", "Forgot@CLI.test", "--password", "the second password");
    expect(out).toMatchObject({ email: "forgot@cli.test", ended_sessions: 1 });
    const stored = await db.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(await verifyPassword(stored.passwordHash!, "the second password")).toBe(true);
    expect(await verifyPassword(stored.passwordHash!, "the first password")).toBe(false);
    expect(await db.prisma.auditLog.findFirst({ where: { action: "user.password_set", targetId: user.id } })).toMatchObject({ actorLabel: "cli" });
    const short = await cli("user:set-password", "--email", "forgot@cli.test", "--password", "short");
    expect(short.exitCode).not.toBe(0);
    expect(short.stderr).toMatch(/at least/);
  });

  it("answers plan requests: the customer sees the answer, and approving moves the organization", async () => {
    const { signUp } = await import("@/lib/platform/accounts");
    const { listPlanRequests, requestPlanChange } = await import("@/lib/platform/plans");
    const { user, org } = await signUp(db.prisma, { email: "asker@cli.test", password: "a long enough password" });
    const owner = { userId: user.id };
    const first = await requestPlanChange(db.prisma, owner, org.id, { plan: "retail", message: "More endpoints" });
    const open = await json("plans:requests");
    expect(open).toEqual([expect.objectContaining({ id: first.id, org: org.id, from_plan: "trial", to_plan: "retail", requested_by: "asker@cli.test", message: "More endpoints" })]);

    expect((await cli("plans:answer", "--request", first.id, "--message", "no decision")).exitCode).toBe(2);
    expect(await json("plans:answer", "--request", first.id, "--decline", "--message", "Tell us more about your use")).toMatchObject({ approved: false });
    expect((await db.prisma.organization.findUniqueOrThrow({ where: { id: org.id }, include: { plan: true } })).plan.slug).toBe("trial");
    const second = await requestPlanChange(db.prisma, owner, org.id, { plan: "retail" });
    await json("plans:answer", "--request", second.id, "--approve", "--message", "Welcome to Retail");
    expect((await db.prisma.organization.findUniqueOrThrow({ where: { id: org.id }, include: { plan: true } })).plan.slug).toBe("retail");
    expect((await listPlanRequests(db.prisma, owner, org.id)).map((r) => [r.status, r.answer])).toEqual([
      ["APPROVED", "Welcome to Retail"],
      ["DECLINED", "Tell us more about your use"],
    ]);
    expect((await cli("plans:answer", "--request", second.id, "--approve", "--message", "again")).exitCode).not.toBe(0);
    expect(await json("plans:requests")).toEqual([]);
    expect(await json("payments:held")).toEqual([]);
  });

  it("rejects bad arguments clearly, exits non-zero and writes nothing", async () => {
    const { id: orgId } = await json("org:create", "--name", "Bad args", "--plan", "retail");
    const before = await tableCounts();
    const cases: [string[], RegExp][] = [
      [["org:create", "--name", "X", "--plan", "gold"], /No plan named "gold"\. Plans: trial, retail, enterprise/],
      [["org:create", "--plan", "trial"], /--name needs a value/],
      [["org:set-plan", "--org", "not-an-id", "--plan", "trial"], /--org must be an id/],
      [["org:show", "--org", "00000000-0000-4000-8000-000000000000"], /No organization/],
      [["key:create", "--org", orgId, "--endpoints", "dilution-rating,bogus"], /Unknown endpoint\(s\): bogus/],
      [["credits:add", "--org", orgId, "--dollars", "ten", "--reason", "x"], /--dollars: enter an amount in dollars/],
      [["credits:add", "--org", orgId, "--dollars", "9223372036", "--reason", "x"], /--dollars: at most \$1,000,000,000\.00\./],
      [["credits:add", "--org", orgId, "--dollars", "-1000000000.01", "--reason", "x"], /--dollars: at least -\$1,000,000,000\.00\./],
      [["credits:add", "--org", orgId, "--dollars", "0", "--reason", "x"], /--dollars must not be zero/],
      [["credits:add", "--org", orgId, "--dollars", "10"], /--reason needs a value/],
      [["user:create", "--email", "nope", "--password", "12345678"], /--email must be an email address/],
      [["user:create", "--email", "a@b.co", "--password", "12345678", "--org", orgId], /--org and --role go together/],
      [["user:create", "--email", "z@b.co", "--password", "12345678", "--org", "00000000-0000-4000-8000-000000000000", "--role", "owner"], /No organization/],
      [["key:disable", "--key", "svc-live-zzz"], /No key matches/],
      [["org:create", "--name", "X", "--plan", "trial", "--colour", "red"], /unknown option\(s\): --colour/],
      [["frobnicate"], /Unknown command "frobnicate"/],
    ];
    for (const [args, message] of cases) {
      const result = await cli(...args);
      expect(result.exitCode, args.join(" ")).not.toBe(0);
      expect(result.stderr, args.join(" ")).toMatch(message);
    }
    const trialOrg = await json("org:create", "--name", "Trial", "--plan", "trial");
    const outside = await cli("key:create", "--org", trialOrg.id, "--endpoints", "dilution-data");
    expect(outside.exitCode).toBe(1);
    expect(outside.stderr).toMatch(/Trial plan does not include: dilution-data/);
    expect(await tableCounts()).toEqual({ ...before, orgs: before.orgs + 1 });
  });

  it("lists held payments of both sources, oldest first, naming each payment and its source", async () => {
    const { id: orgId } = await json("org:create", "--name", "Held Co", "--plan", "retail");
    await db.prisma.stripeCheckoutSession.create({
      data: { id: "cs_test_held_cli", orgId, amountCents: 2_000, status: "HELD", heldReason: "Paid 1500 usd, expected 2000 usd.", paymentIntentId: "pi_held_cli_1", createdAt: new Date("2026-03-01T10:00:00Z") },
    });
    const attempt = await db.prisma.autoRechargeAttempt.create({
      data: {
        orgId,
        day: new Date("2026-03-02T00:00:00Z"),
        seq: 1,
        amountCents: 5_000,
        balanceNanos: 0n,
        thresholdNanos: 5_000_000_000n,
        paymentMethodId: "pm_held_cli",
        status: "HELD",
        failureMessage: "The organization was closed before the payment arrived.",
        paymentIntentId: "pi_held_cli_2",
        createdAt: new Date("2026-03-02T10:00:00Z"),
      },
    });
    expect(await json("payments:held")).toEqual([
      expect.objectContaining({ payment: "cs_test_held_cli", source: "checkout", org: orgId, amount: "$20.00", reason: "Paid 1500 usd, expected 2000 usd." }),
      expect.objectContaining({ payment: attempt.id, source: "auto_recharge", org: orgId, amount: "$50.00", reason: "The organization was closed before the payment arrived." }),
    ]);
    expect((await cli("payments:held")).stdout.trim().split("\n")).toEqual([
      "cs_test_held_cli (checkout)  Held Co: $20.00 usd — Paid 1500 usd, expected 2000 usd.",
      `${attempt.id} (auto_recharge)  Held Co: $50.00 usd — The organization was closed before the payment arrived.`,
    ]);
  });

  it("prints help", async () => {
    const result = await cli("help");
    expect(result.stdout).toContain("credits:add --org <id> --dollars <amount> --reason <text>");
  });
});
