import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { describeActor, describeAuditEntry, DESCRIBED_ACTIONS } from "./audit-format";

const KEY = { name: "Bot", hint: "svc-live-ab1" };

/** [action, details, words] for every action the code writes, and the variants of their details. */
const CASES: [string, unknown, string][] = [
  ["key.created", { ...KEY, endpoints: [] }, "Created key “Bot” (svc-live-ab1…)"],
  ["key.disabled", KEY, "Disabled key “Bot” (svc-live-ab1…)"],
  ["key.enabled", KEY, "Enabled key “Bot” (svc-live-ab1…)"],
  ["key.deleted", KEY, "Deleted key “Bot” (svc-live-ab1…)"],
  ["key.restricted", { ...KEY, endpoints: ["dilution-rating", "offerings"] }, "Restricted key “Bot” (svc-live-ab1…) to dilution-rating, offerings"],
  ["key.restricted", { ...KEY, endpoints: [] }, "Opened key “Bot” (svc-live-ab1…) to every endpoint of the plan"],
  [
    "key.restricted",
    { ...KEY, endpoints: ["offerings"], by_platform: true, reason: "Scraping registrations" },
    "Restricted key “Bot” (svc-live-ab1…) to offerings for the platform: Scraping registrations",
  ],
  ["key.restricted", { ...KEY, endpoints: [], by_platform: true, reason: null }, "Lifted the platform’s endpoint restriction of key “Bot” (svc-live-ab1…)"],
  ["key.deleted", {}, "Deleted key (unnamed)"],
  ["key.rolled", { ...KEY, hint: "svc-live-cd2", old_hint: "svc-live-ab1", grace_seconds: 3600 }, "Rolled key “Bot” (svc-live-cd2…) (replaces svc-live-ab1…); the old key works for 1 hour more"],
  ["key.rolled", { ...KEY, old_hint: "svc-live-ab0", grace_seconds: 0 }, "Rolled key “Bot” (svc-live-ab1…) (replaces svc-live-ab0…); the old key stopped at once"],
  ["key.rolled", { ...KEY, grace_seconds: 604800 }, "Rolled key “Bot” (svc-live-ab1…); the old key works for 7 days more"],
  ["key.grace_ended", KEY, "Ended the grace period of rolled key “Bot” (svc-live-ab1…): it is refused from now on"],
  [
    "key.limits_changed",
    { ...KEY, allowed_ips: ["203.0.113.0/24"], daily_cap: "$5.00", monthly_cap: null },
    "Changed the limits of key “Bot” (svc-live-ab1…): allowed from 203.0.113.0/24; caps daily $5.00, monthly none",
  ],
  ["key.limits_changed", { ...KEY, allowed_ips: [] }, "Changed the limits of key “Bot” (svc-live-ab1…): any address; caps daily none, monthly none"],
  ["key.expiry_changed", { ...KEY, expires_on: "2027-06-30" }, "Set key “Bot” (svc-live-ab1…) to expire after 2027-06-30 (UTC)"],
  ["key.expiry_changed", { ...KEY, expires_on: null }, "Set key “Bot” (svc-live-ab1…) to never expire"],

  ["member.invited", { email: "bea@example.com", role: "ADMIN" }, "Invited bea@example.com as Admin"],
  ["member.invited", { email: null, role: "MEMBER" }, "Created an invitation link for anyone, as Member"],
  ["member.invitation_revoked", { email: "bea@example.com", role: "OWNER" }, "Revoked the invitation of bea@example.com (Owner)"],
  ["member.invitation_revoked", { email: null, role: "ADMIN" }, "Revoked an invitation link (Admin)"],
  ["member.joined", { email: "bea@example.com", role: "ADMIN", invitationId: "x" }, "Joined the organization as Admin"],
  ["member.role_changed", { email: "bea@example.com", from: "MEMBER", to: "ADMIN" }, "Changed the role of bea@example.com from Member to Admin"],
  ["member.removed", { email: "bea@example.com", role: "MEMBER" }, "Removed bea@example.com (Member)"],
  ["member.removed", { email: "bea@example.com", role: "ADMIN", invitationsRevoked: 2 }, "Removed bea@example.com (Admin), withdrawing their 2 open invitations"],
  ["member.left", { email: "bea@example.com", role: "ADMIN" }, "Left the organization (was Admin)"],

  ["org.created", { name: "Acme", plan: "trial" }, "Created the organization “Acme” on the Trial plan"],
  ["org.created", { plan: "enterprise" }, "Created the organization on the Enterprise plan"],
  ["org.renamed", { from: "Acme", to: "Acme Trading" }, "Renamed the organization from “Acme” to “Acme Trading”"],
  ["org.plan_changed", { plan: "retail" }, "Moved the organization to the Retail plan"],
  ["org.plan_requested", { plan: "retail", message: "We need dilution data" }, "Asked for the Retail plan: “We need dilution data”"],
  ["org.plan_request_withdrawn", { plan: "enterprise" }, "Withdrew the request for the Enterprise plan"],
  ["org.plan_request_answered", { plan: "retail", approved: true, answer: "Welcome aboard" }, "Approved the request for the Retail plan: “Welcome aboard”"],
  ["org.plan_request_answered", { plan: "retail", approved: false, answer: "Not for trial use" }, "Declined the request for the Retail plan: “Not for trial use”"],
  ["org.closed", { forfeited: "$4.50", keysDeleted: 2 }, "Closed the organization, forfeiting $4.50 of credit"],
  ["org.closed", { forfeited: "$0.00" }, "Closed the organization"],
  ["user.deleted", {}, "Deleted their account"],

  ["user.signed_in", { method: "password" }, "Signed in"],
  ["user.signed_in", { method: "github" }, "Signed in with GitHub"],
  ["user.sign_in_failed", { reason: "wrong_password" }, "Failed sign-in (wrong password)"],
  ["user.signed_up", { email: "ann@example.com" }, "Created their account"],
  ["user.signed_up", { email: "ann@example.com", method: "google" }, "Created their account with Google"],
  ["user.created", {}, "Created a user account"],
  ["user.password_changed", { endedSessions: 2 }, "Changed their password, ending 2 other sessions"],
  ["user.password_changed", { endedSessions: 0 }, "Changed their password"],
  ["user.password_reset_requested", { sent: true }, "Asked for a password reset link by email"],
  ["user.password_reset_requested", { sent: false, openLinks: 3 }, "Asked for a password reset link (none sent: three are still open)"],
  ["user.password_reset", { endedSessions: 1, revokedLinks: 0 }, "Reset their password with an emailed link, ending 1 session"],
  ["user.password_reset", { endedSessions: 0, revokedLinks: 2 }, "Reset their password with an emailed link"],
  ["user.password_set", { email: "ana@example.com", endedSessions: 0 }, "Set the password of ana@example.com"],
  ["user.password_set", { email: "ana@example.com", endedSessions: 2 }, "Set the password of ana@example.com, ending 2 sessions"],
  ["user.sessions_ended", { endedSessions: 1 }, "Signed out of their other sessions (1)"],
  ["user.locked", { email: "eve@example.com", reason: "card testing" }, "Locked eve@example.com: card testing"],
  ["user.unlocked", { email: "eve@example.com" }, "Unlocked eve@example.com"],

  ["alert.created", { kind: "balance_below", threshold: "$25.00", key: null }, "Added the alert “balance below $25.00”"],
  ["alert.created", { kind: "spend_day_above", threshold: "$5.00", key: "Bot (svc-live-ab1…)" }, "Added the alert “spend today above $5.00 for key Bot (svc-live-ab1…)”"],
  ["alert.deleted", { kind: "spend_month_above", threshold: "$100.00" }, "Removed the alert “spend this month above $100.00”"],
  ["webhook.created", { url: "https://example.com/hook" }, "Added the webhook endpoint https://example.com/hook"],
  ["webhook.deleted", { url: "https://example.com/hook" }, "Deleted the webhook endpoint https://example.com/hook"],
  ["webhook.enabled", { url: "https://example.com/hook" }, "Turned on the webhook endpoint https://example.com/hook"],
  ["webhook.disabled", { url: "https://example.com/hook", reason: "Every delivery failed for 24 hours." }, "Turned off the webhook endpoint https://example.com/hook: Every delivery failed for 24 hours."],
  ["billing.spend_caps_set", { daily_cap: "$10.00", monthly_cap: "$200.00" }, "Set the organization’s spend caps: daily $10.00, monthly $200.00"],
  ["billing.threshold_set", { thresholdNanos: "25000000000" }, "Set the low-balance alert to $25.00"],
  ["billing.threshold_set", { thresholdNanos: "1234500000000" }, "Set the low-balance alert to $1,234.50"],
  ["billing.threshold_set", { thresholdNanos: null }, "Turned off the low-balance alert"],
  ["billing.threshold_set", {}, "Changed the low-balance alert"],

  ["credits.checkout_started", { amount_cents: 2000, amount: "$20.00" }, "Started a payment of $20.00"],
  ["credits.purchased", { amount_cents: 250000, amount: "$2,500.00", user_id: null, event_id: "evt_1" }, "Bought $2,500.00 of credits"],
  ["credits.payment_failed", { amount_cents: 2000 }, "A payment of $20.00 failed"],
  ["credits.payment_unmatched", { event_id: "evt_1", org_id: null, amount_cents: 500 }, "Received a payment of $5.00 that matched no organization"],
  ["credits.payment_held", { amount_cents: 2050, reason: "amount 100 cents, expected 2050" }, "Held back a payment of $20.50 that did not match its checkout (amount 100 cents, expected 2050); not credited"],
  ["credits.refunded", { refunded_cents: 550, refunded: "$5.50", total_refunded_cents: 550 }, "Refunded $5.50"],
  ["credits.disputed", { dispute_id: "dp_1", amount_cents: 2000 }, "A payment of $20.00 was disputed; the amount is held"],
  ["credits.dispute_won", { dispute_id: "dp_1", amount_cents: 2000 }, "Won the dispute of $20.00; the amount is restored"],
  ["credits.dispute_lost", { dispute_id: "dp_1", amount_cents: 2000 }, "Lost the dispute of $20.00"],
  ["credits.adjusted", { amount_dollars: "$10", reason: "Goodwill" }, "Added $10 of credits: Goodwill"],
  ["billing.card_saved", { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2030 }, "Saved the card Visa •••• 4242 for auto-recharge"],
  ["billing.card_removed", { brand: "mastercard", last4: "4444", auto_recharge_turned_off: true }, "Removed the saved card Mastercard •••• 4444; auto-recharge is off"],
  ["billing.card_removed", { brand: "visa", last4: "4242", auto_recharge_turned_off: false }, "Removed the saved card Visa •••• 4242"],
  ["billing.auto_recharge_set", { threshold: "$4.99", amount_cents: 1000, amount: "$10.00", max_per_day: 3 }, "Turned on auto-recharge: add $10.00 when the balance is below $4.99, at most 3 a day"],
  ["billing.auto_recharge_off", {}, "Turned off auto-recharge"],
  ["credits.auto_recharge_started", { amount_cents: 2500, balance: "$4.50", threshold: "$5.00" }, "Started an automatic recharge of $25.00 (balance $4.50, below $5.00)"],
  ["credits.auto_recharged", { amount_cents: 2500, payment_intent_id: "pi_1" }, "Auto-recharged $25.00 from the saved card"],
  [
    "credits.auto_recharge_failed",
    { amount_cents: 1000, message: "Your card was declined.", decline_code: "generic_decline", turned_off: true },
    "An automatic recharge of $10.00 was declined (Your card was declined.); auto-recharge was turned off",
  ],
  ["credits.adjusted", { amount_dollars: "-$3.50", reason: "Correction" }, "Removed $3.50 of credits: Correction"],
  ["credits.adjusted", { amount_dollars: "-$9", reason: "Chargeback", negative_reason: "card network" }, "Removed $9 of credits: Chargeback (allowed below zero: card network)"],
  ["key.disabled", { ...KEY, by_platform: true, reason: "Abuse" }, "Disabled key “Bot” (svc-live-ab1…) for the platform: Abuse"],
  ["key.enabled", { ...KEY, by_platform: true }, "Enabled key “Bot” (svc-live-ab1…) for the platform"],
  ["org.suspended", { reason: "Unpaid" }, "Suspended the organization: Unpaid; API requests are refused"],
  ["org.unsuspended", {}, "Lifted the suspension of the organization"],
  ["plan.created", { slug: "pro", name: "Pro" }, "Created the Pro plan"],
  [
    "plan.updated",
    { slug: "pro", name: "Pro", before: { requests_per_minute: 200, allowed_endpoints: ["offerings"] }, after: { requests_per_minute: 500, allowed_endpoints: ["offerings"] } },
    "Changed the Pro plan (requests per minute 200 → 500)",
  ],
  ["plan.deleted", { slug: "pro", name: "Pro" }, "Deleted the Pro plan"],
  [
    "price.scheduled",
    { endpoint: "offerings", before_per_gb: "$25.00", after_per_gb: "$30.00", effective_at: "2026-12-01T00:00:00.000Z" },
    "Set the price of offerings from $25.00 to $30.00 per GB, effective 2026-12-01T00:00:00.000Z",
  ],
  ["user.admin_granted", { email: "ops@x.test" }, "Made ops@x.test a platform administrator"],
  ["user.admin_revoked", { email: "ops@x.test" }, "Removed ops@x.test as platform administrator"],
  ["data.imported", { source: "offerings.csv", summary: "3 offerings: 3 created, 0 updated, 0 unchanged" }, "Loaded data from offerings.csv (3 offerings: 3 created, 0 updated, 0 unchanged)"],
  ["data.import_failed", { source: "offerings.csv", error_count: 2 }, "A data load from offerings.csv failed with 2 error(s); nothing was written"],
];

