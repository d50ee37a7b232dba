import type { AuditAction } from "@/lib/audit";
import { roleLabelOf } from "@/lib/utils/roles";
import { formatCents, formatMoney } from "@/lib/money";
import { cardLabel } from "@/lib/billing/card";

/**
 * Audit entries in words, for the audit log page: "Created key “Bot”
 * (svc-live-ab1…)", "Invited bea@example.com as Admin". Pure, so every action
 * the code writes is covered by a test; an action it does not know is shown
 * by its raw name rather than hidden.
 */

export interface AuditEntryLike {
  action: string;
  details: unknown;
}

type Details = Record<string, unknown>;

const str = (details: Details, name: string): string | null => {
  const value = details[name];
  return typeof value === "string" && value !== "" ? value : null;
};

const num = (details: Details, name: string): number | null => {
  const value = details[name];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
};

const role = (value: string | null) => (value ? roleLabelOf(value) : "an unknown role");

const PLANS: Record<string, string> = { trial: "Trial", retail: "Retail", enterprise: "Enterprise" };

const METHODS: Record<string, string> = { github: "GitHub", google: "Google" };
const method = (details: Details) => {
  const value = str(details, "method");
  return value && value !== "password" ? ` with ${METHODS[value] ?? value}` : "";
};

const SIGN_IN_FAILURES: Record<string, string> = { wrong_password: "wrong password" };

function key(details: Details): string {
  const name = str(details, "name");
  const hint = str(details, "hint");
  return [name ? `“${name}”` : null, hint ? `(${hint}…)` : null].filter(Boolean).join(" ") || "(unnamed)";
}

function graceLabel(seconds: number): string {
  if (seconds % 86_400 === 0) return seconds === 86_400 ? "24 hours" : `${seconds / 86_400} days`;
  return seconds % 3600 === 0 ? `${seconds / 3600} hour${seconds === 3600 ? "" : "s"}` : `${seconds} s`;
}

const ALERT_WORDS: Record<string, string> = {
  balance_below: "balance below",
  spend_day_above: "spend today above",
  spend_month_above: "spend this month above",
};

function alertText(details: Details): string {
  const kind = str(details, "kind");
  const scope = str(details, "key");
  return `${(kind && ALERT_WORDS[kind]) ?? "alert"} ${str(details, "threshold") ?? "?"}${scope ? ` for key ${scope}` : ""}`;
}

function capsText(details: Details): string {
  const daily = str(details, "daily_cap");
  const monthly = str(details, "monthly_cap");
  return `daily ${daily ?? "none"}, monthly ${monthly ?? "none"}`;
}

function limitsText(details: Details): string {
  const ips = Array.isArray(details.allowed_ips) ? details.allowed_ips.filter((e): e is string => typeof e === "string") : [];
  return `${ips.length ? `allowed from ${ips.join(", ")}` : "any address"}; caps ${capsText(details)}`;
}

/** "Visa •••• 4242" */
function savedCard(details: Details): string {
  return cardLabel(str(details, "brand"), str(details, "last4"));
}

function who(details: Details, fallback: string): string {
  return str(details, "email") ?? fallback;
}

/** "$20.00" from the entry's cents (Stripe entries) or its preformatted dollars (operator adjustments). */
function amount(details: Details, centsField = "amount_cents", textField = "amount"): string | null {
  const cents = num(details, centsField);
  if (cents !== null && Number.isInteger(cents)) return formatCents(cents);
  return str(details, textField);
}

