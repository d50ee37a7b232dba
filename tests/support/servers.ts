import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Real PostgreSQL and Redis servers a test starts, stops and restarts itself,
 * on scratch data and free ports, to inject outages. PostgreSQL runs as the
 * `postgres` user (initdb refuses root, and CI runs as root).
 */

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function postgresBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const version = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
  const bin = version ? path.join(root, version, "bin") : null;
  return bin && existsSync(path.join(bin, "pg_ctl")) ? bin : null;
}

export const canRunServers = () => postgresBin() !== null && spawnSync("redis-server", ["--version"]).status === 0;

const isRoot = () => process.getuid?.() === 0;

function asPostgres(command: string, args: string[]) {
  const result = isRoot() ? spawnSync("runuser", ["-u", "postgres", "--", command, ...args], { encoding: "utf8" }) : spawnSync(command, args, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${path.basename(command)} ${args.join(" ")} failed: ${result.stderr || result.stdout}`);
  return result.stdout;
}

export class ScratchPostgres {
  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly bin: string,
  ) {}

  static async start(): Promise<ScratchPostgres> {
    const bin = postgresBin();
    if (!bin) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql");
    const dir = mkdtempSync(path.join(tmpdir(), "faults-pg-"));
    if (isRoot()) {
      const { uid, gid } = userIds("postgres");
      chownSync(dir, uid, gid);
    }
    asPostgres(path.join(bin, "initdb"), ["-D", dir, "-A", "trust", "-U", "postgres", "--no-sync"]);
    const server = new ScratchPostgres(dir, await freePort(), bin);
    server.up();
    return server;
  }

  get url() {
    return `postgresql://postgres@127.0.0.1:${this.port}/postgres`;
  }

  up() {
    asPostgres(path.join(this.bin, "pg_ctl"), ["-D", this.dir, "-w", "-t", "60", "-l", path.join(this.dir, "log"), "-o", `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`, "start"]);
  }

  /** Stops at once, as a crash would: connections are cut mid-query. */
  down() {
    asPostgres(path.join(this.bin, "pg_ctl"), ["-D", this.dir, "-m", "immediate", "-w", "stop"]);
  }

  destroy() {
    try {
      this.down();
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function userIds(name: string) {
  const line = spawnSync("id", ["-u", name], { encoding: "utf8" }).stdout.trim();
  const group = spawnSync("id", ["-g", name], { encoding: "utf8" }).stdout.trim();
  return { uid: Number(line), gid: Number(group) };
}

export class ScratchRedis {
  private child?: ChildProcess;
  private constructor(readonly port: number) {}

  static async start(): Promise<ScratchRedis> {
    const redis = new ScratchRedis(await freePort());
    await redis.up();
    return redis;
  }

  get url() {
    return `redis://127.0.0.1:${this.port}`;
  }

  async up() {
    this.child = spawn("redis-server", ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    for (let i = 0; i < 100; i++) {
      if (spawnSync("redis-cli", ["-p", String(this.port), "ping"], { encoding: "utf8" }).stdout.trim() === "PONG") return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("redis-server did not start");
  }

  /** Killed, as a crash would. */
  async down() {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }
}
