import { z } from "zod";
import type { PrismaClient } from "@/lib/db";
import { randomUUID } from "node:crypto";
import { adjustCredit } from "@/lib/billing/adjustments";
import { centsToNanos, formatDollars, MAX_TYPED_NANOS, typedDollarsSchema } from "@/lib/money";
import { PLAN_SLUGS } from "@/lib/billing/plans";
import { recordAudit } from "@/lib/audit";
import { createKey, deleteKey, findKeyByIdOrHint, setKeyStatusByPlatform } from "@/lib/keys/manage";
import { DomainError } from "@/lib/errors";
import { addMembership } from "@/lib/platform/members";
import { createOrganization, setOrganizationPlan } from "@/lib/platform/organizations";
import { answerPlanRequest, openPlanRequests } from "@/lib/platform/plans";
import { lockUser, setPasswordByOperator, unlockUser } from "@/lib/platform/security";
import { setPlatformAdmin } from "@/lib/platform/admin/users";
import { heldPayments } from "@/lib/billing/checkout";
import { createUser, hashPassword, normalizeEmail } from "@/lib/auth/accounts";

/**
 * The operator CLI, as a function of its arguments and a database so that it
 * runs the same from a terminal, inside the dev server (when that process owns
 * the embedded database) and in tests. Every command validates all of its
 * input before writing, and writes in one transaction.
 */
export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Bad arguments: the message (and usage) is printed and the command exits 2. */
export class UsageError extends Error {}

const CLI_ACTOR = { actorLabel: "cli" } as const;

type Flags = Record<string, string | true>;

export function parseFlags(args: string[]): Flags {
  const flags: Flags = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith("--")) throw new UsageError(`Unexpected argument "${arg}".`);
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (!name) throw new UsageError(`Unexpected argument "${arg}".`);
    if (inline !== undefined) flags[name] = inline;
    else if (args[i + 1] !== undefined && !args[i + 1]!.startsWith("--")) flags[name] = args[++i]!;
    else flags[name] = true;
  }
  return flags;
}

const text = (label: string) =>
  z.string({ error: `--${label} needs a value` }).trim().min(1, `--${label} must not be empty`);
const uuid = (label: string) => z.uuid({ error: `--${label} must be an id (a UUID)` });
/** Any plan's slug (trial, retail, enterprise, and any an administrator added); an unknown one is refused by name. */
const plan = text("plan").toLowerCase();
const role = z.enum(["owner", "admin", "member"], { error: "--role must be owner, admin or member" });

interface Command {
  usage: string;
  summary: string;
  schema: z.ZodType;
  run(db: PrismaClient, input: never): Promise<{ json: unknown; text: string }>;
}

function command<S extends z.ZodType>(
  usage: string,
  summary: string,
  schema: S,
  run: (db: PrismaClient, input: z.infer<S>) => Promise<{ json: unknown; text: string }>,
): Command {
  return { usage, summary, schema, run: run as Command["run"] };
}

async function orgSummary(db: PrismaClient, orgId: string) {
  const org = await db.organization.findUnique({
    where: { id: orgId },
    include: { plan: true, apiKeys: { where: { deletedAt: null }, orderBy: { createdAt: "asc" } } },
  });
  if (!org) throw new DomainError("unknown_organization", `No organization with id ${orgId}.`);
  return org;
}

