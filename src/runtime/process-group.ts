// A child's process group and its descendants: signalled together, reaped together, and
// killed when the host exits, so no server outlives us (Linux /proc where it can be read).

import { sleep } from "../common/timing.ts";
import type { ChildProcess } from "./types.ts";

/** How long `exited` waits for the output to end after the process itself exited. */
export const OUTPUT_GRACE_MS = 200;

/** How long dispose() gives descendants outside the group to go after SIGTERM before SIGKILL. */
export const DESCENDANT_GRACE_MS = 1000;

/** Reads a directory's entry names and a file's text, synchronously; throw when they cannot. */
export interface SyncFs {
  readDir(path: string): string[];
  readText(path: string): string;
}

/** The part of a ChildProcess that acts on its process group, the same on every runtime. */
export interface ProcessGroup extends Pick<ChildProcess, "signalGroup" | "groupAlive"> {
  /** The child's descendants, noted while they are still below it (so those that leave the group can be ended). */
  readonly descendants: Descendants;
}

/**
 * The process group led by child `pid`: `kill` sends a signal to a pid (negative: a group),
 * `probe` is `kill(pid, 0)` (which throws when there is no such process, EPERM when it is not ours).
 */
export function processGroup(
  pid: number,
  fs: SyncFs,
  kill: (target: number, signal: "SIGTERM" | "SIGKILL") => void,
  probe: (target: number) => void,
): ProcessGroup {
  const descendants = new Descendants(pid, fs, kill);
  return {
    descendants,
    signalGroup(signal) {
      descendants.note(); // before the group is signalled: its members' children are still theirs
      try {
        kill(-pid, signal);
      } catch {
        // the group is gone
      }
      descendants.signal(signal);
    },
    groupAlive() {
      try {
        probe(-pid);
      } catch (error) {
        if ((error as { code?: unknown }).code !== "EPERM") return false;
      }
      return groupHasLiveMember(pid, fs);
    },
  };
}

/**
 * Whether process group `pgid` has a live member, for a caller to whom `kill(-pgid, 0)` said
 * yes. That probe also counts zombies, and a zombie whose parent died is never reaped where
 * PID 1 does not reap (many containers): so on Linux we look in /proc for a member that is
 * not a zombie. Where /proc cannot be read (macOS, no permission) the probe's yes stands.
 */
export function groupHasLiveMember(pgid: number, fs: SyncFs): boolean {
  let pids: string[];
  try {
    pids = fs.readDir("/proc");
  } catch {
    return true;
  }
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    const fields = statFields(Number(pid), fs);
    if (fields === undefined) continue; // exited while we looked
    if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") return true;
  }
  return false;
}

