import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { parseDollars } from "@/lib/money";
import { changeBalance } from "@/lib/billing/ledger";
import { isPostgres } from "@/tests/support/database";
import { openApiTestbed, type Testbed } from "@/tests/support/api";
import { createAlertRule, evaluateAlerts } from "./alerts";
import { deliverDue, GIVE_UP_AFTER_MS } from "./delivery";
import { createWebhookEndpoint, deleteWebhookEndpoint, sendTestEvent, TEST_EVENTS_PER_MINUTE } from "./endpoints";
import { emitOrgEvent } from "./events";
import { verifyWebhook } from "./signing";

/**
 * Alerts fire once per crossing (also when two instances evaluate at once),
 * events reach a real local receiver signed the Standard Webhooks way, and
 * failing deliveries are retried with backoff, given up after 24 hours, and
 * the endpoint turned off with a notice; a test event is tried once, and a
 * deleted endpoint's deliveries are cancelled.
 */
let t: Testbed;
let server: Server;
let port: number;
let answer = 200;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  t = await openApiTestbed();
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.statusCode = answer;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
}, 120_000);
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t?.close();
});
afterEach(() => {
  vi.unstubAllEnvs();
  received.length = 0;
  answer = 200;
});

const actor = { actorLabel: "test" };

async function receiverFor(orgId: string) {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_TARGETS", "1");
  return createWebhookEndpoint(t.prisma, { orgId, url: `http://127.0.0.1:${port}/hook` }, actor);
}

/** An event that is retried when it fails (a test event is not). */
function alertEvent(orgId: string, now?: Date) {
  return emitOrgEvent(t.prisma, { orgId, type: "balance.below_threshold", email: false, now, data: { threshold_dollars: "$5.00", balance_dollars: "$3.00" } });
}

const fromOrg = (orgId: string) => received.filter((r) => JSON.parse(r.body).data.organization_id === orgId);