const COMMANDS: Record<string, Command> = {
  "org:create": command(
    `org:create --name <name> --plan <${PLAN_SLUGS.join("|")}|…>`,
    "Create an organization; prints its id.",
    z.strictObject({ name: text("name"), plan }),
    async (db, input) => {
      const org = await db.$transaction((tx) => createOrganization(tx, input, CLI_ACTOR));
      return { json: { id: org.id, name: org.name, plan: org.plan.slug }, text: org.id };
    },
  ),
  "org:set-plan": command(
    "org:set-plan --org <id> --plan <plan>",
    "Move an organization to another plan.",
    z.strictObject({ org: uuid("org"), plan }),
    async (db, input) => {
      const org = await setOrganizationPlan(db, input.org, input.plan, CLI_ACTOR);
      return { json: { id: org.id, plan: org.plan.slug }, text: `${org.name} is now on the ${org.plan.name} plan.` };
    },
  ),
  "org:show": command(
    "org:show --org <id>",
    "Show an organization's plan, balance and keys (hints only).",
    z.strictObject({ org: uuid("org") }),
    async (db, input) => {
      const org = await orgSummary(db, input.org);
      const keys = org.apiKeys.map((k) => ({
        id: k.id,
        name: k.name,
        hint: k.hint,
        status: k.status.toLowerCase(),
        allowed_endpoints: k.allowedEndpoints,
        // A platform administrator's restriction: at most these, whatever allowed_endpoints says (empty: none).
        platform_endpoints: k.platformEndpoints,
        platform_reason: k.platformEndpointsReason,
        created_at: k.createdAt.toISOString(),
        last_used_at: k.lastUsedAt?.toISOString() ?? null,
      }));
      const json = {
        id: org.id,
        name: org.name,
        plan: org.plan.slug,
        balance_dollars: formatDollars(org.balanceNanos),
        balance_nanos: org.balanceNanos.toString(),
        keys,
      };
      const lines = [
        `${org.name} (${org.id})`,
        `plan:    ${org.plan.name} (${org.plan.requestsPerMinute} requests/min)`,
        `balance: ${formatDollars(org.balanceNanos, { grouping: true })}`,
        `keys:    ${keys.length === 0 ? "none" : ""}`,
        ...keys.map(
          (k) =>
            `  ${k.hint}…  ${k.status.padEnd(8)}  ${k.name}  [${k.allowed_endpoints.join(", ") || "all plan endpoints"}]` +
            `${k.platform_endpoints.length ? `  platform: ${k.platform_endpoints.join(", ")} (${k.platform_reason ?? "no reason"})` : ""}  id ${k.id}`,
        ),
      ];
      return { json, text: lines.join("\n") };
    },
  ),
  "user:create": command(
    "user:create --email <email> --password <pw> [--name <name>] [--org <id> --role <owner|admin|member>] [--platform-admin]",
    "Create a user, optionally a member of an organization.",
    z
      .strictObject({
        email: z.email({ error: "--email must be an email address" }),
        password: z.string({ error: "--password needs a value" }).min(8, "--password must be at least 8 characters"),
        name: text("name").optional(),
        org: uuid("org").optional(),
        role: role.optional(),
        "platform-admin": z.literal(true).optional(),
      })
      .refine((v) => (v.org === undefined) === (v.role === undefined), "--org and --role go together"),
    async (db, input) => {
      const email = normalizeEmail(input.email);
      if (await db.user.findUnique({ where: { email } })) throw new DomainError("email_taken", `A user with email ${email} already exists.`);
      if (input.org && !(await db.organization.findUnique({ where: { id: input.org } }))) {
        throw new DomainError("unknown_organization", `No organization with id ${input.org}.`);
      }
      const passwordHash = await hashPassword(input.password);
      const user = await db.$transaction(async (tx) => {
        const created = await createUser(tx, { email, name: input.name, isPlatformAdmin: input["platform-admin"] === true });
        await tx.user.update({ where: { id: created.id }, data: { passwordHash } });
        if (input.org && input.role) {
          await addMembership(tx, { userId: created.id, orgId: input.org, role: input.role.toUpperCase() as "OWNER" });
        }
        await recordAudit(tx, { action: "user.created", orgId: input.org ?? null, ...CLI_ACTOR, targetType: "user", targetId: created.id });
        return created;
      });
      return {
        json: { id: user.id, email: user.email, org: input.org ?? null, role: input.role ?? null, platform_admin: user.isPlatformAdmin },
        text: user.id,
      };
    },
  ),
  "key:create": command(
    "key:create --org <id> [--name <name>] [--endpoints a,b]",
    "Create an API key; prints the full key, once.",
    z.strictObject({
      org: uuid("org"),
      name: text("name").default("CLI key"),
      endpoints: z
        .string({ error: "--endpoints needs a comma-separated list" })
        .transform((v) => v.split(",").map((s) => s.trim()).filter(Boolean))
        .optional(),
    }),
    async (db, input) => {
      const { key, record } = await createKey(db, { orgId: input.org, name: input.name, endpoints: input.endpoints }, CLI_ACTOR);
      return {
        json: { id: record.id, key, hint: record.hint, name: record.name, allowed_endpoints: record.allowedEndpoints },
        text: key,
      };
    },
  ),
  "user:lock": command(
    "user:lock --email <email> --reason <text>",
    "Lock a user: they cannot sign in, and every session they have ends at once.",
    z.strictObject({ email: text("email"), reason: text("reason") }),
    async (db, input) => {
      const locked = await lockUser(db, input.email, input.reason, CLI_ACTOR);
      return { json: { id: locked.userId, email: locked.email, ended_sessions: locked.endedSessions }, text: `${locked.email} is locked; ${locked.endedSessions} session(s) ended.` };
    },
  ),
  "user:unlock": command(
    "user:unlock --email <email>",
    "Unlock a user locked with user:lock.",
    z.strictObject({ email: text("email") }),
    async (db, input) => {
      const unlocked = await unlockUser(db, input.email, CLI_ACTOR);
      return { json: { id: unlocked.userId, email: unlocked.email }, text: `${unlocked.email} may sign in again.` };
    },
  ),
  "user:set-password": command(
    "user:set-password --email <email> --password <pw>",
    "Set a user's password (a machine without email, where a reset link cannot be sent); ends their sessions and open reset links.",
    z.strictObject({ email: text("email"), password: text("password") }),
    async (db, input) => {
      const set = await setPasswordByOperator(db, input.email, input.password, CLI_ACTOR);
      return { json: { id: set.userId, email: set.email, ended_sessions: set.endedSessions }, text: `${set.email}'s password is set; ${set.endedSessions} session(s) ended.` };
    },
  ),
  "user:set-admin": command(
    "user:set-admin --email <email> (--grant | --revoke)",
    "Make an existing user a platform administrator (the console at /admin), or no longer one; the last one who can sign in cannot be removed.",
    z
      .strictObject({ email: text("email"), grant: z.literal(true).optional(), revoke: z.literal(true).optional() })
      .refine((v) => (v.grant === true) !== (v.revoke === true), "give exactly one of --grant and --revoke"),
    async (db, input) => {
      const result = await setPlatformAdmin(db, { email: input.email }, input.grant === true, CLI_ACTOR);
      const state = result.isPlatformAdmin ? "a platform administrator" : "not a platform administrator";
      return {
        json: { id: result.userId, email: result.email, platform_admin: result.isPlatformAdmin, changed: result.changed },
        text: `${result.email} is ${result.changed ? "now" : "already"} ${state}.`,
      };
    },
  ),
  "plans:requests": command(
    "plans:requests",
    "List the open requests for another plan, oldest first.",
    z.strictObject({}),
    async (db) => {
      const requests = await openPlanRequests(db);
      const json = requests.map((r) => ({
        id: r.id,
        org: r.organization.id,
        org_name: r.organization.name,
        from_plan: r.organization.plan.slug,
        to_plan: r.plan.slug,
        requested_by: r.requestedBy?.email ?? null,
        message: r.message,
        created_at: r.createdAt.toISOString(),
      }));
      const text = json.length
        ? json.map((r) => `${r.id}  ${r.org_name}: ${r.from_plan} → ${r.to_plan}${r.message ? `  “${r.message}”` : ""}  (${r.requested_by ?? "?"}, ${r.created_at})`).join("\n")
        : "No open requests.";
      return { json, text };
    },
  ),
  "plans:answer": command(
    "plans:answer --request <id> (--approve | --decline) --message <text>",
    "Answer a plan request; the customer sees the message. Approving moves the organization to the plan.",
    z
      .strictObject({ request: uuid("request"), approve: z.literal(true).optional(), decline: z.literal(true).optional(), message: text("message") })
      .refine((v) => (v.approve === true) !== (v.decline === true), "give exactly one of --approve and --decline"),
    async (db, input) => {
      const answered = await answerPlanRequest(db, input.request, { approve: input.approve === true, answer: input.message }, CLI_ACTOR);
      return { json: answered, text: `${answered.approved ? "Approved" : "Declined"}: the request for the ${answered.plan} plan.` };
    },
  ),
  "payments:held": command(
    "payments:held",
    "List payments held back, not credited (amount or currency not as created, or the organization closed), from Checkout and auto-recharge.",
    z.strictObject({}),
    async (db) => {
      const held = await heldPayments(db);
      const json = held.map((p) => ({
        payment: p.id,
        source: p.source,
        org: p.orgId,
        org_name: p.organization.name,
        amount: formatDollars(centsToNanos(p.amountCents)),
        currency: p.currency,
        reason: p.heldReason,
        payment_intent: p.paymentIntentId,
        created_at: p.createdAt.toISOString(),
      }));
      const text = json.length ? json.map((p) => `${p.payment} (${p.source})  ${p.org_name}: ${p.amount} ${p.currency} — ${p.reason ?? "?"}`).join("\n") : "No payment is held back.";
      return { json, text };
    },
  ),
  "key:disable": command(
    "key:disable --key <hint or id> [--reason <text the customer sees>]",
    "Disable a key for the platform (requests get 401 api_key_disabled; only the platform can re-enable it).",
    z.strictObject({ key: text("key"), reason: text("reason").default("Disabled by the platform's operators.") }),
    async (db, input) => {
      const key = await findKeyByIdOrHint(db, input.key);
      await setKeyStatusByPlatform(db, key.id, { status: "DISABLED", reason: input.reason }, CLI_ACTOR);
      return { json: { id: key.id, hint: key.hint, status: "disabled" }, text: `Key ${key.hint}… is now disabled.` };
    },
  ),
  "key:enable": command(
    "key:enable --key <hint or id>",
    "Re-enable a disabled key, whoever disabled it.",
    z.strictObject({ key: text("key") }),
    async (db, input) => {
      const key = await findKeyByIdOrHint(db, input.key);
      await setKeyStatusByPlatform(db, key.id, { status: "ACTIVE" }, CLI_ACTOR);
      return { json: { id: key.id, hint: key.hint, status: "active" }, text: `Key ${key.hint}… is now active.` };
    },
  ),
  "key:delete": command(
    "key:delete --key <hint or id>",
    "Delete a key for good (requests get 401 invalid_api_key).",
    z.strictObject({ key: text("key") }),
    async (db, input) => {
      const key = await findKeyByIdOrHint(db, input.key);
      await deleteKey(db, key.id, CLI_ACTOR);
      return { json: { id: key.id, hint: key.hint, deleted: true }, text: `Deleted key ${key.hint}… (${key.name}).` };
    },
  ),
  "credits:add": command(
    "credits:add --org <id> --dollars <amount> --reason <text>",
    "Add (or, with a negative amount, remove) credits through the ledger.",
    z.strictObject({
      org: uuid("org"),
      // Either way at most $1,000,000,000 (MAX_TYPED_NANOS).
      dollars: typedDollarsSchema({ label: "--dollars", min: -MAX_TYPED_NANOS }).refine((nanos) => nanos !== 0n, "--dollars must not be zero"),
      reason: text("reason"),
    }),
    async (db, input) => {
      const result = await adjustCredit(db, { orgId: input.org, amountNanos: input.dollars, reason: input.reason, idempotencyKey: randomUUID() }, CLI_ACTOR);
      if (result.status !== "applied") throw new DomainError("not_applied", "The credit was not applied.");
      return {
        json: { org: input.org, amount_dollars: formatDollars(input.dollars), balance_dollars: formatDollars(result.balanceAfterNanos) },
        text: `Balance is now ${formatDollars(result.balanceAfterNanos, { grouping: true })}.`,
      };
    },
  ),
};

