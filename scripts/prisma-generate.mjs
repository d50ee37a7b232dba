#!/usr/bin/env node
// Runs `prisma generate` on machines that cannot download Prisma's schema
// engine. Generating the client needs no engine, but the CLI looks for one at
// start; when none is installed we point it at a stub that explains itself.
// On a machine that has the engine (or network) this changes nothing.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const env = { ...process.env };

function hasSchemaEngine() {
  if (env.PRISMA_SCHEMA_ENGINE_BINARY) return true;
  try {
    const enginesDir = path.dirname(require.resolve("@prisma/engines/package.json"));
    return existsSync(enginesDir) && require("node:fs").readdirSync(enginesDir).some((f) => f.startsWith("schema-engine"));
  } catch {
    return false;
  }
}

if (!hasSchemaEngine()) {
  const dir = path.join(tmpdir(), "prisma-offline-stub");
  mkdirSync(dir, { recursive: true });
  const stub = path.join(dir, "schema-engine");
  writeFileSync(
    stub,
    "#!/bin/sh\necho 'The Prisma schema engine is not installed on this machine (it cannot be downloaded here).' >&2\n" +
      "echo 'Migrations are applied with: npm run db:migrate' >&2\nexit 1\n",
  );
  chmodSync(stub, 0o755);
  env.PRISMA_SCHEMA_ENGINE_BINARY = stub;
}

const cli = require.resolve("prisma/build/index.js");
const result = spawnSync(process.execPath, [cli, "generate", ...process.argv.slice(2)], { stdio: "inherit", env });
process.exit(result.status ?? 1);
