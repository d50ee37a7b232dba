import { createServer, type AddressInfo, type Server } from "node:net";
import nodemailer from "nodemailer";
import { afterEach, describe, expect, it, vi } from "vitest";
import { autoRechargeDeclinedMessage, emailConfigured, invitationMessage, sendInvitationEmail, smtpTransport, type InvitationEmail } from "./email";

const ENV = { SMTP_URL: "smtp://user:secret@mail.example.test:587", EMAIL_FROM: "Dilution Data <no-reply@example.test>" };

const invitation: InvitationEmail = {
  to: "bea@example.test",
  orgName: "Acme Trading",
  inviterEmail: "ann@example.test",
  link: "https://app.example.test/invite/AbC_dEf-0123456789abcdefghij",
  role: "ADMIN",
  validForDays: 7,
};

afterEach(() => vi.restoreAllMocks());

describe("emailConfigured", () => {
  it("is false without SMTP_URL, whatever else is set", () => {
    expect(emailConfigured({})).toBe(false);
    expect(emailConfigured({ SMTP_URL: "  ", EMAIL_FROM: ENV.EMAIL_FROM })).toBe(false);
  });

  it("is false, with one warning, when SMTP_URL is set without EMAIL_FROM", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(emailConfigured({ SMTP_URL: ENV.SMTP_URL })).toBe(false);
    expect(emailConfigured({ SMTP_URL: ENV.SMTP_URL, EMAIL_FROM: "" })).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/EMAIL_FROM/);
  });

  it("is true with both", () => {
    expect(emailConfigured(ENV)).toBe(true);
  });
});