describe("alerts", () => {
  it("fire once per crossing, arm again when the condition ends, and fire again on the next crossing", async () => {
    const org = await t.org({ dollars: "3" });
    const { secret } = await receiverFor(org.id);
    await createAlertRule(t.prisma, { orgId: org.id, kind: "balance_below", apiKeyId: null, thresholdNanos: parseDollars("5") }, actor);

    expect((await evaluateAlerts(t.prisma)).fired).toBeGreaterThanOrEqual(1);
    expect(await evaluateAlerts(t.prisma)).toMatchObject({ fired: 0 });
    await deliverDue(t.prisma);
    const mine = () => received.filter((r) => JSON.parse(r.body).data.organization_id === org.id);
    expect(mine()).toHaveLength(1);
    const [delivery] = mine();
    const body = JSON.parse(delivery!.body);
    expect(body).toMatchObject({ type: "balance.below_threshold", data: { organization_id: org.id, threshold_dollars: "$5.00", balance_dollars: "$3.00" } });
    const headers = { id: String(delivery!.headers["webhook-id"]), timestamp: String(delivery!.headers["webhook-timestamp"]), signature: String(delivery!.headers["webhook-signature"]) };
    expect(headers.id).toMatch(/^msg_/);
    expect(verifyWebhook(secret, headers, delivery!.body)).toBe(true);

    // A top-up arms it again (no event); the next fall below fires once more.
    await changeBalance(t.prisma, { orgId: org.id, kind: "ADJUSTMENT", amountNanos: parseDollars("10") });
    expect((await evaluateAlerts(t.prisma)).rearmed).toBeGreaterThanOrEqual(1);
    await changeBalance(t.prisma, { orgId: org.id, kind: "ADJUSTMENT", amountNanos: -parseDollars("9") });
    await evaluateAlerts(t.prisma);
    await evaluateAlerts(t.prisma);
    await deliverDue(t.prisma);
    expect(mine()).toHaveLength(2);
    expect((await t.prisma.alertRule.findFirstOrThrow({ where: { orgId: org.id } })).fireCount).toBe(2);
  });

  it("count a key's spend today, and fire exactly once when instances evaluate at the same moment", async () => {
    const org = await t.org({ dollars: "5" });
    await receiverFor(org.id);
    await createAlertRule(t.prisma, { orgId: org.id, kind: "spend_day_above", apiKeyId: org.keyId, thresholdNanos: 1n }, actor);
    expect((await t.request(`/v1/dilution-rating?ticker=ZVTX`, { key: org.key })).status).toBe(200);
    await Promise.all(Array.from({ length: isPostgres() ? 6 : 2 }, () => evaluateAlerts(t.prisma)));
    const events = await t.prisma.notificationEvent.findMany({ where: { orgId: org.id } });
    expect(events.map((e) => e.type)).toEqual(["spend.day_above_threshold"]);
    expect(events[0]!.payload).toMatchObject({ scope: "key", period: "day", key: { name: "key 1" } });
  });

  it("email owners and admins when SMTP is configured, once per crossing, with the event's JSON", async () => {
    vi.stubEnv("SMTP_URL", "smtp://mail.test:587");
    vi.stubEnv("EMAIL_FROM", "alerts@example.com");
    const org = await t.org({ dollars: "2" });
    for (const [email, role] of [["owner@alerts.test", "OWNER"], ["admin@alerts.test", "ADMIN"], ["member@alerts.test", "MEMBER"]] as const) {
      const user = await t.prisma.user.create({ data: { email: `${org.id}-${email}` } });
      await t.prisma.membership.create({ data: { userId: user.id, orgId: org.id, role } });
    }
    await createAlertRule(t.prisma, { orgId: org.id, kind: "balance_below", apiKeyId: null, thresholdNanos: parseDollars("10") }, actor);
    await evaluateAlerts(t.prisma);
    await evaluateAlerts(t.prisma);
    const sent: { to: string; subject: string; text: string }[] = [];
    const sendEmail = async (message: { to: string; subject: string; text: string; html: string }) => {
      sent.push(message);
      return {};
    };
    await deliverDue(t.prisma, { sendEmail });
    const mine = sent.filter((m) => m.text.includes(org.id));
    expect(mine.map((m) => m.to).sort()).toEqual([`${org.id}-admin@alerts.test`, `${org.id}-owner@alerts.test`]);
    expect(mine[0]!.subject).toContain("The balance fell below an alert's threshold");
    expect(mine[0]!.text).toContain('"balance_dollars": "$2.00"');
    const emails = await t.prisma.notificationDelivery.findMany({ where: { channel: "email", event: { orgId: org.id } } });
    expect(emails.map((e) => [e.status, e.attempts])).toEqual([["succeeded", 1], ["succeeded", 1]]);
  });

  it("refuse a balance alert for one key, and a key of another organization", async () => {
    const org = await t.org({ dollars: "1" });
    const other = await t.org({ dollars: "1" });
    await expect(createAlertRule(t.prisma, { orgId: org.id, kind: "balance_below", apiKeyId: org.keyId, thresholdNanos: 1n }, actor)).rejects.toMatchObject({ code: "invalid_input" });
    await expect(createAlertRule(t.prisma, { orgId: org.id, kind: "spend_day_above", apiKeyId: other.keyId, thresholdNanos: 1n }, actor)).rejects.toMatchObject({ code: "unknown_key" });
  });
});

