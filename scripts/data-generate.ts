import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { IMPORT_KINDS } from "@/lib/data/import/schema";
import { generateSampleDataset, SAMPLE_ANCHOR_DATE, SAMPLE_DEFAULT_SEED, SAMPLE_DEFAULT_TICKER_COUNT } from "@/lib/data/sample";

/**
 * `npx tsx scripts/data-generate.ts [--tickers N] [--seed S] [--anchor YYYY-MM-DD] [--out file.json]`
 *
 * Writes the generated sample dataset as an import file (stdout without
 * --out), one record per line, ready for `scripts/data-import.ts`.
 */
const USAGE = "usage: npx tsx scripts/data-generate.ts [--tickers N] [--seed S] [--anchor YYYY-MM-DD] [--out file.json]";

function parseArgs(args: string[]) {
  const options = { tickers: SAMPLE_DEFAULT_TICKER_COUNT, seed: SAMPLE_DEFAULT_SEED, anchor: SAMPLE_ANCHOR_DATE, out: undefined as string | undefined };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i]!;
    const value = args[i + 1];
    if (value === undefined || !["--tickers", "--seed", "--anchor", "--out"].includes(flag)) throw new Error(USAGE);
    i++;
    if (flag === "--tickers" || flag === "--seed") {
      if (!/^-?\d+$/.test(value) || (flag === "--tickers" && Number(value) < 0)) throw new Error(`${flag} must be a whole number\n${USAGE}`);
      options[flag === "--tickers" ? "tickers" : "seed"] = Number(value);
    } else if (flag === "--anchor") options.anchor = value;
    else options.out = value;
  }
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const dataset = generateSampleDataset({ tickerCount: options.tickers, seed: options.seed, anchorDate: options.anchor });
  const out = options.out ? createWriteStream(options.out) : process.stdout;
  const write = async (chunk: string) => {
    if (!out.write(chunk)) await once(out, "drain");
  };
  const meta = { generator: "scripts/data-generate.ts", sample: true, seed: options.seed, tickers: options.tickers, anchor_date: options.anchor };
  await write(`{\n  "meta": ${JSON.stringify(meta)}`);
  for (const kind of IMPORT_KINDS) {
    const records = dataset[kind] as unknown[];
    await write(`,\n  ${JSON.stringify(kind)}: [`);
    for (let i = 0; i < records.length; i++) await write(`${i ? "," : ""}\n    ${JSON.stringify(records[i])}`);
    await write(records.length ? "\n  ]" : "]");
  }
  await write("\n}\n");
  if (options.out) {
    out.end();
    await once(out, "finish");
    const total = IMPORT_KINDS.reduce((n, k) => n + dataset[k].length, 0);
    console.error(`wrote ${options.out}: ${options.tickers} tickers, ${total} records in ${Math.round(performance.now() - started)} ms`);
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
