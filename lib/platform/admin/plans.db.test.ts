import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PriceBook } from "@/lib/api/prices";
import type { Principal } from "@/lib/auth/session";
import { ensureDefaultPlans } from "@/lib/billing/plans";
import { ENDPOINT_NAMES, ENDPOINTS } from "@/lib/catalog";
import type { Database, PrismaClient } from "@/lib/db";
import { parseDollars } from "@/lib/money";
import { openTestDatabase } from "@/tests/support/database";
import { signUp } from "../accounts";
import { setOrganizationPlan } from "../organizations";
import { requestPlanChange } from "../plans";
import { PLATFORM_ACTOR_LABEL } from "./access";
import { createPlan, deletePlan, listPlansForAdmin, parseUtcMoment, priceSchedule, schedulePriceChange, updatePlan } from "./plans";

let db: Database;
let prisma: PrismaClient;
let admin: Principal;
let adminEmail: string;
let customer: Principal;
let customerOrg: string;
let counter = 0;

beforeAll(async () => {
  db = await openTestDatabase();
  prisma = db.prisma;
  await ensureDefaultPlans(prisma);
  const a = await signUp(prisma, { email: "admin@platform.test", password: "a long enough password" }, "203.0.113.1");
  await prisma.user.update({ where: { id: a.user.id }, data: { isPlatformAdmin: true } });
  admin = { userId: a.user.id, ip: "203.0.113.1" };
  adminEmail = a.user.email;
  const c = await signUp(prisma, { email: "customer@example.test", password: "a long enough password" }, "203.0.113.2");
  customer = { userId: c.user.id, ip: "203.0.113.2" };
  customerOrg = c.org.id;
}, 120_000);
afterAll(() => db?.close());

const form = (values: Record<string, unknown>) => ({
  name: "Pro",
  allowedEndpoints: ["offerings", "dilution-rating"],
  requestsPerMinute: "300",
  isTrial: undefined,
  dailyTickerLimit: "",
  ...values,
});

const slug = () => `pro-${++counter}`;

