import { parseArgs } from "node:util";
import { startFakeEdgar } from "@/tools/edgar/fake-server";

/**
 * `npx tsx scripts/edgar-fake.ts --root <folder> [--port N]` serves a folder in
 * EDGAR's layout at SEC's URL paths (tools/edgar/fake-server.ts), for running
 * the EDGAR sync against with `--source <the URL it prints>`.
 */
const USAGE = "usage: tsx scripts/edgar-fake.ts --root <folder> [--port N]";

async function main() {
  const { values } = parseArgs({
    options: {
      root: { type: "string" },
      port: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port ?? 0);
  if (!values.root || !Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(USAGE);
    process.exit(2);
  }

  const fake = await startFakeEdgar({ root: values.root, port });
  console.log(`Fake EDGAR serving ${values.root} at ${fake.url}`);

  const stop = () => void fake.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