describe("webhook deliveries", () => {
  it("keep the secret sealed at rest and send a test event on request", async () => {
    const org = await t.org({ dollars: "1" });
    const { endpoint, secret } = await receiverFor(org.id);
    const stored = await t.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(stored.secretEncrypted).not.toContain(secret.slice(6));
    expect(stored.secretHint).toBe(`${secret.slice(0, 10)}…`);
    await sendTestEvent(t.prisma, org.id, endpoint.id);
    await deliverDue(t.prisma);
    const test = received.find((r) => JSON.parse(r.body).type === "webhook.test" && JSON.parse(r.body).data.organization_id === org.id)!;
    expect(verifyWebhook(secret, { id: String(test.headers["webhook-id"]), timestamp: String(test.headers["webhook-timestamp"]), signature: String(test.headers["webhook-signature"]) }, test.body)).toBe(true);
  });

  it("retry a failing endpoint with growing pauses, keep the same webhook-id, give up after 24 hours and turn the endpoint off", async () => {
    const org = await t.org({ dollars: "1" });
    const { endpoint } = await receiverFor(org.id);
    const start = Date.now();
    await alertEvent(org.id, new Date(start));
    answer = 500;
    const delivery = () => t.prisma.notificationDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
    await deliverDue(t.prisma, { now: new Date(start) });
    const first = await delivery();
    expect(first).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500, lastError: "answered HTTP 500" });
    expect(first.nextAttemptAt.getTime() - start).toBe(10_000);
    // Not due yet: nothing is sent.
    await deliverDue(t.prisma, { now: new Date(start + 9_000) });
    expect((await delivery()).attempts).toBe(1);
    await deliverDue(t.prisma, { now: new Date(start + 10_000) });
    const second = await delivery();
    expect(second.attempts).toBe(2);
    expect(second.nextAttemptAt.getTime() - (start + 10_000)).toBe(30_000);
    // Deliveries other tests left queued may arrive in the same runs: count this organization's.
    const ids = new Set(received.filter((r) => JSON.parse(r.body).data.organization_id === org.id).map((r) => r.headers["webhook-id"]));
    expect(ids.size).toBe(1);

    await deliverDue(t.prisma, { now: new Date(start + GIVE_UP_AFTER_MS) });
    expect(await delivery()).toMatchObject({ status: "failed", attempts: 3 });
    const off = await t.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(off.enabled).toBe(false);
    expect(off.disabledReason).toMatch(/^Every delivery failed for 24 hours/);
    const notice = await t.prisma.notificationEvent.findFirst({ where: { orgId: org.id, type: "webhook.disabled" } });
    expect(notice?.payload).toMatchObject({ endpoint_id: endpoint.id });
  });

  it("a success ends the run of failures", async () => {
    const org = await t.org({ dollars: "1" });
    const { endpoint } = await receiverFor(org.id);
    const start = Date.now();
    await alertEvent(org.id, new Date(start));
    answer = 503;
    await deliverDue(t.prisma, { now: new Date(start) });
    expect((await t.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).failingSince).not.toBeNull();
    answer = 204;
    await deliverDue(t.prisma, { now: new Date(start + 10_000) });
    expect((await t.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).failingSince).toBeNull();
    expect(await t.prisma.notificationDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } })).toMatchObject({ status: "succeeded", lastStatusCode: 204 });
  });

  it("try a test event once: a failure is shown in the log and never retried", async () => {
    const org = await t.org({ dollars: "1" });
    const { endpoint } = await receiverFor(org.id);
    const start = Date.now();
    await sendTestEvent(t.prisma, org.id, endpoint.id, new Date(start));
    answer = 500;
    await deliverDue(t.prisma, { now: new Date(start) });
    const delivery = () => t.prisma.notificationDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
    expect(await delivery()).toMatchObject({ status: "failed", attempts: 1, lastStatusCode: 500, lastError: "answered HTTP 500" });
    for (const later of [10_000, 3600_000, GIVE_UP_AFTER_MS]) await deliverDue(t.prisma, { now: new Date(start + later) });
    expect((await delivery()).attempts).toBe(1);
    expect(fromOrg(org.id)).toHaveLength(1);
  });

  it(`limit "Send test event" to ${TEST_EVENTS_PER_MINUTE} a minute per endpoint, with a clear message`, async () => {
    const org = await t.org({ dollars: "1" });
    const { endpoint } = await receiverFor(org.id);
    const { endpoint: other } = await receiverFor(org.id);
    const start = new Date();
    for (let i = 0; i < TEST_EVENTS_PER_MINUTE; i++) await sendTestEvent(t.prisma, org.id, endpoint.id, new Date(start.getTime() + i * 1000));
    await expect(sendTestEvent(t.prisma, org.id, endpoint.id, new Date(start.getTime() + 10_000))).rejects.toMatchObject({
      code: "rate_limited",
      message: "At most 5 test events a minute per endpoint: try again in 50 s.",
    });
    // A minute after the first, the next test is accepted.
    await sendTestEvent(t.prisma, org.id, endpoint.id, new Date(start.getTime() + 60_001));
    // Another endpoint has its own count, and clicks at once do not pass the limit together.
    const burst = await Promise.allSettled(Array.from({ length: 8 }, () => sendTestEvent(t.prisma, org.id, other.id, new Date(start.getTime() + 10_000))));
    expect(burst.filter((r) => r.status === "fulfilled")).toHaveLength(TEST_EVENTS_PER_MINUTE);
    expect(await t.prisma.notificationDelivery.count({ where: { endpointId: endpoint.id } })).toBe(TEST_EVENTS_PER_MINUTE + 1);
  });
});