describe("plans", () => {
  it("are created, edited and deleted, each change audited with its before and after values", async () => {
    const s = slug();
    const created = await createPlan(prisma, admin, form({ slug: s, dailyTickerLimit: "25" }));
    const plan = await prisma.plan.findUniqueOrThrow({ where: { id: created.id } });
    // Catalog order, and no ticker limit on a plan that is not a trial.
    expect(plan).toMatchObject({ slug: s, name: "Pro", allowedEndpoints: ["dilution-rating", "offerings"], requestsPerMinute: 300, isTrial: false, dailyTickerLimit: null });
    const createdEntry = await prisma.auditLog.findFirstOrThrow({ where: { action: "plan.created", targetId: plan.id } });
    expect(createdEntry).toMatchObject({ actorUserId: admin.userId, actorLabel: PLATFORM_ACTOR_LABEL, ip: admin.ip, orgId: null });
    expect(createdEntry.details).toMatchObject({ slug: s, name: "Pro", after: { requests_per_minute: 300, trial: false } });

    expect(await updatePlan(prisma, admin, plan.id, form({ name: "Pro trial", requestsPerMinute: "500", isTrial: "on", dailyTickerLimit: "40", allowedEndpoints: [...ENDPOINT_NAMES] }))).toMatchObject({ changed: true });
    expect(await prisma.plan.findUniqueOrThrow({ where: { id: plan.id } })).toMatchObject({ slug: s, name: "Pro trial", requestsPerMinute: 500, isTrial: true, dailyTickerLimit: 40, allowedEndpoints: [...ENDPOINT_NAMES] });
    const updated = await prisma.auditLog.findFirstOrThrow({ where: { action: "plan.updated", targetId: plan.id } });
    expect(updated.details).toEqual({
      slug: s,
      name: "Pro trial",
      before: { name: "Pro", allowed_endpoints: ["dilution-rating", "offerings"], requests_per_minute: 300, trial: false, daily_ticker_limit: null },
      after: { name: "Pro trial", allowed_endpoints: [...ENDPOINT_NAMES], requests_per_minute: 500, trial: true, daily_ticker_limit: 40 },
    });
    // Saving the same values changes nothing and writes nothing.
    expect(await updatePlan(prisma, admin, plan.id, form({ name: "Pro trial", requestsPerMinute: 500, isTrial: true, dailyTickerLimit: 40, allowedEndpoints: [...ENDPOINT_NAMES] }))).toMatchObject({ changed: false });
    expect(await prisma.auditLog.count({ where: { action: "plan.updated", targetId: plan.id } })).toBe(1);

    const row = (await listPlansForAdmin(prisma, admin)).find((p) => p.id === plan.id);
    expect(row).toMatchObject({ organizations: 0, openOrganizations: 0, requests: 0, isDefault: false });

    expect(await deletePlan(prisma, admin, plan.id)).toMatchObject({ slug: s });
    expect(await prisma.plan.findUnique({ where: { id: plan.id } })).toBeNull();
    const deleted = await prisma.auditLog.findFirstOrThrow({ where: { action: "plan.deleted", targetId: plan.id } });
    expect(deleted.details).toMatchObject({ slug: s, name: "Pro trial", before: { requests_per_minute: 500 }, after: {} });
  });

  it("refuses a bad or taken slug, no endpoints, and numbers that are not whole", async () => {
    await expect(createPlan(prisma, admin, form({ slug: "Pro Plan" }))).rejects.toThrow(/lowercase letters, digits and single hyphens/);
    await expect(createPlan(prisma, admin, form({ slug: "retail" }))).rejects.toMatchObject({ code: "plan_slug_taken" });
    await expect(createPlan(prisma, admin, form({ slug: slug(), allowedEndpoints: [] }))).rejects.toThrow(/at least one endpoint/);
    await expect(createPlan(prisma, admin, form({ slug: slug(), allowedEndpoints: ["made-up"] }))).rejects.toThrow(/from the list/);
    await expect(createPlan(prisma, admin, form({ slug: slug(), requestsPerMinute: "2.5" }))).rejects.toThrow(/whole number/);
    await expect(createPlan(prisma, admin, form({ slug: slug(), requestsPerMinute: "" }))).rejects.toThrow(/requests per minute/);
    await expect(createPlan(prisma, admin, form({ slug: slug(), isTrial: "on", dailyTickerLimit: "0" }))).rejects.toThrow(/at least 1 ticker/);
    await expect(updatePlan(prisma, admin, "00000000-0000-4000-8000-000000000000", form({}))).rejects.toMatchObject({ code: "unknown_plan" });
  });

  it("cannot be deleted while an organization is on it (closed ones too) or a plan request names it, nor when it is a default plan", async () => {
    const s = slug();
    const plan = await createPlan(prisma, admin, form({ slug: s }));
    await setOrganizationPlan(prisma, customerOrg, s, { actorLabel: "cli" });
    await prisma.organization.update({ where: { id: customerOrg }, data: { closedAt: new Date() } });
    const listed = (await listPlansForAdmin(prisma, admin)).find((p) => p.id === plan.id);
    expect(listed).toMatchObject({ organizations: 1, openOrganizations: 0 });
    await expect(deletePlan(prisma, admin, plan.id)).rejects.toMatchObject({ code: "plan_in_use", message: expect.stringMatching(/1 organization is on it \(closed ones count too\)/) });

    await prisma.organization.update({ where: { id: customerOrg }, data: { closedAt: null } });
    await setOrganizationPlan(prisma, customerOrg, "trial", { actorLabel: "cli" });
    await requestPlanChange(prisma, customer, customerOrg, { plan: s });
    await expect(deletePlan(prisma, admin, plan.id)).rejects.toMatchObject({ code: "plan_in_use", message: expect.stringMatching(/1 plan request names it/) });
    expect(await prisma.plan.findUnique({ where: { id: plan.id } })).not.toBeNull();
    expect(await prisma.auditLog.count({ where: { action: "plan.deleted", targetId: plan.id } })).toBe(0);

    const trial = await prisma.plan.findUniqueOrThrow({ where: { slug: "enterprise" } });
    await expect(deletePlan(prisma, admin, trial.id)).rejects.toMatchObject({ code: "default_plan" });
  });

  it("are refused to anyone who is not a platform administrator, and nothing changes", async () => {
    const retail = await prisma.plan.findUniqueOrThrow({ where: { slug: "retail" } });
    const plansBefore = await prisma.plan.count();
    const auditBefore = await prisma.auditLog.count();
    for (const who of [customer, null]) {
      await expect(listPlansForAdmin(prisma, who)).rejects.toMatchObject({ code: "not_found" });
      await expect(createPlan(prisma, who, form({ slug: slug() }))).rejects.toMatchObject({ code: "not_found" });
      await expect(updatePlan(prisma, who, retail.id, form({ requestsPerMinute: "99999" }))).rejects.toMatchObject({ code: "not_found" });
      await expect(deletePlan(prisma, who, retail.id)).rejects.toMatchObject({ code: "not_found" });
      await expect(schedulePriceChange(prisma, who, { endpoint: "offerings", price: "0.01" })).rejects.toMatchObject({ code: "not_found" });
    }
    expect(await prisma.plan.count()).toBe(plansBefore);
    expect(await prisma.plan.findUniqueOrThrow({ where: { id: retail.id } })).toEqual(retail);
    expect(await prisma.auditLog.count()).toBe(auditBefore);
    expect(await prisma.priceChange.count({ where: { endpoint: "offerings" } })).toBe(0);
  });
});

