import nodemailer, { type SentMessageInfo, type Transporter } from "nodemailer";
import type { Role } from "@/lib/generated/prisma/enums";
import { roleWithArticle } from "@/lib/utils/roles";
import { formatDateTime } from "@/lib/utils/dates";

/**
 * Outgoing email, when an SMTP server is configured: `SMTP_URL`
 * (smtp://user:pass@host:587, or smtps:// for implicit TLS) and `EMAIL_FROM`.
 * Without them nothing is sent and the pages say so; the app works the same.
 */

const PRODUCT = "Dilution Data API";

// Without these nodemailer waits up to two minutes on an unreachable server,
// and the person inviting waits with it. The URL's own values win.
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

type Env = Record<string, string | undefined>;

let warnedNoFrom = false;

export function emailConfigured(env: Env = process.env): boolean {
  if (!env.SMTP_URL?.trim()) return false;
  if (!env.EMAIL_FROM?.trim()) {
    if (!warnedNoFrom) console.warn("[email] SMTP_URL is set but EMAIL_FROM is not: no email is sent until both are.");
    warnedNoFrom = true;
    return false;
  }
  return true;
}

export function smtpTransport(smtpUrl: string): Transporter {
  const url = new URL(smtpUrl);
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:") throw new Error("SMTP_URL must start with smtp:// or smtps://");
  for (const [name, value] of Object.entries(TIMEOUTS)) if (!url.searchParams.has(name)) url.searchParams.set(name, String(value));
  return nodemailer.createTransport(url.toString());
}