describe("describeAuditEntry", () => {
  it.each(CASES)("%s %j → %s", (action, details, words) => {
    expect(describeAuditEntry({ action, details })).toBe(words);
  });

  it("falls back to the raw action name for an action it does not know", () => {
    expect(describeAuditEntry({ action: "robot.danced", details: { style: "waltz" } })).toBe("robot.danced");
  });

  it("does not fail on missing or malformed details", () => {
    for (const action of DESCRIBED_ACTIONS) {
      for (const details of [null, undefined, [], "text", { name: 5, endpoints: "x", amount_cents: "lots", role: 1 }]) {
        expect(describeAuditEntry({ action, details })).toEqual(expect.any(String));
      }
    }
    expect(describeAuditEntry({ action: "member.invited", details: {} })).toBe("Created an invitation link for anyone, as an unknown role");
  });

  it("has a test case for every action it describes", () => {
    expect(new Set(CASES.map(([action]) => action))).toEqual(new Set(DESCRIBED_ACTIONS));
  });
});

describe("every audit action the code writes is put in words", () => {
  const root = path.resolve(import.meta.dirname, "../..");
  const ACTION = /["'`]((?:user|key|member|org|billing|credits|plan|price|admin|data)\.[a-z_]+)["'`]/g;

  function sources(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === "generated" || entry.name === "node_modules" ? [] : sources(full);
      return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !full.endsWith("audit-format.ts") ? [full] : [];
    });
  }

  const written = new Set(
    ["lib", "app", "scripts"].flatMap((dir) => sources(path.join(root, dir))).flatMap((file) => [...readFileSync(file, "utf8").matchAll(ACTION)].map((m) => m[1]!)),
  );

  it("finds the actions (the scan works)", () => {
    expect(written).toContain("key.created");
    expect(written).toContain("user.signed_in");
    expect(written).toContain("member.role_changed");
  });

  it.each([...written].sort())("%s", (action) => {
    expect(DESCRIBED_ACTIONS).toContain(action);
    expect(describeAuditEntry({ action, details: {} })).not.toBe(action);
  });
});

describe("describeActor", () => {
  it("keeps a user's email and names the system actors", () => {
    expect(describeActor("ann@example.com")).toBe("ann@example.com");
    expect(describeActor("cli")).toBe("Operator (CLI)");
    expect(describeActor("stripe")).toBe("Stripe");
    expect(describeActor("deleted user")).toBe("deleted user");
  });
});
