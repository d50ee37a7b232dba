import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passwordResetMessage, sendEmail, smtpTransport } from "@/lib/email";
import { decodeQuotedPrintable, startMailSink, type MailSink, type SunkMessage } from "./server";

/** The sink, fed by the app's own SMTP client (nodemailer, through lib/email.ts) and read over HTTP as the browser tests do. */
let sink: MailSink;
beforeAll(async () => {
  sink = await startMailSink();
});
afterAll(() => sink?.close());

describe("the mail sink", () => {
  it("receives what the app sends over SMTP and lists it by recipient, links whole", async () => {
    const link = `http://127.0.0.1:3230/reset-password/${"A".repeat(20)}_-${"z".repeat(21)}`;
    const env = { SMTP_URL: `smtp://127.0.0.1:${sink.smtpPort}`, EMAIL_FROM: "accounts@dilution.example" };
    const message = passwordResetMessage({ to: "Person@Example.test", link, expiresAt: new Date("2026-11-22T10:30:00Z") });
    await sendEmail(message, smtpTransport(env.SMTP_URL), env);
    await sendEmail({ ...message, to: "someone-else@example.test" }, smtpTransport(env.SMTP_URL), env);

    const response = await fetch(`${sink.httpUrl}/messages?to=person@example.test`);
    const listed = (await response.json()) as SunkMessage[];
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ from: "accounts@dilution.example", to: ["Person@example.test"], subject: message.subject });
    expect(listed[0]!.text).toContain(link);
    expect(listed[0]!.text).toContain("until Nov 22, 2026, 10:30 UTC");
    expect(sink.messages()).toHaveLength(2);
    expect(await (await fetch(`${sink.httpUrl}/health`)).text()).toBe("ok");
    // The development inbox shows them, newest first, the link to follow.
    const inbox = await (await fetch(`${sink.httpUrl}/`)).text();
    expect(inbox).toContain("<h1>Development inbox</h1>");
    expect(inbox).toContain(`<a href="${link}">${link}</a>`);
    expect(inbox.indexOf("someone-else@example.test")).toBeLessThan(inbox.indexOf("Person@example.test"));
  });

  it("logs each message's links, so one can be followed from the dev server's output", async () => {
    const lines: string[] = [];
    const logged = await startMailSink({ log: (line) => lines.push(line) });
    const link = `http://127.0.0.1:3000/invite/${"B".repeat(30)}`;
    const env = { SMTP_URL: `smtp://127.0.0.1:${logged.smtpPort}`, EMAIL_FROM: "dev@localhost" };
    await sendEmail(passwordResetMessage({ to: "dev@example.test", link, expiresAt: new Date("2026-11-22T10:30:00Z") }), smtpTransport(env.SMTP_URL), env);
    await logged.close();
    expect(lines).toContain(`[mail-sink]   ${link}`);
  });

  it("undoes quoted-printable: soft line breaks and escaped bytes", () => {
    expect(decodeQuotedPrintable("https://x.test/a?b=3Dc=\r\nd caf=C3=A9")).toBe("https://x.test/a?b=cd café");
  });
});
