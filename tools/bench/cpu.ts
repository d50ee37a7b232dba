import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/**
 * Where the CPU went during a scenario: the CPU time (user + system) of
 * groups of processes, read from /proc before and after, as a share of all
 * the machine's cores over the same time. Linux only; elsewhere there are no
 * figures. A process that ended between the two samples is not counted in
 * its group (its time shows under "rest of the machine").
 */

export interface ProcessGroup {
  name: string;
  pids: number[];
}

export interface CpuSample {
  machine: { busy: number; total: number } | undefined;
  groups: ProcessGroup[];
  ticks: Map<number, number>;
}

export interface CpuShare {
  name: string;
  /** CPU seconds used. */
  seconds: number;
  /** Of all cores over the interval, 0 … 1. */
  share: number;
}

const TICKS_PER_SECOND = clockTicks();

function clockTicks(): number {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
}

/** utime + stime of a process in clock ticks, or undefined when it is gone. */
function processTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces: count the fields after its closing parenthesis, from field 3.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[14 - 3]) + Number(fields[15 - 3]);
  } catch {
    return undefined;
  }
}

/** Busy and total clock ticks of all cores together, from the first line of /proc/stat. */
function machineTicks(): CpuSample["machine"] {
  try {
    const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = user! + nice! + system! + idle! + iowait! + irq! + softirq! + steal!;
    return { busy: total - idle! - iowait!, total };
  } catch {
    return undefined;
  }
}

/** The process and everything it started, at this moment. */
export function withDescendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const pid of listPids()) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[4 - 3]);
      children.set(parent, [...(children.get(parent) ?? []), pid]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** Processes whose command name is `name` (e.g. every PostgreSQL process). */
export function pidsNamed(name: string): number[] {
  return listPids().filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === name;
    } catch {
      return false;
    }
  });
}

function listPids(): number[] {
  try {
    return readdirSync("/proc").filter((entry) => /^\d+$/.test(entry)).map(Number);
  } catch {
    return [];
  }
}

export function sampleCpu(groups: ProcessGroup[]): CpuSample {
  const ticks = new Map<number, number>();
  for (const pid of groups.flatMap((group) => group.pids)) {
    const used = processTicks(pid);
    if (used !== undefined) ticks.set(pid, used);
  }
  return { machine: machineTicks(), groups, ticks };
}

/**
 * Each group's share between two samples (a group's processes are those it
 * had in either), then the rest of the machine and its idle time. Empty when
 * /proc could not be read.
 */
export function cpuShares(before: CpuSample, after: CpuSample): CpuShare[] {
  if (!before.machine || !after.machine) return [];
  const totalTicks = after.machine.total - before.machine.total;
  if (totalTicks <= 0) return [];
  const share = (name: string, ticks: number): CpuShare => ({ name, seconds: ticks / TICKS_PER_SECOND, share: ticks / totalTicks });

  const shares = after.groups.map((group) => {
    const pids = new Set([...group.pids, ...(before.groups.find((g) => g.name === group.name)?.pids ?? [])]);
    let ticks = 0;
    for (const pid of pids) {
      const end = after.ticks.get(pid);
      if (end !== undefined) ticks += end - (before.ticks.get(pid) ?? 0);
    }
    return share(group.name, ticks);
  });
  const busyTicks = after.machine.busy - before.machine.busy;
  const accountedTicks = shares.reduce((sum, s) => sum + s.seconds * TICKS_PER_SECOND, 0);
  return [...shares, share("rest of the machine", Math.max(0, busyTicks - accountedTicks)), share("idle", totalTicks - busyTicks)];
}
