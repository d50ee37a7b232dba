import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import type { Cleanup } from "./cleanup";

/**
 * The real app for the HTTP bench: `npm run build`, then `node
 * scripts/server.mjs` (what `npm start` runs) on a free port, as child
 * processes this bench stops again.
 */

const PROJECT_ROOT = path.resolve(import.meta.dirname, "../..");
/** How long a server may take from its start to a first 200 from /health (it migrates and opens its pool first). */
const STARTUP_TIMEOUT_MS = 120_000;
/** After SIGTERM, how long a server may take to close before it is killed. */
const STOP_TIMEOUT_MS = 10_000;

/** next.config.js builds into NEXT_DIST_DIR when set, else .next. */
export function hasBuild(): boolean {
  return existsSync(path.join(PROJECT_ROOT, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID"));
}

/** `npm run build`, its output on stderr (stdout may be the bench's JSON). */
export async function buildApp(cleanup: Cleanup): Promise<void> {
  // Its own process group, so an interrupted bench can stop npm and the `next build` under it together.
  const child = spawn("npm", ["run", "build"], { cwd: PROJECT_ROOT, stdio: ["ignore", process.stderr, process.stderr], detached: true });
  const cancel = cleanup.add(() => {
    if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGTERM");
  });
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", resolve);
    });
    if (code !== 0) throw new Error(`npm run build failed (exit code ${code})`);
  } finally {
    cancel();
  }
}

export interface ServerProcess {
  port: number;
  url: string;
  pid: number;
  /** The last lines it printed, for an error message. */
  recentOutput(): string;
  stop(): Promise<void>;
}

/** Starts `node scripts/server.mjs -p <free port>` with `env` added to ours, and waits until /health answers 200. */
export async function startServer(env: Record<string, string | undefined>, cleanup: Cleanup): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ["scripts/server.mjs", "-p", String(port)], {
    cwd: PROJECT_ROOT,
    env: withoutUndefined({ ...process.env, NODE_ENV: "production", PORT: String(port), ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split("\n").filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - 40));
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);

  const server: ServerProcess = {
    port,
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    recentOutput: () => lines.join("\n"),
    stop: () => stopProcess(child),
  };
  cleanup.add(server.stop);
  await waitForHealth(server, child);
  return server;
}

async function waitForHealth(server: ServerProcess, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server on port ${server.port} exited (${child.exitCode ?? child.signalCode}):\n${server.recentOutput()}`);
    }
    try {
      const response = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server on port ${server.port} did not answer /health within ${STARTUP_TIMEOUT_MS / 1000} s:\n${server.recentOutput()}`);
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const killer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(killer);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The environment with the variables set to undefined left out (e.g. our REDIS_URL when the bench runs without Redis). */
function withoutUndefined(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined)) as NodeJS.ProcessEnv;
}