export interface InvitationEmail {
  to: string;
  orgName: string;
  inviterEmail: string;
  link: string;
  role: Role;
  /** How long the link works. */
  validForDays: number;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

// An organization name is typed by a user; it must not break a header line.
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();

/** The invitation as a message: plain text for every client, and the same words in simple HTML. */
export function invitationMessage(input: InvitationEmail, from: string) {
  const orgName = oneLine(input.orgName);
  const inviter = oneLine(input.inviterEmail);
  const role = roleWithArticle(input.role);
  const text = [
    `${inviter} invited you to join ${orgName} on the ${PRODUCT} as ${role}.`,
    "",
    `Accept the invitation here (the link works once and expires in ${input.validForDays} days):`,
    input.link,
    "",
    "If you did not expect this, ignore this email: nothing happens until the link is used.",
  ].join("\n");
  const html = [
    `<p>${escapeHtml(inviter)} invited you to join <strong>${escapeHtml(orgName)}</strong> on the ${PRODUCT} as ${role}.</p>`,
    `<p><a href="${escapeHtml(input.link)}">Accept the invitation</a> (the link works once and expires in ${input.validForDays} days).</p>`,
    `<p>Or paste this address into your browser:<br>${escapeHtml(input.link)}</p>`,
    "<p>If you did not expect this, ignore this email: nothing happens until the link is used.</p>",
  ].join("\n");
  return { from, to: input.to, subject: `${inviter} invited you to ${orgName} on the ${PRODUCT}`, text, html };
}

/** Sends the invitation; throws when the server refuses or cannot be reached (the caller keeps the link). */
export async function sendInvitationEmail(input: InvitationEmail, transport?: Transporter, env: Env = process.env): Promise<SentMessageInfo> {
  const from = env.EMAIL_FROM?.trim();
  if (!from) throw new Error("EMAIL_FROM is not set");
  const mailer = transport ?? smtpTransport(env.SMTP_URL ?? "");
  try {
    return await mailer.sendMail(invitationMessage(input, from));
  } finally {
    if (!transport) mailer.close();
  }
}

export interface AutoRechargeDeclinedEmail {
  to: string;
  orgName: string;
  /** "$10.00" */
  amount: string;
  /** "Visa •••• 0341" */
  card: string;
  declinedAt: Date;
  /** The bank's words, as Stripe passed them on. */
  reason: string;
  /** The billing page, when the app knows its address. */
  billingUrl: string | null;
}

/** An automatic recharge was declined and auto-recharge turned off: what happened and what to do. */
export function autoRechargeDeclinedMessage(input: AutoRechargeDeclinedEmail) {
  const orgName = oneLine(input.orgName);
  const when = formatDateTime(input.declinedAt);
  const reason = oneLine(input.reason);
  const next = "Save another card on the billing page and turn auto-recharge on again; until then, buy credits there when the balance runs low.";
  const text = [
    `The automatic recharge of ${input.amount} for ${orgName} was declined on ${when}: ${reason}`,
    "",
    `Auto-recharge is now turned off, so ${input.card} will not be charged again. ${next}`,
    ...(input.billingUrl ? ["", input.billingUrl] : []),
  ].join("\n");
  const html = [
    `<p>The automatic recharge of ${escapeHtml(input.amount)} for <strong>${escapeHtml(orgName)}</strong> was declined on ${escapeHtml(when)}: ${escapeHtml(reason)}</p>`,
    `<p>Auto-recharge is now turned off, so ${escapeHtml(input.card)} will not be charged again. ${escapeHtml(next)}</p>`,
    ...(input.billingUrl ? [`<p><a href="${escapeHtml(input.billingUrl)}">Open the billing page</a></p>`] : []),
  ].join("\n");
  return { to: input.to, subject: `${PRODUCT}: auto-recharge was declined and turned off — ${orgName}`, text, html };
}

export interface AlertEmail {
  to: string;
  orgName: string;
  type: string;
  /** One line saying what happened. */
  summary: string;
  /** The event as JSON, exactly as webhook receivers get it. */
  body: string;
}

/** An alert (a threshold crossed, an endpoint turned off) as a message; its JSON is the webhook event's. */
export function alertEmailMessage(input: AlertEmail) {
  const orgName = oneLine(input.orgName);
  const pretty = JSON.stringify(JSON.parse(input.body), null, 2);
  const text = [`${input.summary} (${orgName}).`, "", "The event, as webhook endpoints receive it:", pretty, "", "Change alerts on the Alerts page of the dashboard."].join("\n");
  const html = [
    `<p>${escapeHtml(input.summary)} (<strong>${escapeHtml(orgName)}</strong>).</p>`,
    "<p>The event, as webhook endpoints receive it:</p>",
    `<pre>${escapeHtml(pretty)}</pre>`,
    "<p>Change alerts on the Alerts page of the dashboard.</p>",
  ].join("\n");
  return { to: input.to, subject: `${PRODUCT}: ${oneLine(input.summary)} — ${orgName}`, text, html };
}

/** Sends a message from EMAIL_FROM; throws when the server refuses or cannot be reached. */
export async function sendEmail(
  message: { to: string; subject: string; text: string; html: string },
  transport?: Transporter,
  env: Env = process.env,
): Promise<SentMessageInfo> {
  const from = env.EMAIL_FROM?.trim();
  if (!from) throw new Error("EMAIL_FROM is not set");
  const mailer = transport ?? smtpTransport(env.SMTP_URL ?? "");
  try {
    return await mailer.sendMail({ ...message, from });
  } finally {
    if (!transport) mailer.close();
  }
}

export interface PasswordResetEmail {
  to: string;
  /** The single-use link. */
  link: string;
  /** When it stops working. */
  expiresAt: Date;
}

/** A "forgot password" link: what it does, how long it works, and what to do if it was not you. */
export function passwordResetMessage(input: PasswordResetEmail) {
  const until = formatDateTime(input.expiresAt);
  const text = [
    `Someone (we hope you) asked to reset the password of your ${PRODUCT} account.`,
    "",
    `Choose a new password here (the link works once, until ${until}):`,
    input.link,
    "",
    "Setting a new password signs you out everywhere. If you did not ask for this, ignore this email: your password stays as it is.",
  ].join("\n");
  const html = [
    `<p>Someone (we hope you) asked to reset the password of your ${PRODUCT} account.</p>`,
    `<p><a href="${escapeHtml(input.link)}">Choose a new password</a> (the link works once, until ${escapeHtml(until)}).</p>`,
    `<p>Or paste this address into your browser:<br>${escapeHtml(input.link)}</p>`,
    "<p>Setting a new password signs you out everywhere. If you did not ask for this, ignore this email: your password stays as it is.</p>",
  ].join("\n");
  return { to: input.to, subject: `${PRODUCT}: reset your password`, text, html };
}