const DESCRIBE: Record<AuditAction, (d: Details) => string> = {
  "key.created": (d) => `Created key ${key(d)}`,
  "key.disabled": (d) => `Disabled key ${key(d)}${d.by_platform === true ? ` for the platform${str(d, "reason") ? `: ${str(d, "reason")}` : ""}` : ""}`,
  "key.enabled": (d) => `Enabled key ${key(d)}${d.by_platform === true ? " for the platform" : ""}`,
  "key.deleted": (d) => `Deleted key ${key(d)}`,
  "key.restricted": (d) => {
    const endpoints = Array.isArray(d.endpoints) ? d.endpoints.filter((e): e is string => typeof e === "string") : [];
    if (d.by_platform === true) {
      return endpoints.length
        ? `Restricted key ${key(d)} to ${endpoints.join(", ")} for the platform${str(d, "reason") ? `: ${str(d, "reason")}` : ""}`
        : `Lifted the platform’s endpoint restriction of key ${key(d)}`;
    }
    return endpoints.length
      ? `Restricted key ${key(d)} to ${endpoints.join(", ")}`
      : `Opened key ${key(d)} to every endpoint of the plan`;
  },
  "key.rolled": (d) => {
    const grace = num(d, "grace_seconds");
    const old = str(d, "old_hint");
    const graceText = grace === null ? "" : grace === 0 ? "; the old key stopped at once" : `; the old key works for ${graceLabel(grace)} more`;
    return `Rolled key ${key(d)}${old ? ` (replaces ${old}…)` : ""}${graceText}`;
  },
  "key.grace_ended": (d) => `Ended the grace period of rolled key ${key(d)}: it is refused from now on`,
  "key.limits_changed": (d) => `Changed the limits of key ${key(d)}: ${limitsText(d)}`,
  "key.expiry_changed": (d) => {
    const until = str(d, "expires_on");
    return until ? `Set key ${key(d)} to expire after ${until} (UTC)` : `Set key ${key(d)} to never expire`;
  },

  "member.invited": (d) => {
    const email = str(d, "email");
    return email ? `Invited ${email} as ${role(str(d, "role"))}` : `Created an invitation link for anyone, as ${role(str(d, "role"))}`;
  },
  "member.invitation_revoked": (d) => {
    const email = str(d, "email");
    return email ? `Revoked the invitation of ${email} (${role(str(d, "role"))})` : `Revoked an invitation link (${role(str(d, "role"))})`;
  },
  "member.joined": (d) => `Joined the organization as ${role(str(d, "role"))}`,
  "member.role_changed": (d) => `Changed the role of ${who(d, "a member")} from ${role(str(d, "from"))} to ${role(str(d, "to"))}${revoked(d)}`,
  "member.removed": (d) => `Removed ${who(d, "a member")} (${role(str(d, "role"))})${revoked(d)}`,
  "member.left": (d) => `Left the organization (was ${role(str(d, "role"))})${revoked(d)}`,

  "org.created": (d) => {
    const name = str(d, "name");
    const plan = str(d, "plan");
    return `Created the organization${name ? ` “${name}”` : ""}${plan ? ` on the ${PLANS[plan] ?? plan} plan` : ""}`;
  },
  "org.renamed": (d) => `Renamed the organization from “${str(d, "from") ?? "?"}” to “${str(d, "to") ?? "?"}”`,
  "org.plan_requested": (d) => {
    const plan = str(d, "plan");
    return `Asked for the ${plan ? (PLANS[plan] ?? plan) : "another"} plan${str(d, "message") ? `: “${str(d, "message")}”` : ""}`;
  },
  "org.plan_request_withdrawn": (d) => {
    const plan = str(d, "plan");
    return `Withdrew the request for the ${plan ? (PLANS[plan] ?? plan) : "other"} plan`;
  },
  "org.plan_request_answered": (d) => {
    const plan = str(d, "plan");
    const name = plan ? (PLANS[plan] ?? plan) : "requested";
    const answer = str(d, "answer");
    return `${d.approved === true ? "Approved" : "Declined"} the request for the ${name} plan${answer ? `: “${answer}”` : ""}`;
  },
  "org.closed": (d) => {
    const forfeited = str(d, "forfeited");
    return `Closed the organization${forfeited && forfeited !== "$0.00" ? `, forfeiting ${forfeited} of credit` : ""}`;
  },
  "org.plan_changed": (d) => {
    const plan = str(d, "plan");
    return plan ? `Moved the organization to the ${PLANS[plan] ?? plan} plan` : "Changed the organization’s plan";
  },

  "user.signed_in": (d) => `Signed in${method(d)}`,
  "user.sign_in_failed": (d) => {
    const reason = str(d, "reason");
    return reason ? `Failed sign-in (${SIGN_IN_FAILURES[reason] ?? reason})` : "Failed sign-in";
  },
  "user.signed_up": (d) => `Created their account${method(d)}`,
  "user.created": () => "Created a user account",
  "user.password_changed": (d) => `Changed their password${endedSessions(d)}`,
  "user.password_reset_requested": (d) => (d.sent === false ? "Asked for a password reset link (none sent: three are still open)" : "Asked for a password reset link by email"),
  "user.password_reset": (d) => {
    const ended = num(d, "endedSessions") ?? 0;
    return `Reset their password with an emailed link${ended > 0 ? `, ending ${ended} session${ended === 1 ? "" : "s"}` : ""}`;
  },
  "user.password_set": (d) => {
    const ended = num(d, "endedSessions") ?? 0;
    return `Set the password of ${who(d, "a user")}${ended > 0 ? `, ending ${ended} session${ended === 1 ? "" : "s"}` : ""}`;
  },
  "user.sessions_ended": (d) => `Signed out of their other sessions${endedSessions(d, true)}`,
  "user.locked": (d) => `Locked ${who(d, "a user")}${str(d, "reason") ? `: ${str(d, "reason")}` : ""}`,
  "user.unlocked": (d) => `Unlocked ${who(d, "a user")}`,
  "user.deleted": () => "Deleted their account",

  "alert.created": (d) => `Added the alert “${alertText(d)}”`,
  "alert.deleted": (d) => `Removed the alert “${alertText(d)}”`,
  "webhook.created": (d) => `Added the webhook endpoint ${str(d, "url") ?? "(unknown URL)"}`,
  "webhook.deleted": (d) => `Deleted the webhook endpoint ${str(d, "url") ?? "(unknown URL)"}`,
  "webhook.enabled": (d) => `Turned on the webhook endpoint ${str(d, "url") ?? "(unknown URL)"}`,
  "webhook.disabled": (d) => `Turned off the webhook endpoint ${str(d, "url") ?? "(unknown URL)"}${str(d, "reason") ? `: ${str(d, "reason")}` : ""}`,
  "billing.spend_caps_set": (d) => `Set the organization’s spend caps: ${capsText(d)}`,
  "billing.card_saved": (d) => `Saved the card ${savedCard(d)} for auto-recharge`,
  "billing.card_removed": (d) => `Removed the saved card ${savedCard(d)}${d.auto_recharge_turned_off === true ? "; auto-recharge is off" : ""}`,
  "billing.auto_recharge_set": (d) => {
    const perDay = num(d, "max_per_day");
    return `Turned on auto-recharge: add ${amount(d) ?? "credits"} when the balance is below ${str(d, "threshold") ?? "the threshold"}${perDay ? `, at most ${perDay} a day` : ""}`;
  },
  "billing.auto_recharge_off": () => "Turned off auto-recharge",
  "billing.threshold_set": (d) => {
    const nanos = str(d, "thresholdNanos");
    if (nanos && /^\d{1,30}$/.test(nanos)) return `Set the low-balance alert to ${formatMoney(BigInt(nanos))}`;
    return d.thresholdNanos === null ? "Turned off the low-balance alert" : "Changed the low-balance alert";
  },

  "credits.checkout_started": (d) => `Started a payment of ${amount(d) ?? "credits"}`,
  "credits.purchased": (d) => `Bought ${amount(d) ?? "credits"} of credits`,
  "credits.payment_failed": (d) => `A payment of ${amount(d) ?? "credits"} failed`,
  "credits.payment_unmatched": (d) => `Received a payment${amount(d) ? ` of ${amount(d)}` : ""} that matched no organization`,
  "credits.payment_held": (d) => `Held back a payment${amount(d) ? ` of ${amount(d)}` : ""} that did not match its checkout (${str(d, "reason") ?? "unknown reason"}); not credited`,
  "credits.refunded": (d) => `Refunded ${amount(d, "refunded_cents", "refunded") ?? "a payment"}`,
  "credits.disputed": (d) => `A payment of ${amount(d) ?? "credits"} was disputed; the amount is held`,
  "credits.dispute_won": (d) => `Won the dispute of ${amount(d) ?? "a payment"}; the amount is restored`,
  "credits.dispute_lost": (d) => `Lost the dispute of ${amount(d) ?? "a payment"}`,
  "credits.auto_recharge_started": (d) => {
    const balance = str(d, "balance");
    const threshold = str(d, "threshold");
    return `Started an automatic recharge of ${amount(d) ?? "credits"}${balance && threshold ? ` (balance ${balance}, below ${threshold})` : ""}`;
  },
  "credits.auto_recharged": (d) => `Auto-recharged ${amount(d) ?? "credits"} from the saved card`,
  "credits.auto_recharge_failed": (d) => {
    const message = str(d, "message");
    return `An automatic recharge of ${amount(d) ?? "credits"} was declined${message ? ` (${message})` : ""}${d.turned_off === true ? "; auto-recharge was turned off" : ""}`;
  },
  "credits.adjusted": (d) => {
    const dollars = str(d, "amount_dollars");
    const reason = str(d, "reason");
    const change = dollars ? (dollars.startsWith("-") ? `Removed ${dollars.slice(1)} of credits` : `Added ${dollars} of credits`) : "Adjusted the credits";
    const negative = str(d, "negative_reason");
    return `${reason ? `${change}: ${reason}` : change}${negative ? ` (allowed below zero: ${negative})` : ""}`;
  },

  "org.suspended": (d) => `Suspended the organization${str(d, "reason") ? `: ${str(d, "reason")}` : ""}; API requests are refused`,
  "org.unsuspended": () => "Lifted the suspension of the organization",
  "plan.created": (d) => `Created the ${str(d, "name") ?? str(d, "slug") ?? "new"} plan`,
  "plan.updated": (d) => `Changed the ${str(d, "name") ?? str(d, "slug") ?? ""} plan${changedFields(d)}`,
  "plan.deleted": (d) => `Deleted the ${str(d, "name") ?? str(d, "slug") ?? ""} plan`,
  "price.scheduled": (d) => {
    const endpoint = str(d, "endpoint") ?? "an endpoint";
    const before = str(d, "before_per_gb") ?? "?";
    const after = str(d, "after_per_gb") ?? "?";
    return `Set the price of ${endpoint} from ${before} to ${after} per GB, effective ${str(d, "effective_at") ?? "now"}`;
  },
  "user.admin_granted": (d) => `Made ${who(d, "a user")} a platform administrator`,
  "user.admin_revoked": (d) => `Removed ${who(d, "a user")} as platform administrator`,
  "data.imported": (d) => `Loaded data from ${str(d, "source") ?? "a file"}${str(d, "summary") ? ` (${str(d, "summary")})` : ""}`,
  "data.import_failed": (d) => `A data load from ${str(d, "source") ?? "a file"} failed${num(d, "error_count") ? ` with ${num(d, "error_count")} error(s)` : ""}; nothing was written`,
};

