import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

/**
 * PGlite is one process's database: two processes opening the same data
 * folder would corrupt it. The owner writes a lock file beside the folder with
 * its pid, and, when it is the app server, the address and a one-time token
 * through which the CLI can ask it to run a command (see app/api/internal/cli).
 */
export interface EmbeddedLockInfo {
  pid: number;
  /** Where the owning app server listens, if it is one. */
  url: string | null;
  token: string;
}

export class EmbeddedDatabaseBusyError extends Error {
  constructor(readonly owner: EmbeddedLockInfo, dataDir: string) {
    super(
      `The embedded database in ${dataDir} is open in another process (pid ${owner.pid}, probably "npm run dev"). ` +
        `Stop that process, or set DATABASE_URL to use PostgreSQL.`,
    );
  }
}

const lockPath = (dataDir: string) => `${dataDir}.lock.json`;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function readEmbeddedLock(dataDir: string): EmbeddedLockInfo | null {
  try {
    const info = JSON.parse(readFileSync(lockPath(dataDir), "utf8")) as EmbeddedLockInfo;
    return isAlive(info.pid) ? info : null;
  } catch {
    return null;
  }
}

export function acquireEmbeddedLock(dataDir: string, url: string | null): EmbeddedLockInfo {
  const info: EmbeddedLockInfo = { pid: process.pid, url, token: randomBytes(32).toString("hex") };
  mkdirSync(path.dirname(lockPath(dataDir)), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath(dataDir), "wx", 0o600);
      writeSync(fd, JSON.stringify(info));
      closeSync(fd);
      const release = () => {
        try {
          if (readEmbeddedLock(dataDir)?.pid === process.pid) unlinkSync(lockPath(dataDir));
        } catch {
          /* already gone */
        }
      };
      process.once("exit", release);
      for (const signal of ["SIGINT", "SIGTERM"] as const) {
        process.once(signal, () => {
          release();
          process.exit(130);
        });
      }
      return info;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const owner = readEmbeddedLock(dataDir);
      if (owner && owner.pid !== process.pid) throw new EmbeddedDatabaseBusyError(owner, dataDir);
      unlinkSync(lockPath(dataDir)); // stale: its process is gone
    }
  }
  throw new Error(`Could not lock the embedded database in ${dataDir}.`);
}
