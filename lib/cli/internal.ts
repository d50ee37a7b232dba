import { z } from "zod";
import { getAppDatabase, embeddedLock } from "@/lib/runtime/database";
import { secretsEqual } from "@/lib/keys";
import { runCli } from "./index";

/**
 * Runs an operator CLI command inside the app server, for the case where the
 * server holds the embedded database and the CLI cannot open it. Exists only
 * while this process owns an embedded database, and only for a caller that
 * can read the lock file's token (the machine's own user).
 */
const bodySchema = z.object({ args: z.array(z.string().max(10_000)).max(50) });

export async function handleInternalCli(request: Request): Promise<Response> {
  await getAppDatabase().catch(() => undefined);
  const lock = embeddedLock();
  const presented = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
  if (!lock || !secretsEqual(presented, lock.token)) return new Response("Not found", { status: 404 });
  const parsed = bodySchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return Response.json({ exitCode: 2, stdout: "", stderr: "Malformed request.\n" }, { status: 400 });
  const database = await getAppDatabase();
  return Response.json(await runCli(parsed.data.args, database.prisma));
}
