import { isAbsolute } from "node:path";
import { z } from "zod";
import { secretsEqual } from "@/lib/keys";
import { embeddedLock, getAppDatabase } from "@/lib/runtime/database";
import { runEdgarCommand } from "./edgar";
import { runImport } from "./import";
import { runCli, type CliResult } from "./index";

/**
 * Runs an operator command inside the app server, for the case where the
 * server holds the embedded database and the command's own process cannot
 * open it: the CLI (`/api/internal/cli`) and the data import
 * (`/api/internal/import`) and the EDGAR sync (`/api/internal/edgar`). They exist only while this process owns an
 * embedded database, and only for a caller that can read the lock file's
 * token (the machine's own user); anyone else gets a plain 404.
 */
const cliBody = z.object({ args: z.array(z.string().max(10_000)).max(50) });
/** A data file on this machine (the CLI that hands it over runs beside the server): read as a stream, at most MAX_IMPORT_BYTES. */
const importBody = z.object({ fileName: z.string().min(1).max(255), path: z.string().min(1).max(4096).refine((p) => isAbsolute(p), "an absolute path"), dryRun: z.boolean() });

const edgarBody = z.object({
  args: z.array(z.string().max(10_000)).max(50),
  env: z.object({ userAgent: z.string().max(500).optional(), dataBaseUrl: z.string().max(500).optional(), wwwBaseUrl: z.string().max(500).optional() }),
});

async function authorized(request: Request): Promise<boolean> {
  await getAppDatabase().catch(() => undefined);
  const lock = embeddedLock();
  const presented = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
  return lock !== undefined && secretsEqual(presented, lock.token);
}

async function run<T>(request: Request, schema: z.ZodType<T>, work: (input: T) => Promise<CliResult>): Promise<Response> {
  if (!(await authorized(request))) return new Response("Not found", { status: 404 });
  const parsed = schema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return Response.json({ exitCode: 2, stdout: "", stderr: "Malformed request.\n" }, { status: 400 });
  return Response.json(await work(parsed.data));
}

export function handleInternalCli(request: Request): Promise<Response> {
  return run(request, cliBody, async ({ args }) => runCli(args, (await getAppDatabase()).prisma));
}

export function handleInternalImport(request: Request): Promise<Response> {
  return run(request, importBody, async (input) => runImport((await getAppDatabase()).prisma, { ...input, database: "embedded PGlite, through the running app server" }));
}

export function handleInternalEdgar(request: Request): Promise<Response> {
  return run(request, edgarBody, async ({ args, env }) => runEdgarCommand((await getAppDatabase()).prisma, args, env));
}