const minute = (date: Date) => date.toISOString().slice(0, 16); // a datetime-local value, read as UTC

describe("prices", () => {
  it("a scheduled change: requests before its moment are charged the old price, from its moment on the new one", async () => {
    const book = new PriceBook(prisma, 60_000); // a long cache: the change must reach it through notifyAccessChanged
    const now = new Date();
    expect(await book.pricePerGbNanos("registrations", now.getTime())).toBe(ENDPOINTS.registrations.defaultPricePerGbNanos);

    const at = parseUtcMoment(minute(new Date(now.getTime() + 3600_000)))!;
    const scheduled = await schedulePriceChange(prisma, admin, { endpoint: "registrations", price: "12.345678901", effectiveAt: minute(at) });
    expect(scheduled).toMatchObject({ endpoint: "registrations", beforeNanos: parseDollars("10"), afterNanos: 12_345_678_901n, effectiveAt: at, until: null });

    expect(await book.pricePerGbNanos("registrations", now.getTime())).toBe(parseDollars("10"));
    expect(await book.pricePerGbNanos("registrations", at.getTime() - 1)).toBe(parseDollars("10"));
    expect(await book.pricePerGbNanos("registrations", at.getTime())).toBe(12_345_678_901n);
    expect(await book.pricePerGbNanos("registrations", at.getTime() + 86_400_000)).toBe(12_345_678_901n);

    const entry = await prisma.auditLog.findFirstOrThrow({ where: { action: "price.scheduled", targetId: "registrations" } });
    expect(entry).toMatchObject({ actorUserId: admin.userId, actorLabel: PLATFORM_ACTOR_LABEL });
    expect(entry.details).toEqual({
      endpoint: "registrations",
      before_per_gb: "$10.00",
      after_per_gb: "$12.345678901",
      effective_at: at.toISOString(),
      before: { price_per_gb: "$10.00", price_per_gb_nanos: "10000000000" },
      after: { price_per_gb: "$12.345678901", price_per_gb_nanos: "12345678901" },
    });

    // The schedule as the page shows it, before and after the moment.
    const schedule = await priceSchedule(prisma, now);
    const registrations = schedule.find((e) => e.name === "registrations")!;
    expect(registrations).toMatchObject({ defaultNanos: parseDollars("10"), currentNanos: parseDollars("10"), currentSince: null, next: { nanos: 12_345_678_901n, effectiveAt: at } });
    expect(registrations.history).toEqual([expect.objectContaining({ nanos: 12_345_678_901n, effectiveAt: at, createdBy: adminEmail, state: "scheduled" })]);
    expect(schedule.map((e) => e.name)).toEqual([...ENDPOINT_NAMES]);
    const later = (await priceSchedule(prisma, new Date(at.getTime() + 1))).find((e) => e.name === "registrations")!;
    expect(later).toMatchObject({ currentNanos: 12_345_678_901n, currentSince: at, next: null });
    expect(later.history[0]!.state).toBe("in_force");
  });

  it("now by default; a change between two others follows the earlier one; history is newest first", async () => {
    const now = new Date();
    const first = await schedulePriceChange(prisma, admin, { endpoint: "float-outstanding", price: "$9" }, now);
    expect(first).toMatchObject({ effectiveAt: now, beforeNanos: parseDollars("8") });
    const far = new Date(now.getTime() + 7 * 86_400_000);
    await schedulePriceChange(prisma, admin, { endpoint: "float-outstanding", price: "11", effectiveAt: far.toISOString() }, now);
    const middle = new Date(now.getTime() + 86_400_000);
    const between = await schedulePriceChange(prisma, admin, { endpoint: "float-outstanding", price: "10", effectiveAt: middle.toISOString() }, now);
    expect(between).toMatchObject({ beforeNanos: parseDollars("9"), afterNanos: parseDollars("10"), until: far });

    const schedule = (await priceSchedule(prisma, new Date(now.getTime() + 1))).find((e) => e.name === "float-outstanding")!;
    expect(schedule).toMatchObject({ currentNanos: parseDollars("9"), next: { nanos: parseDollars("10"), effectiveAt: middle } });
    expect(schedule.history.map((h) => [h.nanos, h.state])).toEqual([
      [parseDollars("11"), "scheduled"],
      [parseDollars("10"), "scheduled"],
      [parseDollars("9"), "in_force"],
    ]);
  });

  it("refuses a past moment, a moment already taken, a price that is not a positive amount, and an unknown endpoint", async () => {
    const now = new Date();
    const rowsBefore = await prisma.priceChange.count();
    const past = minute(new Date(now.getTime() - 2 * 60_000));
    await expect(schedulePriceChange(prisma, admin, { endpoint: "offerings", price: "30", effectiveAt: past }, now)).rejects.toThrow(/That moment has passed/);
    await expect(schedulePriceChange(prisma, admin, { endpoint: "offerings", price: "0" }, now)).rejects.toThrow(/above zero/);
    await expect(schedulePriceChange(prisma, admin, { endpoint: "offerings", price: "-3" }, now)).rejects.toThrow(/above zero/);
    await expect(schedulePriceChange(prisma, admin, { endpoint: "offerings", price: "1.0000000001" }, now)).rejects.toThrow(/at most 9 decimals/);
    await expect(schedulePriceChange(prisma, admin, { endpoint: "offerings", price: "25" }, now)).rejects.toThrow(/costs \$25\.00 per GB at that moment already/);
    await expect(schedulePriceChange(prisma, admin, { endpoint: "made-up", price: "3" }, now)).rejects.toThrow(/endpoint from the catalog/);
    await expect(schedulePriceChange(prisma, admin, { endpoint: "offerings", price: "3", effectiveAt: "2026-02-30T10:00" }, now)).rejects.toThrow(/UTC date and time/);
    expect(await prisma.priceChange.count()).toBe(rowsBefore);

    // Within the last minute (a datetime-local has no seconds) means now: nothing already charged is re-priced.
    const recent = await schedulePriceChange(prisma, admin, { endpoint: "offerings", price: "30", effectiveAt: new Date(now.getTime() - 30_000).toISOString() }, now);
    expect(recent.effectiveAt).toEqual(now);

    const at = new Date(now.getTime() + 3 * 86_400_000);
    await schedulePriceChange(prisma, admin, { endpoint: "offerings", price: "31", effectiveAt: at.toISOString() }, now);
    await expect(schedulePriceChange(prisma, admin, { endpoint: "offerings", price: "32", effectiveAt: at.toISOString() }, now)).rejects.toMatchObject({ code: "price_moment_taken" });
    expect(await prisma.priceChange.count({ where: { endpoint: "offerings" } })).toBe(2);
  });
});

describe("parseUtcMoment", () => {
  it("reads a datetime-local value as UTC and refuses days that do not exist", () => {
    expect(parseUtcMoment("2026-03-01T09:30")).toEqual(new Date("2026-03-01T09:30:00.000Z"));
    expect(parseUtcMoment("2026-03-01T09:30:15.5Z")).toEqual(new Date("2026-03-01T09:30:15.500Z"));
    expect(parseUtcMoment("2026-02-29T09:30")).toBeNull();
    expect(parseUtcMoment("2026-03-01 09:30")).toBeNull();
    expect(parseUtcMoment("2026-03-01T24:00")).toBeNull();
  });
});