describe("the invitation message", () => {
  it("says who invited whom to what, as which role, with the link, in text and HTML", async () => {
    const info = await sendInvitationEmail(invitation, nodemailer.createTransport({ jsonTransport: true }), ENV);
    const sent = JSON.parse(info.message as string);
    expect(sent.from).toEqual({ address: "no-reply@example.test", name: "Dilution Data" });
    expect(sent.to).toEqual([{ address: "bea@example.test", name: "" }]);
    expect(sent.subject).toBe("ann@example.test invited you to Acme Trading on the Dilution Data API");
    expect(sent.text).toContain("ann@example.test invited you to join Acme Trading on the Dilution Data API as an admin.");
    expect(sent.text).toContain(`\n${invitation.link}\n`);
    expect(sent.text).toContain("expires in 7 days");
    expect(sent.html).toContain(`<a href="${invitation.link}">Accept the invitation</a>`);
  });

  it("names each role in words", () => {
    expect(invitationMessage({ ...invitation, role: "OWNER" }, "x@y.test").text).toContain("as an owner.");
    expect(invitationMessage({ ...invitation, role: "MEMBER" }, "x@y.test").text).toContain("as a member.");
  });

  it("escapes a hostile organization name in the HTML part", () => {
    const message = invitationMessage({ ...invitation, orgName: `<img src=x onerror="alert(1)"> & Co` }, "x@y.test");
    expect(message.html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; Co");
    expect(message.html).not.toContain("<img");
  });

  it("cannot smuggle a header through the organization name", async () => {
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
    const info = await sendInvitationEmail({ ...invitation, orgName: "Acme\r\nBcc: victim@example.test\r\n" }, transport, ENV);
    const raw = (info.message as Buffer).toString("utf8");
    const headers = raw.split("\r\n\r\n")[0]!.replace(/\r\n[ \t]+/g, " "); // unfolded
    const lines = headers.split("\r\n");
    expect(lines.filter((line) => /^bcc:/i.test(line))).toEqual([]);
    expect(lines).toContain("Subject: ann@example.test invited you to Acme Bcc: victim@example.test on the Dilution Data API");
    expect(lines).toContain("To: bea@example.test");
  });
});

describe("the declined auto-recharge message", () => {
  const declined = {
    to: "ann@a.test",
    orgName: "<Acme & Co>\r\nBcc: x@evil.test",
    amount: "$10.00",
    card: "Visa •••• 0341",
    declinedAt: new Date("2026-11-27T14:02:00Z"),
    reason: "Your card was declined.",
    billingUrl: "https://app.example/billing",
  };

  it("says what was declined, when, why, that auto-recharge is off, and where to fix it", () => {
    const message = autoRechargeDeclinedMessage(declined);
    expect(message.subject).toBe("Dilution Data API: auto-recharge was declined and turned off — <Acme & Co> Bcc: x@evil.test");
    expect(message.text).toContain("The automatic recharge of $10.00 for <Acme & Co> Bcc: x@evil.test was declined on Nov 27, 2026, 14:02 UTC: Your card was declined.");
    expect(message.text).toContain("Auto-recharge is now turned off, so Visa •••• 0341 will not be charged again.");
    expect(message.text).toContain("https://app.example/billing");
    expect(message.html).toContain("<strong>&lt;Acme &amp; Co&gt; Bcc: x@evil.test</strong>");
    expect(message.html).toContain('<a href="https://app.example/billing">Open the billing page</a>');
    expect(message.subject).not.toMatch(/[\r\n]/);
  });

  it("leaves the link out when the app's address is not known", () => {
    const message = autoRechargeDeclinedMessage({ ...declined, billingUrl: null });
    expect(message.text).not.toContain("http");
    expect(message.html).not.toContain("<a ");
  });
});

describe("sending", () => {
  it("rejects when the transport fails, so the caller can say the email was not sent", async () => {
    const failing = nodemailer.createTransport({
      name: "failing",
      version: "1",
      send: (_mail: unknown, callback: (error: Error | null, info: unknown) => void) => callback(new Error("mailbox unavailable"), null),
    });
    await expect(sendInvitationEmail(invitation, failing, ENV)).rejects.toThrow("mailbox unavailable");
  });

  it("speaks SMTP with the URL's credentials to the URL's server (a fake one on the loopback interface)", async () => {
    const sink = await fakeSmtpServer();
    try {
      const info = await sendInvitationEmail(invitation, undefined, { ...ENV, SMTP_URL: `smtp://user%40corp:p%3Ass@127.0.0.1:${sink.port}` });
      expect(info.accepted).toEqual(["bea@example.test"]);
      expect(sink.commands).toContain(`AUTH PLAIN ${Buffer.from("\0user@corp\0p:ss").toString("base64")}`);
      expect(sink.commands).toContain("MAIL FROM:<no-reply@example.test>");
      expect(sink.commands).toContain("RCPT TO:<bea@example.test>");
      expect(sink.data.replace(/=\r\n/g, "")).toContain(invitation.link);
    } finally {
      sink.server.close();
    }
  });

  it("rejects, fast, when the SMTP server cannot be reached", async () => {
    // Port 9 on the loopback interface: nothing listens, the connection is refused at once.
    const started = Date.now();
    await expect(sendInvitationEmail(invitation, undefined, { ...ENV, SMTP_URL: "smtp://user:pw@127.0.0.1:9" })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("refuses to send without EMAIL_FROM", async () => {
    await expect(sendInvitationEmail(invitation, nodemailer.createTransport({ jsonTransport: true }), { SMTP_URL: ENV.SMTP_URL })).rejects.toThrow(/EMAIL_FROM/);
  });

  it("only takes smtp:// and smtps:// URLs", () => {
    expect(() => smtpTransport("http://mail.example.test")).toThrow(/smtp:\/\//);
    expect(() => smtpTransport("smtps://user:pw@mail.example.test:465")).not.toThrow();
  });
});

/** Just enough of an SMTP server to accept one message: records the commands and the message. */
async function fakeSmtpServer() {
  const commands: string[] = [];
  let data = "";
  const server: Server = createServer((socket) => {
    let buffer = "";
    let inData = false;
    socket.write("220 fake.test ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      let end: number;
      while ((end = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            socket.write("250 2.0.0 queued\r\n");
          } else data += `${line}\r\n`;
          continue;
        }
        commands.push(line);
        const verb = line.split(" ")[0]!.toUpperCase();
        if (verb === "EHLO") socket.write("250-fake.test\r\n250 AUTH PLAIN\r\n");
        else if (verb === "AUTH") socket.write("235 2.7.0 authenticated\r\n");
        else if (verb === "DATA") {
          inData = true;
          socket.write("354 go ahead\r\n");
        } else if (verb === "QUIT") socket.end("221 bye\r\n");
        else socket.write("250 ok\r\n");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    commands,
    get data() {
      return data;
    },
  };
}