describe("deleting a webhook endpoint", () => {
  it("cancels its queued and retrying deliveries, and the worker sends none of them", async () => {
    const org = await t.org({ dollars: "1" });
    const { endpoint } = await receiverFor(org.id);
    const start = Date.now();
    await alertEvent(org.id, new Date(start));
    answer = 500;
    await deliverDue(t.prisma, { now: new Date(start) });
    await alertEvent(org.id, new Date(start + 1000));
    const deliveries = () => t.prisma.notificationDelivery.findMany({ where: { endpointId: endpoint.id }, orderBy: { createdAt: "asc" } });
    expect((await deliveries()).map((d) => [d.status, d.attempts])).toEqual([["pending", 1], ["pending", 0]]);

    await deleteWebhookEndpoint(t.prisma, org.id, endpoint.id, actor);
    answer = 200;
    for (const later of [10_000, 3600_000]) await deliverDue(t.prisma, { now: new Date(start + later) });
    expect((await deliveries()).map((d) => [d.status, d.attempts, d.lastError])).toEqual([
      ["cancelled", 1, "the endpoint was deleted"],
      ["cancelled", 0, "the endpoint was deleted"],
    ]);
    expect(fromOrg(org.id)).toHaveLength(1);
  });

  it("while a delivery is on its way: its failure does not put it back in the queue", async () => {
    const org = await t.org({ dollars: "1" });
    const { endpoint } = await receiverFor(org.id);
    const start = Date.now();
    await alertEvent(org.id, new Date(start));
    // The endpoint is deleted while the worker waits for its answer, which is a failure.
    const post = async (_url: string, _headers: Record<string, string>, body: string) => {
      if (JSON.parse(body).data.organization_id !== org.id) return { status: 200, error: null };
      await deleteWebhookEndpoint(t.prisma, org.id, endpoint.id, actor);
      return { status: 500, error: null };
    };
    await deliverDue(t.prisma, { now: new Date(start), post });
    const delivery = () => t.prisma.notificationDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } });
    expect(await delivery()).toMatchObject({ status: "cancelled", attempts: 1 });
    await deliverDue(t.prisma, { now: new Date(start + 3600_000) });
    expect(await delivery()).toMatchObject({ status: "cancelled", attempts: 1 });
    expect(fromOrg(org.id)).toHaveLength(0);
  });

  it("a delivery left pending for a deleted endpoint (before this rule) is cancelled by the worker, not retried", async () => {
    const org = await t.org({ dollars: "1" });
    const { endpoint } = await receiverFor(org.id);
    const start = Date.now();
    await alertEvent(org.id, new Date(start));
    await t.prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { deletedAt: new Date(start), enabled: false } });
    await deliverDue(t.prisma, { now: new Date(start) });
    expect(await t.prisma.notificationDelivery.findFirstOrThrow({ where: { endpointId: endpoint.id } })).toMatchObject({ status: "cancelled", attempts: 1, lastError: "the endpoint was deleted" });
    expect(fromOrg(org.id)).toHaveLength(0);
  });
});