/** The fields of /proc/<pid>/stat after "pid (comm) ": state, ppid, pgrp, …; undefined once it is gone. */
function statFields(pid: number, fs: SyncFs): string[] | undefined {
  let stat: string;
  try {
    stat = fs.readText(`/proc/${pid}/stat`);
  } catch {
    return undefined;
  }
  // comm may hold spaces and parentheses: the fields start after the last ")".
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** Index of starttime (field 22 of proc(5)) among statFields. */
const START_TIME = 19;

/**
 * The descendants of one process, noted while they are its descendants (Linux /proc). A
 * grandchild that calls setsid leaves the group, so a group signal misses it, and once its
 * parent exits it is re-parented and no longer found under it: so they are noted early (at
 * closeStdin, before each group signal) and remembered with their start time, which tells
 * them from a later process given the same pid. Where /proc cannot be read it notes nothing.
 */
export class Descendants {
  readonly #root: number;
  readonly #fs: SyncFs;
  readonly #kill: (pid: number, signal: "SIGTERM" | "SIGKILL") => void;
  /** pid → start time, as noted. */
  readonly #known = new Map<number, string>();

  constructor(root: number, fs: SyncFs, kill: (pid: number, signal: "SIGTERM" | "SIGKILL") => void) {
    this.#root = root;
    this.#fs = fs;
    this.#kill = kill;
  }

  /** Notes every process now below the root: children, their children, and so on. */
  note(): void {
    const queue = [this.#root];
    const seen = new Set(queue);
    let ppids: Map<number, number[]> | undefined;
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      let children: number[] | undefined = this.#childrenFromTasks(next);
      if (children === undefined) children = (ppids ??= this.#parentMap()).get(next) ?? [];
      for (const child of children) {
        if (seen.has(child)) continue;
        seen.add(child);
        queue.push(child);
        const fields = statFields(child, this.#fs);
        if (fields?.[START_TIME] !== undefined && fields[0] !== "Z" && fields[0] !== "X") this.#known.set(child, fields[START_TIME]);
      }
    }
  }

  /** How many noted descendants are still running (zombies do not count). */
  alive(): number {
    let count = 0;
    for (const pid of this.#known.keys()) if (this.#live(pid)) count++;
    return count;
  }

  /** Signals each noted descendant that still runs and is still the process noted. */
  signal(signal: "SIGTERM" | "SIGKILL"): void {
    for (const pid of this.#known.keys()) {
      if (!this.#live(pid)) continue;
      try {
        this.#kill(pid, signal);
      } catch {
        // gone meanwhile, or not ours to signal
      }
    }
  }

  /** Ends the noted descendants still running: SIGTERM, then SIGKILL after graceMs. */
  async end(graceMs: number = DESCENDANT_GRACE_MS): Promise<void> {
    if (this.alive() === 0) return;
    this.signal("SIGTERM");
    for (let waited = 0; waited < graceMs && this.alive() > 0; waited += 25) await sleep(25);
    if (this.alive() > 0) this.signal("SIGKILL");
    for (let waited = 0; waited < graceMs && this.alive() > 0; waited += 25) await sleep(25);
  }

  #live(pid: number): boolean {
    const fields = statFields(pid, this.#fs);
    if (fields === undefined || fields[0] === "Z" || fields[0] === "X") return false;
    if (fields[START_TIME] !== this.#known.get(pid)) {
      this.#known.delete(pid); // the pid now names another process
      return false;
    }
    return true;
  }

  /** Children through /proc/<pid>/task/<tid>/children; undefined when the kernel offers no such file. */
  #childrenFromTasks(pid: number): number[] | undefined {
    let tasks: string[];
    try {
      tasks = this.#fs.readDir(`/proc/${pid}/task`);
    } catch {
      return []; // gone, or no /proc
    }
    const children: number[] = [];
    for (const task of tasks) {
      let text: string;
      try {
        text = this.#fs.readText(`/proc/${pid}/task/${task}/children`);
      } catch {
        if (tasks.length > 0 && statFields(pid, this.#fs) !== undefined) return undefined; // no children files: scan instead
        continue;
      }
      for (const word of text.split(/\s+/)) if (/^\d+$/.test(word)) children.push(Number(word));
    }
    return children;
  }

  /** Every process's children, from the ppid field of each /proc/<pid>/stat. */
  #parentMap(): Map<number, number[]> {
    const map = new Map<number, number[]>();
    let pids: string[];
    try {
      pids = this.#fs.readDir("/proc");
    } catch {
      return map;
    }
    for (const name of pids) {
      if (!/^\d+$/.test(name)) continue;
      const fields = statFields(Number(name), this.#fs);
      if (fields === undefined) continue;
      const ppid = Number(fields[1]);
      const list = map.get(ppid);
      if (list === undefined) map.set(ppid, [Number(name)]);
      else list.push(Number(name));
    }
    return map;
  }
}

/** Kill every live child group when the host exits, so no server outlives us. */
export class ChildGroups {
  readonly #live = new Set<ChildProcess>();
  add(child: ChildProcess): void {
    this.#live.add(child);
  }
  delete(child: ChildProcess): void {
    this.#live.delete(child);
  }
  killAll(): void {
    for (const child of this.#live) {
      try {
        child.signalGroup("SIGKILL");
      } catch {
        // already gone
      }
    }
    this.#live.clear();
  }
}