export function cliHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((k) => k.length));
  return [
    "Usage: npm run cli -- <command> [options] [--json]",
    "",
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}\n  ${" ".repeat(width)}  ${c.usage}`),
  ].join("\n");
}

export async function runCli(argv: string[], db: PrismaClient): Promise<CliResult> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help") return { exitCode: name ? 0 : 2, stdout: name ? cliHelp() + "\n" : "", stderr: name ? "" : cliHelp() + "\n" };
  const cmd = COMMANDS[name];
  if (!cmd) return { exitCode: 2, stdout: "", stderr: `Unknown command "${name}".\n\n${cliHelp()}\n` };
  let json = false;
  try {
    const flags = parseFlags(rest);
    json = flags.json === true;
    delete flags.json;
    const parsed = cmd.schema.safeParse(flags);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) =>
        i.code === "unrecognized_keys" ? `unknown option(s): ${i.keys.map((k) => `--${k}`).join(", ")}` : i.message,
      );
      throw new UsageError(problems.join("\n"));
    }
    const out = await cmd.run(db, parsed.data as never);
    return { exitCode: 0, stdout: (json ? JSON.stringify(out.json, null, 2) : out.text) + "\n", stderr: "" };
  } catch (error) {
    if (error instanceof UsageError) {
      return { exitCode: 2, stdout: "", stderr: `${name}: ${error.message}\nUsage: npm run cli -- ${cmd.usage}\n` };
    }
    if (error instanceof DomainError) {
      const stdout = json ? JSON.stringify({ error: { code: error.code, message: error.message } }) + "\n" : "";
      return { exitCode: 1, stdout, stderr: `${name}: ${error.message}\n` };
    }
    throw error;
  }
}
