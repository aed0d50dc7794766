// Test helper: whether a process still runs, read from Linux /proc where there is one (a
// zombie counts as gone: where PID 1 does not reap orphans, as in many containers, a killed
// grandchild stays a zombie for ever), else from kill(pid, 0).

import { readdirSync, readFileSync } from "node:fs";
import process from "node:process";

/** Whether this machine has a Linux /proc to read processes from. */
export const hasProc = (() => {
  try {
    readFileSync("/proc/self/stat", "utf8");
    return true;
  } catch {
    return false;
  }
})();

/** "state ppid pgrp …" (the fields after "pid (comm)") of a live process, or undefined once it is gone. */
export function procStat(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** Whether a process is still running; on Linux a zombie is gone. */
export function isRunning(pid: number): boolean {
  if (hasProc) {
    const stat = procStat(pid);
    return stat !== undefined && stat[0] !== "Z" && stat[0] !== "X";
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code !== "ESRCH";
  }
}

/** A process as /proc shows it. */
export interface Proc {
  pid: number;
  /** R, S, Z, … */
  state: string;
  /** Its command line, arguments separated by spaces. */
  cmdline: string;
}

/** The child processes of `parent` (this process by default), from /proc. */
export function childProcesses(parent = process.pid): Proc[] {
  const found: Proc[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const [state, ppid] = procStat(Number(entry)) ?? [];
      if (state === undefined || Number(ppid) !== parent) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      found.push({ pid: Number(entry), state, cmdline });
    } catch {
      // exited while we looked
    }
  }
  return found;
}

/** Every process below `pid` (children, their children, …), from /proc (Linux). */
export function descendants(pid: number): number[] {
  const found: number[] = [];
  let frontier = [pid];
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const ppid = Number(procStat(Number(entry))?.[1]);
      if (frontier.includes(ppid)) next.push(Number(entry));
    }
    found.push(...next);
    frontier = next;
  }
  return found;
}
