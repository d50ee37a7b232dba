import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from "node:net";

/**
 * A local mail sink for development and the browser tests: an SMTP server
 * that accepts every message (no TLS, no authentication, loopback only) and
 * keeps it in memory, and an HTTP side that lists what arrived:
 * `GET /messages?to=ADDRESS` → `[{ from, to, subject, raw, text, receivedAt }]`
 * (`text` is the message with quoted-printable undone, so a link reads
 * whole), `GET /health` → ok. The app sends to it as to any SMTP server
 * (SMTP_URL=smtp://127.0.0.1:PORT), through nodemailer.
 */
export interface SunkMessage {
  from: string;
  to: string[];
  subject: string;
  raw: string;
  text: string;
  receivedAt: string;
}

export interface MailSink {
  smtpPort: number;
  httpUrl: string;
  messages(): SunkMessage[];
  close(): Promise<void>;
}

const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
const KEEP = 1000;

/** Quoted-printable undone (soft line breaks joined, =XX decoded as UTF-8). */
export function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === "=" ? /^[0-9A-F]{2}$/i.exec(joined.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(Number.parseInt(hex[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!, "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}

const address = (argument: string) => /<([^>]*)>/.exec(argument)?.[1]?.trim() ?? argument.trim();

/** One SMTP conversation (RFC 5321's commands a sending client needs). */
function converse(socket: Socket, keep: (message: Omit<SunkMessage, "subject" | "text" | "receivedAt">) => void) {
  let buffer = "";
  let from = "";
  let to: string[] = [];
  let data: string[] | null = null;
  let dataBytes = 0;
  const reply = (line: string) => socket.write(`${line}\r\n`);
  socket.setEncoding("utf8");
  socket.setTimeout(60_000, () => socket.destroy());
  reply("220 mail-sink ESMTP ready");
  socket.on("data", (chunk: string) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf("\r\n")) >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (data) {
        if (line === ".") {
          keep({ from, to, raw: data.join("\r\n") });
          data = null;
          from = "";
          to = [];
          reply("250 2.0.0 queued");
        } else if ((dataBytes += line.length + 2) > MAX_MESSAGE_BYTES) {
          reply("552 5.3.4 message too big");
          socket.end();
          return;
        } else data.push(line.startsWith("..") ? line.slice(1) : line);
        continue;
      }
      const [verb = "", ...rest] = line.split(" ");
      const argument = rest.join(" ");
      switch (verb.toUpperCase()) {
        case "EHLO":
          reply("250-mail-sink");
          reply("250-8BITMIME");
          reply(`250 SIZE ${MAX_MESSAGE_BYTES}`);
          break;
        case "HELO":
          reply("250 mail-sink");
          break;
        case "MAIL":
          from = address(argument.replace(/^FROM:/i, "").split(" ")[0] ?? "");
          to = [];
          reply("250 2.1.0 ok");
          break;
        case "RCPT":
          to.push(address(argument.replace(/^TO:/i, "")));
          reply("250 2.1.5 ok");
          break;
        case "DATA":
          if (to.length === 0) {
            reply("503 5.5.1 no recipients");
            break;
          }
          data = [];
          dataBytes = 0;
          reply("354 end data with <CR><LF>.<CR><LF>");
          break;
        case "RSET":
          from = "";
          to = [];
          reply("250 2.0.0 ok");
          break;
        case "NOOP":
          reply("250 2.0.0 ok");
          break;
        case "QUIT":
          reply("221 2.0.0 bye");
          socket.end();
          return;
        default:
          reply("502 5.5.2 command not implemented");
      }
    }
  });
  socket.on("error", () => socket.destroy());
}

const LINK = /https?:\/\/[^\s<>"')]+/g;
const linksIn = (text: string) => text.match(LINK) ?? [];

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The development inbox (GET /): what arrived, newest first, each message's text with its links to follow. */
function inboxPage(messages: readonly SunkMessage[]): string {
  const items = [...messages].reverse().map((m) => {
    const body = m.text.split(/\r?\n\r?\n/).slice(1).join("\n\n") || m.text;
    const linked = escapeHtml(body).replace(LINK, (link) => `<a href="${link}">${link}</a>`);
    return `<article><h2>${escapeHtml(m.subject)}</h2><p>To ${escapeHtml(m.to.join(", "))} · ${escapeHtml(m.receivedAt)}</p><pre>${linked}</pre></article>`;
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Development inbox</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#18181b}article{border:1px solid #e4e4e7;border-radius:.5rem;padding:1rem;margin:1rem 0}h2{font-size:1rem;margin:0}p{color:#52525b;margin:.25rem 0 .5rem}pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:13px;background:#fafafa;padding:.75rem;border-radius:.375rem}</style></head>
<body><h1>Development inbox</h1><p>Email the app sent while it ran with this local mail sink (newest first; the last ${KEEP} are kept, until the sink stops). Reload to see new ones.</p>
${items.length ? items.join("\n") : "<p><strong>Nothing has arrived yet.</strong> Invitations, alerts and password reset links appear here.</p>"}</body></html>`;
}

const listen = (server: TcpServer | HttpServer, port: number, host: string) =>
  new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });

export async function startMailSink(options: { smtpPort?: number; httpPort?: number; host?: string; log?: (line: string) => void } = {}): Promise<MailSink> {
  const host = options.host ?? "127.0.0.1";
  const sunk: SunkMessage[] = [];
  const sockets = new Set<Socket>();
  const smtp = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    converse(socket, (message) => {
      const text = decodeQuotedPrintable(message.raw);
      const subject = /^Subject: (.*)$/im.exec(message.raw)?.[1]?.trim() ?? "";
      sunk.push({ ...message, subject, text, receivedAt: new Date().toISOString() });
      if (sunk.length > KEEP) sunk.shift();
      options.log?.(`[mail-sink] ${message.from} → ${message.to.join(", ")}: ${subject}`);
      // The links it carries (a reset or invitation link), so a developer can follow one from the log.
      for (const link of new Set(linksIn(text))) options.log?.(`[mail-sink]   ${link}`);
    });
  });
  const http = createHttpServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://sink");
    if (req.method === "GET" && url.pathname === "/health") return void res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    if (req.method === "GET" && url.pathname === "/") {
      return void res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(inboxPage(sunk));
    }
    if (req.method === "GET" && url.pathname === "/messages") {
      const to = url.searchParams.get("to")?.toLowerCase();
      const list = to ? sunk.filter((m) => m.to.some((r) => r.toLowerCase() === to)) : sunk;
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(list));
    }
    res.writeHead(404).end();
  });
  const smtpPort = await listen(smtp, options.smtpPort ?? 0, host);
  const httpPort = await listen(http, options.httpPort ?? 0, host).catch(async (error: unknown) => {
    await new Promise((resolve) => smtp.close(resolve));
    throw error;
  });
  return {
    smtpPort,
    httpUrl: `http://${host}:${httpPort}`,
    messages: () => [...sunk],
    close: async () => {
      for (const socket of sockets) socket.destroy();
      http.closeAllConnections();
      await Promise.all([new Promise((resolve) => smtp.close(resolve)), new Promise((resolve) => http.close(resolve))]);
    },
  };
}