/** " (requests per minute 200 → 500, …)" from the entry's before and after values. */
function changedFields(d: Details): string {
  const before = d.before && typeof d.before === "object" ? (d.before as Details) : {};
  const after = d.after && typeof d.after === "object" ? (d.after as Details) : {};
  const show = (v: unknown) => (Array.isArray(v) ? v.join(", ") || "none" : v === null || v === undefined ? "none" : String(v));
  const changes = Object.keys(after).filter((k) => show(before[k]) !== show(after[k])).map((k) => `${k.replaceAll("_", " ")} ${show(before[k])} → ${show(after[k])}`);
  return changes.length ? ` (${changes.join("; ")})` : "";
}

/** ", ending 2 other sessions" (or " (2)" when the action says it already). */
function endedSessions(d: Details, bare = false): string {
  const count = typeof d.endedSessions === "number" ? d.endedSessions : 0;
  if (bare) return count > 0 ? ` (${count})` : "";
  return count > 0 ? `, ending ${count} other session${count === 1 ? "" : "s"}` : "";
}

/** The action the actor took, in words. */
/** ", withdrawing their 2 open invitations" when a role change or removal ended some. */
function revoked(d: Details): string {
  const count = typeof d.invitationsRevoked === "number" ? d.invitationsRevoked : 0;
  return count > 0 ? `, withdrawing their ${count} open invitation${count === 1 ? "" : "s"}` : "";
}

export function describeAuditEntry(entry: AuditEntryLike): string {
  const details = entry.details && typeof entry.details === "object" && !Array.isArray(entry.details) ? (entry.details as Details) : {};
  return DESCRIBE[entry.action as AuditAction]?.(details) ?? entry.action;
}

/** Every action this module puts in words (the test checks it against the code). */
export const DESCRIBED_ACTIONS = Object.keys(DESCRIBE);

const ACTOR_LABELS: Record<string, string> = {
  cli: "Operator (CLI)",
  stripe: "Stripe",
  system: "System",
  admin: "Platform administrator",
  "platform administrator": "Platform administrator",
};

/** Who acted: a user's email as it is, a label (e.g. "stripe") in words. */
export function describeActor(actor: string): string {
  return ACTOR_LABELS[actor] ?? actor;
}
