import { parseArgs } from "node:util";
import { z } from "zod";
import { startMailSink } from "@/tools/mail-sink/server";

/**
 * `npx tsx scripts/mail-sink.ts [--smtp-port 2525] [--http-port 2526]` runs the
 * local mail sink: start the app with SMTP_URL=smtp://127.0.0.1:2525 and
 * EMAIL_FROM set, and read what it sent at http://127.0.0.1:2526/messages
 * (the browser tests start one by themselves).
 */
const USAGE = "usage: npx tsx scripts/mail-sink.ts [--smtp-port N] [--http-port N]";

const port = z.coerce.number().int().min(0).max(65_535);

async function main() {
  const { values } = parseArgs({ options: { "smtp-port": { type: "string" }, "http-port": { type: "string" }, help: { type: "boolean", short: "h" } } });
  if (values.help) return void console.log(USAGE);
  const parsed = z.object({ smtpPort: port, httpPort: port }).safeParse({ smtpPort: values["smtp-port"] ?? 2525, httpPort: values["http-port"] ?? 2526 });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    console.error(`${issue.path.join(".")}: ${issue.message}\n${USAGE}`);
    process.exit(2);
  }
  const sink = await startMailSink({ ...parsed.data, log: (line) => console.log(line) });
  console.log(`Mail sink: SMTP on 127.0.0.1:${sink.smtpPort}, messages at ${sink.httpUrl}/messages`);
  console.log(`Start the app with:\n  SMTP_URL=smtp://127.0.0.1:${sink.smtpPort} EMAIL_FROM=dev@localhost npm run dev`);
  const stop = () => void sink.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
